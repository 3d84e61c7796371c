/**
 * Traffic runs on a torus machine whose chips the emulator models by their own engine (BlueGene/L's
 * bgl-torus-sim.ts, Anton 2's anton2-sim.ts) rather than the link-layer engine — the operator's
 * traffic runs and a drill's background load — measured as the link-layer runs are
 * (traffic-run.ts): latency, accepted throughput, hops, link utilisation by VC, a time series, the
 * books, and every discard by reason, node, port, destination and marker epoch, so that a drill can
 * explain each one.
 *
 * A family gives the run its machine through a TorusRunnerSim: how a node sends, what a packet
 * carries, the links' counters, and the load's unit (`capacity`: what a node sends a cycle at load
 * 1, the rate at which uniform traffic saturates the torus). The run calls it per packet and per
 * span of cycles, never per flit. Arrivals are Bernoulli per injection port and cycle, drawn as
 * geometric gaps (ArrivalWheel), each block of the machine (TorusRunnerSim.blocks) drawing its
 * arrivals, destinations and sizes from a stream of its own, so that the blocks can run apart.
 */
import { makePattern, RandomStreams, sizeSampler, TrafficPattern } from '@weft/fabric-model';
import { ArrivalWheel } from './arrival-wheel';
import { LatencyHistogram } from './latency-histogram';
import {
  BackgroundReport,
  BackgroundSession,
  BUSIEST_LINKS,
  DiscardRecord,
  IntervalPoint,
  latencyStats,
  Marker,
  streamSeed,
  TrafficReport,
} from './traffic-run';
import { patternContext, TrafficFabricShape, TrafficRequest } from './traffic-request';

/** A torus machine as a traffic run drives it (one per family: bgl-traffic.ts, anton2-traffic.ts). */
export interface TorusRunnerSim {
  readonly nodes: number;
  readonly chipNames: readonly string[];
  readonly nsPerCycle: number;
  /** What one node sends a cycle at load 1, in the units packets are measured in (BG/L bytes, Anton 2 flits). */
  readonly capacity: number;
  /** What one link carries a cycle, in those units. */
  readonly linkCapacity: number;
  /** Links (sending ports) per node, and VCs per link, as the link counters number them. */
  readonly linksPerNode: number;
  readonly vcs: number;
  now(): number;
  /** Whether nothing is left to happen. */
  quiet(): boolean;
  /** Runs `cycles` cycles, `beforeCycle` at the start of each; a machine that `skipsIdle` passes over those in which neither it nor `nextArrival` (the first cycle from `from`, before `until`, with arrivals) has anything to do. */
  run(cycles: number, beforeCycle?: (cycle: number) => void, nextArrival?: (from: number, until: number) => number): void;
  readonly skipsIdle?: boolean;
  /**
   * Where the machine keeps its nodes in blocks it can run apart (Anton 2's, engine/block-calendar.ts):
   * how many, each node's, and a run of `cycles` with `beforeCycle(block, cycle)` sending a block's
   * traffic — each block a window at a time, the same as cycle by cycle when what a block sends
   * depends only on its own draws. The run then draws each block's arrivals, destinations and sizes
   * from a stream of the block's own.
   */
  readonly blocks?: {
    readonly count: number;
    blockOf(node: number): number;
    /** `nextArrival(block, from, until)`: the block's first cycle from `from` (before `until`) with arrivals, or `until`. */
    run(cycles: number, beforeCycle: (block: number, cycle: number) => void, nextArrival: (block: number, from: number, until: number) => number): void;
  };
  /** Moves a quiet machine's time on. */
  skipTo(cycle: number): void;
  dead(node: number): boolean;
  /** Node `node`'s injection port `port` sends a packet of `phits` (as the request's sizes count them) to `destination`, tagged. */
  send(node: number, port: number, destination: number, phits: number, tag: number): void;
  packetTag(p: number): number;
  packetSource(p: number): number;
  packetDestination(p: number): number;
  packetHops(p: number): number;
  /** The packet's size in `capacity`'s units. */
  packetUnits(p: number): number;
  /** Its latency, delivered at `cycle`. */
  packetLatency(p: number, cycle: number): number;
  /** Packets of `tag` the machine still holds (its own count, for the books). */
  packetsAlive(tag: number): number;
  retransmissions(): number;
  /** Snapshots of what each link has carried: per link (node × linksPerNode + port), and per link and VC. */
  linkUnits(): Float64Array;
  linkVcUnits(): Float64Array;
  /** The run's hooks: a packet delivered, discarded (where), and a copy made of one (multicast). */
  listen(
    delivered: (p: number, cycle: number) => void,
    discarded: (p: number, reason: string, node: number, port: number) => void,
    copied: (p: number) => void,
  ): void;
}

