/**
 * Parts in parallel (issue 35, capability 6): a fabric's independent parts (BlackWidow's four
 * slices) run on threads of their own over the fabric's state in shared memory, window by window,
 * with the same result as one thread running them one after another — cycle for cycle, packet for
 * packet. Part p runs on thread p mod `threads` (thread 0 is the caller's). Each window, every
 * thread runs its parts from the window's start to its end (or until each is done); the caller
 * waits for the others, and the parts that were done early are caught up, as runWindowed does on
 * one thread. A part touches only its own state in a window (its world: packets, buffer entries;
 * its stages and links), so the threads never write the same memory.
 *
 * What is not in shared memory travels at the edges of a run: the fabric's state to each thread at
 * the start (FabricEngine.sharedState), each part's back at the end (partState: what its run grew
 * or counted), the program's per-part records (PartProgram.exportPart), and the interrupts the
 * parts raised, handed to the fabric's listener in window, then part order — the order one thread
 * raises them in.
 *
 * The caller's thread waits on a shared control word (Atomics.wait) and takes the answer with
 * receiveMessageOnPort, so a run is a plain synchronous call, as runWindowed is; the host already
 * runs the emulator on a thread of its own.
 *
 * Designed for the torus families to come: a part is whatever the engine calls one. A fabric that
 * is one network can be cut into parts geometrically once its engine carries the events that cross
 * a cut within a lookahead window (the link latency), as BlueGene/L's own simulator did; the runner
 * needs nothing more than runPart and the state hand-overs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { FabricEngine } from '../engine/fabric-engine';
import type { PartProgram } from './part-program';
import type { PartCommand, PartInterrupt, PartReply } from './part-protocol';

/** Control word: answers given so far; and whether the thread has stopped. */
const ANSWERS = 0;
const STOPPED = 1;

interface PartThread {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly control: Int32Array;
  /** Commands sent, and answers taken, so far. */
  sent: number;
  taken: number;
  /** Fabrics this thread has built. */
  readonly fabrics: Set<number>;
}

/** Where the worker entry is: compiled JavaScript in a build, TypeScript (through a bootstrap) from sources. */
function workerEntry(): { file: string; workerData: { entry?: string } } {
  const compiled = join(__dirname, 'part-worker.js');
  if (__filename.endsWith('.js') && existsSync(compiled)) return { file: compiled, workerData: {} };
  return { file: join(__dirname, 'ts-part-worker.js'), workerData: { entry: join(__dirname, 'part-worker.ts') } };
}

let nextFabricId = 1;
const fabricIds = new WeakMap<FabricEngine, number>();

export class PartThreads {
  private readonly others: PartThread[] = [];
  private closed = false;

  /** `threads` in all, the caller's included: 1 runs everything on the caller's thread. */
  /**
   * `minInFlight`: below this many packets in the fabric a run's call stays on the caller's thread —
   * a window's hand-over to the other threads costs more than the parts' work on a lightly loaded
   * fabric (the same result either way).
   */
  constructor(
    readonly threads: number,
    readonly minInFlight = 0,
  ) {
    if (!(Number.isInteger(threads) && threads >= 1 && threads <= 64)) throw new RangeError(`threads must be a whole number from 1 to 64, got ${threads}`);
    const entry = workerEntry();
    for (let t = 1; t < threads; t++) {
      const { port1, port2 } = new MessageChannel();
      const control = new Int32Array(new SharedArrayBuffer(8));
      const worker = new Worker(entry.file, { workerData: { ...entry.workerData, port: port2, control }, transferList: [port2] });
      // Neither holds the process open: a run waits for its answers itself.
      worker.unref();
      worker.on('exit', () => Atomics.store(control, STOPPED, 1));
      this.others.push({ worker, port: port1, control, sent: 0, taken: 0, fabrics: new Set() });
    }
  }

