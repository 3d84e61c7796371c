/**
 * Traffic runs on an emulated fabric (issue 5), in the two modes of the papers:
 *
 * - steady state (paper 003 §3.2, as BookSim2 does it): every source injects packets by a
 *   Bernoulli process at an offered load (a fraction of its injection link's phits per cycle);
 *   the fabric warms up until the mean latency of successive intervals settles; the packets
 *   injected during a measurement window are labelled, and the run goes on (still loaded) until
 *   the labelled sample has drained — or is declared saturated when it does not;
 * - batch (paper 004 §4.1): N packets per source, all offered at once; the completion time gives
 *   the throughput.
 *
 * Everything is measured from the packets themselves: latency (mean, p50, p99, max; cycles and ns),
 * accepted throughput as a fraction of capacity, per-source fairness, the hop-count histogram, per
 * port and VC utilisation, a time series per interval, and the books (injected = delivered +
 * discarded by reason + in flight).
 */
import { mulberry32, RandomStreams } from '@weft/fabric-model';
import { DISCARD_REASONS, FLAG_ADAPTIVE, FLAG_HASH } from '../engine/packet-store';
import type { FabricEngine } from '../engine/fabric-engine';
import { ArrivalWheel, ArrivalWheelState } from './arrival-wheel';
import type { SharedState } from '../engine/shared-state';
import type { PartProgram } from '../parallel/part-program';
import type { PartThreads } from '../parallel/part-threads';
import type { TrafficPattern } from '@weft/fabric-model/traffic/patterns';
import { LatencyCounts, LatencyHistogram } from './latency-histogram';

export const SAMPLE_TAG = 1;
/** Links listed by name in a report's utilisation. */
export const BUSIEST_LINKS = 10;

export interface TrafficSpec {
  readonly pattern: TrafficPattern;
  /** Makes the pattern afresh: each part of the fabric then draws from one of its own, so that a
   * pattern that keeps state (all-to-all's turn per source) runs the same on one thread or many.
   * Without it, the parts share `pattern`. */
  readonly patternForPart?: () => TrafficPattern;
  /** Packet length in phits for each new packet. */
  readonly size: (random: () => number) => number;
  /** Injection ports (BlackWidow: network slices) that carry the traffic. */
  readonly slices: readonly number[];
  /** Virtual channel (BlackWidow: 0 requests, 1 responses). */
  readonly vc?: number;
  /** Fraction of packets routed adaptively (paper 000 §7.8.3); the rest are hashed. */
  readonly adaptive?: number;
  readonly seed: number;
  /** Sources that inject (default: every processor). */
  readonly sources?: readonly number[];
  /**
   * BlackWidow request/response pairs (paper 000 §5.1): every request delivered is answered by a
   * response of this size from its destination, on the response VC (1) and routed adaptively,
   * while requests are hashed (their hash bits being the address bits [20:6]).
   */
  readonly responses?: (random: () => number) => number;
}

export interface SteadyStateSpec extends TrafficSpec {
  /** Offered load: a fraction of each injection link's capacity (phits per cycle). */
  readonly load: number;
  /** Warm-up bounds, in cycles: at least `min`, at most `max` waiting for the latency to settle. */
  readonly warmup: { readonly min: number; readonly max: number };
  /** Cycles during which injected packets form the measured sample. */
  readonly sampleCycles: number;
  /** Cycles after the sample window to wait for the sample to drain before calling it saturated. */
  readonly drainLimit: number;
  /** Time-series interval in cycles (also the warm-up's settling window). */
  readonly interval: number;
}

export interface BatchSpec extends TrafficSpec {
  /** Packets each source injects per slice. */
  readonly packets: number;
  /** Give up after this many cycles (the report says the batch did not complete). */
  readonly limit: number;
}

export interface LatencyStats {
  readonly count: number;
  readonly meanCycles: number;
  readonly p50Cycles: number;
  readonly p99Cycles: number;
  readonly maxCycles: number;
  readonly meanNs: number;
  readonly p50Ns: number;
  readonly p99Ns: number;
  readonly maxNs: number;
}

export interface IntervalPoint {
  readonly cycle: number;
  readonly injected: number;
  readonly delivered: number;
  /** Delivered phits per cycle per active source, as a fraction of capacity. */
  readonly accepted: number;
  readonly meanLatencyCycles: number;
}

export interface Books {
  readonly injected: number;
  readonly delivered: number;
  readonly discarded: Readonly<Record<string, number>>;
  readonly inFlight: number;
  /** injected = delivered + discarded + in flight. */
  readonly balanced: boolean;
}

/** Discards of one reason at one port, of packets for one destination processor, between two
 * markers of the run (see PacketStore.openDiscardLedger). */
export interface DiscardRecord {
  /** How many markers the run had set before them (0: before the first). */
  readonly epoch: number;
  readonly reason: string;
  /** The chip and port where the packet was discarded (the processor's own port for a packet its
   * interface threw away, or that could not be injected); chip null where it reached no port. */
  readonly chip: string | null;
  readonly port: number;
  readonly destination: number;
  readonly count: number;
  /** Emulated time of the first and the last, from the run's start. */
  readonly firstNs: number;
  readonly lastNs: number;
}