type Phase = 'warm-up' | 'sample' | 'drain' | 'done';

/** Each run's packets carry tags of its own — one for those it measures, one for the load around
 * them — so that a run after one that left packets in flight (a steady state ends with its measured
 * packets, not with the load behind them) counts only its own, in its measures and its books. */
let nextTag = 1;

/** Cycles run between looks at whether the torus has gone quiet. */
const QUIET_CHECK_CYCLES = 32;

/** A batch's time-series interval, in cycles. */
const BATCH_INTERVAL = 500;

interface LedgerEntry {
  epoch: number;
  reason: string;
  node: number;
  port: number;
  destination: number;
  count: number;
  first: number;
  last: number;
}

export class TorusTrafficRun implements BackgroundSession {
  private readonly pattern: TrafficPattern;
  private readonly size: (random: () => number) => number;
  /** Each block's stream (see TorusRunnerSim.blocks: one where the machine has none), and each node's block. */
  private readonly draws: (() => number)[];
  private readonly blockOfNode: Int32Array;
  private readonly wheel: ArrivalWheel | null;
  private readonly start: number;
  private readonly interval: number;
  /** The injection ports of each node that send (the request's slices). */
  private readonly ports: readonly number[];
  private phase: Phase;
  /** Tag of the packets made now: sampleTag (measured) or loadTag. */
  private tag: number;
  private readonly sampleTag: number;
  private readonly loadTag: number;
  /** The run's own books: packets it sent, and what became of them. */
  private sent = 0;
  private deliveredCount = 0;
  private readonly discardedBy = new Map<string, number>();
  private measuring = false;

  // What the run has seen.
  private readonly latencies = new LatencyHistogram();
  private readonly hops = new Map<number, number>();
  private readonly unitsBySource: Float64Array;
  private deliveredUnits = 0;
  private sampleSent = 0;
  private sampleGone = 0;
  private lastSampleAt = 0;
  private intervalInjected = 0;
  private intervalDelivered = 0;
  private intervalUnits = 0;
  private intervalLatency = 0;
  private readonly series: IntervalPoint[] = [];
  private readonly markers: Marker[] = [];
  private epoch = 0;
  private readonly ledger = new Map<string, LedgerEntry>();

  // The links' counters around the measurement.
  private linksBefore: Float64Array | null = null;
  private linksAfter: Float64Array | null = null;
  private vcBefore: Float64Array | null = null;
  private vcAfter: Float64Array | null = null;

  // Phases.
  private settled = false;
  private warmupCycles = 0;
  private sampleStart = 0;
  private measured = 0;
  private drainStart = 0;
  private drainLimit: number;
  private drained = false;
  private readonly retransmissionsBefore: number;

  /** The request with its defaults (as startTraffic gives the link-layer runs). */
  private readonly request: TrafficRequest & { readonly warmup: { min: number; max: number }; readonly sampleCycles: number };

