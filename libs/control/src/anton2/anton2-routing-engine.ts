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
import type { VerificationReport, Violation } from '../engine/verification';
import type { KnownFabric } from '../discovery/known-fabric';
import type { ChipImages } from '../engine/image-delta';
import type { EngineComputation, RoutingEngine, Unreachable } from '../engine/routing-engine';
import type { FaultSet } from '../faults/fault-set';
import {
  Anton2AsicImage,
  anton2AsicImage,
  ANTON2_ASIC_REGISTER_WORDS,
  ANTON2_IMAGE_REGISTERS,
  Anton2ConfigurationOptions,
  anton2Faults,
  Anton2Image,
  anton2Routes,
  anton2Weights,
  computeAnton2Image,
  DEFAULT_ANTON2_CONFIGURATION,
  verifyAnton2Image,
} from './anton2-configuration';
import { anton2ControlAddresses } from './anton2-discovery';
import { keepUnchanged } from '../engine/register-images';
import type { Anton2DependencyReport } from './anton2-dependencies';
import type { DeadChannel } from './anton2-route-policy';
import { Anton2MulticastGroup, MulticastError, multicastTables, planAnton2Multicast } from './anton2-multicast';
import type { Anton2Pattern } from './arbiter-loads';

/**
 * What an operator chooses of an Anton 2 machine's routing (stored with the fabric, by chip name):
 * the one or two traffic patterns whose channel loads set the arbiters' inverse weights (§3.3: N =
 * 2, chosen by each packet's pattern field), and the multicast groups — each a source ASIC and
 * destination endpoints (§2.3).
 */
export interface Anton2RoutingSettings {
  readonly arbiterPatterns: readonly Anton2Pattern[];
  readonly multicastGroups: readonly Anton2GroupSetting[];
}

export interface Anton2GroupSetting {
  readonly group: number;
  readonly source: string;
  readonly destinations: readonly { readonly chip: string; readonly endpoints: readonly number[] }[];
}

/** What the settings came to in the configuration adopted: each group's two trees (order, slice, torus hops) beside unicasting to each destination, and the fullest table. */
export interface Anton2SettingsReport {
  readonly groups: readonly {
    readonly group: number;
    readonly trees: readonly { readonly order: string; readonly slice: number; readonly torusHops: number }[];
    readonly unicastHops: number;
  }[];
  readonly unserved: readonly string[];
  readonly tableEntriesMax: number;
  readonly tableCapacity: number;
}

/** Group ids a table key (group × 2 + tree) can hold. */
export const ANTON2_MAX_GROUP = 2 ** 29 - 1;

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
  /** The faults (faultKey) its arbiter weights were computed for: the configuration's own, or an earlier one's until the optimisation generation. */
  readonly weightsFor: string;
}

export class Anton2RoutingEngine implements RoutingEngine<Anton2EngineImage, Anton2Computation> {
  readonly name = 'anton2';
  private readonly torus: Torus;
  private readonly nameAt: string[];
  private readonly placeOf = new Map<string, number>();
  private readonly routeOf = new Map<string, readonly number[]>();
  private adopted: Anton2Computation | null = null;
  /** New settings since the configuration adopted: the next computation is a full one (the weights follow the patterns). */
  private settingsChanged = false;
  /** Multicast groups by id, as operators submit them (their trees are rebuilt on every computation). */
  groups = new Map<number, Anton2MulticastGroup>();

