/**
 * The flattened butterfly emulated on every core (issue 56), by the block threads the torus
 * families use (parallel/block-threads.ts): the routers cut into runs of neighbours, a packet
 * crossing to another thread's router with its record, the credits going back without. A channel
 * takes a cycle (paper 003 §3.2), so the threads meet every cycle. The workload is open-loop
 * uniform random traffic (§3.2): Bernoulli arrivals at every terminal, each block drawing its own
 * from a stream of its own, each destination keyed by its terminal and serial — so that any thread
 * sends, for the blocks it runs, exactly the packets one thread would. Each router draws its
 * intermediates from its own stream and routes what reaches it in the order of its inputs
 * (flat-sim.ts), so the result — what was delivered and when — is that of one thread, packet for
 * packet (flat-threads.spec.ts).
 */
import { FLAT_ROUTINGS, FlatRouting, flatVcsNeeded, keyedDraw, RandomStreams } from '@weft/fabric-model';
import { BlockProgram, BlockRun, runInBlockThreads } from '../parallel/block-threads';
import { DeliveryDigest, DIGEST_WORDS, summed, summedDiscards } from '../parallel/delivery-digest';
import { ArrivalWheel } from '../traffic/arrival-wheel';
import { streamSeed } from '../traffic/traffic-run';
import { FLAT_DISCARD_REASONS, FLAT_PACKET_RECORD_DOUBLES, FlatSim } from './flat-sim';

const DRAW_DESTINATION = 1;
/** The most blocks a load can draw for (an arrival wheel's parts are bytes). */
const MAX_LOAD_BLOCKS = 255;

/** Uniform random one-flit packets from every terminal. */
export interface FlatUniformLoad {
  /** Flits a terminal a cycle, (0, 1] (§3.2: a terminal's capacity is a flit a cycle). */
  readonly load: number;
  /** The seed of the arrivals' and destinations' draws. */
  readonly seed: number;
  /** The cycle from which no more packets are sent (default: never). */
  readonly sendUntil?: number;
}

/**
 * The load on `sim` (its blocks set): the hook that sends block `block`'s packets of cycle
 * `cycle`, to be called for each block a cycle, in cycle order.
 */
export function flatUniformLoad(sim: FlatSim, traffic: FlatUniformLoad): (block: number, cycle: number) => void {
  if (!(traffic.load > 0 && traffic.load <= 1)) throw new RangeError(`a load is above 0 and at most 1 flit a terminal a cycle, got ${traffic.load}`);
  const blocks = sim.blockCount;
  if (blocks > MAX_LOAD_BLOCKS) throw new RangeError(`a load draws for at most ${MAX_LOAD_BLOCKS} blocks, got ${blocks}`);
  const k = sim.grid.k;
  const terminals = sim.terminals;
  const blockOfTerminal = new Uint8Array(terminals);
  for (let t = 0; t < terminals; t++) blockOfTerminal[t] = sim.blockOf(Math.floor(t / k));
  const streams = RandomStreams.seeded(Array.from({ length: blocks }, (_, b) => streamSeed(traffic.seed, b)));
  const wheel = new ArrivalWheel(traffic.load, blockOfTerminal, streams, sim.cycle);
  const seed = traffic.seed;
  // Uniform over the other terminals (the pattern's uniform random, patterns.ts).
  const arrive = (t: number): void => {
    let d = Math.floor(keyedDraw(seed, DRAW_DESTINATION, t, sim.sentBy(t)) * (terminals - 1));
    if (d >= t) d++;
    sim.send(t, d);
  };
  const until = traffic.sendUntil ?? Number.POSITIVE_INFINITY;
  return (block, cycle) => {
    if (cycle < until) wheel.due(block, cycle, arrive);
  };
}

export interface FlatParallelRun extends BlockRun {
  /** The k-ary n-flat: k terminals a router, `sizes` routers a dimension (all k). */
  readonly k: number;
  readonly sizes: readonly number[];
  readonly routing: FlatRouting;
  /** The routers' seed (their intermediates' streams). */
  readonly seed: number;
  readonly traffic: FlatUniformLoad;
}

export interface FlatParallelResult {
  readonly delivered: number;
  readonly latencyCycles: number;
  /** A sum of a hash of each delivery (source, serial, destination, cycle): the same whatever order they were seen in. */
  readonly hash: number;
  readonly created: number;
  readonly discarded: Readonly<Record<string, number>>;
  readonly flitHops: number;
  readonly routerHops: number;
  /** Flit-hops from `measureFrom` on. */
  readonly measuredFlitHops: number;
  readonly threads: number;
  readonly measuredMs: number;
  readonly measuredCycles: number;
}

