/**
 * Routing around faults in software for BlueGene/L (paper 002 §2: "The hardware does not have the
 * capability to route around 'dead' nodes or links, however, software can set the hint bits
 * appropriately so that such nodes are avoided"; spec §1.6). For every live source, the
 * route-override table its software consults at injection (route-override-table.ts has the format
 * and the node's rule).
 *
 * Per pair the preference is the spec's: the hardware's dynamic minimal route when its hint box
 * (every node and link a minimal adaptive route or its dimension-ordered escape may use) holds no
 * fault; else a minimal static xyz route that avoids them; else, in what this file calls a hard
 * region, every valid direct route with software-chosen directions (the long way round in some
 * dimensions, dynamic before static) and the cheapest valid relay of a fixed set of shapes (a
 * neighbour of the source, or a corner mixing source and destination coordinates, which reorders
 * the dimensions); and where none of those is valid, every live relay with every pair of direct
 * legs, per destination. A pair is reported cut only when that last search finds nothing, so "cut"
 * means exactly: no direct route and no two-leg route of the repertoire avoids the faults.
 *
 * It scales by never going pair by pair where it need not (the 64K machine has 4·10⁹ pairs): a
 * source's destinations are cut, per dimension, at the coordinates where any route's validity can
 * change — the source's own, its minimal-direction boundaries, and each fault's coordinate and the
 * next — so that validity is the same throughout each cell of the product and one destination per
 * cell decides it. Only cells inside some fault's shadow (the destinations whose hint box holds the
 * fault) are looked at, and equal neighbouring cells are merged into one table entry.
 */
import {
  CANDIDATE_WORDS,
  DIRECTION_MINIMAL,
  DIRECTION_MINUS,
  DIRECTION_PLUS,
  ENTRY_HEADER_WORDS,
  LEG_DYNAMIC,
  LEG_STATIC,
  legWord,
  NO_SECOND_LEG,
  RELAY_ABSOLUTE,
  RELAY_FROM_DESTINATION,
  RELAY_FROM_SOURCE,
  relayWord,
  TABLE_HEADER_WORDS,
  Torus,
} from '@weft/fabric-model';
import type { TorusFaults } from './torus-faults';

export interface RouteOverridePolicy {
  /** What a software relay costs, in hops, when the node compares candidates (the receive and
   * re-inject by the relay's software). Not in the paper: weft's setting, 8 by default — about the
   * time a 256-byte packet takes on one link, 268 byte cycles, being roughly a hop of a loaded machine. */
  readonly relayPenaltyHops: number;
}

export const DEFAULT_ROUTE_OVERRIDE_POLICY: RouteOverridePolicy = { relayPenaltyHops: 8 };

/** A live destination no route of the repertoire reaches from a live source. */
export interface CutPair {
  readonly source: number;
  readonly destination: number;
}

export interface RouteOverrides {
  /** Per node, its table's words; null for a dead node (nothing is written to it). */
  readonly tables: (readonly number[] | null)[];
  readonly cut: readonly CutPair[];
  /** What it took: table entries written, hard cells examined, destinations searched one by one. */
  readonly figures: { readonly entries: number; readonly hardCells: number; readonly searchedDestinations: number };
}

const MAX_INTERVALS = 64;

/** Scratch, allocated once at an upper bound (STYLE.md). */
class Scratch {
  readonly starts = [new Int32Array(MAX_INTERVALS), new Int32Array(MAX_INTERVALS), new Int32Array(MAX_INTERVALS)];
  readonly lengths = [new Int32Array(MAX_INTERVALS), new Int32Array(MAX_INTERVALS), new Int32Array(MAX_INTERVALS)];
  readonly counts = new Int32Array(3);
  readonly mask = [new Uint8Array(MAX_INTERVALS), new Uint8Array(MAX_INTERVALS), new Uint8Array(MAX_INTERVALS)];
  keys = new Int32Array(MAX_INTERVALS * MAX_INTERVALS * MAX_INTERVALS);
  done = new Uint8Array(MAX_INTERVALS * MAX_INTERVALS * MAX_INTERVALS);
}

