import { withoutPassword } from '../../fabric-manager/src/public-api';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { dataSourceOptions, EmulatorClient, StudyPointRunner, studyWorker, workerName } from '../../fabric-manager/src/worker-api';
import { out } from './cli-options';
import { CliError } from './graphql-client';

export interface WorkerOptions {
  redis: string;
  prefix: string;
  database: string;
  concurrency: number;
  lockMs: number;
}

/**
 * `weft worker`: takes study points off the job queue and does them — each on an emulated fabric of
 * its own, configured from the store's generation — writing results to the store, until stopped
 * (SIGTERM or SIGINT: the points under way are finished first). `concurrency` points at a time,
 * each in an emulator thread of its own.
 */
export async function workerCommand(options: WorkerOptions): Promise<never> {
  if (!/^rediss?:\/\/.+/.test(options.redis)) throw new CliError(`--redis: ${withoutPassword(options.redis)} is not a redis://host:port URL`);
  // A store that is not there is said as such (SQLite would make an empty one).
  if (!/^postgres(ql)?:\/\//.test(options.database) && !existsSync(options.database)) {
    throw new CliError(`--database: there is no store at ${withoutPassword(options.database)}: give the manager's (a SQLite file, or postgres://…)`);
  }
  await reachable(options.redis);
  const dataSource = new DataSource(dataSourceOptions(options.database));
  try {
    await dataSource.initialize();
  } catch (error) {
    throw new CliError(`--database: cannot open the store ${withoutPassword(options.database)}: ${(error as Error).message}`);
  }
  if (await dataSource.showMigrations()) {
    await dataSource.destroy();
    throw new CliError(`the store ${withoutPassword(options.database)} is not migrated to this version: start the manager on it (or run weft migrate) first`);
  }
  const name = workerName();
  const free = await Promise.all(Array.from({ length: options.concurrency }, () => EmulatorClient.start(0, 1)));
  const all = [...free];
  const worker = studyWorker(
    { redis: options.redis, prefix: options.prefix },
    async (job) => {
      const emulator = free.pop()!;
      const runner = new StudyPointRunner(dataSource, emulator, name);
      const began = performance.now();
      try {
        const outcome = await runner.run(job.data.pointId);
        out(`study ${job.data.studyId}, point ${job.data.pointId}: ${outcome} (${Math.round(performance.now() - began)} ms, attempt ${job.attemptsMade + 1})`);
      } catch (error) {
        out(`study ${job.data.studyId}, point ${job.data.pointId}: failed: ${(error as Error).message}`);
        // The last attempt: the point (and its study) is marked failed; before that, BullMQ retries it.
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await runner.fail(job.data.pointId, error);
        throw error;
      } finally {
        free.push(emulator);
      }
    },
    { concurrency: options.concurrency, lockMs: options.lockMs },
  );
  // The queue lost and found again is said once each way, not at every reconnection attempt.
  let lastError = '';
  worker.on('error', (error) => {
    if (error.message !== lastError) process.stderr.write(`weft worker: ${error.message} (retrying)\n`);
    lastError = error.message;
  });
  worker.on('ready', () => {
    if (lastError) process.stderr.write('weft worker: the job queue is back\n');
    lastError = '';
  });
  await worker.waitUntilReady();
  out(`weft worker ${name} is taking study points from ${withoutPassword(options.redis)} (queue prefix ${options.prefix}), ${options.concurrency} at a time`);
  const stop = () =>
    void (async () => {
      await worker.close();
      await Promise.all(all.map((e) => e.close()));
      await dataSource.destroy();
      process.exit(0);
    })();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return new Promise<never>(() => undefined);
}

/** Fails at once, saying why, when the queue cannot be reached at start (the worker itself retries for ever). */
async function reachable(url: string): Promise<void> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5_000 });
  // The socket's own error (ECONNREFUSED, a DNS failure) says more than the connection's end.
  let cause: string | undefined;
  probe.on('error', (error: Error) => (cause ??= error.message));
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw new CliError(`--redis: cannot reach the job queue at ${url}: ${cause ?? (error as Error).message}`);
  } finally {
    probe.disconnect();
  }
}