  constructor(
    readonly known: KnownFabric,
    private options: Anton2ConfigurationOptions = DEFAULT_ANTON2_CONFIGURATION,
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

  /**
   * Issue 55, "routes first, weights after": from a configuration adopted (and unless `full`), a
   * fault's computation changes what correctness needs — the route policy and multicast trees
   * around the faults — on the registers in force, the arbiter weights kept as they are; the weights
   * around the faults follow as a generation of their own (`optimise`). From scratch (bring-up, new
   * settings, a fall-back) everything is computed at once.
   */
  compute(faults: FaultSet, options: { full?: boolean } = {}): Anton2Computation {
    const torusFaults = anton2Faults(this.known, this.torus, faults);
    const inForce = this.adopted?.configuration;
    const key = faultKey(torusFaults);
    if (options.full || !inForce || this.settingsChanged) {
      const configuration = computeAnton2Image(this.known.design, torusFaults, this.options, undefined, this.groups);
      return this.computation(faults, configuration, false, key);
    }
    const routed = anton2Routes(this.known.design, inForce, torusFaults, this.options, this.groups);
    const configuration: Anton2Image = { ...routed, weights: inForce.weights, modes: inForce.modes };
    // The weights stay those of the faults they were computed for until the optimisation generation.
    return this.computation(faults, configuration, true, this.adopted!.weightsFor);
  }

  /**
   * The arbiter weights around the faults of the configuration adopted, where it left them for
   * later: its routes and registers as they are, each ASIC's weights from its own loads under the
   * route policy — an ASIC written only where a weight changes by at least one quantum (a whole
   * step of the M-bit weight); null when nothing is left to do.
   */
  optimise(): Anton2Computation | null {
    const adopted = this.adopted;
    if (!adopted?.deferred) return null;
    const inForce = adopted.configuration;
    const weights = anton2Weights(this.torus, inForce.policy, this.options);
    return this.computation(adopted.faults, { ...inForce, weights }, true, faultKey(inForce));
  }

  /** The images of `configuration`, each ASIC's old image object kept where its registers did not change, and its arrays where they did not. */
  private computation(faults: FaultSet, configuration: Anton2Image, incremental: boolean, weightsFor: string): Anton2Computation {
    const dead = new Set(configuration.deadNodes);
    const previous = new Map((this.adopted?.image.routers ?? []).map((r) => [r.name, r]));
    // Registers made from the very arrays of the configuration in force are as they were: not made again.
    const base = this.adopted?.configuration;
    const madeAgain = ANTON2_IMAGE_REGISTERS.filter((register) => {
      if (!base) return true;
      switch (register) {
        case 'nodeCoordinates':
          return base.coordinates !== configuration.coordinates;
        case 'torusSize':
          return base.size !== configuration.size;
        case 'datelines':
          return base.datelinePlus !== configuration.datelinePlus || base.datelineMinus !== configuration.datelineMinus;
        case 'arbiterWeights':
          return base.weights !== configuration.weights;
        case 'arbiterModes':
          return base.modes !== configuration.modes;
        case 'routePolicy':
          return base.policy !== configuration.policy;
        case 'multicastTable':
          return base.tables !== configuration.tables;
      }
    });
    const routers: Anton2AsicImage[] = [];
    const changed: string[] = [];
    for (let p = 0; p < this.torus.size; p++) {
      if (dead.has(p)) continue;
      const name = this.nameAt[p];
      const old = previous.get(name);
      if (!old) {
        routers.push(anton2AsicImage(configuration, p, name, this.routeOf.get(name)!));
        changed.push(name);
        continue;
      }
      // An ASIC whose registers did not change keeps its image object, and a register that did not
      // change its array (image-delta.ts takes what changed by identity).
      const next = keepUnchanged(old, madeAgain, (register) => ANTON2_ASIC_REGISTER_WORDS[register](configuration, p));
      routers.push(next);
      if (next !== old) changed.push(name);
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
    return {
      faults,
      incremental,
      image,
      changedRouters: changed,
      configuration,
      weightsFor,
      ...(weightsFor !== faultKey(configuration) ? { deferred: 'the arbiter weights around the faults (issue 55: routes first, weights after)' } : {}),
    };
  }

  /** A-V3's proof of the dateline arrays it was made for: a fault changes only routes and weights, so the reaction's proof reuses it. */
  private provenDependencies: { datelinePlus: Int32Array; datelineMinus: Int32Array; report: Anton2DependencyReport } | null = null;

  verify(computed: Anton2Computation): VerificationReport {
    const { configuration } = computed;
    const cached = this.provenDependencies;
    // The dependency graph is over every buffer and every minimal route the datelines allow (§2.5):
    // a route policy only removes routes from it, so the graph proven for these datelines holds.
    const proven =
      cached && cached.datelinePlus === configuration.datelinePlus && cached.datelineMinus === configuration.datelineMinus ? cached.report : undefined;
    const verdict = verifyAnton2Image(configuration, this.options.tieRule, undefined, proven);
    if (!proven && verdict.dependencies.acyclic)
      this.provenDependencies = { datelinePlus: configuration.datelinePlus, datelineMinus: configuration.datelineMinus, report: verdict.dependencies };
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

  adopt(computed: Anton2Computation, verification: VerificationReport): void {
    this.adopted = computed;
    if (verification.ok && !computed.incremental) this.settingsChanged = false;
  }

  unreachable(computed: Anton2Computation): readonly Unreachable[] {
    return [
      ...computed.image.cut.map((c) => ({ kind: 'destinations' as const, source: c.source, destinations: c.destinations })),
      ...computed.configuration.unserved.map(({ group, reason }) => ({ kind: 'multicast' as const, group, reason })),
    ];
  }

  settingsReport(): Anton2SettingsReport {
    const configuration = this.adopted?.configuration;
    let fullest = 0;
    for (const table of configuration?.tables.values() ?? []) fullest = Math.max(fullest, table.size);
    return {
      groups: [...(configuration?.plans ?? [])].map(([group, plan]) => ({
        group,
        trees: plan.trees.map((t) => ({ order: model.ANTON2_ORDERS[t.order].map((d) => 'XYZ'[d]).join(''), slice: t.slice, torusHops: t.channels.length })),
        unicastHops: plan.unicastHops,
      })),
      unserved: (configuration?.unserved ?? []).map(({ group, reason }) => `group ${group}: ${reason}`),
      tableEntriesMax: fullest,
      tableCapacity: model.ANTON2_MULTICAST_ENTRIES,
    };
  }

  settings(): Anton2RoutingSettings {
    return {
      arbiterPatterns: [...this.options.patterns],
      multicastGroups: [...this.groups].map(([group, g]) => {
        const byNode = new Map<number, number[]>();
        for (const d of g.destinations) byNode.set(d.node, [...(byNode.get(d.node) ?? []), d.endpoint]);
        return { group, source: this.nameAt[g.source], destinations: [...byNode].map(([node, endpoints]) => ({ chip: this.nameAt[node], endpoints })) };
      }),
    };
  }

  /** Checks new settings whole — patterns, group ids, chips, endpoints, and that every table holds its trees — and takes them only if all is well. */
  applySettings(raw: unknown): string[] {
    const problems: string[] = [];
    const settings = (raw ?? {}) as Partial<Anton2RoutingSettings>;
    const patterns = settings.arbiterPatterns ?? DEFAULT_ANTON2_CONFIGURATION.patterns;
    if (!Array.isArray(patterns) || patterns.length < 1 || patterns.length > 2) problems.push('arbiterPatterns: one or two patterns (§3.3: N = 2)');
    else
      patterns.forEach((p, i) => {
        if (!['uniform', 'tornado', 'reverse-tornado', 'neighbour', 'matrix'].includes(p?.name))
          problems.push(`arbiterPatterns[${i}].name: uniform, tornado, reverse-tornado, neighbour or matrix, got ${JSON.stringify(p?.name)}`);
        else if (p.name === 'matrix') {
          // Row s, column t: what ASIC s sends to ASIC t, by torus index — n × n, none negative, not all zero.
          const n = this.torus.size;
          const rows = p.weights;
          if (!Array.isArray(rows) || rows.length !== n)
            problems.push(
              `arbiterPatterns[${i}].weights: ${n} rows, one an ASIC by torus index, got ${Array.isArray(rows) ? rows.length : JSON.stringify(rows)}`,
            );
          else {
            const bad = rows.findIndex(
              (row) => !Array.isArray(row) || row.length !== n || !row.every((w) => typeof w === 'number' && Number.isFinite(w) && w >= 0),
            );
            if (bad >= 0) problems.push(`arbiterPatterns[${i}].weights[${bad}]: ${n} numbers, none negative`);
            else if (!rows.some((row: readonly number[], s: number) => row.some((w, t) => w > 0 && t !== s)))
              problems.push(`arbiterPatterns[${i}].weights: no ASIC sends to another`);
          }
        } else if (p.name === 'neighbour') {
          // At most n hops along each dimension: beyond half the longest ring it reaches no farther.
          const most = Math.max(1, Math.max(...this.torus.shape) >> 1);
          if (!(Number.isInteger(p.hops) && p.hops >= 1 && p.hops <= most))
            problems.push(`arbiterPatterns[${i}].hops: 1 to ${most}, got ${JSON.stringify(p.hops)}`);
        }
      });
    const groups = new Map<number, Anton2MulticastGroup>();
    const ids = new Set<number>();
    const list = settings.multicastGroups ?? [];
    if (!Array.isArray(list)) problems.push('multicastGroups: a list of groups');
    else
      list.forEach((g, i) => {
        const at = `multicastGroups[${i}]`;
        if (!(Number.isInteger(g?.group) && g.group >= 0 && g.group <= ANTON2_MAX_GROUP))
          problems.push(`${at}.group: a whole number from 0 to ${ANTON2_MAX_GROUP}, got ${JSON.stringify(g?.group)}`);
        else if (ids.has(g.group)) problems.push(`${at}.group: group ${g.group} is listed twice`);
        ids.add(g?.group);
        const source = this.placeOf.get(g?.source);
        if (source === undefined) problems.push(`${at}.source: no ASIC is named ${JSON.stringify(g?.source)}`);
        const destinations: { node: number; endpoint: number }[] = [];
        const seen = new Set<string>();
        const given = Array.isArray(g?.destinations) ? g.destinations : [];
        if (given.length === 0) problems.push(`${at}.destinations: the set is empty`);
        given.forEach((d: Anton2GroupSetting['destinations'][number], j: number) => {
          const node = this.placeOf.get(d?.chip);
          if (node === undefined) problems.push(`${at}.destinations[${j}].chip: no ASIC is named ${JSON.stringify(d?.chip)}`);
          if (!Array.isArray(d?.endpoints) || d.endpoints.length === 0) problems.push(`${at}.destinations[${j}].endpoints: at least one endpoint adapter`);
          else
            d.endpoints.forEach((endpoint, k) => {
              if (!(Number.isInteger(endpoint) && endpoint >= 0 && endpoint < model.ANTON2_ENDPOINT_ADAPTERS))
                problems.push(
                  `${at}.destinations[${j}].endpoints[${k}]: an ASIC has endpoint adapters 0 to ${model.ANTON2_ENDPOINT_ADAPTERS - 1}, got ${endpoint}`,
                );
              else if (seen.has(`${d.chip}:${endpoint}`))
                problems.push(`${at}.destinations[${j}].endpoints[${k}]: ${d.chip} endpoint ${endpoint} is in the set twice`);
              else if (node !== undefined) destinations.push({ node, endpoint });
              seen.add(`${d.chip}:${endpoint}`);
            });
        });
        if (source === undefined || !Number.isInteger(g?.group)) return;
        const group = { source, destinations };
        groups.set(g.group, group);
      });
    if (problems.length === 0) {
      // Every table must hold the trees, as they are without faults (multicastTables refuses a full one).
      try {
        const plans = new Map([...groups].map(([id, group]) => [id, planAnton2Multicast(this.torus, group, { tieRule: this.options.tieRule })] as const));
        multicastTables(this.torus, plans);
      } catch (error) {
        if (!(error instanceof MulticastError)) throw error;
        // Named by chip rather than coordinates.
        problems.push(`multicastGroups: ${error.message.replace(/\((\d+),(\d+),(\d+)\)/g, (m, x, y, z) => this.nameAt[this.torus.index(+x, +y, +z)] ?? m)}`);
      }
    }
    if (problems.length > 0) return problems;
    this.options = { ...this.options, patterns: [...patterns] };
    this.groups = groups;
    this.settingsChanged = true;
    return [];
  }
}

/** The faults as the torus sees them, as one key (the route policy, and the weights under it, are theirs). */
function faultKey(faults: { readonly deadNodes: readonly number[]; readonly deadChannels: readonly DeadChannel[] }): string {
  const nodes = [...faults.deadNodes].sort((a, b) => a - b).join(',');
  const channels = faults.deadChannels
    .map((c) => c.node * 64 + c.port)
    .sort((a, b) => a - b)
    .join(',');
  return `${nodes}/${channels}`;
}