export interface TrafficReport {
  readonly mode: 'steady-state' | 'batch' | 'background';
  readonly pattern: string;
  /** Offered load (steady state), as a fraction of capacity. */
  readonly offered: number;
  /** Delivered phits per cycle per source, over the measurement, as a fraction of capacity. */
  readonly accepted: number;
  /** Steady state: the labelled sample did not drain in time. Batch: it did not complete. */
  readonly saturated: boolean;
  readonly warmupCycles: number;
  /** Whether the warm-up settled before its limit. */
  readonly warmupSettled: boolean;
  /** Measurement cycles: the sample window (steady state) or the completion time (batch). */
  readonly measuredCycles: number;
  readonly latency: LatencyStats;
  /** Per-source accepted throughput over the measurement, as a fraction of capacity. */
  readonly fairness: { readonly min: number; readonly max: number; readonly mean: number };
  /** Routers crossed → packets. */
  readonly hops: Readonly<Record<number, number>>;
  /** Port utilisation over the measurement: fraction of cycles carrying a phit, per VC and in all. */
  readonly utilisation: {
    readonly meanBusyPort: number;
    readonly maxPort: number;
    /** Share of the phits sent on each VC. */
    readonly byVc: readonly number[];
    /** The busiest links (sending ports), with their utilisation per VC. */
    readonly busiest: readonly { readonly chip: string; readonly port: number; readonly utilisation: number; readonly byVc: readonly number[] }[];
  };
  readonly series: readonly IntervalPoint[];
  readonly books: Books;
  /** Every discard of the run, by reason, place, destination and time: they add up to the books' discards. */
  readonly discards: readonly DiscardRecord[];
  /** Packets the links sent again after the receiver's CRC rejected them, where the chips count them (BG/L, §2). */
  readonly retransmissions?: number;
}

/** What one part's arrivals and deliveries came to, as plain data (a part run on another thread
 * hands its own over, PartRecord.take). */
export interface PartRecordState {
  readonly latencies: LatencyCounts;
  readonly hops: ReadonlyMap<number, number>;
  readonly deliveredPhitsBySource: Float64Array;
  readonly deliveredPhits: number;
  readonly intervalDelivered: number;
  readonly intervalPhits: number;
  readonly intervalLatency: number;
  readonly intervalInjected: number;
  readonly lastSampleAt: number;
}

/** One part's share of what a run measures: every figure is a count or a sum (or a latest
 * cycle), so the parts' shares add up to the run's whatever order they were made in. */
class PartRecord {
  latencies = new LatencyHistogram();
  hops = new Map<number, number>();
  deliveredPhitsBySource: Float64Array;
  deliveredPhits = 0;
  intervalDelivered = 0;
  intervalPhits = 0;
  intervalLatency = 0;
  intervalInjected = 0;
  /** Cycle at which the part's last labelled packet arrived. */
  lastSampleAt = 0;

  constructor(private readonly endpoints: number) {
    this.deliveredPhitsBySource = new Float64Array(endpoints);
  }

  /** The share as plain data, and the record emptied. */
  take(): PartRecordState {
    const taken: PartRecordState = {
      latencies: this.latencies.take(),
      hops: this.hops,
      deliveredPhitsBySource: this.deliveredPhitsBySource,
      deliveredPhits: this.deliveredPhits,
      intervalDelivered: this.intervalDelivered,
      intervalPhits: this.intervalPhits,
      intervalLatency: this.intervalLatency,
      intervalInjected: this.intervalInjected,
      lastSampleAt: this.lastSampleAt,
    };
    this.hops = new Map();
    this.deliveredPhitsBySource = new Float64Array(this.endpoints);
    this.deliveredPhits = this.intervalDelivered = this.intervalPhits = this.intervalLatency = this.intervalInjected = this.lastSampleAt = 0;
    return taken;
  }

  /** Adds another record's share (taken on another thread) to this one's. */
  absorb(other: PartRecordState): void {
    this.latencies.absorb(other.latencies);
    for (const [hops, n] of other.hops) this.hops.set(hops, (this.hops.get(hops) ?? 0) + n);
    for (let s = 0; s < other.deliveredPhitsBySource.length; s++) this.deliveredPhitsBySource[s] += other.deliveredPhitsBySource[s];
    this.deliveredPhits += other.deliveredPhits;
    this.intervalDelivered += other.intervalDelivered;
    this.intervalPhits += other.intervalPhits;
    this.intervalLatency += other.intervalLatency;
    this.intervalInjected += other.intervalInjected;
    this.lastSampleAt = Math.max(this.lastSampleAt, other.lastSampleAt);
  }
}

/** Measures what happens to packets from the moment they are created: a record per part of the
 * fabric (each part's deliveries and arrivals go to its own), summed for the report. */
class Recorder {
  readonly parts: PartRecord[];
  measuring = false;

  constructor(
    private readonly sim: FabricEngine,
    endpoints: number,
    /** Answers a delivered request (request/response traffic). */
    private readonly respond: ((packet: number) => void) | null = null,
  ) {
    this.parts = Array.from({ length: sim.parts }, () => new PartRecord(endpoints));
    sim.onDeliver = this.delivered;
  }

  readonly delivered = (handle: number, cycle: number): void => {
    const packets = this.sim.packets;
    const part = packets.partOf(handle);
    const p = packets.stores[part];
    const record = this.parts[part];
    const packet = packets.idOf(handle);
    if (this.respond && p.vc[packet] === 0) this.respond(handle);
    const latency = cycle - p.createdAt[packet];
    record.intervalDelivered++;
    record.intervalPhits += p.length[packet];
    record.intervalLatency += latency;
    if (this.measuring) {
      record.deliveredPhits += p.length[packet];
      const source = this.sim.endpointAt(p.source[packet]);
      if (source >= 0) record.deliveredPhitsBySource[source] += p.length[packet];
    }
    if (p.tag[packet] === SAMPLE_TAG) {
      if (cycle > record.lastSampleAt) record.lastSampleAt = cycle;
      record.latencies.record(latency);
      record.hops.set(p.hops[packet], (record.hops.get(p.hops[packet]) ?? 0) + 1);
    }
  };

