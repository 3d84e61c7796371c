/**
 * The YARC routing function (paper 000 §5, §7.7, §7.8), evaluated at the head of an input queue.
 * It reads only the tile's registers and the packet header, and writes its decision into the
 * caller-owned `RouteDecision` (STYLE.md: no new arrays per decision).
 */
import { TABLE_MATCH, TABLE_PORTS_HI, TABLE_PORTS_LO, TABLE_SHIFT, TABLE_VALID, YarcRegisterFile } from './yarc-registers';
import * as yarc from '@weft/fabric-model/chips/yarc';
import { LOCATION_MASK, PORTS, PORT_DOWNLINK, PORT_SIDELINK, PORT_UPLINK, TABLE_ENTRIES, isLegalModulus } from './yarc-constants';

export const ROUTE_PORT = 0; // deterministic: leave on `port`
export const ROUTE_ADAPTIVE = 1; // adaptive: choose among `portsLo/portsHi`
export const ROUTE_NO_MATCH = 2; // no table entry covers the destination
export const ROUTE_ILLEGAL_MODULUS = 3; // the matching entry's port count cannot be hashed over
export const ROUTE_DOWNWARD_VIOLATION = 4; // arrived going down but the route goes up (§7.7)
export const ROUTE_DOWN_UNMAPPED = 5; // down route leads to a port that is not a downlink

export class RouteDecision {
  kind = ROUTE_PORT;
  port = 0;
  portsLo = 0;
  portsHi = 0;
  /** Number of eligible ports in the matching table entry (for reports). */
  portCount = 0;
  /** Index of the table entry that matched, or -1 for a down route. */
  entry = -1;
  goingDown = false;
}

/**
 * A routing unit in place of the table lookup (spec §3.2(c): YARC's datapath with another routing
 * function — the flattened butterfly's, yarc-flat-unit.ts): called once per packet at the head of
 * an input queue, it writes ROUTE_PORT, ROUTE_ADAPTIVE (the datapath's §7.8.3 choice among
 * `portsLo/portsHi`) or ROUTE_NO_MATCH into the decision.
 */
export interface YarcRoutingUnit {
  route(router: number, inPort: number, destination: number, adaptive: boolean, out: RouteDecision): void;
}

export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** §7.8.2: compress the 8 selected bits of the 15 optional hash bits into an 8-bit value (the datasheet's). */
export const selectHashBits = yarc.selectHashBits;

/** The n-th set bit (0-based) of a 64-bit mask given as two 32-bit halves. */
export function nthSetBit(lo: number, hi: number, n: number): number {
  const loCount = popcount32(lo);
  let word = lo;
  let base = 0;
  if (n >= loCount) {
    n -= loCount;
    word = hi;
    base = 32;
  }
  // Clear the n lowest set bits; the next one is the answer.
  for (; n > 0 && word !== 0; n--) word &= word - 1;
  return word === 0 ? -1 : base + 31 - Math.clz32(word & -word);
}

/** selectHashBits for every 15-bit value, per selection register value in use (a handful: one
 * per rank, §7.8.2), so that routing a packet looks its hash bits up instead of walking 15 bits. */
const selectedHashBits = new Map<number, Uint8Array>();

/** The last selection looked up and its table: a fabric's routers use a handful of selections,
 * and consecutive packets mostly the same one, so most routings skip the map. */
let lastSelect = -1;
let lastTable: Uint8Array | null = null;

function selectedBits(hashBits: number, select: number): number {
  if (select === lastSelect && lastTable !== null) return lastTable[hashBits & 0x7fff];
  let table = selectedHashBits.get(select);
  if (!table) {
    // Registers written with many different selections get no tables (32 KB each): the walk.
    if (selectedHashBits.size >= 64) return selectHashBits(hashBits, select);
    table = new Uint8Array(1 << 15);
    for (let v = 0; v < 1 << 15; v++) table[v] = selectHashBits(v, select);
    selectedHashBits.set(select, table);
  }
  lastSelect = select;
  lastTable = table;
  return table[hashBits & 0x7fff];
}

/** §5.1 / §7.8.2 deterministic hash (the datasheet's yarcHash), with the selected bits looked up. */
export function deterministicHash(inputPort: number, destination: number, hashBits: number, h: boolean, select: number): number {
  return yarc.yarcHash(inputPort, destination, h ? selectedBits(hashBits, select) : 0);
}

/**
 * Routes one packet at input `inPort` of router `router`. `adaptive` is the header's a bit; the
 * caller resolves ROUTE_ADAPTIVE with the live buffer state (§7.8.3).
 */
export function routeYarc(
  regs: YarcRegisterFile,
  router: number,
  inPort: number,
  destination: number,
  hashBits: number,
  h: boolean,
  adaptive: boolean,
  out: RouteDecision,
): void {
  const tile = router * PORTS + inPort;
  const dest = destination & LOCATION_MASK;
  const arrivedGoingDown = regs.portDirection[tile] === PORT_UPLINK || regs.portDirection[tile] === PORT_SIDELINK;
  out.entry = -1;
  out.portsLo = 0;
  out.portsHi = 0;
  out.portCount = 0;
  // §5.1 root detect: the destination is in this router's subtree, so route down (§5.2).
  if (((dest ^ regs.rootLocation[tile]) & ~regs.rootMask[tile] & LOCATION_MASK) === 0) {
    const logical = (dest >>> regs.downShift[tile]) & regs.downMask[tile];
    const physical = regs.portMap[tile * PORTS + (logical & (PORTS - 1))];
    out.goingDown = true;
    out.port = physical;
    out.portCount = 1;
    out.kind = regs.portDirection[router * PORTS + physical] === PORT_DOWNLINK ? ROUTE_PORT : ROUTE_DOWN_UNMAPPED;
    return;
  }
  out.goingDown = false;
  // §7.7: once a packet travels down it must keep going down.
  if (arrivedGoingDown) {
    out.kind = ROUTE_DOWNWARD_VIOLATION;
    return;
  }
  // §5.1: associative match over the 8 entries; the highest matching index wins.
  const table = regs.table;
  const base = tile * TABLE_ENTRIES;
  for (let e = TABLE_ENTRIES - 1; e >= 0; e--) {
    const at = (base + e) << TABLE_SHIFT;
    if (table[at | TABLE_VALID] === 0) continue;
    const match = table[at | TABLE_MATCH];
    if (((dest ^ match) & ~(match >>> 16) & LOCATION_MASK) !== 0) continue;
    const lo = table[at | TABLE_PORTS_LO];
    const hi = table[at | TABLE_PORTS_HI];
    const count = popcount32(lo) + popcount32(hi);
    out.entry = e;
    out.portsLo = lo;
    out.portsHi = hi;
    out.portCount = count;
    if (count === 0) {
      out.kind = ROUTE_NO_MATCH;
      return;
    }
    if (adaptive) {
      out.kind = ROUTE_ADAPTIVE;
      return;
    }
    if (!isLegalModulus(count)) {
      out.kind = ROUTE_ILLEGAL_MODULUS;
      return;
    }
    out.kind = ROUTE_PORT;
    out.port = nthSetBit(lo, hi, deterministicHash(inPort, dest, hashBits, h, regs.hashSelect[tile]) % count);
    return;
  }
  out.kind = ROUTE_NO_MATCH;
}
