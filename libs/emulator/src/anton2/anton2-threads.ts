/**
 * Anton 2 emulated on every core (issue 56), by the block threads every torus family shares
 * (parallel/block-threads.ts): the torus cut into slabs of z, a packet's arrival crossing to another
 * thread with its record, credits without. The workload is the machine's own open-loop sources
 * (Anton2Sim.startSteady) — uniform random one-flit packets from each node's sending cores at a
 * fraction of saturation, every draw keyed by the endpoint and its count — so any thread sends, for
 * the blocks it runs, exactly the packets one thread would. The result — what was delivered and
 * when — is that of one thread, packet for packet (anton2-threads.spec.ts).
 */
import { ANTON2_CHANNEL_ADAPTERS, ANTON2_ENDPOINT_ADAPTERS, FabricDesign, keyedDraw, shippedAnton2Floorplan } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { BlockProgram, BlockRun, runInBlockThreads } from '../parallel/block-threads';
import { DeliveryDigest, DIGEST_WORDS, summed, summedDiscards } from '../parallel/delivery-digest';
import type { Anton2Settings } from './anton2-settings';
import { ANTON2_DISCARD_REASONS, ANTON2_PACKET_RECORD_DOUBLES, Anton2Sim } from './anton2-sim';

/** The sending cores of each node (endpoint adapters): one per router of the floorplan's, then round again. */
export const ANTON2_SENDING_CORES = [0, 2, 3, 4, 6, 9, 11, 13, 16, 19, 21, 1, 5, 7, 10, 12] as const;
/** Torus cycles a flit: 24 bytes at 89.6 Gb/s in 1.5 GHz cycles (seed 004 §2.2). */
export const ANTON2_TORUS_CYCLES_PER_FLIT = (24 * 8 * 1.5) / 89.6;
const DRAW_DESTINATION = 1;

/** Uniform random one-flit packets from every node's sending cores, at `load` of saturation. */
export interface Anton2UniformLoad {
  /** Fraction of saturation: where the most loaded torus channel of a k-ary ring is full (k packets a unit of per-core rate). */
  readonly load: number;
  /** The seed of the destinations' draws. */
  readonly seed: number;
  /** Cycles after which no more packets are sent. */
  readonly sendUntil: number;
}

/** Starts the load on `sim` (its registers written): each core offers load / (3.214 × k) packets a cycle, k the longest ring. */
export function startAnton2UniformLoad(sim: Anton2Sim, traffic: Anton2UniformLoad): void {
  if (!(traffic.load > 0 && traffic.load <= 1)) throw new RangeError(`a load is above 0 and at most 1 of saturation, got ${traffic.load}`);
  const sources: (readonly [number, number])[] = [];
  for (let n = 0; n < sim.nodes; n++) for (const e of ANTON2_SENDING_CORES) sources.push([n, e]);
  const nodes = sim.nodes;
  const cores = ANTON2_SENDING_CORES.length;
  sim.startSteady(
    sources,
    traffic.load / (ANTON2_TORUS_CYCLES_PER_FLIT * Math.max(...sim.torus.shape)),
    traffic.sendUntil,
    (_n, _e, key) => Math.floor(keyedDraw(traffic.seed, DRAW_DESTINATION, key, 0) * nodes) * ANTON2_ENDPOINT_ADAPTERS + ANTON2_SENDING_CORES[key % cores],
  );
}

export interface Anton2ParallelRun extends BlockRun {
  /** The physical design (every thread builds the same fabric from it). */
  readonly design: FabricDesign;
  readonly seed: number;
  readonly settings: Partial<Anton2Settings>;
  readonly traffic: Anton2UniformLoad;
}

export interface Anton2ParallelResult {
  readonly delivered: number;
  readonly latencyCycles: number;
  /** A sum of a hash of each delivery (source, serial, destination, cycle): the same whatever order they were seen in. */
  readonly hash: number;
  readonly injected: number;
  readonly discarded: Readonly<Record<string, number>>;
  readonly flitHops: number;
  readonly torusFlitHops: number;
  /** Flit-hops from `measureFrom` on. */
  readonly measuredFlitHops: number;
  readonly threads: number;
  readonly window: number;
  readonly measuredMs: number;
  readonly measuredCycles: number;
}

