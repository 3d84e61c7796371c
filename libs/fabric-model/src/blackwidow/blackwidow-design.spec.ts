import { generateBlackWidowDesign, defaultCableLengths, BlackWidowNetwork } from './blackwidow-design';
import { cableEndKey } from '../fabric-design';

function design(network: BlackWidowNetwork, processors: number, slices = 4, r1Uplinks = 32, portSeed = 0) {
  return generateBlackWidowDesign({ network, processors, slices, r1Uplinks, portSeed, cableLengths: defaultCableLengths(processors) });
}

function routersByRank(d: ReturnType<typeof design>) {
  const counts: Record<number, number> = {};
  for (const chip of d.chips) if (chip.kind === 'router') counts[chip.rank] = (counts[chip.rank] ?? 0) + 1;
  return counts;
}

describe('BlackWidow designs (paper 000 §2.2)', () => {
  it('R1: one YARC per slice serves 32 processors through their four injection ports', () => {
    const d = design('R1', 32);
    expect(routersByRank(d)).toEqual({ 1: 4 });
    expect(d.cables.filter((c) => c.cableClass === 'injection')).toHaveLength(128);
  });

  it('R1.5 with 288 processors: nine R1 subtrees, every pair joined by four sidelinks in each slice', () => {
    const d = design('R1.5', 288);
    expect(routersByRank(d)).toEqual({ 1: 36 });
    const side = d.cables.filter((c) => c.cableClass === 'side');
    expect(side).toHaveLength(4 * 36 * 4);
    const pairs = new Map<string, number>();
    for (const c of side) {
      const key = [c.a.chip, c.b.chip].sort().join('|');
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    expect([...pairs.values()].every((n) => n === 4)).toBe(true);
  });

  it('R2 with 1024 processors: each R1 reaches each of the 32 radix-32 R2 virtual routers by one cable', () => {
    const d = design('R2', 1024);
    expect(routersByRank(d)).toEqual({ 1: 128, 2: 64 });
    const r2 = d.chips.find((c) => c.name === 's0.r2.0.0')!;
    expect(new Set(r2.virtualRouterOf)).toEqual(new Set([0, 1]));
    expect(r2.portRoles.every((r) => r === 'down')).toBe(true);
  });

  it('R3.5 with 32K processors has diameter 7 by construction: four R3 subtrees joined by sidelinks', () => {
    const d = design('R3.5', 32768, 1);
    expect(routersByRank(d)).toEqual({ 1: 1024, 2: 1024, 3: 1024 });
    const r3 = d.chips.find((c) => c.name === 's0.r3.0.0')!;
    expect(r3.portRoles.filter((r) => r === 'down')).toHaveLength(32);
    expect(r3.portRoles.filter((r) => r === 'side')).toHaveLength(30);
  });

  it('a bandwidth taper connects only some R1 uplinks', () => {
    const d = design('R2', 512, 1, 8);
    expect(d.cables.filter((c) => c.cableClass === 'up')).toHaveLength(16 * 8);
    expect(routersByRank(d)).toEqual({ 1: 16, 2: 4 });
  });

  it('never puts two cables on one port, and the port shuffle stays within octants', () => {
    for (const seed of [0, 7]) {
      const d = design('R2.5', 4608, 2, 32, seed);
      const ends = new Set<string>();
      for (const c of d.cables) for (const end of [c.a, c.b]) ends.add(cableEndKey(end));
      expect(ends.size).toBe(2 * d.cables.length);
      // §4.4: downlinks and uplinks keep their octants, so each octant holds one kind of link.
      const mixedOctants = d.chips
        .filter((chip) => chip.kind === 'router' && chip.rank === 1)
        .flatMap((chip) => [0, 1, 2, 3, 4, 5, 6, 7].filter((o) => new Set(chip.portRoles.slice(o * 8, o * 8 + 8)).size !== 1));
      expect(mixedOctants).toEqual([]);
    }
  });

  it('refuses, whoever calls it, what an installation file would be refused for: a ten-subtree R1.5, a taper on an R1', () => {
    const lengths = defaultCableLengths(320);
    expect(() => generateBlackWidowDesign({ network: 'R1.5', processors: 320, slices: 1, r1Uplinks: 32, portSeed: 0, cableLengths: lengths })).toThrow(
      'design: invalid installation\n  $.design.processors: must be between 1 and 288, got 320',
    );
    expect(() => generateBlackWidowDesign({ network: 'R1', processors: 32, slices: 1, r1Uplinks: 16, portSeed: 0, cableLengths: lengths })).toThrow(
      '$.design.r1Uplinks: a taper applies to R1-to-R2 cables; R1 has none',
    );
  });

  it('is deterministic for a seed', () => {
    expect(design('R1.5', 96, 4, 32, 3).cables).toEqual(design('R1.5', 96, 4, 32, 3).cables);
    expect(design('R1.5', 96, 4, 32, 3).cables).not.toEqual(design('R1.5', 96, 4, 32, 4).cables);
  });
});
