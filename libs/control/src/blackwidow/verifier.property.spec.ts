import { FaultSet } from '../faults/fault-set';
import fc from 'fast-check';
import { seeded, SmallNetwork, smallDesign } from '../testing/small-fabrics';
import { designAsDiscovered } from '../discovery/known-fabric';
import { ConfigurationImage, computeBlackWidowImage, PORT_DOWNLINK, PORT_SIDELINK, PORT_UPLINK } from './blackwidow-engine';
import { applyFaultEntries } from './fault-entries';
import { verifyConfiguration, VerifierCable } from './verifier';

/**
 * The brute force the verifier must agree with: from every source processor to every destination,
 * follow every port the registers allow at every hop (§5), and fail on a dead link, a missing
 * route, an up-after-down turn, a loop, or arriving anywhere but the destination.
 */
function bruteForce(image: ConfigurationImage, cables: readonly VerifierCable[], processors: number[]): boolean {
  const far = new Map<string, { chip: string; port: number; lanes: number }>();
  for (const c of cables) {
    far.set(`${c.a.chip}:${c.a.port}`, { ...c.b, lanes: c.lanes });
    far.set(`${c.b.chip}:${c.b.port}`, { ...c.a, lanes: c.lanes });
  }
  const routers = new Map(image.routers.map((r) => [r.name, r]));
  const vrAt = (chip: string, port: number) => routers.get(chip)?.virtualRouters.find((v) => v.tiles.includes(port));
  const walk = (chip: string, inPort: number, dest: number, descending: boolean, depth: number): boolean => {
    if (depth > 8) return false;
    const router = routers.get(chip);
    const vr = vrAt(chip, inPort);
    if (!router || !vr) return false;
    const inSubtree = ((dest ^ vr.rootDetect[0]) & ~vr.rootDetect[1] & 0x7fff) === 0;
    let ports: readonly number[];
    if (inSubtree) {
      const p = vr.portMap[(dest >>> vr.downRoute[0]) & vr.downRoute[1]];
      if (p === undefined || p < 0 || router.portDirection[p] !== PORT_DOWNLINK) return false;
      ports = [p];
    } else {
      if (descending) return false;
      const entry = [...vr.table].reverse().find((e) => ((dest ^ e.location) & ~e.mask & 0x7fff) === 0);
      if (!entry || entry.ports.length === 0) return false;
      ports = entry.ports;
    }
    return ports.every((p) => {
      const next = far.get(`${chip}:${p}`);
      if (!next || next.lanes === 0) return false;
      if (next.chip.startsWith('p')) return inSubtree && Number(next.chip.slice(1)) === dest;
      const direction = router.portDirection[p];
      if (!inSubtree && direction !== PORT_UPLINK && direction !== PORT_SIDELINK) return false;
      return walk(next.chip, next.port, dest, inSubtree || direction === PORT_SIDELINK, depth + 1);
    });
  };
  for (const src of processors) {
    const link = far.get(`p${src}:0`);
    if (!link || link.lanes === 0) continue;
    for (const dest of processors) {
      if (dest === src) continue;
      const destLink = far.get(`p${dest}:0`);
      if (!destLink || destLink.lanes === 0) continue;
      if (!walk(link.chip, link.port, dest, false, 0)) return false;
    }
  }
  return true;
}

describe('verifier against a brute-force walk of the registers (property)', () => {
  it('agrees on random small fabrics with random dead cables and random register damage', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<[string, number]>(['R1.5', 64], ['R1.5', 96], ['R1.5', 160], ['R2', 64], ['R2', 128]),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        ([network, processors], seed, cuts, damage) => {
          const design = smallDesign(network as SmallNetwork, processors, seed);
          const random = seeded(seed);
          // Cut random router-to-router cables (the control plane sees them dead).
          const cables: VerifierCable[] = design.cables.map((c) => ({ a: c.a, b: c.b, lanes: 3 }));
          const inner = cables.filter((c) => !c.a.chip.startsWith('p'));
          for (let k = 0; k < cuts && inner.length > 0; k++) (inner[Math.floor(random() * inner.length)] as { lanes: number }).lanes = 0;
          const live = cables.filter((c) => c.lanes > 0);
          const { discovered, matched: asFound } = designAsDiscovered(design, 'p0');
          const matched = { ...asFound, cables: live };
          let image = applyFaultEntries(computeBlackWidowImage(discovered, matched, design), live, Math.ceil(processors / 32));
          if (damage) {
            // Break one register somewhere: drop a table entry or flip a port direction.
            const router = image.routers[Math.floor(random() * image.routers.length)];
            const vr = router.virtualRouters[0];
            const routersCopy = image.routers.map((r) =>
              r !== router
                ? r
                : random() < 0.5 && vr && vr.table.length > 0
                  ? { ...r, virtualRouters: [{ ...vr, table: vr.table.slice(0, -1) }, ...r.virtualRouters.slice(1)] }
                  : { ...r, portDirection: r.portDirection.map((d, p) => (p === 40 ? (d === PORT_SIDELINK ? PORT_DOWNLINK : PORT_SIDELINK) : d)) },
            );
            image = { ...image, routers: routersCopy };
          }
          const all = Array.from({ length: processors }, (_, i) => i);
          const verdict = verifyConfiguration({ image, cables, processors: all, slices: [0], diameter: 8 });
          expect(verdict.ok).toBe(bruteForce(image, cables, all));
        },
      ),
      { numRuns: 60, seed: 20261121 },
    );
  });
});

describe('fault entries restricted to the blocks with a fault below them (property)', () => {
  it('are exactly the entries computed over every block, on random fabrics with random dead cables', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<[string, number]>(['R1.5', 160], ['R2', 128], ['R2', 512], ['R2.5', 1536]),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 2 }),
        ([network, processors], seed, cuts, slices) => {
          const design = smallDesign(network as SmallNetwork, processors, seed, slices);
          const random = seeded(seed);
          const cables: VerifierCable[] = design.cables.map((c) => ({ a: c.a, b: c.b, lanes: 3 }));
          const inner = cables.filter((c) => !c.a.chip.startsWith('p'));
          for (let k = 0; k < cuts; k++) (inner[Math.floor(random() * inner.length)] as { lanes: number }).lanes = 0;
          const live = cables.filter((c) => c.lanes > 0);
          const { discovered, matched: asFound } = designAsDiscovered(design, 'p0');
          const healthy = computeBlackWidowImage(discovered, { ...asFound, cables: live }, design);
          const blocks = Math.ceil(processors / 32);
          expect(applyFaultEntries(healthy, live, blocks)).toEqual(applyFaultEntries(healthy, live, blocks, FaultSet.NONE, true));
        },
      ),
      { numRuns: 100, seed: 20261121 },
    );
  });
});
