/**
 * A fabric cut into spatial blocks, emulated on every core (issue 36 for BlueGene/L, issue 56 for
 * every torus family; paper 002 §3: "partitioned into blocks" run by processors "in conservative
 * windows no longer than the shortest link latency between blocks"). The blocks are dealt to the
 * threads in runs of neighbours (thread t runs blocks t·B/T to (t+1)·B/T − 1; thread 0 is the
 * caller's); each thread builds the same fabric and runs only its blocks, window by window
 * (engine/block-calendar.ts). An event for a block of another thread — a packet's head with the
 * packet's record, credits or tokens — goes into a mailbox in shared memory (BlockMail); at each
 * window's end the threads meet at a barrier and take what the others left for them, which is due
 * no sooner than the next window (the lookahead). The result — what was delivered and when — is
 * that of one thread, packet for packet.
 *
 * A family gives the runner a BlockProgram, registered by name (block-programs.ts) so that a
 * worker finds it: how to build its share of the fabric and the traffic, and the figures each
 * thread leaves. A run is one synchronous call: the caller waits on shared words (Atomics.wait),
 * as the host already runs the emulator off the service's event loop.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Words of a mail record before its payload: cycle, kind, and the event's three integers. */
const MAIL_HEADER = 5;
/** Shared words: arrivals at the barrier, its generation, an error flag. */
const ARRIVED = 0;
const GENERATION = 1;
const FAILED = 2;
/** Looks at the barrier's generation before a thread sleeps on it (about 20–50 µs). */
const BARRIER_SPINS = 20_000;

/**
 * What a thread posts to the others in a window: per window parity, sending thread and receiving
 * thread, a box of records (a count, then records of MAIL_HEADER + `payload` doubles). An engine
 * posts an event for a block another thread runs (`post`) and writes the record that travels with
 * it into `f64` (or `i32`, the same bytes as int32s) from the offset post returns — no object a
 * record, and an int32 payload copied exactly.
 */
export class BlockMail {
  /** The box the last post went to, as doubles and as int32s. */
  f64!: Float64Array;
  i32!: Int32Array;
  private readonly f64s: Float64Array[];
  private readonly i32s: Int32Array[];
  private parity = 0;
  private readonly record: number;

  constructor(
    boxes: readonly SharedArrayBuffer[],
    private readonly threads: number,
    private readonly me: number,
    private readonly blocks: number,
    readonly payload: number,
    private readonly capacity: number,
  ) {
    this.f64s = boxes.map((box) => new Float64Array(box));
    this.i32s = boxes.map((box) => new Int32Array(box));
    this.record = MAIL_HEADER + payload;
  }

  /** The thread that runs block `block`. */
  threadOf(block: number): number {
    return ((block * this.threads) / this.blocks) | 0;
  }

  /** Posts an event for block `block` (another thread's) at cycle `at`; returns where its payload goes in f64 (×2 in i32). */
  post(block: number, at: number, kind: number, a: number, b: number, c: number): number {
    const to = this.threadOf(block);
    const box = (this.parity * this.threads + this.me) * this.threads + to;
    const f64 = (this.f64 = this.f64s[box]);
    this.i32 = this.i32s[box];
    const count = f64[0];
    if (count >= this.capacity) throw new Error(`a window left more than ${this.capacity} events for thread ${to}`);
    const at0 = 1 + count * this.record;
    f64[at0] = at;
    f64[at0 + 1] = kind;
    f64[at0 + 2] = a;
    f64[at0 + 3] = b;
    f64[at0 + 4] = c;
    f64[0] = count + 1;
    return at0 + MAIL_HEADER;
  }

  /** Hands what the other threads left for this one in the window just run to `engine`, and turns to the next window's boxes. */
  take(engine: BlockEngine): void {
    for (let from = 0; from < this.threads; from++) {
      if (from === this.me) continue;
      const box = (this.parity * this.threads + from) * this.threads + this.me;
      const f64 = this.f64s[box];
      const i32 = this.i32s[box];
      const count = f64[0];
      for (let i = 0; i < count; i++) {
        const at0 = 1 + i * this.record;
        engine.importEvent(f64[at0], f64[at0 + 1], f64[at0 + 2], f64[at0 + 3], f64[at0 + 4], f64, i32, at0 + MAIL_HEADER);
      }
      f64[0] = 0;
    }
    this.parity ^= 1;
  }
}

