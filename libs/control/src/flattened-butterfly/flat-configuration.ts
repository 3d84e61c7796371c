/**
 * A flattened butterfly's configuration (issue 38; spec §3.4): every router's registers from the
 * fabric as discovered, the faults in force and the operator's routing settings — the grid's
 * shape and the router's coordinates (eq. (1)'s digits), the port towards each coordinate of each
 * dimension as the design cables it, the routing mode and allocator, the VC of each hop's index
 * and the buffer's split over the VCs in use (§3.2: 32 flits a port, split among them), and the
 * ports masked out of every choice: a channel declared faulty, found miswired or missing, or
 * leading to a dead router (§3.6).
 *
 * Its proof (verifyFlatImage): each router's registers read back against the design (shape,
 * coordinates, every map entry the port the design cables to that peer, or masked); the VCs the
 * algorithm needs within the chip's; the channel dependencies of every route the algorithm may
 * take acyclic (flat-dependencies.ts); the longest route within its bound — n′ hops minimal, 2n′
 * for VAL and UGAL, and for CLOS AD those of the folded Clos the fabric flattens (n levels: 2n′);
 * and every live pair reachable. Where a channel is masked, minimal dimension-order routing leaves
 * the pairs whose one route crosses it unreachable, said by name; the adaptive and non-minimal
 * algorithms' choices around a masked channel are not proven yet, and a configuration that would
 * need them is refused, saying so.
 */
import * as model from '@weft/fabric-model';
import type { FabricDesign, FlatAllocator, FlatGrid, FlatRouting } from '@weft/fabric-model';
import type { KnownFabric } from '../discovery/known-fabric';
import type { FaultSet } from '../faults/fault-set';
import { FlatDependencyReport, flatDependencies, flatDependencyRules, flatVcAssignment } from './flat-dependencies';

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
  readonly vcMap: readonly number[];
  readonly bufferSplit: readonly number[];
  readonly portMask: readonly number[];
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
  /** Live routers a route cannot join under the algorithm and masks: source → destinations. */
  readonly cut: readonly { readonly source: string; readonly destinations: readonly string[] }[];
}

/** The registers a router image writes, in the datasheet's order (each checks itself against the ones before). */
export function flatWriteList(r: FlatRouterImage): { register: string; index: number; value: readonly number[] }[] {
  return [
    { register: 'gridShape', index: 0, value: r.gridShape },
    { register: 'coordinates', index: 0, value: r.coordinates },
    { register: 'portMap', index: 0, value: r.portMap },
    { register: 'vcMap', index: 0, value: r.vcMap },
    { register: 'bufferSplit', index: 0, value: r.bufferSplit },
    { register: 'portMask', index: 0, value: r.portMask },
    { register: 'routingMode', index: 0, value: r.routingMode },
  ];
}

/** The design's grid: k and the routers along each dimension. */
export function designGrid(design: FabricDesign): FlatGrid {
  return { k: Number(design.summary.k), sizes: String(design.summary.sizes).split('×').map(Number) };
}

/** Router i's index in the grid, from its coordinates. */
function gridIndex(grid: FlatGrid, coordinates: readonly number[]): number {
  let index = 0;
  for (let d = grid.sizes.length - 1; d >= 0; d--) index = index * grid.sizes[d] + coordinates[d];
  return index;
}

