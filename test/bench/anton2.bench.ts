/**
 * Anton 2 (issue 37): the emulated ASIC network's speed in flit-hops — a flit crossing a channel,
 * mesh, skip, adapter or torus — per wall second (BookSim2, for scale, moves 0.2–0.6 million flit
 * link-hops a CPU second on this kind of machine; weft's target is 10 million), and the arbiter
 * weights' computation.
 */
import {
  anton2ArbiterLoads,
  anton2ArbiterLoadsAroundFaults,
  anton2Faults,
  ARBITER_INPUTS_PER_ASIC,
  anton2WeightTable,
  computeAnton2Image,
  discoverAnton2,
  inverseWeights,
  pushAnton2Image,
  verifyAnton2Image,
} from '@weft/control';
import { Anton2MaintenanceController, Anton2Sim, EmulatedFabric, runAnton2InThreads } from '@weft/emulator';
import { anton2ChipWiring, generateAnton2Design, keyedDraw, shippedAnton2Floorplan, Torus } from '@weft/fabric-model';
import { anton2AtLoad, anton2BenchDesign, CORES, LOAD_SEED, TORUS_CYCLES_PER_FLIT } from './anton2-load';
import { Benchmark, collectGarbage, timed } from './harness';

/**
 * 8×8×8 at half of saturation, uniform random one-flit packets from 16 cores a node: saturation is
 * where the most loaded torus channel is full (its load from the arbiter-load analysis: 8 packets a
 * unit of per-core rate), so each core offers 0.5 / (3.214 × 8) packets a cycle. Timed after the
 * network has filled.
 */
function halfSaturation(shape: [number, number, number] = [8, 8, 8]): Benchmark {
  let sim: Anton2Sim | undefined;
  const nodes = shape[0] * shape[1] * shape[2];
  // The same work (some 2.5 million flit-hops) whatever the machine's size.
  const cycles = Math.round((2000 * 512) / nodes);
  return {
    name: `anton2 emulator: ${shape.join('×')} at half of saturation (uniform random, one-flit packets), flit-hops a second`,
    parameters: { shape: shape.join('x'), load: 0.5, coresPerNode: CORES.length, warmupCycles: 1500, cycles },
    isolated: true,
    warmup: 0,
    runs: 3,
    setup: () => {
      sim = anton2AtLoad(shape, 0.5);
      sim.run(1500);
    },
    run: async () => {
      collectGarbage();
      const s = sim!;
      const hops = s.flitHops;
      const torusHops = s.torusFlitHops;
      const result = await timed(() => s.run(cycles));
      const seconds = result.ms / 1000;
      return {
        ms: result.ms,
        flitHopsPerSecond: (s.flitHops - hops) / seconds,
        torusFlitHopsPerSecond: (s.torusFlitHops - torusHops) / seconds,
        torusUtilisation: ((s.torusFlitHops - torusHops) * TORUS_CYCLES_PER_FLIT) / (cycles * s.nodes * 12),
      };
    },
    teardown: () => {
      sim = undefined;
    },
  };
}

/**
 * The same load on every core (issue 56: the block threads, parallel/block-threads.ts): the torus
 * cut into two slabs of z, on one and on two threads — the same packets either way, timed after the
 * network has filled, in flit-hops a wall second of the caller's thread.
 */
function halfSaturationThreads(shape: [number, number, number], threads: number, cycles: number, measureFrom: number): Benchmark {
  const design = anton2BenchDesign(shape);
  return {
    name: `anton2 emulator: ${shape.join('×')} at half of saturation, 2 blocks of z on ${threads} thread${threads === 1 ? '' : 's'}`,
    parameters: { shape: shape.join('x'), load: 0.5, blocks: 2, threads, cycles, measuredFrom: measureFrom },
    isolated: true,
    warmup: 0,
    runs: 3,
    run: async () => {
      collectGarbage();
      const result = runAnton2InThreads(
        { design, seed: 3, settings: {}, traffic: { load: 0.5, seed: LOAD_SEED, sendUntil: 1e12 }, cycles, blocks: 2, measureFrom },
        threads,
      );
      return { ms: result.measuredMs, flitHopsPerSecond: result.measuredFlitHops / (result.measuredMs / 1000), delivered: result.delivered, hash: result.hash };
    },
  };
}

