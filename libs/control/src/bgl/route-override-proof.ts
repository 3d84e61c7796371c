/**
 * The proof of BlueGene/L route-override tables by classes of destinations (spec §1.4, V2 and V3),
 * for machines whose pairs are too many to walk (the 64K machine has 4·10⁹): for each live source,
 * it reads the table as the node's software does — the first entry holding a destination decides —
 * and shows, for every piece of every entry that no earlier entry shadows, that each candidate
 * route is clear of every fault for every destination in the piece; that every destination whose
 * hardware route (the minimal hint box) meets a fault is held by some entry; and that every dead
 * destination is refused. It counts the live pairs the tables call unreachable.
 *
 * It is independent of the compiler (route-overrides.ts, which cuts destinations into cells and
 * tests one per cell): here a piece is a box of destinations, a route is blocked by a fault when
 * some destination of the box puts the fault on it, and since every condition is a product over
 * the three dimensions of a condition on one coordinate, that is decided per dimension by counting
 * (prefix sums over the destination's coordinate) — no destination is tried alone.
 */
import * as format from '@weft/fabric-model';
import type { Torus } from '@weft/fabric-model';
import type { TorusFaults } from '@weft/fabric-model';

// The table's format, read once (an imported binding is a property load per use; a getter under
// the test runner).
const CANDIDATE_WORDS = format.CANDIDATE_WORDS;
const DIRECTION_MINUS = format.DIRECTION_MINUS;
const DIRECTION_PLUS = format.DIRECTION_PLUS;
const ENTRY_HEADER_WORDS = format.ENTRY_HEADER_WORDS;
const LEG_DYNAMIC = format.LEG_DYNAMIC;
const NO_SECOND_LEG = format.NO_SECOND_LEG;
const RELAY_ABSOLUTE = format.RELAY_ABSOLUTE;
const RELAY_FROM_DESTINATION = format.RELAY_FROM_DESTINATION;
const RELAY_FROM_SOURCE = format.RELAY_FROM_SOURCE;
const TABLE_HEADER_WORDS = format.TABLE_HEADER_WORDS;
const { legDirectionChoice, legKind } = format;

/** A box of destinations: per dimension a linear interval [lo, hi) of coordinates. */
type Box = [number, number, number, number, number, number];

export interface ClassProof {
  readonly sources: number;
  readonly problems: readonly string[];
  readonly problemCount: number;
  /** Live pairs the tables refuse (no route of the repertoire). */
  readonly cutPairs: number;
}

/** A direction choice of a leg in a dimension: the hardware's minimal one, or plus, or minus. */
const CHOICES = 3;

/**
 * Per dimension, per fault, prefix counts over the destination coordinate t of: the fault within
 * the extent of a leg from `from` to t (for each direction choice; a hint box's extent or a static
 * segment's), and the fault's coordinate equal to t.
 */
class FaultTables {
  readonly count: number;
  /** extent[d][((q * CHOICES + choice) * 2 + segment) * k * (k + 1) + from * (k + 1) + t + 1]. */
  readonly extent: Int32Array[];
  /** equal[d][(q * 2 + nodesOnly) * (k + 1) + t + 1]. */
  readonly equal: Int32Array[];
  /** The fault's coordinate per dimension, its own dimension and sign if a link (−1 for a node). */
  readonly coordinate: Int32Array;
  readonly linkDimension: Int32Array;
  readonly linkSign: Int32Array;

