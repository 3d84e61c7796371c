/**
 * Traffic runs on an emulated BlueGene/L through the emulator's host — the operator's traffic runs
 * and a drill's background load — by the torus's own runner: each node's software sends packets
 * by its route-override table, as the control plane configured it (paper 002 §3), and the run
 * measures them as the link-layer runs do (traffic-run.ts): latency, accepted throughput, hops,
 * link utilisation by VC, a time series, the books, and every discard by reason, node, port,
 * destination and marker epoch, so that a drill can explain each one.
 *
 * Load: a fraction of one link's bandwidth per node (one byte per network cycle, §2) — the rate at
 * which uniform traffic saturates a symmetric torus, each node sending its share of its six links
 * over paths of about six hops. Arrivals are Bernoulli per node and cycle, drawn as geometric gaps
 * (ArrivalWheel), from one stream: a host's BG/L run is one thread (the block threads of
 * bgl-threads.ts are the runner for the large studies).
 */
import { BGL_CHUNK_BYTES, BGL_VCS, makePattern, RandomStreams, sizeSampler, TrafficPattern } from '@weft/fabric-model';
import { ArrivalWheel } from '../traffic/arrival-wheel';
import { LatencyHistogram } from '../traffic/latency-histogram';
import { BackgroundReport, BackgroundSession, BUSIEST_LINKS, DiscardRecord, IntervalPoint, latencyStats, Marker, TrafficReport } from '../traffic/traffic-run';
import { patternContext, TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import type { BglDiscardReason, BglTorusSim } from './bgl-torus-sim';

type Phase = 'warm-up' | 'sample' | 'drain' | 'done';

/** A node's bytes per cycle at load 1 (one link's, §2). */
const CAPACITY = 1;
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
  reason: BglDiscardReason;
  node: number;
  port: number;
  destination: number;
  count: number;
  first: number;
  last: number;
}

export class BglTrafficRun implements BackgroundSession {
  private readonly pattern: TrafficPattern;
  private readonly size: (random: () => number) => number;
  private readonly draw: () => number;
  private readonly wheel: ArrivalWheel | null;
  private readonly start: number;
  private readonly interval: number;
  private phase: Phase;
  /** Tag of the packets made now: sampleTag (measured) or loadTag. */
  private tag: number;
  private readonly sampleTag: number;
  private readonly loadTag: number;
  /** The run's own books: packets it sent, and what became of them. */
  private sent = 0;
  private deliveredCount = 0;
  private readonly discardedBy = new Map<BglDiscardReason, number>();
  private measuring = false;

