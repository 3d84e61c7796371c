/**
 * Paper 000 §7.8.1, Table 4, on weft's BlackWidow configuration (issue 57, item 7): random
 * permutations among the processors of one network slice, each transfer spread over np unique
 * paths (1 to 32), the worst link's traffic relative to an injection link, averaged over the
 * permutations. The paths of a transfer are packets with different optional hash bits (§7.8.2) routed
 * through the configured tables and hash selections (blackWidowForwarding): by default hash values
 * 0 … np − 1 — consecutive cachelines of a block, address[20:6] — and with `spread` the path's index
 * in every rank's window of the hash bits. A port seed other than 0 lands the cables on shuffled
 * ports, as the fixtures do.
 *
 * Table 4's column is a generic "radix 64 fat tree", not BlackWidow's packaging: above 2,048
 * processors its rank-2 subtrees are 32 R1s (1,024 processors) under R2s of 32 uplinks, where
 * BlackWidow's R3 is built of 512-processor R2 subtrees under radix-32 virtual routers of 16 down
 * and 16 up (§2), so that 7/8 of a permutation's transfers cross ranks 2–3 instead of 3/4. The study
 * also routes the same permutations over that generic tree with weft's own hash — the datasheet's
 * yarcHash of the input port's number, the destination and the tile's window of the hash bits
 * (HASH_WINDOW_BY_RANK), modulo the uplinks — which separates what the hashing does from what the
 * packaging does, and draws each path's rank-2 uplink afresh on the paper's tree and on BlackWidow's
 * subtrees (16 R1s under 16 uplinks) to show what spreading a transfer's paths at rank 2 would do.
 * Run by hand (a minute or two at 4,096):
 *
 *   node -r ./scripts/ts-register.js test/studies/bw-table4.ts [processors] [permutations] [consecutive|spread] [port seed]
 */
import { blackWidowForwarding, channelName, configureBlackWidow, designAsDiscovered, HASH_WINDOW_BY_RANK, traceRoute } from '@weft/control';
import { defaultCableLengths, generateBlackWidowDesign, mulberry32 } from '@weft/fabric-model';
import { selectHashBits, yarcHash } from '@weft/fabric-model/chips/yarc';

const processors = Number(process.argv[2] ?? 4096);
const permutations = Number(process.argv[3] ?? 50);
const mode = process.argv[4] ?? 'consecutive';
const portSeed = Number(process.argv[5] ?? 0);
for (const [what, value, ok] of [
  ['processors', processors, Number.isInteger(processors) && processors >= 64 && processors <= 16384 && processors % 32 === 0],
  ['permutations', permutations, Number.isInteger(permutations) && permutations >= 1],
  ['port seed', portSeed, Number.isInteger(portSeed) && portSeed >= 0],
] as const)
  if (!ok) throw new Error(`bw-table4: ${what} ${value} is out of range`);
if (mode !== 'consecutive' && mode !== 'spread') throw new Error(`bw-table4: hash bits are consecutive or spread, not ${mode}`);

const PAPER: Record<number, number[]> = { 512: [5.18, 3.45, 2.4, 1.76, 1.34, 1.0], 4096: [6.42, 4.22, 2.9, 2.08, 1.54, 1.19] };
const PATHS = [1, 2, 4, 8, 16, 32];

const network = processors <= 1024 ? 'R2' : 'R3';
const design = generateBlackWidowDesign({ network, processors, slices: 1, r1Uplinks: 32, portSeed, cableLengths: defaultCableLengths(processors) });
const known = designAsDiscovered(design, 'p0');
const { image } = configureBlackWidow(known);
const forwarding = blackWidowForwarding(known, image);
const hashOf = (j: number) => (mode === 'spread' ? j | (j << 5) | (j << 10) : j);

/** One permutation's transfers over np paths each on the configured slice: link → traffic. */
function configuredLoads(pi: readonly number[], np: number, load: Map<string, number>): void {
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
}

/** A tree of R1s of 32 processors: R1s per rank-2 subtree, each R2's uplinks, and whether a path's
 * rank-2 uplink is drawn afresh (a seeded stream) instead of hashed. */
interface Tree {
  readonly groupR1s: number;
  readonly rank2Uplinks: number;
  readonly afresh: (() => number) | null;
}

