/**
 * Paper 003 §3.1–3.2, Fig. 4(a), on the 32-ary 2-flat with single-flit packets (issue 57, item 1):
 * under uniform random traffic every algorithm but VAL reaches about 100% of capacity, VAL about
 * 50%, and "with UGAL, traffic is routed minimally on benign traffic patterns and at low loads,
 * matching the performance of MIN AD". Printed beside the paper: each algorithm's accepted
 * throughput offered at capacity, and at half of it the router hops a packet against minimal
 * routing's; then UGAL's hops and throughput for several thresholds (FLAT_UGAL_THRESHOLD: the
 * bias towards the minimal route the paper leaves open), with the adversarial pattern's throughput
 * (Fig. 4(b): about 50%) to show that the bias costs the worst case nothing. A minute or two; run
 * by hand:
 *
 *   node -r ./scripts/ts-register.js test/studies/flat-ugal.ts
 */
import { runFlatLoad } from '@weft/emulator';
import type { FlatRouting } from '@weft/fabric-model';

const grid = { k: 32, sizes: [32] };
const run = (routing: FlatRouting, pattern: 'uniform-random' | 'adversarial', load: number, ugalThreshold?: number) =>
  runFlatLoad(grid, { routing, pattern: { kind: pattern }, load, warmupCycles: 1000, windowCycles: 2000, seed: 11, sim: { ugalThreshold } });
const hops = (routing: FlatRouting, ugalThreshold?: number) => {
  const r = run(routing, 'uniform-random', 0.5, ugalThreshold);
  return r.routerHops / r.sim.delivered;
};

const minimalHops = hops('min');
console.log('uniform random on the 32-ary 2-flat: paper (Fig. 4a) beside weft');
console.log('routing   paper   accepted@1.0   router hops a packet @0.5 (minimal: %s)', minimalHops.toFixed(3));
for (const routing of ['min', 'min-ad', 'val', 'ugal', 'ugal-s', 'clos-ad'] as FlatRouting[]) {
  const paper = routing === 'val' ? '≈0.50' : '≈1.00';
  console.log(
    `${routing.padEnd(9)} ${paper}   ${run(routing, 'uniform-random', 1).accepted.toFixed(3).padStart(12)}   ${hops(routing).toFixed(3).padStart(8)}`,
  );
}
console.log('\nUGAL by its threshold (flits × hops): hops @0.5 uniform, accepted @1.0 uniform, accepted @0.6 adversarial (paper ≈0.50)');
for (const threshold of [0, 2, 4, 8, 16, 32])
  console.log(
    `${String(threshold).padStart(3)}   ${hops('ugal', threshold).toFixed(3)}   ${run('ugal', 'uniform-random', 1, threshold).accepted.toFixed(3)}   ${run('ugal', 'adversarial', 0.6, threshold).accepted.toFixed(3)}`,
  );
