/**
 * Paper 003 §3.2, Fig. 4(b), on the 32-ary 2-flat with single-flit packets (issue 57, item 2): under
 * the worst-case pattern (every node of router i to a random node of router i + 1), "CLOS AD
 * provides much lower latency near saturation — nearly half the latency of UGAL-S at an offered
 * load of 0.45". Printed: each algorithm's mean latency and accepted throughput by offered load, the
 * ratio of CLOS AD's latency to UGAL-S's, and the channels a packet crosses (terminal ones
 * included), so that where the ratio falls it shows whether the paths or the queues changed.
 * A minute or two; run by hand:
 *
 *   node -r ./scripts/ts-register.js test/studies/flat-worst-case.ts
 */
import { runFlatLoad } from '@weft/emulator';
import type { FlatRouting } from '@weft/fabric-model';

const grid = { k: 32, sizes: [32] };
const routings: FlatRouting[] = ['val', 'ugal', 'ugal-s', 'clos-ad'];
console.log('worst case on the 32-ary 2-flat: latency in cycles (channels a packet crosses, terminal ones included) and accepted throughput');
console.log(`load   ${routings.map((r) => r.padEnd(22)).join('')}CLOS AD / UGAL-S (paper at 0.45: ≈ 0.5)`);
for (const load of [0.1, 0.2, 0.3, 0.4, 0.45, 0.48]) {
  const latency = new Map<FlatRouting, number>();
  const cells = routings.map((routing) => {
    const r = runFlatLoad(grid, { routing, pattern: { kind: 'adversarial' }, load, warmupCycles: 2000, windowCycles: 4000, seed: 11 });
    latency.set(routing, r.meanLatency);
    const hops = r.flitHops / r.sim.delivered;
    return `${r.meanLatency.toFixed(2)} (${hops.toFixed(2)}) ${r.accepted.toFixed(3)}`.padEnd(22);
  });
  console.log(`${load.toFixed(2).padEnd(7)}${cells.join('')}${(latency.get('clos-ad')! / latency.get('ugal-s')!).toFixed(2)}`);
}
