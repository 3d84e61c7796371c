/**
 * BlueGene/L's control-plane computations at the full machine's size (issue 36): the route-override
 * tables that route around dead nodes in software, for every live node of the 64K machine.
 */
import { BglImage, BglRoutingEngine, computeHintRegisters, discoverBgl, FaultSet, pushBglImage } from '@weft/control';
import { BglMaintenanceController, BglTorusSim, EmulatedFabric, runBglInThreads } from '@weft/emulator';
import { generateBglDesign, mulberry32, RouteOverrideCompiler, Torus, TorusFaults } from '@weft/fabric-model';
import { Benchmark, collectGarbage, timed } from './harness';

const FULL_MACHINE = [64, 32, 32];

/** Three dead nodes not on one line, away from each other (seeded positions would do as well). */
function threeDeadNodes(torus: Torus): number[] {
  return [torus.index(3, 2, 1), torus.index(40, 17, 9), torus.index(21, 30, 25)];
}

function routeOverrides(what: string, dead: (torus: Torus) => number[]): Benchmark {
  return {
    name: `bgl: route-override tables for every node (${what}), 64×32×32`,
    parameters: { shape: FULL_MACHINE.join('x'), deadNodes: what },
    warmup: 1,
    runs: 5,
    run: async () => {
      const torus = new Torus(FULL_MACHINE);
      const faults = new TorusFaults(torus, dead(torus));
      collectGarbage();
      const result = await timed(() => new RouteOverrideCompiler(torus, faults).compile());
      const { entries, hardCells, searchedDestinations } = result.value.figures;
      return { ms: result.ms, entries, hardCells, searchedDestinations, cutPairs: result.value.cut.length };
    },
  };
}

/**
 * The emulator on a fully loaded torus (issue 36: the paper's own parallel simulator managed
 * 0.25 emulated µs per second on a 16-way SMP; weft's target is 1 µs/s for 32K nodes on this
 * machine): every node offers a 256-byte packet every 256 cycles — its links' whole capacity —
 * to uniformly random destinations, by dynamic routing; measured after the network has filled.
 */
function fullyLoaded(shape: [number, number, number], warmupCycles: number, cycles: number): Benchmark {
  let sim: BglTorusSim | undefined;
  let random = mulberry32(5);
  const offer = (run: number) =>
    sim!.run(run, () => {
      const n = sim!.nodes;
      for (let i = 0; i < n; i++) {
        if (random() >= 1 / 256) continue;
        let t = Math.floor(random() * (n - 1));
        if (t >= i) t++;
        sim!.send(i, t, 8);
      }
    });
  return {
    name: `bgl emulator: ${shape.join('×')} fully loaded (uniform, 256-byte packets, dynamic), one thread`,
    parameters: { shape: shape.join('x'), offeredBytesPerCyclePerNode: 1, cycles },
    isolated: true,
    warmup: 0,
    runs: 3,
    setup: () => {
      sim = new BglTorusSim(new EmulatedFabric(generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 })), 1);
      sim.programMinimalRouting();
      random = mulberry32(5);
      offer(warmupCycles);
    },
    run: async () => {
      collectGarbage();
      const bytes = sim!.bytesMoved;
      const result = await timed(() => offer(cycles));
      const emulatedUs = (cycles * sim!.nsPerCycle) / 1000;
      return { ms: result.ms, emulatedUsPerSecond: emulatedUs / (result.ms / 1000), linkUtilisation: (sim!.bytesMoved - bytes) / (cycles * 6 * sim!.nodes) };
    },
    teardown: () => {
      sim = undefined;
    },
  };
}

/**
 * The same on every core (paper 002 §3's blocks and windows, bgl-threads.ts): 32 blocks of z on
 * one and on two threads, the same packets either way; timed after the network has filled.
 */
function fullyLoadedThreads(threads: number): Benchmark {
  const shape: [number, number, number] = [32, 32, 32];
  const design = generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 });
  return {
    name: `bgl emulator: 32×32×32 fully loaded (uniform, 256-byte packets, dynamic), blocks on ${threads} thread${threads === 1 ? '' : 's'}`,
    parameters: { shape: shape.join('x'), load: 1, threads, blocks: 32, cycles: 3000, measuredFrom: 1500 },
    isolated: true,
    warmup: 0,
    runs: 3,
    run: async () => {
      collectGarbage();
      const result = runBglInThreads(
        {
          design,
          seed: 1,
          settings: {},
          traffic: { seed: 5, load: 1, sizes: [8], routing: 'dynamic', sendUntil: 3000 },
          cycles: 3000,
          blocks: 32,
          measureFrom: 1500,
        },
        threads,
      );
      const emulatedUs = (result.measuredCycles * 1000) / 175 / 1000;
      return { ms: result.measuredMs, emulatedUsPerSecond: emulatedUs / (result.measuredMs / 1000), delivered: result.delivered };
    },
  };
}

