/**
 * The geometry of a three-dimensional torus (BlueGene/L, paper 002 §2; Anton 2's torus of ASICs,
 * paper 004 §2.2): nodes numbered x fastest, the six directions in the paper's hint-bit order
 * x+, x−, y+, y−, z+, z− (002 §2: "hint bits of 100100 means ... the x+ and y- directions"), and
 * the ring arithmetic every torus computation needs. Plain numbers in and out: the compiler calls
 * these per pair class and the emulator per packet.
 */

/** The six directions, in the paper's hint-bit order; direction `2d` is d+, `2d + 1` is d−. */
export const TORUS_DIRECTIONS = ['x+', 'x-', 'y+', 'y-', 'z+', 'z-'] as const;
export type TorusDirectionName = (typeof TORUS_DIRECTIONS)[number];
export const TORUS_DIMENSION_NAMES = ['x', 'y', 'z'] as const;

/** The direction of dimension `d` and sign `sign` (+1 or −1). */
export function torusDirection(d: number, sign: number): number {
  return 2 * d + (sign > 0 ? 0 : 1);
}

/**
 * Which way a minimal route goes where a destination is exactly half way round an even ring
 * (002 §2 leaves it to the hint registers). `plus`: always d+ (the hardware's fixed tie rule);
 * `source-parity`: d+ from even coordinates and d− from odd ones, which halves the load the tie
 * puts on one direction.
 */
export type TieRule = 'plus' | 'source-parity';
export const TIE_RULES: readonly TieRule[] = ['plus', 'source-parity'];

export class Torus {
  readonly size: number;
  /** Ring sizes k_x, k_y, k_z. */
  readonly shape: readonly [number, number, number];
  /** The ring sizes as fields: hot code reads them without destructuring (array destructuring
   * goes through the iterator protocol, which is slow where the iterator protector is off). */
  readonly kx: number;
  readonly ky: number;
  readonly kz: number;

  constructor(
    shape: readonly number[],
    readonly tieRule: TieRule = 'plus',
  ) {
    if (shape.length !== 3 || shape.some((k) => !Number.isInteger(k) || k < 1 || k > 256)) {
      throw new Error(
        `a torus has three ring sizes, each a whole number from 1 to 256 (a ring of one has no links: Anton 2's 4×4×1); got ${JSON.stringify(shape)}`,
      );
    }
    this.shape = [shape[0], shape[1], shape[2]];
    this.kx = shape[0];
    this.ky = shape[1];
    this.kz = shape[2];
    this.size = shape[0] * shape[1] * shape[2];
  }

  index(x: number, y: number, z: number): number {
    return x + this.kx * (y + this.ky * z);
  }

  // Integer division by `| 0` rather than Math.floor here and below: hot code, and under the test
  // runner Math is another realm's, whose functions are never inlined.
  coordinate(node: number, d: number): number {
    if (d === 0) return node % this.kx;
    if (d === 1) return ((node / this.kx) | 0) % this.ky;
    return (node / (this.kx * this.ky)) | 0;
  }

  coordinates(node: number): [number, number, number] {
    return [this.coordinate(node, 0), this.coordinate(node, 1), this.coordinate(node, 2)];
  }

  /** The node with coordinate `c` in dimension `d` and the others of `node`. */
  withCoordinate(node: number, d: number, c: number): number {
    const x = d === 0 ? c : this.coordinate(node, 0);
    const y = d === 1 ? c : this.coordinate(node, 1);
    const z = d === 2 ? c : this.coordinate(node, 2);
    return this.index(x, y, z);
  }

  /** The neighbour of `node` in direction `direction` (0..5). */
  neighbour(node: number, direction: number): number {
    const d = direction >> 1;
    const k = this.shape[d];
    const c = this.coordinate(node, d);
    return this.withCoordinate(node, d, (direction & 1) === 0 ? (c + 1) % k : (c + k - 1) % k);
  }

  /** Hops from coordinate `from` to `to` in dimension `d` going `sign` (+1 or −1) round the ring. */
  hops(d: number, from: number, to: number, sign: number): number {
    const k = this.shape[d];
    return sign > 0 ? (to - from + k) % k : (from - to + k) % k;
  }

  /** The minimal direction from coordinate `from` to `to` in dimension `d`: +1, −1, or 0 when equal. */
  minimalSign(d: number, from: number, to: number): number {
    const k = this.shape[d];
    const ahead = (to - from + k) % k;
    if (ahead === 0) return 0;
    if (2 * ahead < k) return 1;
    if (2 * ahead > k) return -1;
    return this.tieRule === 'plus' || from % 2 === 0 ? 1 : -1;
  }

  /** Minimal hops between coordinates in dimension `d`. */
  distance(d: number, from: number, to: number): number {
    const k = this.shape[d];
    const ahead = (to - from + k) % k;
    return ahead < k - ahead ? ahead : k - ahead;
  }

  /** Minimal hops between two nodes. */
  nodeDistance(a: number, b: number): number {
    return (
      this.distance(0, this.coordinate(a, 0), this.coordinate(b, 0)) +
      this.distance(1, this.coordinate(a, 1), this.coordinate(b, 1)) +
      this.distance(2, this.coordinate(a, 2), this.coordinate(b, 2))
    );
  }

  /** Whether coordinate `c` lies on the arc from `from` to `to` going `sign` in dimension `d`, ends included. */
  onArc(d: number, c: number, from: number, to: number, sign: number): boolean {
    return this.hops(d, from, c, sign) <= this.hops(d, from, to, sign);
  }

  /** `a`, `b` and `c` on one line of the torus: equal in two coordinates. */
  colinear(nodes: readonly number[]): boolean {
    if (nodes.length < 2) return true;
    for (let free = 0; free < 3; free++) {
      let same = true;
      for (const n of nodes) {
        for (let d = 0; d < 3 && same; d++) if (d !== free && this.coordinate(n, d) !== this.coordinate(nodes[0], d)) same = false;
      }
      if (same) return true;
    }
    return false;
  }

  name(node: number): string {
    const [x, y, z] = this.coordinates(node);
    return `(${x},${y},${z})`;
  }
}
