/**
 * The flattened butterfly's channel dependencies (issue 38; spec §3.4's verifier; Dally & Seitz:
 * deadlock-free where the graph of dependencies between (channel, VC) pairs is acyclic), for every
 * route an algorithm may take, adaptive choices included.
 *
 * Every route of §3.1's algorithms is made of dimension-order phases (a hop a dimension, lowest
 * first) or, for MIN AD, minimal hops in any order; a dependency is two consecutive hops at a
 * router. Which consecutive hops occur depends only on the dimensions they run in and on whether
 * the second returns to where the first came from — never on which router, since the fabric looks
 * the same from every router (fault-free). So the dependencies are rules over (dimension, VC):
 * - a dimension-order phase: a hop in d1, then one in d2 > d1, on the phase's VC (for MIN, the
 *   VC of the next hop: n′ − hops left);
 * - MIN AD: a hop in d1 on VC v, then one in any d2 ≠ d1 on v + 1;
 * - a phase boundary (VAL's and UGAL's intermediate, CLOS AD's turn): the last hop of phase 0 in
 *   d1 on its VC, then the first of phase 1 in any d2 on its VC — back to the router it came from
 *   only where a packet could want that (not when d1 is dimension 1 and d2 the last: the source
 *   and the destination would be one router).
 * The graph over (dimension, VC) is the fabric's graph folded: acyclic there, acyclic everywhere (a
 * cycle of channels would fold into a cycle of classes). Where it has a cycle, the rules are
 * applied channel by channel on the fabric's corner — up to three routers along each dimension,
 * every route between them a route of the whole fabric — and a cycle of channels found there is
 * shown, named by routers and VCs. The rules are checked against every route walked, on small
 * fabrics (flat-dependencies.spec.ts).
 */
import { FlatGrid, flatCoordinates, flatPeer, flatRouterCount, FlatRouting, flatVcsNeeded } from '@weft/fabric-model';

/**
 * The VC each hop takes: by the index §3.1's assignment gives it (MIN, MIN AD: n′ − hops left;
 * the others: the phase) — with detours (spec §3.6), minimal routing's index raised by one after
 * a detour, and each phase's hops after its detour on an index of their own (2: phase 0, 3: phase
 * 1) — mapped onto the VCs there are. With enough VCs the minimal map is the identity and the
 * two-phase one orders phase 0, phase 0 detoured, phase 1, phase 1 detoured; with fewer, the first
 * indexes share VC 0.
 */
export function flatVcAssignment(routing: FlatRouting, dimensions: number, vcs: number, detours = false): number[] {
  const needed = flatVcsNeeded(routing, dimensions, detours);
  const order = routing === 'min' || routing === 'min-ad' || !detours ? Array.from({ length: needed }, (_, i) => i) : [0, 2, 1, 3];
  return order.map((rank) => Math.max(0, rank - Math.max(0, needed - vcs)));
}

export interface FlatDependencyRule {
  readonly d1: number;
  readonly v1: number;
  readonly d2: number;
  readonly v2: number;
  /** The second hop may not return to the router the first came from. */
  readonly noReturn: boolean;
}

/**
 * The dependency rules of an algorithm on n′ dimensions with VC map `vcOf` (ideal index → VC) and,
 * where the configuration takes masked channels round (`detours`), a detour's two hops in one
 * dimension and the raised index after them. With detours the rules may hold more than the routes
 * make (a superset proves as well).
 */
