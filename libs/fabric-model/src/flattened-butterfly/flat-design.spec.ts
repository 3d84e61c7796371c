import { JsonChecker } from '../installation/json-checker';
import { checkFlatDesign, FLAT_PACKAGING, FlatDesignParams, flatLayout, generateFlatDesign } from './flat-design';
import { flatDifferingDimensions, flatGrid } from './flat-topology';

const design = (k: number, n: number, more: Partial<FlatDesignParams> = {}): FlatDesignParams => ({
  k,
  n,
  radix: n * (k - 1) + 1,
  spareUse: 'unused',
  packaging: FLAT_PACKAGING,
  ...more,
});

function checked(value: unknown): { params?: FlatDesignParams; issues: string[] } {
  const c = new JsonChecker();
  const params = checkFlatDesign(value, c);
  return { params, issues: c.issues.map((i) => `${i.path}: ${i.message}`) };
}

describe('flattened butterfly designs (paper 003 §2.2, §4.2, §5.1.2)', () => {
  it('builds the 32-ary 2-flat: 32 routers of radix 63, every pair cabled once by eq. (1), terminals on ports 0–31', () => {
    const d = generateFlatDesign(design(32, 2));
    expect(d.chips).toHaveLength(32);
    expect(d.cables).toHaveLength(496);
    const index = new Map(d.chips.map((c, i) => [c.name, i]));
    const ends = new Set<string>();
    for (const cable of d.cables) {
      expect(flatDifferingDimensions(flatGrid({ k: 32, n: 2 }), index.get(cable.a.chip)!, index.get(cable.b.chip)!)).toEqual([1]);
      for (const end of [cable.a, cable.b]) ends.add(`${end.chip}:${end.port}`);
    }
    // Every peer port of every router used exactly once.
    expect(ends.size).toBe(32 * 31);
    expect(d.chips[5]).toMatchObject({ name: 'r5', portCount: 63, coordinates: [5] });
    expect(d.chips[5].portRoles.filter((r) => r === 'terminal')).toHaveLength(32);
    // r5's port to r0 is its first peer port; r0's port to r5 its fifth (its own coordinate skipped).
    expect(d.cables.find((c) => c.a.chip === 'r0' && c.b.chip === 'r5')).toMatchObject({ a: { port: 36 }, b: { port: 32 } });
  });

  it('packages 128 nodes a cabinet: a 32-ary 2-flat in 8 cabinets, channels within one on the backplane, the rest short cables', () => {
    const layout = flatLayout(design(32, 2));
    expect(layout.cabinets).toBe(8);
    const backplane = layout.cables.filter((c) => c.backplane);
    // Four routers a cabinet: six pairs in each of the eight.
    expect(backplane).toHaveLength(48);
    expect(backplane.every((c) => layout.cabinetOf[c.a] === layout.cabinetOf[c.b] && c.lengthMeters === 1)).toBe(true);
    // Cables: the distance between cabinets plus 2 m of vertical run; neighbours 0.57 m apart.
    const cables = layout.cables.filter((c) => !c.backplane);
    expect(Math.min(...cables.map((c) => c.lengthMeters))).toBe(2.57);
    expect(Math.max(...cables.map((c) => c.lengthMeters))).toBeLessThan(8);
  });

  it('keeps dimension 1 of the 64K-node 16-ary 4-flat within pairs of cabinets (§4.2) and runs dimensions 2 and 3 across the floor', () => {
    const layout = flatLayout(design(16, 4, { radix: 64 }));
    expect(layout.cabinets).toBe(512);
    const lengths = (d: number) => layout.cables.filter((c) => c.dimension === d).map((c) => c.lengthMeters);
    expect(Math.max(...lengths(1))).toBe(2.57);
    const edge = Math.sqrt(65536 / 75);
    // Longer than dimension 1's, and within the two edges of the near-square floor.
    for (const d of [2, 3]) expect(Math.max(...lengths(d))).toBeGreaterThan(2 * 2.57);
    expect(Math.max(...lengths(2), ...lengths(3))).toBeLessThan(2 * edge + 2);
    expect(generateFlatDesign(design(16, 4, { radix: 64 })).chips[4095].portRoles.filter((r) => r === 'unused')).toHaveLength(3);
  });

  it('sizes a network from a router radix and the terminals wanted (§5.1.2), and spends spare ports as Fig. 14 does', () => {
    expect(checked({ radix: 64, terminals: 1024 }).params).toMatchObject({ k: 32, n: 2, radix: 64 });
    // (a) Redundant: the 64th port doubles the channel to the router whose coordinate differs in the lowest bit.
    const redundant = generateFlatDesign(design(32, 2, { radix: 64, spareUse: 'redundant' }));
    const doubled = redundant.cables.filter((c) => c.a.port === 63);
    expect(doubled).toHaveLength(16);
    expect(doubled[0]).toMatchObject({ a: { chip: 'r0', port: 63 }, b: { chip: 'r1', port: 63 } });
    // (b) Extend: a 4-ary 2-flat of radix-8 routers grows from 16 terminals to 20 (5 routers).
    const extended = generateFlatDesign(design(4, 2, { radix: 8, spareUse: 'extend' }));
    expect(extended.summary).toMatchObject({ terminals: 20, routers: 5, sizes: '5' });
    expect(extended.chips.every((c) => c.portRoles.every((r) => r !== 'unused'))).toBe(true);
  });

  it('names every mistake in a design by its path', () => {
    expect(checked({ k: 32, n: 2, radix: 40 }).issues).toEqual(['$.design.radix: a 32-ary 2-flat needs routers of radix n(k − 1) + 1 = 63 (eq. (1)), got 40']);
    expect(checked({ k: 32, n: 2, terminals: 1024 }).issues[0]).toMatch(/^\$\.design\.terminals: give either k and n/);
    expect(checked({ radix: 5, terminals: 1000 }).issues).toEqual([
      '$.design: radix-5 routers cannot reach 1000 terminals: with 2 dimensions each router would have fewer than 2 terminals',
    ]);
    expect(checked({ k: 32, n: 4 }).issues[0]).toMatch(/at most 65536 terminals/);
    expect(checked({ k: 4, n: 3, spareUse: 'double', packaging: { cableOverheadMeters: -1 } }).issues).toEqual([
      '$.design.spareUse: must be one of "unused", "redundant", "extend", got "double"',
      '$.design.packaging.cableOverheadMeters: must be between 0 and 20, got -1',
    ]);
  });
});
