import { compareNetworkCosts, flatDesignCost } from '../libs/fabric-model/src/flattened-butterfly/network-cost';
import { FLAT_PACKAGING } from '../libs/fabric-model/src';
for (const n of [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]) {
  const r = compareNetworkCosts(n);
  console.log(
    n,
    r
      .map(
        (t) =>
          `${t.topology.slice(0, 6)} ${t.shape} $${t.dollarsPerNode.toFixed(0)} ${t.wattsPerNode.toFixed(2)}W link%${((100 * t.linkDollars) / (t.linkDollars + t.routerDollars)).toFixed(0)} ch=${t.interRouterChannels}`,
      )
      .join(' | '),
    'FB/Clos',
    (1 - r[0].dollarsPerNode / r[1].dollarsPerNode).toFixed(2),
    'P',
    (1 - r[0].wattsPerNode / r[1].wattsPerNode).toFixed(2),
  );
}
const d = flatDesignCost({ k: 32, n: 2, radix: 63, spareUse: 'unused', packaging: FLAT_PACKAGING });
console.log(JSON.stringify(d, null, 1));