export function flatDependencyRules(routing: FlatRouting, dimensions: number, vcOf: readonly number[], detours = false): FlatDependencyRule[] {
  const rules: FlatDependencyRule[] = [];
  const add = (d1: number, v1: number, d2: number, v2: number, noReturn = false) => rules.push({ d1, v1: vcOf[v1], d2, v2: vcOf[v2], noReturn });
  const n = dimensions;
  if (routing === 'min' && !detours) {
    // A route of h hops takes ideal VCs n′ − h … n′ − 1, ascending in dimension: a hop in d2 with
    // one before it has at most n′ − d2 after it, so its index is at least d2 − 1.
    for (let d1 = 1; d1 <= n; d1++) for (let d2 = d1 + 1; d2 <= n; d2++) for (let v = Math.max(0, d2 - 2); v + 1 < n; v++) add(d1, v, d2, v + 1);
  } else if (routing === 'min' || routing === 'min-ad') {
    const top = n + (detours ? 1 : 0);
    for (let d1 = 1; d1 <= n; d1++)
      for (let d2 = 1; d2 <= n; d2++) {
        if (d1 === d2 || (routing === 'min' && d2 < d1)) continue;
        for (let v = 0; v + 1 < top; v++) add(d1, v, d2, v + 1);
      }
    // A detour: its first hop on the index the hop had, its second (same dimension, onward) one up.
    if (detours) for (let d = 1; d <= n; d++) for (let v = 0; v + 1 < top; v++) add(d, v, d, v + 1, true);
  } else {
    // Ideal indexes: 0 phase 0, 1 phase 1, 2 phase 0 after its detour, 3 phase 1 after its detour.
    const phases: [number, number][] = detours
      ? [
          [0, 2],
          [1, 3],
        ]
      : [
          [0, -1],
          [1, -1],
        ];
    for (const [plain, detoured] of phases) {
      for (let d1 = 1; d1 <= n; d1++) for (let d2 = d1 + 1; d2 <= n; d2++) add(d1, plain, d2, plain);
      if (detoured < 0) continue;
      for (let d = 1; d <= n; d++) add(d, plain, d, detoured, true);
      for (let d1 = 1; d1 <= n; d1++) for (let d2 = d1 + 1; d2 <= n; d2++) add(d1, detoured, d2, detoured);
    }
    // The turn: back to where it came from needs the source and destination one router (VAL, UGAL:
    // when there is no dimension below d1 nor above d2 to tell them apart) or CLOS AD's h below d1
    // (when d1 is the last dimension) — unless the packet came by a detour.
    for (let d1 = 1; d1 <= n; d1++)
      for (let d2 = 1; d2 <= n; d2++) {
        add(d1, 0, d2, 1, d1 === d2 && (routing === 'clos-ad' ? d1 === n : n === 1));
        if (detours) add(d1, 2, d2, 1);
      }
  }
  return rules;
}

export interface FlatDependencyReport {
  readonly acyclic: boolean;
  /** (Dimension, VC) classes some hop uses, and the dependencies between them. */
  readonly classes: number;
  readonly classDependencies: number;
  /** A cycle of channels, each `r0.1 → r2.1 vc 0`, the first repeated at the end; null when acyclic. */
  readonly cycle: readonly string[] | null;
}

/** Proves an algorithm's VC assignment acyclic on a fabric, or shows a cycle of its channels. */
export function flatDependencies(grid: FlatGrid, routing: FlatRouting, vcOf: readonly number[], detours = false): FlatDependencyReport {
  const dims = grid.sizes.length;
  const rules = flatDependencyRules(routing, dims, vcOf, detours);
  const vcs = Math.max(...vcOf) + 1;
  const node = (d: number, v: number) => (d - 1) * vcs + v;
  const edges = new Map<number, Set<number>>();
  for (const r of rules) {
    let set = edges.get(node(r.d1, r.v1));
    if (!set) edges.set(node(r.d1, r.v1), (set = new Set()));
    set.add(node(r.d2, r.v2));
  }
  const classes = new Set<number>();
  for (const [from, to] of edges) {
    classes.add(from);
    for (const t of to) classes.add(t);
  }
  const classDependencies = [...edges.values()].reduce((s, e) => s + e.size, 0);
  const folded = findCycle(dims * vcs, (n) => edges.get(n) ?? []);
  if (!folded) return { acyclic: true, classes: classes.size, classDependencies, cycle: null };
  // Shown by channels where the corner makes one; else (a rule that cannot turn back where a
  // dimension has two routers) by classes, the verdict kept on the safe side.
  const cycle = channelCycle(grid, rules) ?? folded.map((n) => `dimension ${Math.floor(n / vcs) + 1} vc ${n % vcs}`);
  return { acyclic: false, classes: classes.size, classDependencies, cycle };
}

