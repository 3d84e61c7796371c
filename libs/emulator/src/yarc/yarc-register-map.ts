/**
 * The registers a maintenance packet can read or write on a YARC or a processor's network
 * interface (paper 000 §4.1: maintenance operations use source-routed packets). Each register has
 * a name, an index range (tile, port, entry…) and a value shape; values travel as arrays of
 * numbers.
 */
import { HASH_BITS, LOCATION_MASK, PORTS, TABLE_ENTRIES } from './yarc-constants';
import { YarcRegisterFile } from './yarc-registers';

/** §4.4: full, half and quarter of the two SerDes rates. */
export const OCTANT_RATES: readonly number[] = [6.25, 5.0, 3.125, 2.5, 1.5625, 1.25];

export { MODEL_PROCESSOR, MODEL_YARC } from '@weft/fabric-model/chips/yarc';

export type RegisterValue = readonly number[];

export interface RegisterAccess {
  /** How many indices the register has (1 for a scalar). */
  readonly size: number;
  readonly writable: boolean;
  read(regs: YarcRegisterFile, router: number, index: number): RegisterValue;
  write?(regs: YarcRegisterFile, router: number, index: number, value: RegisterValue): string | null;
}

const checkRange = (value: number, max: number, what: string): string | null =>
  Number.isInteger(value) && value >= 0 && value <= max ? null : `${what} must be 0..${max}, got ${value}`;

/** Routing and link registers of a YARC, by name; index = tile for per-tile registers. */
export const YARC_REGISTERS: Readonly<Record<string, RegisterAccess>> = {
  rootDetect: {
    size: PORTS,
    writable: true,
    read: (regs, r, t) => [regs.rootLocation[r * PORTS + t], regs.rootMask[r * PORTS + t]],
    write: (regs, r, t, [location, mask]) => {
      const bad = checkRange(location, LOCATION_MASK, 'location') ?? checkRange(mask, LOCATION_MASK, 'mask');
      if (bad) return bad;
      regs.rootLocation[r * PORTS + t] = location;
      regs.rootMask[r * PORTS + t] = mask;
      return null;
    },
  },
  downRoute: {
    size: PORTS,
    writable: true,
    read: (regs, r, t) => [regs.downShift[r * PORTS + t], regs.downMask[r * PORTS + t]],
    write: (regs, r, t, [shift, mask]) => {
      const bad = checkRange(shift, 14, 'shift') ?? checkRange(mask, PORTS - 1, 'mask');
      if (bad) return bad;
      regs.downShift[r * PORTS + t] = shift;
      regs.downMask[r * PORTS + t] = mask;
      return null;
    },
  },
  /** index = tile * 64 + logical port; value = [physical port]. */
  portMap: {
    size: PORTS * PORTS,
    writable: true,
    read: (regs, r, i) => [regs.portMap[r * PORTS * PORTS + i]],
    write: (regs, r, i, [physical]) => {
      const bad = checkRange(physical, PORTS - 1, 'physical port');
      if (bad) return bad;
      regs.portMap[r * PORTS * PORTS + i] = physical;
      return null;
    },
  },
  /** index = tile * 8 + entry; value = [valid, location, mask, ports 0–31, ports 32–63]. */
  routingTable: {
    size: PORTS * TABLE_ENTRIES,
    writable: true,
    read: (regs, r, i) => {
      return regs.tableEntry(r * PORTS * TABLE_ENTRIES + i);
    },
    write: (regs, r, i, [valid, location, mask, lo, hi]) => {
      const bad = checkRange(valid, 1, 'valid') ?? checkRange(location, LOCATION_MASK, 'location') ?? checkRange(mask, LOCATION_MASK, 'mask');
      if (bad) return bad;
      regs.writeTableEntry(r * PORTS * TABLE_ENTRIES + i, valid, location, mask, lo, hi);
      return null;
    },
  },
  hashSelect: {
    size: PORTS,
    writable: true,
    read: (regs, r, t) => [regs.hashSelect[r * PORTS + t]],
    write: (regs, r, t, [mask]) => {
      const bad = checkRange(mask, (1 << HASH_BITS) - 1, 'hash select');
      if (bad) return bad;
      let bits = 0;
      for (let b = 0; b < HASH_BITS; b++) if (mask & (1 << b)) bits++;
      if (bits !== 8) return `hash select must choose exactly 8 of the 15 hash bits, got ${bits}`;
      regs.hashSelect[r * PORTS + t] = mask;
      return null;
    },
  },
  portDirection: {
    size: PORTS,
    writable: true,
    read: (regs, r, p) => [regs.portDirection[r * PORTS + p]],
    write: (regs, r, p, [direction]) => {
      const bad = checkRange(direction, 3, 'direction');
      if (bad) return bad;
      regs.portDirection[r * PORTS + p] = direction;
      return null;
    },
  },
  laneRetryThreshold: {
    size: PORTS,
    writable: true,
    read: (regs, r, p) => [regs.laneRetryThreshold[r * PORTS + p]],
    write: (regs, r, p, [threshold]) => {
      const bad = checkRange(threshold, 0xffff, 'threshold');
      if (bad) return bad;
      regs.laneRetryThreshold[r * PORTS + p] = threshold;
      return null;
    },
  },
  forwardProgressTimer: {
    size: PORTS,
    writable: true,
    read: (regs, r, p) => [regs.forwardProgressTimer[r * PORTS + p]],
    write: (regs, r, p, [cycles]) => {
      const bad = checkRange(cycles, 0xffffffff, 'timer');
      if (bad) return bad;
      regs.forwardProgressTimer[r * PORTS + p] = cycles;
      return null;
    },
  },
  /** §4.4: the data rate shared by the eight tiles of an octant, in Gb/s; index = octant. */
  octantRate: {
    size: 8,
    writable: true,
    read: (regs, r, o) => [regs.octantRateGbps[r * 8 + o]],
    write: (regs, r, o, [rate]) => {
      if (!OCTANT_RATES.includes(rate)) return `octant rate must be one of ${OCTANT_RATES.join(', ')} Gb/s, got ${rate}`;
      regs.octantRateGbps[r * 8 + o] = rate;
      return null;
    },
  },
  maxPacketLength: {
    size: 1,
    writable: true,
    read: (regs, r) => [regs.maxPacketLength[r]],
    write: (regs, r, _i, [phits]) => {
      if (!Number.isInteger(phits) || phits < 4 || phits > 255) return `maximum packet length must be 4..255 phits, got ${phits}`;
      regs.maxPacketLength[r] = phits;
      return null;
    },
  },
};
