/**
 * A flattened butterfly's configuration (issue 38; spec §3.4): every router's registers from the
 * fabric as discovered, the faults in force and the operator's routing settings — the grid's
 * shape and the router's coordinates (eq. (1)'s digits), the port towards each coordinate of each
 * dimension as the design cables it, the routing mode and allocator, the VC of each hop's index
 * and the buffer's split over the VCs in use (§3.2: 32 flits a port, split among them), and the
 * ports masked out of every choice: a channel declared faulty, found miswired or missing, or
 * leading to a dead router (§3.6) — each masked hop to a live router given a detour through
 * another router of its dimension, and the dead routers excluded as intermediates.
 *
 * Its proof (verifyFlatImage): each router's registers read back against the design (shape,
 * coordinates, every map entry the port the design cables to that peer, or masked); the VCs the
 * algorithm needs within the chip's; the channel dependencies of every route the algorithm may
 * take acyclic (flat-dependencies.ts); the longest route within its bound — n′ hops minimal, 2n′
 * for VAL and UGAL, and for CLOS AD those of the folded Clos the fabric flattens (n levels: 2n′);
 * and every live pair reachable: with masks, every dimension-order walk between live routers is
 * walked over the registers, a detour a phase — minimal routing's failures are its cut pairs,
 * said by name; for VAL, UGAL and CLOS AD, whose intermediates may be any live router, one failure
 * refuses the configuration. MIN AD round masks is not proven yet, and refused, saying so.
 */
import * as model from '@weft/fabric-model';
import type { FabricDesign, FlatAllocator, FlatGrid, FlatRouting } from '@weft/fabric-model';
import type { KnownFabric } from '../discovery/known-fabric';
import type { FaultSet } from '../faults/fault-set';
import { FlatDependencyReport, flatDependencies, flatDependencyRules, flatVcAssignment } from './flat-dependencies';
import { FlatReach } from './flat-reach';

export interface FlatRoutingSettings {
  readonly routing: FlatRouting;
  /** Default: the algorithm's own (§3.1). */
  readonly allocator?: FlatAllocator;
}

export const DEFAULT_FLAT_SETTINGS: FlatRoutingSettings = { routing: 'ugal' };

/** A router's registers as the control plane writes them, with its service-network address. */
export interface FlatRouterImage {
  readonly name: string;
  readonly route: readonly number[];
  readonly gridShape: readonly number[];
  readonly coordinates: readonly number[];
  readonly portMap: readonly number[];
  readonly redundantMap: readonly number[];
  readonly vcMap: readonly number[];
  readonly bufferSplit: readonly number[];
  readonly portMask: readonly number[];
  readonly detourVia: readonly number[];
  readonly excludedIntermediates: readonly number[];
  readonly routingMode: readonly number[];
}

export interface FlatImage {
  readonly family: 'flattened-butterfly';
  readonly grid: FlatGrid;
  readonly routing: FlatRouting;
  readonly allocator: FlatAllocator;
  readonly routers: readonly FlatRouterImage[];
  /** Routers left out (dead, declared or unanswering), by name. */
  readonly deadRouters: readonly string[];
  /** Masked channels, one entry a cable (`r0.1:5–r2.1:5`), and why. */
  readonly masked: readonly string[];
  /** Whether any router takes a masked channel round by a detour (its VCs then include the detours'). */
  readonly detours: boolean;
  /** Live routers a route cannot join under the algorithm and masks: source → destinations. */
  readonly cut: readonly { readonly source: string; readonly destinations: readonly string[] }[];
}

/** The registers a router image writes: the datasheet's configuration registers, in its order (each checks itself against the ones before). */
export const FLAT_IMAGE_REGISTERS = model.FLAT_CONFIGURATION_REGISTERS satisfies readonly (keyof FlatRouterImage)[];

/** A router image's registers as the writes that put them in place (each whole, index 0). */
export function flatWriteList(r: FlatRouterImage): { register: string; index: number; value: readonly number[] }[] {
  return FLAT_IMAGE_REGISTERS.map((register) => ({ register, index: 0, value: r[register] }));
}

const designGrid = model.flatGridOf;
const gridIndex = model.flatRouterIndex;