/** A digest of what `sim` delivers from now on (parallel/delivery-digest.ts), whatever order it is seen in. */
export function digestAnton2Deliveries(sim: Anton2Sim): DeliveryDigest {
  const digest = new DeliveryDigest();
  const chain = sim.onDeliver;
  sim.onDeliver = (p, cycle, latency) => {
    chain(p, cycle, latency);
    digest.record(sim.packetSource(p), sim.packetSerial(p), sim.packetDestination(p), cycle, latency);
  };
  return digest;
}

/** Per thread: the delivery digest, injected, flit-hops, torus flit-hops, flit-hops while timed, then the discard reasons. */
const INJECTED = DIGEST_WORDS;
const FLIT_HOPS = DIGEST_WORDS + 1;
const TORUS_FLIT_HOPS = DIGEST_WORDS + 2;
const TIMED_FLIT_HOPS = DIGEST_WORDS + 3;
const REASONS = DIGEST_WORDS + 4;
const RESULT_WORDS = REASONS + ANTON2_DISCARD_REASONS.length;

/** Anton 2 under uniform load, cut into slabs of z. */
export const ANTON2_BLOCK_PROGRAM: BlockProgram<Anton2ParallelRun> = {
  name: 'anton2',
  payload: ANTON2_PACKET_RECORD_DOUBLES,
  resultWords: RESULT_WORDS,
  mailCapacity(run) {
    // The ASICs on the faces of the slabs (a z-plane each side of each block), every channel of
    // theirs carrying a packet and its credits each flit time of the longest window (64 cycles).
    const chips = run.design.chips.length;
    const kz = Number(String(run.design.summary.shape).split('×')[2]);
    const faceAsics = Number.isInteger(kz) && kz > 0 ? Math.min(chips, Math.ceil((2 * run.blocks * chips) / kz)) : chips;
    return faceAsics * ANTON2_CHANNEL_ADAPTERS * 2 * Math.ceil(64 / ANTON2_TORUS_CYCLES_PER_FLIT);
  },
  share(run, owned) {
    const sim = new Anton2Sim(new EmulatedFabric(run.design), shippedAnton2Floorplan(), run.seed, run.settings);
    sim.programDefaults();
    const window = sim.setBlocks(run.blocks, owned);
    startAnton2UniformLoad(sim, run.traffic);
    const digest = digestAnton2Deliveries(sim);
    let hopsBefore = 0;
    return {
      engine: sim,
      window,
      beforeCycle: null,
      results(into, offset) {
        digest.write(into, offset);
        into[offset + INJECTED] = sim.injected;
        into[offset + FLIT_HOPS] = sim.flitHops;
        into[offset + TORUS_FLIT_HOPS] = sim.torusFlitHops;
        into[offset + TIMED_FLIT_HOPS] = sim.flitHops - hopsBefore;
        ANTON2_DISCARD_REASONS.forEach((reason, i) => (into[offset + REASONS + i] = sim.discarded.get(reason) ?? 0));
      },
      startMeasuring() {
        hopsBefore = sim.flitHops;
      },
    };
  },
};

/** Runs `run` on `threads` threads (this one and threads − 1 workers); the same as on one. */
export function runAnton2InThreads(run: Anton2ParallelRun, threads: number): Anton2ParallelResult {
  const result = runInBlockThreads(ANTON2_BLOCK_PROGRAM, run, threads);
  const figures = result.perThread;
  const total = {
    ...DeliveryDigest.sum(figures, 0),
    injected: summed(figures, INJECTED),
    flitHops: summed(figures, FLIT_HOPS),
    torusFlitHops: summed(figures, TORUS_FLIT_HOPS),
    measuredFlitHops: summed(figures, TIMED_FLIT_HOPS),
  };
  const discarded = summedDiscards(figures, REASONS, ANTON2_DISCARD_REASONS);
  return { ...total, discarded, threads, window: result.window, measuredMs: result.measuredMs, measuredCycles: result.measuredCycles };
}
