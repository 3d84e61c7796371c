import { join } from 'node:path';
import { loadInstallationFile, RandomStreams } from '@weft/fabric-model';
import { configureBlackWidow, designAsDiscovered, planPush } from '@weft/control';
import { ArrivalWheel, EmulatedFabric, FLAG_HASH, NS_PER_CYCLE, YarcFabricSim, configureR15ByHand } from '@weft/emulator';
import { uniformTraffic } from '@weft/emulator/parallel/part-programs';
import { PartThreads } from '@weft/emulator/parallel/part-threads';
import { startTraffic, TrafficRequest } from '@weft/emulator/traffic/traffic-request';
import type { TrafficSession } from '@weft/emulator/traffic/traffic-run';
import { Benchmark, collectGarbage, timed } from './harness';
import { NativeSkeleton, recordArrivals } from './native-skeleton';
import { StageSkeleton } from './stage-skeleton';

const fixtures = join(__dirname, '../../../fixtures/blackwidow');
const CYCLES = 5_000;
/** Cycles each slice runs on end (runWindowed): its state then stays in the cache. */
const WINDOW = 1_024;
/** Cycles a fabric at load 0.5 is given to empty once arrivals stop. */
const DRAIN_CYCLES = 20_000;

/** Each traffic workload: a warm-up run, five measured, in a process of its own. */
const TRAFFIC_RUNS = { warmup: 1, runs: 5, isolated: true } as const;

/** A BlackWidow fixture's emulated fabric, configured by hand (configureR15ByHand). */
function handConfigured(fixture: string): YarcFabricSim {
  const installation = loadInstallationFile(join(fixtures, `${fixture}.json`));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  configureR15ByHand(sim);
  return sim;
}

/**
 * Uniform random traffic as the traffic runs make it: every injection port of `processors`
 * offers `load` of its link's capacity in packets of `packetPhits`, Bernoulli arrivals drawn as
 * geometric gaps (ArrivalWheel), so that the figure is the fabric's work, not a random draw per
 * port per cycle; each slice draws from its own stream, so that it can run apart from the others
 * (runWindowed). Returns the callback that makes a part's arrivals before each of its cycles.
 */
function uniformArrivals(
  sim: YarcFabricSim,
  load: number,
  packetPhits: number,
  processors: number,
  start: number,
  inject: (source: number, slice: number, destination: number) => void,
): (part: number, now: number) => void {
  const probability = (load * sim.linkRateOf(sim.processorPort[0])) / packetPhits;
  const streams = RandomStreams.seeded(Array.from({ length: sim.parts }, (_, part) => 7 + part));
  const draws = Array.from({ length: sim.parts }, (_, part) => streams.stream(part));
  const partOfPort = Uint8Array.from({ length: processors * 4 }, (_, k) => sim.partOfPort(sim.processorPort[k]));
  const arrivals = new ArrivalWheel(probability, partOfPort, streams, start);
  let random = draws[0];
  const arrive = (k: number) => {
    const p = k >> 2;
    let d = Math.floor(random() * (processors - 1));
    if (d >= p) d++;
    inject(p, k & 3, d);
  };
  return (part: number, now: number) => {
    random = draws[part];
    arrivals.due(part, now, arrive);
  };
}

/**
 * A BlackWidow fabric, all four slices, under uniform random traffic: every injection port offers
 * `load` of its link's capacity (Bernoulli packet arrivals, seeded), in packets of the minimum 4
 * phits or of 19 (a cache-line write, paper 000 §4.2). The 288-processor R1.5 fabric is the
 * target. The four slices run apart, each WINDOW cycles on end (runWindowed, the same deliveries
 * as cycle by cycle); the same workload run cycle by cycle (window 1) shows what that buys. The
 * 32-processor R1 (four routers, its whole state in the 1 MB L2 cache) runs the same code at about
 * the same instructions per phit-hop (within 3%, counted with callgrind), so the two figures side
 * by side show how much of the 288's time goes to cache misses, not to work.
 */