/** A digest of what `sim` delivers from now on (parallel/delivery-digest.ts), whatever order it is seen in. */
export function digestFlatDeliveries(sim: FlatSim): DeliveryDigest {
  const digest = new DeliveryDigest();
  const chain = sim.onDeliver;
  sim.onDeliver = (p, cycle) => {
    chain?.(p, cycle);
    digest.record(sim.packetSource(p), sim.packetSerial(p), sim.packetDestination(p), cycle, cycle - sim.packetBorn(p));
  };
  return digest;
}

/** Per thread: the delivery digest, packets made, flit-hops, router hops, flit-hops while timed, then the discard reasons. */
const CREATED = DIGEST_WORDS;
const FLIT_HOPS = DIGEST_WORDS + 1;
const ROUTER_HOPS = DIGEST_WORDS + 2;
const TIMED_FLIT_HOPS = DIGEST_WORDS + 3;
const REASONS = DIGEST_WORDS + 4;
const RESULT_WORDS = REASONS + FLAT_DISCARD_REASONS.length;

/** The ideal k-ary n-flat's channels between routers of different blocks, each way (a router's peers differ from it in one digit). */
function crossingChannels(run: FlatParallelRun): number {
  const routers = run.sizes.reduce((a, s) => a * s, 1);
  const blockOf = (r: number) => Math.floor((r * run.blocks) / routers);
  let crossing = 0;
  for (let r = 0; r < routers; r++) {
    let step = 1;
    for (const size of run.sizes) {
      const own = Math.floor(r / step) % size;
      for (let m = 0; m < size; m++) if (m !== own && blockOf(r + (m - own) * step) !== blockOf(r)) crossing++;
      step *= size;
    }
  }
  return crossing;
}

/** The flattened butterfly under uniform load, its routers cut into runs of neighbours. */
export const FLAT_BLOCK_PROGRAM: BlockProgram<FlatParallelRun> = {
  name: 'flattened-butterfly',
  payload: FLAT_PACKET_RECORD_DOUBLES,
  resultWords: RESULT_WORDS,
  mailCapacity(run) {
    // A cycle's mail: a packet on each channel that crosses, and credits for each of its VCs.
    return Math.max(1, crossingChannels(run) * (1 + flatVcsNeeded(run.routing, run.sizes.length)));
  },
  share(run, owned) {
    const sim = flatStudy(run);
    sim.setBlocks(run.blocks, owned);
    const beforeCycle = flatUniformLoad(sim, run.traffic);
    const digest = digestFlatDeliveries(sim);
    let hopsBefore = 0;
    return {
      engine: sim,
      window: 1,
      beforeCycle,
      results(into, offset) {
        digest.write(into, offset);
        into[offset + CREATED] = sim.created;
        into[offset + FLIT_HOPS] = sim.flitHops;
        into[offset + ROUTER_HOPS] = sim.routerHops;
        into[offset + TIMED_FLIT_HOPS] = sim.flitHops - hopsBefore;
        FLAT_DISCARD_REASONS.forEach((reason, i) => (into[offset + REASONS + i] = sim.discardedBy.get(reason) ?? 0));
      },
      startMeasuring() {
        hopsBefore = sim.flitHops;
      },
    };
  },
};

/** The run's routers, every register written for its routing. */
function flatStudy(run: FlatParallelRun): FlatSim {
  if (!FLAT_ROUTINGS.includes(run.routing)) throw new RangeError(`routing must be one of ${FLAT_ROUTINGS.join(', ')}, got ${String(run.routing)}`);
  return FlatSim.study({ k: run.k, sizes: [...run.sizes] }, { routing: run.routing, seed: run.seed });
}

/** Runs `run` on `threads` threads (this one and threads − 1 workers); the same as on one. */
export function runFlatInThreads(run: FlatParallelRun, threads: number): FlatParallelResult {
  const result = runInBlockThreads(FLAT_BLOCK_PROGRAM, run, threads);
  const figures = result.perThread;
  return {
    ...DeliveryDigest.sum(figures, 0),
    created: summed(figures, CREATED),
    flitHops: summed(figures, FLIT_HOPS),
    routerHops: summed(figures, ROUTER_HOPS),
    measuredFlitHops: summed(figures, TIMED_FLIT_HOPS),
    discarded: summedDiscards(figures, REASONS, FLAT_DISCARD_REASONS),
    threads,
    measuredMs: result.measuredMs,
    measuredCycles: result.measuredCycles,
  };
}
