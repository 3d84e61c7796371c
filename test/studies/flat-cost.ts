/**
 * Paper 003 §4.3 and §5.3 on weft's cost and power model (issue 57, item 3): the flattened butterfly
 * against the folded Clos of the same radix-64 routers, per node, from 128 to 64K terminals, beside
 * what the paper states — the saving "approximately 35% to 38%" below 1K, "greater than 40%" above
 * it, "about 53%" at 4K and 40–45% at 16K–32K; the Clos's step from 1K to 2K ("an additional
 * stage", about $60 a node) against the flattened butterfly's (about $40, a dimension added); power
 * "approximately 48%" lower at 4K–8K and "approximately 20%" above 8K. Seconds; run by hand:
 *
 *   node -r ./scripts/ts-register.js test/studies/flat-cost.ts
 */
import { compareNetworkCosts, TopologyCost } from '@weft/fabric-model';

const paperSaving = (n: number): string =>
  n < 1024 ? '35–38 %' : n === 1024 ? '≈ 35–40 %' : n === 4096 ? '≈ 53 %' : n >= 16384 && n <= 32768 ? '40–45 %' : '> 40 %';
const paperPower = (n: number): string => (n >= 4096 && n <= 8192 ? '≈ 48 %' : n > 8192 ? '≈ 20 %' : '—');
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

console.log('N       flattened butterfly               folded Clos          $/node FB  Clos   saving (paper)        power saving (paper)');
const rows: { n: number; fb: TopologyCost; clos: TopologyCost }[] = [];
for (let n = 128; n <= 65536; n *= 2) {
  const [fb, clos] = compareNetworkCosts(n);
  rows.push({ n, fb, clos });
  console.log(
    `${String(n).padEnd(7)} ${fb.shape.padEnd(33)} ${clos.shape.padEnd(20)} ${fb.dollarsPerNode.toFixed(0).padStart(6)} ${clos.dollarsPerNode.toFixed(0).padStart(6)}   ${pct(1 - fb.dollarsPerNode / clos.dollarsPerNode).padStart(7)} (${paperSaving(n)})`.padEnd(
      118,
    ) + `${pct(1 - fb.wattsPerNode / clos.wattsPerNode).padStart(7)} (${paperPower(n)})`,
  );
}
const at = (n: number) => rows.find((r) => r.n === n)!;
console.log(
  `\nfrom 1K to 2K a node costs $${(at(2048).clos.dollarsPerNode - at(1024).clos.dollarsPerNode).toFixed(0)} more in the Clos (paper ≈ $60, a stage added) and $${(at(2048).fb.dollarsPerNode - at(1024).fb.dollarsPerNode).toFixed(0)} more in the flattened butterfly (paper ≈ $40, a dimension added)`,
);
const small = at(256).fb;
console.log(
  `terminal links' share of the flattened butterfly's cost at 256: ${pct(small.links[0].dollars / (small.dollarsPerNode * 256))} (paper: "approximately 40%")`,
);
