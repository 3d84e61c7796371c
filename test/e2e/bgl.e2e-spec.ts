import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { createKey, loadFixture, StreamedEvent, TestService, watchFabricEvents } from './support/test-service';

/**
 * A BlueGene/L midplane through the service: loaded, discovered over its JTAG control network,
 * configured and pushed; a node dies and automation declares it, computes the route-override
 * tables around it, proves and pushes them, with no operator involved.
 */
describe('BlueGene/L through the service', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let operator: string;
  let fabricId: string;
  let events: Awaited<ReturnType<typeof watchFabricEvents>>;

  const streamed = (predicate: (e: StreamedEvent) => boolean, what: string) => events.streamed(predicate, what);

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = await loadFixture(service, operator, 'bgl/bgl-midplane-512');
    events = await watchFabricEvents(service, operator, fabricId, 30000);
  });
  afterAll(async () => {
    await events.close();
    await service.stop();
  });

  it('is discovered over JTAG and configured: every node written, the proof held', async () => {
    const discovered = await service.gql<{ discoverFabric: { chipsFound: number; cablesFound: number; findings: unknown[] } }>(
      'mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound cablesFound findings { kind message } } }',
      { input: { fabricId } },
      operator,
    );
    expect(discovered.data!.discoverFabric).toEqual({ chipsFound: 512, cablesFound: 1536, findings: [] });
    const configured = await service.gql<{ configureFabric: { generation: { number: number; state: string }; writes: number } }>(
      'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } writes } }',
      { input: { fabricId } },
      operator,
    );
    expect(configured.errors).toBeUndefined();
    expect(configured.data!.configureFabric.generation).toEqual({ number: 1, state: 'pushed' });
    expect(configured.data!.configureFabric.writes).toBe(512 * 3);
  });

  it("a node dies: automation declares it from its neighbours' link-down interrupts and pushes tables that route around it", async () => {
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'kill-router', chip: 'x2.y3.z4' });
    const declared = await streamed((e) => e.kind === 'FAULT_DECLARED' && e.chip === 'x2.y3.z4', 'the dead node declared');
    expect(declared.details).toMatchObject({ kind: 'router' });
    const pushed = await streamed((e) => e.kind === 'GENERATION_PUSHED' && (e.details as { generation?: number }).generation === 2, 'generation 2 pushed');
    expect(pushed).toBeDefined();
    const computed = events.stream.find((e) => e.kind === 'GENERATION_COMPUTED' && (e.details as { generation?: number }).generation === 2)!;
    expect(computed.details).toMatchObject({ verified: true, engine: 'bgl' });
  });

  it('traces a route around the dead node and counts channel loads of the configuration in force', async () => {
    const trace = await service.gql<{
      routeTrace: { generation: number; outcome: string; injection: string; hops: { chip: string; farEnd: string; how: string; vc: number }[] };
    }>(
      `query($input: RouteTraceInput!) { routeTrace(input: $input) { generation outcome injection hops { chip farEnd how vc } } }`,
      { input: { fabricId, source: 'x2.y3.z3', destination: 'x2.y3.z5', plane: 0 } },
      operator,
    );
    expect(trace.errors).toBeUndefined();
    const t = trace.data!.routeTrace;
    expect(t).toMatchObject({ generation: 2, outcome: 'delivered', injection: 'x2.y3.z3:6' });
    // Straight through z it would cross the dead node: its table sends it another way.
    expect(t.hops[0].how).toMatch(/^route-override entry at word \d+/);
    expect(t.hops.map((h) => h.farEnd.split(':')[0])).not.toContain('x2.y3.z4');
    expect(t.hops[t.hops.length - 1].farEnd).toMatch(/^x2\.y3\.z5:/);
    const load = await service.gql<{ channelLoad: { undeliverable: number; flows: number; top: { channel: string; farEnd: string; load: number }[] } }>(
      `query($input: ChannelLoadInput!) { channelLoad(input: $input) { undeliverable flows top { channel farEnd load } } }`,
      { input: { fabricId, pattern: 'random-permutation', seed: 3, draws: 4 } },
      operator,
    );
    expect(load.errors).toBeUndefined();
    expect(load.data!.channelLoad.undeliverable).toBe(0);
    expect(load.data!.channelLoad.flows).toBeGreaterThan(511 * 3);
    for (const channel of load.data!.channelLoad.top) expect(channel.farEnd).not.toMatch(/^x2\.y3\.z4:/);
  });

  it("shows a node's registers decoded beside the raw words, and the links the configuration avoids", async () => {
    const result = await service.gql<{
      routerConfiguration: {
        family: string;
        generation: number;
        coordinates: number[];
        hints: { dimension: string; meaning: string }[];
        neighbours: { direction: string; node: string }[];
        routeOverrides: string[];
        bubble: { accounting: string };
        outOfService: { port: number; farEnd: string; reason: string; faultId: string | null }[];
        raw: { register: string; value: number[] }[];
      };
    }>(
      `query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { family generation outOfService { port farEnd reason faultId }
        raw { register value } ... on BglNodeConfiguration { coordinates hints { dimension meaning } neighbours { direction node } routeOverrides bubble { accounting } } } }`,
      { input: { fabricId, chip: 'x2.y3.z3' } },
      operator,
    );
    expect(result.errors).toBeUndefined();
    const node = result.data!.routerConfiguration;
    expect(node).toMatchObject({ family: 'bgl', generation: 2, coordinates: [2, 3, 3], bubble: { accounting: 'full-size (BG/L’s correction)' } });
    expect(node.neighbours.find((n) => n.direction === 'z+')).toEqual({ direction: 'z+', node: 'x2.y3.z4' });
    // Minimal on a ring of 8 from z=3; the tie at 7 goes − from an odd coordinate (source parity).
    expect(node.hints[2].meaning).toBe('from z=3 of 8: z+ to 4…6, z− to 7…2');
    // Its link to the dead node, and why.
    expect(node.outOfService).toEqual([
      expect.objectContaining({ port: 4, farEnd: 'x2.y3.z4:5', reason: expect.stringMatching(/^the far router x2\.y3\.z4 is out of service \(fault #\d+/) }),
    ]);
    expect(node.routeOverrides[0]).toMatch(/^relay penalty 8 hops, \d+ entries$/);
    expect(node.raw.map((w) => w.register)).toEqual(['routingRegisters', 'policyRegisters', 'routeOverrides']);
  });
});