  get deliveredPhits(): number {
    return this.parts.reduce((n, r) => n + r.deliveredPhits, 0);
  }

  get deliveredPhitsBySource(): Float64Array {
    const sum = new Float64Array(this.parts[0].deliveredPhitsBySource.length);
    for (const r of this.parts) for (let s = 0; s < sum.length; s++) sum[s] += r.deliveredPhitsBySource[s];
    return sum;
  }

  /** Latencies of the labelled packets, every part's. */
  get latencies(): LatencyHistogram {
    const all = new LatencyHistogram();
    for (const r of this.parts) all.absorb(r.latencies.peek());
    return all;
  }

  /** Routers crossed → labelled packets, every part's. */
  get hops(): Map<number, number> {
    const all = new Map<number, number>();
    for (const r of this.parts) for (const [hops, n] of r.hops) all.set(hops, (all.get(hops) ?? 0) + n);
    return all;
  }

  /** Cycle at which the last labelled packet arrived (the latest of the parts'). */
  get lastSampleAt(): number {
    return this.parts.reduce((at, r) => Math.max(at, r.lastSampleAt), 0);
  }

  point(cycle: number, interval: number, sources: number, capacity: number): IntervalPoint {
    let injected = 0;
    let delivered = 0;
    let phits = 0;
    let latency = 0;
    for (const r of this.parts) {
      injected += r.intervalInjected;
      delivered += r.intervalDelivered;
      phits += r.intervalPhits;
      latency += r.intervalLatency;
      r.intervalInjected = r.intervalDelivered = r.intervalPhits = r.intervalLatency = 0;
    }
    return { cycle, injected, delivered, accepted: phits / (interval * sources * capacity), meanLatencyCycles: delivered > 0 ? latency / delivered : 0 };
  }
}

interface Injector {
  readonly sources: readonly number[];
  readonly capacity: number;
  /** Creates one packet from `source` on `slice`; -1 when the pattern gives it nothing to send. */
  packet(source: number, slice: number, tag: number): number;
  /** The random stream of each of the fabric's independent parts (its slices): each part's
   * traffic is drawn from its own, so that the parts can run apart (FabricEngine.runWindowed). */
  readonly streams: RandomStreams;
  /** Each part's stream as a function. */
  readonly random: readonly (() => number)[];
  /** The part of `source`'s port on `slice`. */
  partOf(source: number, slice: number): number;
}

/** Part p's stream: the run's seed for part 0 (so a fabric of one part draws what it always has). */
export const streamSeed = (seed: number, part: number): number => (seed + Math.imul(part, 0x9e3779b9)) | 0;

/** The run's injector; `streams`: the run's streams as another thread left them (see RandomStreams). */
function injector(
  sim: FabricEngine,
  spec: TrafficSpec,
  streams = RandomStreams.seeded(Array.from({ length: sim.parts }, (_, part) => streamSeed(spec.seed, part))),
): Injector {
  const patterns = Array.from({ length: sim.parts }, () => spec.patternForPart?.() ?? spec.pattern);
  const random = Array.from({ length: sim.parts }, (_, part) => streams.stream(part));
  const partOf = (source: number, slice: number) => sim.partOfPort(sim.endpointPort(source, slice));
  const endpoints = endpointCount(sim);
  const sources = spec.sources ?? Array.from({ length: endpoints }, (_, i) => i);
  for (const s of spec.slices) if (!(s >= 0 && s < 4 && sim.endpointPort(sources[0], s) >= 0)) throw new RangeError(`the fabric has no slice ${s}`);
  const capacity = sim.linkRateOf(sim.endpointPort(sources[0], spec.slices[0]));
  const vc = spec.vc ?? 0;
  const adaptive = spec.adaptive ?? 0;
  return {
    sources,
    capacity,
    streams,
    random,
    partOf,
    packet: (source, slice, tag) => {
      const part = partOf(source, slice);
      const draw = random[part];
      const destination = patterns[part].destination(source, draw);
      if (destination < 0) return -1;
      const length = spec.size(draw);
      const flags = !spec.responses && adaptive > 0 && draw() < adaptive ? FLAG_ADAPTIVE : FLAG_HASH;
      return sim.inject(source, slice, destination, length, vc, flags, Math.floor(draw() * 0x8000), tag);
    },
  };
}

/** The response to a delivered request: from its destination back to its source, same slice, VC 1,
 * adaptive; drawn from that slice's part's stream. */
function responder(sim: FabricEngine, spec: TrafficSpec, inj: Injector): ((packet: number) => void) | null {
  const size = spec.responses;
  if (!size) return null;
  return (packet) => {
    const p = sim.packets;
    const g = p.source(packet);
    const source = sim.endpointAt(g);
    const slice = g - sim.fabric.portBase[sim.fabric.portOwner(g)];
    const destination = p.destination(packet);
    const random = inj.random[inj.partOf(destination, slice)];
    sim.inject(destination, slice, source, size(random), 1, FLAG_ADAPTIVE, Math.floor(random() * 0x8000), p.tag(packet));
  };
}

function endpointCount(sim: FabricEngine): number {
  let n = 0;
  for (let g = 0; g < sim.portCount; g++) if (sim.endpointAt(g) >= n) n = sim.endpointAt(g) + 1;
  return n;
}

/**
 * A traffic run that advances a given number of cycles at a time, so that a host can interleave it
 * with everything else the fabric does (maintenance, faults, other fabrics) and stop it any time.
 */
