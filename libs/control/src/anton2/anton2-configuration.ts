/**
 * What an Anton 2 fabric manager computes, checks and writes (spec §2.3): for every ASIC its
 * coordinate and torus-size registers (from where discovery found it), its datelines (§2.5:
 * between k − 1 and 0, + and − alike), its route policy (all 12 (order, slice) combinations, less
 * those a dead channel or ASIC spoils for a pair — anton2-route-policy.ts), and every SA2 arbiter's
 * inverse weights from the loads of up to two traffic patterns (arbiter-loads.ts, §3.3).
 *
 * The checks (spec §2.4) before anything is pushed: A-V1 every ASIC's coordinate and size
 * registers are its place, so every route the hardware computes from them is minimal; A-V2 each
 * ring's + and − datelines lie between the same two nodes, on every ASIC of the ring; A-V3 the
 * dependency graph over every buffer is acyclic (anton2-dependencies.ts), or a cycle is shown;
 * A-V4 every multicast tree's every path is a unicast route (anton2-multicast.ts).
 */
import * as model from '@weft/fabric-model';
import type { FabricDesign, MaintenanceTransport, Torus } from '@weft/fabric-model';
import { cablesNotFoundAsDesigned, KnownFabric } from '../discovery/known-fabric';
import { FaultSet } from '../faults/fault-set';
import {
  anton2ArbiterLoads,
  anton2ArbiterLoadsAroundFaults,
  anton2WeightTable,
  Anton2Pattern,
  ARBITER_INPUTS_PER_ASIC,
  loadsEveryAsicAlike,
} from './arbiter-loads';
import { anton2Dependencies, Anton2DependencyReport } from './anton2-dependencies';
import { anton2ControlAddresses } from './anton2-discovery';
import { anton2RoutePolicy, Anton2RoutePolicy, DeadChannel } from './anton2-route-policy';
import { Anton2MulticastGroup, Anton2MulticastPlan, checkMulticastTree, MulticastError, multicastTables, planAnton2Multicast } from './anton2-multicast';
import { inverseWeights } from './inverse-weights';

export interface Anton2ConfigurationOptions {
  /** How sources break an offset of exactly k/2 (the emulator's `tieRule` setting must match). */
  readonly tieRule: 'random' | 'plus' | 'source-parity';
  /** One or two patterns whose loads set the inverse weights (§3.3: N = 2; §4.1 used the uniform pattern's alone). */
  readonly patterns: readonly Anton2Pattern[];
  readonly weightBits: number;
  readonly arbitration: 'inverse-weighted' | 'round-robin';
  /** The endpoint adapters that send and receive, for the loads (every one by default). */
  readonly endpoints: readonly number[];
}

export const DEFAULT_ANTON2_CONFIGURATION: Anton2ConfigurationOptions = {
  tieRule: 'random',
  patterns: [{ name: 'uniform' }],
  weightBits: 5,
  arbitration: 'inverse-weighted',
  endpoints: Array.from({ length: model.ANTON2_ENDPOINT_ADAPTERS }, (_, e) => e),
};

export interface Anton2Image {
  readonly torus: Torus;
  /** Per design chip, its place (torus index); −1 where it did not answer. */
  readonly place: Int32Array;
  /** Per place, the registers: coordinates and size (x y z), datelines + and −. */
  readonly coordinates: Int32Array;
  readonly size: Int32Array;
  readonly datelinePlus: Int32Array;
  readonly datelineMinus: Int32Array;
  readonly policy: Anton2RoutePolicy;
  readonly deadNodes: readonly number[];
  readonly deadChannels: readonly DeadChannel[];
  /** Every ASIC's arbiter weights by place (each the layout of the `arbiterWeights` register), and the modes. */
  readonly weights: Uint16Array;
  readonly modes: Uint8Array;
  /** Multicast: each group as its trees serve it (dead destinations left out), its trees, and every ASIC's table (by place). */
  readonly groups: ReadonlyMap<number, Anton2MulticastGroup>;
  readonly plans: ReadonlyMap<number, Anton2MulticastPlan>;
  readonly tables: ReadonlyMap<number, ReadonlyMap<number, model.Anton2MulticastEntry>>;
  /** What the faults took from the groups: the group, and what and why. */
  readonly unserved: readonly { readonly group: number; readonly reason: string }[];
}

export interface Anton2Verdict {
  readonly ok: boolean;
  /** Broken rules, each naming the ASIC and what is wrong (A-V1, A-V2). */
  readonly problems: readonly string[];
  readonly dependencies: Anton2DependencyReport;
}

const placeIn = (torus: Torus, at: readonly number[] | undefined) => (at ? torus.index(at[0], at[1], at[2]) : 0);

