import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { createKey, loadFixture, TestService, waitForAutomation } from './support/test-service';

const CONFIGURE = `mutation($input: FabricIdInput!) { configureFabric(input: $input) {
  generation { number state } verified violations problems writes unchanged endpointsProven unreachable { slice processors } findings { kind message ends { chip port } } } }`;

interface Configured {
  configureFabric: {
    generation: { number: number; state: string };
    verified: boolean;
    violations: string[];
    problems: string[];
    writes: number;
    unchanged: boolean;
    endpointsProven: number;
    unreachable: { slice: number; processors: string }[];
    findings: { kind: string; message: string }[];
  };
}

/** The control-plane loop through the API: discover, compute, verify, push — on the emulated fabric. */
describe('configuring a fabric through the API', () => {
  let service: TestService;
  let operator: string;
  let fabricId: string;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = await loadFixture(service, operator, 'blackwidow/bw-r1.5-288-miswired');
  });
  afterAll(() => service.stop());

  it('reports the miswired cables, still finds a verified configuration, and pushes it as generation 1', async () => {
    const result = await service.gql<Configured>(CONFIGURE, { input: { fabricId } }, operator);
    expect(result.errors).toBeUndefined();
    const c = result.data!.configureFabric;
    expect(c.findings.map((f) => f.kind)).toEqual(['miswired-cable', 'miswired-cable']);
    expect(c).toMatchObject({ generation: { number: 1, state: 'pushed' }, verified: true, violations: [] });
    // The proof names every live endpoint: 288 processors in each of 4 slices, none cut off.
    expect(c).toMatchObject({ endpointsProven: 288 * 4, unreachable: [] });
    expect(c.writes).toBeGreaterThan(36 * 40);
    const chips = await service.gql<{ fabric: { chips: { totalCount: number } } }>(
      'query($id: ID!) { fabric(id: $id) { chips(first: 1) { totalCount } } }',
      { id: fabricId },
      operator,
    );
    expect(chips.data!.fabric.chips.totalCount).toBe(324);
  });

  it('stores and pushes nothing when a re-sweep finds nothing new: the generation in force stays, and the answer says so', async () => {
    const c = (await service.gql<Configured>(CONFIGURE, { input: { fabricId } }, operator)).data!.configureFabric;
    // Issue 54: a configuration that changed nothing was stored as a generation of its own, and
    // `config diff 1 2` came out empty.
    expect(c).toMatchObject({ generation: { number: 1, state: 'pushed' }, verified: true, writes: 0, unchanged: true });
    expect(c.findings.map((f) => f.kind)).toEqual(['miswired-cable', 'miswired-cable']);
    const generations = await service.gql<{ generations: { number: number }[] }>(
      'query($input: FabricIdInput!) { generations(input: $input) { number } }',
      { input: { fabricId } },
      operator,
    );
    expect(generations.data!.generations.map((g) => g.number)).toEqual([1]);
  });

  it('after a cable is cut, automation writes only the routers whose registers change; a full re-sweep agrees with it', async () => {
    await service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'cut-link', chip: 's1.r1.3', port: 40 });
    await waitForAutomation(service, Number(fabricId));
    const events = await service.gql<{ events: { edges: { node: { kind: string; details: { generation: number; writes?: number; trigger?: string } } }[] } }>(
      'query($f: ID) { events(fabricId: $f, kinds: [GENERATION_COMPUTED, GENERATION_PUSHED], first: 20) { edges { node { kind details } } } }',
      { f: fabricId },
      operator,
    );
    const nodes = events.data!.events.edges.map((e) => e.node);
    const computed = nodes.find((n) => n.kind === 'GENERATION_COMPUTED' && n.details.generation === 2)!;
    const pushed = nodes.find((n) => n.kind === 'GENERATION_PUSHED' && n.details.generation === 2)!;
    expect(computed.details.trigger).toMatch(/^automation: link down at s1\.r1\.\d+/);
    expect(pushed.details.writes).toBeGreaterThan(0);
    expect(pushed.details.writes).toBeLessThan(36 * 40);

    // An operator's configuration re-sweeps the fabric: it finds the cable missing, and nothing left to write.
    const c = (await service.gql<Configured>(CONFIGURE, { input: { fabricId } }, operator)).data!.configureFabric;
    expect(c.findings.map((f) => f.kind).sort()).toEqual(['missing-cable', 'miswired-cable', 'miswired-cable']);
    expect(c).toMatchObject({ generation: { number: 2, state: 'pushed' }, verified: true, writes: 0, unchanged: true });
    expect(nodes.map((n) => n.kind)).toEqual(['GENERATION_COMPUTED', 'GENERATION_PUSHED', 'GENERATION_COMPUTED', 'GENERATION_PUSHED']);
  });
});
