/**
 * The BlueGene/L torus node datasheet (paper 002 §2; ../shared/specs/wave2-families.md §1.2): the
 * node as its manual describes it, read by the emulator, which models the node from it, and by the
 * control plane, which programs the node by it. Figures the paper leaves open are weft's choices,
 * each marked so and named, so that they can be changed in one place.
 */

/** §2: the torus is clocked at a quarter of the 700 MHz processor clock; a link moves one byte per
 * network cycle (175 MB/s), and §3 counts time in those byte cycles: one is 1/175 MHz. */
export const BGL_PROCESSOR_CLOCK_MHZ = 700;
export const BGL_LINK_BYTES_PER_CYCLE = 1;
export const BGL_NS_PER_CYCLE = 1000 / (BGL_PROCESSOR_CLOCK_MHZ / 4);

/** §2: six bit-serial links, x+, x−, y+, y−, z+, z− (the hint-bit order). */
export const BGL_LINKS = 6;

/** §2: packets of 32 to 256 bytes in 32-byte chunks; an 8-byte header; a 24-bit CRC and a
 * one-byte valid indicator appended (§4: "4 byte CRC trailers"). */
export const BGL_CHUNK_BYTES = 32;
export const BGL_MAX_PACKET_CHUNKS = 8;
export const BGL_HEADER_BYTES = 8;
export const BGL_TRAILER_BYTES = 4;
/** §2: eight-byte ack-only and token-ack packets on the reverse link. */
export const BGL_ACK_BYTES = 8;

/** §2: four VCs per receiver — two dynamic, the bubble escape (also static routes), the
 * high-priority bubble — of 1 KB each, which is 32 tokens of one 32-byte chunk. */
export const BGL_VCS = 4;
export const BGL_VC_DYNAMIC_0 = 0;
export const BGL_VC_DYNAMIC_1 = 1;
export const BGL_VC_BUBBLE = 2;
export const BGL_VC_PRIORITY = 3;
export const BGL_VC_BYTES = 1024;
/** §2: a VC is available to arbitration only with tokens for a full-sized packet; entering the
 * bubble takes two full-sized packets' worth, advancing on it one. */
export const BGL_AVAILABLE_TOKENS = BGL_MAX_PACKET_CHUNKS;
export const BGL_BUBBLE_ENTRY_TOKENS = 2 * BGL_MAX_PACKET_CHUNKS;

/** §2: eight injection FIFOs (two high priority, six normal); seven reception FIFOs per group (one
 * high priority, one per incoming direction). */
export const BGL_INJECTION_FIFOS_PRIORITY = 2;
export const BGL_INJECTION_FIFOS_NORMAL = 6;
export const BGL_RECEPTION_FIFOS = 7;

/** What a node's identity register says it is (read by discovery over the control network). */
export const MODEL_BGL_NODE = 3;

/**
 * §1.1 packaging, by which the control network (JTAG, §1) reaches a node: 2 compute ASICs per
 * compute card, 16 compute cards per node card, 16 node cards per 512-node midplane. A node's
 * control-network address is the route midplane, node card, compute card, ASIC.
 */
export const BGL_ASICS_PER_CARD = 2;
export const BGL_CARDS_PER_NODE_CARD = 16;
export const BGL_NODE_CARDS_PER_MIDPLANE = 16;
export const BGL_NODES_PER_MIDPLANE = BGL_ASICS_PER_CARD * BGL_CARDS_PER_NODE_CARD * BGL_NODE_CARDS_PER_MIDPLANE;
/** §3: a midplane is an 8×8×8 block of the torus. */
export const BGL_MIDPLANE_SHAPE: readonly [number, number, number] = [8, 8, 8];

/**
 * The hardware hint registers (§2: "a set of two registers per dimension is used to determine the
 * appropriate directions"). The paper does not give their meaning; weft's (a documented choice,
 * spec §1.2.8): `hintCutoffPlus[d]` is the last coordinate a packet goes to in d+, and
 * `hintCutoffMinus[d]` the first it goes to in d−. From source coordinate s to destination t in a
 * ring of k: no hint when t = s; d+ when t lies on the arc s+1 … cutoffPlus; d− when it lies on the
 * arc cutoffMinus … s−1; and no hint at all otherwise — a register pair that leaves a gap sends
 * packets for the gap nowhere, which is what the verifier looks for.
 */
