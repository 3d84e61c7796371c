/**
 * Routes walked hop by hop over a BlueGene/L torus with faults: what the verifier proves routes by,
 * independent of the compiler's arc arithmetic (route-overrides.ts). A dynamic leg may take any
 * minimal path its hint box allows, and its escape any dimension-ordered one inside it, so every
 * node of the box and every link between box nodes in the leg's directions must be alive; a static
 * leg takes exactly its x, then y, then z path.
 */
import * as format from '@weft/fabric-model';
import type { Torus } from '@weft/fabric-model';
import type { TorusFaults } from '@weft/fabric-model';

// Read once: a module's imports are getters under the test runner's module system.
const legKind = format.legKind;
const legSign = format.legSign;
const LEG_DYNAMIC = format.LEG_DYNAMIC;
const torusDirection = format.torusDirection;

/** The leg being walked's sign per dimension (one walk at a time: no array made per leg). */
const legSigns = [0, 0, 0];

/** The first fault a leg from `from` to `to` meets, as text, or undefined when it meets none. */
export function legFault(torus: Torus, faults: TorusFaults, leg: number, from: number, to: number): string | undefined {
  const signs = legSigns;
  for (let d = 0; d < 3; d++) signs[d] = legSign(torus, leg, d, torus.coordinate(from, d), torus.coordinate(to, d));
  if (legKind(leg) === LEG_DYNAMIC) return boxFault(torus, faults, signs, from, to);
  let at = from;
  if (faults.deadNode[at]) return `dead node ${torus.name(at)}`;
  for (let d = 0; d < 3; d++) {
    if (signs[d] === 0) continue;
    const direction = torusDirection(d, signs[d]);
    while (torus.coordinate(at, d) !== torus.coordinate(to, d)) {
      const next = torus.neighbour(at, direction);
      if (faults.deadNode[next]) return `dead node ${torus.name(next)}`;
      if (!faults.linkUsable(at, direction)) return `dead link ${torus.name(at)} ${'xyz'[d]}${signs[d] > 0 ? '+' : '-'}`;
      at = next;
    }
  }
  return undefined;
}

function boxFault(torus: Torus, faults: TorusFaults, signs: readonly number[], from: number, to: number): string | undefined {
  // Steps of the box along each dimension; where the faults are fewer than the box's nodes, each
  // fault is placed against the box instead of the box being walked (the same answer, found sooner).
  let volume = 1;
  for (let d = 0; d < 3; d++) volume *= arcSteps(torus, signs[d], d, torus.coordinate(from, d), torus.coordinate(to, d)) + 1;
  if (faults.nodes.length + faults.links.length < volume) return faultInBox(torus, faults, signs, from, to);
  const end = [torus.coordinate(to, 0), torus.coordinate(to, 1), torus.coordinate(to, 2)];
  const arcs = [0, 1, 2].map((d) => {
    const k = torus.shape[d];
    const out = [torus.coordinate(from, d)];
    for (let c = out[0]; c !== end[d];) {
      c = (c + signs[d] + k) % k;
      out.push(c);
    }
    return out;
  });
  const directions = [0, 1, 2].map((d) => torusDirection(d, signs[d]));
  // Every node of the box alive, and every link it leaves in a direction the leg moves, towards
  // the next node of the box (whose own life is checked as a node of the box).
  for (const z of arcs[2])
    for (const y of arcs[1])
      for (const x of arcs[0]) {
        const v = torus.index(x, y, z);
        if (faults.deadNode[v]) return `dead node ${torus.name(v)} in the hint box`;
        if (signs[0] !== 0 && x !== end[0] && faults.deadLink[v * 6 + directions[0]])
          return `dead link ${torus.name(v)} x${signs[0] > 0 ? '+' : '-'} in the hint box`;
        if (signs[1] !== 0 && y !== end[1] && faults.deadLink[v * 6 + directions[1]])
          return `dead link ${torus.name(v)} y${signs[1] > 0 ? '+' : '-'} in the hint box`;
        if (signs[2] !== 0 && z !== end[2] && faults.deadLink[v * 6 + directions[2]])
          return `dead link ${torus.name(v)} z${signs[2] > 0 ? '+' : '-'} in the hint box`;
      }
  return undefined;
}

/** Steps from coordinate `c` to `end` of dimension d going the way `sign` says (0: none, the two equal). */
function arcSteps(torus: Torus, sign: number, d: number, c: number, end: number): number {
  if (sign === 0) return 0;
  const k = torus.shape[d];
  return ((((end - c) * sign) % k) + k) % k;
}

/** The box's faults found by going over the faults: each dead node inside it, each dead link inside it that leaves a box node the leg's way in its dimension, short of the box's end there. */
function faultInBox(torus: Torus, faults: TorusFaults, signs: readonly number[], from: number, to: number): string | undefined {
  const inside = (v: number): boolean => {
    for (let d = 0; d < 3; d++) {
      const s = torus.coordinate(from, d);
      if (arcSteps(torus, signs[d] === 0 ? 1 : signs[d], d, s, torus.coordinate(v, d)) > arcSteps(torus, signs[d], d, s, torus.coordinate(to, d))) return false;
    }
    return true;
  };
  for (const v of faults.nodes) if (inside(v)) return `dead node ${torus.name(v)} in the hint box`;
  for (const { node, direction } of faults.links) {
    const d = direction >> 1;
    if (signs[d] === 0 || direction !== torusDirection(d, signs[d]) || torus.coordinate(node, d) === torus.coordinate(to, d) || !inside(node)) continue;
    return `dead link ${torus.name(node)} ${'xyz'[d]}${signs[d] > 0 ? '+' : '-'} in the hint box`;
  }
  return undefined;
}
