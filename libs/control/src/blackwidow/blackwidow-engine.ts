/**
 * The BlackWidow routing engine (paper 000 §5, §7.4, §7.8.2): from the discovered and matched
 * fabric, the routing registers of every tile of every YARC — root detect, down route and the
 * logical→physical port map, the 8-entry up/side table, the hash-bit window of its rank — and the
 * direction of every port (for the downward invariant of §7.7). Pure: topology in, image out.
 */
import type { ChipSpec, FabricDesign } from '@weft/fabric-model';
import type { SourceRoute } from '../maintenance-transport';
import type { DiscoveryResult } from '../discovery/discovery-sweep';
import type { MatchedFabric } from '../discovery/match-design';

import * as yarc from '@weft/fabric-model/chips/yarc';

// The datasheet's figures the engine programs by, as plain values (a re-export would make each a
// getter, called in the verifier's innermost loops).
export const PORT_DOWNLINK = yarc.PORT_DOWNLINK;
export const PORT_UPLINK = yarc.PORT_UPLINK;
export const PORT_SIDELINK = yarc.PORT_SIDELINK;
export const PORT_UNUSED = yarc.PORT_UNUSED;
export const TABLE_ENTRIES = yarc.TABLE_ENTRIES;
export const isLegalModulus = yarc.isLegalModulus;
const LOCATION_MASK = yarc.LOCATION_MASK;

export interface TableEntry {
  readonly location: number;
  readonly mask: number;
  readonly ports: readonly number[];
}

/** Registers shared by every tile of one virtual router. */
export interface VirtualRouterConfig {
  readonly tiles: readonly number[];
  /** Processors below this virtual router: [first, last]. */
  readonly subtree: readonly [number, number];
  readonly rootDetect: readonly [location: number, mask: number];
  readonly downRoute: readonly [shift: number, mask: number];
  /** logical port → physical port (-1: unused). */
  readonly portMap: readonly number[];
  readonly table: readonly TableEntry[];
  readonly hashSelect: number;
}

/** Link-layer settings of one YARC (paper 000 §4.3, §4.4, §7.7). */
export interface LinkSettings {
  /** Retries a lane may take before the LCB decommissions it. */
  readonly laneRetryThreshold: number;
  /** Cycles without progress before a port's sender interrupts and discards, between routers. */
  readonly forwardProgressTimer: number;
  /** The same on ports facing a processor: shorter, so that a processor that stops accepting is
   * cut loose before the back-pressure behind it trips the timers of the routers upstream (the
   * same idea as OpenSM's leaf head-of-queue lifetime). */
  readonly leafForwardProgressTimer: number;
  /** Longest packet the LCBs accept, in phits (19: a cache-line write). */
  readonly maxPacketLength: number;
  /** Gb/s per octant: the slowest cable among the octant's eight ports (§7.2 reverse taper). */
  readonly octantRates: readonly number[];
}

export interface LinkSettingsPolicy {
  readonly laneRetryThreshold: number;
  readonly forwardProgressTimeoutNs: number;
  /** On processor-facing ports; defaults to a quarter of `forwardProgressTimeoutNs`. */
  readonly leafForwardProgressTimeoutNs?: number;
  readonly maxPacketLength: number;
}

export const DEFAULT_LINK_SETTINGS: LinkSettingsPolicy = {
  laneRetryThreshold: 16,
  forwardProgressTimeoutNs: 100_000,
  leafForwardProgressTimeoutNs: 25_000,
  maxPacketLength: 19,
};

export interface RouterImage {
  readonly name: string;
  readonly serial: number;
  readonly route: SourceRoute;
  /** The network slice it belongs to (paper 000 §7.4: four independent slices). */
  readonly slice: number;
  readonly rank: number;
  readonly portDirection: readonly number[];
  readonly virtualRouters: readonly VirtualRouterConfig[];
  readonly link: LinkSettings;
}

export interface ConfigurationImage {
  readonly family: 'blackwidow';
  readonly routers: RouterImage[];
  /** Why some router could not be configured as the paper prescribes. */
  readonly problems: string[];
}

/** A hash-select register using bits [from, from + 8) of the 15 optional hash bits (§7.8.2:
 * successive ranks hash on different bits). */
export function hashWindow(from: number): number {
  let mask = 0;
  for (let b = 0; b < 8; b++) mask |= 1 << ((from + b) % 15);
  return mask;
}
/** §7.8.2's example, which weft programs: rank 1 hashes bits 0–7, rank 2 bits 5–12, rank 3 bits 10–14 (and 0–2, to make the eight a tile selects). */
export const HASH_WINDOW_BY_RANK: Readonly<Record<number, number>> = { 1: hashWindow(0), 2: hashWindow(5), 3: hashWindow(10) };

/** The chip and port at the far end of a live, usable cable. */
export interface Neighbour {
  readonly chip: ChipSpec;
  readonly port: number;
}

/** Processors below each virtual router, by `${chip}/${virtual router}`. */
export type SubtreeMap = ReadonlyMap<string, readonly [number, number]>;

