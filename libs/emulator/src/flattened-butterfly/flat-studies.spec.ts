import type { FlatRouting } from '@weft/fabric-model';
import { runFlatLoad } from './flat-load';

/**
 * Paper 003 §3.2, Fig. 4, on the 32-ary 2-flat with single-flit packets (issue 38's acceptance):
 * uniform random traffic takes every algorithm but VAL to about 100% of capacity and VAL to
 * about 50%; the adversarial pattern (every node of router i to a random node of router i + 1)
 * holds minimal routing to 1/32 and takes every non-minimal algorithm to about 50%.
 */
describe('the 32-ary 2-flat under load (paper 003 §3.2, Fig. 4)', () => {
  const grid = { k: 32, sizes: [32] };
  const accepted = (routing: FlatRouting, pattern: 'uniform-random' | 'adversarial', load: number) =>
    runFlatLoad(grid, { routing, pattern: { kind: pattern }, load, warmupCycles: 1000, windowCycles: 2000, seed: 11 }).accepted;

  it.each<FlatRouting>(['min', 'ugal', 'ugal-s', 'clos-ad'])('carries uniform random traffic offered at 95%% of capacity under %s', (routing) => {
    expect(accepted(routing, 'uniform-random', 0.95)).toBeGreaterThan(0.9);
  });

  // §3.1: "with UGAL, traffic is routed minimally on benign traffic patterns and at low loads"
  // (issue 57: the decision weighs each output's whole queue, and leaves the minimal route only by
  // more than FLAT_UGAL_THRESHOLD).
  it.each<FlatRouting>(['ugal', 'ugal-s', 'clos-ad'])('routes uniform random traffic at half of capacity minimally under %s', (routing) => {
    const hops = (r: FlatRouting) => {
      const run = runFlatLoad(grid, { routing: r, pattern: { kind: 'uniform-random' }, load: 0.5, warmupCycles: 500, windowCycles: 1000, seed: 11 });
      return run.routerHops / run.sim.delivered;
    };
    expect(hops(routing)).toBeLessThan(hops('min') * 1.01);
  });

  it('holds VAL to half of capacity under uniform random traffic', () => {
    const v = accepted('val', 'uniform-random', 0.95);
    expect(v).toBeGreaterThan(0.45);
    expect(v).toBeLessThan(0.55);
  });

  it('holds minimal routing to 1/32 of capacity under the adversarial pattern', () => {
    expect(accepted('min', 'adversarial', 0.6)).toBeCloseTo(1 / 32, 2);
  });

  it.each<FlatRouting>(['val', 'ugal', 'ugal-s', 'clos-ad'])('takes %s to half of capacity under the adversarial pattern', (routing) => {
    const v = accepted(routing, 'adversarial', 0.6);
    expect(v).toBeGreaterThan(0.45);
    expect(v).toBeLessThan(0.55);
  });
});
