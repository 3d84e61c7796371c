/**
 * The flattened butterfly (issue 38): the emulated routers' speed in flit-hops — a flit crossing a
 * link, terminal or between routers — per wall second on the 1,024-node 32-ary 2-flat under UGAL at
 * half of saturation (BookSim2 moves 0.2–0.6 million flit link-hops a CPU second on this kind of
 * machine; weft's target is 10 million), and the cost report.
 */
import { FlatSim, flatArrivals } from '@weft/emulator';
import type { FlatRouting } from '@weft/fabric-model';
import { costReport, FLAT_PACKAGING } from '@weft/fabric-model';
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

export const benchmarks: Benchmark[] = [
  halfSaturation('ugal'),
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
