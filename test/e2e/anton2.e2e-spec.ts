import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { createKey, loadFixture, StreamedEvent, TestService, watchFabricEvents } from './support/test-service';

/**
 * The 512-ASIC Anton 2 machine paper 004 measures, through the service: loaded, discovered over its
 * control network, configured (datelines, route policy, arbiter weights, every register proven
 * and pushed); an ASIC dies and automation declares it from its neighbours' link-down interrupts,
 * computes the route policy and weights around it, proves and pushes them.
 */
describe('Anton 2 through the service', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let operator: string;
  let fabricId: string;
  let events: Awaited<ReturnType<typeof watchFabricEvents>>;

  const streamed = (predicate: (e: StreamedEvent) => boolean, what: string) => events.streamed(predicate, what);

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = await loadFixture(service, operator, 'anton2/anton2-8x8x8-512');
    events = await watchFabricEvents(service, operator, fabricId, 30000);
  }, 60_000);
  afterAll(async () => {
    await events.close();
    await service.stop();
  });

  it('is discovered over its control network and configured: every ASIC written, the proof held', async () => {
    const discovered = await service.gql<{ discoverFabric: { chipsFound: number; cablesFound: number; findings: unknown[] } }>(
      'mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound cablesFound findings { kind message } } }',
      { input: { fabricId } },
      operator,
    );
    // 512 ASICs, two channels (slices) to each of six neighbours: 512 × 3 × 2 channels.
    expect(discovered.data!.discoverFabric).toEqual({ chipsFound: 512, cablesFound: 3072, findings: [] });
    const configured = await service.gql<{ configureFabric: { generation: { number: number; state: string }; verified: boolean; writes: number } }>(
      'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } verified writes } }',
      { input: { fabricId } },
      operator,
    );
    expect(configured.errors).toBeUndefined();
    expect(configured.data!.configureFabric).toEqual({ generation: { number: 1, state: 'pushed' }, verified: true, writes: 512 * 7 });
  });

  it("an ASIC dies: automation declares it from its neighbours' link-down interrupts and pushes a configuration around it", async () => {
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'kill-router', chip: 'x2.y3.z4' });
    const declared = await streamed((e) => e.kind === 'FAULT_DECLARED' && e.chip === 'x2.y3.z4', 'the dead ASIC declared');
    expect(declared.details).toMatchObject({ kind: 'router' });
    await streamed((e) => e.kind === 'GENERATION_PUSHED' && (e.details as { generation?: number }).generation === 2, 'generation 2 pushed');
    const computed = events.stream.find((e) => e.kind === 'GENERATION_COMPUTED' && (e.details as { generation?: number }).generation === 2)!;
    expect(computed.details).toMatchObject({ verified: true, engine: 'anton2' });
  });

  it('traces a route and counts channel loads of the configuration in force, none through the dead ASIC', async () => {
    const trace = await service.gql<{
      routeTrace: { generation: number; outcome: string; injection: string; hops: { chip: string; farEnd: string; how: string; vc: number }[] };
    }>(
      `query($input: RouteTraceInput!) { routeTrace(input: $input) { generation outcome injection hops { chip farEnd how vc } } }`,
      { input: { fabricId, source: 'x1.y3.z3', destination: 'x3.y3.z5', plane: 1 } },
      operator,
    );
    expect(trace.errors).toBeUndefined();
    const t = trace.data!.routeTrace;
    expect(t).toMatchObject({ generation: 2, outcome: 'delivered', injection: 'x1.y3.z3:13' });
    // Two hops in x and two in z, minimal, in the order the policy let the source draw.
    expect(t.hops).toHaveLength(4);
    expect(t.hops[0].how).toMatch(/^order [XYZ]{3} of the \d+ the route policy allows in slice 1$/);
    expect(t.hops[t.hops.length - 1].farEnd).toMatch(/^x3\.y3\.z5:/);
    const load = await service.gql<{ channelLoad: { flows: number; top: { channel: string; farEnd: string }[] } }>(
      `query($input: ChannelLoadInput!) { channelLoad(input: $input) { flows top { channel farEnd } } }`,
      { input: { fabricId, pattern: 'random-permutation', seed: 3, draws: 2 } },
      operator,
    );
    expect(load.errors).toBeUndefined();
    expect(load.data!.channelLoad.flows).toBeGreaterThan(500);
    for (const channel of load.data!.channelLoad.top) expect(`${channel.channel} ${channel.farEnd}`).not.toMatch(/x2\.y3\.z4:/);
  });
});
