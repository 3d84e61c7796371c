/**
 * Routes walked hop by hop over a BlueGene/L torus with faults: what the verifier proves routes by,
 * independent of the compiler's arc arithmetic (route-overrides.ts). A dynamic leg may take any
 * minimal path its hint box allows, and its escape any dimension-ordered one inside it, so every
 * node of the box and every link between box nodes in the leg's directions must be alive; a static
 * leg takes exactly its x, then y, then z path.
 */
import { legKind, legSign, LEG_DYNAMIC, Torus, torusDirection } from '@weft/fabric-model';
import type { TorusFaults } from './torus-faults';

/** The first fault a leg from `from` to `to` meets, as text, or undefined when it meets none. */
export function legFault(torus: Torus, faults: TorusFaults, leg: number, from: number, to: number): string | undefined {
  const signs = [0, 1, 2].map((d) => legSign(torus, leg, d, torus.coordinate(from, d), torus.coordinate(to, d)));
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
  const arcs = [0, 1, 2].map((d) => {
    const a = torus.coordinate(from, d);
    const b = torus.coordinate(to, d);
    const out = [a];
    for (let c = a; c !== b;) {
      c = (c + signs[d] + torus.shape[d]) % torus.shape[d];
      out.push(c);
    }
    return out;
  });
  for (const z of arcs[2])
    for (const y of arcs[1])
      for (const x of arcs[0]) {
        const v = torus.index(x, y, z);
        if (faults.deadNode[v]) return `dead node ${torus.name(v)} in the hint box`;
        const here = [x, y, z];
        for (let d = 0; d < 3; d++) {
          if (signs[d] === 0 || here[d] === torus.coordinate(to, d)) continue;
          const direction = torusDirection(d, signs[d]);
          if (!faults.linkUsable(v, direction)) return `dead link ${torus.name(v)} ${'xyz'[d]}${signs[d] > 0 ? '+' : '-'} in the hint box`;
        }
      }
  return undefined;
}