  constructor(
    readonly torus: Torus,
    faults: TorusFaults,
  ) {
    const nodes = faults.nodes;
    const links = faults.links;
    this.count = nodes.length + links.length;
    this.coordinate = new Int32Array(3 * this.count);
    this.linkDimension = new Int32Array(this.count).fill(-1);
    this.linkSign = new Int32Array(this.count);
    nodes.forEach((n, q) => this.coordinate.set(torus.coordinates(n), 3 * q));
    links.forEach((l, i) => {
      const q = nodes.length + i;
      this.coordinate.set(torus.coordinates(l.node), 3 * q);
      this.linkDimension[q] = l.direction >> 1;
      this.linkSign[q] = (l.direction & 1) === 0 ? 1 : -1;
    });
    this.extent = [0, 1, 2].map((d) => {
      const k = torus.shape[d];
      const table = new Int32Array(this.count * CHOICES * 2 * k * (k + 1));
      for (let q = 0; q < this.count; q++)
        for (let choice = 0; choice < CHOICES; choice++)
          for (let segment = 0; segment < 2; segment++)
            for (let from = 0; from < k; from++) {
              const base = ((q * CHOICES + choice) * 2 + segment) * k * (k + 1) + from * (k + 1);
              for (let t = 0; t < k; t++) table[base + t + 1] = table[base + t] + (this.within(q, d, choice, segment === 1, from, t) ? 1 : 0);
            }
      return table;
    });
    this.equal = [0, 1, 2].map((d) => {
      const k = torus.shape[d];
      const table = new Int32Array(this.count * 2 * (k + 1));
      for (let q = 0; q < this.count; q++)
        for (let nodesOnly = 0; nodesOnly < 2; nodesOnly++) {
          const base = (q * 2 + nodesOnly) * (k + 1);
          for (let t = 0; t < k; t++) table[base + t + 1] = table[base + t] + (this.at(q, d, nodesOnly === 1, t) ? 1 : 0);
        }
      return table;
    });
  }

  /** The sign a leg takes in dimension d from `from` to `to` under a direction choice. */
  sign(d: number, choice: number, from: number, to: number): number {
    if (from === to) return 0;
    if (choice === DIRECTION_PLUS) return 1;
    if (choice === DIRECTION_MINUS) return -1;
    return this.torus.minimalSign(d, from, to);
  }

  /**
   * Whether fault q is within dimension d's extent of a leg from `from` to `to`: a node (or a link
   * of another dimension) by its coordinate on the arc walked — for a static segment, a link of
   * another dimension is never on it — and a link of this dimension by being crossed in its direction.
   */
  within(q: number, d: number, choice: number, segment: boolean, from: number, to: number): boolean {
    const c = this.coordinate[3 * q + d];
    const sign = this.sign(d, choice, from, to);
    const linkDim = this.linkDimension[q];
    if (linkDim === d) return sign !== 0 && sign === this.linkSign[q] && this.torus.hops(d, from, c, sign) + 1 <= this.torus.hops(d, from, to, sign);
    if (linkDim >= 0 && segment) return false;
    if (sign === 0) return c === from;
    return this.torus.hops(d, from, c, sign) <= this.torus.hops(d, from, to, sign);
  }

  /** Whether fault q sits at coordinate `t` of dimension d: a node, or (unless nodes only) a link of another dimension (a link of this one is never at a point). */
  at(q: number, d: number, nodesOnly: boolean, t: number): boolean {
    const linkDim = this.linkDimension[q];
    if (linkDim === d || (nodesOnly && linkDim >= 0)) return false;
    return this.coordinate[3 * q + d] === t;
  }

  private readonly shadows = new Map<number, [number, number][]>();

  /** The destination coordinates of dimension d whose minimal extent from `from` holds fault q, as intervals (remembered: a few per dimension). */
  shadowIntervals(q: number, d: number, from: number): [number, number][] {
    const key = (q * 3 + d) * 1024 + from;
    let out = this.shadows.get(key);
    if (out) return out;
    out = [];
    for (let t = 0; t < this.torus.shape[d]; t++) {
      if (!this.within(q, d, 0, false, from, t)) continue;
      if (out.length > 0 && out[out.length - 1][1] === t) out[out.length - 1][1] = t + 1;
      else out.push([t, t + 1]);
    }
    this.shadows.set(key, out);
    return out;
  }

  /** Destinations t in [lo, hi) for which fault q is within the extent of a leg from `from` (fixed) to t. */
  anyExtent(q: number, d: number, choice: number, segment: boolean, from: number, lo: number, hi: number): boolean {
    const k = this.torus.shape[d];
    const base = ((q * CHOICES + choice) * 2 + (segment ? 1 : 0)) * k * (k + 1) + from * (k + 1);
    return this.extent[d][base + hi] - this.extent[d][base + lo] > 0;
  }