/** An engine cut into blocks of which this instance runs some (engine/block-calendar.ts), as the block threads drive it. */
export interface BlockEngine {
  /** Cuts the fabric into `blocks`, of which this instance runs `owned`; returns the lookahead (the longest window). */
  setBlocks(blocks: number, owned?: readonly number[]): number;
  /** Where events for blocks this instance does not run go (null: it runs them all). */
  mail: BlockMail | null;
  /** An event another thread posted for this one, its record's payload at `offset` of f64 (×2 of i32). */
  importEvent(at: number, kind: number, a: number, b: number, c: number, f64: Float64Array, i32: Int32Array, offset: number): void;
  /**
   * Runs `cycles` cycles a window at a time, each owned block the whole window on its own;
   * `beforeCycle(block, cycle)` (null: none) sends a block's traffic for a cycle, `windowEnd` is
   * called at each window's end. Every instance ends its windows at the same cycles.
   */
  runWindowed(cycles: number, window: number, beforeCycle: ((block: number, cycle: number) => void) | null, windowEnd?: (cycle: number) => void): void;
}

/** What every block run says: the blocks, the cycles, and where timing starts. */
export interface BlockRun {
  readonly blocks: number;
  /** Cycles to run in all. */
  readonly cycles: number;
  /** Where the timing starts (after the network has filled): the result's measured figures. */
  readonly measureFrom?: number;
}

/** One thread's share of a run: its engine (blocks set), the traffic, and the figures it leaves. */
export interface BlockShare {
  readonly engine: BlockEngine;
  readonly window: number;
  readonly beforeCycle: ((block: number, cycle: number) => void) | null;
  /** Writes the thread's figures (resultWords of them) from `offset`. */
  results(into: Float64Array, offset: number): void;
  /** Called on every thread at the end of the window where the timing starts (BlockRun.measureFrom). */
  startMeasuring?(): void;
}

/** A family's parallel workload (registered in block-programs.ts). */
export interface BlockProgram<Run extends BlockRun> {
  /** Its name in the registry, by which a worker finds it. */
  readonly name: string;
  /** Doubles of the record an event may carry. */
  readonly payload: number;
  /** Figures each thread leaves. */
  readonly resultWords: number;
  /** Room in each mailbox: the most events one thread may leave another in a window. */
  mailCapacity(run: Run): number;
  /** Builds and configures this thread's share, running blocks `owned` of run.blocks. */
  share(run: Run, owned: readonly number[]): BlockShare;
}

export interface SharedBlocks {
  readonly sync: SharedArrayBuffer;
  readonly mail: SharedArrayBuffer[];
  readonly capacity: number;
  readonly results: SharedArrayBuffer;
}

/** What a parallel run gives back: each thread's figures (the family sums them), the window, and the timing. */
export interface BlockRunResult {
  readonly perThread: Float64Array[];
  readonly threads: number;
  readonly window: number;
  /** Wall time and cycles from `measureFrom` to the end, on the caller's thread. */
  readonly measuredMs: number;
  readonly measuredCycles: number;
}

/** Builds, configures and runs one thread's share; its figures go to the shared results. */
export function runBlockShare<Run extends BlockRun>(program: BlockProgram<Run>, run: Run, threads: number, me: number, parts: SharedBlocks): void {
  const sync = new Int32Array(parts.sync);
  const owned: number[] = [];
  const mail = new BlockMail(parts.mail, threads, me, run.blocks, program.payload, parts.capacity);
  for (let b = 0; b < run.blocks; b++) if (mail.threadOf(b) === me) owned.push(b);
  const share = program.share(run, owned);
  const engine = share.engine;
  // Even alone, the engine runs as one of several would (it ends its windows where they would).
  engine.mail = mail;
  let startedAt = -1;
  let startedCycle = 0;
  let cycle = 0;
  engine.runWindowed(run.cycles, share.window, share.beforeCycle, (until) => {
    cycle = until;
    if (threads > 1) {
      barrier(sync, threads);
      mail.take(engine);
    }
    if (startedAt < 0 && until >= (run.measureFrom ?? 0)) {
      share.startMeasuring?.();
      startedAt = performance.now();
      startedCycle = until;
    }
  });
  const results = new Float64Array(parts.results);
  share.results(results, me * program.resultWords);
  results[threads * program.resultWords] = share.window;
  if (me === 0) {
    results[threads * program.resultWords + 1] = startedAt < 0 ? 0 : performance.now() - startedAt;
    results[threads * program.resultWords + 2] = cycle - startedCycle;
  }
  // Every thread's results are written before the first of them reads them all.
  if (threads > 1) barrier(sync, threads);
}