/**
 * The fault coordinates as flat arrays for the arc tests: nodes (x, y, z), links (x, y, z,
 * dimension, sign) by the node they leave.
 */
class FaultCoordinates {
  readonly nodeCount: number;
  readonly node: Int32Array;
  readonly linkCount: number;
  readonly link: Int32Array;

  constructor(torus: Torus, faults: TorusFaults) {
    this.nodeCount = faults.nodes.length;
    this.node = new Int32Array(3 * this.nodeCount);
    faults.nodes.forEach((n, i) => this.node.set(torus.coordinates(n), 3 * i));
    this.linkCount = faults.links.length;
    this.link = new Int32Array(5 * this.linkCount);
    faults.links.forEach((l, i) => {
      this.link.set(torus.coordinates(l.node), 5 * i);
      this.link[5 * i + 3] = l.direction >> 1;
      this.link[5 * i + 4] = (l.direction & 1) === 0 ? 1 : -1;
    });
  }
}

/** The routes this compiler tries, as leg words. */
const DYNAMIC_MINIMAL = legWord(LEG_DYNAMIC, [DIRECTION_MINIMAL, DIRECTION_MINIMAL, DIRECTION_MINIMAL]);
const STATIC_MINIMAL = legWord(LEG_STATIC, [DIRECTION_MINIMAL, DIRECTION_MINIMAL, DIRECTION_MINIMAL]);
/** Every leg of the repertoire: both kinds, every direction choice (plus and minus explicitly). */
const ALL_LEGS: readonly number[] = (() => {
  const legs: number[] = [];
  for (const kind of [LEG_DYNAMIC, LEG_STATIC])
    for (const x of [DIRECTION_MINIMAL, DIRECTION_PLUS, DIRECTION_MINUS])
      for (const y of [DIRECTION_MINIMAL, DIRECTION_PLUS, DIRECTION_MINUS])
        for (const z of [DIRECTION_MINIMAL, DIRECTION_PLUS, DIRECTION_MINUS]) legs.push(legWord(kind, [x, y, z]));
  return legs;
})();

/** The compiler for one torus and fault set; `compile` fills every live source's table. */
export class RouteOverrideCompiler {
  private readonly f: FaultCoordinates;
  /** The grid a source's destinations are cut into, and the finer one of a hard cell. */
  private readonly coarse = new Scratch();
  private readonly fine = new Scratch();
  /** The best first leg to every relay from the source searched last (searchEach). */
  private searchSource = -1;
  private readonly firstLeg: Int32Array;
  private readonly firstHops: Int32Array;
  private readonly a = [0, 0, 0];
  private readonly b = [0, 0, 0];
  private readonly signs = [0, 0, 0];
  private readonly t = [0, 0, 0];
  private readonly r = [0, 0, 0];
  private entries = 0;
  private hardCells = 0;
  private searched = 0;
  private readonly cut: CutPair[] = [];

  constructor(
    readonly torus: Torus,
    readonly faults: TorusFaults,
    readonly policy: RouteOverridePolicy = DEFAULT_ROUTE_OVERRIDE_POLICY,
  ) {
    this.f = new FaultCoordinates(torus, faults);
    this.firstLeg = new Int32Array(torus.size);
    this.firstHops = new Int32Array(torus.size);
  }

  /** Every live source's table (or those of `sources` only, the others left null). */
  compile(sources?: Iterable<number>): RouteOverrides {
    const tables: (number[] | null)[] = new Array(this.torus.size).fill(null);
    for (const s of sources ?? range(this.torus.size)) if (!this.faults.deadNode[s]) tables[s] = this.table(s);
    return { tables, cut: this.cut, figures: { entries: this.entries, hardCells: this.hardCells, searchedDestinations: this.searched } };
  }

