/**
 * A worker thread of a parallel run of a fabric cut into blocks (block-threads.ts): finds the
 * family's program by name, builds the fabric, runs its blocks window by window, meeting the others
 * at the barrier, and leaves its figures in shared memory. A failure is thrown to the parent (its
 * 'error' event) after releasing the barrier.
 */
import { workerData } from 'node:worker_threads';
import { BLOCK_PROGRAMS } from './block-programs';
import { BlockRun, failShare, runBlockShare, SharedBlocks } from './block-threads';

const { program, run, threads, me, parts } = workerData as { program: string; run: BlockRun; threads: number; me: number; parts: SharedBlocks };
try {
  const found = BLOCK_PROGRAMS[program];
  if (found === undefined) throw new Error(`no block program is called ${program} (${Object.keys(BLOCK_PROGRAMS).join(', ')})`);
  runBlockShare(found, run, threads, me, parts);
} catch (error) {
  failShare(parts);
  throw error;
}
