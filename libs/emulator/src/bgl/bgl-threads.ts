/**
 * The BlueGene/L torus emulated on every core (issue 36; paper 002 §3: "partitioned into blocks run
 * by" processors "in conservative windows no longer than the shortest link latency between blocks").
 * Block b runs on thread b mod `threads` (thread 0 is the caller's); each thread builds the same
 * fabric and runs only its blocks, window by window. An event for a block of another thread (a
 * packet's head with the packet's record, or tokens) goes into a mailbox in shared memory; at each
 * window's end the threads meet at a barrier and take what the others left for them, which is due
 * no sooner than the next window (the lookahead). The result — what was delivered and when — is
 * that of one thread, packet for packet (bgl-parallel.spec.ts).
 *
 * A run is one synchronous call: the caller waits on shared words (Atomics.wait), as the host
 * already runs the emulator off the service's event loop.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FabricDesign } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { DeliveryDigest, uniformTraffic, UniformTraffic } from './bgl-programs';
import type { BglSettings } from './bgl-settings';
import { BGL_DISCARD_REASONS, BGL_EV_HEAD, BGL_VC_FIFOS_PER_NODE, BglTorusSim, PACKET_RECORD } from './bgl-torus-sim';

export interface BglParallelRun {
  /** The physical design (every thread builds the same fabric from it). */
  readonly design: FabricDesign;
  readonly seed: number;
  readonly settings: Partial<BglSettings>;
  /** The registers: the minimal-routing ones, and the route-override tables by node (null: none). */
  readonly routeTables?: readonly (readonly number[] | null)[];
  readonly deadNodes?: readonly number[];
  readonly traffic: UniformTraffic;
  /** Cycles to run in all (the traffic stops at its sendUntil; the rest drains). */
  readonly cycles: number;
  /** Blocks of z to cut the torus into (at least the threads). */
  readonly blocks: number;
  /** Where the timing starts (after the network has filled): the result's measured figures. */
  readonly measureFrom?: number;
}

export interface BglParallelResult {
  readonly delivered: number;
  readonly latencyCycles: number;
  readonly hash: number;
  readonly injected: number;
  readonly discarded: Readonly<Record<string, number>>;
  readonly bytesMoved: number;
  readonly cycles: number;
  readonly threads: number;
  readonly window: number;
  /** Wall time and cycles from `measureFrom` to the end, on the caller's thread. */
  readonly measuredMs: number;
  readonly measuredCycles: number;
}

/** A mailbox record: cycle, kind, three integers, and a packet's record. */
const MAIL = 5 + PACKET_RECORD;
/** Shared words: arrivals at the barrier, its generation, an error flag. */
const ARRIVED = 0;
const GENERATION = 1;
const FAILED = 2;
/** Per thread in the results: delivered, latency, hash, injected, bytes, then the discard reasons. */
const RESULT_WORDS = 5 + BGL_DISCARD_REASONS.length;

interface SharedParts {
  readonly sync: SharedArrayBuffer;
  /** mail[(parity * threads + from) * threads + to]: the records `from` left for `to` in a window of that parity. */
  readonly mail: SharedArrayBuffer[];
  readonly capacity: number;
  readonly results: SharedArrayBuffer;
}

/** Builds, configures and runs one thread's share; returns nothing (its figures go to the shared results). */
export function runBglShare(run: BglParallelRun, threads: number, me: number, parts: SharedParts): void {
  const sync = new Int32Array(parts.sync);
  const mail = parts.mail.map((buffer) => new Float64Array(buffer));
  const sim = new BglTorusSim(new EmulatedFabric(run.design), run.seed, run.settings);
  sim.programMinimalRouting();
  run.routeTables?.forEach((words, node) => (sim.routeTables[node] = words ? Int32Array.from(words) : null));
  for (const node of run.deadNodes ?? []) sim.killNode(node);
  const owned = Array.from({ length: run.blocks }, (_, b) => b).filter((b) => b % threads === me);
  const window = sim.setBlocks(run.blocks, owned);
  const threadOf = (node: number) => sim.blockOf[node] % threads;
  const digest = new DeliveryDigest(sim);
  let parity = 0;
  sim.outbox = (at, kind, a, b, c, record) => {
    // A head goes to the node of its VC FIFO; tokens to the node of their sender.
    const to = kind === BGL_EV_HEAD ? threadOf((b / BGL_VC_FIFOS_PER_NODE) | 0) : threadOf((a / 6) | 0);
    const box = mail[(parity * threads + me) * threads + to];
    const count = box[0];
    if (count >= parts.capacity) throw new Error(`a window left more than ${parts.capacity} events for thread ${to}`);
    const at0 = 1 + count * MAIL;
    box[at0] = at;
    box[at0 + 1] = kind;
    box[at0 + 2] = a;
    box[at0 + 3] = b;
    box[at0 + 4] = c;
    if (record) box.set(record, at0 + 5);
    box[0] = count + 1;
  };
  const take = () => {
    for (let from = 0; from < threads; from++) {
      if (from === me) continue;
      const box = mail[(parity * threads + from) * threads + me];
      const count = box[0];
      for (let i = 0; i < count; i++) {
        const at0 = 1 + i * MAIL;
        sim.importEvent(box[at0], box[at0 + 1], box[at0 + 2], box[at0 + 3], box[at0 + 4], box[at0 + 1] === BGL_EV_HEAD ? box : null, at0 + 5);
      }
      box[0] = 0;
    }
  };
  let startedAt = -1;
  let startedCycle = 0;
  sim.runWindowed(run.cycles, window, uniformTraffic(sim, run.traffic), (cycle) => {
    barrier(sync, threads);
    take();
    parity ^= 1;
    if (startedAt < 0 && cycle >= (run.measureFrom ?? 0)) {
      startedAt = performance.now();
      startedCycle = cycle;
    }
  });
  const results = new Float64Array(parts.results);
  const base = me * RESULT_WORDS;
  results[base] = digest.delivered;
  results[base + 1] = digest.latencyCycles;
  results[base + 2] = digest.hash;
  results[base + 3] = sim.injected;
  results[base + 4] = sim.bytesMoved;
  BGL_DISCARD_REASONS.forEach((reason, i) => (results[base + 5 + i] = sim.discarded.get(reason) ?? 0));
  results[threads * RESULT_WORDS] = window;
  if (me === 0) {
    results[threads * RESULT_WORDS + 1] = startedAt < 0 ? 0 : performance.now() - startedAt;
    results[threads * RESULT_WORDS + 2] = sim.cycle - startedCycle;
  }
  // Every thread's results are written before the first of them reads them all.
  barrier(sync, threads);
}

