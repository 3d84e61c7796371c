/**
 * The settings of the emulated Anton 2 ASIC that paper 004 leaves open or studies (spec §2.2), each
 * named with its default and why. The chip's fixed figures are in the datasheet (fabric-model
 * chips/anton2-asic.ts); the floorplan is its own data file (anton2-floorplan.json). Latencies the
 * paper shows only in Fig. 12 are calibrated so that the emulator reproduces §4.3's fit (80.7 ns +
 * 39.1 ns a hop on 8×8×8; the latency study in anton2-studies.spec.ts measures it) — results that
 * depend on them, and on the floorplan, say so.
 */
import type { MeshDirection } from '@weft/fabric-model';
import * as model from '@weft/fabric-model';

export type Anton2Arbitration = 'inverse-weighted' | 'round-robin';
/** The offset of exactly k/2 on an even ring (the paper is silent): drawn per packet, always +, or + from even coordinates. */
export type Anton2TieRule = 'random' | 'plus' | 'source-parity';

export interface Anton2Settings {
  /** Flits a router input buffers per VC (not in the paper; spec §2.2.4: 4, two full-sized packets for virtual cut-through). */
  readonly routerBufferFlits: number;
  /** Flits a channel adapter buffers per VC (not in the paper; weft: 32, covering the credit round trip over a cable — some 80 cycles at 3.2 a flit). */
  readonly adapterBufferFlits: number;
  /** Flits an endpoint adapter receives per class before its core reads them (weft: 8). */
  readonly endpointBufferFlits: number;
  /** §4.3, Fig. 12: RC, VA and SA1 before the SA2 grant, a cycle each (spec §2.2.5). */
  readonly routerPipelineCycles: number;
  /** Cycles a flit takes across a mesh channel, a skip channel or an adapter's router channel (weft: 1). */
  readonly meshLinkCycles: number;
  /** Cycles a channel adapter takes a packet in each direction, framing and checking included (Fig. 12 only; calibrated: 8). */
  readonly adapterCycles: number;
  /** Nanoseconds a flit spends in the SerDes pair of a torus channel, besides the trace or cable (Fig. 12 only; calibrated: 13.2). */
  readonly serdesNs: number;
  /** Nanoseconds of the endpoint's software, sending and receiving together, in each latency (calibrated to §4.3's intercept: 55.6). */
  readonly endpointOverheadNs: number;
  /** §3.3: bits of each inverse weight, M (Fig. 6's default, 5). */
  readonly weightBits: number;
  /** How every router's SA2 arbiters start (each can be set alone): inverse-weighted, or plain round robin (§4.1's comparison). */
  readonly arbitration: Anton2Arbitration;
  /** §2.4: the on-chip direction order (Anton 2's V−, U+, U−, V+), settable for comparison. */
  readonly directionOrder: readonly MeshDirection[];
  readonly tieRule: Anton2TieRule;
  /** §2.2: go-back-N on a torus channel — cycles from a bad flit to its resend (not in the paper; weft: 96, a cable's round trip and the replay). */
  readonly linkRetryCycles: number;
  /** Cycles a VC may hold packets without one moving before the forward-progress watchdog interrupts (weft: 20,000). */
  readonly watchdogCycles: number;
}

export const DEFAULT_ANTON2_SETTINGS: Anton2Settings = {
  routerBufferFlits: 4,
  adapterBufferFlits: 32,
  endpointBufferFlits: 8,
  routerPipelineCycles: 3,
  meshLinkCycles: 1,
  adapterCycles: 8,
  serdesNs: 13.2,
  endpointOverheadNs: 55.6,
  weightBits: 5,
  arbitration: 'inverse-weighted',
  directionOrder: model.ANTON2_DIRECTION_ORDER,
  tieRule: 'random',
  linkRetryCycles: 96,
  watchdogCycles: 20000,
};

/** The settings with `changes`, checked: an error names the setting and what it must be. */
export function anton2Settings(changes: Partial<Anton2Settings> = {}): Anton2Settings {
  const s = { ...DEFAULT_ANTON2_SETTINGS, ...changes };
  const whole = (name: keyof Anton2Settings, min: number, max: number) => {
    const v = s[name] as number;
    if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`Anton 2 setting ${name} must be a whole number from ${min} to ${max}, got ${v}`);
  };
  const number = (name: keyof Anton2Settings, min: number, max: number) => {
    const v = s[name] as number;
    if (!(typeof v === 'number' && v >= min && v <= max)) throw new RangeError(`Anton 2 setting ${name} must be a number from ${min} to ${max}, got ${v}`);
  };
  // Virtual cut-through: a buffer holds a whole packet of the largest size.
  whole('routerBufferFlits', model.ANTON2_MAX_PACKET_FLITS, 256);
  whole('adapterBufferFlits', model.ANTON2_MAX_PACKET_FLITS, 4096);
  whole('endpointBufferFlits', model.ANTON2_MAX_PACKET_FLITS, 4096);
  whole('routerPipelineCycles', 0, 16);
  whole('meshLinkCycles', 1, 16);
  whole('adapterCycles', 0, 256);
  number('serdesNs', 0, 10000);
  number('endpointOverheadNs', 0, 100000);
  whole('weightBits', 1, 16);
  whole('linkRetryCycles', 8, 100000);
  whole('watchdogCycles', 100, 1 << 30);
  if (!['inverse-weighted', 'round-robin'].includes(s.arbitration))
    throw new RangeError(`Anton 2 setting arbitration must be "inverse-weighted" or "round-robin", got ${String(s.arbitration)}`);
  if (!['random', 'plus', 'source-parity'].includes(s.tieRule))
    throw new RangeError(`Anton 2 setting tieRule must be "random", "plus" or "source-parity", got ${String(s.tieRule)}`);
  const dirs = s.directionOrder;
  if (!Array.isArray(dirs) || dirs.length !== 4 || new Set(dirs).size !== 4 || !dirs.every((d) => ['U+', 'U-', 'V+', 'V-'].includes(d)))
    throw new RangeError(`Anton 2 setting directionOrder must order the four mesh directions U+, U-, V+, V- once each, got ${JSON.stringify(dirs)}`);
  return s;
}
