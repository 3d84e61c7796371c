/**
 * The fabric families, one row each (issue 35, capability 1): what the rest of weft needs of a
 * family — checking and generating its design from an installation file's parameters, and where
 * each chip sits in its fabric in the family's own terms (stored with the chip: BlackWidow's slice
 * and rank; a torus's coordinates; a flattened butterfly's coordinate per dimension).
 */
import { FamilyPicture, FLAT_DIMENSIONS, RANKS_AND_SLICES, TORUS_PLANES } from './picture';
import { checkBglDesign, generateBglDesign, BGL_LINK_GBPS } from './bgl/bgl-design';
import { checkBlackWidowDesign, generateBlackWidowDesign } from './blackwidow/blackwidow-design';
import { ChipSpec, FabricDesign, FabricFamily, rateForLength, SERDES_RATES_GBPS } from './fabric-design';
import type { JsonChecker } from './installation/json-checker';
import type { BlackWidowDesignParams } from './blackwidow/blackwidow-design';
import type { BglDesignParams } from './bgl/bgl-design';
import { Anton2DesignParams, checkAnton2Design, generateAnton2Design } from './anton2/anton2-design';
import { ANTON2_ENDPOINT_ADAPTERS, ANTON2_MAX_PACKET_FLITS, ANTON2_SERDES_GBPS, ANTON2_SERDES_PER_CHANNEL } from './chips/anton2-asic';
import type { TrafficShape } from './traffic/traffic-shape';
import { BGL_CHUNK_BYTES, BGL_MAX_PACKET_CHUNKS } from './chips/bgl-node';
import { checkFlatDesign, flatDesignName, FlatDesignParams, generateFlatDesign } from './flattened-butterfly/flat-design';
import { FLAT_LANE_GBPS, FLAT_LANES } from './chips/flat-router';

/** An installation file's design parameters, of whichever family it names. */
export type FamilyDesignParams = BlackWidowDesignParams | BglDesignParams | Anton2DesignParams | FlatDesignParams;

export interface FabricFamilyModel<P extends FamilyDesignParams = FamilyDesignParams> {
  /** The design parameters of an installation file, checked (issues go to the checker). */
  checkDesign(value: unknown, checker: JsonChecker): P | undefined;
  /** The operator's expected design from checked parameters. */
  generateDesign(parameters: P): FabricDesign;
  /** Where a chip sits, by the family's coordinates: stored with the chip, shown and filtered on. */
  placement(chip: ChipSpec): Record<string, number>;
  /** A design named in a few words for messages ("R1.5", "8×8×8 torus"). */
  designName(parameters: P): string;
  /** The signalling of a cable of this length that the file adds or re-lengthens. */
  linkFor(lengthMeters: number): { rateGbps: number; lanes: number };
  /** Rates an installation file may set on a link (none: the family's links run at one rate). */
  readonly linkRates: readonly number[];
  /** Where the maintenance controller attaches when the file does not say, and the check of what it says. */
  readonly defaultAttachment: string;
  checkAttachment(design: FabricDesign, attachment: string): string | undefined;
  /** What traffic runs may ask of a fabric of this family, from its design's summary. */
  trafficShape(summary: FabricDesign['summary']): TrafficShape;
  /** How the console draws a fabric of this family (picture.ts). */
  readonly picture: FamilyPicture;
}

const blackwidow: FabricFamilyModel<BlackWidowDesignParams> = {
  checkDesign: checkBlackWidowDesign,
  generateDesign: generateBlackWidowDesign,
  // Paper 000 §2.2, §7.4: the slice a router belongs to (-1 for processors, which span them all)
  // and its rank in the Clos (0 for processors).
  placement: (chip) => ({ slice: chip.slice, rank: chip.rank }),
  picture: RANKS_AND_SLICES,
  designName: (p) => p.network,
  // §4.4: the rate a passive cable of the length carries, on YARC's three lanes.
  linkFor: (lengthMeters) => ({ rateGbps: rateForLength(lengthMeters), lanes: 3 }),
  linkRates: SERDES_RATES_GBPS,
  // §7.1: the maintenance controller is a processor, reaching the fabric by source-routed packets.
  defaultAttachment: 'p0',
  checkAttachment: (design, attachment) => {
    const chip = design.chips.find((c) => c.name === attachment);
    if (!chip) return `no chip "${attachment}" in this design`;
    if (chip.kind !== 'endpoint') return `must be an endpoint (a processor), "${chip.name}" is a ${chip.model} router`;
    return undefined;
  },
  trafficShape: (summary) => {
    const processors = Number(summary.processors);
    // Paper 000 §3: packets of 4 to 19 phits (a header, up to 16 payload phits and a tail).
    return { endpoints: processors, slices: Number(summary.slices ?? 4), endpointsPerRouter: Math.min(32, processors), packetPhits: { min: 4, max: 19 } };
  },
};

