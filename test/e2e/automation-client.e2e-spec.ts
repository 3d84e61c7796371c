import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadInstallationFile } from '@weft/fabric-model';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
// The example client shipped in examples/ (see the README), run as an operator would run it.
import { startCableDesk } from '../../examples/cable-desk.mjs';
import { createKey, loadFixture, TestService } from './support/test-service';

/**
 * The example maintenance-controller client: it follows lane decommissions on the event stream,
 * files a cable-replacement record for each and acknowledges the event; stopped and started again,
 * it resumes from its cursor and handles every event exactly once.
 */
describe('the example automation client (examples/cable-desk.mjs)', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let operator: string;
  let fabricId: string;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator', 'cable-desk');
    fabricId = await loadFixture(service, operator, 'blackwidow/bw-r1.5-288');
    // Discovered and configured: interrupts name their chips from then on.
    await service.gql('mutation($input: FabricIdInput!) { configureFabric(input: $input) { verified } }', { input: { fabricId } }, operator);
  });
  afterAll(() => service.stop());

  /** The R1 port facing processor p0 in `slice` (ground truth: the test picks which lane to make noisy). */
  const portFacingController = (slice: number) => {
    const cable = loadInstallationFile(join(__dirname, '../../fixtures/blackwidow/bw-r1.5-288.json')).physical.cables.find(
      (c) => c.a.chip === 'p0' && c.a.port === slice,
    )!;
    return cable.b;
  };

  /** Makes one lane of the link towards the controller noisy, then sweeps the fabric so that the link carries the answers. */
  const decommissionALane = async (slice: number, lane: number) => {
    const end = portFacingController(slice);
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'lane-bit-error-rate', chip: end.chip, port: end.port, lane, rate: 0.02 });
    await service.gql('mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound } }', { input: { fabricId } }, operator);
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'lane-bit-error-rate', chip: end.chip, port: end.port, lane, rate: 0 });
    return end;
  };

  const until = async (what: string, done: () => boolean) => {
    for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
    if (!done()) throw new Error(`timed out waiting for ${what}`);
  };

  it('files a record for each lane decommissioned and acknowledges it, resuming after a restart without repeats', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cable-desk-'));
    const records = join(dir, 'cable-replacements.jsonl');
    const filed: string[] = [];
    const read = () =>
      readFileSync(records, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { record: string; chip: string; port: number; lane: number });

    let stop = startCableDesk({ url: service.url, key: operator, records, onRecord: (r: string) => filed.push(r) });
    const first = await decommissionALane(0, 1);
    await until('the first record', () => filed.length === 1);
    expect(read()).toEqual([expect.objectContaining({ chip: first.chip, port: first.port, lane: 1 })]);
    await stop();

    // While the desk is down, another lane goes; started again, it catches up with that one only.
    const second = await decommissionALane(2, 0);
    stop = startCableDesk({ url: service.url, key: operator, records, onRecord: (r: string) => filed.push(r) });
    await until('the second record', () => filed.length === 2);
    await new Promise((r) => setTimeout(r, 300));
    await stop();
    expect(read().map((r) => [r.chip, r.port, r.lane])).toEqual([
      [first.chip, first.port, 1],
      [second.chip, second.port, 0],
    ]);

    const acknowledged = await service.gql<{ events: { edges: { node: { acknowledgedBy: string; acknowledgementNote: string } }[] } }>(
      '{ events(kinds: [LANE_DECOMMISSIONED]) { edges { node { acknowledgedBy acknowledgementNote } } } }',
      {},
      operator,
    );
    expect(acknowledged.data!.events.edges.map((e) => e.node)).toEqual(
      filed.map((record) => ({ acknowledgedBy: 'cable-desk', acknowledgementNote: `cable replacement filed: ${record}` })),
    );
  });
});
