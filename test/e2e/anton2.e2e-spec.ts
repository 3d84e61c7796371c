import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { TrafficService } from '../../apps/fabric-manager/src/traffic/traffic.service';
import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import { createKey, loadFixture, StreamedEvent, TestService, waitForAutomation, watchFabricEvents } from './support/test-service';

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
    // The routes went first; the inverse weights around the dead ASIC follow as generation 3.
    await waitForAutomation(service, Number(fabricId));
    await streamed((e) => e.kind === 'GENERATION_PUSHED' && (e.details as { generation?: number }).generation === 3, 'the weights pushed as generation 3');
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
    expect(t).toMatchObject({ generation: 3, outcome: 'delivered', injection: 'x1.y3.z3:13' });
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

  it('decodes a neighbour of the dead ASIC: its channels to it out of service and why, the destinations its policy restricts, datelines, arbiters', async () => {
    const result = await service.gql<{
      routerConfiguration: {
        family: string;
        generation: number;
        coordinates: number[];
        datelines: { dimension: string; meaning: string }[];
        routePolicy: string[];
        arbitration: string;
        outOfService: { port: number; farEnd: string; reason: string }[];
        raw: { register: string }[];
      };
    }>(
      `query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { family generation outOfService { port farEnd reason } raw { register }
        ... on Anton2AsicConfiguration { coordinates datelines { dimension meaning } routePolicy arbitration } } }`,
      { input: { fabricId, chip: 'x1.y3.z4', generation: 2 } },
      operator,
    );
    expect(result.errors).toBeUndefined();
    const asic = result.data!.routerConfiguration;
    expect(asic).toMatchObject({ family: 'anton2', generation: 2, coordinates: [1, 3, 4] });
    // Its two X+ channels (one a slice) lead to the dead ASIC.
    expect(asic.outOfService.map((p) => `${p.port} ${p.farEnd}`)).toEqual(['0 x2.y3.z4:2', '1 x2.y3.z4:3']);
    expect(asic.outOfService[0].reason).toMatch(/^the far router x2\.y3\.z4 is out of service/);
    // x3.y3.z4 lies beyond it on the same line: no combination avoids it.
    expect(asic.routePolicy).toContain('x3.y3.z4: none — unreachable');
    expect(asic.routePolicy.find((l) => l.startsWith('x2.y4.z4:'))).toMatch(/\((\d+) of 12\)$/);
    expect(asic.datelines[0].meaning).toBe('+ and − between x=7 and x=0');
    expect(asic.arbitration).toMatch(/^inverse-weighted at every SA2 arbiter; inverse weights \d+–\d+ over two patterns/);
    expect(asic.raw.map((w) => w.register)).toEqual([
      'nodeCoordinates',
      'torusSize',
      'datelines',
      'routePolicy',
      'arbiterWeights',
      'arbiterModes',
      'multicastTable',
    ]);
  });

  it('takes an operator’s weight patterns and multicast groups as a new proven generation, refuses bad ones naming each problem, and shows the trees', async () => {
    const SET = `mutation($input: Anton2RoutingSettingsInput!) { setAnton2Routing(input: $input) { generation { number state } verified } }`;
    const READ = `query($input: Anton2RoutingInput!) { anton2Routing(input: $input) { arbiterPatterns { name hops } multicastGroups { group source trees { order slice torusHops } unicastHops } unserved tableEntriesMax tableCapacity } }`;
    const viewer = await createKey(service, service.bootstrapKey!, 'viewer');
    const refusedViewer = await service.gql(SET, { input: { fabricId, arbiterPatterns: [{ name: 'tornado' }] } }, viewer);
    expect(refusedViewer.errors?.[0].extensions?.code).toBe('FORBIDDEN');

    const bad = await service.gql(
      SET,
      {
        input: {
          fabricId,
          arbiterPatterns: [{ name: 'zigzag' }],
          multicastGroups: [
            { group: 1, source: 'x0.y0.z9', destinations: [{ chip: 'x1.y0.z0', endpoints: [40] }] },
            { group: 2, source: 'x0.y0.z0', destinations: [] },
          ],
        },
      },
      operator,
    );
    expect(bad.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      problems: [
        'arbiterPatterns[0].name: uniform, tornado, reverse-tornado, neighbour or matrix, got "zigzag"',
        'multicastGroups[0].source: no ASIC is named "x0.y0.z9"',
        'multicastGroups[0].destinations[0].endpoints[0]: an ASIC has endpoint adapters 0 to 22, got 40',
        'multicastGroups[1].destinations: the set is empty',
      ],
    });

    // The generations so far (the dead ASIC's routes, and its weights after them, may still be on their way).
    const before = await service.gql<{ generations: { number: number }[] }>(
      'query($input: FabricIdInput!) { generations(input: $input) { number } }',
      { input: { fabricId } },
      operator,
    );
    const latest = Math.max(...before.data!.generations.map((g) => g.number));
    // Eight ASICs of the plane z = 0, two endpoints each, from x0.y0.z0.
    const destinations = [1, 2, 3, 4].flatMap((x) => [0, 5].map((y) => ({ chip: `x${x}.y${y}.z0`, endpoints: [0, 7] })));
    const set = await service.gql<{ setAnton2Routing: { generation: { number: number; state: string }; verified: boolean } }>(
      SET,
      { input: { fabricId, arbiterPatterns: [{ name: 'tornado' }, { name: 'uniform' }], multicastGroups: [{ group: 5, source: 'x0.y0.z0', destinations }] } },
      operator,
    );
    expect(set.errors).toBeUndefined();
    expect(set.data!.setAnton2Routing).toMatchObject({ generation: { state: 'pushed' }, verified: true });
    expect(set.data!.setAnton2Routing.generation.number).toBeGreaterThan(latest);
    const read = await service.gql<{
      anton2Routing: {
        arbiterPatterns: { name: string }[];
        multicastGroups: { group: number; trees: { order: string; slice: number; torusHops: number }[]; unicastHops: number }[];
        tableEntriesMax: number;
      };
    }>(READ, { input: { fabricId } }, viewer);
    expect(read.errors).toBeUndefined();
    const routing = read.data!.anton2Routing;
    expect(routing.arbiterPatterns.map((p) => p.name)).toEqual(['tornado', 'uniform']);
    const [group] = routing.multicastGroups;
    expect(group.group).toBe(5);
    // Two trees in the two slices; each uses fewer torus hops than unicasting to every destination.
    expect(group.trees.map((t) => t.slice).sort()).toEqual([0, 1]);
    for (const tree of group.trees) expect(tree.torusHops).toBeLessThan(group.unicastHops);
    expect(routing.tableEntriesMax).toBe(2);
  });

  it('runs traffic from the endpoint adapters a request names: accepted as offered, every packet delivered but those for the dead ASIC, refused at their sources', async () => {
    const START = `mutation($input: StartTrafficRunInput!) { startTrafficRun(input: $input) { id state } }`;
    const started = await service.gql<{ startTrafficRun: { id: string } }>(
      START,
      {
        input: { fabricId, mode: 'steady-state', pattern: 'uniform-random', load: 0.05, slices: [0, 11], seed: 5, sampleCycles: 2_000, warmupMaxCycles: 4_000 },
      },
      operator,
    );
    expect(started.errors).toBeUndefined();
    await service.app.get(TrafficService).finished(Number(fabricId));
    const run = await service.gql<{
      trafficRun: {
        state: string;
        results: {
          accepted: number;
          saturated: boolean;
          books: { balanced: boolean; discarded: Record<string, number> };
          discards: { chip: string; port: number; destination: number }[];
        };
      };
    }>(`query($id: ID!) { trafficRun(id: $id) { state results } }`, { id: started.data!.startTrafficRun.id }, operator);
    const { state, results: r } = run.data!.trafficRun;
    expect(state).toBe('finished');
    expect(r.saturated).toBe(false);
    expect(r.accepted).toBeGreaterThan(0.04);
    expect(r.accepted).toBeLessThan(0.06);
    expect(r.books.balanced).toBe(true);
    // Only packets no route can carry are lost — for x2.y3.z4 (dead, declared), and between the pairs on its lines — refused by
    // their sources' route policy at the endpoint adapters that sent them (ports 12 + 0 and 12 + 11).
    expect(Object.keys(r.books.discarded)).toEqual(['unreachable']);
    expect(new Set(r.discards.map((d) => d.port))).toEqual(new Set([12, 23]));
    const design = loadInstallationFile(join(__dirname, '../../fixtures/anton2/anton2-8x8x8-512.json')).physical;
    const deadNode = design.chips.findIndex((c) => c.name === 'x2.y3.z4');
    expect(r.discards.filter((d) => d.destination === deadNode).length).toBeGreaterThan(0);
  });
});