  /**
   * Runs `cycles` cycles of `engine` as runWindowed does — the parts apart, `window` cycles at a
   * time, `program` making each part's traffic and, with its partDone, ending the run once every
   * part is done — but each part on its thread. Where the parts cannot run apart now (something
   * acts across them, see partsIndependent), or there is one thread or one part, it is runWindowed
   * itself. During the run the fabric's deliveries go to the program's onDeliver.
   */
  runWindowed(engine: FabricEngine, cycles: number, window: number, program: PartProgram): number {
    if (this.closed) throw new Error('these part threads are closed');
    if (!(Number.isInteger(window) && window >= 1)) throw new RangeError(`window must be a whole number of cycles, at least 1: got ${window}`);
    const saved = { deliver: engine.onDeliver, interrupt: engine.onInterrupt };
    engine.onDeliver = program.onDeliver ?? (() => undefined);
    const parts = engine.parts;
    const threads = Math.min(this.threads, parts);
    // A fabric left skewed by an earlier failure goes this way too: runWindowed refuses it, saying why.
    if (threads === 1 || !engine.partsIndependent() || engine.skewed !== null || engine.packets.inFlight < this.minInFlight) {
      try {
        return engine.runWindowed(cycles, window, program.beforeCycle, program.partDone);
      } finally {
        engine.onDeliver = saved.deliver;
      }
    }
    const own = (t: number) => Array.from({ length: parts }, (_, p) => p).filter((p) => p % threads === t);
    const mine = own(0);
    const others = this.others.slice(0, threads - 1);
    const theirs = others.map((_, i) => own(i + 1));
    let fabricId = fabricIds.get(engine);
    if (fabricId === undefined) fabricIds.set(engine, (fabricId = nextFabricId++));
    const interrupts: PartInterrupt[] = [];
    let windowIndex = 0;
    let part = -1;
    engine.onInterrupt = (...args) => interrupts.push({ window: windowIndex, part, args });
    const start = engine.cycle;
    const end = start + cycles;
    const failures: string[] = [];
    let begun = 0;
    try {
      const state = engine.sharedState();
      others.forEach((thread, i) => {
        const design = thread.fabrics.has(fabricId) ? undefined : engine.fabric.design;
        this.ask(thread, { type: 'begin', fabricId, design, seed: engine.seed, state, program: program.spec, parts: theirs[i] });
        thread.fabrics.add(fabricId);
        begun++;
      });
      const doneAt = new Float64Array(parts);
      while (engine.cycle < end) {
        const from = engine.cycle;
        const until = Math.min(end, from + window);
        const untilDone = program.partDone !== undefined;
        for (const thread of others) this.tell(thread, { type: 'run', window: windowIndex, from, until, untilDone });
        for (const p of mine) {
          part = p;
          doneAt[p] = engine.runPart(p, from, until, program.beforeCycle, program.partDone);
        }
        others.forEach((thread, i) => {
          const reply = this.answer(thread, 'ran');
          theirs[i].forEach((p, k) => (doneAt[p] = reply.doneAt[k]));
        });
        // Every part done: the run ends with the last of them, the others caught up to it; else the
        // parts done early run on to the window's end (as runWindowed).
        let all = untilDone;
        let last = from;
        for (let p = 0; p < parts; p++) {
          if (doneAt[p] < 0) all = false;
          else last = Math.max(last, doneAt[p]);
        }
        const target = all ? last : until;
        const behind = (p: number) => (doneAt[p] >= 0 && doneAt[p] < target ? doneAt[p] : -1);
        if (Array.from({ length: parts }, (_, p) => behind(p)).some((at) => at >= 0)) {
          others.forEach((thread, i) => this.tell(thread, { type: 'catch-up', from: theirs[i].map(behind), until: target }));
          for (const p of mine) {
            part = p;
            if (behind(p) >= 0) engine.runPart(p, behind(p), target, program.beforeCycle);
          }
          for (const thread of others) this.answer(thread, 'ran');
        }
        engine.advanceTo(target);
        windowIndex++;
        if (all) break;
      }
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    } finally {
      // Each thread's parts come back, whatever happened: their state, the program's records.
      for (let i = 0; i < begun; i++) {
        try {
          // Answers to commands of a window that failed elsewhere are passed over.
          while (others[i].taken < others[i].sent) this.answer(others[i], null);
          const reply = this.ask(others[i], { type: 'end' }, 'ended');
          for (const back of reply.parts) {
            engine.adoptPartState(back.part, back.state);
            if (back.program !== undefined) program.adoptPart?.(back.part, back.program);
          }
          interrupts.push(...reply.interrupts);
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
      engine.onDeliver = saved.deliver;
      engine.onInterrupt = saved.interrupt;
      // In window, then part order (the sort is stable: a part's own stay in the order raised).
      interrupts.sort((a, b) => a.window - b.window || a.part - b.part);
      for (const interrupt of interrupts) saved.interrupt(...interrupt.args);
    }
    if (failures.length > 0) {
      // The parts may be at different cycles: the fabric cannot run on.
      engine.skewed = failures[0];
      throw new Error(`the fabric's parts failed on their threads: ${failures.join('; ')}`);
    }
    return engine.cycle - start;
  }

  /** Stops the threads (a closed set runs nothing more). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.others.map((thread) => thread.worker.terminate()));
  }

  private tell(thread: PartThread, command: PartCommand): void {
    thread.port.postMessage(command);
    thread.sent++;
  }

  private ask<T extends PartReply['type']>(thread: PartThread, command: PartCommand, expect?: T): Extract<PartReply, { type: T }> {
    this.tell(thread, command);
    return this.answer(thread, expect ?? ('ok' as T));
  }

  /** Waits for the thread's next answer (blocking this thread) and takes it. */
  private answer<T extends PartReply['type']>(thread: PartThread, expect: T | null): Extract<PartReply, { type: T }> {
    const wanted = thread.taken + 1;
    for (;;) {
      const answers = Atomics.load(thread.control, ANSWERS);
      if (answers >= wanted) break;
      if (Atomics.load(thread.control, STOPPED)) throw new Error('a part thread stopped');
      Atomics.wait(thread.control, ANSWERS, answers, 1_000);
    }
    thread.taken = wanted;
    const received = receiveMessageOnPort(thread.port);
    if (!received) throw new Error('a part thread signalled an answer it did not send');
    const reply = received.message as PartReply;
    if (expect === null) return reply as Extract<PartReply, { type: T }>;
    if (reply.type === 'error') throw new Error(reply.message);
    if (reply.type !== expect) throw new Error(`a part thread answered ${reply.type} where ${expect} was due`);
    return reply as Extract<PartReply, { type: T }>;
  }
}
