/**
 * The fabric families, one row each (issue 35, capability 1): what the rest of weft needs of a
 * family — checking and generating its design from an installation file's parameters, and where
 * each chip sits in its fabric in the family's own terms (stored with the chip: BlackWidow's slice
 * and rank; a torus's coordinates; a flattened butterfly's coordinate per dimension).
 */
import { BlackWidowDesignParams, checkBlackWidowDesign, generateBlackWidowDesign } from './blackwidow/blackwidow-design';
import type { ChipSpec, FabricDesign, FabricFamily } from './fabric-design';
import type { JsonChecker } from './installation/json-checker';

export interface FabricFamilyModel {
  /** The design parameters of an installation file, checked (issues go to the checker). */
  checkDesign(value: unknown, checker: JsonChecker): BlackWidowDesignParams | undefined;
  /** The operator's expected design from checked parameters. */
  generateDesign(parameters: BlackWidowDesignParams): FabricDesign;
  /** Where a chip sits, by the family's coordinates: stored with the chip, shown and filtered on. */
  placement(chip: ChipSpec): Record<string, number>;
}

export const FABRIC_FAMILY_MODELS: Readonly<Record<FabricFamily, FabricFamilyModel>> = {
  blackwidow: {
    checkDesign: checkBlackWidowDesign,
    generateDesign: generateBlackWidowDesign,
    // Paper 000 §2.2, §7.4: the slice a router belongs to (-1 for processors, which span them all)
    // and its rank in the Clos (0 for processors).
    placement: (chip) => ({ slice: chip.slice, rank: chip.rank }),
  },
};
