/**
 * The BlueGene/L torus emulated on every core (issue 36; paper 002 §3: "partitioned into blocks run
 * by" processors "in conservative windows no longer than the shortest link latency between blocks"),
 * by the block threads every torus family shares (parallel/block-threads.ts): the torus cut into
 * slabs of z, a packet's head crossing to another thread with its record, tokens without. The
 * result — what was delivered and when — is that of one thread, packet for packet
 * (bgl-parallel.spec.ts).
 */
import type { FabricDesign } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { BlockProgram, BlockRun, runInBlockThreads } from '../parallel/block-threads';
import { DeliveryDigest, uniformTraffic, UniformTraffic } from './bgl-programs';
import type { BglSettings } from './bgl-settings';
import { BGL_DISCARD_REASONS, BglTorusSim, PACKET_RECORD } from './bgl-torus-sim';

export interface BglParallelRun extends BlockRun {
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

/** Per thread in the results: delivered, latency, hash, injected, bytes, then the discard reasons. */
const RESULT_WORDS = 5 + BGL_DISCARD_REASONS.length;

/** The BlueGene/L torus, cut into slabs of z, under keyed uniform traffic (bgl-programs.ts). */
export const BGL_BLOCK_PROGRAM: BlockProgram<BglParallelRun> = {
  name: 'bgl',
  payload: PACKET_RECORD,
  resultWords: RESULT_WORDS,
  // Room for every link out of a block starting two packets and two acks a window.
  mailCapacity: (run) => 4 * 6 * run.design.chips.length,
  share(run, owned) {
    const sim = new BglTorusSim(new EmulatedFabric(run.design), run.seed, run.settings);
    sim.programMinimalRouting();
    run.routeTables?.forEach((words, node) => (sim.routeTables[node] = words ? Int32Array.from(words) : null));
    for (const node of run.deadNodes ?? []) sim.killNode(node);
    const window = sim.setBlocks(run.blocks, owned);
    const digest = new DeliveryDigest(sim);
    return {
      engine: sim,
      window,
      beforeCycle: uniformTraffic(sim, run.traffic),
      results(into, offset) {
        into[offset] = digest.delivered;
        into[offset + 1] = digest.latencyCycles;
        into[offset + 2] = digest.hash;
        into[offset + 3] = sim.injected;
        into[offset + 4] = sim.bytesMoved;
        BGL_DISCARD_REASONS.forEach((reason, i) => (into[offset + 5 + i] = sim.discarded.get(reason) ?? 0));
      },
    };
  },
};

/**
 * Runs `run` on `threads` threads (this one and threads − 1 workers) and returns what was
 * delivered; the same as on one thread. The torus must have at least `threads` blocks.
 */
export function runBglInThreads(run: BglParallelRun, threads: number): BglParallelResult {
  const result = runInBlockThreads(BGL_BLOCK_PROGRAM, run, threads);
  const total = { delivered: 0, latencyCycles: 0, hash: 0, injected: 0, bytesMoved: 0 };
  const discarded: Record<string, number> = {};
  for (const figures of result.perThread) {
    total.delivered += figures[0];
    total.latencyCycles += figures[1];
    total.hash = (total.hash + figures[2]) % 4294967296;
    total.injected += figures[3];
    total.bytesMoved += figures[4];
    BGL_DISCARD_REASONS.forEach((reason, i) => {
      if (figures[5 + i] > 0) discarded[reason] = (discarded[reason] ?? 0) + figures[5 + i];
    });
  }
  return {
    ...total,
    discarded,
    cycles: run.cycles,
    threads,
    window: result.window,
    measuredMs: result.measuredMs,
    measuredCycles: result.measuredCycles,
  };
}
