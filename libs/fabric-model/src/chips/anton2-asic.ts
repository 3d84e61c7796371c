/**
 * The Anton 2 ASIC datasheet as the network sees it (paper 004 §2; ../shared/specs/wave2-families.md
 * §2.2): a 4×4 on-chip mesh of routers that is also the inter-node switch, with 23 endpoint
 * adapters and 12 torus channel adapters. Read by the floorplan (anton2/anton2-floorplan.ts), the
 * design generator, and — as they arrive — the emulator's chip model and the control plane.
 * Figures the paper leaves open are weft's choices, marked so and named.
 */

/** §4: the on-chip network runs at 1.5 GHz; a mesh channel is 192 bits a direction, one 24-byte flit per cycle (288 Gb/s). */
export const ANTON2_CLOCK_GHZ = 1.5;
export const ANTON2_NS_PER_CYCLE = 1 / ANTON2_CLOCK_GHZ;
export const ANTON2_FLIT_BYTES = 24;

/** §2.2, Fig. 1: a 4×4 mesh of 6-port routers in dimensions U and V. */
export const ANTON2_MESH_U = 4;
export const ANTON2_MESH_V = 4;
export const ANTON2_ROUTER_PORTS = 6;

/** §2.2, Table 1: 23 endpoint adapters and 12 channel adapters (two torus slices × six directions). */
export const ANTON2_ENDPOINT_ADAPTERS = 23;
export const ANTON2_CHANNEL_ADAPTERS = 12;
export const ANTON2_SLICES = 2;

/** §2.2: eight 14 Gb/s SerDes a channel, 112 Gb/s raw and 89.6 Gb/s effective a direction after framing, error checking and go-back-N. */
export const ANTON2_SERDES_GBPS = 14;
export const ANTON2_SERDES_PER_CHANNEL = 8;
export const ANTON2_CHANNEL_RAW_GBPS = ANTON2_SERDES_GBPS * ANTON2_SERDES_PER_CHANNEL;
export const ANTON2_CHANNEL_EFFECTIVE_GBPS = 89.6;

/** §2.1: a typical packet is 16 bytes of payload and 8 of header (one flit); the largest twice that (two flits). */
export const ANTON2_MAX_PACKET_FLITS = 2;

/** §2.5: request and reply classes, four VCs each in routers and channel adapters (n + 1 for a 3-D torus); one per class in endpoint adapters. */
export const ANTON2_TRAFFIC_CLASSES = 2;
export const ANTON2_VCS_PER_CLASS = 4;

/** §1: from 4×4×1 = 16 ASICs up to 16×16×16 = 4,096. */
export const ANTON2_MAX_RING = 16;
export const ANTON2_MAX_ASICS = 4096;

/** §2.2, Fig. 2: one ASIC per nodecard, 16 nodecards a backplane in a 4×4×1 array; channels within a backplane are traces, every other one a cable. */
export const ANTON2_BACKPLANE_SHAPE: readonly [number, number, number] = [4, 4, 1];

/**
 * The torus channel adapters as ports of the ASIC, in weft's order (the paper numbers none): for
 * each dimension x, y, z, its + then its − direction, slice 0 then slice 1 — port 4d + 2·dir + s.
 * A channel is named, as §2.2 does, by the direction of packets leaving the ASIC on it.
 */
export function anton2ChannelPort(d: number, minus: boolean, slice: number): number {
  return 4 * d + 2 * (minus ? 1 : 0) + slice;
}

/** The channel adapter's name, `X0+` … `Z1-` (dimension, slice, direction). */
export function anton2ChannelName(port: number): string {
  const d = port >> 2;
  return `${'XYZ'[d]}${port & 1}${port & 2 ? '-' : '+'}`;
}

/** What an ASIC's identity register says it is (read by discovery over the control network). */
export const MODEL_ANTON2_ASIC = 4;