/**
 * The faults as the torus sees them (places and channels by torus index): dead ASICs, declared or
 * not answering discovery; dead channels, both ends — declared, found down, or not found as designed
 * (cablesNotFoundAsDesigned: a channel whose far end is not where the design puts it is not routed over).
 */
export function anton2Faults(known: KnownFabric, torus: Torus, faults: FaultSet = FaultSet.NONE): { deadNodes: number[]; deadChannels: DeadChannel[] } {
  const placeOf = new Map(known.design.chips.map((c) => [c.name, placeIn(torus, c.coordinates)] as const));
  const deadNodes = new Set<number>();
  for (const name of faults.routers) if (placeOf.has(name)) deadNodes.add(placeOf.get(name)!);
  for (const finding of known.matched.findings)
    if (finding.kind === 'unreachable-chip' && finding.chip && placeOf.has(finding.chip)) deadNodes.add(placeOf.get(finding.chip)!);
  const channels = new Map<string, DeadChannel>();
  const both = (node: number, port: number) => {
    if (port < 0 || port >= model.ANTON2_CHANNEL_ADAPTERS) return;
    const d = port >> 2;
    if (torus.shape[d] === 1) return;
    const far = torus.neighbour(node, 2 * d + ((port & 2) >> 1));
    channels.set(`${node}:${port}`, { node, port });
    channels.set(`${far}:${port ^ 2}`, { node: far, port: port ^ 2 });
  };
  for (const { chip, port } of faults.ports()) if (placeOf.has(chip) && !faults.routers.has(chip)) both(placeOf.get(chip)!, port);
  for (const ends of cablesNotFoundAsDesigned(known)) for (const end of ends) if (placeOf.has(end.chip)) both(placeOf.get(end.chip)!, end.port);
  return { deadNodes: [...deadNodes], deadChannels: [...channels.values()] };
}

export function computeAnton2Image(
  design: FabricDesign,
  faults: { deadNodes: readonly number[]; deadChannels: readonly DeadChannel[] },
  options: Anton2ConfigurationOptions = DEFAULT_ANTON2_CONFIGURATION,
  floorplan = model.shippedAnton2Floorplan(),
  groups: ReadonlyMap<number, Anton2MulticastGroup> = new Map(),
): Anton2Image {
  const torus = model.designTorus(design);
  const place = Int32Array.from(design.chips, (c) => placeIn(torus, c.coordinates));
  const n = torus.size;
  const coordinates = new Int32Array(3 * n);
  const size = new Int32Array(3 * n);
  const datelinePlus = new Int32Array(3 * n);
  const datelineMinus = new Int32Array(3 * n);
  for (let p = 0; p < n; p++)
    for (let d = 0; d < 3; d++) {
      coordinates[3 * p + d] = torus.coordinate(p, d);
      size[3 * p + d] = torus.shape[d];
      // §2.5: "we place the dateline between nodes k_D − 1 and 0".
      datelinePlus[3 * p + d] = datelineMinus[3 * p + d] = torus.shape[d] - 1;
    }
  const registers = { torus, place, coordinates, size, datelinePlus, datelineMinus };
  const routed = anton2Routes(design, registers, faults, options, groups);
  const modes = new Uint8Array(model.A2_ROUTERS * model.A2_PORTS).fill(options.arbitration === 'round-robin' ? 1 : 0);
  return { ...routed, weights: anton2Weights(torus, routed.policy, options, floorplan), modes };
}

/** The registers faults do not change: an ASIC's place, coordinates, size and datelines. */
export type Anton2PlaceRegisters = Pick<Anton2Image, 'torus' | 'place' | 'coordinates' | 'size' | 'datelinePlus' | 'datelineMinus'>;

/**
 * What a fault changes first (issue 55, "routes first, weights after"): the route policy around the
 * faults and the multicast trees within it, on the registers of `registers` (kept, the very arrays:
 * the dependency proof of their datelines stands). The weights are the caller's.
 */
