import { loadImage } from '@weft/control';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKey, loadFixture, TestService } from './support/test-service';

const TRACE = `query($input: RouteTraceInput!) { routeTrace(input: $input) {
  generation source destination plane outcome reason injection hops { chip inPort outPort vc farEnd how choices { port share } } } }`;
const LOAD = `query($input: ChannelLoadInput!) { channelLoad(input: $input) {
  generation pattern flows channels maximum mean undeliverable histogram { from to channels } top { channel farEnd load } crossing { source destination plane share } } }`;
const DEPENDENCIES = `query($input: ChannelDependenciesInput!) { channelDependencies(input: $input) { generation acyclic channels dependencies cycle } }`;
const IMAGE = `query($input: GenerationImageInput!) { generationImage(input: $input) { generation format chips text } }`;

interface Trace {
  generation: number;
  outcome: string;
  reason: string;
  injection: string;
  hops: { chip: string; inPort: number; outPort: number; vc: number; farEnd: string; how: string; choices: { port: number; share: number }[] }[];
}

/** What an operator asks of the configuration in force, over GraphQL with a viewer's key. */
describe('route trace, channel load, the dependency check and the golden dump through the API', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let viewer: string;
  let fabricId: string;

  beforeAll(async () => {
    service = await TestService.start();
    const operator = await createKey(service, service.bootstrapKey!, 'operator');
    viewer = await createKey(service, service.bootstrapKey!, 'viewer');
    fabricId = await loadFixture(service, operator, 'blackwidow/bw-r1.5-288');
    const configured = await service.gql(
      'mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number } } }',
      { input: { fabricId } },
      operator,
    );
    expect(configured.errors).toBeUndefined();
  });
  afterAll(() => service.stop());

  it('traces a packet from p0 to p287 in slice 2, hop by hop, with the ports its hash could have taken', async () => {
    const result = await service.gql<{ routeTrace: Trace }>(
      TRACE,
      { input: { fabricId, source: 'p0', destination: 'p287', plane: 2, hashBits: 1234 } },
      viewer,
    );
    expect(result.errors).toBeUndefined();
    const trace = result.data!.routeTrace;
    expect(trace).toMatchObject({ generation: 1, outcome: 'delivered', reason: '', injection: 'p0:2' });
    // Up from p0's R1 and down to p287's: every router in slice 2, each leaving where the next is entered.
    expect(trace.hops.length).toBeGreaterThanOrEqual(2);
    for (const hop of trace.hops) expect(hop.chip).toMatch(/^s2\.r/);
    for (let i = 1; i < trace.hops.length; i++) expect(trace.hops[i - 1].farEnd).toBe(`${trace.hops[i].chip}:${trace.hops[i].inPort}`);
    expect(trace.hops[trace.hops.length - 1].farEnd).toBe('p287:2');
    const up = trace.hops[0];
    expect(up.how).toMatch(/^up: table entry \d+/);
    expect(up.choices.length).toBeGreaterThan(1);
    expect(up.choices.map((c) => c.port)).toContain(up.outPort);
    expect(up.choices.reduce((sum, c) => sum + c.share, 0)).toBeCloseTo(1, 9);
  });

  it('refuses to trace from an endpoint the fabric does not have, naming it', async () => {
    const result = await service.gql(TRACE, { input: { fabricId, source: 'p9999', destination: 'p1' } }, viewer);
    expect(result.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('source "p9999" is not an endpoint') });
  });

  it('computes the channel loads of a seeded random permutation, the busiest first, and which flows cross the busiest', async () => {
    const ask = async (input: Record<string, unknown>) => {
      const result = await service.gql<{ channelLoad: Record<string, unknown> & { top: { channel: string; load: number }[]; crossing: { share: number }[] } }>(
        LOAD,
        { input: { fabricId, pattern: 'random-permutation', seed: 3, draws: 2, planes: [0], ...input } },
        viewer,
      );
      expect(result.errors).toBeUndefined();
      return result.data!.channelLoad;
    };
    const report = await ask({});
    expect(report).toMatchObject({ generation: 1, pattern: 'random-permutation', undeliverable: 0 });
    expect(report.maximum as number).toBeGreaterThan(report.mean as number);
    expect(report.top[0].load).toBe(report.maximum);
    // The same seed gives the same loads.
    expect(await ask({})).toEqual(report);
    const [chip, port] = report.top[0].channel.split(':');
    const crossing = (await ask({ crossing: { chip, port: Number(port) } })).crossing;
    expect(crossing.length).toBeGreaterThan(0);
    // Each draw's flows carry half the weight: the crossing shares add up to the channel's load.
    expect(crossing.reduce((sum, f) => sum + f.share, 0) / 2).toBeCloseTo(report.top[0].load, 6);
  });

  it('refuses a traffic matrix with a bad entry, naming its row and column', async () => {
    const matrix: number[][] = Array.from({ length: 288 }, (_, s) => Array.from({ length: 288 }, (_, d) => (s === d ? 0 : 1)));
    matrix[3][5] = -1;
    const result = await service.gql(LOAD, { input: { fabricId, matrix, planes: [0] } }, viewer);
    expect(result.errors![0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: expect.stringContaining('traffic matrix [3][5] must be a non-negative number'),
    });
    const short = matrix.map((row) => [...row]);
    short[3][5] = 1;
    short[7] = short[7].slice(0, 10);
    const shortResult = await service.gql(LOAD, { input: { fabricId, matrix: short, planes: [0] } }, viewer);
    expect(shortResult.errors![0].message).toContain('row 7 of the traffic matrix has 10 entries, not 288');
  });

  it('proves the configured routing free of channel-dependency cycles', async () => {
    const result = await service.gql<{ channelDependencies: { acyclic: boolean; cycle: string[] | null; dependencies: number } }>(
      DEPENDENCIES,
      { input: { fabricId, vcs: [0] } },
      viewer,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.channelDependencies).toMatchObject({ generation: 1, acyclic: true, cycle: null });
  });

  it('answers one client’s short analysis while another client’s long one runs, and a long one asked again from the generation’s kept result', async () => {
    const other = await createKey(service, service.bootstrapKey!, 'viewer');
    const uniform = { input: { fabricId, pattern: 'uniform-random', draws: 1, seed: 7 } };
    const began = performance.now();
    let longDoneAt = 0;
    const long = service.gql(LOAD, uniform, viewer).then((r) => ((longDoneAt = performance.now() - began), r));
    await new Promise((r) => setTimeout(r, 50));
    const trace = await service.gql<{ routeTrace: Trace }>(TRACE, { input: { fabricId, source: 'p1', destination: 'p200', plane: 0 } }, other);
    const shortDoneAt = performance.now() - began;
    expect(trace.errors).toBeUndefined();
    const first = await long;
    expect(first.errors).toBeUndefined();
    // Issue 54 §11: first come first served, the trace waited for the whole channel load.
    expect(shortDoneAt).toBeLessThan(longDoneAt);
    const againBegan = performance.now();
    const again = await service.gql(LOAD, uniform, other);
    expect(again.data).toEqual(first.data);
    expect(performance.now() - againBegan).toBeLessThan(longDoneAt / 2);
  });

  it('runs a channel load off the request path: its progress read as it goes, its report the same as asked at once, given up on request, seen by its key alone', async () => {
    const START = 'mutation($input: ChannelLoadInput!) { startChannelLoad(input: $input) { id state } }';
    const RUN = 'query($id: ID!) { analysisRun(id: $id) { state progress error channelLoad { generation maximum mean flows top { channel load } } } }';
    type Run = {
      state: string;
      progress: number;
      error: string | null;
      channelLoad: { maximum: number; flows: number; top: { channel: string; load: number }[] } | null;
    };
    const input = { fabricId, pattern: 'uniform-random', seed: 11, top: 5 };
    const started = await service.gql<{ startChannelLoad: { id: string; state: string } }>(START, { input }, viewer);
    expect(started.errors).toBeUndefined();
    const id = started.data!.startChannelLoad.id;
    const seen: Run[] = [];
    for (let i = 0; i < 400; i++) {
      const run = (await service.gql<{ analysisRun: Run }>(RUN, { id }, viewer)).data!.analysisRun;
      seen.push(run);
      if (run.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ state: 'done', progress: 1, error: null });
    const progress = seen.map((r) => r.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen.some((r) => r.state === 'running' && r.progress > 0 && r.progress < 1)).toBe(true);
    const direct = await service.gql<{ channelLoad: { maximum: number; flows: number; top: { channel: string; load: number }[] } }>(LOAD, { input }, viewer);
    expect(last.channelLoad).toMatchObject({
      maximum: direct.data!.channelLoad.maximum,
      flows: direct.data!.channelLoad.flows,
      top: direct.data!.channelLoad.top.map(({ channel, load }) => ({ channel, load })),
    });

    // Another key does not see it; bad input is refused at the start.
    const other = await createKey(service, service.bootstrapKey!, 'viewer');
    expect((await service.gql(RUN, { id }, other)).errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    const refused = await service.gql(START, { input: { fabricId, pattern: 'no-such-pattern' } }, viewer);
    expect(refused.errors?.[0].message).toMatch(/^unknown pattern "no-such-pattern"/);

    // Given up: it stops at its next turn, and says so.
    const long = (await service.gql<{ startChannelLoad: { id: string } }>(START, { input: { ...input, seed: 12, draws: 4 } }, viewer)).data!.startChannelLoad
      .id;
    const cancelled = await service.gql<{ cancelAnalysis: { state: string } }>(
      'mutation($id: ID!) { cancelAnalysis(id: $id) { state } }',
      { id: long },
      viewer,
    );
    expect(cancelled.errors).toBeUndefined();
    let state = 'running';
    for (let i = 0; i < 200 && state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      state = (await service.gql<{ analysisRun: Run }>(RUN, { id: long }, viewer)).data!.analysisRun.state;
    }
    expect(state).toBe('cancelled');
  });

  it('dumps the generation in force as its golden text, which loads back and equals the fixture golden', async () => {
    const result = await service.gql<{ generationImage: { generation: number; format: string; chips: number; text: string } }>(
      IMAGE,
      { input: { fabricId } },
      viewer,
    );
    expect(result.errors).toBeUndefined();
    const dump = result.data!.generationImage;
    expect(dump).toMatchObject({ generation: 1, format: 'weft-image/1', chips: 36 });
    expect(loadImage(dump.text).routers).toHaveLength(36);
    // The same registers as the golden of this fixture (serial numbers and sweep routes aside).
    const registersOf = (text: string) => text.split('\n').filter((line) => !line.startsWith('router '));
    const golden = readFileSync(join(__dirname, '../../fixtures/goldens/bw-r1.5-288.image'), 'utf8');
    expect(registersOf(dump.text)).toEqual(registersOf(golden));
    const one = await service.gql<{ generationImage: { chips: number; text: string } }>(IMAGE, { input: { fabricId, chips: ['s1.r1.0'] } }, viewer);
    expect(one.data!.generationImage.chips).toBe(1);
  });
});