  anyEqual(q: number, d: number, nodesOnly: boolean, lo: number, hi: number): boolean {
    const k = this.torus.shape[d];
    const base = (q * 2 + (nodesOnly ? 1 : 0)) * (k + 1);
    return this.equal[d][base + hi] - this.equal[d][base + lo] > 0;
  }
}

/**
 * One dimension of a leg as the destination's coordinate t ranges over [lo, hi): where it starts
 * and ends — at the source's coordinate plus an offset, at t plus an offset, or at a fixed one.
 */
interface End {
  /** 0: source + offset, 1: destination (t) + offset, 2: fixed. */
  base: number;
  value: number;
}

export function proveByClasses(torus: Torus, faults: TorusFaults, tables: readonly (ArrayLike<number> | null)[], maxProblems = 20): ClassProof {
  const ft = new FaultTables(torus, faults);
  const problems: string[] = [];
  let problemCount = 0;
  let cutPairs = 0;
  let sources = 0;
  const problem = (text: string) => {
    if (problems.length < maxProblems) problems.push(text);
    problemCount++;
  };
  const ks = torus.shape;
  for (let s = 0; s < torus.size; s++) {
    if (faults.deadNode[s]) continue;
    sources++;
    const words = tables[s];
    if (!words) {
      problem(`live node ${torus.name(s)} has no route-override table`);
      continue;
    }
    const sc = torus.coordinates(s);
    // The entries, each as linear boxes, and the pieces of each no earlier entry shadows.
    const earlier: Box[] = [];
    let at = TABLE_HEADER_WORDS;
    for (let e = 0; e < words[1]; e++) {
      const entryBoxes = arcBoxes(words, at, ks);
      const count = words[at + 6];
      let pieces: Box[] = entryBoxes;
      for (const shadow of earlier) pieces = subtractAll(pieces, shadow);
      for (const piece of pieces) {
        if (count === 0) {
          cutPairs += volume(piece) - deadWithin(faults, torus, piece) - (contains(piece, sc) ? 1 : 0);
          continue;
        }
        // A dead destination here would be sent to.
        for (const f of faults.nodes)
          if (contains(piece, torus.coordinates(f))) problem(`${torus.name(s)} would send to the dead node ${torus.name(f)} (entry ${e})`);
        for (let c = 0; c < count; c++) {
          const w = at + ENTRY_HEADER_WORDS + CANDIDATE_WORDS * c;
          const blocked = candidateBlocked(ft, faults, torus, sc, words, w, piece);
          if (blocked) problem(`${torus.name(s)}: entry ${e}'s candidate ${c} meets ${blocked} for some destination in ${describeBox(piece)}`);
        }
      }
      earlier.push(...entryBoxes);
      at += ENTRY_HEADER_WORDS + CANDIDATE_WORDS * count;
    }
    // Every destination whose hardware route meets a fault is held by an entry.
    for (let q = 0; q < ft.count; q++) {
      // Per dimension, the destinations whose minimal extent from s holds the fault: a union of intervals.
      const perDim = [0, 1, 2].map((d) => ft.shadowIntervals(q, d, sc[d]));
      if (perDim.some((list) => list.length === 0)) continue;
      let shadow: Box[] = [];
      for (const [x0, x1] of perDim[0]) for (const [y0, y1] of perDim[1]) for (const [z0, z1] of perDim[2]) shadow.push([x0, x1, y0, y1, z0, z1]);
      for (const held of earlier) shadow = subtractAll(shadow, held);
      for (const piece of shadow) {
        // The source itself and a dead destination need no route.
        if (volume(piece) === 1 && (contains(piece, sc) || faults.deadNode[torus.index(piece[0], piece[2], piece[4])])) continue;
        problem(`${torus.name(s)}: destinations ${describeBox(piece)} take the hardware's route, whose hint box meets ${faultName(torus, faults, q)}`);
        break;
      }
    }
    // Dead destinations no entry holds would be sent to by the hardware's route.
    for (const f of faults.nodes) {
      const fc = torus.coordinates(f);
      if (!earlier.some((b) => contains(b, fc))) problem(`${torus.name(s)} would send to the dead node ${torus.name(f)}: no entry holds it`);
    }
  }
  return { sources, problems, problemCount, cutPairs };
}