const bgl: FabricFamilyModel<BglDesignParams> = {
  checkDesign: checkBglDesign,
  generateDesign: generateBglDesign,
  // Paper 002 §2: a node's place is its torus coordinates.
  placement: (chip) => ({ x: chip.coordinates?.[0] ?? -1, y: chip.coordinates?.[1] ?? -1, z: chip.coordinates?.[2] ?? -1 }),
  picture: TORUS_PLANES,
  designName: (p) => `${p.shape.join('×')} torus`,
  // §2: every link is one bit-serial lane at the torus clock, whatever its length.
  linkFor: () => ({ rateGbps: BGL_LINK_GBPS, lanes: 1 }),
  linkRates: [],
  // §1: registers are reached over the JTAG control network, not through the torus.
  defaultAttachment: 'jtag',
  checkAttachment: (_design, attachment) =>
    attachment === 'jtag' ? undefined : `BlueGene/L is managed over its JTAG control network (paper 002 §1): the attachment is "jtag", got "${attachment}"`,
  // Every node is an endpoint with one set of injection FIFOs (virtual node mode's second set is
  // a study setting of the emulator); packets of 32 to 256 bytes in 32-byte chunks (§2).
  trafficShape: (summary) => {
    const torus = String(summary.shape).split('×').map(Number);
    return {
      endpoints: torus.reduce((a, b) => a * b, 1),
      slices: 1,
      endpointsPerRouter: 1,
      torus,
      packetPhits: { min: BGL_CHUNK_BYTES, max: BGL_CHUNK_BYTES * BGL_MAX_PACKET_CHUNKS, multipleOf: BGL_CHUNK_BYTES },
    };
  },
};

const anton2: FabricFamilyModel<Anton2DesignParams> = {
  checkDesign: checkAnton2Design,
  generateDesign: generateAnton2Design,
  placement: (chip) => ({ x: chip.coordinates?.[0] ?? -1, y: chip.coordinates?.[1] ?? -1, z: chip.coordinates?.[2] ?? -1 }),
  picture: TORUS_PLANES,
  designName: (p) => `${p.shape.join('×')} torus of Anton 2 ASICs`,
  // §2.2: eight 14 Gb/s SerDes a channel, whatever its length.
  linkFor: () => ({ rateGbps: ANTON2_SERDES_GBPS, lanes: ANTON2_SERDES_PER_CHANNEL }),
  linkRates: [],
  // The paper does not say how the machine is managed: weft's choice, an out-of-band service
  // network reaching every ASIC by its coordinates (as BG/L's JTAG network does).
  defaultAttachment: 'service',
  checkAttachment: (_design, attachment) =>
    attachment === 'service' ? undefined : `an Anton 2 machine is managed over its service network: the attachment is "service", got "${attachment}"`,
  // The patterns pick ASICs (the torus patterns need them as places); a run's injection ports are
  // the 23 endpoint adapters of each (§2.2), a packet going to the same-numbered adapter of its
  // destination; packets of one or two 24-byte flits (§2.1), a flit being what a mesh channel
  // carries in a cycle; multicast groups through the tables (§2.3).
  trafficShape: (summary) => {
    const torus = String(summary.shape).split('×').map(Number);
    return {
      endpoints: Number(summary.asics),
      slices: ANTON2_ENDPOINT_ADAPTERS,
      endpointsPerRouter: 1,
      torus,
      packetPhits: { min: 1, max: ANTON2_MAX_PACKET_FLITS },
      multicast: true,
    };
  },
};

const flattenedButterfly: FabricFamilyModel<FlatDesignParams> = {
  checkDesign: checkFlatDesign,
  generateDesign: generateFlatDesign,
  // Paper 003 §2.2: a router's place is its coordinate in each dimension (d1 … dn′).
  placement: (chip) => Object.fromEntries((chip.coordinates ?? []).map((c, i) => [`d${i + 1}`, c])),
  picture: FLAT_DIMENSIONS,
  designName: flatDesignName,
  // §4.1: electrical cables with repeaters past 6 m, so every link runs at YARC's full rate on its three pairs.
  linkFor: () => ({ rateGbps: FLAT_LANE_GBPS, lanes: FLAT_LANES }),
  linkRates: [],
  // The paper does not say how the routers are managed: weft's choice, an out-of-band service
  // network reaching each router by its coordinates, as for Anton 2.
  defaultAttachment: 'service',
  checkAttachment: (_design, attachment) =>
    attachment === 'service' ? undefined : `a flattened butterfly is managed over its service network: the attachment is "service", got "${attachment}"`,
  // k terminals a router, each an injection port of its router; single-flit packets (§3.2, footnote 2).
  trafficShape: (summary) => ({
    endpoints: Number(summary.terminals),
    slices: 1,
    endpointsPerRouter: Number(summary.k),
    packetPhits: { min: 1, max: 1 },
  }),
};

export const FABRIC_FAMILY_MODELS: Readonly<Record<FabricFamily, FabricFamilyModel>> = {
  blackwidow: blackwidow as FabricFamilyModel,
  bgl: bgl as FabricFamilyModel,
  anton2: anton2 as FabricFamilyModel,
  'flattened-butterfly': flattenedButterfly as FabricFamilyModel,
};
