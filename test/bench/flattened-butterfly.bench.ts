/**
 * The flattened butterfly (issue 38): the emulated routers' speed in flit-hops — a flit crossing a
 * link, terminal or between routers — per wall second on the 1,024-node 32-ary 2-flat under UGAL at
 * half of saturation (BookSim2 moves 0.2–0.6 million flit link-hops a CPU second on this kind of
 * machine; weft's target is 10 million), and the cost report.
 */
import { discoverFlat, FaultSet, FlatRoutingEngine, planFlatPush } from '@weft/control';
import { EmulatedFabric, FlatHostedEngine, FlatMaintenanceController, FlatSim, flatArrivals, runFlatInThreads } from '@weft/emulator';
import { costReport, FLAT_PACKAGING, FlatRouting, generateFlatDesign } from '@weft/fabric-model';
import { Benchmark, collectGarbage, timed } from './harness';

/** Uniform random single-flit packets at half of UGAL's saturation (§3.2: ~100% of capacity), timed after the network has filled. */
function halfSaturation(routing: FlatRouting): Benchmark {
  let sim: FlatSim | undefined;
  let arrivals: ((cycle: number) => void) | undefined;
  const cycles = 4000;
  return {
    name: `flattened butterfly emulator: 32-ary 2-flat under ${routing} at half of saturation (uniform random, one-flit packets), flit-hops a second`,
    parameters: { network: '32-ary 2-flat', routing, load: 0.5, warmupCycles: 1000, cycles },
    isolated: true,
    warmup: 0,
    runs: 5,
    setup: () => {
      sim = FlatSim.study({ k: 32, sizes: [32] }, { routing, seed: 3 });
      arrivals = flatArrivals(sim, { kind: 'uniform-random' }, 0.5, 5);
      sim.run(1000, arrivals);
    },
    run: async () => {
      collectGarbage();
      const s = sim!;
      const hops = s.flitHops;
      const routerHops = s.routerHops;
      const result = await timed(() => s.run(cycles, arrivals));
      const seconds = result.ms / 1000;
      return {
        ms: result.ms,
        flitHopsPerSecond: (s.flitHops - hops) / seconds,
        routerFlitHopsPerSecond: (s.routerHops - routerHops) / seconds,
        cyclesPerSecond: cycles / seconds,
      };
    },
    teardown: () => {
      sim = undefined;
      arrivals = undefined;
    },
  };
}

/**
 * The same kind of load on every core (issue 56: the block threads, parallel/block-threads.ts): the
 * routers cut into four runs of neighbours, on one thread and on two — the same packets either way
 * (the hash), timed after the network has filled, in flit-hops a wall second of the caller's thread.
 */
function halfSaturationThreads(k: number, n: number, threads: number, cycles: number, measureFrom: number): Benchmark {
  const sizes = Array.from({ length: n - 1 }, () => k);
  return {
    name: `flattened butterfly emulator: ${k}-ary ${n}-flat under ugal at half of saturation, 4 blocks on ${threads} thread${threads === 1 ? '' : 's'}`,
    parameters: { network: `${k}-ary ${n}-flat`, routing: 'ugal', load: 0.5, blocks: 4, threads, cycles, measuredFrom: measureFrom },
    isolated: true,
    warmup: 0,
    runs: 3,
    run: async () => {
      collectGarbage();
      const result = runFlatInThreads({ k, sizes, routing: 'ugal', seed: 3, traffic: { load: 0.5, seed: 5 }, cycles, blocks: 4, measureFrom }, threads);
      return { ms: result.measuredMs, flitHopsPerSecond: result.measuredFlitHops / (result.measuredMs / 1000), delivered: result.delivered, hash: result.hash };
    },
  };
}

export const benchmarks: Benchmark[] = [
  halfSaturation('ugal'),
  halfSaturationThreads(32, 2, 1, 5000, 1000),
  halfSaturationThreads(32, 2, 2, 5000, 1000),
  // The largest network the family's fixtures hold (65,536 terminals).
  halfSaturationThreads(16, 4, 1, 300, 100),
  halfSaturationThreads(16, 4, 2, 300, 100),
  {
    name: 'flattened butterfly: cost report of the 64K-node 16-ary 4-flat, every cable laid out and costed',
    parameters: { network: '16-ary 4-flat', radix: 64 },
    warmup: 1,
    runs: 5,
    run: async () => {
      const result = await timed(() => costReport({ design: { k: 16, n: 4, radix: 64, spareUse: 'unused', packaging: FLAT_PACKAGING } }));
      return { ms: result.ms };
    },
  },
];

/**
 * Configuring the 64K-node 16-ary 4-flat (issue 38: configure + verify under 3 s): discovery over
 * the emulated service network (4,096 routers, 92,160 cables checked against eq. (1)), every
 * router's registers computed, their proof, and the push of all of them through the transport.
 */
function configure65536(): Benchmark {
  const design = generateFlatDesign({ k: 16, n: 4, radix: 64, spareUse: 'unused', packaging: FLAT_PACKAGING });
  let hosted: FlatHostedEngine | undefined;
  return {
    name: 'flattened butterfly: configure the 64K-node 16-ary 4-flat (discover, compute, verify, push)',
    parameters: { network: '16-ary 4-flat', routers: 4096, routing: 'ugal' },
    isolated: true,
    warmup: 1,
    runs: 3,
    setup: () => {
      hosted = new FlatHostedEngine(new EmulatedFabric(design), 1);
    },
    run: async () => {
      const transport = new FlatMaintenanceController(hosted!.sim, hosted!.fabric);
      collectGarbage();
      const discovered = await timed(() => discoverFlat(transport, design));
      const engine = new FlatRoutingEngine(discovered.value);
      const computed = await timed(() => engine.compute(FaultSet.NONE));
      const verified = await timed(() => engine.verify(computed.value));
      const pushed = await timed(async () => {
        let failures = 0;
        for (const phase of planFlatPush(null, computed.value.image).phases)
          for (const w of phase.writes) if (!(await transport.write(w.route, w.register, w.indices[0], [...w.value])).ok) failures++;
        return failures;
      });
      if (!verified.value.ok || pushed.value > 0) throw new Error('the 64K-node configuration did not verify or push');
      return {
        ms: discovered.ms + computed.ms + verified.ms + pushed.ms,
        discoverMs: discovered.ms,
        computeMs: computed.ms,
        verifyMs: verified.ms,
        pushMs: pushed.ms,
        configureAndVerifyMs: computed.ms + verified.ms,
      };
    },
    teardown: () => {
      hosted = undefined;
    },
  };
}

benchmarks.push(configure65536());
