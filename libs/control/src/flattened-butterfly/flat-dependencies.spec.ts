import { FlatGrid, flatCoordinates, flatPeer, flatRouterCount, FlatRouting, flatVcsNeeded } from '@weft/fabric-model';
import { flatChannelDependencies, flatDependencies, flatVcAssignment } from './flat-dependencies';

const ROUTINGS: FlatRouting[] = ['min', 'min-ad', 'val', 'ugal', 'ugal-s', 'clos-ad'];

/** Dimension-order hops from router u to w: [from, to] pairs, lowest dimension first. */
function dor(grid: FlatGrid, u: number, w: number): [number, number][] {
  const hops: [number, number][] = [];
  let at = u;
  for (let d = 1; d <= grid.sizes.length; d++) {
    const m = flatCoordinates(grid, w)[d - 1];
    const next = flatPeer(grid, at, d, m);
    if (next !== at) hops.push([at, next]);
    at = next;
  }
  return hops;
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/**
 * Every route §3.1's algorithms may take between every pair of routers, walked one by one (every
 * order of MIN AD's dimensions, every intermediate of VAL and UGAL, every intermediate CLOS AD's
 * adaptive phase can reach), and the dependencies between their consecutive hops.
 */
function walkedDependencies(grid: FlatGrid, routing: FlatRouting, vcOf: readonly number[]): Set<string> {
  const n = grid.sizes.length;
  const routers = flatRouterCount(grid);
  const name = (r: number) => `r${flatCoordinates(grid, r).join('.')}`;
  const edges = new Set<string>();
  const walk = (hops: [number, number, number][]) => {
    for (let i = 0; i + 1 < hops.length; i++) {
      const [a, b, v] = hops[i];
      const [c, e, w] = hops[i + 1];
      expect(b).toBe(c);
      edges.add(`${name(a)} → ${name(b)} vc ${vcOf[v]}|${name(c)} → ${name(e)} vc ${vcOf[w]}`);
    }
  };
  const onVc = (hops: [number, number][], vc: number) => hops.map(([a, b]): [number, number, number] => [a, b, vc]);
  for (let s = 0; s < routers; s++)
    for (let d = 0; d < routers; d++) {
      if (s === d) continue;
      const sc = flatCoordinates(grid, s);
      const dc = flatCoordinates(grid, d);
      const differing = sc.map((_, i) => i + 1).filter((dim) => sc[dim - 1] !== dc[dim - 1]);
      if (routing === 'min' || routing === 'min-ad') {
        const orders = routing === 'min' ? [differing] : permutations(differing);
        for (const order of orders) {
          let at = s;
          const hops: [number, number, number][] = [];
          order.forEach((dim, i) => {
            const next = flatPeer(grid, at, dim, dc[dim - 1]);
            hops.push([at, next, n - order.length + i]);
            at = next;
          });
          walk(hops);
        }
        continue;
      }
      walk(onVc(dor(grid, s, d), 1)); // UGAL's and CLOS AD's minimal choice; VAL's with b = s
      const h = Math.max(...differing);
      for (let b = 0; b < routers; b++) {
        if (routing !== 'val' && (b === s || b === d)) continue;
        // CLOS AD: intermediates reached by staying or moving in dimensions 1 … h only.
        if (routing === 'clos-ad' && flatCoordinates(grid, b).some((c, i) => i + 1 > h && c !== sc[i])) continue;
        walk([...onVc(dor(grid, s, b), 0), ...onVc(dor(grid, b, d), 1)]);
      }
    }
  return edges;
}

describe('flattened butterfly channel dependencies (paper 003 §3.1; spec §3.4)', () => {
  it.each(ROUTINGS)('makes exactly the dependencies of every %s route walked, on small fabrics, whatever the VCs', (routing) => {
    for (const grid of [
      { k: 2, sizes: [3] },
      { k: 2, sizes: [2] },
      { k: 2, sizes: [3, 2] },
      { k: 2, sizes: [3, 3] },
      { k: 2, sizes: [2, 3, 2] },
    ]) {
      const needed = flatVcsNeeded(routing, grid.sizes.length);
      for (const vcs of [needed, Math.max(1, needed - 1)]) {
        const vcOf = flatVcAssignment(routing, grid.sizes.length, vcs);
        expect(flatChannelDependencies(grid, routing, vcOf)).toEqual(walkedDependencies(grid, routing, vcOf));
      }
    }
  });

  it.each(ROUTINGS)('proves %s acyclic with the VCs it needs, up to the 64K-node 16-ary 4-flat', (routing) => {
    for (const grid of [
      { k: 32, sizes: [32] },
      { k: 16, sizes: [16, 16] },
      { k: 8, sizes: [8, 8, 8] },
      { k: 16, sizes: [16, 16, 16] },
    ]) {
      const report = flatDependencies(grid, routing, flatVcAssignment(routing, grid.sizes.length, flatVcsNeeded(routing, grid.sizes.length)));
      expect(report).toMatchObject({ acyclic: true, cycle: null });
    }
  });

  it.each(['min', 'val', 'ugal', 'clos-ad'] as FlatRouting[])(
    'proves %s acyclic with detours round masked channels on the VCs they add (spec §3.6), and shows the cycle on too few',
    (routing) => {
      for (const grid of [
        { k: 32, sizes: [32] },
        { k: 8, sizes: [8, 8, 8] },
      ]) {
        const dims = grid.sizes.length;
        const enough = flatVcsNeeded(routing, dims, true);
        expect(flatDependencies(grid, routing, flatVcAssignment(routing, dims, enough, true), true)).toMatchObject({ acyclic: true });
        const short = flatDependencies(grid, routing, flatVcAssignment(routing, dims, enough - 1, true), true);
        expect(short.acyclic).toBe(false);
        expect(short.cycle!.length).toBeGreaterThan(2);
      }
    },
  );

  it('catches a short VC budget and shows the cycle: VAL on one VC on the 32-ary 2-flat, MIN AD on two VCs over three dimensions', () => {
    const val = flatDependencies({ k: 32, sizes: [32] }, 'val', flatVcAssignment('val', 1, 1));
    expect(val.acyclic).toBe(false);
    // Three routers of the one dimension, each channel to the next: r0 → r1 → r2 → r0, all on VC 0.
    expect(val.cycle).toEqual(['r0 → r1 vc 0', 'r1 → r2 vc 0', 'r2 → r0 vc 0', 'r0 → r1 vc 0']);
    const minAd = flatDependencies({ k: 8, sizes: [8, 8, 8] }, 'min-ad', flatVcAssignment('min-ad', 3, 2));
    expect(minAd.acyclic).toBe(false);
    const hops = minAd.cycle!;
    expect(hops[0]).toBe(hops[hops.length - 1]);
    // Each hop leaves from where the one before arrived.
    for (let i = 0; i + 1 < hops.length; i++) expect(hops[i + 1].split(' → ')[0]).toBe(hops[i].split(' → ')[1].split(' ')[0]);
  });
});
