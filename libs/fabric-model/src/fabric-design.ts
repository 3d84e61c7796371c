/**
 * The shape every fabric family's generator produces: chips, their ports, and the cables between
 * them. A design is either what the operator intends (the *expected* design of an installation
 * file) or what is physically there (the expected design with the file's cabling deviations
 * applied). Only the emulator ever sees the physical one; the control plane must discover it.
 */

export type FabricFamily = 'blackwidow' | 'bgl' | 'anton2' | 'flattened-butterfly';
export const FABRIC_FAMILIES: readonly FabricFamily[] = ['blackwidow', 'bgl', 'anton2', 'flattened-butterfly'];

export type ChipKind = 'router' | 'endpoint';

/** What a port is wired to do in the design (paper 000 §5: uplinks, sidelinks, downlinks; a
 * torus node's six links, paper 002 §2; a flattened butterfly router's terminals and its channels
 * along each dimension, paper 003 §2.2). */
export type PortRole = 'down' | 'up' | 'side' | 'injection' | 'torus' | 'terminal' | 'dimension' | 'unused';

export interface ChipSpec {
  /** Stable, human-readable name, e.g. `s0.r1.3` or `p17`; unique within a fabric. */
  readonly name: string;
  readonly kind: ChipKind;
  /** Chip model: `YARC` for the BlackWidow router, `BW-processor` for its endpoints. */
  readonly model: string;
  /** Network slice (paper 000 §2.2); endpoints span every slice and carry -1. */
  readonly slice: number;
  /** Rank in the Clos (1, 2, 3); 0 for endpoints. */
  readonly rank: number;
  /** Number of physical ports (64 for YARC, 4 injection ports for a processor). */
  readonly portCount: number;
  /** Processor number for endpoints, -1 for routers. */
  readonly processor: number;
  /** Role of each physical port in the design. */
  readonly portRoles: readonly PortRole[];
  /**
   * Virtual-router partition (paper 000 §7.4): `virtualRouterOf[port]` names the virtual router a
   * port belongs to; a whole-chip router has every port in partition 0.
   */
  readonly virtualRouterOf: readonly number[];
  /** A torus node's coordinates (x, y, z), a flattened butterfly router's (dimension 1 first); absent where the family places chips otherwise. */
  readonly coordinates?: readonly number[];
}

export interface CableEnd {
  readonly chip: string;
  readonly port: number;
}

/** `unplanned` marks a cable that is physically present but not in the expected design. */
export type CableClass = 'injection' | 'up' | 'side' | 'torus' | 'dimension' | 'unplanned';

export interface CableSpec {
  /** The lower end: processor for injection cables, the lower-rank router for uplinks. */
  readonly a: CableEnd;
  readonly b: CableEnd;
  readonly cableClass: CableClass;
  readonly lengthMeters: number;
  /** Per-lane signalling rate in Gb/s (paper 000 §4.4: 6.25, 5.0, 3.125, 2.5, 1.5625, 1.25). */
  readonly rateGbps: number;
  /** Lanes per port (3 on YARC, paper 000 §2.2; one bit-serial lane on BG/L, paper 002 §2). */
  readonly lanes: number;
  /** Latency where the family's design states it (BG/L: board and cable settings); otherwise the
   * emulator's chip model derives it from the length. */
  readonly latencyNs?: number;
}

export interface FabricDesign {
  readonly family: FabricFamily;
  readonly chips: readonly ChipSpec[];
  readonly cables: readonly CableSpec[];
  /** Summary of the shape, for display: e.g. `{ network: 'R1.5', processors: 288, slices: 4 }`. */
  readonly summary: Readonly<Record<string, string | number>>;
}

/** SerDes rates the YARC PLL can produce (paper 000 §4.4). */
export const SERDES_RATES_GBPS: readonly number[] = [6.25, 5.0, 3.125, 2.5, 1.5625, 1.25];

/**
 * Fastest rate a passive electrical cable of this length can be driven at: full rate up to six
 * metres (paper 000 §4.4, §7.2), half rate to twelve, quarter rate beyond (the reverse taper).
 */
export function rateForLength(lengthMeters: number): number {
  if (lengthMeters <= 6) return 6.25;
  if (lengthMeters <= 12) return 3.125;
  return 1.5625;
}

export function cableEndKey(end: CableEnd): string {
  return `${end.chip}:${end.port}`;
}
