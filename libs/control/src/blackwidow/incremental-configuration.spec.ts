import fc from 'fast-check';
import { defaultCableLengths, generateBlackWidowDesign } from '@weft/fabric-model';
import { designAsDiscovered } from '../discovery/known-fabric';
import { routerCables, SmallNetwork, smallDesign } from '../testing/small-fabrics';
import type { RouterImage } from './blackwidow-engine';
import { configureBlackWidow, faultSet } from './configure-blackwidow';
import { BlackWidowConfigurator } from './incremental-configuration';

const registers = (r: RouterImage) => JSON.stringify([r.portDirection, r.virtualRouters]);

describe('incremental reconfiguration', () => {
  it('gives the registers, the verdict and the changed routers of a full configuration, through random cuts, router deaths and repairs (property)', () => {
    let steps = 0;
    let deathsRoutedAround = 0;
    let revivalsRecomputed = 0;
    let incrementalSteps = 0;
    let failedVerdicts = 0;
    fc.assert(
      fc.property(
        fc.constantFrom<[string, number]>(['R1.5', 160], ['R2', 256], ['R2', 512], ['R2.5', 1536]),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.array(fc.integer({ min: 0, max: 1 << 30 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 2 }),
        ([network, processors], seed, cuts, slices) => {
          const design = smallDesign(network as SmallNetwork, processors, seed, slices);
          const known = designAsDiscovered(design, 'p0');
          const inner = routerCables(design);
          const configurator = new BlackWidowConfigurator(known);
          configurator.configure(faultSet([]));
          let previous = configureBlackWidow(known, faultSet([]));
          const faults: { kind: string; chip: string; port: number | null }[] = [];
          for (const step of cuts) {
            // Each step cuts a random cable, repairs one cut earlier, now and then cuts every
            // uplink of one R1 (its processors are cut off: no configuration can be proven), or
            // kills the router above a cable.
            const cable = inner[step % inner.length];
            let dying = false;
            let reviving = false;
            if (faults.length > 0 && step % 3 === 0) reviving = faults.splice(step % faults.length, 1)[0].kind === 'router';
            else if (step % 11 === 1) {
              for (const c of inner) if (c.a.chip === cable.a.chip) faults.push({ kind: 'link', chip: c.a.chip, port: c.a.port });
            } else if (step % 7 === 2) {
              faults.push({ kind: 'router', chip: cable.b.chip, port: null });
              dying = true;
            } else faults.push({ kind: 'link', chip: cable.a.chip, port: cable.a.port });
            const incremental = configurator.configure(faultSet(faults));
            if (dying && incremental.incremental) deathsRoutedAround++;
            if (reviving && incremental.incremental) revivalsRecomputed++;
            const full = configureBlackWidow(known, faultSet(faults));
            stepsTaken(incremental.incremental, full.verification.ok);
            expect(incremental.verification.ok).toBe(full.verification.ok);
            if (full.verification.ok) expect(incremental.verification.endpointsProven).toBe(full.verification.endpointsProven);
            expect(incremental.image.routers.map(registers)).toEqual(full.image.routers.map(registers));
            expect([...incremental.image.problems].sort()).toEqual([...full.image.problems].sort());
            const before = new Map(previous.image.routers.map((r) => [r.name, registers(r)]));
            const changed = full.image.routers.filter((r) => registers(r) !== before.get(r.name)).map((r) => r.name);
            expect([...incremental.changedRouters].sort()).toEqual(changed.sort());
            previous = full;
          }
        },
      ),
      { numRuns: 60, seed: 20261121 },
    );
    // The comparison means something only if most steps took the incremental path, and some
    // configurations were refused (so that verdicts were compared both ways).
    expect(incrementalSteps / steps).toBeGreaterThan(0.6);
    expect(deathsRoutedAround).toBeGreaterThan(5);
    expect(revivalsRecomputed).toBeGreaterThan(0);
    expect(failedVerdicts).toBeGreaterThan(0);
    function stepsTaken(incremental: boolean, ok: boolean) {
      steps++;
      if (incremental) incrementalSteps++;
      if (!ok) failedVerdicts++;
    }
  });

  it('reacts to one cable cut on a large fabric by recomputing a fraction of it, and proves only the blocks below the cut again', () => {
    const design = generateBlackWidowDesign({
      network: 'R2.5',
      processors: 4608,
      slices: 1,
      r1Uplinks: 32,
      portSeed: 3,
      cableLengths: defaultCableLengths(4608),
    });
    const known = designAsDiscovered(design, 'p0');
    const configurator = new BlackWidowConfigurator(known);
    const first = configurator.configure(faultSet([]));
    const cut = design.cables.find((c) => c.a.chip === 's0.r1.7' && c.b.chip.startsWith('s0.r2.'))!;
    const next = configurator.configure(faultSet([{ kind: 'link', chip: cut.a.chip, port: cut.a.port }]));
    expect(next).toMatchObject({ incremental: true, verification: { ok: true } });
    // Far fewer states than proving the whole fabric: the blocks below the cut, from every source.
    expect(next.verification.states).toBeLessThan(first.verification.states / 20);
    expect(next.changedRouters).toContain(cut.a.chip);
    expect(next.changedRouters).toContain(cut.b.chip);
  });

  it('keeps the proof of a configuration that comes back when the cut cable is replaced, and proves a new one afresh', () => {
    const design = generateBlackWidowDesign({
      network: 'R2',
      processors: 1024,
      slices: 1,
      r1Uplinks: 32,
      portSeed: 5,
      cableLengths: defaultCableLengths(1024),
    });
    const known = designAsDiscovered(design, 'p0');
    const configurator = new BlackWidowConfigurator(known);
    const healthy = configurator.configure(faultSet([]));
    const [first, second] = design.cables.filter((c) => c.a.chip.startsWith('s0.r1.') && c.b.chip.startsWith('s0.r2.'));
    const cut = configurator.configure(faultSet([{ kind: 'link', chip: first.a.chip, port: first.a.port }]));
    const replaced = configurator.configure(faultSet([]));
    expect(replaced).toMatchObject({ incremental: true, verification: { ok: true } });
    expect(replaced.verification).toBe(healthy.verification);
    expect(replaced.image.routers.map(registers)).toEqual(healthy.image.routers.map(registers));
    expect([...replaced.changedRouters].sort()).toEqual([...cut.changedRouters].sort());
    // Another cut is a configuration never proven: it gets a proof of its own.
    const other = configurator.configure(faultSet([{ kind: 'link', chip: second.a.chip, port: second.a.port }]));
    expect(other.verification).not.toBe(cut.verification);
    expect(other.verification).not.toBe(healthy.verification);
    expect(other.verification.ok).toBe(true);
    // A router that dies is routed around incrementally and left out of the image; coming back it
    // is recomputed with its neighbours, and the configuration, the healthy one again, keeps its proof.
    const dead = configurator.configure(faultSet([{ kind: 'router', chip: 's0.r2.0.1', port: null }]));
    expect(dead).toMatchObject({ incremental: true, verification: { ok: true } });
    expect(dead.image.routers.map((r) => r.name)).not.toContain('s0.r2.0.1');
    expect(dead.changedRouters).not.toContain('s0.r2.0.1');
    const revived = configurator.configure(faultSet([]));
    expect(revived.incremental).toBe(true);
    expect(revived.image.routers.map((r) => r.name)).toContain('s0.r2.0.1');
    expect(revived.changedRouters).toContain('s0.r2.0.1');
    expect(revived.verification).toBe(healthy.verification);
  });
});