function uniformRandom(load: number, packetPhits = 4, fixture = 'bw-r1.5-288', processors = 288, cycles = CYCLES, window = WINDOW): Benchmark {
  let sim: YarcFabricSim;
  return {
    name: `emulator: ${fixture}, uniform random, offered load ${load}${packetPhits === 4 ? '' : `, ${packetPhits}-phit packets`}${window === 1 ? ', cycle by cycle' : ''}`,
    parameters: { fixture, load, cycles, packetPhits, slices: 4, window },
    ...TRAFFIC_RUNS,
    setup: () => {
      sim = handConfigured(fixture);
    },
    run: async () => {
      const beforeCycle = uniformArrivals(sim, load, packetPhits, processors, sim.cycle, (p, slice, d) =>
        sim.inject(p, slice, d, packetPhits, 0, FLAG_HASH, d & 0x7fff),
      );
      const hopsBefore = sim.phitHops;
      const cyclesBefore = sim.cycle;
      const { ms } = await timed(() => sim.runWindowed(cycles, window, beforeCycle));
      const phitHops = sim.phitHops - hopsBefore;
      const simulatedNs = (sim.cycle - cyclesBefore) * NS_PER_CYCLE;
      return { ms, phitHopsPerSecond: (phitHops / ms) * 1000, simulatedNsPerSecond: (simulatedNs / ms) * 1000, inFlight: sim.packets.inFlight };
    },
  };
}

/**
 * The same workload on the stage skeleton (see stage-skeleton.ts): the stages where YARC's packets
 * contend, a whole packet per visit, none of the rest of the model: a ceiling for the emulator's
 * figure at load 0.5. After the runs the skeleton drains, and the benchmark fails unless every
 * packet it was given came out, so that a skeleton that lost packets cannot flatter the ceiling.
 */
function stageSkeleton(load: number, fixture = 'bw-r1.5-288', processors = 288): Benchmark {
  let sim: YarcFabricSim;
  let skeleton: StageSkeleton;
  return {
    name: `emulator bound: ${fixture}, the stage skeleton (whole packets, no link layer), offered load ${load}`,
    parameters: { fixture, load, cycles: CYCLES, packetPhits: 4, slices: 4, window: WINDOW },
    ...TRAFFIC_RUNS,
    setup: () => {
      sim = handConfigured(fixture);
      skeleton = new StageSkeleton(sim);
    },
    run: async () => {
      const start = skeleton.cycle;
      const beforeCycle = uniformArrivals(sim, load, 4, processors, start, (p, slice, d) => skeleton.inject(sim.processorPort[p * 4 + slice], d, 4));
      const hopsBefore = skeleton.phitHops;
      const { ms } = await timed(() => skeleton.runWindowed(CYCLES, WINDOW, beforeCycle));
      const phitHops = skeleton.phitHops - hopsBefore;
      return {
        ms,
        phitHopsPerSecond: (phitHops / ms) * 1000,
        simulatedNsPerSecond: ((skeleton.cycle - start) * NS_PER_CYCLE * 1000) / ms,
        inFlight: skeleton.inFlight,
      };
    },
    teardown: () => {
      skeleton.runWindowed(DRAIN_CYCLES, WINDOW, () => undefined);
      if (skeleton.inFlight !== 0)
        throw new Error(
          `the stage skeleton still holds ${skeleton.inFlight} of its ${skeleton.injected} packets ${DRAIN_CYCLES} cycles after the last arrival`,
        );
    },
  };
}

/**
 * The stage skeleton compiled with gcc -O2 (native/stage-skeleton.c, the same construction step
 * for step): the figure a compiled core of the same design could start from, for the team's
 * decision on the 20M target. Setup checks that the compiled skeleton, given the arrivals the
 * TypeScript one is given, moves the same phit-hops and ends with the same books, so the figure is
 * of the same work. Each run is a process of its own: a warm-up run, the measured run, the drain.
 * The compiled skeleton replays its arrivals from a list where the TypeScript one draws them
 * (ArrivalWheel, about 5% of its profile), which flatters the compiled figure a little.
 */