/**
 * The first fault a candidate meets for some destination of `box`, or undefined: its legs (to the
 * relay and from it), its relay (a dead one for some destination).
 */
function candidateBlocked(ft: FaultTables, faults: TorusFaults, torus: Torus, sc: number[], words: ArrayLike<number>, w: number, box: Box): string | undefined {
  const first = words[w];
  const second = words[w + 1];
  // The leg ends per dimension: source → relay (or t), relay → t.
  const relay: End[] = [0, 1, 2].map((d) => {
    if (second === NO_SECOND_LEG) return { base: 1, value: 0 };
    const word = words[w + 2 + d];
    const base = Math.floor(word / 65536);
    const offset = (word % 65536) - 32768;
    if (base === RELAY_FROM_SOURCE) return { base: 2, value: (((sc[d] + offset) % torus.shape[d]) + torus.shape[d]) % torus.shape[d] };
    if (base === RELAY_FROM_DESTINATION) return { base: 1, value: offset };
    if (base === RELAY_ABSOLUTE) return { base: 2, value: offset };
    return { base: 2, value: 0 };
  });
  const source: End[] = [0, 1, 2].map((d) => ({ base: 2, value: sc[d] }));
  const target: End[] = [0, 1, 2].map(() => ({ base: 1, value: 0 }));
  if (second !== NO_SECOND_LEG) {
    // A relay that is dead for some destination.
    for (const f of faults.nodes) {
      const fc = torus.coordinates(f);
      if ([0, 1, 2].every((d) => pointCanBe(torus, d, relay[d], fc[d], box))) return `the dead node ${torus.name(f)} as its relay`;
    }
  }
  for (let q = 0; q < ft.count; q++) {
    if (legBlocked(ft, torus, first, source, second === NO_SECOND_LEG ? target : relay, q, box)) return faultName(torus, faults, q);
    if (second !== NO_SECOND_LEG && legBlocked(ft, torus, second, relay, target, q, box)) return faultName(torus, faults, q);
  }
  return undefined;
}

/** Whether some destination of `box` puts fault q on a leg from `a` to `b`. */
function legBlocked(ft: FaultTables, torus: Torus, leg: number, a: End[], b: End[], q: number, box: Box): boolean {
  const choice = (d: number) => legDirectionChoice(leg, d);
  if (legKind(leg) === LEG_DYNAMIC) {
    // Its hint box: the fault within the extent in every dimension.
    for (let d = 0; d < 3; d++) if (!extentCanHold(ft, torus, q, d, choice(d), false, a[d], b[d], box)) return false;
    return true;
  }
  // Its x, then y, then z segments: segment e runs with earlier dimensions at b's and later at a's.
  for (let e = 0; e < 3; e++) {
    let all = extentCanHold(ft, torus, q, e, choice(e), true, a[e], b[e], box);
    for (let d = 0; d < 3 && all; d++) if (d !== e) all = pointHolds(ft, torus, q, d, d < e ? b[d] : a[d], box);
    if (all) return true;
  }
  return false;
}

/** Whether, for some destination coordinate in the box's dimension d, fault q lies in the extent of a leg from `a` to `b` in d. */
function extentCanHold(ft: FaultTables, torus: Torus, q: number, d: number, choice: number, segment: boolean, a: End, b: End, box: Box): boolean {
  const lo = box[2 * d];
  const hi = box[2 * d + 1];
  const k = torus.shape[d];
  if (a.base === 2 && b.base === 2) return ft.within(q, d, choice, segment, a.value, b.value);
  if (a.base === 2 && b.base === 1 && b.value === 0) return ft.anyExtent(q, d, choice, segment, a.value, lo, hi);
  // Other shapes (an end at t plus an offset): coordinate by coordinate.
  for (let t = lo; t < hi; t++) {
    const from = a.base === 2 ? a.value : (((t + a.value) % k) + k) % k;
    const to = b.base === 2 ? b.value : (((t + b.value) % k) + k) % k;
    if (ft.within(q, d, choice, segment, from, to)) return true;
  }
  return false;
}