/**
 * Configuring the full machine with three dead nodes (issue 36: target under 3 s): discovery over
 * the emulated JTAG control network, the engine's computation and its proof, and the push of every
 * node's registers — measured phase by phase, in the library (the service adds its store).
 */
function configure64k(): Benchmark {
  const design = generateBglDesign({ shape: [64, 32, 32], midplaneLinkCycles: 3, cableLinkCycles: 10 });
  return {
    name: 'bgl: configure 64×32×32 with three dead nodes (discover over JTAG, compute, prove, push)',
    parameters: { shape: '64x32x32', deadNodes: 3 },
    isolated: true,
    warmup: 1,
    runs: 3,
    run: async () => {
      const fabric = new EmulatedFabric(design);
      const sim = new BglTorusSim(fabric, 1);
      for (const name of ['x3.y2.z1', 'x40.y17.z9', 'x21.y30.z25']) sim.killNode(fabric.chipId(name));
      const jtag = new BglMaintenanceController(sim);
      collectGarbage();
      const started = performance.now();
      const known = await discoverBgl(jtag, design);
      const discovered = performance.now();
      const engine = new BglRoutingEngine(known);
      const computed = engine.compute(FaultSet.NONE);
      const computedAt = performance.now();
      const verification = engine.verify(computed);
      const provenAt = performance.now();
      if (!verification.ok) throw new Error(`not proven: ${verification.violations[0]?.message}`);
      engine.adopt(computed, verification);
      const push = await pushBglImage(jtag, null, computed.image as BglImage);
      const pushedAt = performance.now();
      return {
        ms: pushedAt - started,
        discoverMs: discovered - started,
        computeMs: computedAt - discovered,
        proveMs: provenAt - computedAt,
        pushMs: pushedAt - provenAt,
        writes: push.writes,
      };
    },
  };
}

/**
 * The reaction to one dead node at 64K (issue 36: target under 100 ms; OpenSM's torus-2QoS takes
 * 0.87 s on a 512-switch torus): from a configured machine, the engine's new configuration around
 * the node, its proof, and the push of what changed — measured from the fault being known.
 */
function reaction64k(): Benchmark {
  const design = generateBglDesign({ shape: [64, 32, 32], midplaneLinkCycles: 3, cableLinkCycles: 10 });
  let state: { engine: BglRoutingEngine; jtag: BglMaintenanceController; held: BglImage } | undefined;
  let victim = 0;
  return {
    name: 'bgl: reaction to one dead node, 64×32×32 (compute, prove, push what changed)',
    parameters: { shape: '64x32x32' },
    isolated: true,
    warmup: 1,
    runs: 3,
    setup: async () => {
      const fabric = new EmulatedFabric(design);
      const sim = new BglTorusSim(fabric, 1);
      const jtag = new BglMaintenanceController(sim);
      const known = await discoverBgl(jtag, design);
      const engine = new BglRoutingEngine(known);
      const computed = engine.compute(FaultSet.NONE);
      engine.adopt(computed, engine.verify(computed));
      await pushBglImage(jtag, null, computed.image as BglImage);
      state = { engine, jtag, held: computed.image as BglImage };
    },
    run: async () => {
      const { engine, jtag, held } = state!;
      const name = ['x5.y6.z7', 'x30.y20.z10', 'x60.y1.z30', 'x12.y12.z12'][victim++ % 4];
      collectGarbage();
      const started = performance.now();
      const faults = FaultSet.of([{ kind: 'router', chip: name, port: null }], () => 6);
      const computed = engine.compute(faults);
      const computedAt = performance.now();
      const verification = engine.verify(computed);
      const provenAt = performance.now();
      if (!verification.ok) throw new Error(`not proven: ${verification.violations[0]?.message}`);
      const push = await pushBglImage(jtag, held, computed.image as BglImage);
      const pushedAt = performance.now();
      return {
        ms: pushedAt - started,
        computeMs: computedAt - started,
        proveMs: provenAt - computedAt,
        pushMs: pushedAt - provenAt,
        writes: push.writes,
        nodes: push.nodes,
      };
    },
    teardown: () => {
      state = undefined;
    },
  };
}

export const benchmarks: Benchmark[] = [
  configure64k(),
  reaction64k(),
  fullyLoaded([32, 32, 32], 2000, 2000),
  fullyLoadedThreads(1),
  fullyLoadedThreads(2),
  fullyLoaded([16, 16, 16], 2000, 4000),
  routeOverrides('one', (torus) => [torus.index(3, 2, 1)]),
  routeOverrides('three not on one line', threeDeadNodes),
  {
    name: 'bgl: hint and neighbour registers for every node, 64×32×32',
    parameters: { shape: FULL_MACHINE.join('x') },
    warmup: 1,
    runs: 5,
    run: async () => {
      const torus = new Torus(FULL_MACHINE);
      collectGarbage();
      const result = await timed(() => computeHintRegisters(torus));
      return { ms: result.ms };
    },
  },
];
