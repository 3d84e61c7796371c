import { chipSerial, MODEL_YARC } from '@weft/emulator';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { createKey, loadFixture, TestService } from './support/test-service';

/** The built-in fabric runs in a worker thread behind the maintenance transport. */
describe('the emulated fabric inside the service', () => {
  let service: TestService;
  let fabricId: number;
  let operator: string;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = Number(await loadFixture(service, operator, 'blackwidow/bw-r1.5-288'));
  });
  afterAll(() => service.stop());

  it('answers source-routed register reads through the maintenance transport, in emulated time', async () => {
    const transport = service.app.get(EmulatorService).transport(fabricId);
    const reads = await Promise.all([0, 1, 2, 3].map((slice) => transport.read([slice], 'identity')));
    expect(reads.map((r) => r.ok && r.value.slice(0, 3))).toEqual([0, 1, 2, 3].map((s) => [chipSerial(`s${s}.r1.0`), MODEL_YARC, 64]));
    expect(reads.every((r) => r.latencyNs > 0)).toBe(true);
  });

  it('turns an interrupt of an emulated chip into a stored, published LINK_DOWN event', async () => {
    const emulator = service.app.get(EmulatorService);
    await emulator.injectFault(fabricId, { action: 'cut-link', chip: 's1.r1.0', port: 40 });
    let events: { kind: string; port: number; details: { serial: number } }[] = [];
    for (let i = 0; i < 50 && events.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const page = await service.gql<{ events: { edges: { node: { kind: string; port: number; details: { serial: number } } }[] } }>(
        'query($f: ID) { events(fabricId: $f, kinds: [LINK_DOWN]) { edges { node { kind port details } } } }',
        { f: fabricId },
        operator,
      );
      events = page.data!.events.edges.map((e) => e.node);
    }
    expect(events).toHaveLength(2); // both ends of the cable raise it
    expect(events.map((e) => e.details.serial)).toContain(chipSerial('s1.r1.0'));
  });

  it('refuses a fault that names a chip the installation does not have', async () => {
    await expect(service.app.get(EmulatorService).injectFault(fabricId, { action: 'kill-router', chip: 's9.r1.0' })).rejects.toThrow(
      'no chip "s9.r1.0" in this fabric',
    );
  });
});
