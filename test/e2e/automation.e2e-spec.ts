import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { createKey, loadFixture, StreamedEvent, TestService, watchFabricEvents } from './support/test-service';

/**
 * Maintenance-controller automation, end to end: an automation client watches the event stream
 * while the emulated fabric breaks; weft records the fault, computes, verifies and pushes a new
 * generation with no operator involved, and puts it back when the cable is restored.
 */
describe('automatic re-routing on interrupts', () => {
  jest.setTimeout(30_000);
  let service: TestService;
  let operator: string;
  let fabricId: string;
  let events: Awaited<ReturnType<typeof watchFabricEvents>>;

  const streamed = (predicate: (e: StreamedEvent) => boolean, what: string) => events.streamed(predicate, what);

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = await loadFixture(service, operator, 'blackwidow/bw-r1.5-288');
    const configured = await service.gql<{ configureFabric: { generation: { number: number; state: string } } }>(
      'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } } }',
      { input: { fabricId } },
      operator,
    );
    expect(configured.data!.configureFabric.generation).toEqual({ number: 1, state: 'pushed' });
    events = await watchFabricEvents(service, operator, fabricId, 15000);
  });
  afterAll(async () => {
    await events.close();
    await service.stop();
  });

  const activeFaults = async () =>
    (
      await service.gql<{ activeFaults: { kind: string; chip: string; port: number | null; source: string }[] }>(
        'query($input: FabricIdInput!) { activeFaults(input: $input) { kind chip port source } }',
        { input: { fabricId } },
        operator,
      )
    ).data!.activeFaults;

  it('a cut sidelink: the fault is recorded from the interrupt and a new generation is pushed without an operator', async () => {
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'cut-link', chip: 's2.r1.4', port: 40 });
    const pushed = await streamed((e) => e.kind === 'GENERATION_PUSHED' && e.details.generation === 2, 'generation 2 pushed');
    expect(pushed.details.failures).toEqual([]);
    const computed = events.stream.find((e) => e.kind === 'GENERATION_COMPUTED' && e.details.generation === 2)!;
    // Only the routers the cable touches were recomputed, and only what they changed re-proven.
    expect(computed.details).toMatchObject({ verified: true, incremental: true, trigger: expect.stringMatching(/^automation: link down at s2\.r1\.\d+:\d+/) });
    // The interrupt came first, then the fault, then the generation: stored in that order.
    const at = (kind: string) => events.stream.findIndex((e) => e.kind === kind);
    expect(at('LINK_DOWN')).toBeLessThan(at('FAULT_DECLARED'));
    // The chip raised it by serial number; the event names it as discovery matched it.
    expect(events.stream[at('LINK_DOWN')]).toMatchObject({ chip: expect.stringMatching(/^s2\.r1\.\d+$/), port: expect.any(Number) });
    expect(at('FAULT_DECLARED')).toBeLessThan(events.stream.indexOf(computed));
    expect(await activeFaults()).toEqual([{ kind: 'link', chip: expect.stringMatching(/^s2\.r1\./), port: expect.any(Number), source: 'interrupt' }]);
  });

  it('the cable restored: the fault is cleared and the paths come back in the next generation', async () => {
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'restore-link', chip: 's2.r1.4', port: 40 });
    await streamed((e) => e.kind === 'GENERATION_PUSHED' && e.details.generation === 3, 'generation 3 pushed');
    expect(events.stream.some((e) => e.kind === 'FAULT_CLEARED')).toBe(true);
    expect(await activeFaults()).toEqual([]);
  });

  it('a router that dies is found silent by a probe, declared unresponsive and routed around', async () => {
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'kill-router', chip: 's3.r1.7' });
    const unresponsive = await streamed((e) => e.kind === 'ROUTER_UNRESPONSIVE', 'a router declared unresponsive');
    expect(unresponsive.chip).toBe('s3.r1.7');
    const pushed = await streamed((e) => e.kind === 'GENERATION_PUSHED' && e.details.generation === 4, 'generation 4 pushed');
    expect(pushed.details.failures).toEqual([]);
    const computed = events.stream.find((e) => e.kind === 'GENERATION_COMPUTED' && e.details.generation === 4)!;
    // Its 32 processors are cut off from slice 3 only, and the report says so: the proof covers
    // every other live endpoint (288 processors in 4 slices).
    expect(computed.details).toMatchObject({
      verified: true,
      unreachable: [{ kind: 'processors', slice: 3, processors: Array.from({ length: 32 }, (_, i) => 224 + i) }],
      endpointsProven: 288 * 4 - 32,
    });
    expect(await activeFaults()).toEqual([{ kind: 'router', chip: 's3.r1.7', port: null, source: 'interrupt' }]);

    // A neighbour's cables to it are out of service, one reason for all of them.
    const outOfService = async (chip: string, generation?: number) =>
      (
        await service.gql<{ routerConfiguration: { outOfService: { port: number; farEnd: string; reason: string; faultId: string | null }[] } }>(
          'query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { outOfService { port farEnd reason faultId } } }',
          { input: { fabricId, chip, generation } },
          operator,
        )
      ).data!.routerConfiguration.outOfService;
    const neighbour = await outOfService('s3.r1.0');
    expect(neighbour.length).toBeGreaterThan(0);
    for (const o of neighbour) {
      expect(o.farEnd).toMatch(/^s3\.r1\.7:\d+$/);
      expect(o.reason).toMatch(
        /^the far router s3\.r1\.7 is out of service \(fault #\d+, recorded from an interrupt at .* UTC: s3\.r1\.\d:\d+ lost its link to s3\.r1\.7, which no longer answers maintenance reads\)$/,
      );
    }
    // The dead router itself is configured no more, and asking for it says why.
    const dead = await service.gql(
      'query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { chip } }',
      { input: { fabricId, chip: 's3.r1.7' } },
      operator,
    );
    expect(dead.errors![0].message).toMatch(
      new RegExp(`^generation 4 of fabric ${fabricId} configures no router "s3\\.r1\\.7": it is out of service \\(fault #\\d+, recorded from an interrupt at `),
    );
    // Generation 2 still says why it left the cut cable unused, though that fault has been cleared.
    const [cut] = await outOfService('s2.r1.4', 2);
    expect(cut).toMatchObject({
      port: 40,
      reason: expect.stringMatching(/^cable fault on s2\.r1\.\d+:\d+(, the far end)? \(fault #\d+, recorded from an interrupt/),
    });
    expect(await outOfService('s2.r1.4')).toEqual([]);
  });
});