/**
 * The configuration around `faults`; `reachBefore`: the reach of the image computed before (minimal
 * routing's cut pairs are then walked again only where the registers changed), and the reach of
 * this one, where minimal routing needed it.
 */
export function computeFlatImage(
  known: KnownFabric,
  faults: FaultSet,
  settings: FlatRoutingSettings,
  reachBefore: FlatReach | null = null,
): { image: FlatImage; reach: FlatReach | null } {
  return new FlatConfigurator(known).configure(faults, settings, reachBefore);
}

/**
 * The configurations of one fabric as discovered (issue 55: a fault costs what it touches): what
 * no fault changes — the grid, each router's coordinates and port maps, the cables discovery did
 * not find as designed — is worked out once, and each configuration looks only at the cables and
 * routers its faults touch. The registers no fault changes keep their arrays from one
 * configuration to the next.
 */
export class FlatConfigurator {
  private readonly grid: FlatGrid;
  private readonly routers: readonly { readonly name: string; readonly coordinates: readonly number[]; readonly portCount: number }[];
  private readonly indexOf = new Map<string, number>();
  /** Per router: its coordinates, port map and redundant map (the register arrays, kept). */
  private readonly coordinates: number[][];
  private readonly portMaps: number[][];
  private readonly redundantMaps: number[][];
  /** Design cables by a router's port (router × ports + port), −1 where none; cables by router. */
  private readonly ports: number;
  private readonly cableAt: Int32Array;
  private readonly cablesOf: number[][];
  /** Cables discovery did not find as designed, and routers that did not answer it. */
  private readonly notFound: readonly number[];
  private readonly unanswered: ReadonlySet<string>;
  /** Registers alike on every router without a masked port. */
  private readonly noMask: Map<number, number[]> = new Map();
  private readonly noDetours: number[];
  private readonly gridShape: number[];
  /** The router at each grid index (−1: none). */
  private readonly atGrid: Int32Array;

  constructor(readonly known: KnownFabric) {
    const design = known.design;
    const grid = (this.grid = designGrid(design));
    const dims = grid.sizes.length;
    this.routers = design.chips.map((c) => ({ name: c.name, coordinates: c.coordinates ?? [], portCount: c.portCount }));
    this.routers.forEach((r, i) => this.indexOf.set(r.name, i));
    this.atGrid = new Int32Array(model.flatRouterCount(grid)).fill(-1);
    this.routers.forEach((r, i) => (this.atGrid[gridIndex(grid, r.coordinates)] = i));
    this.ports = Math.max(0, ...design.chips.map((c) => c.portCount));
    this.cableAt = new Int32Array(this.routers.length * this.ports).fill(-1);
    this.cablesOf = this.routers.map(() => []);
    design.cables.forEach((c, k) => {
      for (const end of [c.a, c.b]) {
        const i = this.indexOf.get(end.chip);
        if (i === undefined) continue;
        this.cableAt[i * this.ports + end.port] = k;
        this.cablesOf[i].push(k);
      }
    });
    // What discovery found: the far end of each live cable end, by design names.
    const found = new Map<string, string>();
    for (const c of known.matched.cables) {
      if (c.lanes === 0) continue;
      found.set(`${c.a.chip}:${c.a.port}`, `${c.b.chip}:${c.b.port}`);
      found.set(`${c.b.chip}:${c.b.port}`, `${c.a.chip}:${c.a.port}`);
    }
    this.notFound = design.cables.flatMap((c, k) => (found.get(`${c.a.chip}:${c.a.port}`) !== `${c.b.chip}:${c.b.port}` ? [k] : []));
    const answered = new Set(known.matched.names.values());
    this.unanswered = new Set(this.routers.filter((r) => !answered.has(r.name)).map((r) => r.name));
    // Doubled channels (Fig. 14(a)): a cable on a spare port to a router of the same dimension.
    const used = grid.k + grid.sizes.reduce((a, size) => a + size - 1, 0);
    const redundantOf = new Map<string, number>();
    for (const c of design.cables)
      for (const [end, other] of [
        [c.a, c.b],
        [c.b, c.a],
      ] as const) {
        if (end.port < used) continue;
        const own = this.routers[this.indexOf.get(end.chip)!].coordinates;
        const far = this.routers[this.indexOf.get(other.chip)!].coordinates;
        const d = own.findIndex((x, i) => x !== far[i]);
        redundantOf.set(`${end.chip}:${model.flatMapSlot(grid, d + 1, far[d])}`, end.port);
      }
    this.coordinates = this.routers.map((r) => [...r.coordinates]);
    this.portMaps = this.coordinates.map((coordinates) => {
      const portMap: number[] = [];
      for (let d = 0; d < dims; d++)
        for (let m = 0; m < grid.sizes[d]; m++) portMap.push(m === coordinates[d] ? -1 : model.flatPeerPort(grid, d + 1, coordinates[d], m));
      return portMap;
    });
    this.redundantMaps = this.portMaps.map((portMap, i) => portMap.map((_, slot) => redundantOf.get(`${this.routers[i].name}:${slot}`) ?? -1));
    this.noDetours = new Array<number>(grid.sizes.reduce((a, b) => a + b, 0)).fill(-1);
    this.gridShape = [grid.k, ...grid.sizes];
  }

