import { FLAT_PACKAGING, generateFlatDesign, mulberry32 } from '@weft/fabric-model';
import { designAsDiscovered } from '../discovery/known-fabric';
import { FaultSet } from '../faults/fault-set';
import { computeFlatImage } from './flat-configuration';
import { FlatReach } from './flat-reach';

describe('the walks between a flattened butterfly’s routers (flat-reach.ts)', () => {
  it('after each of a run of cut cables, dead routers and repairs, re-walking only what the change visited finds the walks walking all of them finds', () => {
    // A 4-ary 4-flat: 64 routers in a 4×4×4 grid, 4,032 walks.
    const design = generateFlatDesign({ k: 4, n: 4, radix: 13, spareUse: 'unused', packaging: FLAT_PACKAGING });
    const known = designAsDiscovered(design, design.chips[0].name);
    const cables = design.cables.filter((c) => design.chips.find((chip) => chip.name === c.b.chip)?.kind === 'router');
    const routers = design.chips.filter((c) => c.kind === 'router').map((c) => c.name);
    const random = mulberry32(55);
    const faults: { kind: 'link' | 'router'; chip: string; port: number | null }[] = [];
    const ports = (chip: string) => design.chips.find((c) => c.name === chip)!.portCount;
    let reach: FlatReach | null = null;
    let failingSeen = 0;
    let lostChanged = 0;
    for (let step = 0; step < 40; step++) {
      // Break something (a cable mostly, a router now and then), or repair what broke first.
      if (faults.length > 0 && random() < 0.3) faults.splice(Math.floor(random() * faults.length), 1);
      else if (random() < 0.15) faults.push({ kind: 'router', chip: routers[Math.floor(random() * routers.length)], port: null });
      else {
        const cable = cables[Math.floor(random() * cables.length)];
        faults.push({ kind: 'link', chip: cable.a.chip, port: cable.a.port });
      }
      const { image } = computeFlatImage(known, FaultSet.of(faults, ports), { routing: 'ugal' });
      const whole = FlatReach.of(image.grid, image.routers);
      // Mostly from the incremental reach before, so that what it got wrong would carry on.
      let next = whole;
      if (reach) {
        next = reach.after(image.routers);
        expect(next.failingWalks()).toEqual(whole.failingWalks());
        expect(next.lost).toBe(whole.lost);
        expect(next.pairs).toBe(whole.pairs);
        if (next.lost !== reach.lost) lostChanged++;
      }
      failingSeen += whole.lost;
      reach = step % 8 === 7 ? whole : next;
    }
    // The run did strand walks, and changed how many did: the comparison above had something to find.
    expect(failingSeen).toBeGreaterThan(0);
    expect(lostChanged).toBeGreaterThan(3);
  });

  it('walks again the walks that detour through a router whose channel onwards is masked, though the detouring router is unchanged', () => {
    const design = generateFlatDesign({ k: 4, n: 4, radix: 13, spareUse: 'unused', packaging: FLAT_PACKAGING });
    const known = designAsDiscovered(design, design.chips[0].name);
    const cable = design.cables.find((c) => c.a.chip === 'r0.0.0' && design.chips.find((chip) => chip.name === c.b.chip)?.kind === 'router')!;
    const ports = (chip: string) => design.chips.find((c) => c.name === chip)!.portCount;
    const { image } = computeFlatImage(known, FaultSet.of([{ kind: 'link', chip: cable.a.chip, port: cable.a.port }], ports), { routing: 'ugal' });
    const before = FlatReach.of(image.grid, image.routers);
    expect(before.lost).toBe(0);
    // r0.0.0's detour round the cut cable goes through a middle router: mask that router's channel onwards, by hand.
    const from = image.routers.find((r) => r.name === 'r0.0.0')!;
    const slot = from.detourVia.findIndex((v) => v >= 0);
    const middle = image.routers.find((r) => r.coordinates.every((x, d) => (d === 0 ? x === from.detourVia[slot] : x === from.coordinates[d])))!;
    const masked = { ...middle, portMask: middle.portMask.map((m, p) => (p === middle.portMap[slot] ? 1 : m)) };
    const routers = image.routers.map((r) => (r === middle ? masked : r));
    const after = before.after(routers);
    const whole = FlatReach.of(image.grid, routers);
    expect(whole.lost).toBeGreaterThan(0);
    expect(after.failingWalks()).toEqual(whole.failingWalks());
  });
});
