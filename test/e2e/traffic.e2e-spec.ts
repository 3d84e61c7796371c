import { TrafficService } from '../../apps/fabric-manager/src/traffic/traffic.service';
import { TestService } from './support/test-service';

const START = `mutation($input: StartTrafficRunInput!) { startTrafficRun(input: $input) { id state pattern } }`;
const RUN = `query($id: ID!) { trafficRun(id: $id) { state pattern parameters results } }`;

interface Report {
  mode: string;
  accepted: number;
  saturated: boolean;
  latency: { count: number; meanNs: number; p99Ns: number };
  hops: Record<string, number>;
  books: { injected: number; delivered: number; discarded: Record<string, number>; inFlight: number; balanced: boolean };
}

/** Traffic on the default fabric through the API: run in the emulator's worker, stored with its report. */
describe('traffic runs', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let key: string;
  let fabricId: string;

  beforeAll(async () => {
    service = await TestService.start({ defaultFixture: 'blackwidow/bw-r1.5-288' }); // configured at first start
    key = service.bootstrapKey!;
    const fabrics = await service.gql<{ fabrics: { edges: { node: { id: string } }[] } }>('{ fabrics { edges { node { id } } } }', {}, key);
    fabricId = fabrics.data!.fabrics.edges[0].node.id;
  });
  afterAll(() => service.stop());

  const finish = async (id: string) => {
    await service.app.get(TrafficService).finished(Number(fabricId));
    return (await service.gql<{ trafficRun: { state: string; results: Report } }>(RUN, { id }, key)).data!.trafficRun;
  };

  it('runs uniform random traffic at an offered load on two slices and reports what happened to every packet', async () => {
    const started = await service.gql<{ startTrafficRun: { id: string; state: string } }>(
      START,
      { input: { fabricId, mode: 'steady-state', pattern: 'uniform-random', load: 0.3, slices: [0, 1], seed: 7, sampleCycles: 2_000, warmupMaxCycles: 6_000 } },
      key,
    );
    expect(started.data!.startTrafficRun).toMatchObject({ state: 'running' });
    const run = await finish(started.data!.startTrafficRun.id);
    expect(run.state).toBe('finished');
    const r = run.results;
    expect(r).toMatchObject({ mode: 'steady-state', saturated: false, books: { discarded: {}, balanced: true } });
    expect(r.accepted).toBeGreaterThan(0.25);
    expect(r.accepted).toBeLessThan(0.35);
    // R1.5: one router within a subtree, two across it (paper 000 §2.2).
    expect(Object.keys(r.hops).sort()).toEqual(['1', '2']);
    expect(r.latency.count).toBeGreaterThan(1000);
    expect(r.latency.p99Ns).toBeGreaterThanOrEqual(r.latency.meanNs);
  });

  it('refuses a run the fabric cannot have, naming every problem, and a second run at once', async () => {
    const bad = await service.gql(START, { input: { fabricId, mode: 'steady-state', pattern: 'bit-complement', load: 2, slices: [5] } }, key);
    expect(bad.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(bad.errors![0].message).toBe(
      'invalid traffic run: $.pattern: bit complement needs a power-of-two number of endpoints, got 288; $.slices[0]: the fabric has slices 0 to 3, got 5; $.load: must be more than 0 and at most 1, got 2',
    );
    // Two starts at once: one is taken, the other refused, whichever the service sees first.
    const batch = { input: { fabricId, mode: 'batch', pattern: 'random-permutation', packets: 20 } };
    const both = await Promise.all([
      service.gql<{ startTrafficRun: { id: string } }>(START, batch, key),
      service.gql<{ startTrafficRun: { id: string } }>(START, batch, key),
    ]);
    const taken = both.filter((answer) => answer.data?.startTrafficRun);
    const refused = both.filter((answer) => answer.errors);
    expect([taken.length, refused.length]).toEqual([1, 1]);
    expect(refused[0].errors![0]).toMatchObject({ message: `a traffic run is already running on fabric ${fabricId}`, extensions: { code: 'CONFLICT' } });
    const first = taken[0];
    const run = await finish(first.data!.startTrafficRun.id);
    // 20 packets from every processor but a permutation's fixed points (which send nothing), all delivered.
    expect(run.results).toMatchObject({ mode: 'batch', saturated: false, books: { discarded: {}, inFlight: 0, balanced: true } });
    expect(run.results.books.injected % 20).toBe(0);
    expect(run.results.books.injected).toBeGreaterThan(20 * 280);
    expect(run.results.books.delivered).toBe(run.results.books.injected);
  });
});
