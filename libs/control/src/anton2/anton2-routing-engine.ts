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
import { Anton2ConfigurationOptions, Anton2Image, computeAnton2Image, DEFAULT_ANTON2_CONFIGURATION, verifyAnton2Image } from './anton2-configuration';
import { anton2ControlAddresses } from './anton2-discovery';
import type { Anton2MulticastGroup } from './anton2-multicast';
import type { DeadChannel } from './anton2-route-policy';
import { ARBITER_INPUTS_PER_ASIC } from './arbiter-loads';

/** An ASIC's registers as the engine computes them (chips/anton2-asic.ts names them). */
export interface Anton2AsicImage {
  readonly name: string;
  /** Its control-network address (not a register: where the push writes). */
  readonly route: readonly number[];
  readonly nodeCoordinates: readonly number[];
  readonly torusSize: readonly number[];
  readonly datelines: readonly number[];
  /** One 12-bit mask per destination place, or empty: all 12 (order, slice) combinations. */
  readonly routePolicy: readonly number[];
  readonly arbiterWeights: readonly number[];
  readonly arbiterModes: readonly number[];
  readonly multicastTable: readonly number[];
}

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

  /** The faults as the torus sees them: dead ASICs, and dead channels (both ends) — declared, found down, or miswired. */
  private faultsOf(faults: FaultSet): { deadNodes: number[]; deadChannels: DeadChannel[] } {
    const deadNodes = new Set<number>();
    for (const name of faults.routers) if (this.placeOf.has(name)) deadNodes.add(this.placeOf.get(name)!);
    for (const finding of this.known.matched.findings)
      if (finding.kind === 'unreachable-chip' && finding.chip && this.placeOf.has(finding.chip)) deadNodes.add(this.placeOf.get(finding.chip)!);
    const channels = new Map<string, DeadChannel>();
    const both = (node: number, port: number) => {
      if (port < 0 || port >= model.ANTON2_CHANNEL_ADAPTERS) return;
      const d = port >> 2;
      if (this.torus.shape[d] === 1) return;
      const far = this.torus.neighbour(node, 2 * d + ((port & 2) >> 1));
      channels.set(`${node}:${port}`, { node, port });
      channels.set(`${far}:${port ^ 2}`, { node: far, port: port ^ 2 });
    };
    for (const { chip, port } of faults.ports()) if (this.placeOf.has(chip) && !faults.routers.has(chip)) both(this.placeOf.get(chip)!, port);
    for (const finding of this.known.matched.findings) {
      if (finding.kind !== 'miswired-cable' && finding.kind !== 'extra-cable' && finding.kind !== 'missing-cable') continue;
      for (const end of finding.ends) if (this.placeOf.has(end.chip)) both(this.placeOf.get(end.chip)!, end.port);
    }
    return { deadNodes: [...deadNodes], deadChannels: [...channels.values()] };
  }

  compute(faults: FaultSet): Anton2Computation {
    const configuration = computeAnton2Image(this.known.design, this.faultsOf(faults), this.options, undefined, this.groups);
    const dead = new Set(configuration.deadNodes);
    const previous = new Map((this.adopted?.image.routers ?? []).map((r) => [r.name, r]));
    const routers: Anton2AsicImage[] = [];
    const changed: string[] = [];
    const three = (a: Int32Array, p: number) => Array.from(a.subarray(3 * p, 3 * p + 3));
    for (let p = 0; p < this.torus.size; p++) {
      if (dead.has(p)) continue;
      const name = this.nameAt[p];
      const table = configuration.policy.masks.get(p);
      const next: Anton2AsicImage = {
        name,
        route: this.routeOf.get(name)!,
        nodeCoordinates: three(configuration.coordinates, p),
        torusSize: three(configuration.size, p),
        datelines: [...three(configuration.datelinePlus, p), ...three(configuration.datelineMinus, p)],
        routePolicy: table ? Array.from(table) : [],
        arbiterWeights: Array.from(configuration.weights.subarray(p * ARBITER_INPUTS_PER_ASIC * 2, (p + 1) * ARBITER_INPUTS_PER_ASIC * 2)),
        arbiterModes: Array.from(configuration.modes),
        multicastTable: model.anton2MulticastWords(configuration.tables.get(p) ?? new Map()),
      };
      // An ASIC whose registers did not change keeps its image object (image-delta.ts stores only what changed).
      const old = previous.get(name);
      if (old && anton2WriteList(old).every((w, k) => sameWords(w.value, anton2WriteList(next)[k].value))) routers.push(old);
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

/** An ASIC image's registers as the writes that put them in place (each whole, index 0). */
export function anton2WriteList(image: Anton2AsicImage): { register: string; index: number; value: readonly number[] }[] {
  return [
    { register: 'nodeCoordinates', index: 0, value: image.nodeCoordinates },
    { register: 'torusSize', index: 0, value: image.torusSize },
    { register: 'datelines', index: 0, value: image.datelines },
    { register: 'routePolicy', index: 0, value: image.routePolicy },
    { register: 'arbiterWeights', index: 0, value: image.arbiterWeights },
    { register: 'arbiterModes', index: 0, value: image.arbiterModes },
    { register: 'multicastTable', index: 0, value: image.multicastTable },
  ];
}