export function anton2Routes(
  design: FabricDesign,
  registers: Anton2PlaceRegisters,
  faults: { deadNodes: readonly number[]; deadChannels: readonly DeadChannel[] },
  options: Anton2ConfigurationOptions,
  groups: ReadonlyMap<number, Anton2MulticastGroup>,
): Omit<Anton2Image, 'weights' | 'modes'> {
  const { torus, place } = registers;
  const policy = anton2RoutePolicy(torus, faults.deadChannels, faults.deadNodes, options.tieRule);
  // Multicast trees within the route policy: around the faults like every unicast route. A dead
  // destination is left out of its group's trees, and a group no tree can serve (its source dead, or
  // no (order, slice) left that reaches every destination) has none — both said, not refused: a
  // fault's reaction must not fail for want of a multicast tree.
  const plans = new Map<number, Anton2MulticastPlan>();
  const served = new Map<number, Anton2MulticastGroup>();
  const unserved: { group: number; reason: string }[] = [];
  const dead = new Set(faults.deadNodes);
  const nameAt: string[] = [];
  design.chips.forEach((c, i) => (nameAt[place[i]] = c.name));
  const name = (node: number) => nameAt[node] ?? torus.name(node);
  for (const [id, group] of groups) {
    const lost = group.destinations.filter((d) => dead.has(d.node));
    const live = { source: group.source, destinations: group.destinations.filter((d) => !dead.has(d.node)) };
    if (lost.length > 0) unserved.push({ group: id, reason: `${[...new Set(lost.map((d) => name(d.node)))].join(', ')} dead, left out of its trees` });
    if (dead.has(group.source) || live.destinations.length === 0) {
      unserved.push({ group: id, reason: `${dead.has(group.source) ? `its source ${name(group.source)} is dead` : 'every destination is dead'}; no trees` });
      continue;
    }
    try {
      plans.set(id, planAnton2Multicast(torus, live, { tieRule: options.tieRule, policy: policy.masks }));
      served.set(id, live);
    } catch (error) {
      if (!(error instanceof MulticastError)) throw error;
      unserved.push({ group: id, reason: `${error.message}; no trees` });
    }
  }
  const tables = multicastTables(torus, plans);
  return {
    ...registers,
    policy,
    deadNodes: [...faults.deadNodes],
    deadChannels: [...faults.deadChannels],
    groups: served,
    plans,
    tables,
    unserved,
  };
}

/**
 * Every ASIC's arbiter weights (§3.3, spec §2.6): alike without faults for a named pattern; around
 * faults, or from a traffic matrix, each ASIC's from its own loads under the route policy.
 */
export function anton2Weights(
  torus: Torus,
  policy: Anton2RoutePolicy,
  options: Anton2ConfigurationOptions,
  floorplan = model.shippedAnton2Floorplan(),
): Uint16Array {
  const n = torus.size;
  const wiring = model.anton2ChipWiring(floorplan);
  const loadOptions = { sourceEndpoints: options.endpoints, destinationEndpoints: options.endpoints, tieRule: options.tieRule };
  const perAsic = ARBITER_INPUTS_PER_ASIC * 2;
  const weights = new Uint16Array(n * perAsic);
  if (policy.masks.size === 0 && options.patterns.every(loadsEveryAsicAlike)) {
    const loads = options.patterns.map((pattern) => anton2ArbiterLoads(torus, wiring, pattern, loadOptions).arbiters);
    const table = anton2WeightTable(loads, options.weightBits, inverseWeights);
    for (let p = 0; p < n; p++) weights.set(table, p * perAsic);
  } else {
    const loads = options.patterns.map((pattern) => anton2ArbiterLoadsAroundFaults(torus, wiring, pattern, loadOptions, policy.masks));
    for (let p = 0; p < n; p++) {
      const at = loads.map((l) => l.subarray(p * ARBITER_INPUTS_PER_ASIC, (p + 1) * ARBITER_INPUTS_PER_ASIC));
      weights.set(anton2WeightTable(at, options.weightBits, inverseWeights), p * perAsic);
    }
  }
  return weights;
}

export function verifyAnton2Image(
  image: Anton2Image,
  tieRule: Anton2ConfigurationOptions['tieRule'],
  floorplan = model.shippedAnton2Floorplan(),
  /** A-V3's report for these very dateline arrays, already proven (it depends on nothing else a fault changes). */
  proven?: Anton2DependencyReport,
): Anton2Verdict {
  const { torus } = image;
  const problems: string[] = [];
  const dead = new Set(image.deadNodes);
  for (let p = 0; p < torus.size; p++) {
    if (dead.has(p)) continue;
    const name = torus.name(p);
    for (let d = 0; d < 3; d++) {
      // A-V1: routes are computed from these; wrong ones make routes that are not minimal.
      if (image.coordinates[3 * p + d] !== torus.coordinate(p, d))
        problems.push(`A-V1 ${name}: its ${'xyz'[d]} coordinate register holds ${image.coordinates[3 * p + d]}, its place is ${torus.coordinate(p, d)}`);
      if (image.size[3 * p + d] !== torus.shape[d])
        problems.push(`A-V1 ${name}: its ${'xyz'[d]} torus-size register holds ${image.size[3 * p + d]}, the ring has ${torus.shape[d]}`);
      // A-V2: + and − datelines between the same two nodes, the same on every node of the ring.
      const plus = image.datelinePlus[3 * p + d];
      const minus = image.datelineMinus[3 * p + d];
      if (plus !== minus)
        problems.push(
          `A-V2 ${name}: its ${'xyz'[d]}+ dateline lies after ${plus} and its ${'xyz'[d]}− dateline after ${minus}; §2.5 needs them between the same two nodes`,
        );
      const first = torus.withCoordinate(p, d, 0);
      if (plus !== image.datelinePlus[3 * first + d])
        problems.push(
          `A-V2 ${name}: its ${'xyz'[d]} dateline lies after ${plus}, ${torus.name(first)}'s on the same ring after ${image.datelinePlus[3 * first + d]}`,
        );
    }
  }
  // A-V4: every path of every tree a unicast route, every destination one copy.
  for (const [id, plan] of image.plans)
    plan.trees.forEach((tree, i) => {
      for (const problem of checkMulticastTree(torus, image.groups.get(id)!, tree)) problems.push(`A-V4 group ${id} tree ${i}: ${problem}`);
    });
  const dependencies =
    proven ??
    anton2Dependencies({
      torus,
      wiring: model.anton2ChipWiring(floorplan),
      datelinePlus: image.datelinePlus,
      datelineMinus: image.datelineMinus,
      tieRule,
    });
  return { ok: problems.length === 0 && dependencies.acyclic, problems, dependencies };
}

