import { handConfiguredR15 } from '../yarc/blackwidow-test-config';
import { YarcFabricSim } from '../yarc/yarc-fabric-sim';
import { makePattern, sizeSampler } from '@weft/fabric-model/traffic/patterns';
import { BackgroundTraffic, runBatch, runSteadyState, runSweep } from './traffic-run';

/** One R1 router with its 32 processors (one slice), configured by hand: a fabric small enough to reason about. */
function tinyFabric() {
  const sim = handConfiguredR15(32);
  const g = sim.processorPort[0];
  return { sim, rate: sim.linkRateOf(g), links: [sim.linkLatencyOf(g), sim.linkLatencyOf(g)] };
}

const sizes = (phits: number) => sizeSampler(phits, { min: 4, max: 19 });

describe('traffic runs on a tiny fabric agree with the hand-computed values', () => {
  it('steady state at 2% load: latency is the zero-load pipeline latency, accepted equals offered, nothing lost', () => {
    const { sim, rate, links } = tinyFabric();
    const report = runSteadyState(sim, {
      pattern: makePattern({ kind: 'uniform-random' }, { endpoints: 32 }),
      size: sizes(4),
      slices: [0],
      seed: 3,
      load: 0.02,
      warmup: { min: 2_000, max: 20_000 },
      sampleCycles: 20_000,
      drainLimit: 20_000,
      interval: 1_000,
    });
    // One router, two links, 4 phits: the pipeline model (paper 000 §3: 25 stages through a YARC).
    const zeroLoad = YarcFabricSim.zeroLoadCycles(1, links, 4, rate);
    expect(report).toMatchObject({ mode: 'steady-state', saturated: false, warmupSettled: true, hops: { 1: report.latency.count } });
    expect(report.latency.p50Cycles).toBe(zeroLoad);
    expect(Math.abs(report.latency.meanCycles - zeroLoad)).toBeLessThan(1);
    expect(report.latency.meanNs).toBeCloseTo(report.latency.meanCycles * 1.25, 6);
    // ~3,200 sampled packets: the accepted rate is the offered 2% within Poisson noise.
    expect(report.accepted).toBeGreaterThan(0.018);
    expect(report.accepted).toBeLessThan(0.022);
    expect(report.books).toMatchObject({ discarded: {}, balanced: true });
    expect(report.books.injected).toBe(report.books.delivered + report.books.inFlight);
    expect(report.series.length).toBeGreaterThan(20);
  });

  it('batch: a permutation of 50 cache-line writes per processor completes in the serialisation time plus one pipeline', () => {
    const { sim, rate, links } = tinyFabric();
    const report = runBatch(sim, {
      pattern: makePattern({ kind: 'random-permutation' }, { endpoints: 32 }, 4),
      size: sizes(19),
      slices: [0],
      seed: 3,
      packets: 50,
      limit: 100_000,
    });
    // No two sources share a destination: each link streams 50 × 19 phits back to back, and the
    // last packet's head then crosses the router (its tail is already counted in the stream).
    const head = YarcFabricSim.zeroLoadCycles(1, links, 19, rate) - Math.ceil(18 / rate);
    const expected = (50 * 19) / rate + head;
    expect(report.saturated).toBe(false);
    expect(report.measuredCycles).toBeGreaterThanOrEqual(Math.floor(expected));
    expect(report.measuredCycles).toBeLessThan(expected * 1.05);
    expect(report.accepted).toBeCloseTo((50 * 19) / rate / report.measuredCycles, 6);
    expect(report.books).toEqual({ injected: 1600, delivered: 1600, discarded: {}, inFlight: 0, balanced: true });
    // Every source gets the same share: a permutation is fair.
    expect(report.fairness.max - report.fairness.min).toBeLessThan(1e-9);
  });

  it('the same seed gives the same report, bit for bit', () => {
    const run = () =>
      runSteadyState(tinyFabric().sim, {
        pattern: makePattern({ kind: 'uniform-random' }, { endpoints: 32 }),
        size: sizeSampler(
          [
            { phits: 4, weight: 1 },
            { phits: 19, weight: 1 },
          ],
          { min: 4, max: 19 },
        ),
        slices: [0],
        seed: 9,
        load: 0.5,
        warmup: { min: 1_000, max: 5_000 },
        sampleCycles: 3_000,
        drainLimit: 10_000,
        interval: 500,
      });
    expect(run()).toEqual(run());
  });
});

describe('a latency–load sweep', () => {
  it('rises with the load and reports where the fabric saturates', () => {
    // Every processor sends only to processors 0–7: a hot spot that saturates early.
    const sweep = runSweep(
      () => tinyFabric().sim,
      {
        pattern: makePattern({ kind: 'hot-region', fraction: 1, first: 0, count: 8 }, { endpoints: 32 }),
        size: sizes(4),
        slices: [0],
        seed: 5,
        warmup: { min: 1_000, max: 5_000 },
        sampleCycles: 2_000,
        drainLimit: 4_000,
        interval: 500,
      },
      [0.05, 0.15, 0.3, 0.6],
    );
    // 32 sources share 8 destinations: at most 8/32 of the offered capacity can be accepted.
    expect(sweep.saturationLoad).toBe(0.3);
    expect(sweep.points.map((p) => p.saturated)).toEqual([false, false, true]);
    expect(sweep.points[1].meanLatencyCycles).toBeGreaterThan(sweep.points[0].meanLatencyCycles);
    expect(sweep.peakAccepted).toBeLessThanOrEqual(0.25 + 0.01);
  });
});