  constructor(
    private readonly sim: TorusRunnerSim,
    request: TrafficRequest,
    shape: TrafficFabricShape,
  ) {
    this.request = { ...request, warmup: request.warmup ?? { min: 2_000, max: 50_000 }, sampleCycles: request.sampleCycles ?? 10_000 };
    this.sampleTag = nextTag;
    this.loadTag = nextTag + 1;
    this.tag = this.loadTag;
    nextTag += 2;
    this.pattern = makePattern(request.pattern, patternContext(shape), request.seed);
    this.size = sizeSampler(request.packetPhits, shape.packetPhits);
    const blocks = sim.blocks?.count ?? 1;
    const streams = RandomStreams.seeded(Array.from({ length: blocks }, (_, b) => (b === 0 ? request.seed : streamSeed(request.seed, b))));
    this.draws = Array.from({ length: blocks }, (_, b) => streams.stream(b));
    this.blockOfNode = new Int32Array(sim.nodes);
    if (sim.blocks) for (let node = 0; node < sim.nodes; node++) this.blockOfNode[node] = sim.blocks.blockOf(node);
    this.start = sim.now();
    this.unitsBySource = new Float64Array(sim.nodes);
    this.retransmissionsBefore = sim.retransmissions();
    // Injection ports: every node's, in the request's order (port k of node n is source n × ports + k).
    this.ports = request.slices;
    sim.listen(this.delivered, this.discarded, this.copied);
    this.drainLimit = request.drainLimit ?? 100_000;
    if (request.mode === 'batch') {
      this.interval = BATCH_INTERVAL;
      this.wheel = null;
      this.beginMeasuring(this.sampleTag);
      for (let node = 0; node < sim.nodes; node++) for (const port of this.ports) for (let k = 0; k < request.packets!; k++) this.send(node, port);
      this.drainLimit = request.limit ?? 10_000_000;
      this.phase = 'drain';
      this.drainStart = sim.now();
      return;
    }
    this.interval = request.interval ?? 1_000;
    const partOfPort = new Uint8Array(sim.nodes * this.ports.length);
    for (let node = 0; node < sim.nodes; node++) partOfPort.fill(this.blockOfNode[node], node * this.ports.length, (node + 1) * this.ports.length);
    this.wheel = new ArrivalWheel(this.arrivalChance(request), partOfPort, streams, sim.now());
    if (request.mode === 'background') {
      this.beginMeasuring(this.sampleTag);
      this.phase = 'sample';
    } else this.phase = 'warm-up';
  }

  /** The chance an injection port sends in a cycle: its share of the node's load over the mean packet. */
  private arrivalChance(request: TrafficRequest): number {
    const spec = request.packetPhits;
    const meanPhits = typeof spec === 'number' ? spec : spec.reduce((a, s) => a + s.phits * s.weight, 0) / spec.reduce((a, s) => a + s.weight, 0);
    return Math.min(1, (request.load! * this.sim.capacity) / (meanPhits * this.ports.length));
  }

  private beginMeasuring(tag: number): void {
    this.tag = tag;
    this.measuring = true;
    this.sampleStart = this.sim.now();
    this.linksBefore = this.sim.linkUnits();
    this.vcBefore = this.sim.linkVcUnits();
  }

  private endMeasuring(): void {
    this.measuring = false;
    this.tag = this.loadTag;
    this.measured = this.sim.now() - this.sampleStart;
    this.linksAfter = this.sim.linkUnits();
    this.vcAfter = this.sim.linkVcUnits();
  }

  /** Node `node`'s injection port `port` sends one packet of the pattern (a dead node sends nothing). */
  private send(node: number, port: number): void {
    const sim = this.sim;
    if (sim.dead(node)) return;
    const draw = this.draws[this.blockOfNode[node]];
    const destination = this.pattern.destination(node, draw);
    const phits = this.size(draw);
    if (destination < 0 || destination === node) return;
    if (this.tag === this.sampleTag) this.sampleSent++;
    this.sent++;
    this.intervalInjected++;
    sim.send(node, port, destination, phits, this.tag);
  }

