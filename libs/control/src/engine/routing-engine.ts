/**
 * A routing engine as the driver sees it (issue 35, capability 3; OpenSM structures its engines so):
 * compute a configuration image for the faults in force, have it proven, adopt it, and plan the
 * push from what the fabric holds. The driver (driver.ts) owns the policy — it has every image
 * verified before any push (an engine never verifies its own work on the way), falls back from an
 * incremental computation that fails its proof to a full one, refuses what is still not proven,
 * and records which engine made a generation. What needs no engine state — planning a push,
 * reconciling a fabric, reading an image — is in the engine's registry row (routing-engines.ts).
 */
import type { FaultSet } from '../faults/fault-set';
import type { VerificationReport } from './verification';
import type { ChipImages } from './image-delta';

/** A configuration computed and not yet proven. */
export interface EngineComputation<I extends ChipImages = ChipImages> {
  readonly faults: FaultSet;
  /** Only the routers the change touches were recomputed. */
  readonly incremental: boolean;
  readonly image: I;
  /** Routers whose registers differ from the configuration adopted before. */
  readonly changedRouters: readonly string[];
  /**
   * Work left for a generation of its own once this one is pushed (issue 55: Anton 2's arbiter
   * weights after its routes), said for the record; absent where nothing is left.
   */
  readonly deferred?: string;
}

/** Endpoints a configuration cannot reach in a plane (a dead first router, a cut injection cable). */
export interface Unreachable {
  readonly slice: number;
  readonly processors: string;
}

export interface RoutingEngine<I extends ChipImages = ChipImages, C extends EngineComputation<I> = EngineComputation<I>> {
  readonly name: string;
  /** The configuration around `faults`; `full`: from scratch, not from the last one adopted. */
  compute(faults: FaultSet, options?: { full?: boolean }): C;
  /**
   * A configuration the engine can prove where its preferred one failed its proof around `faults`
   * (the flattened butterfly: minimal routes where a dead router strands the two-phase walks), or
   * null where it has none. It stands only for this fault set: the next computation tries the
   * preferred one again. The reason says what was given up, for the generation's record.
   */
  fallback?(faults: FaultSet): { computed: C; reason: string } | null;
  /**
   * What the configuration adopted left for later (its `deferred`), computed from it — the routes
   * as they are, the rest brought up to its faults — or null when nothing is left. The driver
   * proves it and the service pushes it as a generation of its own.
   */
  optimise?(): C | null;
  /** Its proof, by the family's verifier. */
  verify(computed: C): VerificationReport;
  /** Makes it, with its verdict, the configuration the next computation starts from. */
  adopt(computed: C, verification: VerificationReport): void;
  /** Endpoints the computed configuration leaves unreachable, reported beside its proof. */
  unreachable(computed: C): readonly Unreachable[];
  /** The settings an operator chooses for the family's routing (Anton 2's weight patterns and multicast groups), as plain data; absent where it has none. */
  settings?(): unknown;
  /** Takes new settings for the next computation, or names every problem with them (and keeps the old). */
  applySettings?(settings: unknown): string[];
  /** What the settings came to in the configuration last adopted (Anton 2: each multicast group's trees, the fullest table). */
  settingsReport?(): unknown;
}
