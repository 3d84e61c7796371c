/**
 * The routing and link registers of every YARC in a fabric, as typed arrays indexed by dense
 * router number (STYLE.md: struct of arrays). Routing logic is replicated per tile (§5), so the
 * routing registers are per tile — which is what lets system software cut a YARC into virtual
 * routers (§7.4) by giving each tile its own masks.
 */
import { CACHE_LINE_WRITE_PHITS, HASH_BITS, PORTS, PORT_UNUSED, TABLE_ENTRIES } from './yarc-constants';
import { shared } from '../engine/shared-memory';
import { walkedState } from '../engine/shared-state';

/** A routing-table entry's record: 4 words (see YarcRegisterFile.table). TABLE_MATCH holds the
 * location in its low 16 bits and the mask in its high 16. */
export const TABLE_SHIFT = 2;
export const TABLE_MATCH = 0;
export const TABLE_PORTS_LO = 1;
export const TABLE_PORTS_HI = 2;
export const TABLE_VALID = 3;

export class YarcRegisterFile {
  /** §5.1 root detect: 15-bit location and mask, per tile. */
  readonly rootLocation: Uint16Array;
  readonly rootMask: Uint16Array;
  /** §5.2 down route: shift and mask, per tile. */
  readonly downShift: Uint8Array;
  readonly downMask: Uint16Array;
  /** §5.2 logical → physical port map (64 entries), per tile. */
  readonly portMap: Uint8Array;
  /**
   * §5.1 routing table: 8 entries per tile of (valid, location, mask, 64-bit port mask), a 16-byte
   * record each at `(tile * 8 + entry) << TABLE_SHIFT`: the associative match reads an entry's
   * fields together, and a packet routed at a tile no other packet has used lately then misses
   * the cache once or twice, not once per field.
   */
  readonly table: Uint32Array;
  /** §7.8.2 which 8 of the 15 optional hash bits a tile uses (a 15-bit mask). */
  readonly hashSelect: Uint16Array;
  /** Direction of each port (PORT_DOWNLINK, PORT_UPLINK, PORT_SIDELINK, PORT_UNUSED), for the
   * downward invariant of §7.7. */
  readonly portDirection: Uint8Array;
  /** §7.7 per-lane retry threshold of each port's LCB, and the forward-progress timer (cycles). */
  readonly laneRetryThreshold: Uint16Array;
  readonly forwardProgressTimer: Uint32Array;
  /** §4.3 maximum packet length in phits, per chip (the LCB clips longer packets). */
  readonly maxPacketLength: Uint8Array;
  /** §4.4 octant data rate in Gb/s, per chip and octant. */
  readonly octantRateGbps: Float32Array;

  constructor(readonly routers: number) {
    const tiles = routers * PORTS;
    this.rootLocation = shared(Uint16Array, tiles);
    this.rootMask = shared(Uint16Array, tiles);
    this.downShift = shared(Uint8Array, tiles);
    this.downMask = shared(Uint16Array, tiles);
    this.portMap = shared(Uint8Array, tiles * PORTS);
    this.table = shared(Uint32Array, (tiles * TABLE_ENTRIES) << TABLE_SHIFT);
    this.hashSelect = shared(Uint16Array, tiles).fill((1 << 8) - 1);
    this.portDirection = shared(Uint8Array, tiles).fill(PORT_UNUSED);
    this.laneRetryThreshold = shared(Uint16Array, tiles).fill(16);
    this.forwardProgressTimer = shared(Uint32Array, tiles).fill(80_000);
    this.maxPacketLength = shared(Uint8Array, routers).fill(CACHE_LINE_WRITE_PHITS);
    this.octantRateGbps = shared(Float32Array, routers * 8).fill(6.25);
  }

  /** Power-on values of one router's registers: nothing routes until software configures it. */
  resetRouter(router: number): void {
    const t0 = router * PORTS;
    this.rootLocation.fill(0, t0, t0 + PORTS);
    this.rootMask.fill(0, t0, t0 + PORTS);
    this.downShift.fill(0, t0, t0 + PORTS);
    this.downMask.fill(0, t0, t0 + PORTS);
    this.portMap.fill(0, t0 * PORTS, (t0 + PORTS) * PORTS);
    this.table.fill(0, (t0 * TABLE_ENTRIES) << TABLE_SHIFT, ((t0 + PORTS) * TABLE_ENTRIES) << TABLE_SHIFT);
    this.hashSelect.fill((1 << 8) - 1, t0, t0 + PORTS);
    this.portDirection.fill(PORT_UNUSED, t0, t0 + PORTS);
    this.laneRetryThreshold.fill(16, t0, t0 + PORTS);
    this.forwardProgressTimer.fill(80_000, t0, t0 + PORTS);
    this.maxPacketLength[router] = CACHE_LINE_WRITE_PHITS;
  }

  /** Sets routing-table entry `entry` of one tile; `ports` lists physical output ports. */
  setTableEntry(router: number, tile: number, entry: number, location: number, mask: number, ports: Iterable<number>): void {
    let lo = 0;
    let hi = 0;
    for (const p of ports) {
      if (p < 32) lo |= 1 << p;
      else hi |= 1 << (p - 32);
    }
    this.writeTableEntry((router * PORTS + tile) * TABLE_ENTRIES + entry, 1, location, mask, lo, hi);
  }

  clearTableEntry(router: number, tile: number, entry: number): void {
    this.table[(((router * PORTS + tile) * TABLE_ENTRIES + entry) << TABLE_SHIFT) | TABLE_VALID] = 0;
  }

  /** Writes entry k (= tile * 8 + entry) of the routing tables: valid (0 or 1), the 15-bit
   * location and mask, and the port mask's halves (ports 0–31 and 32–63). */
  writeTableEntry(k: number, valid: number, location: number, mask: number, lo: number, hi: number): void {
    const at = k << TABLE_SHIFT;
    this.table[at | TABLE_MATCH] = (location & 0xffff) | ((mask & 0xffff) << 16);
    this.table[at | TABLE_PORTS_LO] = lo >>> 0;
    this.table[at | TABLE_PORTS_HI] = hi >>> 0;
    this.table[at | TABLE_VALID] = valid;
  }

  /** Entry k of the routing tables as [valid, location, mask, ports 0–31, ports 32–63]. */
  tableEntry(k: number): number[] {
    const at = k << TABLE_SHIFT;
    const match = this.table[at | TABLE_MATCH];
    return [this.table[at | TABLE_VALID], match & 0xffff, match >>> 16, this.table[at | TABLE_PORTS_LO], this.table[at | TABLE_PORTS_HI]];
  }

  setPortMap(router: number, tile: number, logical: number, physical: number): void {
    this.portMap[(router * PORTS + tile) * PORTS + logical] = physical;
  }

  get bytes(): number {
    return (
      this.rootLocation.byteLength * 2 +
      this.downShift.byteLength +
      this.downMask.byteLength +
      this.portMap.byteLength +
      this.table.byteLength +
      this.hashSelect.byteLength +
      this.portDirection.byteLength +
      this.laneRetryThreshold.byteLength +
      this.forwardProgressTimer.byteLength +
      this.maxPacketLength.byteLength +
      this.octantRateGbps.byteLength
    );
  }
}

/** A hash-select register value using bits [from, from + 8) of the 15 optional hash bits (§7.8.2). */
export function hashWindow(from: number): number {
  let mask = 0;
  for (let b = 0; b < 8; b++) mask |= 1 << ((from + b) % HASH_BITS);
  return mask;
}

walkedState(YarcRegisterFile);
