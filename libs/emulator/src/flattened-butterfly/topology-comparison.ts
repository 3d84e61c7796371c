/**
 * Paper 003 §3.3's comparison (Table 1, Fig. 6), run: the 32-ary 2-flat under CLOS AD beside the
 * conventional butterfly, folded Clos and hypercube of 1,024 terminals at its bisection and total
 * buffering, each offered the same loads of the same patterns. What `weft report topologies`
 * prints and plots.
 */
import type { PatternSpec } from '@weft/fabric-model';
import { ComparisonSim, ComparisonTopology, TABLE_1_NETWORKS } from './comparison-sim';
import { FlatSim } from './flat-sim';
import { OpenLoopSim, runOpenLoad } from './flat-load';

export const COMPARED_NETWORKS = ['flattened butterfly', 'butterfly', 'folded Clos', 'hypercube'] as const;
export type ComparedNetwork = (typeof COMPARED_NETWORKS)[number];

const COMPARISON_OF: Readonly<Record<Exclude<ComparedNetwork, 'flattened butterfly'>, ComparisonTopology>> = {
  butterfly: 'butterfly',
  'folded Clos': 'folded-clos',
  hypercube: 'hypercube',
};

export interface TopologyComparisonRequest {
  /** Patterns by kind; Fig. 6's are uniform random (a) and the worst case, each router's terminals to the next router's (b). */
  readonly patterns: readonly ('uniform-random' | 'adversarial')[];
  /** Offered loads, fractions of capacity in (0, 1]. */
  readonly loads: readonly number[];
  readonly warmupCycles: number;
  readonly windowCycles: number;
  readonly seed: number;
}

export interface TopologyComparisonPoint {
  readonly network: ComparedNetwork;
  readonly pattern: string;
  readonly offered: number;
  readonly accepted: number;
  /** Mean latency in cycles of the window's packets delivered by the run's end; null when none were (saturated far beyond). */
  readonly meanLatency: number | null;
}

export interface TopologyComparison {
  /** Each network's shape and routing (Table 1). */
  readonly networks: readonly { readonly network: ComparedNetwork; readonly shape: string; readonly routing: string; readonly vcs: number }[];
  readonly points: readonly TopologyComparisonPoint[];
  readonly notes: readonly string[];
}

/** The four networks as §3.3 builds them, fresh for each point. */
function networkSim(network: ComparedNetwork, seed: number): OpenLoopSim {
  if (network === 'flattened butterfly') return FlatSim.study({ k: 32, sizes: [32] }, { routing: 'clos-ad', seed });
  return new ComparisonSim(TABLE_1_NETWORKS[COMPARISON_OF[network]], seed);
}

export function compareTopologies(o: TopologyComparisonRequest): TopologyComparison {
  for (const load of o.loads) if (!(load > 0 && load <= 1)) throw new RangeError(`an offered load is a fraction of capacity in (0, 1], got ${load}`);
  if (!(o.warmupCycles >= 0 && o.windowCycles >= 1)) throw new RangeError('the window must last a cycle at least, and the warm-up none or more');
  const points: TopologyComparisonPoint[] = [];
  for (const pattern of o.patterns)
    for (const network of COMPARED_NETWORKS)
      for (const offered of o.loads) {
        const spec: PatternSpec = { kind: pattern };
        const r = runOpenLoad(networkSim(network, o.seed), {
          pattern: spec,
          load: offered,
          warmupCycles: o.warmupCycles,
          windowCycles: o.windowCycles,
          seed: o.seed,
        });
        points.push({ network, pattern, offered, accepted: r.accepted, meanLatency: Number.isFinite(r.meanLatency) ? r.meanLatency : null });
      }
  return {
    networks: COMPARED_NETWORKS.map((network) => {
      if (network === 'flattened butterfly') return { network, shape: '32-ary 2-flat', routing: 'CLOS AD (sequential allocator)', vcs: 2 };
      const sim = new ComparisonSim(TABLE_1_NETWORKS[COMPARISON_OF[network]], 0);
      return { network, shape: sim.name, routing: sim.routing, vcs: 1 };
    }),
    points,
    notes: [
      '1,024 terminals each; single-flit packets, Bernoulli arrivals, one-cycle channels, routers limited only by their output channels and input buffers (§3.2)',
      'bisection held at the 32-ary 2-flat’s (§3.3): the folded Clos’s leaves have 16 uplinks for 32 terminals; the 10-cube’s channels send a flit every 2 cycles',
      'total buffering held at 32 flits a port: 2 VCs of 16 on the flattened butterfly, 1 VC of 32 elsewhere (Table 1)',
      'the worst case sends each router’s terminals to random terminals of the next router (leaf, node); accepted throughput counts the window’s deliveries, latency the window’s packets delivered by its end',
      `${o.warmupCycles} cycles of warm-up, ${o.windowCycles} measured, seed ${o.seed}`,
    ],
  };
}

/** Fig. 6: latency against offered load, a panel a pattern, a line a network (Vega-Lite). */
export function topologyComparisonPlotSpec(c: TopologyComparison): Record<string, unknown> {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    background: 'white',
    padding: 8,
    title: { text: 'latency against offered load at equal bisection (paper 003 §3.3, Fig. 6)', anchor: 'start' },
    data: { values: c.points.filter((p) => p.meanLatency !== null).map((p) => ({ ...p })) },
    facet: { column: { field: 'pattern', type: 'nominal', title: null } },
    spec: {
      width: 320,
      height: 240,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'offered', type: 'quantitative', title: 'offered load (fraction of capacity)', scale: { domain: [0, 1] } },
        y: { field: 'meanLatency', type: 'quantitative', title: 'mean latency (cycles)', scale: { type: 'log' } },
        color: { field: 'network', type: 'nominal', scale: { domain: [...COMPARED_NETWORKS] }, legend: { orient: 'bottom', title: null } },
      },
    },
  };
}
