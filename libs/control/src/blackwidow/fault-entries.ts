/**
 * Fault entries (paper 000 §5.1, §7.7). A fault casts a shadow over the subtree below it; routers
 * outside the shadow that can reach the fault need higher-priority table entries for the subtrees
 * under it, whose port masks avoid every uplink or sidelink that would lead the packet to the fault
 * or to its ancestors. Here that is computed directly: for each virtual router and each
 * destination block it is still climbing towards, the ports from which every onward choice still
 * reaches the block; blocks whose usable set differs from their entry's become entries of their
 * own, merged into larger aligned blocks when the 8-entry table would overflow.
 */
import { locationMatches } from '@weft/fabric-model/chips/yarc';
import type { ConfigurationImage, RouterImage, TableEntry, VirtualRouterConfig } from './blackwidow-engine';
import { isLegalModulus, PORT_SIDELINK, PORT_UPLINK, TABLE_ENTRIES } from './blackwidow-engine';
import { FaultSet } from '../faults/fault-set';
import { GraphCable, portGraph, usablePorts, vrLayout } from './port-graph';

export function applyFaultEntries(
  image: ConfigurationImage,
  /** Cables as discovered (faulty or not: `faults` says which ends not to use). */
  cables: readonly GraphCable[],
  blocks: number,
  faults: FaultSet = FaultSet.NONE,
  /** Consider every block, not only those with a fault below them (the reference the restriction is tested against). */
  everyBlock = false,
): ConfigurationImage {
  const routers = image.routers;
  const vrs: { ri: number; config: VirtualRouterConfig }[] = [];
  routers.forEach((router, ri) => {
    for (const config of router.virtualRouters) vrs.push({ ri, config });
  });
  const graph = portGraph(routers, cables);
  const alive = usablePorts(graph, faults);
  const { portVr, farVr } = vrLayout(routers, graph);
  const inSubtree = (v: number, b: number) => {
    const [location, mask] = vrs[v].config.rootDetect;
    return locationMatches(b * 32, location, mask);
  };
  // Only blocks with a broken way down can need entries of their own: for every other block each
  // port of an entry still works, as long as every router can climb out of its subtree.
  // Slices are separate networks: a block is examined only in the slices where its fault lies.
  const sliceOf = (v: number) => routers[vrs[v].ri].slice & 31;
  const faultSlices = new Int32Array(blocks);
  const faulty = everyBlock
    ? Array.from({ length: blocks }, (_, b) => ((faultSlices[b] = -1), b))
    : faultBlocks(vrs, blocks, alive, farVr, sliceOf, faultSlices);
  const slot = new Int32Array(blocks).fill(-1);
  faulty.forEach((b, i) => (slot[b] = i));
  const n = faulty.length;
  // Can virtual router v deliver (fault) block b downwards? (memo: 0 unknown, 1 yes, 2 no)
  const down = new Uint8Array(vrs.length * n);
  const canDescend = (v: number, b: number): boolean => {
    const k = v * n + slot[b];
    if (down[k]) return down[k] === 1;
    let ok = inSubtree(v, b);
    if (ok) {
      const { config, ri } = vrs[v];
      const [shift, dmask] = config.downRoute;
      if (shift > 0) {
        const port = config.portMap[((b * 32) >>> shift) & dmask];
        ok = port >= 0 && alive[ri * 64 + port] === 1 && farVr[ri * 64 + port] >= 0 && canDescend(farVr[ri * 64 + port], b);
      }
    }
    down[k] = ok ? 1 : 2;
    return ok;
  };
  // Usable climbing/side ports of v for (fault) block b (64-bit mask as two words); memoised.
  const usableLo = new Int32Array(vrs.length * n);
  const usableHi = new Int32Array(vrs.length * n);
  const known = new Uint8Array(vrs.length * n);
  const usable = (v: number, b: number): void => {
    const k = v * n + slot[b];
    if (known[k]) return;
    known[k] = 1;
    const { config, ri } = vrs[v];
    const direction = routers[ri].portDirection;
    let lo = 0;
    let hi = 0;
    for (const entry of config.table) {
      for (const p of entry.ports) {
        if (!alive[ri * 64 + p]) continue;
        const next = farVr[ri * 64 + p];
        if (next < 0) continue;
        let works = false;
        if (direction[p] === PORT_SIDELINK) works = canDescend(next, b);
        else if (direction[p] === PORT_UPLINK) {
          if (inSubtree(next, b)) works = canDescend(next, b);
          else {
            usable(next, b);
            works = usableLo[next * n + slot[b]] !== 0 || usableHi[next * n + slot[b]] !== 0;
          }
        }
        if (!works) continue;
        if (p < 32) lo |= 1 << p;
        else hi |= 1 << (p - 32);
      }
    }
    usableLo[k] = lo;
    usableHi[k] = hi;
  };

  const problems = [...image.problems];
  // A router whose tables need no fault entry is kept as the same object (callers tell what changed by identity).
  let faultySlices = 0;
  for (const b of faulty) faultySlices |= faultSlices[b];
  const newRouters: RouterImage[] = routers.map((router, ri) => {
    if ((faultySlices & (1 << router.slice)) === 0) return router; // nothing to route around in its slice
    let changed = false;
    const virtualRouters = router.virtualRouters.map((config) => {
      const v = portVr[ri * 64 + config.tiles[0]];
      const inSlice = (b: number) => slot[b] >= 0 && (faultSlices[b] & (1 << router.slice)) !== 0;
      const refined = refineTable(router.name, router.rank === 1, v, config, blocks, faulty, slot, inSlice, inSubtree, usable, usableLo, usableHi, problems);
      if (refined !== config) changed = true;
      return refined;
    });
    return changed ? { ...router, virtualRouters } : router;
  });
  return { ...image, routers: newRouters, problems };
}

