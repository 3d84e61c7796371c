/**
 * YARC, as a chip model of the fabric engine (issue 35, capability 2): the tile pipeline of a
 * BlackWidow router (paper 000 §3–§5, §7.5, §7.7) over the engine's link layer (LinkEngine) and run
 * control (PartedEngine). Each cycle the stages that can act are evaluated downstream first —
 * output links, then column channels (subswitches), then row buses and routing — so a phit moves
 * through at most one stage per cycle; links deliver into the future, so routers never see each
 * other's same-cycle state. Stages sleep until an event can let them act (see `step`): an idle
 * stage, router or endpoint costs nothing.
 *
 * Buffers (all per VC): input buffer per port (the link layer's `inputs`: VCT across links,
 * credits reserved per packet), 8 row buffers per tile (one per input of its row) and 8 column
 * buffers per output (one per subswitch row; the link layer's `outputs`), both wormhole. A packet
 * takes its output column at the head of the input queue, the row within the column at the
 * subswitch; the output port arbitrates between its 8 column buffers and the two VCs.
 */
import { keyedDraw } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { DRAW_CHIP, LinkEngine, linkRecords, LinkSpec, PHASE_LINKS as LINK_LAYER_PHASE } from '../engine/link-engine';
import type { MaintenanceMessage } from '../engine/maintenance-message';
import { answerTo } from '../engine/maintenance-message';
import { DiscardReason, FLAG_ADAPTIVE, FLAG_HASH, FLAG_SOFT_ERROR, FLAG_SOURCE_ROUTED, FLAG_TRACE } from '../engine/packet-store';
import { DRAIN_SLOT_INTS, PHASE_EVENTS as ENGINE_EVENTS_PHASE } from '../engine/parted-engine';
import { BufferQueues } from '../engine/segment-pool';
import { shared } from '../engine/shared-memory';
import { walkedState } from '../engine/shared-state';
import { StageQueue } from '../engine/stage-queue';
import { MODEL_PROCESSOR, MODEL_YARC, YARC_REGISTERS } from './yarc-register-map';
import {
  COLUMN_BUFFER_PHITS,
  INPUT_BUFFER_PHITS_PER_VC,
  LANES,
  NS_PER_CYCLE,
  PHIT_BITS,
  PORTS,
  ROW_BUFFER_PHITS,
  STAGES_COLUMN_CHANNEL,
  STAGES_INPUT_QUEUE,
  STAGES_OUTPUT,
  STAGES_ROW_BUS,
  STAGES_SUBSWITCH,
  VCS,
  YARC_CLOCK_GHZ,
} from './yarc-constants';
import { YarcRegisterFile } from './yarc-registers';
import {
  ROUTE_ADAPTIVE,
  ROUTE_DOWN_UNMAPPED,
  ROUTE_DOWNWARD_VIOLATION,
  ROUTE_ILLEGAL_MODULUS,
  ROUTE_NO_MATCH,
  ROUTE_PORT,
  popcount32,
  RouteDecision,
  routeYarc,
  YarcRoutingUnit,
} from './yarc-routing';

// The hot paths reach these through module constants, not the global object or another module's
// exports (see link-engine.ts).
const { ceil, clz32, max, min } = Math;
const NEVER = Infinity;
const {
  VC_SHIFT,
  TX_F64_SHIFT,
  TX_I32_SHIFT,
  TX_BUSY,
  TX_DRAIN_FIRST,
  TX_DRAIN_LAST,
  TX_PACKET,
  TX_DOWN,
  DOWN_CUT,
  TX_SOURCE,
  TX_DRAIN_BUFFER,
  TX_DRAIN,
  DRAIN_COUNT_BITS,
  DRAIN_COUNT_MASK,
  P_F64_SHIFT,
  P_I32_SHIFT,
  P_BLOCKED,
  P_CREDITS,
  P_CREDIT_WAIT,
} = linkRecords(VCS);

// Module-level copies of the chip constants: the hot loops read locals, not another module's exports.
const NVC = VCS;
const NPORTS = PORTS;
const INPUT_STAGES = STAGES_INPUT_QUEUE;
const ROW_BUS_STAGES = STAGES_ROW_BUS;
const OUTPUT_STAGES = STAGES_OUTPUT;

/** SerDes + LCB latency at each end of a link, and signal propagation in cable (~5 ns/m). */
export const LINK_FIXED_NS = 10;
export const CABLE_NS_PER_METER = 5;
/** A processor's network interface: receive buffer per VC, and its latency to inject. */
export const ENDPOINT_RECEIVE_PHITS = 256;
export const ENDPOINT_INJECT_CYCLES = 4;
/** Cycles a chip's maintenance block takes to execute a register access (§4.1). */
export const MAINTENANCE_PROCESS_CYCLES = 16;

/** YARC's link layer in numbers (§4.1, §4.3, §4.4). */
const YARC_LINK: LinkSpec = {
  clockGHz: YARC_CLOCK_GHZ,
  nsPerCycle: NS_PER_CYCLE,
  vcs: VCS,
  phitBits: PHIT_BITS,
  lanes: LANES,
  linkFixedNs: LINK_FIXED_NS,
  cableNsPerMeter: CABLE_NS_PER_METER,
  inputCreditsPerVc: INPUT_BUFFER_PHITS_PER_VC,
  endpointReceivePhits: ENDPOINT_RECEIVE_PHITS,
  endpointInjectCycles: ENDPOINT_INJECT_CYCLES,
  inputStages: STAGES_INPUT_QUEUE,
  // A port's 8 column buffers (one per subswitch row), each per VC.
  outputBuffersPerPort: 8 * VCS,
  maintenanceProcessCycles: MAINTENANCE_PROCESS_CYCLES,
};

/**
 * Row and column buffers are shared by the two VCs (§3: "partitioned into two virtual
 * channels"), each VC leaving the other at least two phits, so that one blocked VC can never
 * take the whole buffer. Sharing is what lets 16 and 10 phits "cover the credit latency" (§7.5):
 * a statically halved buffer would not.
 */
const ROW_VC_LIMIT = ROW_BUFFER_PHITS - 2;
const COLUMN_VC_LIMIT = COLUMN_BUFFER_PHITS - 2;
/** A phit sent on the row bus is usable by the column channel after the row bus and the
 * subswitch stages; one sent on a column channel is usable by the output after the channel. */
const RB_DELAY = ROW_BUS_STAGES + STAGES_SUBSWITCH;
const CB_DELAY = STAGES_COLUMN_CHANNEL;
const IB_TO_RB = INPUT_STAGES + RB_DELAY;
const RB_TO_CB = CB_DELAY;
/** Cycles from its visit within which a column channel's run may wait for room or for phits when
 * nothing else can use the channel: a phit a row bus sends now is not usable by the channel
 * before RB_DELAY (see columnAlone). */
const PACED_CYCLES = RB_DELAY;

/** The chip's random event, drawn for itself from the seed (keyedDraw, see link-engine.ts):
 * whether a router corrupts the packet it routes at an input VC, keyed by the input VC and cycle. */
const DRAW_SOFT_ERROR = DRAW_CHIP;

/** Column-channel records (see `chF64`): 16 bytes, in Float64 and Int32 slots over the same
 * bytes; the Int32 slot CH_STATE packs the want bits (0–15), the round-robin pointer (16–19)
 * and the wait bits (20 + v); CH_OWNERS packs each VC's owner + 1 in a byte (0: none). */
const CH_RECORD_BYTES = 16;
/** A record's first slot is index << shift, and a field's slot that | field (bitwise, so the
 * optimized code needs no overflow checks, as a multiply and add would). */
const CH_F64_SHIFT = 31 - clz32(CH_RECORD_BYTES / 8);
const CH_I32_SHIFT = 31 - clz32(CH_RECORD_BYTES / 4);
const CH_BUSY = 0;
const CH_STATE = 2;
const CH_OWNERS = 3;
const CH_WANT_BITS = 0xffff;
const CH_RR_SHIFT = 16;
const CH_WAIT_SHIFT = 20;

