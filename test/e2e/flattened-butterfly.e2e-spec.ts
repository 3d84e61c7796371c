import { TrafficService } from '../../apps/fabric-manager/src/traffic/traffic.service';
import { createKey, loadFixture, TestService } from './support/test-service';

/**
 * The flattened butterfly through the service (issue 38): the cost and power report over GraphQL;
 * the 1,024-node 32-ary 2-flat loaded, discovered over its service network, configured (UGAL,
 * every router's registers proven and pushed) and carrying traffic as offered.
 */
describe('the flattened butterfly through the service', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let viewer: string;

  beforeAll(async () => {
    service = await TestService.start();
    viewer = await createKey(service, service.bootstrapKey!, 'viewer');
  }, 60_000);
  afterAll(() => service.stop());

  const COST = `query($input: CostReportInput!) { costReport(input: $input) {
    terminals assumptions plotSvg
    design { shape interRouterChannels dollarsPerNode wattsPerNode links { kind where channels meters } }
    topologies { topology shape routers interRouterChannels dollarsPerNode wattsPerNode } } }`;

  it('reports the 1,024-node design’s cost and power against the folded Clos, butterfly and hypercube, with the plot, to any key', async () => {
    const result = await service.gql<{
      costReport: {
        terminals: number;
        assumptions: string[];
        plotSvg: string;
        design: { shape: string; interRouterChannels: number; dollarsPerNode: number; links: { kind: string; channels: number }[] };
        topologies: { topology: string; interRouterChannels: number; dollarsPerNode: number; wattsPerNode: number }[];
      };
    }>(COST, { input: { design: { k: 32, n: 2 }, plot: true } }, viewer);
    const r = result.data!.costReport;
    expect(r.terminals).toBe(1024);
    expect(r.design).toMatchObject({ shape: '32-ary 2-flat', interRouterChannels: 992 });
    expect(r.design.links.map((l) => [l.kind, l.channels])).toEqual([
      ['terminal', 2048],
      ['backplane', 96],
      ['cable', 896],
    ]);
    expect(r.topologies.map((t) => [t.topology, t.interRouterChannels])).toEqual([
      ['flattened butterfly', 992],
      ['folded Clos', 2048],
      ['butterfly', 1024],
      ['hypercube', 10240],
    ]);
    const [flat, clos] = r.topologies;
    expect(flat.dollarsPerNode).toBeLessThan(clos.dollarsPerNode);
    expect(flat.wattsPerNode).toBeLessThan(clos.wattsPerNode);
    expect(r.assumptions.length).toBeGreaterThan(5);
    expect(r.plotSvg.startsWith('<svg')).toBe(true);
  });

  it('names what is wrong with a design or a request, and answers nothing else', async () => {
    const bad = await service.gql(COST, { input: { design: { k: 32, n: 2, radix: 40 } } }, viewer);
    expect(bad.errors![0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      problems: ['input.design.radix: a 32-ary 2-flat needs routers of radix n(k − 1) + 1 = 63 (eq. (1)), got 40'],
    });
    const neither = await service.gql(COST, { input: {} }, viewer);
    expect(neither.errors![0].message).toBe('give either terminals or a design (a flattened butterfly to cost cable by cable)');
    const tooMany = await service.gql(COST, { input: { terminals: 1 << 21 } }, viewer);
    expect(tooMany.errors![0].message).toMatch(/terminals/);
  });

  it('loads, discovers and configures the 32-ary 2-flat: every router written, the proof held; traffic then runs as offered', async () => {
    const operator = await createKey(service, service.bootstrapKey!, 'operator');
    const fabricId = await loadFixture(service, operator, 'flattened-butterfly/fb-32ary-2flat-1024');
    const discovered = await service.gql<{ discoverFabric: { chipsFound: number; cablesFound: number; findings: unknown[] } }>(
      'mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound cablesFound findings { kind message } } }',
      { input: { fabricId } },
      operator,
    );
    // 32 routers, each cabled to the 31 others once.
    expect(discovered.data!.discoverFabric).toEqual({ chipsFound: 32, cablesFound: 496, findings: [] });
    const configured = await service.gql<{ configureFabric: { generation: { number: number; state: string }; verified: boolean; writes: number } }>(
      'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } verified writes } }',
      { input: { fabricId } },
      operator,
    );
    expect(configured.errors).toBeUndefined();
    // Ten registers a router: shape, coordinates, port map, doubled channels, VC map, buffer split, mask, detours, excluded intermediates, mode.
    expect(configured.data!.configureFabric).toEqual({ generation: { number: 1, state: 'pushed' }, verified: true, writes: 32 * 10 });
    const started = await service.gql<{ startTrafficRun: { id: string } }>(
      `mutation($input: StartTrafficRunInput!) { startTrafficRun(input: $input) { id state } }`,
      { input: { fabricId, mode: 'steady-state', pattern: 'uniform-random', load: 0.5, slices: [0], seed: 5, sampleCycles: 2_000, warmupMaxCycles: 4_000 } },
      operator,
    );
    expect(started.errors).toBeUndefined();
    await service.app.get(TrafficService).finished(Number(fabricId));
    const run = await service.gql<{
      trafficRun: { state: string; results: { accepted: number; saturated: boolean; books: { balanced: boolean; discarded: object } } };
    }>(`query($id: ID!) { trafficRun(id: $id) { state results } }`, { id: started.data!.startTrafficRun.id }, operator);
    const { state, results: r } = run.data!.trafficRun;
    expect(state).toBe('finished');
    expect(r.saturated).toBe(false);
    expect(r.accepted).toBeGreaterThan(0.45);
    expect(r.accepted).toBeLessThan(0.55);
    expect(r.books).toMatchObject({ balanced: true, discarded: {} });

    // The operator moves it to CLOS AD: a new generation, proven and pushed; read back.
    const set = await service.gql<{ setFlatRouting: { generation: { number: number; state: string }; verified: boolean } }>(
      'mutation($input: FlatRoutingInput!) { setFlatRouting(input: $input) { generation { number state } verified } }',
      { input: { fabricId, routing: 'clos-ad' } },
      operator,
    );
    expect(set.data!.setFlatRouting).toEqual({ generation: { number: 2, state: 'pushed' }, verified: true });
    const read = await service.gql<{ flatRouting: { routing: string; allocator: string | null } }>(
      'query($input: Anton2RoutingInput!) { flatRouting(input: $input) { routing allocator } }',
      { input: { fabricId } },
      operator,
    );
    expect(read.data!.flatRouting).toEqual({ routing: 'clos-ad', allocator: null });
    const refused = await service.gql(
      'mutation($input: FlatRoutingInput!) { setFlatRouting(input: $input) { verified } }',
      { input: { fabricId, routing: 'zigzag' } },
      operator,
    );
    expect(refused.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});