describe('BlackWidow request/response pairs (paper 000 §5.1)', () => {
  it('answers every request from its destination on the response VC, and accounts for both', () => {
    const { sim } = tinyFabric();
    const report = runBatch(sim, {
      pattern: makePattern({ kind: 'request-response' }, { endpoints: 32 }),
      size: sizes(4),
      responses: sizes(19),
      slices: [0],
      seed: 2,
      packets: 10,
      limit: 200_000,
    });
    // 320 requests of 4 phits, each answered by 19: every one delivered.
    expect(report.books).toEqual({ injected: 640, delivered: 640, discarded: {}, inFlight: 0, balanced: true });
    // Per link and VC: the busiest carries both requests and responses, each a share of its capacity.
    const top = report.utilisation.busiest[0];
    expect(top.utilisation).toBeCloseTo(top.byVc[0] + top.byVc[1], 9);
    expect(top.byVc[1]).toBeGreaterThan(top.byVc[0]);
    expect(report.utilisation.busiest).toHaveLength(10);
    expect(report.latency.count).toBe(640);
    expect(report.utilisation.byVc[0]).toBeCloseTo(4 / 23, 2);
    expect(report.utilisation.byVc[1]).toBeCloseTo(19 / 23, 2);
  });
});

describe('traffic on the four slices of the 288-processor fabric', () => {
  /** The 288 fabric on four slices; cycle by cycle when asked (a per-cycle tick acts across the
   * slices, so the fabric then runs them in step). */
  const fabric = (byCycle: boolean) => {
    const sim = handConfiguredR15(288, { slices: 4, portSeed: 7 });
    if (byCycle) sim.onTick = () => undefined;
    return sim;
  };
  const requestResponse = {
    pattern: makePattern({ kind: 'request-response' }, { endpoints: 288 }),
    size: sizes(4),
    responses: sizes(19),
    slices: [0, 1, 2, 3],
  };

  it('a steady-state run gives the same report and ends in the same cycle with the slices run apart (runWindowed) as cycle by cycle, responses included', () => {
    const run = (byCycle: boolean) => {
      const sim = fabric(byCycle);
      const report = runSteadyState(sim, {
        ...requestResponse,
        seed: 11,
        load: 0.05,
        warmup: { min: 1_000, max: 3_000 },
        sampleCycles: 1_500,
        drainLimit: 20_000,
        interval: 500,
      });
      return { report, cycle: sim.cycle };
    };
    const windowed = run(false);
    expect(windowed.report.latency.count).toBeGreaterThan(5_000);
    expect(windowed.report.books).toMatchObject({ discarded: {}, balanced: true });
    expect(run(true)).toEqual(windowed);
  });

  it('a batch ends in the cycle its last packet goes, with the same report, with the slices run apart as cycle by cycle', () => {
    const run = (byCycle: boolean) => {
      const sim = fabric(byCycle);
      const report = runBatch(sim, { ...requestResponse, seed: 5, packets: 3, limit: 50_000 });
      return { report, cycle: sim.cycle };
    };
    const windowed = run(false);
    expect(windowed.report.saturated).toBe(false);
    expect(windowed.report.books).toEqual({ injected: 2 * 288 * 4 * 3, delivered: 2 * 288 * 4 * 3, discarded: {}, inFlight: 0, balanced: true });
    // The batch's own interval ends at multiples of 500 cycles: it ends between them, not at one.
    expect(windowed.cycle % 500).not.toBe(0);
    expect(run(true)).toEqual(windowed);
  });

  it('stopped background traffic drains to the same cycle with the slices run apart as cycle by cycle', () => {
    const run = (byCycle: boolean) => {
      const sim = fabric(byCycle);
      const traffic = new BackgroundTraffic(sim, { ...requestResponse, seed: 9, load: 0.1, interval: 1_000 });
      traffic.advance(1_500);
      traffic.stop(20_000);
      while (!traffic.advance(5_000));
      return { report: traffic.report(), cycle: sim.cycle };
    };
    const windowed = run(false);
    expect(windowed.report.books).toMatchObject({ inFlight: 0, balanced: true });
    expect(windowed.cycle % 1_000).not.toBe(0);
    expect(run(true)).toEqual(windowed);
  });
});

describe('background traffic (the load a drill runs under)', () => {
  it('runs until stopped, keeps a time series and markers, and drains so that every packet is accounted for', () => {
    const { sim } = tinyFabric();
    const run = new BackgroundTraffic(sim, {
      pattern: makePattern({ kind: 'uniform-random' }, { endpoints: 32 }),
      size: sizes(4),
      slices: [0],
      seed: 4,
      load: 0.1,
      interval: 1_000,
    });
    run.advance(10_000);
    // A processor's cable is cut under load: packets on their way to it are discarded with the reason.
    run.mark('cut p5');
    sim.cutLink(sim.processorPort[5 * 4]);
    run.advance(10_000);
    run.stop(50_000);
    while (!run.advance(1_000));
    const report = run.report();
    expect(report.markers).toEqual([{ cycle: 10_000, ns: 12_500, label: 'cut p5' }]);
    expect(report.series.length).toBeGreaterThanOrEqual(20);
    expect(report.series[5].accepted).toBeGreaterThan(0.07);
    expect(report.books).toMatchObject({ inFlight: 0, balanced: true });
    expect(Object.keys(report.books.discarded).sort()).toEqual(['LinkDown', 'Unreachable']);
    expect(report.books.delivered + report.books.discarded.LinkDown + report.books.discarded.Unreachable).toBe(report.books.injected);
    expect(report.saturated).toBe(false);
  });
});