  /** One source's table. */
  table(s: number): number[] {
    const words = [this.policy.relayPenaltyHops, 0];
    if (this.faults.empty) return words;
    const torus = this.torus;
    const sc = torus.coordinates(s);
    const grid = this.coarse;
    const { starts, counts, mask, keys, done } = grid;
    for (let d = 0; d < 3; d++) this.cutDimension(grid, d, torus.shape[d], sourceBreakpoints(sc[d], torus.shape[d]), sc[d], torus.shape[d]);
    const [nx, ny, nz] = counts;
    const cells = nx * ny * nz;
    keys.fill(0, 0, cells);
    done.fill(0, 0, cells);
    // The fault shadows: destinations whose minimal hint box holds a fault.
    for (let i = 0; i < this.f.nodeCount + this.f.linkCount; i++) {
      let any = true;
      for (let d = 0; d < 3 && any; d++) {
        any = false;
        for (let j = 0; j < counts[d]; j++) {
          mask[d][j] = this.inShadow(i, d, sc[d], starts[d][j]) ? 1 : 0;
          if (mask[d][j]) any = true;
        }
      }
      if (!any) continue;
      for (let z = 0; z < nz; z++) {
        if (!mask[2][z]) continue;
        for (let y = 0; y < ny; y++) {
          if (!mask[1][y]) continue;
          for (let x = 0; x < nx; x++) if (mask[0][x]) keys[x + nx * (y + ny * z)] = 1;
        }
      }
    }
    // Decide each shadowed cell by one destination in it: static minimal (key 1) or hard (key 2).
    const hard: number[] = [];
    for (let c = 0; c < cells; c++) {
      if (keys[c] === 0) continue;
      const x = c % nx;
      const y = Math.floor(c / nx) % ny;
      const z = Math.floor(c / (nx * ny));
      this.t[0] = starts[0][x];
      this.t[1] = starts[1][y];
      this.t[2] = starts[2][z];
      if (!this.legBlocked(DYNAMIC_MINIMAL, sc, this.t)) keys[c] = 0;
      else if (!this.legBlocked(STATIC_MINIMAL, sc, this.t)) keys[c] = 1;
      else {
        keys[c] = 2;
        hard.push(x, y, z);
      }
    }
    // Hard cells first: their entries are written before the merged static boxes, which may then
    // grow over them (the first entry holding a destination decides).
    for (let i = 0; i < hard.length; i += 3) {
      this.hardCells++;
      this.hardCell(s, sc, hard[i], hard[i + 1], hard[i + 2], words);
    }
    // Static minimal boxes: hard cells count as matching (they are decided by earlier entries).
    for (let c = 0; c < cells; c++) if (keys[c] === 2) keys[c] = -1;
    mergeBoxes(nx, ny, nz, keys, done, (key, x0, x1, y0, y1, z0, z1) => {
      if (key !== 1) return;
      this.pushBox(words, grid, x0, x1, y0, y1, z0, z1);
      words.push(1, STATIC_MINIMAL, NO_SECOND_LEG, 0, 0, 0);
      words[1]++;
      this.entries++;
    });
    return words;
  }