/**
 * The same over Table 4's radix-64 fat tree: R1s of 32 processors and 32 uplinks; up to 2,048
 * processors one rank of R2s above them (R2 J takes uplink J of every R1), beyond it groups of 32
 * R1s under 32 R2s of 32 uplinks, R3 (J, k) taking uplink k of every group's R2 J. A tile hashes
 * its input port's index (the processor's, the R1's in its group) with the destination and its
 * rank's window of the hash bits, as the configured YARCs do.
 */
function fatTreeLoads(pi: readonly number[], np: number, load: Map<string, number>, tree: Tree): void {
  const { groupR1s, rank2Uplinks, afresh } = tree;
  const add = (key: string) => load.set(key, (load.get(key) ?? 0) + 1 / np);
  for (let s = 0; s < processors; s++) {
    const d = pi[s];
    const t = s >> 5;
    const td = d >> 5;
    if (t === td) continue;
    const g = Math.floor(t / groupR1s);
    const gd = Math.floor(td / groupR1s);
    for (let j = 0; j < np; j++) {
      const bits = hashOf(j);
      const up1 = yarcHash(s & 31, d, selectHashBits(bits, HASH_WINDOW_BY_RANK[1])) % 32;
      add(`r1 ${t} up ${up1}`);
      if (g !== gd) {
        const up2 = afresh ? Math.floor(afresh() * rank2Uplinks) : yarcHash(t % groupR1s, d, selectHashBits(bits, HASH_WINDOW_BY_RANK[2])) % rank2Uplinks;
        add(`r2 ${g}.${up1} up ${up2}`);
        add(`r3 ${up1}.${up2} down ${gd}`);
      }
      add(`r2 ${gd}.${up1} down ${td % groupR1s}`);
    }
  }
}

const worstOf = (load: Map<string, number>): [number, string] => {
  let most = 0;
  let at = '';
  for (const [key, value] of load)
    if (value > most) {
      most = value;
      at = key;
    }
  return [most, at];
};

const paperTree = processors <= 2048 ? processors / 32 : 32;
const TREES: { name: string; tree: Tree }[] = [
  { name: "weft's hash on that fat tree", tree: { groupR1s: paperTree, rank2Uplinks: 32, afresh: null } },
  { name: '… rank-2 uplink drawn per path', tree: { groupR1s: paperTree, rank2Uplinks: 32, afresh: mulberry32(11) } },
  { name: "… on BlackWidow's R2 subtrees", tree: { groupR1s: Math.min(16, processors / 32), rank2Uplinks: 16, afresh: mulberry32(13) } },
];
const random = mulberry32(7);
const worst = PATHS.map(() => 0);
const worstTree = TREES.map(() => PATHS.map(() => 0));
const where = PATHS.map(() => new Map<string, number>());
for (let k = 0; k < permutations; k++) {
  const pi = Array.from({ length: processors }, (_, i) => i);
  for (let i = processors - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pi[i], pi[j]] = [pi[j], pi[i]];
  }
  PATHS.forEach((np, x) => {
    const load = new Map<string, number>();
    configuredLoads(pi, np, load);
    const [most, at] = worstOf(load);
    worst[x] += most / permutations;
    const rank = at.replace(/^s\d+\.(r\d).*$/, '$1');
    where[x].set(rank, (where[x].get(rank) ?? 0) + 1);
    TREES.forEach(({ tree }, y) => {
      const loads = new Map<string, number>();
      fatTreeLoads(pi, np, loads, tree);
      worstTree[y][x] += worstOf(loads)[0] / permutations;
    });
  });
}
const row = (values: number[]) => values.map((v) => v.toFixed(2).padStart(6)).join('');
console.log(`Table 4 at ${processors} processors, ${permutations} random permutations, hash bits ${mode}, port seed ${portSeed}`);
console.log(`np                                ${PATHS.map((n) => String(n).padStart(6)).join('')}`);
console.log(`paper (radix-64 fat tree)         ${row(PAPER[processors] ?? [])}`);
TREES.forEach(({ name }, y) => console.log(`${name.padEnd(34)}${row(worstTree[y])}`));
console.log(`weft's configured ${network} slice      ${row(worst)}`);
console.log(`worst link leaves (rank: permutations): ${where.map((m, x) => `np=${PATHS[x]} ${[...m].map(([r, c]) => `${r}:${c}`).join(' ')}`).join('; ')}`);
