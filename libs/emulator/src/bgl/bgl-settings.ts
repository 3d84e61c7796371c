/**
 * The settings of the emulated BlueGene/L node that the paper leaves open or studies (paper 002 §2,
 * §4; spec §1.2), each named, with its default and why. The hardware's fixed figures are in the
 * datasheet (fabric-model chips/bgl-node.ts); these are what a study or a drill may change.
 */

export type BubbleAccounting = 'full-size' | 'by-size';
export type EscapeOrder = 'dimension' | 'direction';
export type EscapeChannels = 'bubble' | 'dateline-pair';
export type PacketArbitration = 'jsq' | 'random';

export interface BglSettings {
  /**
   * Tokens (32-byte chunks) per VC buffer: 32 is BG/L's 1 KB (§2); Fig. 3 studies 512 B and 2 KB.
   */
  readonly vcTokens: number;
  /**
   * §2: BG/L charges every packet on a bubble VC as full-sized (its correction); `by-size` is the
   * original rule of refs [10, 11], which the paper's simulator found to deadlock with packets of
   * several sizes.
   */
  readonly bubbleAccounting: BubbleAccounting;
  /** §4 "Virtual Channel Architecture": the escape route dimension ordered (BG/L) or direction ordered (x+, y+, z+, x−, y−, z−). */
  readonly escapeOrder: EscapeOrder;
  /**
   * §4 "Virtual Channel Architecture", a study setting: the escape as BG/L has it, one bubble VC,
   * or a dateline pair — "two escape VCs per direction … Before crossing the dateline, the escape
   * VC is the lower numbered of the pair, but after crossing the dateline the escape VC is the
   * higher numbered" — on VCs 2 and 3 (the high-priority VC then carries no priority class). The
   * datelines are at the maximum coordinate of each dimension (§4: "the datelines are set at the
   * maximum coordinate value"): the wrap-around link.
   */
  readonly escapeChannels: EscapeChannels;
  /** §2 phase 1: join the shortest queue by 2-bit token ranges, or the "base" policy's random choice (Figs. 2–5). */
  readonly packetArbitration: PacketArbitration;
  /** §2 phase 2: the fraction of arbitration cycles that are SLQ cycles (Fig. 5's run: 0.75). */
  readonly slqFraction: number;
  /** §2 phase 3: the fraction of cycles packets already in the network go before injection ("typically 1.0"). */
  readonly inNetworkPriorityFraction: number;
  /** §3: arbitration is pipelined over "several cycles": cycles from a packet reaching a FIFO's head to its request (weft: 4). */
  readonly arbitrationLatency: number;
  /** §2: transfer paths from each receiver to the senders (2; Fig. 2 studies 1 to 4). */
  readonly paths: number;
  /**
   * Chunks each injection FIFO holds (not in the paper; weft: 32, a VC's worth). 0 makes them
   * unbounded, as the paper's simulator had them (§3), which it warns distorts the ends of runs.
   */
  readonly injectionFifoChunks: number;
  /** Chunks each reception FIFO holds (not in the paper; weft: 64). */
  readonly receptionFifoChunks: number;
  /** Bytes per network cycle the node's software reads out of its reception FIFOs (weft: 32). */
  readonly receptionReadBytesPerCycle: number;
  /**
   * §2: cycles a sender waits for the acknowledgement of a packet before sending it again (the
   * paper gives no figure; weft: 128, beyond a packet's round trip over the longest link).
   */
  readonly linkRetryCycles: number;
  /** Cycles without a packet moving anywhere, with packets waiting in the network, before the watchdog reports a deadlock. */
  readonly watchdogCycles: number;
  /**
   * §4 "Performance Verification": the hardware bug the VHDL runs found — "a one cycle gap in the
   * arbitration pipeline of the receivers could occur when all possible outgoing links/VCs were
   * busy", letting injected packets "sneak into the network, leading to fuller VCs than intended".
   * Fixed in silicon; reproducible here: a receiver whose packet found nothing available is blind
   * the next cycle too.
   */
  readonly arbitrationGapBug: boolean;
  /**
   * §2: "the receivers include a 'bypass' channel so that packets can flow through a node without
   * entering the VC buffers, under appropriate circumstances" — weft's reading of them: the packet
   * arrives at an empty VC and is granted in its arrival cycle, skipping the arbitration pipeline.
   */
  readonly bypass: boolean;
  /** §1: "virtual node" mode, with "two sets of network injection and reception FIFOs" so that both cores use the network. */
  readonly virtualNodeMode: boolean;
}

export const DEFAULT_BGL_SETTINGS: BglSettings = {
  vcTokens: 32,
  bubbleAccounting: 'full-size',
  escapeOrder: 'dimension',
  escapeChannels: 'bubble',
  packetArbitration: 'jsq',
  slqFraction: 0.75,
  inNetworkPriorityFraction: 1,
  arbitrationLatency: 4,
  paths: 2,
  injectionFifoChunks: 32,
  receptionFifoChunks: 64,
  receptionReadBytesPerCycle: 32,
  linkRetryCycles: 128,
  watchdogCycles: 20000,
  arbitrationGapBug: false,
  virtualNodeMode: false,
  bypass: true,
};

/** The settings with `changes`, checked: an error names the setting and what it must be. */
export function bglSettings(changes: Partial<BglSettings> = {}): BglSettings {
  const s = { ...DEFAULT_BGL_SETTINGS, ...changes };
  const whole = (name: keyof BglSettings, min: number, max: number) => {
    const v = s[name] as number;
    if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`BG/L setting ${name} must be a whole number from ${min} to ${max}, got ${v}`);
  };
  const fraction = (name: keyof BglSettings) => {
    const v = s[name] as number;
    if (!(v >= 0 && v <= 1)) throw new RangeError(`BG/L setting ${name} must be a fraction from 0 to 1, got ${v}`);
  };
  // §2: a bubble insertion needs room for two full-sized packets (spec §1.4 V4).
  whole('vcTokens', 16, 1024);
  whole('arbitrationLatency', 0, 64);
  whole('paths', 1, 4);
  whole('injectionFifoChunks', 0, 1 << 20);
  if (s.injectionFifoChunks !== 0 && s.injectionFifoChunks < 8)
    throw new RangeError(`BG/L setting injectionFifoChunks must hold a full-sized packet (8 chunks) or be 0 (unbounded), got ${s.injectionFifoChunks}`);
  whole('receptionFifoChunks', 8, 1 << 20);
  whole('receptionReadBytesPerCycle', 1, 4096);
  whole('watchdogCycles', 100, 1 << 30);
  whole('linkRetryCycles', 16, 100000);
  fraction('slqFraction');
  fraction('inNetworkPriorityFraction');
  if (!['full-size', 'by-size'].includes(s.bubbleAccounting))
    throw new RangeError(`BG/L setting bubbleAccounting must be "full-size" or "by-size", got ${String(s.bubbleAccounting)}`);
  if (!['dimension', 'direction'].includes(s.escapeOrder))
    throw new RangeError(`BG/L setting escapeOrder must be "dimension" or "direction", got ${String(s.escapeOrder)}`);
  if (!['bubble', 'dateline-pair'].includes(s.escapeChannels))
    throw new RangeError(`BG/L setting escapeChannels must be "bubble" or "dateline-pair", got ${String(s.escapeChannels)}`);
  if (!['jsq', 'random'].includes(s.packetArbitration))
    throw new RangeError(`BG/L setting packetArbitration must be "jsq" or "random", got ${String(s.packetArbitration)}`);
  return s;
}