  configure(faults: FaultSet, settings: FlatRoutingSettings, reachBefore: FlatReach | null = null): { image: FlatImage; reach: FlatReach | null } {
    const { grid, routers, ports, cableAt } = this;
    const design = this.known.design;
    const dims = grid.sizes.length;
    const allocator = settings.allocator ?? model.flatAllocatorOf(settings.routing);
    const dead = new Set(routers.filter((r) => faults.routers.has(r.name) || this.unanswered.has(r.name)).map((r) => r.name));
    // A designed cable is used where discovery found it as designed, neither end is faulty and both
    // routers live: only the cables of dead routers, of faulty ports and not found need a look.
    const candidates = new Set<number>(this.notFound);
    for (const name of dead) for (const k of this.cablesOf[this.indexOf.get(name)!]) candidates.add(k);
    for (const { chip, port } of faults.ports()) {
      const i = this.indexOf.get(chip);
      if (i !== undefined && port >= 0 && port < ports && cableAt[i * ports + port] >= 0) candidates.add(cableAt[i * ports + port]);
    }
    const masked = new Set<string>();
    const maskedCables: string[] = [];
    const maskedAt = new Set<number>();
    for (const k of [...candidates].sort((a, b) => a - b)) {
      const c = design.cables[k];
      const a = `${c.a.chip}:${c.a.port}`;
      const b = `${c.b.chip}:${c.b.port}`;
      const why = dead.has(c.a.chip) || dead.has(c.b.chip) ? 'a dead router' : faults.has(c.a) || faults.has(c.b) ? 'declared faulty' : 'not found as designed';
      masked.add(a);
      masked.add(b);
      maskedCables.push(`${a}–${b} (${why})`);
      for (const end of [c.a, c.b]) maskedAt.add(this.indexOf.get(end.chip)!);
    }
    // Detours (spec §3.6): a masked hop to a live router goes through another router of the same
    // dimension whose channels both ways are open — the first such after the target, counting from
    // the router's own coordinate (so that the routers of a dimension spread their detours). Only a
    // router with a masked port has a masked hop.
    const routerAt = (coordinates: readonly number[]) => routers[this.atGrid[gridIndex(grid, coordinates)]] as (typeof routers)[number] | undefined;
    const open = (from: { name: string; coordinates: readonly number[] }, d: number, m: number): boolean => {
      if (dead.has(from.name)) return false;
      const i = this.indexOf.get(from.name)!;
      const slot = model.flatMapSlot(grid, d + 1, m);
      const port = this.portMaps[i][slot];
      if (!masked.has(`${from.name}:${port}`)) return true;
      const second = this.redundantMaps[i][slot];
      return second >= 0 && !masked.has(`${from.name}:${second}`);
    };
    const detourOf = new Map<number, number[]>();
    let detours = false;
    for (const i of maskedAt) {
      const chip = routers[i];
      if (dead.has(chip.name)) continue;
      const own = chip.coordinates;
      const via: number[] = [];
      for (let d = 0; d < dims; d++) {
        const size = grid.sizes[d];
        for (let m = 0; m < size; m++) {
          if (m === own[d] || open(chip, d, m)) {
            via.push(-1);
            continue;
          }
          const target = [...own];
          target[d] = m;
          const far = routerAt(target);
          if (!far || dead.has(far.name)) {
            via.push(-1);
            continue;
          }
          let chosen = -1;
          for (let step = 1; step < size && chosen < 0; step++) {
            const v = (m + step + own[d]) % size;
            if (v === own[d] || v === m) continue;
            const middle = [...own];
            middle[d] = v;
            const mid = routerAt(middle);
            if (mid && !dead.has(mid.name) && open(chip, d, v) && open(mid, d, m)) chosen = v;
          }
          via.push(chosen);
          if (chosen >= 0) detours = true;
        }
      }
      detourOf.set(i, via);
    }
    const excludedIntermediates = routers
      .filter((r) => dead.has(r.name))
      .map((r) => gridIndex(grid, r.coordinates))
      .sort((a, b) => a - b);
    const vcMap = flatVcAssignment(settings.routing, dims, model.FLAT_VCS, detours);
    const inUse = Math.max(...vcMap) + 1;
    const perVc = Math.floor(model.FLAT_BUFFER_FLITS_PER_PORT / inUse);
    const bufferSplit = Array.from({ length: model.FLAT_VCS }, (_, v) => (v < inUse ? perVc : 0));
    const routingMode = [model.FLAT_ROUTINGS.indexOf(settings.routing), allocator === 'sequential' ? 1 : 0];
    const images: FlatRouterImage[] = [];
    routers.forEach((chip, i) => {
      if (dead.has(chip.name)) return;
      const coordinates = this.coordinates[i];
      images.push({
        name: chip.name,
        route: coordinates,
        gridShape: this.gridShape,
        coordinates,
        portMap: this.portMaps[i],
        redundantMap: this.redundantMaps[i],
        vcMap,
        bufferSplit,
        portMask: maskedAt.has(i) ? Array.from({ length: chip.portCount }, (_, p) => (masked.has(`${chip.name}:${p}`) ? 1 : 0)) : this.zeros(chip.portCount),
        detourVia: detourOf.get(i) ?? this.noDetours,
        excludedIntermediates,
        routingMode,
      });
    });
    const reach = settings.routing === 'min' && maskedCables.length > 0 ? (reachBefore?.after(images) ?? FlatReach.of(grid, images)) : null;
    const image: FlatImage = {
      family: 'flattened-butterfly',
      grid,
      routing: settings.routing,
      allocator,
      routers: images,
      deadRouters: [...dead],
      masked: maskedCables,
      detours,
      cut: reach ? failingByName(reach).map(([source, destinations]) => ({ source, destinations })) : [],
    };
    return { image, reach };
  }