  // What the run has seen.
  private readonly latencies = new LatencyHistogram();
  private readonly hops = new Map<number, number>();
  private readonly bytesBySource: Float64Array;
  private deliveredBytes = 0;
  private sampleSent = 0;
  private sampleGone = 0;
  private lastSampleAt = 0;
  private intervalInjected = 0;
  private intervalDelivered = 0;
  private intervalBytes = 0;
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
    private readonly sim: BglTorusSim,
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
    const streams = RandomStreams.seeded([request.seed]);
    this.draw = streams.stream(0);
    this.start = sim.cycle;
    this.bytesBySource = new Float64Array(sim.nodes);
    this.retransmissionsBefore = sim.retransmissions;
    sim.onDeliver = this.delivered;
    sim.onDiscard = this.discarded;
    this.drainLimit = request.drainLimit ?? 100_000;
    if (request.mode === 'batch') {
      this.interval = BATCH_INTERVAL;
      this.wheel = null;
      this.beginMeasuring(this.sampleTag);
      for (let node = 0; node < sim.nodes; node++) for (let k = 0; k < request.packets!; k++) this.send(node);
      this.drainLimit = request.limit ?? 10_000_000;
      this.phase = 'drain';
      this.drainStart = sim.cycle;
      return;
    }
    this.interval = request.interval ?? 1_000;
    this.wheel = new ArrivalWheel(this.arrivalChance(request), new Uint8Array(sim.nodes), streams, sim.cycle);
    if (request.mode === 'background') {
      this.beginMeasuring(this.sampleTag);
      this.phase = 'sample';
    } else this.phase = 'warm-up';
  }

  /** The chance a node sends in a cycle: the load's bytes over the mean packet's. */
  private arrivalChance(request: TrafficRequest): number {
    const spec = request.packetPhits;
    const meanBytes = typeof spec === 'number' ? spec : spec.reduce((a, s) => a + s.phits * s.weight, 0) / spec.reduce((a, s) => a + s.weight, 0);
    return Math.min(1, (request.load! * CAPACITY) / meanBytes);
  }

  private beginMeasuring(tag: number): void {
    this.tag = tag;
    this.measuring = true;
    this.sampleStart = this.sim.cycle;
    this.linksBefore = Float64Array.from(this.sim.linkBytes);
    this.vcBefore = Float64Array.from(this.sim.linkVcBytes);
  }

  private endMeasuring(): void {
    this.measuring = false;
    this.tag = this.loadTag;
    this.measured = this.sim.cycle - this.sampleStart;
    this.linksAfter = Float64Array.from(this.sim.linkBytes);
    this.vcAfter = Float64Array.from(this.sim.linkVcBytes);
  }

  /** Node `node`'s software sends one packet of the pattern (a dead node sends nothing). */
  private send(node: number): void {
    const sim = this.sim;
    if (sim.dead[node]) return;
    const destination = this.pattern.destination(node, this.draw);
    const bytes = this.size(this.draw);
    if (destination < 0 || destination === node) return;
    if (this.tag === this.sampleTag) this.sampleSent++;
    this.sent++;
    this.intervalInjected++;
    sim.send(node, destination, bytes / BGL_CHUNK_BYTES, { tag: this.tag });
  }

  private readonly arrive = (node: number): void => this.send(node);
  private readonly beforeCycle = (cycle: number): void => {
    this.wheel!.due(0, cycle, this.arrive);
  };

  private readonly delivered = (p: number, cycle: number): void => {
    const sim = this.sim;
    const tag = sim.packetTag(p);
    if (tag !== this.sampleTag && tag !== this.loadTag) return;
    this.deliveredCount++;
    const bytes = sim.packetChunks(p) * BGL_CHUNK_BYTES;
    const latency = cycle - sim.packetSentAt(p);
    this.intervalDelivered++;
    this.intervalBytes += bytes;
    this.intervalLatency += latency;
    if (this.measuring) {
      this.deliveredBytes += bytes;
      this.bytesBySource[sim.packetSource(p)] += bytes;
    }
    if (tag === this.sampleTag) {
      this.sampleGone++;
      if (cycle > this.lastSampleAt) this.lastSampleAt = cycle;
      this.latencies.record(latency);
      const hops = sim.packetHops(p);
      this.hops.set(hops, (this.hops.get(hops) ?? 0) + 1);
    }
  };

  private readonly discarded = (p: number, reason: BglDiscardReason, node: number, port: number): void => {
    const sim = this.sim;
    const tag = sim.packetTag(p);
    if (tag !== this.sampleTag && tag !== this.loadTag) return;
    if (tag === this.sampleTag) this.sampleGone++;
    this.discardedBy.set(reason, (this.discardedBy.get(reason) ?? 0) + 1);
    const destination = sim.packetFinalDestination(p);
    const key = `${this.epoch}|${reason}|${node}|${port}|${destination}`;
    const entry = this.ledger.get(key);
    if (entry) {
      entry.count++;
      entry.last = sim.cycle;
    } else this.ledger.set(key, { epoch: this.epoch, reason, node, port, destination, count: 1, first: sim.cycle, last: sim.cycle });
  };

  private get sampleAlive(): boolean {
    return this.sampleSent > this.sampleGone;
  }

  get finished(): boolean {
    return this.phase === 'done';
  }

  get elapsed(): number {
    return this.sim.cycle - this.start;
  }

  stop(drainLimit: number): void {
    if (this.phase !== 'sample' || this.request.mode !== 'background') return;
    this.endMeasuring();
    this.drainLimit = drainLimit;
    this.drainStart = this.sim.cycle;
    this.phase = 'drain';
  }

  mark(label: string): void {
    const cycle = this.sim.cycle - this.start;
    this.markers.push({ cycle, ns: cycle * this.sim.nsPerCycle, label });
    this.epoch++;
  }

  advance(cycles: number): boolean {
    const { sim } = this;
    const request = this.request;
    for (let left = cycles; left > 0 && this.phase !== 'done';) {
      const elapsed = sim.cycle - this.start;
      let span = Math.min(left, this.interval - (elapsed % this.interval));
      if (this.phase === 'warm-up') span = Math.min(span, Math.max(1, request.warmup.max - elapsed));
      else if (this.phase === 'sample' && request.mode === 'steady-state') span = Math.min(span, this.sampleStart + request.sampleCycles - sim.cycle);
      if (this.phase === 'drain') {
        // Loaded still (steady state) or quiet, one cycle at a time: the run ends in the cycle its last measured packet goes.
        const arrivals = request.mode === 'steady-state' ? this.beforeCycle : undefined;
        span = Math.max(1, Math.min(span, this.drainStart + this.drainLimit - sim.cycle));
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
    const wheel = this.wheel!;
    const end = sim.cycle + span;
    while (sim.cycle < end) {
      if (sim.quiet) {
        const next = wheel.nextBusy(0, sim.cycle, end);
        sim.skipTo(next);
        if (next === end) break;
      }
      sim.run(Math.min(QUIET_CHECK_CYCLES, end - sim.cycle), this.beforeCycle);
    }
  }

  private afterSpan(): void {
    const { sim, request } = this;
    const elapsed = sim.cycle - this.start;
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
        if (request.mode === 'steady-state' && sim.cycle - this.sampleStart >= request.sampleCycles) {
          this.endMeasuring();
          this.drainStart = sim.cycle;
          this.phase = 'drain';
        }
        return;
      case 'drain':
        if (!this.sampleAlive) {
          this.drained = true;
          this.phase = 'done';
          if (request.mode === 'batch') this.endMeasuring();
        } else if (sim.cycle - this.drainStart >= this.drainLimit) {
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
      accepted: this.intervalBytes / (this.interval * this.sim.nodes * CAPACITY),
      meanLatencyCycles: this.intervalDelivered > 0 ? this.intervalLatency / this.intervalDelivered : 0,
    };
    this.intervalInjected = this.intervalDelivered = this.intervalBytes = this.intervalLatency = 0;
    return point;
  }

  report(): BackgroundReport {
    const { sim, request } = this;
    if (this.measuring) this.endMeasuring();
    const batch = request.mode === 'batch';
    // A completed batch is measured to its last arrival.
    const measured = Math.max(1, batch && this.drained ? this.lastSampleAt - this.start : this.measured);
    const sources = sim.nodes;
    const perSource = Array.from(this.bytesBySource, (b) => b / (measured * CAPACITY));
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
      accepted: this.deliveredBytes / (measured * sources * CAPACITY),
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
      retransmissions: sim.retransmissions - this.retransmissionsBefore,
    };
    return { ...report, markers: [...this.markers] };
  }

  /** Link utilisation over the measurement: bytes a link carried per cycle (a link carries one, §2). */
  private utilisation(cycles: number): TrafficReport['utilisation'] {
    const { sim } = this;
    const before = this.linksBefore ?? sim.linkBytes;
    const after = this.linksAfter ?? sim.linkBytes;
    const vcBefore = this.vcBefore ?? sim.linkVcBytes;
    const vcAfter = this.vcAfter ?? sim.linkVcBytes;
    const byVc = new Array<number>(BGL_VCS).fill(0);
    const used: { g: number; u: number }[] = [];
    let sum = 0;
    let max = 0;
    for (let g = 0; g < before.length; g++) {
      const bytes = after[g] - before[g];
      for (let v = 0; v < BGL_VCS; v++) byVc[v] += vcAfter[g * BGL_VCS + v] - vcBefore[g * BGL_VCS + v];
      if (bytes === 0) continue;
      const u = bytes / cycles;
      sum += u;
      if (u > max) max = u;
      used.push({ g, u });
    }
    const total = byVc.reduce((a, b) => a + b, 0);
    const busiest = used
      .sort((a, b) => b.u - a.u || a.g - b.g)
      .slice(0, BUSIEST_LINKS)
      .map(({ g, u }) => ({
        chip: sim.fabric.chipNames[(g / 6) | 0],
        port: g % 6,
        utilisation: u,
        byVc: Array.from({ length: BGL_VCS }, (_, v) => (vcAfter[g * BGL_VCS + v] - vcBefore[g * BGL_VCS + v]) / cycles),
      }));
    return { meanBusyPort: used.length > 0 ? sum / used.length : 0, maxPort: max, byVc: byVc.map((n) => (total > 0 ? n / total : 0)), busiest };
  }

  private discardRecords(): DiscardRecord[] {
    const { sim } = this;
    return [...this.ledger.values()]
      .map((e) => ({
        epoch: e.epoch,
        reason: e.reason,
        chip: sim.fabric.chipNames[e.node],
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