/**
 * Blocks of 32 processors below a down route that no longer works — a port-map slot with no live
 * link under it — with the slices where that happens as bits in `slices`; and so every block in
 * every slice, if some router cannot climb out of its subtree at all (then every block's usable
 * ports may differ from the entry's).
 */
function faultBlocks(
  vrs: readonly { ri: number; config: VirtualRouterConfig }[],
  blocks: number,
  alive: Uint8Array,
  farVr: Int32Array,
  sliceOf: (v: number) => number,
  slices: Int32Array,
): number[] {
  const everything = () => Array.from({ length: blocks }, (_, b) => ((slices[b] = -1), b));
  const marked = slices;
  for (let v = 0; v < vrs.length; v++) {
    const { ri, config } = vrs[v];
    let reach = config.rootDetect[1] + 1;
    for (const entry of config.table) {
      if (entry.ports.length === 0) return everything();
      reach += entry.mask + 1;
    }
    if (reach < blocks * 32) return everything();
    const [shift, slots] = config.downRoute;
    if (shift === 0) continue; // an R1: its processors are not routed around
    const location = config.rootDetect[0];
    for (let l = 0; l <= slots; l++) {
      const port = config.portMap[l];
      if (port >= 0 && alive[ri * 64 + port] === 1 && farVr[ri * 64 + port] >= 0) continue;
      const from = (location + (l << shift)) >> 5;
      const to = Math.max(from + 1, (location + ((l + 1) << shift)) >> 5);
      for (let b = from; b < Math.min(to, blocks); b++) marked[b] |= 1 << sliceOf(v);
    }
  }
  const out: number[] = [];
  for (let b = 0; b < blocks; b++) if (marked[b]) out.push(b);
  return out;
}

const portsOf = (lo: number, hi: number) => {
  const out: number[] = [];
  for (let p = 0; p < 32; p++) if (lo & (1 << p)) out.push(p);
  for (let p = 0; p < 32; p++) if (hi & (1 << p)) out.push(32 + p);
  return out;
};

function legal(ports: number[], chip: string, what: string, problems: string[]): number[] {
  if (ports.length === 0 || isLegalModulus(ports.length)) return ports;
  let n = ports.length;
  while (n > 0 && !isLegalModulus(n)) n--;
  problems.push(`${chip}: ${ports.length} usable ports towards ${what} is not a legal modulus; using ${n} (path diversity lost)`);
  return ports.slice(0, n);
}