  private readonly arrive = (source: number): void => {
    const ports = this.ports.length;
    const node = (source / ports) | 0;
    this.send(node, this.ports[source - node * ports]);
  };
  private readonly beforeCycle = (cycle: number): void => {
    for (let b = 0; b < this.draws.length; b++) this.wheel!.due(b, cycle, this.arrive);
  };
  private readonly blockBeforeCycle = (block: number, cycle: number): void => {
    this.wheel!.due(block, cycle, this.arrive);
  };
  private readonly blockNextArrival = (block: number, from: number, until: number): number => this.wheel!.nextBusy(block, from, until);
  private readonly nextArrival = (from: number, until: number): number => {
    let next = until;
    for (let b = 0; b < this.draws.length; b++) next = this.wheel!.nextBusy(b, from, next);
    return next;
  };

  private readonly delivered = (p: number, cycle: number): void => {
    const sim = this.sim;
    const tag = sim.packetTag(p);
    if (tag !== this.sampleTag && tag !== this.loadTag) return;
    this.deliveredCount++;
    const units = sim.packetUnits(p);
    const latency = sim.packetLatency(p, cycle);
    this.intervalDelivered++;
    this.intervalUnits += units;
    this.intervalLatency += latency;
    if (this.measuring) {
      this.deliveredUnits += units;
      this.unitsBySource[sim.packetSource(p)] += units;
    }
    if (tag === this.sampleTag) {
      this.sampleGone++;
      if (cycle > this.lastSampleAt) this.lastSampleAt = cycle;
      this.latencies.record(latency);
      const hops = sim.packetHops(p);
      this.hops.set(hops, (this.hops.get(hops) ?? 0) + 1);
    }
  };

  /** A multicast copy of one of the run's packets: one more to deliver or discard. */
  private readonly copied = (p: number): void => {
    const tag = this.sim.packetTag(p);
    if (tag !== this.sampleTag && tag !== this.loadTag) return;
    this.sent++;
    if (tag === this.sampleTag) this.sampleSent++;
  };

  private readonly discarded = (p: number, reason: string, node: number, port: number): void => {
    const sim = this.sim;
    const tag = sim.packetTag(p);
    if (tag !== this.sampleTag && tag !== this.loadTag) return;
    if (tag === this.sampleTag) this.sampleGone++;
    this.discardedBy.set(reason, (this.discardedBy.get(reason) ?? 0) + 1);
    const destination = sim.packetDestination(p);
    const key = `${this.epoch}|${reason}|${node}|${port}|${destination}`;
    const entry = this.ledger.get(key);
    if (entry) {
      entry.count++;
      entry.last = sim.now();
    } else this.ledger.set(key, { epoch: this.epoch, reason, node, port, destination, count: 1, first: sim.now(), last: sim.now() });
  };

  private get sampleAlive(): boolean {
    return this.sampleSent > this.sampleGone;
  }

  get finished(): boolean {
    return this.phase === 'done';
  }

  get elapsed(): number {
    return this.sim.now() - this.start;
  }

  stop(drainLimit: number): void {
    if (this.phase !== 'sample' || this.request.mode !== 'background') return;
    this.endMeasuring();
    this.drainLimit = drainLimit;
    this.drainStart = this.sim.now();
    this.phase = 'drain';
  }

  mark(label: string): void {
    const cycle = this.sim.now() - this.start;
    this.markers.push({ cycle, ns: cycle * this.sim.nsPerCycle, label });
    this.epoch++;
  }

  advance(cycles: number): boolean {
    const { sim } = this;
    const request = this.request;
    for (let left = cycles; left > 0 && this.phase !== 'done';) {
      const elapsed = sim.now() - this.start;
      let span = Math.min(left, this.interval - (elapsed % this.interval));
      if (this.phase === 'warm-up') span = Math.min(span, Math.max(1, request.warmup.max - elapsed));
      else if (this.phase === 'sample' && request.mode === 'steady-state') span = Math.min(span, this.sampleStart + request.sampleCycles - sim.now());
      if (this.phase === 'drain') {
        // Loaded still (steady state) or quiet, one cycle at a time: the run ends in the cycle its last measured packet goes.
        const arrivals = request.mode === 'steady-state' ? this.beforeCycle : undefined;
        span = Math.max(1, Math.min(span, this.drainStart + this.drainLimit - sim.now()));
        let ran = 0;
        while (ran < span && this.sampleAlive) {
          sim.run(1, arrivals);
          ran++;
        }
        if (ran === 0) {
          sim.run(1, arrivals);
          ran = 1;
        }
        left -= ran;
      } else {
        span = Math.max(1, span);
        this.runLoaded(span);
        left -= span;
      }
      this.afterSpan();
    }
    return this.phase === 'done';
  }