export interface TrafficSession {
  /** Runs up to `cycles` cycles; true once the run has finished. */
  advance(cycles: number): boolean;
  readonly finished: boolean;
  /** Emulated cycles the run has taken so far. */
  readonly elapsed: number;
  report(): TrafficReport;
}

/** Whether any packet of the labelled sample is still alive (the store counts them). */
function sampleAlive(sim: FabricEngine): boolean {
  return sim.packets.taggedInFlight > 0;
}

/** Bernoulli arrivals at an offered load over a run's injection ports (source × slice), each
 * slice's drawn from its own stream (see ArrivalWheel). */
class Arrivals {
  private readonly wheel: ArrivalWheel;
  /** The tag the packets made now carry (SAMPLE_TAG: they are measured). */
  tag = 0;

  constructor(
    private readonly sim: FabricEngine,
    private readonly spec: TrafficSpec & { readonly load: number },
    private readonly inj: Injector,
    /** Counts the packets made into its interval. */
    private readonly recorder: Recorder,
    /** The wheel as the run's other thread left it (see ArrivalWheel). */
    wheel?: ArrivalWheelState,
  ) {
    if (!(spec.load > 0 && spec.load <= 1)) throw new RangeError(`offered load must be in (0, 1], got ${spec.load}`);
    let meanSize = 0;
    for (let i = 0; i < 1000; i++) meanSize += spec.size(mulberry32(spec.seed + i));
    const probability = Math.min(1, (spec.load * inj.capacity) / (meanSize / 1000));
    const ports = inj.sources.length * spec.slices.length;
    const partOfPort = new Uint8Array(ports);
    for (let k = 0; k < ports; k++) partOfPort[k] = inj.partOf(this.sourceOf(k), this.sliceOf(k));
    this.wheel = new ArrivalWheel(probability, partOfPort, inj.streams, sim.cycle, wheel);
  }

  get wheelState(): ArrivalWheelState {
    return this.wheel.state;
  }

  private sourceOf(k: number): number {
    return this.inj.sources[(k / this.spec.slices.length) | 0];
  }

  private sliceOf(k: number): number {
    return this.spec.slices[k % this.spec.slices.length];
  }

  /** The part whose arrivals are being made. */
  private part = 0;

  private readonly arrive = (k: number): void => {
    if (this.inj.packet(this.sourceOf(k), this.sliceOf(k), this.tag) >= 0) this.recorder.parts[this.part].intervalInjected++;
  };

  /** Creates part `part`'s packets of this cycle, before the part evaluates it: runWindowed's
   * beforeCycle. */
  readonly beforeCycle = (part: number): void => {
    this.part = part;
    this.wheel.due(part, this.sim.cycle, this.arrive);
  };
}

/** What every kind of run keeps: its injector, its recorder, the books and the time it started. */
abstract class RunBase {
  protected readonly inj: Injector;
  protected readonly recorder: Recorder;
  protected readonly before: ReturnType<typeof bookkeeping>;
  protected readonly start: number;

  constructor(
    protected readonly sim: FabricEngine,
    spec: TrafficSpec,
    /** Threads to run the fabric's parts on, and the request the run was made from (each thread makes the run's traffic from it). */
    private readonly threads: TrafficThreads | null = null,
  ) {
    // A run's books are the fabric's counters from its start: packets an earlier run left in flight
    // are let arrive first, or their deliveries would be counted as this run's (CI saw −3,874 in flight).
    sim.drain(DRAIN_BEFORE_RUN_CYCLES);
    this.inj = injector(sim, spec);
    this.recorder = new Recorder(sim, endpointCount(sim), responder(sim, spec, this.inj));
    this.before = bookkeeping(sim);
    this.start = sim.cycle;
    sim.packets.openDiscardLedger();
  }

  get elapsed(): number {
    return this.sim.cycle - this.start;
  }

  /** Whether a part's share of the labelled packets has drained: a run that ends when the last of
   * them goes lets the parts run apart up to that cycle (see FabricEngine.runWindowed). */
  protected readonly partDrained = (part: number): boolean => this.sim.packets.taggedInFlightOf(part) === 0;

  /**
   * Runs up to `span` cycles, the fabric's parts apart (runWindowed), each making its own arrivals
   * (none without `arrivals`); `untilDrained`: ending in the cycle the last labelled packet goes.
   * With threads, each part on its own (PartThreads), the same cycle for cycle. The cycles run.
   */
  protected runApart(span: number, arrivals: Arrivals | null, untilDrained: boolean): number {
    const beforeCycle = arrivals?.beforeCycle ?? injectNothing;
    const partDone = untilDrained ? this.partDrained : undefined;
    if (this.threads === null) return this.sim.runWindowed(span, span, beforeCycle, partDone);
    const args: TrafficProgramArgs = {
      request: this.threads.request,
      shape: this.threads.shape,
      streams: this.inj.streams.states,
      wheel: arrivals?.wheelState ?? null,
      tag: arrivals?.tag ?? 0,
      measuring: this.recorder.measuring,
      untilDrained,
    };
    return this.threads.runner.runWindowed(this.sim, span, span, {
      spec: { name: TRAFFIC_PROGRAM, args: args as unknown as SharedState },
      beforeCycle,
      partDone,
      onDeliver: this.recorder.delivered,
      adoptPart: (part, state) => this.recorder.parts[part].absorb(state as PartRecordState),
    });
  }
}

/** Threads for a run's parts (see RunBase.runApart), and what each needs to make the run's traffic. */
export interface TrafficThreads {
  readonly runner: PartThreads;
  /** The run's request and the fabric's shape, as startTraffic was given them. */
  readonly request: unknown;
  readonly shape: unknown;
}