export function hardwareHintSign(s: number, t: number, cutoffPlus: number, cutoffMinus: number, k: number): number {
  if (t === s) return 0;
  const ahead = (t - s + k) % k;
  if (ahead <= (cutoffPlus - s + k) % k && (cutoffPlus - s + k) % k !== 0) return 1;
  const behind = (s - t + k) % k;
  if (behind <= (s - cutoffMinus + k) % k && (s - cutoffMinus + k) % k !== 0) return -1;
  return 0;
}

/**
 * The hint registers that make the hardware's hints minimal from coordinate `s` of a ring of `k`
 * (the semantics above): offsets 1…plus ahead go d+, 1…minus behind go d−, plus + minus = k − 1,
 * with the offset k/2 of an even ring on the side `tieGoesPlus` says. Returns [cutoffPlus, cutoffMinus].
 */
export function minimalHintCutoffs(s: number, k: number, tieGoesPlus: boolean): [number, number] {
  let plus = (k - 1) >> 1;
  if (k % 2 === 0 && tieGoesPlus) plus++;
  const minus = k - 1 - plus;
  return [(s + plus) % k, (s - minus + k) % k];
}

/** The hint bits (x+ the most significant of six, §2's "100100") for one direction per dimension. */
export function hintBits(signs: readonly number[]): number {
  let bits = 0;
  for (let d = 0; d < 3; d++) if (signs[d] !== 0) bits |= 1 << (5 - (2 * d + (signs[d] > 0 ? 0 : 1)));
  return bits;
}

/**
 * The registers of a node as the control plane addresses them over the control network.
 * - `nodeIdentity`: [model, serial] (read only).
 * - `torusCoordinates`: [x, y, z], the node's place in the torus (the personality, §1).
 * - `torusShape`: [kx, ky, kz].
 * - `linkState[direction]`: [state, partner serial, partner's direction] as link training found it
 *   (state 1 up, 0 down), read only; `linkStates`: the six at once (18 words), for a sweep.
 * - `linkErrors`: per link, the packets it has had to send again after a CRC failure (§2), read only.
 * - `neighbourCoordinates[direction]`: [x, y, z] of the neighbour that way (§2: hints clear by them).
 * - `hintCutoffPlus[d]`, `hintCutoffMinus[d]`: [coordinate], see hardwareHintSign.
 * - `arbitration`: [slqPermille, inNetworkPriorityPermille, packetArbitration (0 JSQ, 1 random)].
 * - `bubble`: [accounting (0 full-size, 1 by-size), escapeOrder (0 dimension, 1 direction)].
 * - `routeOverrides`: the node software's route-override table (route-override-table.ts); where it
 *   holds entries the software routes by it.
 * - `faultSet`: the fault set the node's software routes around where its table holds no entries
 *   (fault-set-register.ts), written to every node at once by a write to BGL_BROADCAST_ROUTE.
 * - `routingRegisters`: the neighbour coordinates (18 words, x+ first) and the hint cutoffs (plus
 *   x, y, z, then minus x, y, z) as one block — a JTAG scan writes a node's block at once;
 *   `policyRegisters`: arbitration (3 words) then bubble (2) as one block.
 * (§4's dateline pair of escape VCs is a study the emulated node does not model yet: no register.)
 */
export const BGL_REGISTERS = [
  'nodeIdentity',
  'torusCoordinates',
  'torusShape',
  'linkState',
  'linkStates',
  'linkErrors',
  'neighbourCoordinates',
  'hintCutoffPlus',
  'hintCutoffMinus',
  'arbitration',
  'bubble',
  'routeOverrides',
  'faultSet',
  'routingRegisters',
  'policyRegisters',
] as const;
export type BglRegister = (typeof BGL_REGISTERS)[number];

/**
 * The control network's broadcast address: a write to it reaches every live node at once (BG/L's
 * tree network, §1, "a collective network"; the emulator carries it over the control network).
 * Only `faultSet` is written so.
 */
export const BGL_BROADCAST_ROUTE: readonly number[] = [];
