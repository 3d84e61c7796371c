import { createKey, TestService } from './support/test-service';

/**
 * The flattened butterfly through the service (issue 38), as far as it has landed: the cost and
 * power report over GraphQL, and its fabrics refused — nothing stored — until its routing engine
 * arrives.
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

  it('refuses to load a flattened butterfly fabric until its routing engine lands, storing nothing', async () => {
    const operator = await createKey(service, service.bootstrapKey!, 'operator');
    const loaded = await service.gql(
      'mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id } }',
      { input: { fixture: 'flattened-butterfly/fb-32ary-2flat-1024' } },
      operator,
    );
    expect(loaded.errors![0].message).toMatch(/the flattened-butterfly family has no routing engine in this service yet/);
    const fabrics = await service.gql<{ fabrics: { totalCount: number } }>('{ fabrics { totalCount } }', {}, operator);
    expect(fabrics.data!.fabrics.totalCount).toBe(0);
  });
});