/** All threads arrive before any goes on; a thread that failed releases the others, who then fail too. */
function barrier(sync: Int32Array, threads: number): void {
  const generation = Atomics.load(sync, GENERATION);
  if (Atomics.add(sync, ARRIVED, 1) === threads - 1) {
    Atomics.store(sync, ARRIVED, 0);
    Atomics.add(sync, GENERATION, 1);
    Atomics.notify(sync, GENERATION);
  } else {
    // A window of a cycle lasts tens of microseconds, about what waking a sleeping thread takes:
    // look for the others a while before sleeping.
    for (let spin = 0; spin < BARRIER_SPINS && Atomics.load(sync, GENERATION) === generation; spin++);
    while (Atomics.load(sync, GENERATION) === generation) {
      if (Atomics.load(sync, FAILED) !== 0) throw new Error('another thread of the parallel run failed');
      Atomics.wait(sync, GENERATION, generation, 1000);
    }
  }
  if (Atomics.load(sync, FAILED) !== 0) throw new Error('another thread of the parallel run failed');
}

/** A worker's failure: the others are released from the barrier (and fail in turn). */
export function failShare(parts: SharedBlocks): void {
  const sync = new Int32Array(parts.sync);
  Atomics.store(sync, FAILED, 1);
  Atomics.notify(sync, GENERATION);
}

/** Where the worker entry is: compiled JavaScript in a build, TypeScript (through a bootstrap) from sources. */
function workerEntry(): { file: string; workerData: { entry?: string } } {
  const compiled = join(__dirname, 'block-worker.js');
  if (__filename.endsWith('.js') && existsSync(compiled)) return { file: compiled, workerData: {} };
  return { file: join(__dirname, 'ts-part-worker.js'), workerData: { entry: join(__dirname, 'block-worker.ts') } };
}

/**
 * Runs `run` by `program` on `threads` threads (this one and threads − 1 workers); the same as on
 * one thread. The fabric must have at least `threads` blocks.
 */
export function runInBlockThreads<Run extends BlockRun>(program: BlockProgram<Run>, run: Run, threads: number): BlockRunResult {
  if (!Number.isInteger(threads) || threads < 1 || threads > run.blocks) throw new RangeError(`threads must be 1 to the ${run.blocks} blocks, got ${threads}`);
  const capacity = program.mailCapacity(run);
  if (!(Number.isInteger(capacity) && capacity >= 1))
    throw new RangeError(`the ${program.name} program's mailboxes hold a whole number of records, at least 1, got ${capacity}`);
  const parts: SharedBlocks = {
    sync: new SharedArrayBuffer(3 * 4),
    mail: Array.from({ length: 2 * threads * threads }, () => new SharedArrayBuffer(8 * (1 + capacity * (MAIL_HEADER + program.payload)))),
    capacity,
    results: new SharedArrayBuffer(8 * (threads * program.resultWords + 3)),
  };
  const entry = workerEntry();
  const errors: string[] = [];
  const workers = Array.from({ length: threads - 1 }, (_, i) => {
    const worker = new Worker(entry.file, { workerData: { ...entry.workerData, program: program.name, run, threads, me: i + 1, parts } });
    worker.on('error', (error) => {
      errors.push(error instanceof Error ? error.message : String(error));
      failShare(parts);
    });
    return worker;
  });
  try {
    runBlockShare(program, run, threads, 0, parts);
  } catch (error) {
    failShare(parts);
    throw errors.length > 0 ? new Error(`a thread of the parallel run failed: ${errors.join('; ')}`) : error;
  } finally {
    for (const worker of workers) void worker.terminate();
  }
  const results = new Float64Array(parts.results);
  const words = program.resultWords;
  return {
    perThread: Array.from({ length: threads }, (_, t) => results.slice(t * words, (t + 1) * words)),
    threads,
    window: results[threads * words],
    measuredMs: results[threads * words + 1],
    measuredCycles: results[threads * words + 2],
  };
}