/** Phases of a cycle, in evaluation order: the events and the output links (the engine's), then the chip's stages. */
const PHASE_EVENTS = ENGINE_EVENTS_PHASE;
const PHASE_LINKS = LINK_LAYER_PHASE;
const PHASE_COLUMNS = 2;
const PHASE_ROWS = 3;

/** A 16-requester round-robin arbiter's request mask rotated so that its pointer is bit 0: the
 * set bits, lowest first, are the requesters in the order the arbiter considers them. */
const fromPointer = (mask: number, pointer: number): number => ((mask >>> pointer) | (mask << (16 - pointer))) & 0xffff;
const lowestBit = (mask: number): number => 31 - clz32(mask & -mask);

/** The route of a maintenance packet the chip takes (its destination): past the discard port (NPORTS). */
const CONSUME = PORTS + 1;

/**
 * Bits of each field of a register value as a maintenance packet carries it, for the registers
 * whose fields are narrower than a word: the identity (serial number, model, port count, arrival
 * port, and a processor's number) and the per-port lane counts and directions (two bits each).
 * Every other register's values travel as 32-bit words, and a write's list of indices four to a
 * word.
 */
const IDENTITY_FIELD_BITS = [32, 8, 8, 8, 16];
const TWO_BIT_REGISTERS = new Set(['portStates', 'portDirections', 'portDirection', 'linkState']);

/** Phits of a maintenance packet — a request or its answer: four of header, address and tail,
 * then the packed value (and indices), up to the 19 of the longest packet. A read carries no value. */
export function maintenancePacketPhits(message: MaintenanceMessage): number {
  let bits = message.indices ? ceil(message.indices.length / 4) * 32 : 0;
  const n = message.value.length;
  if (message.register === 'identity') for (let k = 0; k < n; k++) bits += IDENTITY_FIELD_BITS[k] ?? 32;
  else bits += (TWO_BIT_REGISTERS.has(message.register) ? 2 : 32) * n;
  return min(4 + ceil(bits / PHIT_BITS), 19);
}

export class YarcFabricSim extends LinkEngine {
  readonly regs: YarcRegisterFile;
  /**
   * The row buffers' queues are timed: each one's time (rb.timeOf(rbIndex), the two VCs of a
   * buffer side by side, in the record with its queue) is its drain end, the cycle at which the run
   * the column channel committed last has left entirely (its phits leave one per cycle up to then).
   * The later of a buffer's two is when its read port is free again: a subswitch input sends one
   * phit per cycle, to one column channel (§3), whichever VC; of two channels that want the same
   * row buffer in the same cycle (one for each VC's head packet), the lower-numbered goes first
   * (see `step`).
   */
  private readonly rb: BufferQueues;
  /** Per output tile: which of its 8 column buffers × 2 VCs hold a packet (bit row*2+v), so that
   * the output arbiter looks only at those. */
  private readonly cbMask: Uint16Array;
  /** Round-robin pointers of the output arbiters, row buses and column channels. */
  private readonly outRR: Uint8Array;
  private readonly rowBusRR: Uint8Array;
  /** Round-robin pointers of the adaptive choice among equally good columns (per input) and rows
   * (per input and column, so that the two do not walk in step). */
  private readonly adaptiveColumnRR: Uint8Array;
  private readonly adaptiveRowRR: Uint8Array;
  /**
   * Per column channel (output tile × row: `channel`), one 16-byte record, since a channel's
   * fields are read together and on a 32K fabric each field held in an array of its own was a
   * cache miss of its own. Float64 slot CH_BUSY: until when the channel is busy with a run. Int32
   * slot CH_STATE: which row buffers want the channel (bit (input&7)*2+v set when that row
   * buffer's head packet is routed to this output; arbitration looks only at set bits), its
   * round-robin pointer, and per VC whether it waits for room in that column buffer (the output
   * link's run that drains it wakes the channel; only a waiting channel is woken). Int32 slot
   * CH_OWNERS: per VC, the input whose packet holds the column buffer (wormhole: one packet at a
   * time per VC).
   */
  private readonly chF64: Float64Array;
  private readonly chI32: Int32Array;
  /** Per row buffer and VC: 1 while the row bus waits for room in it (the column channel's run
   * that drains it wakes the row bus; only a waiting row bus is woken). */
  private readonly rowWait: Uint8Array;
  private readonly decision = new RouteDecision();
  /** A routing unit in place of the table lookup (null: the table, §5): the flattened butterfly's
   * on a YARC-class chip. Its registers live on the thread that set it, so such a fabric runs on
   * one thread (sharedState refuses). */
  routingUnit: YarcRoutingUnit | null = null;
  private readonly columns: StageQueue;
  private readonly rows: StageQueue;
  private readonly rowBusy: Float64Array;
  /** Per router: probability that a packet passing through is corrupted (soft error, §4.3). */
  private readonly softErrorRate: Float64Array;

  constructor(fabric: EmulatedFabric, seed = 1) {
    super(fabric, seed, YARC_LINK);
    const R = this.routerChip.length;
    for (const chip of this.routerChip)
      if (fabric.design.chips[chip].portCount !== NPORTS)
        throw new Error(`a YARC has ${NPORTS} ports; chip "${fabric.chipNames[chip]}" has ${fabric.design.chips[chip].portCount}`);
    this.regs = new YarcRegisterFile(R);
    const { pool } = this.worlds[0];
    const channels = R * NPORTS * 8;
    this.rb = new BufferQueues(channels * NVC, pool, true);
    this.boundQueues.push(this.rb);
    this.cbMask = shared(Uint16Array, R * NPORTS);
    this.outRR = shared(Uint8Array, R * NPORTS);
    this.rowBusRR = shared(Uint8Array, R * NPORTS);
    this.adaptiveColumnRR = shared(Uint8Array, R * NPORTS);
    this.adaptiveRowRR = shared(Uint8Array, R * NPORTS * 8);
    const channelRecords = new SharedArrayBuffer(channels * CH_RECORD_BYTES);
    this.chF64 = new Float64Array(channelRecords);
    this.chI32 = new Int32Array(channelRecords);
    this.rowWait = shared(Uint8Array, channels * NVC);
    const columnPart = shared(Uint8Array, channels);
    for (let c = 0; c < channels; c++) columnPart[c] = this.routerPart[(c / (NPORTS * 8)) | 0];
    const rowPart = shared(Uint8Array, R * NPORTS);
    for (let t = 0; t < R * NPORTS; t++) rowPart[t] = this.routerPart[(t / NPORTS) | 0];
    this.columns = new StageQueue(channels, this.horizon, PHASE_COLUMNS, columnPart);
    this.rows = new StageQueue(R * NPORTS, this.horizon, PHASE_ROWS, rowPart);
    this.stages.push(this.columns, this.rows);
    this.rowBusy = shared(Float64Array, R * NPORTS);
    this.softErrorRate = shared(Float64Array, R);
    this.linksReady();
  }

  override sharedState(): ReturnType<LinkEngine['sharedState']> {
    if (this.routingUnit !== null)
      throw new Error('a YARC fabric with a routing unit in place of the table runs on one thread: its unit is not in shared memory');
    return super.sharedState();
  }

  /** Part p's events due at cycle `now`: credit returns, and its stages' wake-ups. */
  protected fireEvents(p: number, now: number): void {
    this.fireLinkEvents(p, now);
    this.columns.fire(p, now);
    this.rows.fire(p, now);
  }

