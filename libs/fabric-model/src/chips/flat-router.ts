/**
 * The flattened butterfly's router as weft emulates it for the paper's studies (paper 003 §3.2;
 * spec §3.2(a)): an input-queued virtual-channel router of any radix with single-cycle switching,
 * enough internal speedup that only its output channels (one flit a cycle each) and its input
 * buffers limit it, and credit-based estimates of the queues beyond each output. The paper gives
 * it no name or register map; these are weft's, marked so.
 */

/** The model name a flattened butterfly's routers carry in a design. */
export const FLAT_ROUTER_MODEL = 'FB-router';

/** §3.2: "total buffering per port is 32 flit entries", divided among the VCs (Fig. 12(b) holds 64 a physical channel). */
export const FLAT_BUFFER_FLITS_PER_PORT = 32;

/** The largest router weft builds: Table 4's 64-ary 2-flat needs radix 127. */
export const FLAT_MAX_RADIX = 128;

/** The largest network: §4.2's 16-ary 4-flat, 65,536 terminals. */
export const FLAT_MAX_TERMINALS = 65_536;

/** YARC's SerDes, which §4's cost model assumes (Table 3: the values of Cray BlackWidow): three differential pairs a port, 6.25 Gb/s. */
export const FLAT_LANES = 3;
export const FLAT_LANE_GBPS = 6.25;

/**
 * The routing modes a router runs (§3.1), the allocator each is evaluated with, and the VCs each
 * needs (Table 1): weft's mode register takes one of these.
 */
export type FlatRouting = 'min' | 'min-ad' | 'val' | 'ugal' | 'ugal-s' | 'clos-ad';
export const FLAT_ROUTINGS: readonly FlatRouting[] = ['min', 'min-ad', 'val', 'ugal', 'ugal-s', 'clos-ad'];
export type FlatAllocator = 'greedy' | 'sequential';

/** The allocator each algorithm is evaluated with in §3.1. */
export function flatAllocatorOf(routing: FlatRouting): FlatAllocator {
  return routing === 'ugal-s' || routing === 'clos-ad' ? 'sequential' : 'greedy';
}

/**
 * VCs an algorithm needs on n′ dimensions (§3.1; Table 1) — and, where masked channels are taken
 * round by detours (spec §3.6), the VC indexes a detour adds: minimal routing's index rises by one
 * for the rest of the route (n′ + 1), each phase of the two-phase ones gets a second index for the
 * hops after its detour (4: phase 0, phase 1, phase 0 detoured, phase 1 detoured).
 */
export function flatVcsNeeded(routing: FlatRouting, dimensions: number, detours = false): number {
  if (routing === 'min' || routing === 'min-ad') return dimensions + (detours ? 1 : 0);
  return detours ? 4 : 2;
}

/** What a router's identity register says it is (read by discovery over the service network). */
export const MODEL_FLAT_ROUTER = 5;

/**
 * A router's registers as the control plane addresses them over the service network (the paper
 * defines none; spec §3.4's design, after YARC's) — a router is reached by its coordinates:
 * - `routerIdentity` [model, serial] and `channelStates` ports × [up, far serial, far port] as link
 *   training found them: read only;
 * - `gridShape` [k, size of dimension 1, …, size of dimension n′] and `coordinates` [c1 … cn′];
 * - `portMap`: for each dimension and each coordinate of it (dimension 1's first), the port towards
 *   that coordinate, -1 at the router's own;
 * - `redundantMap`: laid out as the port map, a second port to the same router where a spare port
 *   doubles the channel (Fig. 14(a)), -1 for none — the router takes the less loaded of the two,
 *   and the other where one is masked;
 * - `vcMap`: the VC of each index §3.1's assignment gives a hop (flatVcsNeeded of them);
 * - `bufferSplit`: per VC, the flits of the port's 32 it has (§3.2: split among the VCs in use);
 * - `portMask`: per port, 1 where the port is out of every candidate set (a dead channel, §3.6);
 * - `detourVia`: laid out as the port map, the coordinate a hop whose channel is masked detours
 *   through (another router of the same dimension, §3.6), -1 for none;
 * - `excludedIntermediates`: router numbers never taken as an intermediate (dead routers, §3.6);
 * - `routingMode` [mode (index in FLAT_ROUTINGS), allocator (0 greedy, 1 sequential)], written
 *   last: the router routes from then on.
 * Written in this order (each checks itself against the ones before).
 */
export const FLAT_CONFIGURATION_REGISTERS = [
  'gridShape',
  'coordinates',
  'portMap',
  'redundantMap',
  'vcMap',
  'bufferSplit',
  'portMask',
  'detourVia',
  'excludedIntermediates',
  'routingMode',
] as const;
/** Every register: the two read-only ones, then those a configuration writes. */
export const FLAT_REGISTERS = ['routerIdentity', 'channelStates', ...FLAT_CONFIGURATION_REGISTERS] as const;
export type FlatRegister = (typeof FLAT_REGISTERS)[number];

/** VCs a router port has (weft's chip: the paper's algorithms need 2, MIN AD n′). */
export const FLAT_VCS = 4;

/** VCs a router port has at most (Table 1's 2, MIN AD's n′ up to 11 on Table 4's 2-ary 12-flat, and some to spare). */
export const FLAT_MAX_VCS = 16;
