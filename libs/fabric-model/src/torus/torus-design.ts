/**
 * What the torus families' designs share (BlueGene/L, Anton 2): a chip per node named by its
 * coordinates (`x3.y0.z7`), each both endpoint and router with its torus ports, and the check of a
 * design's ring sizes as an installation file gives them.
 */
import type { ChipSpec, PortRole } from '../fabric-design';
import type { JsonChecker } from '../installation/json-checker';
import type { Torus } from './torus';

export function torusNodeName(x: number, y: number, z: number): string {
  return `x${x}.y${y}.z${z}`;
}

/** A chip of `model` with `ports` torus ports for every node of the torus, numbered as the torus numbers them. */
export function torusChips(torus: Torus, model: string, ports: number): ChipSpec[] {
  const roles: PortRole[] = new Array<PortRole>(ports).fill('torus');
  const zeros: number[] = new Array<number>(ports).fill(0);
  const chips: ChipSpec[] = [];
  for (let node = 0; node < torus.size; node++) {
    const [x, y, z] = torus.coordinates(node);
    chips.push({
      name: torusNodeName(x, y, z),
      kind: 'router',
      model,
      slice: -1,
      rank: 0,
      portCount: ports,
      processor: node,
      portRoles: roles,
      virtualRouterOf: zeros,
      coordinates: [x, y, z],
    });
  }
  return chips;
}

/** `$.design.shape`: three ring sizes within `ring`, their product within `nodes` (each bound's text says what it is). */
export function checkTorusShape(
  value: unknown,
  c: JsonChecker,
  limits: { readonly ring: readonly [number, number]; readonly nodes: readonly [number, string, number, string] },
): [number, number, number] | undefined {
  const list = c.array(value, '$.design.shape', 3);
  if (!list) return undefined;
  if (list.length !== 3) return c.fail('$.design.shape', `must give three ring sizes [x, y, z], got ${list.length}`);
  const k = list.map((v, i) => c.integer(v, `$.design.shape[${i}]`, limits.ring[0], limits.ring[1]));
  if (!k.every((v): v is number => v !== undefined)) return undefined;
  const nodes = k[0] * k[1] * k[2];
  const [least, leastText, most, mostText] = limits.nodes;
  if (nodes < least) return c.fail('$.design.shape', `at least ${least} ${leastText}, got ${k.join('×')} = ${nodes}`);
  if (nodes > most) return c.fail('$.design.shape', `at most ${most} ${mostText}, got ${k.join('×')} = ${nodes}`);
  return [k[0], k[1], k[2]];
}