  /** Evaluates part p's awake stages in cycle `now`, downstream first (see `step`). */
  protected evaluate(p: number, now: number): void {
    const { links, columns, rows } = this;
    links.enter(p);
    columns.enter(p);
    rows.enter(p);
    this.phase = PHASE_LINKS;
    for (let i = 0; i < links.count[p]; i++) {
      const g = links.visit(p, i, now);
      const tile = this.globalRouterPort[g];
      if (tile >= 0) this.stepOutput(g, tile, now);
      else this.stepEndpoint(g, now);
    }
    // Column channels of a subswitch share its row buffers' read ports (and a channel's move can
    // give another channel a new head), so they are visited in index order, as a loop over every
    // stage would: the result does not depend on the order they were woken in.
    this.phase = PHASE_COLUMNS;
    columns.sortReady(p);
    for (let i = 0; i < columns.count[p]; i++) this.stepColumn(columns.visit(p, i, now), now);
    this.phase = PHASE_ROWS;
    for (let i = 0; i < rows.count[p]; i++) this.stepRowBus(rows.visit(p, i, now), now);
    links.leave(p, now);
    columns.leave(p, now);
    rows.leave(p, now);
    this.phase = PHASE_EVENTS;
  }

  /** The reference evaluation: every stage of every connected port, channel and row bus visited. */
  protected wakeEveryStage(now: number): void {
    for (let g = 0; g < this.portI32.length >> P_I32_SHIFT; g++)
      if (this.globalRouterPort[g] >= 0 || this.fabric.peer[g] >= 0) this.links.wake(g, now, now, PHASE_EVENTS);
    for (let c = 0; c < this.rb.count / NVC; c++) this.columns.wake(c, now, now, PHASE_EVENTS);
    for (let t = 0; t < this.rowBusy.length; t++) this.rows.wake(t, now, now, PHASE_EVENTS);
  }

  private wakeColumn(channel: number, at: number): void {
    this.columns.wake(channel, at, this.cycle, this.phase);
  }

  private wakeRow(tile: number, at: number): void {
    this.rows.wake(tile, at, this.cycle, this.phase);
  }

  // ---------------------------------------------------------------- buffer occupancy
  /** Phits in row buffer b at cycle `now`: sent in and not yet left (the column channel's last
   * run takes them out at the cycles its drain mask marks, up to its end). */
  private rowOccupancy(b: number, now: number): number {
    return this.rb.occupancyOf(b) + this.rowPending(b, now);
  }

  /** Phits the column channel's last run out of row buffer b takes out after cycle `now`. */
  private rowPending(b: number, now: number): number {
    const k = this.rb.timeOf(b) - 1 - now; // the run's cycles after `now`, back from its end
    if (k <= 0) return 0;
    const mask = this.rb.drainMaskOf(b);
    return popcount32(k >= 32 ? mask : mask & (-1 >>> (32 - k)));
  }

  /** Phits row buffer b (of VC b&1) can still take at `now`: each VC leaves the other two. */
  private rowRoom(b: number, now: number): number {
    const occupancy = this.rowOccupancy(b, now);
    return min(ROW_VC_LIMIT - occupancy, ROW_BUFFER_PHITS - occupancy - this.rowOccupancy(b ^ 1, now));
  }