/** The part program of a traffic run on another thread (traffic-program.ts builds it there). */
export const TRAFFIC_PROGRAM = 'traffic-run';

export interface TrafficProgramArgs {
  readonly request: unknown;
  readonly shape: unknown;
  /** The run's random streams and arrival wheel, in shared memory (no wheel: no arrivals). */
  readonly streams: Uint32Array;
  readonly wheel: ArrivalWheelState | null;
  readonly tag: number;
  readonly measuring: boolean;
  readonly untilDrained: boolean;
}

/**
 * A traffic run's part program on another thread: its injector, arrivals and recorder made again
 * from the run's spec over the run's streams and wheel in shared memory; each part hands back what
 * it recorded (PartRecord.take), which the run's own recorder adds to its part's.
 */
export function trafficPartProgram(sim: FabricEngine, spec: TrafficSpec & { readonly load?: number }, args: TrafficProgramArgs): PartProgram {
  const inj = injector(sim, spec, new RandomStreams(args.streams));
  const recorder = new Recorder(sim, endpointCount(sim), responder(sim, spec, inj));
  recorder.measuring = args.measuring;
  let arrivals: Arrivals | null = null;
  if (args.wheel !== null) {
    arrivals = new Arrivals(sim, spec as TrafficSpec & { readonly load: number }, inj, recorder, args.wheel);
    arrivals.tag = args.tag;
  }
  return {
    spec: { name: TRAFFIC_PROGRAM, args: args as unknown as SharedState },
    beforeCycle: arrivals?.beforeCycle ?? injectNothing,
    partDone: args.untilDrained ? (part) => sim.packets.taggedInFlightOf(part) === 0 : undefined,
    onDeliver: recorder.delivered,
    exportPart: (part) => recorder.parts[part].take(),
  };
}

const injectNothing = (): void => undefined;

class SteadyStateSession extends RunBase implements TrafficSession {
  private readonly arrivals: Arrivals;
  private readonly series: IntervalPoint[] = [];
  private phase: 'warm-up' | 'sample' | 'drain' | 'done' = 'warm-up';
  private settled = false;
  private warmupCycles = 0;
  private sampleStart = 0;
  private measured = 0;
  private drainStart = 0;
  private drained = false;
  private portsBefore: Float64Array | null = null;
  private portsAfter: Float64Array | null = null;

  constructor(
    sim: FabricEngine,
    private readonly spec: SteadyStateSpec,
    threads: TrafficThreads | null = null,
  ) {
    super(sim, spec, threads);
    this.arrivals = new Arrivals(sim, spec, this.inj, this.recorder);
  }

  get finished(): boolean {
    return this.phase === 'done';
  }

  advance(cycles: number): boolean {
    const { sim, spec } = this;
    for (let left = cycles; left > 0 && this.phase !== 'done';) {
      left -= this.runSpan(this.span(left));
      const elapsed = sim.cycle - this.start;
      if (this.phase === 'warm-up') {
        // Until three successive intervals agree on the mean latency within 5%.
        const n = this.series.length;
        if (elapsed >= spec.warmup.min && n >= 3 && elapsed % spec.interval === 0) {
          const [a, b, c] = this.series.slice(-3).map((p) => p.meanLatencyCycles);
          this.settled = a > 0 && Math.abs(b - a) <= 0.05 * a && Math.abs(c - b) <= 0.05 * b;
        }
        if (this.settled || elapsed >= spec.warmup.max) {
          this.warmupCycles = elapsed;
          this.portsBefore = sim.portPhits();
          this.recorder.measuring = true;
          this.arrivals.tag = SAMPLE_TAG;
          this.sampleStart = sim.cycle;
          this.phase = 'sample';
        }
      } else if (this.phase === 'sample') {
        if (sim.cycle - this.sampleStart >= spec.sampleCycles) {
          this.recorder.measuring = false;
          this.measured = sim.cycle - this.sampleStart;
          this.portsAfter = sim.portPhits();
          this.arrivals.tag = 0;
          this.drainStart = sim.cycle;
          this.phase = 'drain';
        }
      } else if (this.phase === 'drain') {
        // Still loaded, until every labelled packet has been delivered or discarded.
        const waited = sim.cycle - this.drainStart;
        if (!sampleAlive(sim)) {
          this.drained = true;
          this.phase = 'done';
        } else if (waited >= spec.drainLimit) this.phase = 'done';
      }
    }
    return this.phase === 'done';
  }

  /**
   * Cycles the run can go without looking at how it is doing: up to the end of the interval, the
   * warm-up's limit, the sample's end or the drain's limit, where its phase may change. While the
   * sample drains, runSpan also ends in the cycle the last labelled packet goes.
   */
  private span(left: number): number {
    const { sim, spec } = this;
    const elapsed = sim.cycle - this.start;
    let span = Math.min(left, spec.interval - (elapsed % spec.interval));
    if (this.phase === 'warm-up' && elapsed < spec.warmup.max) span = Math.min(span, spec.warmup.max - elapsed);
    else if (this.phase === 'sample') span = Math.min(span, this.sampleStart + spec.sampleCycles - sim.cycle);
    else if (this.phase === 'drain') span = Math.min(span, this.drainStart + spec.drainLimit - sim.cycle);
    return Math.max(1, span);
  }