function compiledSkeleton(load: number, fixture = 'bw-r1.5-288', processors = 288): Benchmark {
  let native: NativeSkeleton;
  return {
    name: `emulator bound: ${fixture}, the stage skeleton compiled (gcc -O2), offered load ${load}`,
    parameters: { fixture, load, cycles: CYCLES, packetPhits: 4, slices: 4, window: WINDOW },
    ...TRAFFIC_RUNS,
    setup: () => {
      const sim = handConfigured(fixture);
      const arrivals = (start: number, inject: (port: number, destination: number) => void) =>
        uniformArrivals(sim, load, 4, processors, start, (p, slice, d) => inject(sim.processorPort[p * 4 + slice], d));
      native = new NativeSkeleton();
      native.writeWorkload(sim, CYCLES, WINDOW, 4, DRAIN_CYCLES, [
        recordArrivals(sim.parts, 0, CYCLES, (inject) => arrivals(0, inject)),
        recordArrivals(sim.parts, CYCLES, CYCLES, (inject) => arrivals(CYCLES, inject)),
      ]);
      // The same arrivals on the TypeScript skeleton: the compiled one must end with its books.
      const skeleton = new StageSkeleton(sim);
      for (const start of [0, CYCLES])
        skeleton.runWindowed(
          CYCLES,
          WINDOW,
          arrivals(start, (port, destination) => skeleton.inject(port, destination, 4)),
        );
      skeleton.runWindowed(DRAIN_CYCLES, WINDOW, () => undefined);
      const expected = { injected: skeleton.injected, delivered: skeleton.delivered, totalPhitHops: skeleton.phitHops };
      const got = native.run();
      if (got.injected !== expected.injected || got.delivered !== expected.delivered || got.totalPhitHops !== expected.totalPhitHops) {
        native.dispose();
        throw new Error(`the compiled stage skeleton did other work than the TypeScript one: ${JSON.stringify(got)} against ${JSON.stringify(expected)}`);
      }
    },
    run: () => {
      const { ms, phitHops, inFlight } = native.run();
      return { ms, phitHopsPerSecond: (phitHops / ms) * 1000, simulatedNsPerSecond: (CYCLES * NS_PER_CYCLE * 1000) / ms, inFlight };
    },
    teardown: () => native?.dispose(),
  };
}

/**
 * A fixture's emulated fabric configured by the BlackWidow routing engine, its registers written by
 * address (YarcFabricSim.accessByAddress) instead of by maintenance packets: the workload is the
 * traffic, not the push (a 32K push takes most of a minute).
 */
function configuredByEngine(fixture: string): YarcFabricSim {
  const installation = loadInstallationFile(join(fixtures, `${fixture}.json`));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const { image } = configureBlackWidow(designAsDiscovered(installation.expected, installation.file.maintenanceAttachment));
  for (const phase of planPush(null, image).phases)
    for (const write of phase.writes) {
      const answer = sim.accessByAddress(sim.fabric.chipId(write.router), {
        requestId: 0,
        op: 'write',
        register: write.register,
        index: write.indices[0],
        indices: write.indices,
        value: write.value,
      });
      if (answer.error) throw new Error(`${write.router} ${write.register}: ${answer.error} ${answer.detail ?? ''}`);
    }
  return sim;
}

/**
 * Parts in parallel (issue 35, capability 6): the 32K-processor fabric's four slices under uniform
 * random traffic (the uniform-traffic part program) on one thread and on two (PartThreads), the
 * wall-clock phit-hops per second of each; the deliveries are the same either way (part-threads.spec).
 * Each measured run goes on from where the last left the fabric.
 */