/** Whether, for some destination coordinate in the box, fault q sits at the point `p` of dimension d (a static segment's fixed coordinate). */
function pointHolds(ft: FaultTables, torus: Torus, q: number, d: number, p: End, box: Box): boolean {
  if (p.base === 2) return ft.at(q, d, false, p.value);
  if (p.value === 0) return ft.anyEqual(q, d, false, box[2 * d], box[2 * d + 1]);
  const k = torus.shape[d];
  for (let t = box[2 * d]; t < box[2 * d + 1]; t++) if (ft.at(q, d, false, (((t + p.value) % k) + k) % k)) return true;
  return false;
}

/** Whether an end can be at coordinate c for some destination in the box. */
function pointCanBe(torus: Torus, d: number, p: End, c: number, box: Box): boolean {
  if (p.base === 2) return p.value === c;
  const k = torus.shape[d];
  const t = (((c - p.value) % k) + k) % k;
  return t >= box[2 * d] && t < box[2 * d + 1];
}

/** An entry's box (an arc per dimension, wrapping) as linear boxes. */
function arcBoxes(words: ArrayLike<number>, at: number, ks: readonly number[]): Box[] {
  const split = (lo: number, len: number, k: number): [number, number][] =>
    lo + len <= k
      ? [[lo, lo + len]]
      : [
          [lo, k],
          [0, lo + len - k],
        ];
  const out: Box[] = [];
  for (const [x0, x1] of split(words[at], words[at + 1], ks[0]))
    for (const [y0, y1] of split(words[at + 2], words[at + 3], ks[1]))
      for (const [z0, z1] of split(words[at + 4], words[at + 5], ks[2])) out.push([x0, x1, y0, y1, z0, z1]);
  return out;
}

/** `pieces` minus `cut`: disjoint boxes. */
function subtractAll(pieces: Box[], cut: Box): Box[] {
  const out: Box[] = [];
  for (const piece of pieces) {
    let overlaps = true;
    for (let d = 0; d < 3 && overlaps; d++) if (piece[2 * d + 1] <= cut[2 * d] || cut[2 * d + 1] <= piece[2 * d]) overlaps = false;
    if (!overlaps) {
      out.push(piece);
      continue;
    }
    const rest: Box = [...piece] as Box;
    for (let d = 0; d < 3; d++) {
      const lo = rest[2 * d];
      const hi = rest[2 * d + 1];
      const clo = Math.max(lo, cut[2 * d]);
      const chi = Math.min(hi, cut[2 * d + 1]);
      if (lo < clo) {
        const below = [...rest] as Box;
        below[2 * d + 1] = clo;
        out.push(below);
      }
      if (chi < hi) {
        const above = [...rest] as Box;
        above[2 * d] = chi;
        out.push(above);
      }
      rest[2 * d] = clo;
      rest[2 * d + 1] = chi;
    }
  }
  return out;
}

function volume(b: Box): number {
  return (b[1] - b[0]) * (b[3] - b[2]) * (b[5] - b[4]);
}

function contains(b: Box, c: readonly number[]): boolean {
  return c[0] >= b[0] && c[0] < b[1] && c[1] >= b[2] && c[1] < b[3] && c[2] >= b[4] && c[2] < b[5];
}

function deadWithin(faults: TorusFaults, torus: Torus, b: Box): number {
  let n = 0;
  for (const f of faults.nodes) if (contains(b, torus.coordinates(f))) n++;
  return n;
}

function describeBox(b: Box): string {
  const r = (lo: number, hi: number) => (hi - lo === 1 ? `${lo}` : `${lo}..${hi - 1}`);
  return `(${r(b[0], b[1])}, ${r(b[2], b[3])}, ${r(b[4], b[5])})`;
}

function faultName(torus: Torus, faults: TorusFaults, q: number): string {
  if (q < faults.nodes.length) return `the dead node ${torus.name(faults.nodes[q])}`;
  const l = faults.links[q - faults.nodes.length];
  return `the dead link ${torus.name(l.node)} ${['x+', 'x-', 'y+', 'y-', 'z+', 'z-'][l.direction]}`;
}
