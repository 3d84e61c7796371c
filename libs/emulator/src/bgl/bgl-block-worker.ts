/**
 * A worker thread of a parallel BlueGene/L run (bgl-threads.ts): builds the fabric, runs its
 * blocks window by window, meeting the others at the barrier, and leaves its figures in shared
 * memory. A failure is thrown to the parent (its 'error' event), which releases the barrier.
 */
import { workerData } from 'node:worker_threads';
import { runBglShare } from './bgl-threads';

const { run, threads, me, parts } = workerData as {
  run: Parameters<typeof runBglShare>[0];
  threads: number;
  me: number;
  parts: Parameters<typeof runBglShare>[3];
};
try {
  runBglShare(run, threads, me, parts);
} catch (error) {
  const sync = new Int32Array(parts.sync);
  Atomics.store(sync, 2, 1);
  Atomics.notify(sync, 1);
  throw error;
}
