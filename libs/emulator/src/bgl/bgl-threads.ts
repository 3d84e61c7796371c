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
import { DeliveryDigest, DIGEST_WORDS, summed, summedDiscards } from '../parallel/delivery-digest';
import { digestBglDeliveries, uniformTraffic, UniformTraffic } from './bgl-programs';
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
  /** It stops at its sendUntil; the run's cycles (BlockRun) go on while the rest drains. */
  readonly traffic: UniformTraffic;
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

/** Per thread in the results: the delivery digest, injected, bytes, then the discard reasons. */
const INJECTED = DIGEST_WORDS;
const BYTES = DIGEST_WORDS + 1;
const REASONS = DIGEST_WORDS + 2;
const RESULT_WORDS = REASONS + BGL_DISCARD_REASONS.length;

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
    const digest = digestBglDeliveries(sim);
    return {
      engine: sim,
      window,
      beforeCycle: uniformTraffic(sim, run.traffic),
      results(into, offset) {
        digest.write(into, offset);
        into[offset + INJECTED] = sim.injected;
        into[offset + BYTES] = sim.bytesMoved;
        BGL_DISCARD_REASONS.forEach((reason, i) => (into[offset + REASONS + i] = sim.discarded.get(reason) ?? 0));
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
  const total = { ...DeliveryDigest.sum(result.perThread, 0), injected: summed(result.perThread, INJECTED), bytesMoved: summed(result.perThread, BYTES) };
  const discarded = summedDiscards(result.perThread, REASONS, BGL_DISCARD_REASONS);
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