  /** A port mask of `ports` open ports (one array for all alike). */
  private zeros(ports: number): number[] {
    let zeros = this.noMask.get(ports);
    if (!zeros) this.noMask.set(ports, (zeros = new Array<number>(ports).fill(0)));
    return zeros;
  }
}

/** A reach's failing walks by router name, source → destinations. */
function failingByName(reach: FlatReach): [string, string[]][] {
  const name = (r: number) => reach.images[r]!.name;
  return reach.failingWalks().map(([s, ts]) => [name(s), ts.map(name)]);
}

/**
 * Which live routers reach which by dimension order over the image's registers — each masked hop
 * taken round by its detour, once a phase (the routers' rule; flat-reach.ts): for every source, the
 * destinations it cannot reach, by name.
 */
export function dorReach(grid: FlatGrid, routers: readonly FlatRouterImage[]): { failing: [string, string[]][]; pairs: number } {
  const reach = FlatReach.of(grid, routers);
  return { failing: failingByName(reach), pairs: reach.pairs };
}

export interface FlatVerdict {
  readonly problems: readonly string[];
  /** What the proof read of the image, for the proof of the next one (FlatProven). */
  readonly proven: FlatProven;
  readonly dependencies: FlatDependencyReport;
  /** The longest route the algorithm may take, in hops between routers, and its bound. */
  readonly maxHops: number;
  readonly hopBound: number;
  readonly vcsNeeded: number;
}

