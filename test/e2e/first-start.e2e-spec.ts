import { TestService } from './support/test-service';

/** `npm start` on an empty store: the default fixture is loaded, discovered, configured and pushed. */
describe('first start', () => {
  let service: TestService;
  // Starting on an empty store loads, discovers, configures and pushes the default fabric: on a busy
  // machine longer than Jest's default 5 s, after which the service started on unheard and held Jest
  // open (issue 54). The e2e tier gives every hook a minute; stopping copes with a start that failed.
  beforeAll(async () => (service = await TestService.start({ defaultFixture: 'blackwidow/bw-r1.5-288' })));
  afterAll(() => service?.stop());

  it('routes the default fabric from the start: generation 1 is pushed, and its registers can be read', async () => {
    const key = service.bootstrapKey!;
    const fabrics = await service.gql<{ fabrics: { edges: { node: { id: string; name: string } }[] } }>('{ fabrics { edges { node { id name } } } }', {}, key);
    const [{ node }] = fabrics.data!.fabrics.edges;
    expect(node.name).toBe('bw-r1.5-288');
    const generations = await service.gql<{ generations: { number: number; state: string }[] }>(
      'query($input: FabricIdInput!) { generations(input: $input) { number state } }',
      { input: { fabricId: node.id } },
      key,
    );
    expect(generations.data!.generations).toEqual([{ number: 1, state: 'pushed' }]);
    const router = await service.gql<{ routerConfiguration: { virtualRouters: { processors: string; rootDetect: { first: number; second: number } }[] } }>(
      'query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { ... on BlackWidowRouterConfiguration { virtualRouters { processors rootDetect { first second } } } } }',
      { input: { fabricId: node.id, chip: 's2.r1.8' } },
      key,
    );
    expect(router.data!.routerConfiguration).toEqual({ virtualRouters: [{ processors: '256–287', rootDetect: { first: 256, second: 31 } }] });
  });
});