export function computeFlatImage(known: KnownFabric, faults: FaultSet, settings: FlatRoutingSettings): FlatImage {
  const design = known.design;
  const grid = designGrid(design);
  const dims = grid.sizes.length;
  const allocator = settings.allocator ?? model.flatAllocatorOf(settings.routing);
  const vcMap = flatVcAssignment(settings.routing, dims, model.FLAT_VCS);
  const inUse = Math.max(...vcMap) + 1;
  const perVc = Math.floor(model.FLAT_BUFFER_FLITS_PER_PORT / inUse);
  const bufferSplit = Array.from({ length: model.FLAT_VCS }, (_, v) => (v < inUse ? perVc : 0));
  // What discovery found: the far end of each live cable end, by design names.
  const found = new Map<string, string>();
  for (const c of known.matched.cables) {
    if (c.lanes === 0) continue;
    found.set(`${c.a.chip}:${c.a.port}`, `${c.b.chip}:${c.b.port}`);
    found.set(`${c.b.chip}:${c.b.port}`, `${c.a.chip}:${c.a.port}`);
  }
  const answered = new Set(known.matched.names.values());
  const dead = new Set(design.chips.filter((c) => faults.routers.has(c.name) || !answered.has(c.name)).map((c) => c.name));
  const designed = new Map<string, string>();
  for (const c of design.cables) {
    designed.set(`${c.a.chip}:${c.a.port}`, `${c.b.chip}:${c.b.port}`);
    designed.set(`${c.b.chip}:${c.b.port}`, `${c.a.chip}:${c.a.port}`);
  }
  // A designed cable is used where discovery found it as designed, neither end is faulty and both routers live.
  const masked = new Set<string>();
  const maskedCables: string[] = [];
  for (const c of design.cables) {
    const a = `${c.a.chip}:${c.a.port}`;
    const b = `${c.b.chip}:${c.b.port}`;
    const why =
      dead.has(c.a.chip) || dead.has(c.b.chip)
        ? 'a dead router'
        : faults.has(c.a) || faults.has(c.b)
          ? 'declared faulty'
          : found.get(a) !== b
            ? 'not found as designed'
            : null;
    if (!why) continue;
    masked.add(a);
    masked.add(b);
    maskedCables.push(`${a}–${b} (${why})`);
  }
  const routers: FlatRouterImage[] = [];
  for (const chip of design.chips) {
    if (dead.has(chip.name)) continue;
    const coordinates = [...(chip.coordinates ?? [])];
    const portMap: number[] = [];
    for (let d = 0; d < dims; d++)
      for (let m = 0; m < grid.sizes[d]; m++) portMap.push(m === coordinates[d] ? -1 : model.flatPeerPort(grid, d + 1, coordinates[d], m));
    const portMask = Array.from({ length: chip.portCount }, (_, p) => (masked.has(`${chip.name}:${p}`) ? 1 : 0));
    routers.push({
      name: chip.name,
      route: coordinates,
      gridShape: [grid.k, ...grid.sizes],
      coordinates,
      portMap,
      vcMap,
      bufferSplit,
      portMask,
      routingMode: [model.FLAT_ROUTINGS.indexOf(settings.routing), allocator === 'sequential' ? 1 : 0],
    });
  }
  return {
    family: 'flattened-butterfly',
    grid,
    routing: settings.routing,
    allocator,
    routers,
    deadRouters: [...dead],
    masked: maskedCables,
    cut: cutPairs(grid, routers, settings.routing),
  };
}

/** Under minimal dimension-order routing, the live pairs whose one route crosses a masked port; none without masks. */
function cutPairs(grid: FlatGrid, routers: readonly FlatRouterImage[], routing: FlatRouting): FlatImage['cut'] {
  if (routing !== 'min' || routers.every((r) => r.portMask.every((m) => m === 0))) return [];
  const byIndex = new Map(routers.map((r) => [gridIndex(grid, r.coordinates), r]));
  const cut: { source: string; destinations: string[] }[] = [];
  for (const s of routers) {
    const destinations: string[] = [];
    for (const t of routers) {
      if (s === t) continue;
      let at: FlatRouterImage | undefined = s;
      for (let d = 0; d < grid.sizes.length && at; d++) {
        const want = t.coordinates[d];
        if (at.coordinates[d] === want) continue;
        const port = at.portMap[grid.sizes.slice(0, d).reduce((a, b) => a + b, 0) + want];
        if (at.portMask[port]) {
          at = undefined;
          break;
        }
        const next: number[] = [...at.coordinates];
        next[d] = want;
        at = byIndex.get(gridIndex(grid, next));
      }
      if (!at) destinations.push(t.name);
    }
    if (destinations.length > 0) cut.push({ source: s.name, destinations });
  }
  return cut;
}