  /** Runs `span` cycles of the load; where the torus is quiet, straight on to the next cycle a node sends in. */
  private runLoaded(span: number): void {
    const { sim } = this;
    // A machine in blocks runs each a window at a time, its arrivals with it.
    if (sim.blocks) {
      sim.blocks.run(span, this.blockBeforeCycle, this.blockNextArrival);
      return;
    }
    // A machine that passes over idle cycles itself takes the whole span.
    if (sim.skipsIdle) {
      sim.run(span, this.beforeCycle, this.nextArrival);
      return;
    }
    const wheel = this.wheel!;
    const end = sim.now() + span;
    while (sim.now() < end) {
      if (sim.quiet()) {
        const next = wheel.nextBusy(0, sim.now(), end);
        sim.skipTo(next);
        if (next === end) break;
      }
      sim.run(Math.min(QUIET_CHECK_CYCLES, end - sim.now()), this.beforeCycle);
    }
  }

  private afterSpan(): void {
    const { sim, request } = this;
    const elapsed = sim.now() - this.start;
    if (elapsed % this.interval === 0) this.series.push(this.point(elapsed));
    switch (this.phase) {
      case 'warm-up': {
        // Until three successive intervals agree on the mean latency within 5% (as the link-layer runs).
        const n = this.series.length;
        if (elapsed >= request.warmup.min && n >= 3 && elapsed % this.interval === 0) {
          const [a, b, c] = this.series.slice(-3).map((p) => p.meanLatencyCycles);
          this.settled = a > 0 && Math.abs(b - a) <= 0.05 * a && Math.abs(c - b) <= 0.05 * b;
        }
        if (this.settled || elapsed >= request.warmup.max) {
          this.warmupCycles = elapsed;
          this.beginMeasuring(this.sampleTag);
          this.phase = 'sample';
        }
        return;
      }
      case 'sample':
        if (request.mode === 'steady-state' && sim.now() - this.sampleStart >= request.sampleCycles) {
          this.endMeasuring();
          this.drainStart = sim.now();
          this.phase = 'drain';
        }
        return;
      case 'drain':
        if (!this.sampleAlive) {
          this.drained = true;
          this.phase = 'done';
          if (request.mode === 'batch') this.endMeasuring();
        } else if (sim.now() - this.drainStart >= this.drainLimit) {
          this.phase = 'done';
          if (request.mode === 'batch') this.endMeasuring();
        }
        return;
      case 'done':
        return;
    }
  }

  private point(cycle: number): IntervalPoint {
    const point = {
      cycle,
      injected: this.intervalInjected,
      delivered: this.intervalDelivered,
      accepted: this.intervalUnits / (this.interval * this.sim.nodes * this.sim.capacity),
      meanLatencyCycles: this.intervalDelivered > 0 ? this.intervalLatency / this.intervalDelivered : 0,
    };
    this.intervalInjected = this.intervalDelivered = this.intervalUnits = this.intervalLatency = 0;
    return point;
  }

