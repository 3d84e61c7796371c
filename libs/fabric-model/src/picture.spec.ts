import { defaultCableLengths, generateBlackWidowDesign } from './blackwidow/blackwidow-design';
import type { FabricFamily } from './fabric-design';
import { FABRIC_FAMILY_MODELS } from './families';
import { PictureChip } from './picture';

function chipsOf(family: FabricFamily, design: unknown): PictureChip[] {
  const model = FABRIC_FAMILY_MODELS[family];
  return model.generateDesign(design as never).chips.map((c) => ({ name: c.name, kind: c.kind, placement: model.placement(c), processor: c.processor }));
}

const places = (l: { x: Float64Array; y: Float64Array }) => new Set(Array.from(l.x, (x, i) => `${x},${l.y[i]}`));

describe('how each family is drawn (the console reads it from the API)', () => {
  it('draws BlackWidow as ranks and slices: processors along the bottom, each slice’s R1s in a row above, slices side by side', () => {
    const design = generateBlackWidowDesign({
      network: 'R1.5',
      processors: 288,
      slices: 4,
      r1Uplinks: 32,
      portSeed: 0,
      cableLengths: defaultCableLengths(288),
    });
    const chips = design.chips.map((c) => ({ name: c.name, kind: c.kind, placement: FABRIC_FAMILY_MODELS.blackwidow.placement(c), processor: c.processor }));
    const layout = FABRIC_FAMILY_MODELS.blackwidow.picture.layout(chips);
    expect(places(layout).size).toBe(chips.length);
    const at = (name: string) => ({ x: layout.x[chips.findIndex((c) => c.name === name)], y: layout.y[chips.findIndex((c) => c.name === name)] });
    expect(at('p0').y).toBe(0);
    expect(at('s0.r1.0').y).toBeGreaterThan(0);
    expect(at('s1.r1.0').y).toBe(at('s0.r1.0').y);
    expect(at('s1.r1.0').x).toBeGreaterThan(at('s0.r1.8').x);
    expect(layout.groups.map((g) => g.label)).toEqual(['slice 0 · R1', 'slice 1 · R1', 'slice 2 · R1', 'slice 3 · R1', 'processors']);
  });

  it('draws a torus as planes of the cube, each z-plane apart from the next', () => {
    const chips = chipsOf('bgl', { shape: [4, 4, 2] });
    const layout = FABRIC_FAMILY_MODELS.bgl.picture.layout(chips);
    expect(places(layout).size).toBe(32);
    expect(layout.groups.map((g) => g.label)).toEqual(['z = 0', 'z = 1']);
    const at = (z: number) => chips.findIndex((c) => c.placement.x === 0 && c.placement.y === 0 && c.placement.z === z);
    const [z0, z1] = [at(0), at(1)];
    expect(Math.max(Math.abs(layout.x[z1] - layout.x[z0]), Math.abs(layout.y[z1] - layout.y[z0]))).toBeGreaterThanOrEqual(4);
    expect(layout.group[z1]).toBe(1);
  });

  it('draws a torus folded: on 8×8×8 every link of a plane spans at most two chips and passes by the chips between its ends, and z neighbours in planes side by side (issue 54)', () => {
    const model = FABRIC_FAMILY_MODELS.bgl;
    const design = model.generateDesign({ shape: [8, 8, 8] } as never);
    const chips = design.chips.map((c) => ({ name: c.name, kind: c.kind, placement: model.placement(c), processor: c.processor }));
    const layout = model.picture.layout(chips);
    const index = new Map(chips.map((c, i) => [c.name, i]));
    const plane = (i: number) => layout.group[i];
    const nodes = chips.map((_, i) => i);
    let inPlane = 0;
    for (const cable of design.cables) {
      const [a, b] = [index.get(cable.a.chip)!, index.get(cable.b.chip)!];
      if (a === undefined || b === undefined || a === b) continue;
      const length = Math.hypot(layout.x[a] - layout.x[b], layout.y[a] - layout.y[b]);
      if (plane(a) === plane(b)) {
        inPlane++;
        expect(length).toBeLessThanOrEqual(2.1);
        // Not through another chip of the plane: every other chip at least a fifth of a pitch off the line.
        for (const i of nodes) {
          if (i === a || i === b || plane(i) !== plane(a)) continue;
          const [dx, dy] = [layout.x[b] - layout.x[a], layout.y[b] - layout.y[a]];
          const t = Math.max(0, Math.min(1, ((layout.x[i] - layout.x[a]) * dx + (layout.y[i] - layout.y[a]) * dy) / (dx * dx + dy * dy)));
          expect(Math.hypot(layout.x[i] - layout.x[a] - t * dx, layout.y[i] - layout.y[a] - t * dy)).toBeGreaterThan(0.2);
        }
      } else {
        // Planes of 8 chips and a gap of 2: the next plane beside (10 pitches across) or below (10 down), never diagonally.
        const [dx, dy] = [Math.abs(layout.x[a] - layout.x[b]), Math.abs(layout.y[a] - layout.y[b])];
        expect(Math.max(dx, dy)).toBeLessThanOrEqual(10.5);
        expect(Math.min(dx, dy)).toBeLessThanOrEqual(0.5);
      }
    }
    expect(inPlane).toBe(2 * 512);
  });

  it('draws the flattened butterfly by dimension, a block for each setting of the higher dimensions', () => {
    const chips = chipsOf('flattened-butterfly', { k: 4, n: 4 });
    const layout = FABRIC_FAMILY_MODELS['flattened-butterfly'].picture.layout(chips);
    expect(chips).toHaveLength(64);
    expect(places(layout).size).toBe(64);
    expect(layout.groups.map((g) => g.label)).toEqual(['d3 = 0', 'd3 = 1', 'd3 = 2', 'd3 = 3']);
  });
});