/**
 * What a proof of an image held proven (issue 55: the next proof re-checks what changed): each
 * router's image object whose registers it found as the design cables them, and the walks between
 * live routers where it walked them.
 */
export interface FlatProven {
  readonly routers: ReadonlyMap<string, FlatRouterImage>;
  readonly reach: FlatReach | null;
}

/** What the proof reads of a design to check a router's place: its chips by name, each cable end's far chip, the router at each place. */
interface PlacementIndex {
  readonly chips: ReadonlyMap<string, FabricDesign['chips'][number]>;
  readonly peerOf: ReadonlyMap<string, string>;
  readonly nameAt: ReadonlyMap<string, string>;
}

/** Made once per design, and only where a router's place is to be checked (issue 55: remade per proof it was 180 ms of a 65,536-terminal reaction). */
const placementIndexes = new WeakMap<FabricDesign, PlacementIndex>();

function placementIndexOf(design: FabricDesign): PlacementIndex {
  let index = placementIndexes.get(design);
  if (index) return index;
  const peerOf = new Map<string, string>();
  for (const c of design.cables) {
    peerOf.set(`${c.a.chip}:${c.a.port}`, c.b.chip);
    peerOf.set(`${c.b.chip}:${c.b.port}`, c.a.chip);
  }
  index = {
    chips: new Map(design.chips.map((c) => [c.name, c])),
    peerOf,
    nameAt: new Map(design.chips.map((c) => [(c.coordinates ?? []).join('.'), c.name])),
  };
  placementIndexes.set(design, index);
  return index;
}