  report(): BackgroundReport {
    const { sim, request } = this;
    if (this.measuring) this.endMeasuring();
    const batch = request.mode === 'batch';
    // A completed batch is measured to its last arrival.
    const measured = Math.max(1, batch && this.drained ? this.lastSampleAt - this.start : this.measured);
    const sources = sim.nodes;
    const perSource = Array.from(this.unitsBySource, (b) => b / (measured * this.sim.capacity));
    // The run's packets: sent, delivered, discarded, and those still in the torus counted where they are.
    const discarded = Object.fromEntries([...this.discardedBy].sort((a, b) => a[0].localeCompare(b[0])));
    const discardedTotal = [...this.discardedBy.values()].reduce((a, b) => a + b, 0);
    const injected = this.sent;
    const delivered = this.deliveredCount;
    const inFlight = sim.packetsAlive(this.sampleTag) + sim.packetsAlive(this.loadTag);
    const report: TrafficReport = {
      mode: request.mode,
      pattern: this.pattern.name,
      offered: batch ? 1 : request.load!,
      accepted: this.deliveredUnits / (measured * sources * this.sim.capacity),
      saturated: !this.drained,
      warmupCycles: this.warmupCycles,
      warmupSettled: request.mode !== 'steady-state' || this.settled,
      measuredCycles: measured,
      latency: latencyStats(this.latencies, sim.nsPerCycle),
      fairness: {
        min: Math.min(...perSource),
        max: Math.max(...perSource),
        mean: perSource.reduce((a, b) => a + b, 0) / perSource.length,
      },
      hops: Object.fromEntries([...this.hops].sort((a, b) => a[0] - b[0])),
      utilisation: this.utilisation(measured),
      series: this.series,
      books: { injected, delivered, discarded, inFlight, balanced: injected === delivered + discardedTotal + inFlight },
      discards: this.discardRecords(),
      retransmissions: sim.retransmissions() - this.retransmissionsBefore,
    };
    return { ...report, markers: [...this.markers] };
  }

  /** Link utilisation over the measurement: the share of its capacity each link carried. */
  private utilisation(cycles: number): TrafficReport['utilisation'] {
    const { sim } = this;
    const before = this.linksBefore ?? sim.linkUnits();
    const after = this.linksAfter ?? sim.linkUnits();
    const vcBefore = this.vcBefore ?? sim.linkVcUnits();
    const vcAfter = this.vcAfter ?? sim.linkVcUnits();
    const VCS = sim.vcs;
    const L = sim.linksPerNode;
    const byVc = new Array<number>(VCS).fill(0);
    const used: { g: number; u: number }[] = [];
    let sum = 0;
    let max = 0;
    for (let g = 0; g < before.length; g++) {
      const units = after[g] - before[g];
      for (let v = 0; v < VCS; v++) byVc[v] += vcAfter[g * VCS + v] - vcBefore[g * VCS + v];
      if (units === 0) continue;
      const u = units / (cycles * sim.linkCapacity);
      sum += u;
      if (u > max) max = u;
      used.push({ g, u });
    }
    const total = byVc.reduce((a, b) => a + b, 0);
    const busiest = used
      .sort((a, b) => b.u - a.u || a.g - b.g)
      .slice(0, BUSIEST_LINKS)
      .map(({ g, u }) => ({
        chip: sim.chipNames[(g / L) | 0],
        port: g % L,
        utilisation: u,
        byVc: Array.from({ length: VCS }, (_, v) => (vcAfter[g * VCS + v] - vcBefore[g * VCS + v]) / (cycles * sim.linkCapacity)),
      }));
    return { meanBusyPort: used.length > 0 ? sum / used.length : 0, maxPort: max, byVc: byVc.map((n) => (total > 0 ? n / total : 0)), busiest };
  }

  private discardRecords(): DiscardRecord[] {
    const { sim } = this;
    return [...this.ledger.values()]
      .map((e) => ({
        epoch: e.epoch,
        reason: e.reason,
        chip: sim.chipNames[e.node],
        port: e.port,
        destination: e.destination,
        count: e.count,
        firstNs: (e.first - this.start) * sim.nsPerCycle,
        lastNs: (e.last - this.start) * sim.nsPerCycle,
      }))
      .sort(
        (a, b) => a.firstNs - b.firstNs || a.reason.localeCompare(b.reason) || a.chip.localeCompare(b.chip) || a.port - b.port || a.destination - b.destination,
      );
  }
}