/** The processors below one virtual router of `chip`: its processors and its children's subtrees. */
export function subtreeBelow(chip: ChipSpec, vr: number, list: readonly (Neighbour | undefined)[], subtree: SubtreeMap): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let p = 0; p < chip.portCount; p++) {
    if (chip.virtualRouterOf[p] !== vr) continue;
    const n = list[p];
    if (!n) continue;
    if (n.chip.kind === 'endpoint') {
      lo = Math.min(lo, n.chip.processor);
      hi = Math.max(hi, n.chip.processor);
    } else if (n.chip.rank < chip.rank) {
      const s = subtree.get(`${n.chip.name}/${n.chip.virtualRouterOf[n.port]}`);
      if (s) {
        lo = Math.min(lo, s[0]);
        hi = Math.max(hi, s[1]);
      }
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/** One router's registers from its live neighbours and the subtrees below every virtual router. */
export function routerImage(
  chip: ChipSpec,
  list: readonly (Neighbour | undefined)[],
  subtree: SubtreeMap,
  problems: string[],
  identity: { serial: number; route: SourceRoute; slice: number; link: LinkSettings },
): RouterImage {
  const portDirection = new Array<number>(chip.portCount).fill(PORT_UNUSED);
  for (let p = 0; p < chip.portCount; p++) {
    const n = list[p];
    if (!n) continue;
    portDirection[p] = n.chip.kind === 'endpoint' || n.chip.rank < chip.rank ? PORT_DOWNLINK : n.chip.rank > chip.rank ? PORT_UPLINK : PORT_SIDELINK;
  }
  const virtualRouters: VirtualRouterConfig[] = [];
  for (const vr of [...new Set(chip.virtualRouterOf)].sort()) {
    const tiles = chip.virtualRouterOf.map((v, p) => (v === vr ? p : -1)).filter((p) => p >= 0);
    const mine = subtree.get(`${chip.name}/${vr}`);
    if (!mine) continue; // nothing below this virtual router: it carries no traffic
    const config = configureVirtualRouter(chip, vr, tiles, mine, list, subtree, problems);
    if (config) virtualRouters.push(config);
  }
  return {
    name: chip.name,
    serial: identity.serial,
    route: identity.route,
    slice: identity.slice,
    rank: chip.rank,
    portDirection,
    virtualRouters,
    link: identity.link,
  };
}

export function computeBlackWidowImage(
  discovered: DiscoveryResult,
  matched: MatchedFabric,
  design: FabricDesign,
  settings: LinkSettingsPolicy = DEFAULT_LINK_SETTINGS,
): ConfigurationImage {
  const octantRateOf = designOctantRates(design);
  const linkSettings = (chip: ChipSpec): LinkSettings => {
    const octantRates = octantRateOf.get(chip.name) ?? [6.25, 6.25, 6.25, 6.25, 6.25, 6.25, 6.25, 6.25];
    return {
      laneRetryThreshold: settings.laneRetryThreshold,
      forwardProgressTimer: Math.round(settings.forwardProgressTimeoutNs / 1.25),
      leafForwardProgressTimer: Math.round((settings.leafForwardProgressTimeoutNs ?? settings.forwardProgressTimeoutNs / 4) / 1.25),
      maxPacketLength: settings.maxPacketLength,
      octantRates,
    };
  };
  const chips = new Map(design.chips.map((c) => [c.name, c]));
  const serialOf = new Map<string, number>();
  for (const [serial, name] of matched.names) serialOf.set(name, serial);
  const found = new Map(discovered.chips.map((c) => [c.serial, c]));
  const problems: string[] = [];

  // Who is at the far end of every live port, by design name (only cables as discovered).
  const neighbours = new Map<string, (Neighbour | undefined)[]>();
  const at = (name: string) => {
    let list = neighbours.get(name);
    if (!list) {
      list = new Array<Neighbour | undefined>(chips.get(name)?.portCount ?? 64);
      neighbours.set(name, list);
    }
    return list;
  };
  for (const cable of matched.cables) {
    if (cable.lanes === 0) continue;
    const a = chips.get(cable.a.chip);
    const b = chips.get(cable.b.chip);
    if (!a || !b) continue;
    at(a.name)[cable.a.port] = { chip: b, port: cable.b.port };
    at(b.name)[cable.b.port] = { chip: a, port: cable.a.port };
  }

  // Processors below each virtual router, computed upwards rank by rank.
  const subtree = new Map<string, [number, number]>(); // `${chip}/${vr}`
  const routers = design.chips.filter((c) => c.kind === 'router' && serialOf.has(c.name)).sort((x, y) => x.rank - y.rank);
  const below = (chip: ChipSpec, vr: number) => subtreeBelow(chip, vr, neighbours.get(chip.name) ?? [], subtree);
  for (const chip of routers) {
    for (const vr of new Set(chip.virtualRouterOf)) {
      const s = below(chip, vr);
      if (s) subtree.set(`${chip.name}/${vr}`, s);
    }
  }

  const images: RouterImage[] = [];
  for (const chip of routers) {
    const serial = serialOf.get(chip.name)!;
    const { route, slice } = found.get(serial)!;
    images.push(routerImage(chip, neighbours.get(chip.name) ?? [], subtree, problems, { serial, route, slice, link: linkSettings(chip) }));
  }
  return { family: 'blackwidow', routers: images, problems };
}

const octantRatesByDesign = new WeakMap<FabricDesign, Map<string, number[]>>();

/** Gb/s of each chip's octants: the slowest designed cable among its eight ports (§7.2 reverse
 * taper; the operator's design knows the lengths). Computed once per design. */
function designOctantRates(design: FabricDesign): Map<string, number[]> {
  let rates = octantRatesByDesign.get(design);
  if (rates) return rates;
  rates = new Map();
  for (const cable of design.cables) {
    for (const end of [cable.a, cable.b]) {
      let octants = rates.get(end.chip);
      if (!octants) {
        octants = [6.25, 6.25, 6.25, 6.25, 6.25, 6.25, 6.25, 6.25];
        rates.set(end.chip, octants);
      }
      const o = end.port >> 3;
      if (cable.rateGbps < octants[o]) octants[o] = cable.rateGbps;
    }
  }
  octantRatesByDesign.set(design, rates);
  return rates;
}

function alignedBlock([lo, hi]: readonly [number, number]): { location: number; mask: number } | null {
  let size = 1;
  while (size < hi - lo + 1) size *= 2;
  const location = lo - (lo % size);
  if (location + size - 1 < hi) {
    size *= 2;
    return alignedBlock([lo - (lo % size), hi]);
  }
  return { location, mask: size - 1 };
}

function configureVirtualRouter(
  chip: ChipSpec,
  vr: number,
  tiles: number[],
  mine: readonly [number, number],
  list: readonly (Neighbour | undefined)[],
  subtree: SubtreeMap,
  problems: string[],
): VirtualRouterConfig | null {
  const block = alignedBlock(mine)!;
  // §5.2: the children are aligned blocks of equal size; the logical port is the child's index.
  const children: { port: number; range: readonly [number, number] }[] = [];
  const uplinks: number[] = [];
  const sidelinks = new Map<string, { range: readonly [number, number]; ports: number[] }>();
  for (const p of tiles) {
    const n = list[p];
    if (!n) continue;
    if (n.chip.kind === 'endpoint') children.push({ port: p, range: [n.chip.processor, n.chip.processor] });
    else if (n.chip.rank < chip.rank) {
      const s = subtree.get(`${n.chip.name}/${n.chip.virtualRouterOf[n.port]}`);
      if (s) children.push({ port: p, range: s });
    } else if (n.chip.rank > chip.rank) uplinks.push(p);
    else {
      const s = subtree.get(`${n.chip.name}/${n.chip.virtualRouterOf[n.port]}`);
      if (!s) continue;
      const key = `${s[0]}-${s[1]}`;
      const entry = sidelinks.get(key) ?? { range: s, ports: [] as number[] };
      entry.ports.push(p);
      sidelinks.set(key, entry);
    }
  }
  let childSize = 1;
  for (const c of children) {
    const b = alignedBlock(c.range)!;
    childSize = Math.max(childSize, b.mask + 1);
  }
  const shift = Math.log2(childSize);
  const slots = (block.mask + 1) / childSize;
  const portMap = new Array<number>(64).fill(-1);
  for (const c of children) {
    const logical = ((c.range[0] - block.location) / childSize) | 0;
    if (portMap[logical] !== -1) {
      problems.push(`${chip.name}: two cables lead to processors ${c.range[0]}–${c.range[1]}; kept the first`);
      continue;
    }
    portMap[logical] = c.port;
  }
  const table: TableEntry[] = [];
  for (const { range, ports } of [...sidelinks.values()].sort((x, y) => x.range[0] - y.range[0])) {
    const b = alignedBlock(range)!;
    table.push({ location: b.location, mask: b.mask, ports: legalSubset(ports, chip.name, problems) });
  }
  if (uplinks.length > 0) table.unshift({ location: 0, mask: LOCATION_MASK, ports: legalSubset(uplinks, chip.name, problems) });
  if (table.length > TABLE_ENTRIES) {
    problems.push(`${chip.name} virtual router ${vr} needs ${table.length} table entries; the table has ${TABLE_ENTRIES}`);
    return null;
  }
  return {
    tiles,
    subtree: mine,
    rootDetect: [block.location, block.mask],
    downRoute: [shift, slots - 1],
    portMap,
    table,
    hashSelect: HASH_WINDOW_BY_RANK[chip.rank] ?? hashWindow(0),
  };
}

/** §7.8.2: deterministic routing needs a port count the hardware can take a modulo of; keep the
 * largest legal subset and report the diversity lost. */
function legalSubset(ports: number[], chip: string, problems: string[]): number[] {
  if (isLegalModulus(ports.length)) return ports;
  let n = ports.length;
  while (n > 0 && !isLegalModulus(n)) n--;
  problems.push(`${chip}: ${ports.length} usable ports is not a legal modulus; using ${n}`);
  return ports.slice(0, n);
}