  /** Runs up to `span` cycles, the fabric's parts apart (runWindowed), each making its own
   * arrivals; while the sample drains, to the cycle its last packet goes at most. The cycles run. */
  private runSpan(span: number): number {
    const { sim, spec, inj, recorder } = this;
    const ran = this.runApart(span, this.arrivals, this.phase === 'drain');
    if ((sim.cycle - this.start) % spec.interval === 0)
      this.series.push(recorder.point(sim.cycle - this.start, spec.interval, inj.sources.length * spec.slices.length, inj.capacity));
    return ran;
  }

  report(): TrafficReport {
    const { sim, spec, inj } = this;
    const measured = this.measured || Math.max(1, sim.cycle - this.sampleStart);
    return report(sim, 'steady-state', spec, {
      recorder: this.recorder,
      before: this.before,
      start: this.start,
      series: this.series,
      offered: spec.load,
      accepted: this.recorder.deliveredPhits / (measured * inj.sources.length * spec.slices.length * inj.capacity),
      saturated: !this.drained,
      warmupCycles: this.warmupCycles,
      warmupSettled: this.settled,
      measuredCycles: measured,
      sources: inj.sources,
      capacity: inj.capacity * measured * spec.slices.length,
      utilisation: utilisation(sim, this.portsBefore ?? sim.portPhits(), this.portsAfter ?? sim.portPhits(), measured),
    });
  }
}

class BatchSession extends RunBase implements TrafficSession {
  private readonly portsBefore: Float64Array;
  private readonly series: IntervalPoint[] = [];
  private done = false;
  private completed = false;
  private static readonly INTERVAL = 500;

  constructor(
    sim: FabricEngine,
    private readonly spec: BatchSpec,
    threads: TrafficThreads | null = null,
  ) {
    super(sim, spec, threads);
    this.portsBefore = sim.portPhits();
    let injected = 0;
    for (const s of this.inj.sources)
      for (const slice of spec.slices) for (let k = 0; k < spec.packets; k++) if (this.inj.packet(s, slice, SAMPLE_TAG) >= 0) injected++;
    this.recorder.measuring = true;
    this.recorder.parts[0].intervalInjected = injected;
  }

  get finished(): boolean {
    return this.done;
  }

  advance(cycles: number): boolean {
    const { sim, spec } = this;
    const sources = this.inj.sources.length * spec.slices.length;
    for (let left = cycles; left > 0 && !this.done;) {
      // To the end of the interval or the limit, the parts apart, ending with the last labelled
      // packet if it goes first.
      const at = sim.cycle - this.start;
      const span = Math.max(1, Math.min(left, BatchSession.INTERVAL - (at % BatchSession.INTERVAL), spec.limit - at));
      left -= this.runApart(span, null, true);
      const elapsed = sim.cycle - this.start;
      if (elapsed % BatchSession.INTERVAL === 0) this.series.push(this.recorder.point(elapsed, BatchSession.INTERVAL, sources, this.inj.capacity));
      if (!sampleAlive(sim)) this.done = this.completed = true;
      else if (elapsed >= this.spec.limit) this.done = true;
    }
    return this.done;
  }

  report(): TrafficReport {
    const { sim, spec, inj } = this;
    // Completed: the time to the last arrival.
    const measured = Math.max(1, (this.completed ? Math.max(this.recorder.lastSampleAt, this.start) : sim.cycle) - this.start);
    const sources = inj.sources.length * spec.slices.length;
    return report(sim, 'batch', spec, {
      recorder: this.recorder,
      before: this.before,
      start: this.start,
      series: this.series,
      offered: 1,
      accepted: this.recorder.deliveredPhits / (measured * sources * inj.capacity),
      saturated: !this.completed,
      warmupCycles: 0,
      warmupSettled: true,
      measuredCycles: measured,
      sources: inj.sources,
      capacity: inj.capacity * measured * spec.slices.length,
      utilisation: utilisation(sim, this.portsBefore, sim.portPhits(), measured),
    });
  }
}

export interface BackgroundSpec extends TrafficSpec {
  readonly load: number;
  /** Time-series interval, in cycles. */
  readonly interval: number;
}

/** Something that happened during a run, for the plot (a fault, a generation pushed). */
export interface Marker {
  readonly cycle: number;
  readonly ns: number;
  readonly label: string;
}

export interface BackgroundReport extends TrafficReport {
  readonly markers: readonly Marker[];
}

/** A run that goes on until it is stopped (a drill's traffic), with markers set as it goes. */
export interface BackgroundSession extends TrafficSession {
  /** Stops injecting; the run ends when its packets are gone, or `drainLimit` cycles later. */
  stop(drainLimit: number): void;
  /** Sets a marker now (the plot's; discards after it are of the next epoch). */
  mark(label: string): void;
  report(): BackgroundReport;
}

export function isBackgroundSession(session: TrafficSession): session is BackgroundSession {
  return 'stop' in session && 'mark' in session;
}

/**
 * Traffic that goes on until it is stopped — the load a drill runs its timeline under: Bernoulli
 * arrivals at the offered load, every packet measured, a time series per interval, markers for the
 * plot. Stopped, it injects no more and runs until every packet it made is delivered or discarded.
 */
export class BackgroundTraffic extends RunBase implements BackgroundSession {
  private readonly portsBefore: Float64Array;
  private readonly arrivals: Arrivals;
  private readonly series: IntervalPoint[] = [];
  private readonly markers: Marker[] = [];
  private stoppedAt = -1;
  private drainLimit = 0;
  private done = false;
  private drained = false;

  constructor(
    sim: FabricEngine,
    private readonly spec: BackgroundSpec,
    threads: TrafficThreads | null = null,
  ) {
    super(sim, spec, threads);
    this.recorder.measuring = true;
    this.portsBefore = sim.portPhits();
    this.arrivals = new Arrivals(sim, spec, this.inj, this.recorder);
    this.arrivals.tag = SAMPLE_TAG;
  }

