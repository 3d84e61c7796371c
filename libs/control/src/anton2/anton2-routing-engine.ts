/**
 * The Anton 2 routing engine behind the frame's interface (issue 37; spec §2.3): from a machine as
 * discovered and the faults in force, every ASIC's registers (anton2-configuration.ts computes
 * them: coordinates, torus size, datelines, the route policy around faults, arbiter weights,
 * multicast tables), proven by the rule checks and the dependency graph over every buffer
 * (A-V1 … A-V4) before the driver lets anything be pushed. A dead ASIC or torus channel, declared
 * or found by discovery (a miswired channel is not routed over either), restricts the route policy;
 * the weights and the multicast trees follow.
 */
import * as model from '@weft/fabric-model';
import type { Torus } from '@weft/fabric-model';
import type { VerificationReport, Violation } from '../blackwidow/verifier';
import type { KnownFabric } from '../discovery/known-fabric';
import type { ChipImages } from '../engine/image-delta';
import type { EngineComputation, RoutingEngine, Unreachable } from '../engine/routing-engine';
import type { FaultSet } from '../faults/fault-set';
import {
  Anton2AsicImage,
  anton2AsicImage,
  Anton2ConfigurationOptions,
  anton2Faults,
  anton2WriteList,
  Anton2Image,
  computeAnton2Image,
  DEFAULT_ANTON2_CONFIGURATION,
  verifyAnton2Image,
} from './anton2-configuration';
import { anton2ControlAddresses } from './anton2-discovery';
import type { Anton2MulticastGroup } from './anton2-multicast';

export interface Anton2EngineImage extends ChipImages {
  readonly family: 'anton2';
  readonly shape: readonly number[];
  readonly routers: readonly Anton2AsicImage[];
  /** Live pairs no allowed route joins, by name (source → destinations). */
  readonly cut: readonly { readonly source: string; readonly destinations: readonly string[] }[];
}

export interface Anton2Computation extends EngineComputation<Anton2EngineImage> {
  /** The computation behind the image, for the proof. */
  readonly configuration: Anton2Image;
}

export class Anton2RoutingEngine implements RoutingEngine<Anton2EngineImage, Anton2Computation> {
  readonly name = 'anton2';
  private readonly torus: Torus;
  private readonly nameAt: string[];
  private readonly placeOf = new Map<string, number>();
  private readonly routeOf = new Map<string, readonly number[]>();
  private adopted: Anton2Computation | null = null;
  /** Multicast groups by id, as operators submit them (their trees are rebuilt on every computation). */
  groups = new Map<number, Anton2MulticastGroup>();

  constructor(
    readonly known: KnownFabric,
    readonly options: Anton2ConfigurationOptions = DEFAULT_ANTON2_CONFIGURATION,
  ) {
    this.torus = model.designTorus(known.design);
    this.nameAt = new Array<string>(this.torus.size);
    const routes = anton2ControlAddresses(known.design);
    known.design.chips.forEach((chip, i) => {
      const [x, y, z] = chip.coordinates ?? [0, 0, 0];
      const place = this.torus.index(x, y, z);
      this.nameAt[place] = chip.name;
      this.placeOf.set(chip.name, place);
      this.routeOf.set(chip.name, routes[i]);
    });
  }

  compute(faults: FaultSet): Anton2Computation {
    const configuration = computeAnton2Image(this.known.design, anton2Faults(this.known, this.torus, faults), this.options, undefined, this.groups);
    const dead = new Set(configuration.deadNodes);
    const previous = new Map((this.adopted?.image.routers ?? []).map((r) => [r.name, r]));
    const routers: Anton2AsicImage[] = [];
    const changed: string[] = [];
    for (let p = 0; p < this.torus.size; p++) {
      if (dead.has(p)) continue;
      const name = this.nameAt[p];
      const next = anton2AsicImage(configuration, p, name, this.routeOf.get(name)!);
      // An ASIC whose registers did not change keeps its image object (image-delta.ts stores only what changed).
      const old = previous.get(name);
      const writes = anton2WriteList(next);
      if (old && anton2WriteList(old).every((w, k) => sameWords(w.value, writes[k].value))) routers.push(old);
      else {
        routers.push(next);
        changed.push(name);
      }
    }
    const cutBySource = new Map<string, string[]>();
    for (const [s, t] of configuration.policy.unreachable) {
      const list = cutBySource.get(this.nameAt[s]) ?? [];
      list.push(this.nameAt[t]);
      cutBySource.set(this.nameAt[s], list);
    }
    const image: Anton2EngineImage = {
      family: 'anton2',
      shape: [...this.torus.shape],
      routers,
      cut: [...cutBySource].map(([source, destinations]) => ({ source, destinations })),
    };
    return { faults, incremental: false, image, changedRouters: changed, configuration };
  }

  verify(computed: Anton2Computation): VerificationReport {
    const verdict = verifyAnton2Image(computed.configuration, this.options.tieRule);
    const violations: Violation[] = verdict.problems.slice(0, 50).map((message) => ({ kind: message.startsWith('A-V4') ? 'multicast' : 'registers', message }));
    if (!verdict.dependencies.acyclic)
      violations.push({ kind: 'dependency-cycle', message: `the channel dependencies close a cycle: ${verdict.dependencies.cycle!.join(' → ')}` });
    const live = computed.image.routers.length;
    return {
      ok: violations.length === 0,
      violations,
      states: verdict.dependencies.buffers,
      pairsProven: violations.length === 0 ? live * (live - 1) - computed.configuration.policy.unreachable.length : 0,
      endpointsProven: violations.length === 0 ? live : 0,
      maxHops: 0,
    };
  }

  adopt(computed: Anton2Computation, _verification: VerificationReport): void {
    this.adopted = computed;
  }

  unreachable(computed: Anton2Computation): readonly Unreachable[] {
    return computed.image.cut.map((c) => ({ slice: 0, processors: `${c.source} → ${c.destinations.join(', ')}` }));
  }
}

function sameWords(x: readonly number[], y: readonly number[]): boolean {
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