/**
 * An ASIC's registers as the control plane addresses them over the control network. The paper
 * names none (Table 2 has a "Configuration" block, 8.6% of the network's area; spec §2.3): these
 * are weft's, one per thing the fabric manager must set —
 * - `asicIdentity` [model, serial], `channelStates` 12 × [up, far serial, far port] as link training
 *   found them, `linkErrors` 12 retransmission counts: read only;
 * - `nodeCoordinates` [x, y, z] and `torusSize` [kX, kY, kZ] (§2.3: routes are computed in hardware
 *   from them), `datelines` [+x, +y, +z, −x, −y, −z], each the coordinate after which that dateline
 *   lies (§2.5);
 * - `routePolicy`: the destinations whose packets may not draw every (order × 2 + slice)
 *   combination, as [destination, mask] pairs — the destination's place x + kX·(y + kY·z) by the
 *   node's own size register, ascending, and a 12-bit mask of the combinations allowed, below
 *   0xfff; a destination not listed allows all 12, and an empty register every destination all 12
 *   (issue 55: a fault rewrites the destinations it touches, not a word per node of the machine);
 * - `arbiterWeights`: every SA2 arbiter's inverse weights, (router × 6 + output) × 12 + input × 2 +
 *   pattern, each below 2^M; `arbiterModes`: per router output, 0 inverse-weighted, 1 round robin;
 * - `vcWeights`, `vcModes`: the same for SA1, each input's choice among its 8 VCs (input × 16 + VC ×
 *   2 + pattern; round robin unless set);
 * - `multicastTable`: the whole table, entry after entry as [key (group × 2 + tree), endpoint
 *   count, endpoints…, channel count, channels…].
 */
/** A route-policy mask allowing every (order, slice) combination. */
export const ANTON2_ALL_ROUTES = 0xfff;

/** The `routePolicy` register's words for a table of masks by destination place (null: no restriction). */
export function anton2RoutePolicyWords(table: ArrayLike<number> | null): number[] {
  const words: number[] = [];
  if (table) for (let t = 0; t < table.length; t++) if (table[t] !== ANTON2_ALL_ROUTES) words.push(t, table[t]);
  return words;
}

/** What is wrong with `routePolicy` words for a machine of `places` nodes, or null. */
export function anton2RoutePolicyProblem(words: readonly number[], places: number): string | null {
  if (words.length % 2 !== 0) return `[destination, mask] pairs, got ${words.length} words`;
  for (let i = 0; i < words.length; i += 2) {
    const [t, mask] = [words[i], words[i + 1]];
    if (!Number.isInteger(t) || t < 0 || t >= places)
      return `pair ${i / 2}: destination ${t} is not one of the ${places} places this ASIC's torus-size register counts`;
    if (i > 0 && t <= words[i - 2]) return `pair ${i / 2}: destinations must ascend, ${t} follows ${words[i - 2]}`;
    if (!Number.isInteger(mask) || mask < 0 || mask >= ANTON2_ALL_ROUTES)
      return `pair ${i / 2}: a mask below 0xfff (all 12 is said by leaving the destination out), got ${mask}`;
  }
  return null;
}

/** The masks by destination place that `routePolicy` words say (null: every destination all 12). */
export function anton2RoutePolicyTable(words: readonly number[], places: number): Uint16Array | null {
  if (words.length === 0) return null;
  const table = new Uint16Array(places).fill(ANTON2_ALL_ROUTES);
  for (let i = 0; i < words.length; i += 2) table[words[i]] = words[i + 1];
  return table;
}

/** The mask `routePolicy` words give destination place `t` (words ascending: a binary search). */
export function anton2RouteMask(words: readonly number[], t: number): number {
  let lo = 0;
  let hi = words.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = words[2 * mid];
    if (at === t) return words[2 * mid + 1];
    if (at < t) lo = mid + 1;
    else hi = mid - 1;
  }
  return ANTON2_ALL_ROUTES;
}

/** Multicast table entries an ASIC holds (not in the paper — "several hundred distinct destination sets per node", §2.3 — weft: 512). */
export const ANTON2_MULTICAST_ENTRIES = 512;

export const ANTON2_REGISTERS = [
  'asicIdentity',
  'channelStates',
  'linkErrors',
  'nodeCoordinates',
  'torusSize',
  'datelines',
  'routePolicy',
  'arbiterWeights',
  'arbiterModes',
  'vcWeights',
  'vcModes',
  'multicastTable',
] as const;
export type Anton2Register = (typeof ANTON2_REGISTERS)[number];
