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
import { ranges } from './ranges';

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

/** Live processors cut off from one slice (BlackWidow: their R1 router or its cable out of service), ascending. */
export interface CutOffProcessors {
  readonly kind: 'processors';
  readonly slice: number;
  readonly processors: readonly number[];
}

/**
 * What a configuration cannot reach, as records (issue 55: never text parsed back): the verifier
 * leaves them out of its proof, the generation stores them, and the API says them
 * (describeUnreachable).
 */
export type Unreachable =
  | CutOffProcessors
  /** Live destinations no route of the configuration reaches from a live source (the tori, the flattened butterfly). */
  | { readonly kind: 'destinations'; readonly source: string; readonly destinations: readonly string[] }
  /** The terminals of a dead router (the flattened butterfly: they have no other). */
  | { readonly kind: 'terminals'; readonly router: string }
  /** A multicast group's destinations its trees leave out, and why (Anton 2). */
  | { readonly kind: 'multicast'; readonly group: number; readonly reason: string };

/** An unreachable record as the API says it: the slice it is cut off in (0 where a family has one), and what. */
export function describeUnreachable(u: Unreachable): {
  kind: Unreachable['kind'];
  slice: number;
  processors: string;
  source: string | null;
  destinations: string[] | null;
} {
  const said = { slice: 0, source: null, destinations: null };
  switch (u.kind) {
    case 'processors':
      return { ...said, kind: u.kind, slice: u.slice, processors: ranges(u.processors) };
    case 'destinations':
      return { kind: u.kind, slice: 0, processors: `${u.source} → ${u.destinations.join(', ')}`, source: u.source, destinations: [...u.destinations] };
    case 'terminals':
      return { ...said, kind: u.kind, processors: `the terminals of ${u.router} (a dead router)` };
    case 'multicast':
      return { ...said, kind: u.kind, processors: `multicast group ${u.group}: ${u.reason}` };
  }
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
