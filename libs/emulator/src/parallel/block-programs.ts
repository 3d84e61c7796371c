/**
 * The parallel workloads of the families whose fabrics are cut into blocks (block-threads.ts), by
 * name: a worker thread finds its program here. A chip model that runs in blocks adds its own.
 */
import { ANTON2_BLOCK_PROGRAM } from '../anton2/anton2-threads';
import { BGL_BLOCK_PROGRAM } from '../bgl/bgl-threads';
import { FLAT_BLOCK_PROGRAM } from '../flattened-butterfly/flat-threads';
import type { BlockProgram } from './block-threads';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each program has a run of its own
export const BLOCK_PROGRAMS: Readonly<Record<string, BlockProgram<any>>> = {
  [BGL_BLOCK_PROGRAM.name]: BGL_BLOCK_PROGRAM,
  [ANTON2_BLOCK_PROGRAM.name]: ANTON2_BLOCK_PROGRAM,
  [FLAT_BLOCK_PROGRAM.name]: FLAT_BLOCK_PROGRAM,
};