/** The proof of an image against its design (see the file's comment); `before`: what the proof of an earlier image held proven. */
export function verifyFlatImage(design: FabricDesign, image: FlatImage, before: FlatProven | null = null): FlatVerdict {
  const problems: string[] = [];
  const grid = designGrid(design);
  const dims = grid.sizes.length;
  const routersProven = new Map<string, FlatRouterImage>();
  for (const r of image.routers) {
    // A router image object a proof found as the design cables it is as it was, and so are the
    // registers of another whose arrays are the very ones it found so (the engine keeps them).
    const proven = before?.routers.get(r.name);
    if (proven === r) {
      routersProven.set(r.name, r);
      continue;
    }
    const problemsBefore = problems.length;
    const placed =
      proven !== undefined &&
      proven.gridShape === r.gridShape &&
      proven.coordinates === r.coordinates &&
      proven.portMap === r.portMap &&
      proven.redundantMap === r.redundantMap;
    if (!placed) placedAsDesigned(r);
    if (r.vcMap.some((v) => v >= model.FLAT_VCS)) problems.push(`${r.name}: the VC map names a VC beyond the router's ${model.FLAT_VCS}`);
    if (r.bufferSplit.reduce((a, b) => a + b, 0) > model.FLAT_BUFFER_FLITS_PER_PORT)
      problems.push(`${r.name}: the buffer split exceeds ${model.FLAT_BUFFER_FLITS_PER_PORT} flits`);
    if (r.vcMap.some((v) => r.bufferSplit[v] === 0)) problems.push(`${r.name}: a VC in use has no buffer`);
    if (problems.length === problemsBefore) routersProven.set(r.name, r);
  }
  /** A router's grid shape, coordinates and port maps against the design. */
  function placedAsDesigned(r: FlatRouterImage): void {
    const { chips, peerOf, nameAt } = placementIndexOf(design);
    const chip = chips.get(r.name);
    if (!chip) {
      problems.push(`${r.name}: no such router in the design`);
      return;
    }
    if (r.gridShape.join(',') !== [grid.k, ...grid.sizes].join(',')) problems.push(`${r.name}: grid shape ${r.gridShape.join('×')} is not the design's`);
    if (r.coordinates.join('.') !== (chip.coordinates ?? []).join('.')) problems.push(`${r.name}: coordinates ${r.coordinates.join('.')} are not its place`);
    let base = 0;
    for (let d = 0; d < dims; d++) {
      for (let m = 0; m < grid.sizes[d]; m++) {
        const port = r.portMap[base + m];
        if (m === r.coordinates[d]) {
          if (port !== -1) problems.push(`${r.name}: dimension ${d + 1} coordinate ${m} is its own, mapped to port ${port}`);
          continue;
        }
        const target = [...r.coordinates];
        target[d] = m;
        const want = nameAt.get(target.join('.'));
        if (peerOf.get(`${r.name}:${port}`) !== want) problems.push(`${r.name}: port ${port} for dimension ${d + 1} coordinate ${m} is not cabled to ${want}`);
        const second = r.redundantMap[base + m];
        if (second >= 0 && peerOf.get(`${r.name}:${second}`) !== want)
          problems.push(`${r.name}: redundant port ${second} for dimension ${d + 1} coordinate ${m} is not cabled to ${want}`);
      }
      base += grid.sizes[d];
    }
  }
  const vcsNeeded = model.flatVcsNeeded(image.routing, dims, image.detours);
  const vcMap = image.routers[0]?.vcMap ?? flatVcAssignment(image.routing, dims, model.FLAT_VCS, image.detours);
  if (new Set(vcMap).size < vcsNeeded)
    problems.push(
      `${image.routing} needs ${vcsNeeded} VCs on ${dims} dimension${dims > 1 ? 's' : ''}${image.detours ? ' with detours round masked channels' : ''}; the router has ${model.FLAT_VCS} and its VC map gives ${new Set(vcMap).size}`,
    );
  const dependencies = flatDependencies(grid, image.routing, vcMap, image.detours);
  if (!dependencies.acyclic) problems.push(`the channel dependencies close a cycle: ${dependencies.cycle!.join(' → ')}`);
  const maxHops = dependencies.acyclic ? longestRoute(dims, image.routing, vcMap, image.detours) : 0;
  // A detour adds a hop: once a route for minimal routing, once a phase for the others.
  const hopBound = image.routing === 'min' || image.routing === 'min-ad' ? dims + (image.detours ? 1 : 0) : 2 * dims + (image.detours ? 2 : 0);
  if (maxHops > hopBound) problems.push(`a ${image.routing} route may take ${maxHops} hops between routers, beyond its bound of ${hopBound}`);
  const anyMask = image.routers.some((r) => r.portMask.some((m) => m === 1));
  if (anyMask && image.routing === 'min-ad')
    problems.push(
      `min-ad around masked channels (${image.masked.slice(0, 3).join('; ')}${image.masked.length > 3 ? '; …' : ''}) is not proven yet: its adaptive choice may walk into a router whose every productive channel is masked`,
    );
  let reach: FlatReach | null = null;
  if (image.routing !== 'min' && image.routing !== 'min-ad') {
    // VAL, UGAL, CLOS AD: a packet may go from any live router to any other by dimension order
    // (to an intermediate, or from it): every such walk must get through, a detour a phase —
    // walked again where the registers changed since the proof before (flat-reach.ts; without a
    // masked channel every walk gets through, and is held so for the next proof without walking).
    reach = before?.reach?.after(image.routers) ?? FlatReach.of(grid, image.routers);
    if (anyMask && reach.lost > 0) {
      const failing = failingByName(reach);
      problems.push(
        `${reach.lost} of ${reach.pairs} dimension-order walks between live routers find no way round the masked channels (${failing
          .slice(0, 3)
          .map(([from, to]) => `${from} → ${to.slice(0, 3).join(', ')}`)
          .join('; ')}): ${image.routing}'s intermediates could strand packets there`,
      );
    }
  }
  return { problems, dependencies, maxHops, hopBound, vcsNeeded, proven: { routers: routersProven, reach } };
}

/** The most hops a route of the algorithm takes: the longest path through its dependency rules, plus one. */
function longestRoute(dims: number, routing: FlatRouting, vcMap: readonly number[], detours: boolean): number {
  const rules = flatDependencyRules(routing, dims, vcMap, detours);
  const memo = new Map<string, number>();
  const from = (d: number, v: number): number => {
    const key = `${d}:${v}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    memo.set(key, 1);
    let best = 1;
    for (const r of rules) if (r.d1 === d && r.v1 === v) best = Math.max(best, 1 + from(r.d2, r.v2));
    memo.set(key, best);
    return best;
  };
  let most = rules.length > 0 ? 0 : 1;
  for (const r of rules) most = Math.max(most, from(r.d1, r.v1));
  return Math.max(most, 1);
}