  /**
   * A hard cell (neither minimal route valid): cut finer at the coordinates the relay shapes care
   * about, and give each piece its candidates — or, where no shape serves, search per destination.
   */
  private hardCell(s: number, sc: number[], cx: number, cy: number, cz: number, words: number[]): void {
    const torus = this.torus;
    const coarse = this.coarse;
    const grid = this.fine;
    const { counts, starts, keys, done } = grid;
    const cell = [cx, cy, cz];
    for (let d = 0; d < 3; d++) {
      const k = torus.shape[d];
      const points = sourceBreakpoints(sc[d], k);
      for (const c of [(sc[d] + k - 1) % k, (sc[d] + 1) % k]) points.push(...sourceBreakpoints(c, k));
      this.cutDimension(grid, d, k, points, coarse.starts[d][cell[d]], coarse.lengths[d][cell[d]]);
    }
    const [nx, ny, nz] = counts;
    const lists: number[][] = [];
    const listKeys = new Map<string, number>();
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++) {
          this.t[0] = starts[0][x];
          this.t[1] = starts[1][y];
          this.t[2] = starts[2][z];
          // A dead destination is a cell of its own (faults' coordinates cut the grid): unreachable.
          const dead = this.faults.deadNode[torus.index(this.t[0], this.t[1], this.t[2])] === 1;
          const list = dead ? [] : this.candidates(s, sc, this.t);
          const key = dead ? 'dead' : list.join(',');
          let id = listKeys.get(key);
          if (id === undefined) {
            id = lists.length + 1;
            listKeys.set(key, id);
            lists.push(list);
          }
          keys[x + nx * (y + ny * z)] = id;
        }
    done.fill(0, 0, nx * ny * nz);
    const searches: number[][] = [];
    const deadKey = listKeys.get('dead');
    mergeBoxes(nx, ny, nz, keys, done, (key, x0, x1, y0, y1, z0, z1) => {
      const list = lists[key - 1];
      if (list.length === 0 && key !== deadKey) {
        searches.push([x0, x1, y0, y1, z0, z1]);
        return;
      }
      this.pushBox(words, grid, x0, x1, y0, y1, z0, z1);
      words.push(list.length / CANDIDATE_WORDS, ...list);
      words[1]++;
      this.entries++;
    });
    for (const [x0, x1, y0, y1, z0, z1] of searches) this.searchEach(s, sc, grid, x0, x1, y0, y1, z0, z1, words);
  }

  /** The valid candidates for destination `t` in a hard cell, as candidate words (empty: none). */
  private candidates(s: number, sc: number[], t: number[]): number[] {
    const torus = this.torus;
    const out: number[] = [];
    // Direct routes with software-chosen directions: flip any moving dimension to the long way.
    const moving = [0, 1, 2].filter((d) => t[d] !== sc[d]);
    for (let flips = 1; flips < 1 << moving.length; flips++) {
      const dirs = [DIRECTION_MINIMAL, DIRECTION_MINIMAL, DIRECTION_MINIMAL];
      moving.forEach((d, i) => {
        if (flips & (1 << i)) dirs[d] = torus.minimalSign(d, sc[d], t[d]) > 0 ? DIRECTION_MINUS : DIRECTION_PLUS;
      });
      const dynamic = legWord(LEG_DYNAMIC, dirs);
      if (!this.legBlocked(dynamic, sc, t)) out.push(dynamic, NO_SECOND_LEG, 0, 0, 0);
      else {
        const fixed = legWord(LEG_STATIC, dirs);
        if (!this.legBlocked(fixed, sc, t)) out.push(fixed, NO_SECOND_LEG, 0, 0, 0);
      }
    }
    // Relays of fixed shapes, minimal legs; the cheapest valid one (the node compares it with the
    // direct routes above per destination).
    let best: number[] | undefined;
    let bestCost = Infinity;
    const tryRelay = (relay: number[], bases: number[], offsets: number[]) => {
      const rNode = torus.index(relay[0], relay[1], relay[2]);
      if (
        this.faults.deadNode[rNode] ||
        (relay[0] === sc[0] && relay[1] === sc[1] && relay[2] === sc[2]) ||
        (relay[0] === t[0] && relay[1] === t[1] && relay[2] === t[2])
      )
        return;
      for (const first of [DYNAMIC_MINIMAL, STATIC_MINIMAL]) {
        if (this.legBlocked(first, sc, relay)) continue;
        for (const second of [DYNAMIC_MINIMAL, STATIC_MINIMAL]) {
          if (this.legBlocked(second, relay, t)) continue;
          const cost = this.minimalHops(sc, relay) + this.minimalHops(relay, t);
          if (cost < bestCost) {
            bestCost = cost;
            best = [first, second, ...bases.map((base, d) => relayWord(base, offsets[d]))];
          }
          return;
        }
      }
    };
    // A corner: the destination's coordinates in some dimensions, the source's in the others.
    for (let subset = 1; subset < 7; subset++) {
      const bases = [0, 1, 2].map((d) => (subset & (1 << d) ? RELAY_FROM_DESTINATION : RELAY_FROM_SOURCE));
      tryRelay(
        [0, 1, 2].map((d) => (subset & (1 << d) ? t[d] : sc[d])),
        bases,
        [0, 0, 0],
      );
    }
    // A neighbour of the source.
    for (let dir = 0; dir < 6; dir++) {
      const d = dir >> 1;
      const sign = (dir & 1) === 0 ? 1 : -1;
      if (!this.faults.linkUsable(s, dir)) continue;
      const relay = [...sc];
      relay[d] = (sc[d] + sign + torus.shape[d]) % torus.shape[d];
      tryRelay(
        relay,
        [RELAY_FROM_SOURCE, RELAY_FROM_SOURCE, RELAY_FROM_SOURCE],
        [0, 1, 2].map((e) => (e === d ? sign : 0)),
      );
    }
    if (best) out.push(...best);
    return out;
  }

  /** Destinations no candidate of the shapes serves: every live relay with every pair of legs. */
  private searchEach(s: number, sc: number[], grid: Scratch, x0: number, x1: number, y0: number, y1: number, z0: number, z1: number, words: number[]): void {
    const torus = this.torus;
    const first = this.firstLeg;
    const firstHops = this.firstHops;
    if (this.searchSource !== s) {
      this.searchSource = s;
      first.fill(-1);
      for (let r = 0; r < torus.size; r++) {
        if (r === s || this.faults.deadNode[r]) continue;
        const rc = torus.coordinates(r);
        for (const leg of ALL_LEGS) {
          if (this.legBlocked(leg, sc, rc)) continue;
          const hops = this.legHops(leg, sc, rc);
          if (first[r] < 0 || hops < firstHops[r]) {
            first[r] = leg;
            firstHops[r] = hops;
          }
        }
      }
    }
    const span = (d: number, i0: number, i1: number) => {
      const out: number[] = [];
      const k = torus.shape[d];
      for (let i = i0; i <= i1; i++) for (let j = 0; j < grid.lengths[d][i]; j++) out.push((grid.starts[d][i] + j) % k);
      return out;
    };
    for (const tz of span(2, z0, z1))
      for (const ty of span(1, y0, y1))
        for (const tx of span(0, x0, x1)) {
          this.searched++;
          const t = [tx, ty, tz];
          const tNode = torus.index(tx, ty, tz);
          let best: number[] = [];
          let bestCost = Infinity;
          if (!this.faults.deadNode[tNode]) {
            for (let r = 0; r < torus.size; r++) {
              if (first[r] < 0 || r === tNode) continue;
              const rc = torus.coordinates(r);
              for (const leg of ALL_LEGS) {
                if (this.legBlocked(leg, rc, t)) continue;
                const cost = firstHops[r] + this.legHops(leg, rc, t);
                if (cost < bestCost) {
                  bestCost = cost;
                  best = [first[r], leg, relayWord(RELAY_ABSOLUTE, rc[0]), relayWord(RELAY_ABSOLUTE, rc[1]), relayWord(RELAY_ABSOLUTE, rc[2])];
                }
              }
            }
            if (best.length === 0) this.cut.push({ source: s, destination: tNode });
          }
          words.push(tx, 1, ty, 1, tz, 1, best.length / CANDIDATE_WORDS, ...best);
          words[1]++;
          this.entries++;
        }
  }

  private pushBox(words: number[], grid: Scratch, x0: number, x1: number, y0: number, y1: number, z0: number, z1: number): void {
    const ends = [
      [x0, x1],
      [y0, y1],
      [z0, z1],
    ];
    for (let d = 0; d < 3; d++) {
      let len = 0;
      for (let i = ends[d][0]; i <= ends[d][1]; i++) len += grid.lengths[d][i];
      words.push(grid.starts[d][ends[d][0]], len);
    }
  }

  /**
   * Cuts the arc of `len` coordinates from `lo` of dimension `d` into intervals at `points` and at
   * every fault's coordinate and the next, in ring order from `lo`, into the scratch grid.
   */
  private cutDimension(grid: Scratch, d: number, k: number, points: number[], lo: number, len: number): void {
    const cuts = new Uint8Array(k);
    cuts[lo] = 1;
    for (const p of points) cuts[((p % k) + k) % k] = 1;
    for (let i = 0; i < this.f.nodeCount; i++) {
      const c = this.f.node[3 * i + d];
      cuts[c] = 1;
      cuts[(c + 1) % k] = 1;
    }
    for (let i = 0; i < this.f.linkCount; i++) {
      const c = this.f.link[5 * i + d];
      cuts[c] = 1;
      cuts[(c + 1) % k] = 1;
    }
    const { starts, lengths, counts } = grid;
    let n = 0;
    for (let j = 0; j < len; j++) {
      const c = (lo + j) % k;
      if (cuts[c] || j === 0) {
        starts[d][n] = c;
        lengths[d][n] = 0;
        n++;
      }
      lengths[d][n - 1]++;
    }
    counts[d] = n;
  }

  /** Whether fault `i` (nodes first, then links) is in the minimal hint box from `s` to `t` in dimension `d`. */
  private inShadow(i: number, d: number, s: number, t: number): boolean {
    const torus = this.torus;
    const sign = torus.minimalSign(d, s, t);
    if (i < this.f.nodeCount) {
      const c = this.f.node[3 * i + d];
      return sign === 0 ? c === s : torus.onArc(d, c, s, t, sign);
    }
    const l = 5 * (i - this.f.nodeCount);
    const c = this.f.link[l + d];
    if (this.f.link[l + 3] !== d) return sign === 0 ? c === s : torus.onArc(d, c, s, t, sign);
    const linkSign = this.f.link[l + 4];
    return sign === linkSign && torus.hops(d, s, c, sign) + 1 <= torus.hops(d, s, t, sign);
  }

  private legSigns(leg: number, a: ArrayLike<number>, b: ArrayLike<number>): void {
    for (let d = 0; d < 3; d++) {
      const choice = (leg >> (1 + 2 * d)) & 3;
      this.signs[d] = a[d] === b[d] ? 0 : choice === DIRECTION_PLUS ? 1 : choice === DIRECTION_MINUS ? -1 : this.torus.minimalSign(d, a[d], b[d]);
    }
  }

  private legHops(leg: number, a: ArrayLike<number>, b: ArrayLike<number>): number {
    this.legSigns(leg, a, b);
    let hops = 0;
    for (let d = 0; d < 3; d++) if (this.signs[d] !== 0) hops += this.torus.hops(d, a[d], b[d], this.signs[d]);
    return hops;
  }

  private minimalHops(a: ArrayLike<number>, b: ArrayLike<number>): number {
    return this.torus.distance(0, a[0], b[0]) + this.torus.distance(1, a[1], b[1]) + this.torus.distance(2, a[2], b[2]);
  }

  /**
   * Whether a fault lies on leg `leg` from `a` to `b` (coordinates): for a dynamic leg anywhere in
   * its hint box (the nodes between a and b in every dimension, and the links between them in the
   * directions it moves); for a static leg on its x, then y, then z segments.
   */
  legBlocked(leg: number, a: ArrayLike<number>, b: ArrayLike<number>): boolean {
    const torus = this.torus;
    this.legSigns(leg, a, b);
    const sg = this.signs;
    const f = this.f;
    const dynamic = (leg & 1) === LEG_DYNAMIC;
    const on = (d: number, c: number) => (sg[d] === 0 ? c === a[d] : torus.onArc(d, c, a[d], b[d], sg[d]));
    for (let i = 0; i < f.nodeCount; i++) {
      const x = f.node[3 * i];
      const y = f.node[3 * i + 1];
      const z = f.node[3 * i + 2];
      if (dynamic) {
        if (on(0, x) && on(1, y) && on(2, z)) return true;
      } else if ((y === a[1] && z === a[2] && on(0, x)) || (x === b[0] && z === a[2] && on(1, y)) || (x === b[0] && y === b[1] && on(2, z))) return true;
    }
    for (let i = 0; i < f.linkCount; i++) {
      const l = 5 * i;
      const e = f.link[l + 3];
      const sign = f.link[l + 4];
      if (sg[e] !== sign) continue;
      const u = [f.link[l], f.link[l + 1], f.link[l + 2]];
      const crosses = torus.hops(e, a[e], u[e], sign) + 1 <= torus.hops(e, a[e], b[e], sign);
      if (!crosses) continue;
      if (dynamic) {
        let inside = true;
        for (let d = 0; d < 3; d++) if (d !== e && !on(d, u[d])) inside = false;
        if (inside) return true;
      } else {
        // The segment of dimension e runs with the earlier dimensions at b's and the later at a's.
        let line = true;
        for (let d = 0; d < 3; d++) if (d !== e && u[d] !== (d < e ? b[d] : a[d])) line = false;
        if (line) return true;
      }
    }
    return false;
  }
}

