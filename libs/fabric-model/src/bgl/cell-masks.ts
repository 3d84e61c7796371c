/**
 * Which faults a route can meet, per dimension, as bit masks over the faults (one bit per dead node
 * or dead link, 32 to a word): the compiler's fast path (route-overrides.ts). Every validity test
 * the compiler makes is a conjunction over the three dimensions of a per-dimension fact about a
 * fault — its coordinate on an arc, or equal to one — so it is an AND of three masks, one from each
 * dimension, and a route is blocked when some fault's bit survives. The masks of a dimension depend
 * only on the source's coordinate there and the destination interval's, so they are computed once
 * per interval, not per cell.
 */
import type { Torus } from '../torus/torus';
import type { TorusFaults } from './torus-faults';

/** Masks per destination interval: the arc from the source the minimal way or the other way (a hint
 * box's extent: nodes on it, links of this dimension it crosses in its direction), the same for a
 * static segment (links of other dimensions are never on it), the destination's coordinate (nodes
 * and other dimensions' links at it; nodes only), and the box and segment from the source's
 * neighbours up and down this dimension (a neighbour relay's second leg). */
export const BOX_MIN = 0;
export const BOX_FLIP = 1;
export const SEG_MIN = 2;
export const SEG_FLIP = 3;
export const EQ_T = 4;
export const EQ_T_NODES = 5;
export const BOX_UP = 6;
export const BOX_DOWN = 7;
export const SEG_UP = 8;
export const SEG_DOWN = 9;
export const INTERVAL_MASKS = 10;

/** Masks per source: at the source's coordinate (nodes and other dimensions' links; nodes only),
 * and at its neighbours' up and down this dimension. */
export const EQ_S = 0;
export const EQ_S_NODES = 1;
export const EQ_UP = 2;
export const EQ_DOWN = 3;
export const SOURCE_MASKS = 4;

/** The fault coordinates as flat arrays: nodes (x, y, z), links (x, y, z, dimension, sign) by the
 * node they leave. */
export class FaultCoordinates {
  readonly nodeCount: number;
  readonly node: Int32Array;
  readonly linkCount: number;
  readonly link: Int32Array;
  /** Mask words per mask. */
  readonly words: number;

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
    this.words = Math.max(1, Math.ceil((this.nodeCount + this.linkCount) / 32));
  }

  /** The source masks of dimension `d` at source coordinate `s`, into `out` (zeroed first). */
  sourceMasks(torus: Torus, d: number, s: number, out: Int32Array): void {
    const W = this.words;
    const k = torus.shape[d];
    out.fill(0, 0, SOURCE_MASKS * W);
    const up = (s + 1) % k;
    const down = (s + k - 1) % k;
    const n = this.nodeCount;
    for (let q = 0; q < n + this.linkCount; q++) {
      const link = q >= n;
      const l = 5 * (q - n);
      const c = link ? this.link[l + d] : this.node[3 * q + d];
      const own = link && this.link[l + 3] === d;
      const w = q >> 5;
      const bit = 1 << (q & 31);
      if (!own && c === s) out[EQ_S * W + w] |= bit;
      if (!link && c === s) out[EQ_S_NODES * W + w] |= bit;
      if (!own && c === up) out[EQ_UP * W + w] |= bit;
      if (!own && c === down) out[EQ_DOWN * W + w] |= bit;
    }
  }

  /** The interval masks of dimension `d` for source coordinate `s` and each of `count` interval
   * starts, into `out` (zeroed first). */
  intervalMasks(torus: Torus, d: number, s: number, starts: Int32Array, count: number, out: Int32Array): void {
    const W = this.words;
    const k = torus.shape[d];
    out.fill(0, 0, count * INTERVAL_MASKS * W);
    const n = this.nodeCount;
    const up = (s + 1) % k;
    const down = (s + k - 1) % k;
    for (let i = 0; i < count; i++) {
      const t = starts[i];
      const sign = torus.minimalSign(d, s, t);
      const signUp = torus.minimalSign(d, up, t);
      const signDown = torus.minimalSign(d, down, t);
      const base = i * INTERVAL_MASKS * W;
      for (let q = 0; q < n + this.linkCount; q++) {
        const link = q >= n;
        const l = 5 * (q - n);
        const c = link ? this.link[l + d] : this.node[3 * q + d];
        const own = link && this.link[l + 3] === d;
        const linkSign = own ? this.link[l + 4] : 0;
        const w = q >> 5;
        const bit = 1 << (q & 31);
        const boxMin = extent(torus, d, own, linkSign, c, s, t, sign);
        const boxFlip = extent(torus, d, own, linkSign, c, s, t, -sign);
        const boxUp = extent(torus, d, own, linkSign, c, up, t, signUp);
        const boxDown = extent(torus, d, own, linkSign, c, down, t, signDown);
        if (boxMin) out[base + BOX_MIN * W + w] |= bit;
        if (boxFlip) out[base + BOX_FLIP * W + w] |= bit;
        if (boxUp) out[base + BOX_UP * W + w] |= bit;
        if (boxDown) out[base + BOX_DOWN * W + w] |= bit;
        // A segment: nodes as the box; links only of this dimension.
        if (!link || own) {
          if (boxMin) out[base + SEG_MIN * W + w] |= bit;
          if (boxFlip) out[base + SEG_FLIP * W + w] |= bit;
          if (boxUp) out[base + SEG_UP * W + w] |= bit;
          if (boxDown) out[base + SEG_DOWN * W + w] |= bit;
        }
        if (!own && c === t) out[base + EQ_T * W + w] |= bit;
        if (!link && c === t) out[base + EQ_T_NODES * W + w] |= bit;
      }
    }
  }
}

/**
 * Whether a fault at coordinate `c` is within a hint box's extent from `from` to `t` going `sign`
 * in dimension `d`: for a node or another dimension's link, the coordinate on the arc; for a link
 * of this dimension (`own`, going `linkSign`), crossed by the arc in its direction.
 */
function extent(torus: Torus, d: number, own: boolean, linkSign: number, c: number, from: number, t: number, sign: number): boolean {
  if (own) return sign !== 0 && sign === linkSign && torus.hops(d, from, c, sign) + 1 <= torus.hops(d, from, t, sign);
  return sign === 0 ? c === from : torus.onArc(d, c, from, t, sign);
}

/** Whether some fault's bit is set in all three masks (a dynamic leg's hint box holds a fault). */
export function meets3(W: number, a: Int32Array, ai: number, b: Int32Array, bi: number, c: Int32Array, ci: number): boolean {
  for (let w = 0; w < W; w++) if ((a[ai + w] & b[bi + w] & c[ci + w]) !== 0) return true;
  return false;
}

/**
 * Whether a static leg from A to B meets a fault: on its x segment (y, z at A's), its y segment
 * (x at B's, z at A's) or its z segment (x, y at B's).
 */
export function meetsStatic(
  W: number,
  segX: Int32Array,
  sx: number,
  segY: Int32Array,
  sy: number,
  segZ: Int32Array,
  sz: number,
  aY: Int32Array,
  ay: number,
  aZ: Int32Array,
  az: number,
  bX: Int32Array,
  bx: number,
  bY: Int32Array,
  by: number,
): boolean {
  for (let w = 0; w < W; w++) {
    if (((segX[sx + w] & aY[ay + w] & aZ[az + w]) | (bX[bx + w] & segY[sy + w] & aZ[az + w]) | (bX[bx + w] & bY[by + w] & segZ[sz + w])) !== 0) return true;
  }
  return false;
}
