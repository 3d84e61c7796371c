/**
 * Routes across one Anton 2 ASIC (paper 004 §2.4) over its floorplan (anton2-floorplan.ts): from
 * the router of the adapter a packet enters by to the router of the adapter it leaves by.
 *
 * A through route — arriving on a torus channel and leaving in the same dimension, direction and
 * slice — crosses a single router in Y and Z (both adapters hang off it) and the skip channel in X.
 * Every other route is local and follows a direction order over the mesh (§2.4: "routing V−, U+,
 * U−, and then V+ outperforms all other direction-order routing algorithms", Anton 2's; any order
 * of the four can be set, for comparison): all hops of the first direction, then the second, …
 * A packet that travels a dimension's + direction arrives on the channel named for its − direction
 * (§2.2: channels are named by the direction of packets leaving the ASIC on them).
 */
import { anton2ChannelPort } from '../chips/anton2-asic';
import type { Anton2Floorplan } from './anton2-floorplan';

/** A mesh direction: U+, U−, V+, V−. */
export type MeshDirection = 'U+' | 'U-' | 'V+' | 'V-';
export const ANTON2_DIRECTION_ORDER: readonly MeshDirection[] = ['V-', 'U+', 'U-', 'V+'];

export type Router = readonly [number, number];

export interface OnChipRoute {
  /** The routers crossed, in order, the first and the last included. */
  readonly routers: readonly Router[];
  /** How each step between two of them is made: a mesh direction, or the skip channel. */
  readonly steps: readonly (MeshDirection | 'skip')[];
  readonly through: boolean;
}

/** The mesh path from router `a` to `b` by a direction order. */
export function meshRoute(a: Router, b: Router, order: readonly MeshDirection[] = ANTON2_DIRECTION_ORDER): OnChipRoute {
  const routers: Router[] = [a];
  const steps: MeshDirection[] = [];
  let [u, v] = a;
  for (const dir of order) {
    const axis = dir[0] === 'U' ? 0 : 1;
    const sign = dir[1] === '+' ? 1 : -1;
    const target = b[axis];
    while ((axis === 0 ? u : v) !== target && Math.sign(target - (axis === 0 ? u : v)) === sign) {
      if (axis === 0) u += sign;
      else v += sign;
      routers.push([u, v]);
      steps.push(dir);
    }
  }
  if (u !== b[0] || v !== b[1])
    throw new Error(
      `the direction order ${order.join(', ')} cannot reach R${b.join(',')} from R${a.join(',')}: it must hold one direction of each sign on each axis`,
    );
  return { routers, steps, through: false };
}

/**
 * The route from the channel adapter a packet arrives by (ASIC port `inPort`) to the one it leaves
 * by (`outPort`): a through route where both are one dimension, slice and way of travel.
 */
export function channelToChannel(plan: Anton2Floorplan, inPort: number, outPort: number, order?: readonly MeshDirection[]): OnChipRoute {
  const d = inPort >> 2;
  const slice = inPort & 1;
  const arrivedMinus = (inPort & 2) !== 0;
  // Arriving on D− means travelling D+, which goes on by D+ (and the other way round).
  const throughPort = anton2ChannelPort(d, !arrivedMinus, slice);
  const from = plan.channelRouter[inPort];
  const to = plan.channelRouter[outPort];
  if (outPort === throughPort) {
    if (from[0] === to[0] && from[1] === to[1]) return { routers: [from], steps: [], through: true };
    const skip = plan.skipChannels[slice];
    if (skip && ((same(skip[0], from) && same(skip[1], to)) || (same(skip[1], from) && same(skip[0], to))))
      return { routers: [from, to], steps: ['skip'], through: true };
  }
  return meshRoute(from, to, order);
}

const same = (a: Router, b: Router) => a[0] === b[0] && a[1] === b[1];