/** Where the minimal direction from coordinate `c` changes: c itself, c+1, and the half-way point. */
function sourceBreakpoints(c: number, k: number): number[] {
  const points = [c, c + 1];
  if (k % 2 === 0) points.push(c + k / 2, c + k / 2 + 1);
  else points.push(c + (k + 1) / 2);
  return points.map((p) => p % k);
}

/**
 * Greedy box cover of a grid of keys (0: nothing to cover; −1: covered already, may be grown
 * over): each uncovered cell grows along x, then y, then z while the cells keep its key.
 */
export function mergeBoxes(
  nx: number,
  ny: number,
  nz: number,
  keys: Int32Array,
  done: Uint8Array,
  emit: (key: number, x0: number, x1: number, y0: number, y1: number, z0: number, z1: number) => void,
): void {
  const at = (x: number, y: number, z: number) => x + nx * (y + ny * z);
  const fits = (key: number, x0: number, x1: number, y0: number, y1: number, z0: number, z1: number) => {
    for (let z = z0; z <= z1; z++)
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const c = at(x, y, z);
          if (keys[c] !== key && keys[c] !== -1) return false;
        }
    return true;
  };
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        const c = at(x, y, z);
        const key = keys[c];
        if (key <= 0 || done[c]) continue;
        let x1 = x;
        while (x1 + 1 < nx && fits(key, x1 + 1, x1 + 1, y, y, z, z)) x1++;
        let y1 = y;
        while (y1 + 1 < ny && fits(key, x, x1, y1 + 1, y1 + 1, z, z)) y1++;
        let z1 = z;
        while (z1 + 1 < nz && fits(key, x, x1, y, y1, z1 + 1, z1 + 1)) z1++;
        for (let zz = z; zz <= z1; zz++) for (let yy = y; yy <= y1; yy++) for (let xx = x; xx <= x1; xx++) done[at(xx, yy, zz)] = 1;
        emit(key, x, x1, y, y1, z, z1);
      }
}

function* range(n: number): Iterable<number> {
  for (let i = 0; i < n; i++) yield i;
}

export const ROUTE_OVERRIDE_WORDS = { TABLE_HEADER_WORDS, ENTRY_HEADER_WORDS, CANDIDATE_WORDS };