export const benchmarks: Benchmark[] = [
  halfSaturation(),
  // The same on 32 ASICs, whose state stays in the caches: the ceiling of the event-per-hop design on one thread.
  halfSaturation([4, 4, 2]),
  halfSaturationThreads([8, 8, 8], 1, 3000, 1500),
  halfSaturationThreads([8, 8, 8], 2, 3000, 1500),
  // The largest machine the family's fixtures hold.
  halfSaturationThreads([16, 16, 16], 1, 1000, 600),
  halfSaturationThreads([16, 16, 16], 2, 1000, 600),
  {
    name: 'anton2: inverse weights of every arbiter, every ASIC its own, from a traffic matrix and the uniform pattern, 8×8×8',
    parameters: { shape: '8x8x8', patterns: 'matrix (seeded random, 512×512),uniform', weightBits: 5 },
    warmup: 1,
    runs: 5,
    run: async () => {
      const torus = new Torus([8, 8, 8]);
      const wiring = anton2ChipWiring(shippedAnton2Floorplan());
      const options = { sourceEndpoints: CORES, destinationEndpoints: CORES, tieRule: 'random' as const };
      const weights = Array.from({ length: torus.size }, (_, s) => Array.from({ length: torus.size }, (_, t) => (s === t ? 0 : keyedDraw(9, s, t, 0))));
      collectGarbage();
      const result = await timed(() => {
        const matrix = anton2ArbiterLoadsAroundFaults(torus, wiring, { name: 'matrix', weights }, options, new Map());
        const uniform = anton2ArbiterLoads(torus, wiring, { name: 'uniform' }, options).arbiters;
        const tables = [];
        for (let p = 0; p < torus.size; p++)
          tables.push(anton2WeightTable([matrix.subarray(p * ARBITER_INPUTS_PER_ASIC, (p + 1) * ARBITER_INPUTS_PER_ASIC), uniform], 5, inverseWeights));
        return tables;
      });
      return { ms: result.ms, asics: result.value.length };
    },
  },
  {
    name: 'anton2: inverse weights of every arbiter from two patterns (uniform, tornado), 8×8×8',
    parameters: { shape: '8x8x8', patterns: 'uniform,tornado', weightBits: 5 },
    warmup: 1,
    runs: 5,
    run: async () => {
      const torus = new Torus([8, 8, 8]);
      const wiring = anton2ChipWiring(shippedAnton2Floorplan());
      const options = { sourceEndpoints: CORES, destinationEndpoints: CORES, tieRule: 'random' as const };
      collectGarbage();
      const result = await timed(() => {
        const uniform = anton2ArbiterLoads(torus, wiring, { name: 'uniform' }, options);
        const tornado = anton2ArbiterLoads(torus, wiring, { name: 'tornado' }, options);
        return anton2WeightTable([uniform.arbiters, tornado.arbiters], 5, inverseWeights);
      });
      return { ms: result.ms, arbiterInputs: result.value.length / 2 };
    },
  },
];

/**
 * Configuring 16×16×16 (issue 37: configure + verify under 5 s): discovery over the emulated
 * control network, the image (datelines, route policy, the uniform pattern's weights), its checks
 * with the dependency graph over every buffer, and the push of every ASIC's registers — phase by
 * phase, in the library.
 */
function configure4096(): Benchmark {
  const design = generateAnton2Design({ shape: [16, 16, 16], backplaneChannelNs: 2, cableChannelNs: 10 });
  let sim: Anton2Sim | undefined;
  return {
    name: 'anton2: configure 16×16×16 (discover, compute, verify, push)',
    parameters: { shape: '16x16x16' },
    isolated: true,
    warmup: 1,
    runs: 3,
    setup: () => {
      sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 1);
    },
    run: async () => {
      const transport = new Anton2MaintenanceController(sim!);
      collectGarbage();
      const discovered = await timed(() => discoverAnton2(transport, design));
      const computed = await timed(() => computeAnton2Image(design, anton2Faults(discovered.value, sim!.torus)));
      const verified = await timed(() => verifyAnton2Image(computed.value, 'random'));
      const pushed = await timed(() => pushAnton2Image(transport, design, computed.value));
      if (!verified.value.ok || pushed.value.failure) throw new Error('the 16×16×16 configuration did not verify or push');
      return {
        ms: discovered.ms + computed.ms + verified.ms + pushed.ms,
        discoverMs: discovered.ms,
        computeMs: computed.ms,
        verifyMs: verified.ms,
        pushMs: pushed.ms,
        dependencies: verified.value.dependencies.dependencies,
      };
    },
    teardown: () => {
      sim = undefined;
    },
  };
}

benchmarks.push(configure4096());
