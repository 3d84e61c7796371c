/**
 * The flattened butterfly routing engine behind the frame's interface (issue 38; spec §3.4): from
 * a fabric as discovered, the faults in force and the operator's routing mode, every router's
 * registers (flat-configuration.ts), proven before the driver lets anything be pushed.
 */
import * as model from '@weft/fabric-model';
import type { VerificationReport, Violation } from '../engine/verification';
import type { KnownFabric } from '../discovery/known-fabric';
import type { EngineComputation, RoutingEngine, Unreachable } from '../engine/routing-engine';
import type { FaultSet } from '../faults/fault-set';
import {
  DEFAULT_FLAT_SETTINGS,
  FLAT_IMAGE_REGISTERS,
  FlatConfigurator,
  FlatImage,
  FlatProven,
  FlatRouterImage,
  FlatRoutingSettings,
  verifyFlatImage,
} from './flat-configuration';
import type { FlatReach } from './flat-reach';
import { keepUnchanged } from '../engine/register-images';

export type FlatEngineImage = FlatImage;

export interface FlatComputation extends EngineComputation<FlatEngineImage> {
  /** Minimal routing's walks between live routers over this image (its cut pairs), for the next computation. */
  readonly reach: FlatReach | null;
}

export class FlatRoutingEngine implements RoutingEngine<FlatEngineImage, FlatComputation> {
  readonly name = 'flattened-butterfly';
  private adopted: FlatComputation | null = null;
  private readonly configurator: FlatConfigurator;

  constructor(
    readonly known: KnownFabric,
    private options: FlatRoutingSettings = DEFAULT_FLAT_SETTINGS,
  ) {
    this.configurator = new FlatConfigurator(known);
  }

  compute(faults: FaultSet, options?: { full?: boolean }, settings: FlatRoutingSettings = this.options): FlatComputation {
    const before = !options?.full && this.adopted?.image.routing === settings.routing ? this.adopted.reach : null;
    const { image, reach } = this.configurator.configure(faults, settings, before);
    const previous = new Map((this.adopted?.image.routers ?? []).map((r) => [r.name, r]));
    const changed: string[] = [];
    // A router whose registers did not change keeps its image object, and one that did the arrays
    // of the registers that did not (image-delta.ts and the proof take what changed by identity).
    const routers: FlatRouterImage[] = image.routers.map((next) => {
      const old = previous.get(next.name);
      if (!old) {
        changed.push(next.name);
        return next;
      }
      const kept = keepUnchanged(old, FLAT_IMAGE_REGISTERS, (register) => next[register]);
      if (kept !== old) changed.push(next.name);
      return kept;
    });
    return { faults, incremental: before !== null, image: { ...image, routers }, changedRouters: changed, reach };
  }

  /**
   * Minimal routes, where the routing mode's two-phase walks cannot be proven around the faults
   * (spec §3.6): a dead router's coordinates strand the dimension-order walks to and from
   * intermediates in its rows, and the router draws its intermediate at random, so no exclusion
   * list proves every walk. Dimension order with detours is proven walk by walk; the pairs whose
   * every minimal route crosses the dead router are named unreachable — never routed through it.
   */
  fallback(faults: FaultSet): { computed: FlatComputation; reason: string } | null {
    if (this.options.routing === 'min') return null;
    return { computed: this.compute(faults, undefined, { ...this.options, routing: 'min' }), reason: `routed minimally instead of ${this.options.routing}` };
  }

  /** What the proof of the configuration adopted held proven: the next proof re-checks what changed from it. */
  private proven: FlatProven | null = null;
  /** What the proof of each computation held proven, until it is adopted. */
  private readonly provenOf = new WeakMap<FlatComputation, FlatProven>();

  verify(computed: FlatComputation): VerificationReport {
    const verdict = verifyFlatImage(this.known.design, computed.image, this.proven);
    this.provenOf.set(computed, verdict.proven);
    const violations: Violation[] = verdict.problems.slice(0, 50).map((message) => ({
      kind: message.startsWith('the channel dependencies')
        ? 'dependency-cycle'
        : message.includes('hops between routers')
          ? 'too-many-hops'
          : message.includes('not proven')
            ? 'not-proven'
            : 'registers',
      message,
    }));
    const live = computed.image.routers.length;
    const cut = computed.image.cut.reduce((n, c) => n + c.destinations.length, 0);
    const k = computed.image.grid.k;
    return {
      ok: violations.length === 0,
      violations,
      states: verdict.dependencies.classes,
      pairsProven: violations.length === 0 ? live * (live - 1) - cut : 0,
      endpointsProven: violations.length === 0 ? live * k : 0,
      maxHops: verdict.maxHops,
    };
  }

  adopt(computed: FlatComputation, verification: VerificationReport): void {
    this.adopted = computed;
    // A refused configuration's proof holds nothing to start from.
    this.proven = verification.ok ? (this.provenOf.get(computed) ?? null) : null;
  }

  unreachable(computed: FlatComputation): readonly Unreachable[] {
    return [
      ...computed.image.deadRouters.map((router) => ({ kind: 'terminals' as const, router })),
      ...computed.image.cut.map((c) => ({ kind: 'destinations' as const, source: c.source, destinations: c.destinations })),
    ];
  }

  settings(): FlatRoutingSettings {
    return { ...this.options };
  }

  /** Takes a routing mode (and allocator) for the next computation, or names what is wrong. */
  applySettings(raw: unknown): string[] {
    const s = (raw ?? {}) as Partial<FlatRoutingSettings>;
    const problems: string[] = [];
    if (!model.FLAT_ROUTINGS.includes(s.routing as model.FlatRouting))
      problems.push(`routing: one of ${model.FLAT_ROUTINGS.join(', ')}, got ${JSON.stringify(s.routing)}`);
    if (s.allocator !== undefined && s.allocator !== 'greedy' && s.allocator !== 'sequential')
      problems.push(`allocator: greedy or sequential, got ${JSON.stringify(s.allocator)}`);
    if (problems.length > 0) return problems;
    this.options = { routing: s.routing!, ...(s.allocator ? { allocator: s.allocator } : {}) };
    return [];
  }
}
