/**
 * BlueGene/L's control-plane computations at the full machine's size (issue 36): the route-override
 * tables that route around dead nodes in software, for every live node of the 64K machine.
 */
import { computeHintRegisters, RouteOverrideCompiler, TorusFaults } from '@weft/control';
import { Torus } from '@weft/fabric-model';
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

export const benchmarks: Benchmark[] = [
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
