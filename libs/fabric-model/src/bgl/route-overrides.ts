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
import * as format from './route-override-table';
import type { Torus } from '../torus/torus';
import {
  BOX_DOWN,
  BOX_FLIP,
  BOX_MIN,
  BOX_UP,
  EQ_DOWN,
  EQ_S,
  EQ_S_NODES,
  EQ_T,
  EQ_T_NODES,
  EQ_UP,
  FaultCoordinates,
  INTERVAL_MASKS,
  meets3,
  meetsStatic,
  SEG_DOWN,
  SEG_FLIP,
  SEG_MIN,
  SEG_UP,
  SOURCE_MASKS,
} from './cell-masks';
import type { TorusFaults } from './torus-faults';

// The table's format, read once (an imported binding is a property load per use; a getter under
// the test runner).
const CANDIDATE_WORDS = format.CANDIDATE_WORDS;
const DIRECTION_MINIMAL = format.DIRECTION_MINIMAL;
const DIRECTION_MINUS = format.DIRECTION_MINUS;
const DIRECTION_PLUS = format.DIRECTION_PLUS;
const LEG_DYNAMIC = format.LEG_DYNAMIC;
const LEG_STATIC = format.LEG_STATIC;
const NO_SECOND_LEG = format.NO_SECOND_LEG;
const RELAY_ABSOLUTE = format.RELAY_ABSOLUTE;
const RELAY_FROM_DESTINATION = format.RELAY_FROM_DESTINATION;
const RELAY_FROM_SOURCE = format.RELAY_FROM_SOURCE;
const { legWord, relayWord } = format;

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

/** A grid of destination intervals per dimension and its masks, allocated once at an upper bound (STYLE.md). */
class Grid {
  readonly starts: Int32Array[];
  readonly lengths: Int32Array[];
  readonly counts = new Int32Array(3);
  readonly keys: Int32Array;
  readonly done: Uint8Array;

  /** For a torus: no dimension has more intervals than coordinates. */
  constructor(torus: Torus) {
    this.starts = torus.shape.map((k) => new Int32Array(k));
    this.lengths = torus.shape.map((k) => new Int32Array(k));
    this.keys = new Int32Array(torus.size);
    this.done = new Uint8Array(torus.size);
  }
}

