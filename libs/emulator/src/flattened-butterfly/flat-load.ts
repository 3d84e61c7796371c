/**
 * Open-loop load on the flattened butterfly, and on the networks §3.3 compares it with, as paper
 * 003 §3.2 measures it: Bernoulli injection at every terminal (a flit a cycle being its capacity,
 * §3.2 footnote 3: capacity 2B/N = 1 on a flattened butterfly, and the same for the others at its
 * bisection), a warm-up, then a window whose delivered flits give the accepted throughput and
 * whose labelled packets' latencies the mean. Used by the studies, the report and the bench.
 */
import { FlatGrid, makePattern, mulberry32, PatternSpec, RandomStreams } from '@weft/fabric-model';
import { ArrivalWheel } from '../traffic/arrival-wheel';
import type { FlatRouting } from '@weft/fabric-model';
import { FlatSim, FlatStudyOptions } from './flat-sim';

/** What an open-loop run drives: FlatSim and ComparisonSim. */
export interface OpenLoopSim {
  readonly terminals: number;
  /** Terminals of a router, as the adversarial pattern groups them. */
  readonly endpointsPerRouter: number;
  readonly cycle: number;
  readonly flitHops: number;
  readonly routerHops: number;
  onDeliver: ((p: number, cycle: number) => void) | undefined;
  send(source: number, destination: number, tag?: number): number;
  run(cycles: number, beforeCycle?: (cycle: number) => void): void;
  packetTag(p: number): number;
  packetBorn(p: number): number;
}

export interface OpenLoadRequest {
  readonly pattern: PatternSpec;
  /** Offered load, flits a terminal a cycle (0, 1]. */
  readonly load: number;
  readonly warmupCycles: number;
  readonly windowCycles: number;
  readonly seed: number;
}

export interface FlatLoadRequest extends OpenLoadRequest {
  readonly routing: FlatRouting;
  readonly sim?: Partial<FlatStudyOptions>;
}

export interface OpenLoadResult<S extends OpenLoopSim = OpenLoopSim> {
  /** Flits delivered in the window, a terminal a cycle (a fraction of capacity). */
  readonly accepted: number;
  /** Mean latency in cycles of the window's packets delivered by the run's end. */
  readonly meanLatency: number;
  /** Of the window's packets, those delivered by the run's end. */
  readonly windowDelivered: number;
  readonly windowSent: number;
  readonly flitHops: number;
  readonly routerHops: number;
  readonly seconds: number;
  readonly sim: S;
}

export type FlatLoadResult = OpenLoadResult<FlatSim>;

/**
 * Bernoulli arrivals of `pattern` at every terminal of `sim` at `load`: the hook to run each cycle
 * (before it), sending each packet with the tag `label(cycle)` gives.
 */
export function flatArrivals(
  sim: OpenLoopSim,
  pattern: PatternSpec,
  load: number,
  seed: number,
  label: (cycle: number) => number = () => 0,
): (cycle: number) => void {
  const traffic = makePattern(pattern, { endpoints: sim.terminals, endpointsPerRouter: sim.endpointsPerRouter }, seed + 1);
  const random = mulberry32(seed + 2);
  const wheel = new ArrivalWheel(load, new Uint8Array(sim.terminals), RandomStreams.seeded([seed + 3]), sim.cycle);
  const arrive = (t: number) => {
    const d = traffic.destination(t, random);
    if (d >= 0) sim.send(t, d, label(sim.cycle));
  };
  return (cycle) => wheel.due(0, cycle, arrive);
}

export function runFlatLoad(grid: FlatGrid, o: FlatLoadRequest): FlatLoadResult {
  return runOpenLoad(FlatSim.study(grid, { routing: o.routing, seed: o.seed, ...o.sim }), o);
}

/** `o`'s load on `sim`: warm-up, then the window measured; the run lasts until the window ends. */
export function runOpenLoad<S extends OpenLoopSim>(sim: S, o: OpenLoadRequest): OpenLoadResult<S> {
  const start = o.warmupCycles;
  const end = start + o.windowCycles;
  let inWindow = 0;
  let windowSent = 0;
  let windowDelivered = 0;
  let latency = 0;
  sim.onDeliver = (p, cycle) => {
    if (cycle >= start && cycle < end) inWindow++;
    if (sim.packetTag(p) === 1) {
      windowDelivered++;
      latency += cycle - sim.packetBorn(p);
    }
  };
  const arrivals = flatArrivals(sim, o.pattern, o.load, o.seed, (cycle) => {
    if (cycle < start || cycle >= end) return 0;
    windowSent++;
    return 1;
  });
  const began = performance.now();
  sim.run(end, arrivals);
  const seconds = (performance.now() - began) / 1000;
  return {
    accepted: inWindow / sim.terminals / o.windowCycles,
    meanLatency: windowDelivered > 0 ? latency / windowDelivered : NaN,
    windowDelivered,
    windowSent,
    flitHops: sim.flitHops,
    routerHops: sim.routerHops,
    seconds,
    sim,
  };
}
