import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createKey, TestService } from './support/test-service';
import { freshPostgres, runWeft, startWorker, WeftProcess } from './support/weft-processes';
import { SweepStudy } from './support/sweep-study';

const REDIS = process.env.WEFT_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const START_SWEEP = `mutation($input: StartSweepInput!) { startSweep(input: $input) { id } }`;
const STUDY = `query($id: ID!) { study(id: $id) { id state generation pointsDone pointsTotal points { index state worker attempts result } report } }`;
const LOADS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
/** Points of about a second each on the 288-processor fabric. */
const SWEEP = {
  fabricId: 1,
  pattern: 'uniform-random',
  seed: 11,
  warmupMinCycles: 300,
  warmupMaxCycles: 3_000,
  sampleCycles: 1_500,
  drainLimit: 20_000,
  loads: LOADS,
};

/**
 * Sweeps shared by `weft worker` processes on a Redis queue (issue 40): a sweep of 8 loads done by
 * two workers reports exactly what one worker reports; a worker killed (SIGKILL) in the middle of
 * a point gives it back, and the other worker does it: no point is lost.
 */
describe('sweeps done by weft worker processes off the job queue', () => {
  jest.setTimeout(300_000);
  let dir: string;
  let database: { url: string; drop: () => Promise<void> };
  let service: TestService;
  let operator: string;
  const prefix = `weft-test-${randomBytes(4).toString('hex')}`;
  const workers: WeftProcess[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-workers-'));
    database = await freshPostgres('weft_workers');
    service = await TestService.start({
      defaultFixture: 'blackwidow/bw-r1.5-288',
      config: { WEFT_DATABASE: database.url, WEFT_REDIS: REDIS, WEFT_QUEUE_PREFIX: prefix },
    });
    operator = await createKey(service, service.bootstrapKey!, 'operator');
  });
  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const study = async (id: string) => (await service.gql<{ study: SweepStudy }>(STUDY, { id }, operator)).data!.study;
  const until = async <T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> => {
    for (let i = 0; i < 3_000; i++) {
      const value = await probe();
      if (value) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const sweep = async () => {
    const started = await service.gql<{ startSweep: { id: string } }>(START_SWEEP, { input: SWEEP }, operator);
    expect(started.errors).toBeUndefined();
    return started.data!.startSweep.id;
  };

  it('splits a sweep of 8 loads across two workers, one killed mid-point, and reports what one worker reports', async () => {
    // One worker alone: the reference.
    const single = await startWorker(dir, { redis: REDIS, prefix, database: database.url, lockMs: 1_000 });
    workers.push(single);
    const first = await sweep();
    const alone = await until('the sweep by one worker', async () => {
      const s = await study(first);
      return s.state === 'finished' && s;
    });
    expect(new Set(alone.points.map((p) => p.worker)).size).toBe(1);

    // Two workers; one is killed while it is in the middle of a point, having done another already.
    const second = await startWorker(dir, { redis: REDIS, prefix, database: database.url, lockMs: 1_000 });
    workers.push(second);
    const id = await sweep();
    const victim = `:${second.child.pid}`;
    const taken = await until('the second worker to be in the middle of its second point', async () => {
      const s = await study(id);
      const mine = s.points.filter((p) => p.worker?.endsWith(victim));
      return mine.some((p) => p.state === 'done') && mine.find((p) => p.state === 'running');
    });
    second.child.kill('SIGKILL');
    await second.exited;
    const shared = await until('the sweep to finish', async () => {
      const s = await study(id);
      return s.state === 'finished' && s;
    });

    // The killed worker's point was given back and done by the other: begun twice, done once.
    const retaken = shared.points[taken.index];
    expect(retaken).toMatchObject({ state: 'done', attempts: 2 });
    expect(retaken.worker!.endsWith(victim)).toBe(false);
    expect(shared.points.some((p) => p.worker!.endsWith(victim) && p.state === 'done')).toBe(true);
    // The same report, point for point, and the same runs underneath.
    expect(shared.report).toEqual(alone.report);
    expect(shared.report!.points.map((p) => p.load)).toEqual(LOADS);
    expect(shared.points.map((p) => p.result)).toEqual(alone.points.map((p) => p.result));
  });

  it('a worker refuses to start without its queue or its store, naming which; a manager whose queue is gone starts nothing', async () => {
    const noQueue = await runWeft(dir, ['worker', '--redis', 'redis://127.0.0.1:1', '--database', database.url]);
    expect(noQueue).toMatchObject({
      code: 1,
      output: expect.stringContaining('weft: --redis: cannot reach the job queue at redis://127.0.0.1:1: connect ECONNREFUSED'),
    });
    const noStore = await runWeft(dir, ['worker', '--redis', REDIS, '--database', join(dir, 'nowhere.sqlite')]);
    expect(noStore).toMatchObject({ code: 1, output: expect.stringContaining(`weft: --database: there is no store at ${join(dir, 'nowhere.sqlite')}`) });

    const cut = await TestService.start({ defaultFixture: 'blackwidow/bw-r1-32', config: { WEFT_REDIS: 'redis://127.0.0.1:1', WEFT_QUEUE_PREFIX: prefix } });
    try {
      const refused = await cut.gql(START_SWEEP, { input: { ...SWEEP, loads: [0.1, 0.2] } }, cut.bootstrapKey!);
      expect(refused.errors![0]).toMatchObject({ extensions: { code: 'UNAVAILABLE', reason: 'STUDY_QUEUE_UNAVAILABLE' } });
      expect(refused.errors![0].message).toMatch(/^the job queue at redis:\/\/127\.0\.0\.1:1 cannot be reached \(.+\): the sweep was not started$/);
      const left = await cut.gql<{ studies: unknown[] }>('{ studies { id } }', {}, cut.bootstrapKey!);
      expect(left.data!.studies).toEqual([]);
    } finally {
      await cut.stop();
    }
  });
});
