import { flatArrivals, runOpenLoad } from './flat-load';
import { ComparisonShape, ComparisonSim, ComparisonTopology, TABLE_1_NETWORKS } from './comparison-sim';

const SMALL: ComparisonShape[] = [
  { topology: 'butterfly', k: 4, n: 3 },
  { topology: 'folded-clos', leaves: 6, terminalsPerLeaf: 4, uplinks: 3 },
  { topology: 'hypercube', dimensions: 5, channelPeriod: 2 },
];

describe('the networks paper 003 §3.3 compares the flattened butterfly with', () => {
  it.each(SMALL)('delivers a packet from every terminal to every terminal of the $topology, each to its own terminal', (shape) => {
    const sim = new ComparisonSim(shape, 1);
    const seen = new Set<number>();
    sim.onDeliver = (p) => seen.add(sim.packetTag(p));
    for (let s = 0; s < sim.terminals; s++) for (let d = 0; d < sim.terminals; d++) sim.send(s, d, s * sim.terminals + d + 1);
    sim.run(20 * sim.terminals);
    expect(seen.size).toBe(sim.terminals ** 2);
    expect(sim.heldPackets()).toBe(0);
  });

  it('takes the fewest router hops each topology allows: n − 1 in a butterfly, 2 between leaves, the differing bits in a cube', () => {
    const hops = (shape: ComparisonShape, s: number, d: number) => {
      const sim = new ComparisonSim(shape, 1);
      sim.send(s, d);
      sim.run(50);
      return sim.routerHops;
    };
    expect(hops(SMALL[0], 0, 63)).toBe(2);
    expect(hops(SMALL[1], 0, 3)).toBe(0);
    expect(hops(SMALL[1], 0, 23)).toBe(2);
    expect(hops(SMALL[2], 0b00101, 0b11100)).toBe(3);
  });

  it('spreads a leaf’s climbing packets evenly over its uplinks by their queues, the same for the same seed', () => {
    const uplinkFlits = (seed: number) => {
      const sim = new ComparisonSim({ topology: 'folded-clos', leaves: 4, terminalsPerLeaf: 8, uplinks: 4 }, seed);
      sim.run(4000, flatArrivals(sim, { kind: 'adversarial' }, 0.4, seed));
      return Array.from(sim.portFlits.subarray(8, 12));
    };
    const flits = uplinkFlits(5);
    const mean = flits.reduce((a, b) => a + b) / 4;
    // Leaf 0’s eight terminals at 0.4 for 4,000 cycles, all climbing (the worst case sends every packet to the next leaf).
    expect(mean).toBeGreaterThan((0.9 * 0.4 * 8 * 4000) / 4);
    for (const f of flits) expect(Math.abs(f - mean) / mean).toBeLessThan(0.02);
    expect(uplinkFlits(5)).toEqual(flits);
  });

  it('refuses a shape it cannot build, naming the figure', () => {
    expect(() => new ComparisonSim({ topology: 'butterfly', k: 1, n: 2 }, 1)).toThrow(/k must be a whole number ≥ 2, got 1/);
    expect(() => new ComparisonSim({ topology: 'hypercube', dimensions: 4, channelPeriod: 0.5 }, 1)).toThrow(/channelPeriod/);
  });
});

/**
 * Paper 003 §3.3, Fig. 6 and Table 1, at 1,024 terminals with the bisection held at the 32-ary
 * 2-flat's: on uniform random traffic the butterfly and the hypercube carry about all of capacity
 * and the folded Clos half (half its channels go to load-balancing through the middle stage); on
 * the worst case (each router's terminals to the next router's) the butterfly is held to 1/32, as
 * the flattened butterfly under minimal routing is, and the folded Clos and hypercube reach half.
 */
describe('Table 1’s networks under load (paper 003 §3.3, Fig. 6)', () => {
  const accepted = (topology: ComparisonTopology, pattern: 'uniform-random' | 'adversarial', load: number) =>
    runOpenLoad(new ComparisonSim(TABLE_1_NETWORKS[topology], 7), { pattern: { kind: pattern }, load, warmupCycles: 1000, windowCycles: 2000, seed: 11 })
      .accepted;

  it.each<ComparisonTopology>(['butterfly', 'hypercube'])('the %s carries uniform random traffic offered at 95%% of capacity', (topology) => {
    expect(accepted(topology, 'uniform-random', 0.95)).toBeGreaterThan(0.9);
  });

  it('holds the folded Clos to half of capacity under uniform random traffic', () => {
    expect(accepted('folded-clos', 'uniform-random', 0.95)).toBeCloseTo(0.5, 1);
  });

  it('holds the butterfly to 1/32 of capacity under the worst case', () => {
    expect(accepted('butterfly', 'adversarial', 0.6)).toBeCloseTo(1 / 32, 2);
  });

  it.each<ComparisonTopology>(['folded-clos', 'hypercube'])('takes the %s to half of capacity under the worst case', (topology) => {
    expect(accepted(topology, 'adversarial', 0.6)).toBeCloseTo(0.5, 1);
  });
});