/** All threads arrive before any goes on; a thread that failed releases the others, who then fail too. */
function barrier(sync: Int32Array, threads: number): void {
  const generation = Atomics.load(sync, GENERATION);
  if (Atomics.add(sync, ARRIVED, 1) === threads - 1) {
    Atomics.store(sync, ARRIVED, 0);
    Atomics.add(sync, GENERATION, 1);
    Atomics.notify(sync, GENERATION);
  } else {
    while (Atomics.load(sync, GENERATION) === generation) {
      if (Atomics.load(sync, FAILED) !== 0) throw new Error('another thread of the parallel run failed');
      Atomics.wait(sync, GENERATION, generation, 1000);
    }
  }
  if (Atomics.load(sync, FAILED) !== 0) throw new Error('another thread of the parallel run failed');
}

/** Where the worker entry is: compiled JavaScript in a build, TypeScript (through a bootstrap) from sources. */
function workerEntry(): { file: string; workerData: { entry?: string } } {
  const compiled = join(__dirname, 'bgl-block-worker.js');
  if (__filename.endsWith('.js') && existsSync(compiled)) return { file: compiled, workerData: {} };
  return { file: join(__dirname, '../parallel/ts-part-worker.js'), workerData: { entry: join(__dirname, 'bgl-block-worker.ts') } };
}

/**
 * Runs `run` on `threads` threads (this one and threads − 1 workers) and returns what was
 * delivered; the same as on one thread. The torus must have at least `threads` blocks.
 */
export function runBglInThreads(run: BglParallelRun, threads: number): BglParallelResult {
  if (!Number.isInteger(threads) || threads < 1 || threads > run.blocks) throw new RangeError(`threads must be 1 to the ${run.blocks} blocks, got ${threads}`);
  // Room in a mailbox for every link out of a block starting two packets and two acks a window.
  const capacity = 4 * 6 * run.design.chips.length;
  const parts: SharedParts = {
    sync: new SharedArrayBuffer(3 * 4),
    mail: Array.from({ length: 2 * threads * threads }, () => new SharedArrayBuffer(8 * (1 + capacity * MAIL))),
    capacity,
    results: new SharedArrayBuffer(8 * (threads * RESULT_WORDS + 3)),
  };
  const entry = workerEntry();
  const sync = new Int32Array(parts.sync);
  const errors: string[] = [];
  const workers = Array.from({ length: threads - 1 }, (_, i) => {
    const worker = new Worker(entry.file, { workerData: { ...entry.workerData, run, threads, me: i + 1, parts } });
    worker.on('error', (error) => {
      errors.push(error instanceof Error ? error.message : String(error));
      Atomics.store(sync, FAILED, 1);
      Atomics.notify(sync, GENERATION);
    });
    return worker;
  });
  try {
    runBglShare(run, threads, 0, parts);
  } catch (error) {
    Atomics.store(sync, FAILED, 1);
    Atomics.notify(sync, GENERATION);
    throw errors.length > 0 ? new Error(`a thread of the parallel run failed: ${errors.join('; ')}`) : error;
  } finally {
    for (const worker of workers) void worker.terminate();
  }
  const results = new Float64Array(parts.results);
  const total = { delivered: 0, latencyCycles: 0, hash: 0, injected: 0, bytesMoved: 0 };
  const discarded: Record<string, number> = {};
  for (let t = 0; t < threads; t++) {
    const base = t * RESULT_WORDS;
    total.delivered += results[base];
    total.latencyCycles += results[base + 1];
    total.hash = (total.hash + results[base + 2]) % 4294967296;
    total.injected += results[base + 3];
    total.bytesMoved += results[base + 4];
    BGL_DISCARD_REASONS.forEach((reason, i) => {
      if (results[base + 5 + i] > 0) discarded[reason] = (discarded[reason] ?? 0) + results[base + 5 + i];
    });
  }
  return {
    ...total,
    discarded,
    cycles: run.cycles,
    threads,
    window: results[threads * RESULT_WORDS],
    measuredMs: results[threads * RESULT_WORDS + 1],
    measuredCycles: results[threads * RESULT_WORDS + 2],
  };
}
