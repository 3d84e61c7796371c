/**
 * A sweep of 8 loads shared by `weft worker` processes (issue 40): the manager on PostgreSQL puts
 * the points on the Redis queue; the sweep's wall time from start to finished with one worker and
 * with two (this machine has two cores: the points are independent, so two workers should take
 * about half as long). The same points, the same report, either way (tested in study-workers).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgres, ManagerProcess, query, startManager, startWorker, WeftProcess } from '../e2e/support/weft-processes';
import { Benchmark, Measurement } from './harness';

const REDIS = 'redis://127.0.0.1:6379';
const FIXTURE = 'blackwidow/bw-r1.5-288';
const SWEEP = { fabricId: 1, pattern: 'uniform-random', seed: 3, loads: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8] };

let dir = '';
let database: { url: string; drop: () => Promise<void> } | undefined;
let manager: ManagerProcess | undefined;
let key = '';
const prefix = `weft-bench-${randomBytes(4).toString('hex')}`;

async function sweepWith(workers: number): Promise<number> {
  const started: WeftProcess[] = [];
  for (let i = 0; i < workers; i++) started.push(await startWorker(dir, { redis: REDIS, prefix, database: database!.url }));
  try {
    const began = performance.now();
    const id = (
      await query<{ startSweep: { id: string } }>(manager!.url, key, 'mutation($input: StartSweepInput!) { startSweep(input: $input) { id } }', {
        input: SWEEP,
      })
    ).data!.startSweep.id;
    for (;;) {
      const { state } = (await query<{ study: { state: string } }>(manager!.url, key, 'query($id: ID!) { study(id: $id) { state } }', { id })).data!.study;
      if (state === 'finished') return performance.now() - began;
      if (state === 'failed') throw new Error(`sweep ${id} failed`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    for (const w of started) w.child.kill('SIGTERM');
    await Promise.all(started.map((w) => w.exited));
  }
}

async function run(): Promise<Measurement> {
  const one = await sweepWith(1);
  const two = await sweepWith(2);
  return { ms: two, oneWorkerMs: one, speedup: one / two };
}

export const benchmarks: Benchmark[] = [
  {
    name: 'studies: a sweep of 8 loads on the 288-processor BlackWidow, by one weft worker and by two (Redis queue, PostgreSQL)',
    parameters: { fixture: FIXTURE, loads: 8, pattern: 'uniform-random', store: 'PostgreSQL (loopback)', queue: 'Redis (loopback), BullMQ' },
    isolated: true,
    warmup: 0,
    runs: 3,
    setup: async () => {
      dir = mkdtempSync(join(tmpdir(), 'weft-studies-bench-'));
      database = await freshPostgres('weft_studies_bench');
      manager = await startManager(dir, { WEFT_DATABASE: database.url, WEFT_REDIS: REDIS, WEFT_QUEUE_PREFIX: prefix, WEFT_DEFAULT_FIXTURE: FIXTURE });
      key = readFileSync(join(dir, 'data', `admin-key.${/\/([^/?]+)$/.exec(database.url)![1]}`), 'utf8').trim();
    },
    run,
    teardown: async () => {
      manager?.process.child.kill('SIGTERM');
      await manager?.process.exited;
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  },
];