function parallelParts(threads: number, load = 0.1, cycles = 200): Benchmark {
  let sim: YarcFabricSim;
  let runner: PartThreads;
  return {
    name: `emulator: bw-r3.5-32k, uniform random, offered load ${load}, the four slices on ${threads} thread${threads === 1 ? '' : 's'}`,
    parameters: { fixture: 'bw-r3.5-32k', load, cycles, threads, window: WINDOW },
    warmup: 1,
    runs: 3,
    isolated: true,
    setup: () => {
      sim = configuredByEngine('bw-r3.5-32k');
      runner = new PartThreads(threads);
    },
    run: async () => {
      const program = uniformTraffic(sim, { load, packetPhits: 4, endpoints: 32_768, planes: [0, 1, 2, 3], vc: 0, seed: 7, record: false });
      const hopsBefore = sim.phitHops;
      const cyclesBefore = sim.cycle;
      const { ms } = await timed(() => runner.runWindowed(sim, cycles, WINDOW, program));
      const phitHops = sim.phitHops - hopsBefore;
      return {
        ms,
        phitHopsPerSecond: (phitHops / ms) * 1000,
        simulatedNsPerSecond: ((sim.cycle - cyclesBefore) * NS_PER_CYCLE * 1000) / ms,
        inFlight: sim.packets.inFlight,
      };
    },
    teardown: () => runner.close(),
  };
}

/**
 * The service's traffic runs on threads (WEFT_EMULATOR_THREADS): a background run of uniform random
 * traffic at load 0.4 on the 1024-processor R2 fabric's four slices, as the emulator host starts
 * it (startTraffic from a request), advanced 2000 cycles a measured run, on one thread and on two.
 */
function trafficRunThreads(threads: number, fixture = 'bw-r2-1024', processors = 1024): Benchmark {
  let sim: YarcFabricSim;
  let runner: PartThreads;
  let session: TrafficSession;
  return {
    name: `emulator: a traffic run (background, uniform random 0.4) on ${fixture}, its slices on ${threads} thread${threads === 1 ? '' : 's'}`,
    parameters: { fixture, load: 0.4, cycles: 2_000, threads },
    warmup: 1,
    runs: 3,
    isolated: true,
    setup: () => {
      sim = configuredByEngine(fixture);
      runner = new PartThreads(threads);
      const request: TrafficRequest = { mode: 'background', pattern: { kind: 'uniform-random' }, packetPhits: 4, slices: [0, 1, 2, 3], seed: 3, load: 0.4 };
      session = startTraffic(sim, request, { endpoints: processors, slices: 4, endpointsPerRouter: 32, packetPhits: { min: 4, max: 19 } }, runner);
    },
    run: async () => {
      const hopsBefore = sim.phitHops;
      const { ms } = await timed(() => session.advance(2_000));
      return { ms, phitHopsPerSecond: ((sim.phitHops - hopsBefore) / ms) * 1000, inFlight: sim.packets.inFlight };
    },
    teardown: () => runner.close(),
  };
}

export const benchmarks: Benchmark[] = [
  parallelParts(1),
  parallelParts(2),
  trafficRunThreads(1),
  trafficRunThreads(2),
  uniformRandom(0.1),
  uniformRandom(0.5),
  uniformRandom(0.9),
  uniformRandom(0.5, 19),
  uniformRandom(0.5, 4, 'bw-r1.5-288', 288, CYCLES, 1),
  // 32 processors offer a ninth of the 288's traffic per cycle: nine times the cycles, for about as much work.
  uniformRandom(0.5, 4, 'bw-r1-32', 32, 9 * CYCLES),
  stageSkeleton(0.5),
  compiledSkeleton(0.5),
];

/** Building the emulated 32K-processor fabric: every YARC's registers, buffers and links. */
benchmarks.push({
  name: 'emulator: build the 32K-processor R3.5 fabric',
  parameters: { fixture: 'bw-r3.5-32k' },
  warmup: 0,
  runs: 3,
  run: async () => {
    const installation = loadInstallationFile(join(fixtures, 'bw-r3.5-32k.json'));
    collectGarbage();
    const { ms, value } = await timed(() => new YarcFabricSim(new EmulatedFabric(installation.physical)));
    // Typed arrays are committed lazily by the OS, so their allocated size is the honest figure.
    return { ms, routers: value.routerChip.length, typedArrayMiB: value.arrayBytes() / 2 ** 20, registerMiB: value.regs.bytes / 2 ** 20 };
  },
});