  get finished(): boolean {
    return this.done;
  }

  /** Stops injecting; the run ends when its packets are gone, or `drainLimit` cycles later. */
  stop(drainLimit: number): void {
    if (this.stoppedAt < 0) {
      this.stoppedAt = this.sim.cycle;
      this.drainLimit = drainLimit;
    }
  }

  mark(label: string): void {
    this.markers.push({ cycle: this.sim.cycle - this.start, ns: (this.sim.cycle - this.start) * this.sim.nsPerCycle, label });
    this.sim.packets.nextDiscardEpoch();
  }

  advance(cycles: number): boolean {
    const { sim, spec, inj, recorder } = this;
    const sources = inj.sources.length * spec.slices.length;
    for (let left = cycles; left > 0 && !this.done;) {
      // To the end of the interval, the parts apart (runWindowed); once stopped, to the drain's
      // limit at most, ending in the cycle the last packet goes.
      let span = Math.min(left, spec.interval - ((sim.cycle - this.start) % spec.interval));
      if (this.stoppedAt < 0) left -= this.runApart(span, this.arrivals, false);
      else {
        span = Math.max(1, Math.min(span, this.stoppedAt + this.drainLimit - sim.cycle));
        left -= this.runApart(span, null, true);
      }
      const elapsed = sim.cycle - this.start;
      if (elapsed % spec.interval === 0) this.series.push(recorder.point(elapsed, spec.interval, sources, inj.capacity));
      if (this.stoppedAt >= 0) {
        const waited = sim.cycle - this.stoppedAt;
        if (!sampleAlive(sim)) this.done = this.drained = true;
        else if (waited >= this.drainLimit) this.done = true;
      }
    }
    return this.done;
  }

  report(): BackgroundReport {
    const { sim, spec, inj } = this;
    const measured = Math.max(1, (this.stoppedAt >= 0 ? this.stoppedAt : sim.cycle) - this.start);
    const base = report(sim, 'background', spec, {
      recorder: this.recorder,
      before: this.before,
      start: this.start,
      series: this.series,
      offered: spec.load,
      accepted: this.recorder.deliveredPhits / (measured * inj.sources.length * spec.slices.length * inj.capacity),
      saturated: this.stoppedAt >= 0 && !this.drained,
      warmupCycles: 0,
      warmupSettled: true,
      measuredCycles: measured,
      sources: inj.sources,
      capacity: inj.capacity * measured * spec.slices.length,
      utilisation: utilisation(sim, this.portsBefore, sim.portPhits(), measured),
    });
    return { ...base, markers: [...this.markers] };
  }
}

export function startSteadyState(sim: FabricEngine, spec: SteadyStateSpec, threads: TrafficThreads | null = null): TrafficSession {
  return new SteadyStateSession(sim, spec, threads);
}

export function startBatch(sim: FabricEngine, spec: BatchSpec, threads: TrafficThreads | null = null): TrafficSession {
  return new BatchSession(sim, spec, threads);
}

const toEnd = (session: TrafficSession) => {
  while (!session.advance(1 << 30));
  return session.report();
};

export function runSteadyState(sim: FabricEngine, spec: SteadyStateSpec): TrafficReport {
  return toEnd(startSteadyState(sim, spec));
}

export function runBatch(sim: FabricEngine, spec: BatchSpec): TrafficReport {
  return toEnd(startBatch(sim, spec));
}

/** At most this many cycles are run for what an earlier run left in flight before a run starts. */
const DRAIN_BEFORE_RUN_CYCLES = 1_000_000;

function bookkeeping(sim: FabricEngine) {
  const p = sim.packets;
  return { created: p.created, delivered: p.delivered, discarded: Float64Array.from(p.discarded), inFlight: p.inFlight };
}

function utilisation(sim: FabricEngine, before: Float64Array, after: Float64Array, cycles: number): TrafficReport['utilisation'] {
  const NVC = sim.vcs;
  const ports = before.length / NVC;
  const byVc = new Array<number>(NVC).fill(0);
  let busyPorts = 0;
  let busySum = 0;
  let max = 0;
  const used: { g: number; u: number }[] = [];
  for (let g = 0; g < ports; g++) {
    let phits = 0;
    for (let v = 0; v < NVC; v++) {
      const n = after[g * NVC + v] - before[g * NVC + v];
      phits += n;
      byVc[v] += n;
    }
    if (phits === 0) continue;
    const u = phits / (cycles * (sim.linkRateOf(g) || 1));
    busyPorts++;
    busySum += u;
    if (u > max) max = u;
    used.push({ g, u });
  }
  const total = byVc.reduce((a, b) => a + b, 0);
  const busiest = used
    .sort((a, b) => b.u - a.u)
    .slice(0, BUSIEST_LINKS)
    .map(({ g, u }) => {
      const chip = sim.fabric.portOwner(g);
      const perVc = Array.from({ length: NVC }, (_, v) => (after[g * NVC + v] - before[g * NVC + v]) / (cycles * (sim.linkRateOf(g) || 1)));
      return { chip: sim.fabric.chipNames[chip], port: g - sim.fabric.portBase[chip], utilisation: u, byVc: perVc };
    });
  return { meanBusyPort: busyPorts > 0 ? busySum / busyPorts : 0, maxPort: max, byVc: byVc.map((n) => (total > 0 ? n / total : 0)), busiest };
}

