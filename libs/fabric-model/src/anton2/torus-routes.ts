/**
 * Anton 2's routes between ASICs (paper 004 §2.3, §2.5): oblivious, minimal, dimension-ordered — any
 * of the six orders, in one of the two torus slices, chosen per packet — with VC promotion: a packet
 * starts on VC 0, and its VC rises by one when it crosses a dimension's dateline or, if it did not,
 * when it finishes routing along that dimension; so after j dimensions it is on VC j, and four VCs
 * a class suffice in three dimensions (spec §2.3.4).
 *
 * Datelines: §2.5 places each dimension's between coordinates k−1 and 0, for both directions ("the
 * + and − direction datelines must be placed between the same two nodes"); they are parameters here
 * (`Anton2Datelines`, the coordinate after which each lies) so that the verifier can be shown a
 * misplaced one. The offset of exactly k/2 on an even ring goes the way the tie rule says (the paper
 * leaves it open): always + (`plus`), or + from even coordinates and − from odd (`source-parity`).
 */
import { anton2ChannelPort } from '../chips/anton2-asic';
import type { TieRule, Torus } from '../torus/torus';

/** The six dimension orders, XYZ first (§2.3). */
export const ANTON2_ORDERS: readonly (readonly [number, number, number])[] = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

/** Per dimension, the coordinate c whose link to c+1 (and back) the + and the − dateline lie on. */
export interface Anton2Datelines {
  readonly plus: readonly [number, number, number];
  readonly minus: readonly [number, number, number];
}

/** §2.5's datelines: between k−1 and 0 in every dimension, both directions. */
export function defaultDatelines(torus: Torus): Anton2Datelines {
  const at = [torus.kx - 1, torus.ky - 1, torus.kz - 1] as const;
  return { plus: at, minus: at };
}

export interface TorusHop {
  /** The ASIC the hop leaves, the channel adapter it leaves by (an ASIC port), and the ASIC it reaches. */
  readonly from: number;
  readonly port: number;
  readonly to: number;
  readonly dimension: number;
  readonly sign: number;
  /** The VC the packet holds on arrival across this hop (promotion applied). */
  readonly vc: number;
}

/** Minimal offset along a ring: steps and sign (0 when equal). */
export function minimalOffset(k: number, from: number, to: number, tie: TieRule): { steps: number; sign: number } {
  const ahead = (((to - from) % k) + k) % k;
  if (ahead === 0) return { steps: 0, sign: 0 };
  if (2 * ahead < k) return { steps: ahead, sign: 1 };
  if (2 * ahead > k) return { steps: k - ahead, sign: -1 };
  return { steps: ahead, sign: tie === 'plus' || from % 2 === 0 ? 1 : -1 };
}

/**
 * The route from ASIC `source` to `destination` in dimension order `order` and torus slice `slice`,
 * hop by hop with the VC each hop arrives on; the VC it reaches the destination's chip on is the
 * last hop's, or — where it finished a dimension without crossing its dateline — one more (the
 * `exitVc`).
 */
export function anton2TorusRoute(
  torus: Torus,
  source: number,
  destination: number,
  order: readonly number[],
  slice: number,
  datelines: Anton2Datelines,
  tie: TieRule = 'plus',
): { hops: TorusHop[]; exitVc: number } {
  const hops: TorusHop[] = [];
  let at = source;
  let vc = 0;
  for (const d of order) {
    const k = torus.shape[d];
    const { steps, sign } = minimalOffset(k, torus.coordinate(at, d), torus.coordinate(destination, d), tie);
    if (steps === 0) continue;
    let crossed = false;
    for (let s = 0; s < steps; s++) {
      const c = torus.coordinate(at, d);
      const next = torus.neighbour(at, 2 * d + (sign > 0 ? 0 : 1));
      const line = sign > 0 ? datelines.plus[d] : datelines.minus[d];
      // The dateline on the link between `line` and `line + 1`: crossed going + from `line`, going − from `line + 1`.
      if (!crossed && ((sign > 0 && c === line) || (sign < 0 && c === (line + 1) % k))) {
        crossed = true;
        vc++;
      }
      hops.push({ from: at, port: anton2ChannelPort(d, sign < 0, slice), to: next, dimension: d, sign, vc });
      at = next;
    }
    if (!crossed) vc++;
  }
  return { hops, exitVc: vc };
}