function refineTable(
  chip: string,
  source: boolean,
  v: number,
  config: VirtualRouterConfig,
  blocks: number,
  faulty: readonly number[],
  slot: Int32Array,
  faultHere: (b: number) => boolean,
  inSubtree: (v: number, b: number) => boolean,
  usable: (v: number, b: number) => void,
  usableLo: Int32Array,
  usableHi: Int32Array,
  problems: string[],
): VirtualRouterConfig {
  if (config.table.length === 0) return config;
  const entries: TableEntry[] = [];
  const exceptions: { location: number; mask: number; lo: number; hi: number }[] = [];
  for (const entry of config.table) {
    // The blocks this entry covers that the router cannot resolve by root detect; those without a
    // fault below them keep every port of the entry.
    const first = entry.location >> 5;
    const count = Math.min(blocks - first, (entry.mask + 1) >> 5 || 1);
    let covered = 0;
    for (const b of faulty) if (b >= first && b < first + count && faultHere(b) && !inSubtree(v, b)) covered++;
    if (covered === 0) {
      entries.push(entry);
      continue;
    }
    const whole = { lo: maskOf(entry.ports, 0), hi: maskOf(entry.ports, 1) };
    const masks = new Map<string, { lo: number; hi: number; blocks: number[]; implicit: number; first: number }>();
    for (const b of faulty) {
      if (b < first || b >= first + count || !faultHere(b) || inSubtree(v, b)) continue;
      usable(v, b);
      const lo = usableLo[v * faulty.length + slot[b]] & whole.lo;
      const hi = usableHi[v * faulty.length + slot[b]] & whole.hi;
      const key = `${lo}:${hi}`;
      const group = masks.get(key) ?? { lo, hi, blocks: [], implicit: 0, first: Infinity };
      group.blocks.push(b);
      masks.set(key, group);
    }
    // The other blocks of the entry: all but the router's own subtree and the faulty ones.
    const [location, rootMask] = config.rootDetect;
    let own = 0;
    for (let b = Math.max(first, location >> 5); b < Math.min(first + count, (location + rootMask + 1 + 31) >> 5); b++) if (inSubtree(v, b)) own++;
    const outside = count - own - covered;
    let firstOutside = first;
    while (firstOutside < first + count && (faultHere(firstOutside) || inSubtree(v, firstOutside))) firstOutside++;
    if (outside > 0) {
      const key = `${whole.lo}:${whole.hi}`;
      const group = masks.get(key) ?? { lo: whole.lo, hi: whole.hi, blocks: [], implicit: 0, first: Infinity };
      group.implicit = outside;
      group.first = firstOutside;
      masks.set(key, group);
    }
    // The largest group keeps the entry (ties: the group of the lowest block); the others become
    // exceptions — including the blocks without a fault, when they are not the largest group.
    const size = (g: { blocks: number[]; implicit: number }) => g.blocks.length + g.implicit;
    const lowest = (g: { blocks: number[]; first: number }) => Math.min(g.blocks[0] ?? Infinity, g.first);
    const groups = [...masks.values()].sort((x, y) => size(y) - size(x) || lowest(x) - lowest(y));
    const base = groups[0];
    for (const g of groups.slice(1)) {
      if (g.implicit === 0) continue;
      for (let b = first; b < first + count; b++) if (!faultHere(b) && !inSubtree(v, b)) g.blocks.push(b);
      g.blocks.sort((x, y) => x - y);
    }
    entries.push(
      base.lo === whole.lo && base.hi === whole.hi
        ? entry
        : {
            location: entry.location,
            mask: entry.mask,
            ports: legal(portsOf(base.lo, base.hi), chip, `processors ${entry.location}–${entry.location + entry.mask}`, problems),
          },
    );
    for (const g of groups.slice(1)) {
      // A router above the R1s from which nothing leads to a block needs no entry for it: every
      // router that could send it such a packet finds this one unusable for that block and
      // avoids it. (An R1 is where packets start, so there the loss is real: it keeps a drop
      // entry and the verifier reports the processors it cannot reach.)
      if (g.lo === 0 && g.hi === 0 && !source) continue;
      for (const b of g.blocks) exceptions.push({ location: b * 32, mask: 31, lo: g.lo, hi: g.hi });
    }
  }
  // Merge exceptions into aligned blocks until the table fits (§5.1: 8 entries).
  while (entries.length + exceptions.length > TABLE_ENTRIES && exceptions.length > 1) {
    exceptions.sort((x, y) => x.location - y.location);
    let best = 1;
    let bestSize = Infinity;
    for (let i = 1; i < exceptions.length; i++) {
      const size = alignedCover(exceptions[i - 1], exceptions[i]).mask;
      if (size < bestSize) {
        bestSize = size;
        best = i;
      }
    }
    const x = exceptions[best - 1];
    const y = exceptions[best];
    const cover = alignedCover(x, y);
    problems.push(
      `${chip}: fault entries for processors ${x.location} and ${y.location} merged into ${cover.location}–${cover.location + cover.mask} to fit the table`,
    );
    exceptions.splice(best - 1, 2, { ...cover, lo: x.lo & y.lo, hi: x.hi & y.hi });
  }
  for (const e of exceptions) {
    const ports = legal(portsOf(e.lo, e.hi), chip, `processors ${e.location}–${e.location + e.mask}`, problems);
    if (ports.length === 0) problems.push(`${chip}: no usable port leads to processors ${e.location}–${e.location + e.mask}`);
    entries.push({ location: e.location, mask: e.mask, ports });
  }
  if (entries.length > TABLE_ENTRIES) problems.push(`${chip}: needs ${entries.length} table entries even after merging`);
  const same = entries.length === config.table.length && entries.every((e, i) => e === config.table[i]);
  return same ? config : { ...config, table: entries };
}

function maskOf(ports: readonly number[], word: number): number {
  let m = 0;
  for (const p of ports) if (p >> 5 === word) m |= 1 << (p & 31);
  return m;
}

function alignedCover(x: { location: number; mask: number }, y: { location: number; mask: number }): { location: number; mask: number } {
  const lo = Math.min(x.location, y.location);
  const hi = Math.max(x.location + x.mask, y.location + y.mask);
  let size = 1;
  while (true) {
    const location = lo - (lo % size);
    if (location + size - 1 >= hi) return { location, mask: size - 1 };
    size *= 2;
  }
}
