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

/** VCs an algorithm needs on n′ dimensions (§3.1; Table 1). */
export function flatVcsNeeded(routing: FlatRouting, dimensions: number): number {
  return routing === 'min' || routing === 'min-ad' ? dimensions : 2;
}