  /** Phits in column buffer b at cycle `now`: the output link's last run from it is still
   * leaving, at the send times it recorded. */
  private columnOccupancy(b: number, now: number): number {
    const g = this.routerPortGlobal[b >> 4]; // b is ((tile * 8 + row) << VC_SHIFT) | v
    let occupancy = this.outputs.occupancyOf(b);
    if (this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER] === b) occupancy += this.drainPending(g, now);
    return occupancy;
  }

  /**
   * Phits physically in a row or column buffer (index (tile*8 + column or row)*2 + vc) at the end
   * of `cycle`, counted phit by phit from the send times into it and out of it — not from the
   * counters the stages decide room by — so that tests can hold the counters to the buffer sizes.
   */
  bufferPhits(kind: 'row' | 'column', b: number, cycle: number): number {
    const queues = kind === 'row' ? this.rb : this.outputs;
    // The buffer's entries are its router's part's.
    this.bind(this.linkPart[this.routerPortGlobal[b >> 4]]);
    const pool = this.pool;
    let phits = 0;
    if (kind === 'row') {
      for (let s = queues.headOf(b); s >= 0; s = pool.nextOf(s)) {
        for (let k = 0; k < pool.sentInOf(s); k++) if (pool.sendTime(s, k) <= cycle) phits++;
        phits -= pool.sentOutOf(s);
      }
      return phits + this.rowPending(b, cycle);
    }
    // Phits in and not yet sent on, then those the output link's last runs send later: each
    // counted from when it came in.
    for (let s = queues.headOf(b); s >= 0; s = pool.nextOf(s)) {
      for (let k = pool.sentOutOf(s); k < pool.sentInOf(s); k++) if (pool.sendTime(s, k) <= cycle) phits++;
    }
    const tile = b >> 4;
    const g = this.routerPortGlobal[tile];
    if (this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER] === b) {
      const from = this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_FIRST];
      const drain = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN];
      const base = ((drain >> DRAIN_COUNT_BITS) - 1) * DRAIN_SLOT_INTS;
      for (let j = 0; j < (drain & DRAIN_COUNT_MASK); j++) {
        const k = base + 2 * j;
        if (from + this.drainPairs[k + 1] <= cycle && from + this.drainPairs[k] > cycle) phits++;
      }
    }
    return phits;
  }

  /** The first cycle after `now` at which row buffer b has room, as the column channel's
   * committed runs drain it and its other VC (NEVER if they never make room). */
  private rowRoomAppears(b: number, now: number): number {
    const end = max(this.rb.timeOf(b), this.rb.timeOf(b ^ 1)) - 1;
    for (let t = now + 1; t <= end; t++) if (this.rowRoom(b, t) > 0) return t;
    return NEVER;
  }

  /** The first cycle after `now` at which column buffer b has room, as the output link's
   * committed run drains it or its other VC (NEVER if it does not make room). */
  private columnRoomAppears(b: number, now: number): number {
    const g = this.routerPortGlobal[b >> 4];
    const drained = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER];
    if (this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] <= now || (drained !== b && drained !== (b ^ 1))) return NEVER;
    for (let t = now + 1; t <= this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST]; t++) if (this.columnRoom(b, t) > 0) return t;
    return NEVER;
  }

  /** Phits column buffer b (of VC b&1) can still take at `now`. */
  private columnRoom(b: number, now: number): number {
    // Both VCs' occupancies in one pass: the output link's last run drained at most one of them.
    const g = this.routerPortGlobal[b >> 4];
    let own = this.outputs.occupancyOf(b);
    let other = this.outputs.occupancyOf(b ^ 1);
    const drained = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER];
    if (drained === b) own += this.drainPending(g, now);
    else if (drained === (b ^ 1)) other += this.drainPending(g, now);
    return min(COLUMN_VC_LIMIT - own, COLUMN_BUFFER_PHITS - own - other);
  }

  // ---------------------------------------------------------------- output ports
  /** Router output port (tile) with global port g: the second-stage arbiter and the link. */
  private stepOutput(g: number, tile: number, now: number): void {
    if (this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] >= 0) {
      this.advanceLink(g, now);
      if (this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] >= 0) return;
    }
    if (now >= this.txF64[(g << TX_F64_SHIFT) | TX_BUSY] || this.fabric.activeLanes[g] === 0) this.arbitrate(g, tile, now);
    if (this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] < 0 && now < this.txF64[(g << TX_F64_SHIFT) | TX_BUSY] && this.outputHasWork(tile))
      this.wakeLink(g, this.txF64[(g << TX_F64_SHIFT) | TX_BUSY]);
  }

  private outputHasWork(tile: number): boolean {
    return this.cbMask[tile] !== 0;
  }

  /** The head packet of column buffer b has left it entirely. */
  private shiftColumnBuffer(b: number): void {
    this.outputs.shift(b);
    if (this.outputs.headOf(b) < 0) this.cbMask[b >> 4] &= ~(1 << (b & 15));
  }

  /** Second-stage arbitration at router output `tile` (global port g). */
  private arbitrate(g: number, tile: number, now: number): void {
    const pool = this.pool;
    const r = (tile / NPORTS) | 0;
    // Second-stage arbitration: 8 column buffers × 2 VCs, round robin (§3).
    const start = this.outRR[tile];
    let wakeAt = NEVER;
    // Only the column buffers holding a packet, in round-robin order from the pointer.
    for (let rotated = fromPointer(this.cbMask[tile], start); rotated !== 0; rotated &= rotated - 1) {
      const c = (start + lowestBit(rotated)) & 15;
      const v = c & 1;
      const candidate = ((tile * 8 + (c >> 1)) << VC_SHIFT) | v;
      const s = this.outputs.headOf(candidate);
      if (s < 0) continue;
      const taken = pool.sentOutOf(s);
      if (taken >= pool.sentInOf(s)) continue; // the column channel wakes it
      const u = pool.usable(s, taken);
      if (u > now) {
        if (u < wakeAt) wakeAt = u;
        continue;
      }
      const packet = pool.packetOf(s);
      // A packet whose first phits this port dropped while it was dead (taken > 0: a packet being
      // sent is the link's, not arbitrated for) goes on being dropped: its rest cannot go on
      // without its head, even if the link is back.
      if (taken > 0 || this.discarding[g] || this.fabric.peer[g] < 0 || this.fabric.activeLanes[g] === 0) {
        this.dropAtDeadPort(tile, candidate, s, packet, g, now);
        return;
      }
      if (this.portI32[(g << P_I32_SHIFT) | (P_CREDITS + v)] < this.store.length[packet]) {
        this.portI32[(g << P_I32_SHIFT) | (P_CREDIT_WAIT + v)] = 1;
        this.checkForwardProgress(r, tile - r * NPORTS, g, v, now);
        continue;
      }
      this.portF64[(g << P_F64_SHIFT) | (P_BLOCKED + v)] = -1;
      this.portI32[(g << P_I32_SHIFT) | (P_CREDITS + v)] -= this.store.length[packet];
      this.outRR[tile] = (c + 1) & 15;
      this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = packet;
      this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE] = candidate;
      this.startCopy(g, now, OUTPUT_STAGES);
      this.advanceLink(g, now);
      return;
    }
    if (wakeAt !== NEVER) this.wakeLink(g, wakeAt);
  }

  /** A dead port's sender drops the head packet's phits as they arrive (§7.7). */
  private dropAtDeadPort(tile: number, buffer: number, s: number, packet: number, g: number, now: number): void {
    const pool = this.pool;
    let taken = pool.sentOutOf(s);
    const sent = pool.sentInOf(s);
    const first = taken;
    while (taken < sent && pool.usable(s, taken) <= now) taken++;
    pool.setSentOut(s, taken);
    this.outputs.drain(buffer, taken - first);
    // Room appears in the column buffer at once, and either VC of its channel may be waiting for
    // it (they share the buffer, §3).
    this.wakeColumn(buffer >> VC_SHIFT, now);
    if (taken === this.store.length[packet]) {
      this.shiftColumnBuffer(buffer);
      this.store.discard(packet, this.discardReason[g] || DiscardReason.LinkDown, g, now);
    }
    // A visit drops from one column buffer, the first in round-robin order with a phit to drop;
    // the next cycle's visit looks at them all again, as a visit every cycle would.
    if (this.outputHasWork(tile)) this.wakeLink(g, now + 1);
  }

  /** Sets the probability that a packet passing through router `chip` is corrupted (§4.3). */
  setSoftErrorRate(chip: number, rate: number): void {
    const r = this.chipRouter[chip] ?? -1;
    if (r < 0) throw new RangeError(`chip ${chip} is not a router`);
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`a soft-error rate is a probability in [0, 1], got ${rate}`);
    this.softErrorRate[r] = rate;
  }

  /** §7.7: a sender that cannot make progress for the programmed time interrupts the
   * maintenance controller and starts discarding packets for that port. */
  private checkForwardProgress(r: number, o: number, g: number, v: number, now: number): void {
    const key = (g << P_F64_SHIFT) | (P_BLOCKED + v);
    if (this.portF64[key] < 0) this.portF64[key] = now;
    const due = this.portF64[key] + this.regs.forwardProgressTimer[r * NPORTS + o];
    if (this.discarding[g]) return;
    if (now >= due) {
      this.discarding[g] = 1;
      this.discardReason[g] = DiscardReason.ForwardProgressTimeout;
      this.interrupt('FORWARD_PROGRESS_TIMEOUT', now, this.routerChip[r], o, v);
      this.wakeLink(g, now + 1);
    } else this.wakeLink(g, due);
  }

  // ---------------------------------------------------------------- subswitches
  /**
   * First-stage arbitration (§3): the column channel from the subswitch at (row, o&7) to output o
   * takes one phit per cycle from one of the 8 row buffers × 2 VCs of that subswitch whose head
   * packet is routed to o, round robin; a column buffer holds one packet per VC at a time.
   */
  private stepColumn(channel: number, now: number): void {
    const ch = channel << CH_I32_SHIFT;
    const busy = this.chF64[(channel << CH_F64_SHIFT) | CH_BUSY];
    if (now < busy) {
      this.wakeColumn(channel, busy);
      return;
    }
    const state = this.chI32[ch | CH_STATE];
    const want = state & CH_WANT_BITS;
    if (want === 0) return;
    const pool = this.pool;
    const tileOut = channel >> 3;
    const row = channel & 7;
    const r = (tileOut / NPORTS) | 0;
    const base = r * NPORTS;
    const column = (tileOut - base) & 7;
    let wakeAt = NEVER;
    // Round robin over the wanting row buffers only: rotate the mask so the pointer is bit 0.
    const start = (state >>> CH_RR_SHIFT) & 15;
    for (let rotated = fromPointer(want, start); rotated !== 0; rotated &= rotated - 1) {
      const c = (start + lowestBit(rotated)) & 15;
      const input = row * 8 + (c >> 1);
      const v = c & 1;
      const cbv = (channel << VC_SHIFT) | v;
      const owner = ((this.chI32[ch | CH_OWNERS] >>> (8 * v)) & 0xff) - 1;
      if (owner !== -1 && owner !== input) continue; // its own run's end wakes the channel
      const room = this.columnRoom(cbv, now);
      if (room <= 0) {
        this.chI32[ch | CH_STATE] |= 1 << (CH_WAIT_SHIFT + v);
        // Room appears as the output link's run drains this channel's buffers; else the link's
        // next run from them announces it (the link may be busy with another row's buffer).
        const at = this.columnRoomAppears(cbv, now);
        if (at < wakeAt) wakeAt = at;
        continue;
      }
      const rbIndex = (((base + input) * 8 + column) << VC_SHIFT) | v;
      const seg = this.rb.headOf(rbIndex);
      const taken = pool.sentOutOf(seg);
      const sent = pool.sentInOf(seg);
      if (taken >= sent) continue; // the row bus wakes it
      const u = pool.usable(seg, taken);
      if (u > now) {
        if (u < wakeAt) wakeAt = u;
        continue;
      }
      // The row buffer's read port may be busy with a run of its other VC to another channel.
      const readFree = max(this.rb.timeOf(rbIndex), this.rb.timeOf(rbIndex ^ 1));
      if (readFree > now) {
        if (readFree < wakeAt) wakeAt = readFree;
        continue;
      }
      // The run goes on while the output link's committed run keeps making room: a packet longer
      // than the column buffer then moves in one run paced by the link, not a phit per visit.
      let n = pool.usableRun(seg, taken, sent, now);
      for (let j = room; j < n; j++)
        if (j >= this.columnRoom(cbv, now + j)) {
          n = j;
          break;
        }
      // Where the next phit must wait (for room, as a slower link drains the buffer, or to arrive),
      // the run waits with it when nothing else could use the channel meanwhile: what a visit per
      // phit would do. Its departures from the row buffer are marked cycle by cycle (`drain`, back
      // from the last). Room is waited for only where the output link's committed run says exactly
      // when it comes: the buffer's other VC holds nothing (the link could start on one of its
      // packets and free shared room sooner), and the link is not sending this very packet (the
      // phits of this run it would take make room its committed run does not show yet).
      let last = now + n - 1;
      let drain = n >= 32 ? -1 : (1 << n) - 1;
      const packet = pool.packetOf(seg);
      const g = this.routerPortGlobal[tileOut];
      const tx = g << TX_I32_SHIFT;
      if (taken + n < sent && this.columnAlone(base, row, column, v)) {
        const roomKnown = this.columnOccupancy(cbv ^ 1, now) === 0 && !(this.txI32[tx | TX_SOURCE] === cbv && this.txI32[tx | TX_PACKET] === packet);
        while (taken + n < sent) {
          let t = max(last + 1, pool.usable(seg, taken + n));
          while (roomKnown && t < now + PACED_CYCLES && n >= this.columnRoom(cbv, t)) t++;
          // A phit that waited goes only within those cycles; one right after the last goes on
          // the run as it would have anyway (a run holds the channel while its phits come one per
          // cycle). The drain mask spans 32 cycles.
          if ((t > last + 1 && t >= now + PACED_CYCLES) || t - now >= 32 || n >= this.columnRoom(cbv, t)) break;
          drain = (drain << (t - last)) | 1;
          last = t;
          n++;
        }
      }
      if (taken === 0) {
        const down = pool.allocate(packet, now, CB_DELAY);
        this.outputs.push(cbv, down);
        this.cbMask[channel >> 3] |= 1 << (cbv & 15);
        this.chI32[ch | CH_OWNERS] = (this.chI32[ch | CH_OWNERS] & ~(0xff << (8 * v))) | ((input + 1) << (8 * v));
      }
      // Every run of a traced packet, with the input whose row buffer it leaves: a run's phits
      // leave from `now` on, one per cycle but where it waited.
      if (this.store.flags[packet] & FLAG_TRACE)
        this.trace(packet, this.routerChip[r], tileOut - base, v, 'column-buffer', now, `from row ${row}, input ${input}, ${n} phits`);
      this.chI32[ch | CH_STATE] &= ~(1 << (CH_WAIT_SHIFT + v));
      const down = this.outputs.tailOf(cbv);
      if (last === now + n - 1) pool.sendRun(down, now, n);
      else for (let j = last - now; j >= 0; j--) if ((drain >>> j) & 1) pool.sendAt(down, last - j);
      pool.setSentOut(seg, taken + n);
      this.rb.drain(rbIndex, n);
      this.rb.setDrain(rbIndex, last + 1, drain);
      this.outputs.fill(cbv, n);
      this.chF64[(channel << CH_F64_SHIFT) | CH_BUSY] = last + 1;
      // Room appears in the row buffer from now on, one phit per cycle; either VC of the row bus
      // may be waiting for it (they share the buffer).
      if (this.rowWait[rbIndex] | this.rowWait[rbIndex ^ 1]) {
        this.rowWait[rbIndex] = 0;
        this.rowWait[rbIndex ^ 1] = 0;
        // When the bus can use the room: its next phit there, its own run done (it waits again if
        // this run's room is not enough).
        const at = this.rowNextWake(base + input, max(now, this.rowBusy[base + input]));
        if (at !== NEVER) this.wakeRow(base + input, at);
      }
      if (taken + n === this.store.length[packet]) {
        this.shiftRowBuffer(r, rbIndex, now);
        this.chI32[ch | CH_OWNERS] &= ~(0xff << (8 * v));
      }
      this.chI32[ch | CH_STATE] = (this.chI32[ch | CH_STATE] & ~(15 << CH_RR_SHIFT)) | (((c + 1) & 15) << CH_RR_SHIFT);
      // The output link sends what the channel commits. When it is already sending this packet
      // from this buffer, it holds it to the tail (VCT) and takes each phit as it becomes usable,
      // so its run is extended now with what its next visit would send; otherwise the first
      // phit's arrival wakes it.
      if (this.txI32[tx | TX_SOURCE] === cbv && this.txI32[tx | TX_PACKET] === packet && this.txI32[tx | TX_DOWN] >= 0 && this.fabric.activeLanes[g] > 0) {
        this.advanceLink(g, max(now, this.txF64[(g << TX_F64_SHIFT) | TX_BUSY]));
        // The copy is all committed: the output arbitrates again once its tail is out, if another
        // packet waits for it (one that comes later wakes it itself).
        if (this.txI32[tx | TX_PACKET] < 0 && this.outputHasWork(tileOut)) this.wakeLink(g, this.txF64[(g << TX_F64_SHIFT) | TX_BUSY]);
      } else if (this.txI32[tx | TX_PACKET] < 0 || this.fabric.activeLanes[g] === 0 || this.txI32[tx | TX_DOWN] <= DOWN_CUT) {
        // An idle output arbitrates once the first phit is usable and the link has sent its last
        // run; one that holds another packet (or waits to replay one) wakes itself, and arbitrates
        // again, with this buffer among its candidates, when that packet's tail is committed. A
        // dead one, or one dropping the rest of a cut packet, drops the phit once it is usable.
        const dropping = this.fabric.activeLanes[g] === 0 || this.txI32[tx | TX_DOWN] <= DOWN_CUT;
        this.wakeLink(g, dropping ? now + CB_DELAY : max(now + CB_DELAY, this.txF64[(g << TX_F64_SHIFT) | TX_BUSY]));
      }
      wakeAt = this.columnNextWake(channel, last + 1);
      break;
    }
    if (wakeAt !== NEVER) this.wakeColumn(channel, wakeAt);
  }

  /**
   * Whether only the packet holding VC v of column channel (row, column) of the router whose first
   * tile is `base` can use the channel in the next PACED_CYCLES: the row buffers of the other VC
   * feeding it are empty (those of VC v wait for the packet's tail, wormhole), and a packet a row
   * bus puts in one now is not through the row bus and subswitch before then.
   */
  private columnAlone(base: number, row: number, column: number, v: number): boolean {
    for (let q = 0; q < 8; q++) if (this.rb.headOf((((base + row * 8 + q) * 8 + column) << VC_SHIFT) | (v ^ 1)) >= 0) return false;
    return true;
  }

  /**
   * When a column channel next may move a phit, from cycle `after` on: the earliest cycle at which
   * a row buffer that wants it has a usable phit, its read port free and room for it in the
   * column buffer — as far as the committed runs tell. A row buffer whose VC is held by another
   * input's packet waits for that packet (its own row buffer is a candidate). Where the committed
   * runs make no room, the channel is marked waiting for room, so that the output link's next run
   * from its buffers wakes it: a visit that could only find the buffer full is not made.
   */
  private columnNextWake(channel: number, after: number): number {
    let at = NEVER;
    for (let bits = this.chI32[(channel << CH_I32_SHIFT) | CH_STATE] & CH_WANT_BITS; bits !== 0; bits &= bits - 1) {
      const t = this.columnCandidateWake(channel, lowestBit(bits), after, at);
      if (t < at) at = t;
    }
    return at;
  }

  /** When the row buffer of want bit `c` (input row*8 + c/2, VC c&1) may next move a phit through
   * the column channel, from `after` on (NEVER if not before `before`); see columnNextWake. */
  private columnCandidateWake(channel: number, c: number, after: number, before: number): number {
    const t = this.columnCandidateReady(channel, c, after, before);
    if (t === NEVER) return NEVER;
    const cbv = (channel << VC_SHIFT) | (c & 1);
    if (this.columnRoom(cbv, t) > 0) return t;
    this.chI32[(channel << CH_I32_SHIFT) | CH_STATE] |= 1 << (CH_WAIT_SHIFT + (c & 1));
    return this.columnRoomAppears(cbv, t);
  }

  /** columnCandidateWake but for room in the column buffer: when the row buffer's VC of the channel
   * is free (or held by its own packet), its next phit usable and its read port free. */
  private columnCandidateReady(channel: number, c: number, after: number, before: number): number {
    const input = (channel & 7) * 8 + (c >> 1);
    const tileOut = channel >> 3;
    const base = ((tileOut / NPORTS) | 0) * NPORTS;
    const rbIndex = (((base + input) * 8 + ((tileOut - base) & 7)) << VC_SHIFT) | (c & 1);
    const pool = this.pool;
    const seg = this.rb.headOf(rbIndex);
    const taken = pool.sentOutOf(seg);
    if (taken >= pool.sentInOf(seg)) return NEVER;
    const t = this.columnReadFrom(channel, input, rbIndex, max(after, pool.usable(seg, taken)));
    return t < before ? t : NEVER;
  }

  /** When column channel `channel` may read row buffer rbIndex (of `input`) for a phit usable at
   * `usable`: once the channel's VC is free or held by that input's packet (NEVER otherwise) and
   * the buffer's read port has finished its last run. */
  private columnReadFrom(channel: number, input: number, rbIndex: number, usable: number): number {
    const owner = ((this.chI32[(channel << CH_I32_SHIFT) | CH_OWNERS] >>> (8 * (rbIndex & 1))) & 0xff) - 1;
    if (owner !== -1 && owner !== input) return NEVER;
    return max(usable, this.rb.timeOf(rbIndex), this.rb.timeOf(rbIndex ^ 1));
  }

  /**
   * Wakes column channel `channel` for the new head of the row buffer of want bit `c`: when it
   * can take its first phit, once the channel's run is done. Room in the column buffer is left to
   * that visit: a new head mostly finds it, and predicting it here cost more than the few visits
   * that find the buffer full (they mark the channel waiting, as the prediction would have).
   */
  private wakeForHead(channel: number, c: number, now: number): void {
    const at = this.columnCandidateReady(channel, c, max(now, this.chF64[(channel << CH_F64_SHIFT) | CH_BUSY]), NEVER);
    if (at !== NEVER) this.wakeColumn(channel, at);
  }

  /** Keeps the channels' want bits in step with the head of a row buffer; a new head wakes its column channel
   * when its first phit can go (see wakeForHead). */
  private setWant(r: number, rbIndex: number, on: boolean, now: number): void {
    const s = this.rb.headOf(rbIndex);
    if (s < 0) return;
    const o = this.pool.routeOf(s);
    const v = rbIndex % NVC;
    const input = ((rbIndex / NVC / 8) | 0) - r * NPORTS;
    const channel = (r * NPORTS + o) * 8 + (input >> 3);
    const bit = 1 << (((input & 7) << 1) | v);
    if (on) {
      this.chI32[(channel << CH_I32_SHIFT) | CH_STATE] |= bit;
      this.wakeForHead(channel, ((input & 7) << 1) | v, now);
    } else this.chI32[(channel << CH_I32_SHIFT) | CH_STATE] &= ~bit;
  }

  private shiftRowBuffer(r: number, rbIndex: number, now: number): void {
    this.setWant(r, rbIndex, false, now);
    this.rb.shift(rbIndex);
    this.setWant(r, rbIndex, true, now);
  }

  // ---------------------------------------------------------------- row buses and routing
  /**
   * Input tile's row bus: routes the head packet of each VC once its header has been through the
   * input stages, then carries one phit per cycle to the row buffer of the chosen column, from
   * one VC at a time, round robin.
   */
  private stepRowBus(tile: number, now: number): void {
    if (now < this.rowBusy[tile]) {
      this.wakeRow(tile, this.rowBusy[tile]);
      return;
    }
    const pool = this.pool;
    const r = (tile / NPORTS) | 0;
    const i = tile - r * NPORTS;
    let wakeAt = NEVER;
    for (let v = 0; v < NVC; v++) {
      const seg = this.inputs.headOf((tile << VC_SHIFT) | v);
      if (seg < 0 || pool.routeOf(seg) !== -1) continue;
      const at = pool.headTimeOf(seg) + INPUT_STAGES;
      if (now >= at) this.routeHead(r, i, v, seg, now);
      else if (at < wakeAt) wakeAt = at;
    }
    const first = this.rowBusRR[tile];
    for (let k = 0; k < NVC; k++) {
      const v = (first + k) & 1;
      const ibIndex = (tile << VC_SHIFT) | v;
      const seg = this.inputs.headOf(ibIndex);
      if (seg < 0) continue;
      const out = pool.routeOf(seg);
      if (out < 0) continue;
      const taken = pool.sentOutOf(seg);
      const sent = pool.sentInOf(seg);
      if (taken >= sent) continue; // the link wakes it
      const u = pool.usable(seg, taken);
      if (u > now) {
        if (u < wakeAt) wakeAt = u;
        continue;
      }
      const packet = pool.packetOf(seg);
      const length = this.store.length[packet];
      if (out >= NPORTS) {
        // Discarded at the head of the input queue: the phits are dropped as they arrive.
        let n = taken;
        while (n < sent && pool.usable(seg, n) <= now) n++;
        pool.setSentOut(seg, n);
        this.inputs.drain(ibIndex, n - taken);
        if (n === length) {
          if (out === CONSUME) this.consumeMaintenance(r, i, packet, now);
          this.finishInput(r, tile, ibIndex, seg, v, now, out !== CONSUME);
          // A maintenance request ends at the chip it was addressed to: delivered.
          if (out === CONSUME) this.store.deliver(packet);
          if (this.inputs.headOf(ibIndex) >= 0 && now + 1 < wakeAt) wakeAt = now + 1;
        } else if (n < sent) {
          const next = pool.usable(seg, n);
          if (next < wakeAt) wakeAt = next;
        }
        continue;
      }
      const rbIndex = ((tile * 8 + (out & 7)) << VC_SHIFT) | v;
      const room = this.rowRoom(rbIndex, now);
      if (room <= 0) {
        this.rowWait[rbIndex] = 1;
        // Room appears as the column channel's runs drain the buffer; else its next run announces it.
        const at = this.rowRoomAppears(rbIndex, now);
        if (at < wakeAt) wakeAt = at;
        continue;
      }
      if (taken === 0) {
        const down = pool.allocate(packet, now, RB_DELAY);
        pool.setRoute(down, out);
        const wasEmpty = this.rb.headOf(rbIndex) < 0;
        this.rb.push(rbIndex, down);
        if (wasEmpty) this.chI32[(((r * NPORTS + out) * 8 + (i >> 3)) << CH_I32_SHIFT) | CH_STATE] |= 1 << (((i & 7) << 1) | v);
        if (this.store.flags[packet] & FLAG_TRACE) this.trace(packet, this.routerChip[r], i, v, 'row-buffer', now, `column ${out & 7}`);
      }
      const down = this.rb.tailOf(rbIndex);
      // As on the column channel, the run goes on while the column channel's committed run keeps
      // making room in the row buffer (room predicted now can only be less than what the column
      // channel will have made by then). Phits that arrive with gaps between them, from a link
      // slower than the row bus, go in the same run as each arrives when nothing else could use
      // the bus in the gaps — what a visit per phit would do.
      const paced = this.rowBusAlone(tile, v);
      // The loop counts cycles from `origin`, the cycle from which the input segment's head is
      // usable: its phits' offsets are then their usable cycles, in small integers (see
      // advanceLink).
      const origin = pool.headTimeOf(seg);
      let n = 1;
      let lastRel = (now - origin) | 0;
      // The run's send times are written a gapless stretch at a time: phits [written, n) go one
      // per cycle from `stretch`.
      let stretch = lastRel;
      let written = 0;
      while (taken + n < sent) {
        const k = taken + n;
        let t = lastRel + 1;
        const u = pool.offsetOf(seg, k);
        if (u > t) {
          if (!paced) break;
          t = u;
        }
        if (n >= room && n >= this.rowRoom(rbIndex, origin + t)) break;
        if (t !== lastRel + 1) {
          pool.sendRun(down, origin + stretch, n - written);
          written = n;
          stretch = t;
        }
        n++;
        lastRel = t;
      }
      pool.sendRun(down, origin + stretch, n - written);
      const last = origin + lastRel;
      pool.setSentOut(seg, taken + n);
      this.inputs.drain(ibIndex, n);
      this.rb.fill(rbIndex, n);
      this.rowWait[rbIndex] = 0;
      if (this.rb.headOf(rbIndex) === down) {
        // A new head: its column channel may take it once it is through the row bus and the
        // subswitch and the channel's run is done (the visit then looks for room).
        const channel = (r * NPORTS + out) * 8 + (i >> 3);
        if (taken === 0) {
          // wakeForHead for a head nothing has been taken from: its first phit went now.
          const at = this.columnReadFrom(channel, i, rbIndex, max(now + RB_DELAY, this.chF64[(channel << CH_F64_SHIFT) | CH_BUSY]));
          if (at !== NEVER) this.wakeColumn(channel, at);
        } else this.wakeForHead(channel, ((i & 7) << 1) | v, now);
      }
      if (taken + n === length) this.finishInput(r, tile, ibIndex, seg, v, last, false);
      this.rowBusRR[tile] = (v + 1) & 1;
      this.rowBusy[tile] = last + 1;
      wakeAt = this.rowNextWake(tile, last + 1);
      break;
    }
    if (wakeAt !== NEVER) this.wakeRow(tile, wakeAt);
  }

  /**
   * Whether only VC v's packet can use input tile's row bus until that packet's tail: the other
   * VC's queue is empty (or holds a copy with a bad CRC, which never moves), and no answer of the
   * chip's maintenance block is due to be put in it. Nothing else can arrive meanwhile: the link
   * into the tile is held by v's packet until its tail (virtual cut-through).
   */
  private rowBusAlone(tile: number, v: number): boolean {
    const other = this.inputs.headOf((tile << VC_SHIFT) | (v ^ 1));
    if (other >= 0 && this.pool.routeOf(other) !== -2) return false;
    return v === 1 || this.chipAnswers[tile] === 0;
  }

  /** When input tile's row bus next has something to do, from cycle `after` on: routing a head,
   * or moving phits already in its input buffer into a row buffer with room for them. Where the
   * committed runs make no room, the bus is marked waiting for it (rowWait), so that the column
   * channel's next run from that buffer wakes it. */
  private rowNextWake(tile: number, after: number): number {
    const pool = this.pool;
    let at = NEVER;
    for (let v = 0; v < NVC; v++) {
      const seg = this.inputs.headOf((tile << VC_SHIFT) | v);
      if (seg < 0) continue;
      const route = pool.routeOf(seg);
      let t = NEVER;
      if (route === -1) t = pool.headTimeOf(seg) + INPUT_STAGES;
      else if (route >= 0 && pool.sentOutOf(seg) < pool.sentInOf(seg)) t = pool.usable(seg, pool.sentOutOf(seg));
      if (t < after) t = after;
      if (route >= 0 && route < NPORTS && t < at) {
        // No room in the row buffer by then, as far as the column channel's committed runs tell:
        // wait for room (the channel's next run from it wakes the bus).
        const rbIndex = ((tile * 8 + (route & 7)) << VC_SHIFT) | v;
        if (this.rowRoom(rbIndex, t) <= 0) {
          this.rowWait[rbIndex] = 1;
          t = this.rowRoomAppears(rbIndex, t);
        }
      }
      if (t < at) at = t;
    }
    return at;
  }

  /** The routing decision at the head of input i's queue for VC v (§5). */
  private routeHead(r: number, i: number, v: number, seg: number, now: number): void {
    const d = this.decision;
    const packet = this.pool.packetOf(seg);
    const flags = this.store.flags[packet];
    if (this.routerDead[r]) {
      this.world.routeErrors.set(packet, DiscardReason.RouterDead);
      this.pool.setRoute(seg, NPORTS);
      return;
    }
    if (this.store.length[packet] > this.regs.maxPacketLength[r]) {
      // §4.3: the LCB clips a packet longer than the programmed maximum and marks it bad.
      this.world.routeErrors.set(packet, DiscardReason.Clipped);
      this.pool.setRoute(seg, NPORTS);
      return;
    }
    if (
      this.softErrorRate[r] > 0 &&
      !(flags & FLAG_SOFT_ERROR) &&
      keyedDraw(this.seed, DRAW_SOFT_ERROR, ((r * NPORTS + i) << VC_SHIFT) | v, now) < this.softErrorRate[r]
    ) {
      this.store.flags[packet] |= FLAG_SOFT_ERROR;
      this.interrupt('SOFT_ERROR', now, this.routerChip[r], i, v, { destination: this.store.destination[packet] });
    }
    if (flags & FLAG_TRACE) this.trace(packet, this.routerChip[r], i, v, 'input-buffer', now, `routed at the head of the input queue`);
    if (flags & FLAG_SOURCE_ROUTED) {
      this.routeSourceRouted(r, i, seg, packet);
      return;
    }
    if (this.routingUnit !== null) this.routingUnit.route(r, i, this.store.destination[packet], (flags & FLAG_ADAPTIVE) !== 0, d);
    else routeYarc(this.regs, r, i, this.store.destination[packet], this.store.hashBits[packet], (flags & FLAG_HASH) !== 0, (flags & FLAG_ADAPTIVE) !== 0, d);
    let port = -1;
    if (d.kind === ROUTE_PORT) port = d.port;
    else if (d.kind === ROUTE_ADAPTIVE) port = this.chooseAdaptive(r, i, d.portsLo, d.portsHi, now);
    if (port < 0) {
      this.raiseRouteError(r, i, v, d.kind);
      this.pool.setRoute(seg, NPORTS); // discard as it arrives
      return;
    }
    const g = this.routerPortGlobal[r * NPORTS + port];
    this.store.hops[packet]++;
    if (this.discarding[g]) {
      // The port has been shut (link down, forward-progress timeout): discard here (§7.7).
      this.world.routeErrors.set(packet, this.discardReason[g] || DiscardReason.LinkDown);
      this.pool.setRoute(seg, NPORTS);
    } else this.pool.setRoute(seg, port);
  }

  private raiseRouteError(r: number, i: number, v: number, kind: number): void {
    const s = this.inputs.headOf(((r * NPORTS + i) << VC_SHIFT) | v);
    const packet = this.pool.packetOf(s);
    let reason = DiscardReason.NoRoute;
    if (kind === ROUTE_DOWNWARD_VIOLATION) reason = DiscardReason.DownwardInvariant;
    else if (kind === ROUTE_ILLEGAL_MODULUS) reason = DiscardReason.IllegalModulus;
    else if (kind === ROUTE_NO_MATCH || kind === ROUTE_DOWN_UNMAPPED) reason = DiscardReason.NoRoute;
    this.world.routeErrors.set(packet, reason);
    if (reason === DiscardReason.DownwardInvariant || reason === DiscardReason.IllegalModulus) {
      this.interrupt('CONFIGURATION_ERROR', this.cycle, this.routerChip[r], i, v, {
        reason: reason === DiscardReason.DownwardInvariant ? 'downward invariant' : 'illegal port count for the hash modulo',
        destination: this.store.destination[packet],
      });
    }
  }

  /**
   * §7.8.3 adaptive choice: the column first, preferring columns whose row buffer (from this input)
   * is less than half full, round robin among equals; then the row within the column, preferring
   * outputs whose column buffer is almost empty, then half full, then almost full — round robin
   * among equals too, so that equally good ports share the traffic.
   */
  private chooseAdaptive(r: number, input: number, lo: number, hi: number, now: number): number {
    const tile = r * NPORTS + input;
    let columnMask = 0;
    for (let p = 0; p < 32; p++) if (lo & (1 << p)) columnMask |= 1 << (p & 7);
    for (let p = 0; p < 32; p++) if (hi & (1 << p)) columnMask |= 1 << (p & 7);
    if (columnMask === 0) return -1;
    const start = this.adaptiveColumnRR[tile];
    let column = -1;
    for (let pass = 0; pass < 2 && column < 0; pass++) {
      for (let k = 0; k < 8; k++) {
        const c = (start + k) & 7;
        if (!(columnMask & (1 << c))) continue;
        // §7.8.3: the most significant bit of the row buffer depth: at least half full.
        const depthIndex = (tile * 8 + c) * NVC;
        const half = this.rowOccupancy(depthIndex, now) + this.rowOccupancy(depthIndex + 1, now) >= ROW_BUFFER_PHITS / 2;
        if (pass === 0 && half) continue;
        column = c;
        break;
      }
    }
    this.adaptiveColumnRR[tile] = (column + 1) & 7;
    const inputRow = input >> 3;
    let best = -1;
    let bestLevel = 3;
    const rowStart = this.adaptiveRowRR[tile * 8 + column];
    for (let k = 0; k < 8; k++) {
      const row = (rowStart + k) & 7;
      const p = row * 8 + column;
      const set = p < 32 ? lo & (1 << p) : hi & (1 << (p - 32));
      if (!set) continue;
      const depthIndex = ((r * NPORTS + p) * 8 + inputRow) * NVC;
      const depth = this.columnOccupancy(depthIndex, now) + this.columnOccupancy(depthIndex + 1, now);
      // §7.8.3: 8 or more phits is almost full; more than 4 is half full; else almost empty.
      const level = depth >= 8 ? 2 : depth > 4 ? 1 : 0;
      if (level < bestLevel) {
        bestLevel = level;
        best = p;
      }
    }
    if (best >= 0) this.adaptiveRowRR[tile * 8 + column] = ((best >> 3) + 1) & 7;
    return best;
  }

  /** Zero-load latency of a packet of `length` phits through `routers` routers and the links
   * between (the pipeline model the tests compare against). */
  static zeroLoadCycles(routers: number, linkLatencies: number[], length: number, rate: number): number {
    let cycles = ENDPOINT_INJECT_CYCLES;
    for (const l of linkLatencies) cycles += l;
    cycles += routers * (IB_TO_RB + RB_TO_CB + OUTPUT_STAGES);
    return cycles + ceil((length - 1) / rate);
  }

  /** A source-routed packet takes the next port of its route vector; when the vector is used up,
   * this chip is the destination and its maintenance block takes the packet. */
  private routeSourceRouted(r: number, i: number, seg: number, packet: number): void {
    this.store.hops[packet]++;
    const port = this.store.nextSourceHop(packet, i);
    if (port < 0) {
      this.pool.setRoute(seg, CONSUME);
      return;
    }
    const g = port < NPORTS ? this.routerPortGlobal[r * NPORTS + port] : -1;
    if (g < 0 || this.fabric.peer[g] < 0) {
      this.world.routeErrors.set(packet, DiscardReason.NoRoute);
      this.pool.setRoute(seg, NPORTS);
    } else if (this.discarding[g] || this.fabric.activeLanes[g] === 0) {
      this.world.routeErrors.set(packet, this.discardReason[g] || DiscardReason.LinkDown);
      this.pool.setRoute(seg, NPORTS);
    } else this.pool.setRoute(seg, port);
  }

  protected executeAccess(r: number, message: MaintenanceMessage, arrivalPort: number): MaintenanceMessage {
    const chip = this.routerChip[r];
    // Identity: serial number, model, port count, and the port the request arrived on (so that a
    // discovery sweep learns both ends of every cable, as InfiniBand's NodeInfo LocalPortNum does).
    if (message.register === 'identity') return answerTo(message, [this.serials[chip], MODEL_YARC, NPORTS, arrivalPort]);
    if (message.register === 'portDirections' && message.op === 'write') {
      if (message.value.length !== NPORTS || message.value.some((d) => !Number.isInteger(d) || d < 0 || d > 3)) {
        return answerTo(message, [], 'rejected', 'portDirections takes 64 values 0..3');
      }
      for (let p = 0; p < NPORTS; p++) this.regs.portDirection[r * NPORTS + p] = message.value[p];
      return answerTo(message, []);
    }
    if (message.register === 'portDirections') {
      const directions: number[] = [];
      for (let p = 0; p < NPORTS; p++) directions.push(this.regs.portDirection[r * NPORTS + p]);
      return answerTo(message, directions);
    }
    if (message.register === 'portStates') {
      const lanes: number[] = [];
      for (let p = 0; p < NPORTS; p++) lanes.push(this.fabric.activeLanes[this.routerPortGlobal[r * NPORTS + p]]);
      return answerTo(message, lanes);
    }
    if (message.register === 'linkState') {
      if (message.index < 0 || message.index >= NPORTS) return answerTo(message, [], 'no-such-register', `linkState has ports 0..63`);
      return answerTo(message, [this.fabric.activeLanes[this.routerPortGlobal[r * NPORTS + message.index]]]);
    }
    const access = YARC_REGISTERS[message.register];
    if (!access) return answerTo(message, [], 'no-such-register', `YARC has no register "${message.register}"`);
    const indices = message.indices ?? [message.index];
    for (const index of indices) {
      if (!Number.isInteger(index) || index < 0 || index >= access.size) {
        return answerTo(message, [], 'no-such-register', `${message.register} has indices 0..${access.size - 1}, got ${index}`);
      }
    }
    if (message.op === 'read') return answerTo(message, access.read(this.regs, r, message.index));
    let problem: string | null = access.write ? null : 'read-only register';
    for (const index of indices) {
      if (problem) break;
      problem = access.write!(this.regs, r, index, message.value);
    }
    if (!problem && message.register === 'octantRate') {
      // Both directions of each link in the octant change speed.
      for (let p = message.index * 8; p < message.index * 8 + 8; p++) {
        const g = this.routerPortGlobal[r * NPORTS + p];
        this.refreshLink(g);
        if (this.fabric.peer[g] >= 0) this.refreshLink(this.fabric.peer[g]);
      }
    }
    return problem ? answerTo(message, [], 'rejected', problem) : answerTo(message, []);
  }

  // ---------------------------------------------------------------- the link layer's hooks (LinkEngine)
  /** A copy arriving at input tile `tile` is routed by its row bus. */
  protected wakeInput(tile: number, at: number): void {
    this.wakeRow(tile, at);
  }

  /** Room appears in column buffer `source` as an output link's run drains it; either VC of its
   * channel may be waiting for it (they share the buffer, §3). */
  protected outputDraining(source: number, from: number): void {
    const state = ((source >> 1) << CH_I32_SHIFT) | CH_STATE;
    if (this.chI32[state] & (3 << CH_WAIT_SHIFT)) {
      this.chI32[state] &= ~(3 << CH_WAIT_SHIFT);
      // When the channel can use the room: its own run done, a phit to move (it waits again
      // if this run's room is not enough).
      const channel = source >> VC_SHIFT;
      const at = this.columnNextWake(channel, max(from, this.chF64[(channel << CH_F64_SHIFT) | CH_BUSY]));
      if (at !== NEVER) this.wakeColumn(channel, at);
    }
  }

  protected outputPacketLeft(source: number): void {
    this.shiftColumnBuffer(source);
  }

  protected outputRoomNow(source: number, now: number): void {
    this.wakeColumn(source >> VC_SHIFT, now);
  }

  /** The octant's programmed rate: the eight tiles of an octant share one SerDes rate (§4.4). */
  protected laneRateLimit(g: number): number {
    const tile = this.globalRouterPort[g];
    return this.regs.octantRateGbps[((tile / NPORTS) | 0) * 8 + ((tile % NPORTS) >> 3)];
  }

  protected laneRetryThreshold(g: number): number {
    return this.regs.laneRetryThreshold[this.globalRouterPort[g]];
  }

  /** A processor's interface answers its identity: serial number, model, port count, the port
   * the request came in on, and its processor number. */
  protected endpointIdentity(chip: number, port: number, processor: number): number[] {
    return [this.serials[chip], MODEL_PROCESSOR, 4, port, processor];
  }

  protected maintenancePhits(message: MaintenanceMessage): number {
    return maintenancePacketPhits(message);
  }

  protected resetRouter(r: number): void {
    this.regs.resetRouter(r);
  }
}

walkedState(YarcFabricSim, [
  // Scratch space.
  'decision',
]);
