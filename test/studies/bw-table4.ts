/**
 * Paper 000 §7.8.1, Table 4, on weft's BlackWidow configuration (issue 57, item 7): random
 * permutations among the processors of one network slice, each transfer spread over np unique
 * paths (1 to 32), the worst link's traffic relative to an injection link, averaged over the
 * permutations. The paths of a transfer are packets with different optional hash bits (§7.8.2) routed
 * through the configured tables and hash selections (blackWidowForwarding): by default hash values
 * 0 … np − 1 — consecutive cachelines of a block, address[20:6] — and with `spread` the path's index
 * in every rank's window of the hash bits. Run by hand (a minute or two at 4,096):
 *
 *   node -r ./scripts/ts-register.js test/studies/bw-table4.ts [processors] [permutations] [consecutive|spread]
 */
import { blackWidowForwarding, channelName, configureBlackWidow, designAsDiscovered, traceRoute } from '@weft/control';
import { defaultCableLengths, generateBlackWidowDesign, mulberry32 } from '@weft/fabric-model';

const processors = Number(process.argv[2] ?? 4096);
const permutations = Number(process.argv[3] ?? 50);
const mode = process.argv[4] ?? 'consecutive';
const PAPER: Record<number, number[]> = { 512: [5.18, 3.45, 2.4, 1.76, 1.34, 1.0], 4096: [6.42, 4.22, 2.9, 2.08, 1.54, 1.19] };
const PATHS = [1, 2, 4, 8, 16, 32];

const network = processors <= 1024 ? 'R2' : 'R3';
const design = generateBlackWidowDesign({ network, processors, slices: 1, r1Uplinks: 32, portSeed: 0, cableLengths: defaultCableLengths(processors) });
const known = designAsDiscovered(design, 'p0');
const { image } = configureBlackWidow(known);
const forwarding = blackWidowForwarding(known, image);
const hashOf = (j: number) => (mode === 'spread' ? j | (j << 5) | (j << 10) : j);

const random = mulberry32(7);
const worst = PATHS.map(() => 0);
const where = PATHS.map(() => new Map<string, number>());
for (let k = 0; k < permutations; k++) {
  const pi = Array.from({ length: processors }, (_, i) => i);
  for (let i = processors - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pi[i], pi[j]] = [pi[j], pi[i]];
  }
  PATHS.forEach((np, x) => {
    const load = new Map<string, number>();
    for (let s = 0; s < processors; s++) {
      if (pi[s] === s) continue;
      for (let j = 0; j < np; j++) {
        const trace = traceRoute(forwarding, s, pi[s], { plane: 0, vc: 0, hashBits: hashOf(j) });
        if (trace.outcome !== 'delivered') throw new Error(`${s} → ${pi[s]}: ${trace.reason}`);
        for (const hop of trace.hops) {
          const key = channelName({ chip: hop.chip, port: hop.outPort });
          load.set(key, (load.get(key) ?? 0) + 1 / np);
        }
      }
    }
    let most = 0;
    let at = '';
    for (const [key, value] of load)
      if (value > most) {
        most = value;
        at = key;
      }
    worst[x] += most / permutations;
    const rank = at.replace(/^s\d+\.(r\d).*$/, '$1');
    where[x].set(rank, (where[x].get(rank) ?? 0) + 1);
  });
}
console.log(`Table 4 on a ${processors}-processor ${network} slice, ${permutations} random permutations, hash bits ${mode}`);
console.log(`np      ${PATHS.map((n) => String(n).padStart(6)).join('')}`);
console.log(`paper   ${(PAPER[processors] ?? []).map((v) => v.toFixed(2).padStart(6)).join('')}`);
console.log(`weft    ${worst.map((v) => v.toFixed(2).padStart(6)).join('')}`);
console.log(`worst link leaves (rank: permutations): ${where.map((m, x) => `np=${PATHS[x]} ${[...m].map(([r, c]) => `${r}:${c}`).join(' ')}`).join('; ')}`);
