/**
 * Small BlackWidow designs for property tests of the pure computations (specs only): generated as
 * the fixtures are, with fewer uplinks per R1 so that a handful of cuts matters, and a seeded
 * choice of router-to-router cables to cut.
 */
import { defaultCableLengths, FabricDesign, generateBlackWidowDesign } from '@weft/fabric-model';

export type SmallNetwork = 'R1.5' | 'R2' | 'R2.5';

export function smallDesign(network: SmallNetwork, processors: number, seed: number, slices = 1): FabricDesign {
  return generateBlackWidowDesign({
    network,
    processors,
    slices,
    r1Uplinks: network === 'R1.5' ? 32 : 8,
    portSeed: seed,
    cableLengths: defaultCableLengths(processors),
  });
}

/** Cables between routers, as the design lists them. */
export function routerCables(design: FabricDesign): FabricDesign['cables'] {
  return design.cables.filter((c) => !c.a.chip.startsWith('p') && !c.b.chip.startsWith('p'));
}

/** A seeded generator of numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let x = seed;
  return () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
}
