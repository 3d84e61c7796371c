import { anton2ChipWiring, shippedAnton2Floorplan, Torus } from '@weft/fabric-model';
import { anton2Dependencies, anton2DependenciesByRoute, Anton2DependencyInput, edgesByArrival, edgesByRoute } from './anton2-dependencies';

const wiring = anton2ChipWiring(shippedAnton2Floorplan());

/** §2.5's datelines (between k − 1 and 0, both directions) on every node, with `change` applied. */
function machine(
  shape: [number, number, number],
  tieRule: Anton2DependencyInput['tieRule'],
  change?: (plus: Int32Array, minus: Int32Array, torus: Torus) => void,
): Anton2DependencyInput {
  const torus = new Torus(shape);
  const datelinePlus = new Int32Array(3 * torus.size);
  const datelineMinus = new Int32Array(3 * torus.size);
  for (let n = 0; n < torus.size; n++) for (let d = 0; d < 3; d++) datelinePlus[3 * n + d] = datelineMinus[3 * n + d] = shape[d] - 1;
  change?.(datelinePlus, datelineMinus, torus);
  return { torus, wiring, datelinePlus, datelineMinus, tieRule };
}

function same(a: ReadonlyMap<number, ReadonlySet<number>>, b: ReadonlyMap<number, ReadonlySet<number>>): string[] {
  const differences: string[] = [];
  for (const [from, set] of a) for (const to of set) if (!b.get(from)?.has(to)) differences.push(`only by route: ${from} → ${to}`);
  for (const [from, set] of b) for (const to of set) if (!a.get(from)?.has(to)) differences.push(`only by arrival: ${from} → ${to}`);
  return differences.slice(0, 5);
}

describe('Anton 2 channel dependencies over every buffer (A-V3)', () => {
  it('stays acyclic with both of a ring’s datelines moved together (§2.5 asks only that they lie between the same two nodes)', () => {
    const input = machine([4, 5, 6], 'random', (p, m) => p.forEach((_, i) => i % 3 === 2 && ((p[i] = 2), (m[i] = 2))));
    expect(same(edgesByRoute(input), edgesByArrival(input))).toEqual([]);
    expect(anton2Dependencies(input).acyclic).toBe(true);
  });

  it.each([
    ['4×4×4, random ties', [4, 4, 4], 'random'],
    ['5×4×6, random ties', [5, 4, 6], 'random'],
    ['6×5×1, ties always +', [6, 5, 1], 'plus'],
    ['4×6×2, ties by parity', [4, 6, 2], 'source-parity'],
  ] as const)('finds exactly the dependencies of every route on %s, and no cycle with 4 VCs', (_name, shape, tie) => {
    const input = machine([...shape], tie);
    expect(same(edgesByRoute(input), edgesByArrival(input))).toEqual([]);
    expect(anton2Dependencies(input).acyclic).toBe(true);
  });

  it.each([
    ['the − dateline of x one node off the +', (p: Int32Array, m: Int32Array) => m.forEach((_, i) => i % 3 === 0 && (m[i] = 1))],
    ['one node’s y datelines elsewhere', (p: Int32Array, m: Int32Array, t: Torus) => ((p[3 * t.index(1, 2, 0) + 1] = 1), (m[3 * t.index(1, 2, 0) + 1] = 1))],
  ])('agrees with every route walked when %s, and shows the cycle that makes', (_name, change) => {
    const input = machine([4, 5, 6], 'random', change);
    const byRoute = edgesByRoute(input);
    expect(same(byRoute, edgesByArrival(input))).toEqual([]);
    const found = anton2Dependencies(input);
    expect(found.acyclic).toBe(false);
    expect(anton2DependenciesByRoute(input).acyclic).toBe(false);
    expect(found.cycle![0]).toBe(found.cycle![found.cycle!.length - 1]);
    expect(found.cycle!.length).toBeGreaterThan(3);
  });
});