/** An ASIC's registers as the engine computes them (chips/anton2-asic.ts names them). */
export interface Anton2AsicImage {
  readonly name: string;
  /** Its control-network address (not a register: where the push writes). */
  readonly route: readonly number[];
  readonly nodeCoordinates: readonly number[];
  readonly torusSize: readonly number[];
  readonly datelines: readonly number[];
  /** The restricted destinations as [place, 12-bit mask] pairs (the register's words); empty: all 12 (order, slice) combinations everywhere. */
  readonly routePolicy: readonly number[];
  readonly arbiterWeights: readonly number[];
  readonly arbiterModes: readonly number[];
  readonly multicastTable: readonly number[];
}

/** Each register of the ASIC at place `p` in a computed image, as its words. */
export const ANTON2_ASIC_REGISTER_WORDS: { readonly [R in Anton2ImageRegister]: (image: Anton2Image, p: number) => readonly number[] } = {
  nodeCoordinates: (image, p) => Array.from(image.coordinates.subarray(3 * p, 3 * p + 3)),
  torusSize: (image, p) => Array.from(image.size.subarray(3 * p, 3 * p + 3)),
  datelines: (image, p) => [...image.datelinePlus.subarray(3 * p, 3 * p + 3), ...image.datelineMinus.subarray(3 * p, 3 * p + 3)],
  routePolicy: (image, p) => model.anton2RoutePolicyWords(image.policy.masks.get(p) ?? null),
  arbiterWeights: (image, p) => Array.from(image.weights.subarray(p * ARBITER_INPUTS_PER_ASIC * 2, (p + 1) * ARBITER_INPUTS_PER_ASIC * 2)),
  arbiterModes: (image) => Array.from(image.modes),
  multicastTable: (image, p) => model.anton2MulticastWords(image.tables.get(p) ?? new Map()),
};

/** The registers an ASIC image holds, in the order they are written. */
export const ANTON2_IMAGE_REGISTERS = ['nodeCoordinates', 'torusSize', 'datelines', 'routePolicy', 'arbiterWeights', 'arbiterModes', 'multicastTable'] as const;
export type Anton2ImageRegister = (typeof ANTON2_IMAGE_REGISTERS)[number];

/** The registers of the ASIC at place `p` in a computed image. */
export function anton2AsicImage(image: Anton2Image, p: number, name: string, route: readonly number[]): Anton2AsicImage {
  const registers = {} as Record<Anton2ImageRegister, readonly number[]>;
  for (const register of ANTON2_IMAGE_REGISTERS) registers[register] = ANTON2_ASIC_REGISTER_WORDS[register](image, p);
  return { name, route, ...registers };
}

/** An ASIC image's registers as the writes that put them in place (each whole, index 0). */
export function anton2WriteList(image: Anton2AsicImage): { register: string; index: number; value: readonly number[] }[] {
  return ANTON2_IMAGE_REGISTERS.map((register) => ({ register, index: 0, value: image[register] }));
}

/** Writes every live ASIC's registers over the control network; the first refusal stops the push and is returned. */
export async function pushAnton2Image(
  transport: MaintenanceTransport,
  design: FabricDesign,
  image: Anton2Image,
): Promise<{ writes: number; failure?: string }> {
  const routes = anton2ControlAddresses(design);
  const dead = new Set(image.deadNodes);
  let writes = 0;
  for (let i = 0; i < design.chips.length; i++) {
    if (dead.has(image.place[i])) continue;
    for (const { register, index, value } of anton2WriteList(anton2AsicImage(image, image.place[i], design.chips[i].name, routes[i]))) {
      const result = await transport.write(routes[i], register, index, [...value]);
      writes++;
      if (!result.ok) return { writes, failure: `${design.chips[i].name} ${register}: ${result.reason}${result.detail ? ` (${result.detail})` : ''}` };
    }
  }
  return { writes };
}