/** The routes this compiler tries, as leg words. */
const DYNAMIC_MINIMAL = format.HARDWARE_LEG;
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
  private readonly coarse: Grid;
  private readonly fine: Grid;
  /** Per dimension, the interval masks for every source and destination coordinate, and the
   * source masks for every source coordinate (cell-masks.ts). */
  private readonly masks: Int32Array[];
  private readonly sourceMasks: Int32Array[];
  /** Per dimension, the coordinates every grid is cut at (each fault's and the next), and scratch. */
  private readonly faultCuts: Uint8Array[];
  private readonly cuts: Uint8Array[];
  /** Where the current source's masks start, per dimension. */
  private readonly maskAt = [0, 0, 0];
  private readonly sourceAt = [0, 0, 0];
  private readonly W: number;
  /** The best first leg to every relay from the source searched last (searchEach). */
  private searchSource = -1;
  private readonly firstLeg: Int32Array;
  private readonly firstHops: Int32Array;
  private readonly a = [0, 0, 0];
  private readonly b = [0, 0, 0];
  private readonly signs = [0, 0, 0];
  private readonly t = [0, 0, 0];
  private readonly r = [0, 0, 0];
  /** Scratch of candidates() and firstOf(), per destination. */
  private readonly at = [0, 0, 0];
  private readonly box = [0, 0, 0];
  private readonly seg = [0, 0, 0];
  private readonly dirs = [0, 0, 0];
  private readonly bx = [0, 0, 0];
  private readonly sx = [0, 0, 0];
  private readonly best = [0, 0, 0, 0, 0];
  private readonly boxMasks: Int32Array[] = [];
  private readonly segMasks: Int32Array[] = [];
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
    this.W = this.f.words;
    this.faultCuts = [0, 1, 2].map((d) => {
      const k = torus.shape[d];
      const cuts = new Uint8Array(k);
      for (let i = 0; i < this.f.nodeCount; i++) cuts[this.f.node[3 * i + d]] = cuts[(this.f.node[3 * i + d] + 1) % k] = 1;
      for (let i = 0; i < this.f.linkCount; i++) cuts[this.f.link[5 * i + d]] = cuts[(this.f.link[5 * i + d] + 1) % k] = 1;
      return cuts;
    });
    this.cuts = torus.shape.map((k) => new Uint8Array(k));
    this.coarse = new Grid(torus);
    this.fine = new Grid(torus);
    // The masks depend on a dimension's source and destination coordinates only: all of them,
    // once (k² intervals per dimension), instead of per source.
    this.masks = [0, 1, 2].map((d) => {
      const k = torus.shape[d];
      const all = Int32Array.from({ length: k }, (_, i) => i);
      const out = new Int32Array(k * k * INTERVAL_MASKS * this.W);
      for (let sd = 0; sd < k; sd++) this.f.intervalMasks(torus, d, sd, all, k, out.subarray(sd * k * INTERVAL_MASKS * this.W));
      return out;
    });
    this.sourceMasks = [0, 1, 2].map((d) => {
      const k = torus.shape[d];
      const out = new Int32Array(k * SOURCE_MASKS * this.W);
      for (let sd = 0; sd < k; sd++) this.f.sourceMasks(torus, d, sd, out.subarray(sd * SOURCE_MASKS * this.W));
      return out;
    });
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
    const W = this.W;
    const sc = torus.coordinates(s);
    const grid = this.coarse;
    const { starts, counts, keys, done } = grid;
    const sm = this.sourceMasks;
    const so = this.sourceAt;
    for (let d = 0; d < 3; d++) {
      this.cutDimension(grid, d, torus.shape[d], sourceBreakpoints(sc[d], torus.shape[d]), sc[d], torus.shape[d]);
      this.maskAt[d] = sc[d] * torus.shape[d] * INTERVAL_MASKS * W;
      so[d] = sc[d] * SOURCE_MASKS * W;
    }
    const [nx, ny, nz] = counts;
    const [mx, my, mz] = this.masks;
    const stride = INTERVAL_MASKS * W;
    const [ax, ay, az] = this.maskAt;
    keys.fill(0, 0, nx * ny * nz);
    done.fill(0, 0, nx * ny * nz);
    // Each cell inside a fault's shadow (its minimal hint box holds a fault) is decided by one of
    // its destinations: static minimal (key 1) or hard (key 2).
    const hard: number[] = [];
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++) {
          const ox = ax + starts[0][x] * stride;
          const oy = ay + starts[1][y] * stride;
          const oz = az + starts[2][z] * stride;
          if (!meets3(W, mx, ox + BOX_MIN * W, my, oy + BOX_MIN * W, mz, oz + BOX_MIN * W)) continue;
          const c = x + nx * (y + ny * z);
          const blocked = meetsStatic(
            W,
            mx,
            ox + SEG_MIN * W,
            my,
            oy + SEG_MIN * W,
            mz,
            oz + SEG_MIN * W,
            sm[1],
            so[1] + EQ_S * W,
            sm[2],
            so[2] + EQ_S * W,
            mx,
            ox + EQ_T * W,
            my,
            oy + EQ_T * W,
          );
          if (!blocked) keys[c] = 1;
          else {
            keys[c] = -1;
            hard.push(x, y, z);
          }
        }
    // Hard cells first: their entries are written before the merged static boxes, which may then
    // grow over them (-1: decided already; the first entry holding a destination decides).
    for (let i = 0; i < hard.length; i += 3) {
      this.hardCells++;
      this.hardCell(s, sc, hard[i], hard[i + 1], hard[i + 2], words);
    }
    mergeBoxes(nx, ny, nz, keys, done, (key, x0, x1, y0, y1, z0, z1) => {
      this.pushBox(words, grid, x0, x1, y0, y1, z0, z1);
      words.push(1, STATIC_MINIMAL, NO_SECOND_LEG, 0, 0, 0);
      words[1]++;
      this.entries++;
      void key;
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
    // The distinct candidate lists of the cell's pieces (few: compared element by element); a
    // dead destination is a piece of its own (faults' coordinates cut the grid), unreachable.
    const lists: number[][] = [];
    let deadKey = 0;
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++) {
          this.t[0] = starts[0][x];
          this.t[1] = starts[1][y];
          this.t[2] = starts[2][z];
          let id: number;
          if (this.faults.deadNode[torus.index(this.t[0], this.t[1], this.t[2])] === 1) {
            if (deadKey === 0) {
              lists.push([]);
              deadKey = lists.length;
            }
            id = deadKey;
          } else {
            const list = this.candidates(s, sc, this.t);
            id = 0;
            for (let i = 0; i < lists.length && id === 0; i++) if (i + 1 !== deadKey && sameWords(lists[i], list)) id = i + 1;
            if (id === 0) {
              lists.push(list);
              id = lists.length;
            }
          }
          keys[x + nx * (y + ny * z)] = id;
        }
    done.fill(0, 0, nx * ny * nz);
    const searches: number[][] = [];
    mergeBoxes(nx, ny, nz, keys, done, (key, x0, x1, y0, y1, z0, z1) => {
      const list = lists[key - 1];
      if (list.length === 0 && key !== deadKey) {
        searches.push([x0, x1, y0, y1, z0, z1]);
        return;
      }
      this.pushBox(words, grid, x0, x1, y0, y1, z0, z1);
      words.push((list.length / CANDIDATE_WORDS) | 0, ...list);
      words[1]++;
      this.entries++;
    });
    for (const [x0, x1, y0, y1, z0, z1] of searches) this.searchEach(s, sc, grid, x0, x1, y0, y1, z0, z1, words);
  }

  /**
   * The valid candidates for destination `t` (the start of fine cell x, y, z) in a hard cell, as
   * candidate words (empty: none), tested on the fine grid's masks.
   */
  private candidates(s: number, sc: number[], t: number[]): number[] {
    const torus = this.torus;
    const W = this.W;
    const stride = INTERVAL_MASKS * W;
    const m = this.masks;
    const sm = this.sourceMasks;
    const so = this.sourceAt;
    // Scratch kept on the compiler (STYLE.md: no allocation per destination in a hot loop).
    const at = this.at;
    at[0] = this.maskAt[0] + t[0] * stride;
    at[1] = this.maskAt[1] + t[1] * stride;
    at[2] = this.maskAt[2] + t[2] * stride;
    const out: number[] = [];
    // Direct routes with software-chosen directions: flip any moving dimension to the long way.
    const box = this.box;
    const seg = this.seg;
    const dirs = this.dirs;
    for (let flips = 1; flips < 8; flips++) {
      let moves = true;
      for (let d = 0; d < 3; d++) {
        const flip = (flips & (1 << d)) !== 0;
        if (flip && t[d] === sc[d]) moves = false;
        box[d] = flip ? BOX_FLIP : BOX_MIN;
        seg[d] = flip ? SEG_FLIP : SEG_MIN;
        dirs[d] = !flip ? DIRECTION_MINIMAL : torus.minimalSign(d, sc[d], t[d]) > 0 ? DIRECTION_MINUS : DIRECTION_PLUS;
      }
      if (!moves) continue;
      if (!meets3(W, m[0], at[0] + box[0] * W, m[1], at[1] + box[1] * W, m[2], at[2] + box[2] * W))
        out.push(legWord(LEG_DYNAMIC, dirs), NO_SECOND_LEG, 0, 0, 0);
      else if (
        !meetsStatic(
          W,
          m[0],
          at[0] + seg[0] * W,
          m[1],
          at[1] + seg[1] * W,
          m[2],
          at[2] + seg[2] * W,
          sm[1],
          so[1] + EQ_S * W,
          sm[2],
          so[2] + EQ_S * W,
          m[0],
          at[0] + EQ_T * W,
          m[1],
          at[1] + EQ_T * W,
        )
      )
        out.push(legWord(LEG_STATIC, dirs), NO_SECOND_LEG, 0, 0, 0);
    }
    // Relays of fixed shapes with minimal legs; the cheapest valid one (the node compares it with
    // the direct routes above per destination): its two legs and relay words, kept in `best`.
    const best = this.best;
    let found = false;
    let bestCost = Infinity;
    const minimal = this.minimalHops(sc, t);
    // A corner: the destination's coordinates in the dimensions of `subset`, the source's in the
    // others (the route then takes the dimensions in another order).
    for (let subset = 1; subset < 7; subset++) {
      if (minimal >= bestCost) break;
      const rx = subset & 1 ? t[0] : sc[0];
      const ry = subset & 2 ? t[1] : sc[1];
      const rz = subset & 4 ? t[2] : sc[2];
      if (this.faults.deadNode[torus.index(rx, ry, rz)]) continue;
      // First leg s → r: moving in the subset's dimensions (minimal box), at s's coordinate elsewhere.
      const first = this.firstOf(subset, at, m, sm, true);
      if (first < 0) continue;
      const second = this.firstOf(subset, at, m, sm, false);
      if (second < 0) continue;
      bestCost = minimal;
      found = true;
      best[0] = first;
      best[1] = second;
      for (let d = 0; d < 3; d++) best[2 + d] = relayWord(subset & (1 << d) ? RELAY_FROM_DESTINATION : RELAY_FROM_SOURCE, 0);
    }
    // A neighbour of the source: one hop, then a minimal leg from there.
    const rc = this.r;
    const bx = this.bx;
    const sx = this.sx;
    for (let dir = 0; dir < 6; dir++) {
      const d = dir >> 1;
      const up = (dir & 1) === 0;
      if (!this.faults.linkUsable(s, dir)) continue;
      rc[0] = sc[0];
      rc[1] = sc[1];
      rc[2] = sc[2];
      rc[d] = (sc[d] + (up ? 1 : -1) + torus.shape[d]) % torus.shape[d];
      if (rc[0] === t[0] && rc[1] === t[1] && rc[2] === t[2]) continue;
      const cost = 1 + this.minimalHops(rc, t);
      if (cost >= bestCost) continue;
      for (let e = 0; e < 3; e++) {
        bx[e] = e === d ? (up ? BOX_UP : BOX_DOWN) : BOX_MIN;
        sx[e] = e === d ? (up ? SEG_UP : SEG_DOWN) : SEG_MIN;
      }
      let second = -1;
      if (!meets3(W, m[0], at[0] + bx[0] * W, m[1], at[1] + bx[1] * W, m[2], at[2] + bx[2] * W)) second = DYNAMIC_MINIMAL;
      else {
        const eqA = up ? EQ_UP : EQ_DOWN;
        const blocked = meetsStatic(
          W,
          m[0],
          at[0] + sx[0] * W,
          m[1],
          at[1] + sx[1] * W,
          m[2],
          at[2] + sx[2] * W,
          sm[1],
          so[1] + (d === 1 ? eqA : EQ_S) * W,
          sm[2],
          so[2] + (d === 2 ? eqA : EQ_S) * W,
          m[0],
          at[0] + EQ_T * W,
          m[1],
          at[1] + EQ_T * W,
        );
        if (!blocked) second = STATIC_MINIMAL;
      }
      if (second < 0) continue;
      bestCost = cost;
      found = true;
      // The hop goes the way it was checked: on a ring of two, minimal would take the tie's way.
      for (let e = 0; e < 3; e++) dirs[e] = e !== d ? DIRECTION_MINIMAL : up ? DIRECTION_PLUS : DIRECTION_MINUS;
      best[0] = legWord(LEG_DYNAMIC, dirs);
      best[1] = second;
      for (let e = 0; e < 3; e++) best[2 + e] = relayWord(RELAY_FROM_SOURCE, e === d ? (up ? 1 : -1) : 0);
    }
    if (found) out.push(best[0], best[1], best[2], best[3], best[4]);
    return out;
  }

  /**
   * A corner relay's leg, dynamic if it can be, else static, else −1: the first leg (s to the
   * corner: the subset's dimensions move minimally, the others stay at s) or the second (the corner
   * to t: the other dimensions move minimally, the subset's stay at t). Per dimension a mask is
   * read from the interval masks (m) or the source masks (sm) at an offset.
   */
  private firstOf(subset: number, at: number[], m: Int32Array[], sm: Int32Array[], firstLeg: boolean): number {
    const W = this.W;
    const so = this.sourceAt;
    const box = this.boxMasks;
    const boxAt = this.bx;
    const seg = this.segMasks;
    const segAt = this.sx;
    for (let d = 0; d < 3; d++) {
      const atT = (subset & (1 << d)) !== 0;
      const moving = atT === firstLeg;
      // Box: moving → the minimal arc; staying → the point (at s for the first leg's staying
      // dimensions, at t for the second's).
      const source = !moving && !atT;
      box[d] = source ? sm[d] : m[d];
      boxAt[d] = moving ? at[d] + BOX_MIN * W : atT ? at[d] + EQ_T * W : so[d] + EQ_S * W;
      seg[d] = source ? sm[d] : m[d];
      segAt[d] = moving ? at[d] + SEG_MIN * W : atT ? at[d] + EQ_T_NODES * W : so[d] + EQ_S_NODES * W;
    }
    if (!meets3(W, box[0], boxAt[0], box[1], boxAt[1], box[2], boxAt[2])) return DYNAMIC_MINIMAL;
    // Static: the leg's start A is s (first leg) or the corner (second); its end B the corner or t.
    const aFromSource = (d: number) => firstLeg || (subset & (1 << d)) === 0;
    const bFromT = (d: number) => !firstLeg || (subset & (1 << d)) !== 0;
    const blocked = meetsStatic(
      W,
      seg[0],
      segAt[0],
      seg[1],
      segAt[1],
      seg[2],
      segAt[2],
      aFromSource(1) ? sm[1] : m[1],
      aFromSource(1) ? so[1] + EQ_S * W : at[1] + EQ_T * W,
      aFromSource(2) ? sm[2] : m[2],
      aFromSource(2) ? so[2] + EQ_S * W : at[2] + EQ_T * W,
      bFromT(0) ? m[0] : sm[0],
      bFromT(0) ? at[0] + EQ_T * W : so[0] + EQ_S * W,
      bFromT(1) ? m[1] : sm[1],
      bFromT(1) ? at[1] + EQ_T * W : so[1] + EQ_S * W,
    );
    return blocked ? -1 : STATIC_MINIMAL;
  }

  /** Destinations no candidate of the shapes serves: every live relay with every pair of legs. */
  private searchEach(s: number, sc: number[], grid: Grid, x0: number, x1: number, y0: number, y1: number, z0: number, z1: number, words: number[]): void {
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
          words.push(tx, 1, ty, 1, tz, 1, (best.length / CANDIDATE_WORDS) | 0, ...best);
          words[1]++;
          this.entries++;
        }
  }

  private pushBox(words: number[], grid: Grid, x0: number, x1: number, y0: number, y1: number, z0: number, z1: number): void {
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
  private cutDimension(grid: Grid, d: number, k: number, points: number[], lo: number, len: number): void {
    const cuts = this.cuts[d];
    cuts.set(this.faultCuts[d]);
    cuts[lo] = 1;
    for (let i = 0; i < points.length; i++) cuts[((points[i] % k) + k) % k] = 1;
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

function sameWords(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