/** A cycle of the graph (nodes 0 … count − 1), as its nodes with the first repeated, or null. */
function findCycle(count: number, next: (n: number) => Iterable<number>): number[] | null {
  const state = new Uint8Array(count); // 0 new, 1 on the stack, 2 done
  const parent = new Int32Array(count).fill(-1);
  for (let root = 0; root < count; root++) {
    if (state[root]) continue;
    const stack: [number, Iterator<number>][] = [[root, next(root)[Symbol.iterator]()]];
    state[root] = 1;
    while (stack.length) {
      const [n, it] = stack[stack.length - 1];
      const step = it.next();
      if (step.done) {
        state[n] = 2;
        stack.pop();
        continue;
      }
      const m = step.value;
      if (state[m] === 1) {
        const cycle = [m];
        for (let x = n; x !== m; x = parent[x]) cycle.push(x);
        cycle.push(m);
        return cycle.reverse();
      }
      if (state[m] === 0) {
        state[m] = 1;
        parent[m] = n;
        stack.push([m, next(m)[Symbol.iterator]()]);
      }
    }
  }
  return null;
}

/** The fabric's channels (router, dimension, far router), and each router's outgoing ones. */
function channelsOf(grid: FlatGrid): { channels: { from: number; to: number; d: number }[]; out: number[][] } {
  const routers = flatRouterCount(grid);
  const channels: { from: number; to: number; d: number }[] = [];
  const out: number[][] = Array.from({ length: routers }, () => []);
  for (let r = 0; r < routers; r++)
    for (let d = 1; d <= grid.sizes.length; d++)
      for (let m = 0; m < grid.sizes[d - 1]; m++) {
        const to = flatPeer(grid, r, d, m);
        if (to === r) continue;
        out[r].push(channels.length);
        channels.push({ from: r, to, d });
      }
  return { channels, out };
}

/** The rules applied channel by channel: each (channel, VC) node's successors (node = channel × vcs + VC). */
function channelGraph(grid: FlatGrid, rules: readonly FlatDependencyRule[], vcs: number) {
  const { channels, out } = channelsOf(grid);
  const byFirst = new Map<string, FlatDependencyRule[]>();
  for (const r of rules) byFirst.set(`${r.d1}:${r.v1}`, [...(byFirst.get(`${r.d1}:${r.v1}`) ?? []), r]);
  const next = (n: number): number[] => {
    const c = channels[Math.floor(n / vcs)];
    const found = new Set<number>();
    for (const rule of byFirst.get(`${c.d}:${n % vcs}`) ?? [])
      for (const o of out[c.to]) {
        const c2 = channels[o];
        if (c2.d === rule.d2 && !(rule.noReturn && c2.to === c.from)) found.add(o * vcs + rule.v2);
      }
    return [...found];
  };
  const name = (n: number) => {
    const c = channels[Math.floor(n / vcs)];
    return `r${flatCoordinates(grid, c.from).join('.')} → r${flatCoordinates(grid, c.to).join('.')} vc ${n % vcs}`;
  };
  return { count: channels.length * vcs, next, name };
}

/** Every dependency the rules make on a (small) fabric, as `from|to` of channel names: for checking them against routes walked. */
export function flatChannelDependencies(grid: FlatGrid, routing: FlatRouting, vcOf: readonly number[]): Set<string> {
  const vcs = Math.max(...vcOf) + 1;
  const g = channelGraph(grid, flatDependencyRules(routing, grid.sizes.length, vcOf), vcs);
  const edges = new Set<string>();
  for (let n = 0; n < g.count; n++) for (const m of g.next(n)) edges.add(`${g.name(n)}|${g.name(m)}`);
  return edges;
}

/**
 * The rules applied channel by channel on the fabric's corner (coordinates below 3 in every
 * dimension): a cycle of (channel, VC) pairs there, named by the routers' names in the fabric.
 */
function channelCycle(grid: FlatGrid, rules: readonly FlatDependencyRule[]): string[] | null {
  const corner: FlatGrid = { k: grid.k, sizes: grid.sizes.map((s) => Math.min(s, 3)) };
  const vcs = Math.max(...rules.map((r) => Math.max(r.v1, r.v2))) + 1;
  const g = channelGraph(corner, rules, vcs);
  return findCycle(g.count, g.next)?.map(g.name) ?? null;
}