export function latencyStats(latencies: LatencyHistogram, nsPerCycle: number): LatencyStats {
  const mean = latencies.count ? latencies.sum / latencies.count : 0;
  const p50 = latencies.quantile(0.5);
  const p99 = latencies.quantile(0.99);
  return {
    count: latencies.count,
    meanCycles: mean,
    p50Cycles: p50,
    p99Cycles: p99,
    maxCycles: latencies.max,
    meanNs: mean * nsPerCycle,
    p50Ns: p50 * nsPerCycle,
    p99Ns: p99 * nsPerCycle,
    maxNs: latencies.max * nsPerCycle,
  };
}

function report(
  sim: FabricEngine,
  mode: TrafficReport['mode'],
  spec: TrafficSpec,
  r: {
    recorder: Recorder;
    before: ReturnType<typeof bookkeeping>;
    /** The run's first cycle. */
    start: number;
    series: IntervalPoint[];
    offered: number;
    accepted: number;
    saturated: boolean;
    warmupCycles: number;
    warmupSettled: boolean;
    measuredCycles: number;
    sources: readonly number[];
    capacity: number;
    utilisation: TrafficReport['utilisation'];
  },
): TrafficReport {
  const p = sim.packets;
  const discarded: Record<string, number> = {};
  let discardedTotal = 0;
  DISCARD_REASONS.forEach((reason, i) => {
    const n = p.discarded[i] - r.before.discarded[i];
    if (n > 0) discarded[reason] = n;
    discardedTotal += n;
  });
  const injected = p.created - r.before.created;
  const delivered = p.delivered - r.before.delivered;
  const inFlight = p.inFlight - r.before.inFlight;
  const perSource = r.sources.map((s) => r.recorder.deliveredPhitsBySource[s] / r.capacity);
  return {
    mode,
    pattern: spec.pattern.name,
    offered: r.offered,
    accepted: r.accepted,
    saturated: r.saturated,
    warmupCycles: r.warmupCycles,
    warmupSettled: r.warmupSettled,
    measuredCycles: r.measuredCycles,
    latency: latencyStats(r.recorder.latencies, sim.nsPerCycle),
    fairness: {
      min: Math.min(...perSource),
      max: Math.max(...perSource),
      mean: perSource.reduce((a, b) => a + b, 0) / perSource.length,
    },
    hops: Object.fromEntries([...r.recorder.hops].sort((a, b) => a[0] - b[0])),
    utilisation: r.utilisation,
    series: r.series,
    books: { injected, delivered, discarded, inFlight, balanced: injected === delivered + discardedTotal + inFlight },
    discards: discardRecords(sim, r.start),
  };
}

function discardRecords(sim: FabricEngine, start: number): DiscardRecord[] {
  return sim.packets
    .takeDiscardLedger()
    .map((e) => {
      const chip = e.port >= 0 ? sim.fabric.portOwner(e.port) : -1;
      return {
        epoch: e.epoch,
        reason: DISCARD_REASONS[e.reason],
        chip: chip >= 0 ? sim.fabric.chipNames[chip] : null,
        port: chip >= 0 ? e.port - sim.fabric.portBase[chip] : -1,
        destination: e.destination,
        count: e.count,
        firstNs: (e.firstCycle - start) * sim.nsPerCycle,
        lastNs: (e.lastCycle - start) * sim.nsPerCycle,
      };
    })
    .sort(
      (a, b) =>
        a.firstNs - b.firstNs ||
        a.reason.localeCompare(b.reason) ||
        (a.chip ?? '').localeCompare(b.chip ?? '') ||
        a.port - b.port ||
        a.destination - b.destination,
    );
}

export interface SweepPoint {
  readonly load: number;
  readonly accepted: number;
  readonly meanLatencyCycles: number;
  readonly p99LatencyCycles: number;
  readonly saturated: boolean;
}

export interface SweepReport {
  readonly pattern: string;
  readonly points: readonly SweepPoint[];
  /** The lowest offered load at which the fabric saturated (the sample did not drain, or it accepted
   * less than 95% of what was offered); null if none of the loads did. */
  readonly saturationLoad: number | null;
  /** The most it accepted at any load, as a fraction of capacity. */
  readonly peakAccepted: number;
}

/**
 * Latency against offered load: a steady-state run per load, each on a fresh fabric from `fabric`
 * (so no run inherits another's queues). Stops after the first saturated load.
 */
export function runSweep(fabric: () => FabricEngine, spec: Omit<SteadyStateSpec, 'load'>, loads: readonly number[]): SweepReport {
  const points: SweepPoint[] = [];
  for (const load of [...loads].sort((a, b) => a - b)) {
    const point = sweepPointOf(load, runSteadyState(fabric(), { ...spec, load }));
    points.push(point);
    if (point.saturated) break;
  }
  return sweepReportOf(spec.pattern.name, points);
}

/** One load's point of a sweep, from its steady-state run's report. */
export function sweepPointOf(load: number, r: Pick<TrafficReport, 'accepted' | 'saturated' | 'latency'>): SweepPoint {
  const saturated = r.saturated || r.accepted < 0.95 * load;
  return { load, accepted: r.accepted, meanLatencyCycles: r.latency.meanCycles, p99LatencyCycles: r.latency.p99Cycles, saturated };
}

/** A sweep's report from its points (in any order; reported by load). */
export function sweepReportOf(pattern: string, points: readonly SweepPoint[]): SweepReport {
  const byLoad = [...points].sort((a, b) => a.load - b.load);
  return {
    pattern,
    points: byLoad,
    saturationLoad: byLoad.find((p) => p.saturated)?.load ?? null,
    peakAccepted: byLoad.length === 0 ? 0 : Math.max(...byLoad.map((p) => p.accepted)),
  };
}