export interface FlatVerdict {
  readonly problems: readonly string[];
  readonly dependencies: FlatDependencyReport;
  /** The longest route the algorithm may take, in hops between routers, and its bound. */
  readonly maxHops: number;
  readonly hopBound: number;
  readonly vcsNeeded: number;
}

/** The proof of an image against its design (see the file's comment). */
export function verifyFlatImage(design: FabricDesign, image: FlatImage): FlatVerdict {
  const problems: string[] = [];
  const grid = designGrid(design);
  const dims = grid.sizes.length;
  const chips = new Map(design.chips.map((c) => [c.name, c]));
  const peerOf = new Map<string, string>();
  for (const c of design.cables) {
    peerOf.set(`${c.a.chip}:${c.a.port}`, c.b.chip);
    peerOf.set(`${c.b.chip}:${c.b.port}`, c.a.chip);
  }
  const nameAt = new Map(design.chips.map((c) => [(c.coordinates ?? []).join('.'), c.name]));
  for (const r of image.routers) {
    const chip = chips.get(r.name);
    if (!chip) {
      problems.push(`${r.name}: no such router in the design`);
      continue;
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
      }
      base += grid.sizes[d];
    }
    if (r.vcMap.some((v) => v >= model.FLAT_VCS)) problems.push(`${r.name}: the VC map names a VC beyond the router's ${model.FLAT_VCS}`);
    if (r.bufferSplit.reduce((a, b) => a + b, 0) > model.FLAT_BUFFER_FLITS_PER_PORT)
      problems.push(`${r.name}: the buffer split exceeds ${model.FLAT_BUFFER_FLITS_PER_PORT} flits`);
    if (r.vcMap.some((v) => r.bufferSplit[v] === 0)) problems.push(`${r.name}: a VC in use has no buffer`);
  }
  const vcsNeeded = model.flatVcsNeeded(image.routing, dims);
  const vcMap = image.routers[0]?.vcMap ?? flatVcAssignment(image.routing, dims, model.FLAT_VCS);
  if (new Set(vcMap).size < vcsNeeded)
    problems.push(`${image.routing} needs ${vcsNeeded} VCs on ${dims} dimension${dims > 1 ? 's' : ''}; its VC map gives ${new Set(vcMap).size}`);
  const dependencies = flatDependencies(grid, image.routing, vcMap);
  if (!dependencies.acyclic) problems.push(`the channel dependencies close a cycle: ${dependencies.cycle!.join(' → ')}`);
  const maxHops = dependencies.acyclic ? longestRoute(dims, image.routing, vcMap) : 0;
  const hopBound = image.routing === 'min' || image.routing === 'min-ad' ? dims : 2 * dims;
  if (maxHops > hopBound) problems.push(`a ${image.routing} route may take ${maxHops} hops between routers, beyond its bound of ${hopBound}`);
  const anyMask = image.routers.some((r) => r.portMask.some((m) => m === 1));
  if (anyMask && image.routing !== 'min')
    problems.push(
      `${image.routing} around masked channels (${image.masked.slice(0, 3).join('; ')}${image.masked.length > 3 ? '; …' : ''}) is not proven yet: only minimal dimension-order routing is, its cut pairs said`,
    );
  return { problems, dependencies, maxHops, hopBound, vcsNeeded };
}

/** The most hops a route of the algorithm takes: the longest path through its dependency rules, plus one. */
function longestRoute(dims: number, routing: FlatRouting, vcMap: readonly number[]): number {
  const rules = flatDependencyRules(routing, dims, vcMap);
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
