/**
 * A BlackWidow fabric of YARC routers and processor endpoints, cycle by cycle (paper 000 §3–§5,
 * §7.5, §7.7). Each cycle the stages that can act are evaluated downstream first — output links,
 * then column channels (subswitches), then row buses and routing — so a phit moves through at
 * most one stage per cycle; links deliver into the future, so routers never see each other's
 * same-cycle state. Stages sleep until an event can let them act (see `step`): an idle stage,
 * router or endpoint costs nothing.
 *
 * Buffers (all per VC): input buffer per port (VCT across links, credits reserved per packet),
 * 8 row buffers per tile (one per input of its row) and 8 column buffers per output (one per
 * subswitch row), both wormhole. A packet takes its output column at the head of the input queue,
 * the row within the column at the subswitch; the output port arbitrates between its 8 column
 * buffers and the two VCs.
 */
import type { FabricEngine, InterruptListener } from '../engine/fabric-engine';
import type { InterruptKind } from '@weft/fabric-model';
import { keyedDraw } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import {
  DiscardReason,
  FLAG_ADAPTIVE,
  FLAG_HASH,
  FLAG_LINK_LOST,
  FLAG_LOCAL,
  FLAG_SOFT_ERROR,
  FLAG_SOURCE_ROUTED,
  FLAG_TRACE,
  PacketQueues,
  PacketStore,
  STATE_IN_NETWORK,
  TraceEvent,
} from '../engine/packet-store';
import { MODEL_PROCESSOR, MODEL_YARC, YARC_REGISTERS } from './yarc-register-map';
import {
  BufferQueues,
  MAX_PACKET_PHITS,
  SEGMENT_DELAY,
  SEGMENT_INLINE_PHITS,
  SEGMENT_OFFSET,
  SEGMENT_SENT_IN,
  SEGMENT_WORD_SHIFT,
  SegmentPool,
} from '../engine/segment-pool';
import { FabricPackets } from '../engine/fabric-packets';
import { exportState, importState, SharedState, walkedState } from '../engine/shared-state';
import { StageQueue } from '../engine/stage-queue';
import { TimingWheel } from '../engine/timing-wheel';
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
} from './yarc-routing';
import { shared, sharedFrom } from '../engine/shared-memory';

// The hot paths reach these through module constants, not the global object: inside a vm
// context (Jest's test environment) every global look-up is an intercepted property access, and
// an all-pairs run on the 1024-processor fabric took 11 s there instead of 2.8 s.
const { ceil, clz32, max, min, pow } = Math;
const NEVER = Infinity;

// Module-level copies of the chip constants: the hot loops read locals, not another module's exports.
const NVC = VCS;
/** A buffer's index per VC is (its index << VC_SHIFT) | v: NVC is 2. */
const VC_SHIFT = 1;
const NPORTS = PORTS;
const INPUT_STAGES = STAGES_INPUT_QUEUE;
const ROW_BUS_STAGES = STAGES_ROW_BUS;
const OUTPUT_STAGES = STAGES_OUTPUT;
const SEG_SHIFT = SEGMENT_WORD_SHIFT;
const SEG_SENT_IN = SEGMENT_SENT_IN;
const SEG_DELAY = SEGMENT_DELAY;
const SEG_OFFSET = SEGMENT_OFFSET;
const SEG_INLINE = SEGMENT_INLINE_PHITS;
const MAX_PHITS = MAX_PACKET_PHITS;

/** SerDes + LCB latency at each end of a link, and signal propagation in cable (~5 ns/m). */
export const LINK_FIXED_NS = 10;
export const CABLE_NS_PER_METER = 5;
/** A processor's network interface: receive buffer per VC, and its latency to inject. */
export const ENDPOINT_RECEIVE_PHITS = 256;
export const ENDPOINT_INJECT_CYCLES = 4;

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

/** The fabric's random events, each drawn for itself from the seed (keyedDraw): whether a copy on
 * a port fails its CRC, the lane a retry on a port is counted against, and whether a router
 * corrupts the packet it routes at an input VC — each keyed by the port or input VC and the cycle,
 * so that the order in which stages are visited, or parts are run, changes none of them. */
const DRAW_BAD_COPY = 1;
const DRAW_RETRY_LANE = 2;
const DRAW_SOFT_ERROR = 3;

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

/** Link control block records (see `txF64`): 64 bytes, in Float64 and Int32 slots. */
const TX_RECORD_BYTES = 64;
const TX_F64_SHIFT = 31 - clz32(TX_RECORD_BYTES / 8);
const TX_I32_SHIFT = 31 - clz32(TX_RECORD_BYTES / 4);
const TX_BUSY = 0;
const TX_ACC = 1;
const TX_ACC_TIME = 2;
const TX_DRAIN_FIRST = 3;
const TX_DRAIN_LAST = 4;
const TX_PACKET = 10;
const TX_DOWN = 11;
/** TX_DOWN of a sender whose link died mid-packet, while it drops the rest of the packet as it
 * comes — even if the link is back meanwhile, since a packet's rest cannot go on without its head:
 * the copy went on downstream (DOWN_CUT), which ends the packet, or the receiver dropped it
 * (DOWN_DROPPED), and the sender ends the packet once the rest is gone. */
const DOWN_CUT = -2;
const DOWN_DROPPED = -3;
const TX_SOURCE = 12;
const TX_SENT = 13;
const TX_DRAIN_BUFFER = 14;
const TX_DRAIN = 15;
const TX_SENT_BITS = 0xff;
const TX_BAD_SHIFT = 8;
/** TX_DRAIN packs the drain record's phit count (up to MAX_PACKET_PHITS) under its slot + 1 (0: none). */
const DRAIN_COUNT_BITS = 6;
const DRAIN_COUNT_MASK = (1 << DRAIN_COUNT_BITS) - 1;
/** Int32s per drain-record slot: a pair per phit. */
const DRAIN_SLOT_INTS = 2 * MAX_PACKET_PHITS;

/**
 * The sender side of each global port in one 64-byte record (portF64 / portI32 over the same
 * bytes), since a packet leaving by a port touches all of it: float64 slots P_RATE (phits per
 * cycle), P_PHITS + v (phits sent on VC v, for utilisation reports) and P_BLOCKED + v (since when
 * VC v has had a packet it could not send; -1: not blocked); int32 slots P_LATENCY (cycles),
 * P_CREDITS + v, P_CREDIT_WAIT + v (1 while VC v waits for credits: their return wakes the
 * sender) and P_ERROR_PRONE (a lane has a bit-error rate). As separate arrays they cost a cache
 * miss each per hop on a fabric far larger than the cache.
 */
const PORT_RECORD_BYTES = 64;
const P_F64_SHIFT = 31 - clz32(PORT_RECORD_BYTES / 8);
const P_I32_SHIFT = 31 - clz32(PORT_RECORD_BYTES / 4);
const P_RATE = 0;
const P_PHITS = 1;
const P_BLOCKED = 3;
const P_LATENCY = 10;
const P_CREDITS = 11;
const P_CREDIT_WAIT = 13;
const P_ERROR_PRONE = 15;
/** Slot in portI32 of VC v's field `field` (P_CREDITS, P_CREDIT_WAIT) for key = ((g << VC_SHIFT) | v)
 * (NVC is 2: the key's low bit is the VC). */
const portVcI32 = (key: number, field: number): number => ((key >> 1) << P_I32_SHIFT) | (field + (key & 1));

/** Phases of a cycle, in evaluation order. */
const PHASE_EVENTS = 0;
const PHASE_LINKS = 1;
const PHASE_COLUMNS = 2;
const PHASE_ROWS = 3;

/** A 16-requester round-robin arbiter's request mask rotated so that its pointer is bit 0: the
 * set bits, lowest first, are the requesters in the order the arbiter considers them. */
const fromPointer = (mask: number, pointer: number): number => ((mask >>> pointer) | (mask << (16 - pointer))) & 0xffff;
const lowestBit = (mask: number): number => 31 - clz32(mask & -mask);

/** Cycles a chip's maintenance block takes to execute a register access (§4.1). */
export const MAINTENANCE_PROCESS_CYCLES = 16;
const CONSUME = PORTS + 1;

/** The payload of a maintenance packet (a source-routed packet, §4.1). */
export interface MaintenanceMessage {
  readonly requestId: number;
  readonly op: 'read' | 'write' | 'response';
  readonly register: string;
  readonly index: number;
  /** For a write to several indices at once (e.g. every tile of a virtual router): all of them;
   * `index` is then the first. */
  readonly indices?: readonly number[];
  readonly value: readonly number[];
  /** Set on responses: what went wrong at the chip, if anything. */
  readonly error?: 'no-such-register' | 'rejected';
  readonly detail?: string;
}

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

/** The answer to a maintenance request: its value, or why it failed. */
function answerTo(request: MaintenanceMessage, value: readonly number[], error?: MaintenanceMessage['error'], detail?: string): MaintenanceMessage {
  return { requestId: request.requestId, op: 'response', register: request.register, index: request.index, value, error, detail };
}

/** A stable serial number for a chip (its identity register), so the control plane can tell
 * chips apart without ever seeing the emulator's names for them. */
export function chipSerial(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export type InterruptSink = InterruptListener;

export interface DeliveryRecord {
  (packet: number, cycle: number): void;
}

export class YarcFabricSim implements FabricEngine {
  /** The YARC clock (paper 000 §4: 800 MHz). */
  readonly nsPerCycle = NS_PER_CYCLE;
  /** VCs per port (requests and responses). */
  readonly vcs = NVC;
  readonly regs: YarcRegisterFile;
  /** The packets of every part, as the rest of the emulator sees them (handles, the books). */
  readonly packets: FabricPackets;
  /**
   * Each part's own packets, buffer entries, drain records and counters (PartWorld): a part run on
   * a thread of its own allocates from nothing another part uses. `world`, `store` and `pool` are
   * the bound part's (see bind): the stages of a part touch only its own packets, so the hot code
   * reads them from fields as it would a fabric's single store.
   */
  private readonly worlds: PartWorld[];
  private world!: PartWorld;
  private store!: PacketStore;
  pool!: SegmentPool;
  /** The part bound (see bind). */
  private bound = -1;
  cycle = 0;

  /** Dense router and endpoint numbering over the fabric's chips. */
  readonly routerChip: Int32Array;
  readonly chipRouter: Int32Array;
  readonly endpointChip: Int32Array;
  readonly chipEndpoint: Int32Array;
  /** Global port of each router tile, and the tile (router*64+port) of each global port (-1 for endpoint ports). */
  readonly tileGlobal: Int32Array;
  readonly globalTile: Int32Array;
  /** Processor number of each endpoint port's chip (-1 for router ports). */
  readonly globalProcessor: Int32Array;
  /** Endpoint port of each processor and slice: processorPort[p*4+slice]. */
  readonly processorPort: Int32Array;

  private readonly ib: BufferQueues;
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
  private readonly cb: BufferQueues;
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
  /** Sender side of every global port (see PORT_RECORD_BYTES). */
  private readonly portF64: Float64Array;
  private readonly portI32: Int32Array;
  /** Per global port: packets routed here are discarded (link down or forward-progress timeout). */
  readonly discarding: Uint8Array;
  readonly discardReason: Uint8Array;
  /** Endpoint ports: receive buffers, and whether the processor takes phits from them. Their room
   * is the sender's credits alone (ENDPOINT_RECEIVE_PHITS), so their occupancy is not counted. */
  private readonly receive: BufferQueues;
  readonly accepting: Uint8Array;
  /** Credit returns on their way back to the senders (stage wake-ups are kept by the stage
   * queues, each on a wheel of its own). */
  private readonly wheels: TimingWheel[];
  private readonly decision = new RouteDecision();

  /**
   * Stages wake up through events (see `step` and StageQueue): a stage that cannot move anything
   * now is woken by whatever will let it — the phits it waits for becoming usable, room
   * downstream, credits, the end of its own run — so an idle stage costs nothing. Output links
   * (router outputs and endpoints, by global port), column channels and row buses (by tile), and
   * until when each column channel and row bus is busy with a run.
   */
  private readonly links: StageQueue;
  private readonly columns: StageQueue;
  private readonly rows: StageQueue;
  private readonly rowBusy: Float64Array;
  private phase = PHASE_EVENTS;
  /** Each port's part (an endpoint's port goes with its router): see independentParts. */
  private readonly linkPart: Uint8Array;

  /**
   * The link control block of every global port's transmit side (§4.3), one 64-byte record per
   * port (`txF64` and `txI32` over the same bytes; a link's fields are read together, and on a 32K
   * fabric an array per field cost a cache miss per field). Float64 slots: TX_BUSY, until when
   * the link is busy with the copy it is sending; TX_ACC and TX_ACC_TIME, the serialization
   * accumulator and the last cycle whose rate has been added to it; TX_DRAIN_FIRST and
   * TX_DRAIN_LAST, the first and last send times of the link's last run from a column buffer.
   * Int32 slots: TX_PACKET, the packet on the link (-1: none); TX_DOWN, the downstream segment of
   * the copy being sent; TX_SOURCE, where its phits come from (a column buffer, or -1 for the LCB's
   * own send buffer: endpoints and replays); TX_SENT, phits of the copy sent so far, with bit 8 set
   * when this copy will fail its CRC; TX_DRAIN_BUFFER and TX_DRAIN, the column buffer the last
   * run drew from, and its phit count with the slot of `drainPairs` that holds each phit's send
   * times. The drain record is kept here, not read from the downstream copy, because the next
   * router may be done with that copy — and reuse its entry — before the last of these phits has
   * left.
   */
  private readonly txF64: Float64Array;
  private readonly txI32: Int32Array;
  /** When a go-back-N replay starts. */
  private readonly txResumeAt: Float64Array;
  /**
   * Drain records' phits, a slot of MAX_PACKET_PHITS pairs per record, side by side (one cache
   * line per run, not two): [2k] when phit k leaves the column buffer, [2k+1] when it came in (for
   * bufferPhits), both from TX_DRAIN_FIRST. A record says something only until its last phit has
   * left, so slots are lent to links as they start runs and taken back, in turn, from links whose
   * runs are over: the slots in use are the links draining now, not every output of the fabric (on
   * a 32K fabric a slot per output was 192 MB, written page by page as the traffic first reached
   * each output). `drainOwner`: the link holding each slot (-1: none); `drainNext`: the next slot
   * to lend. It starts small, so that the tests holding this evaluation to the reference mode go
   * through its growing and its lending again.
   */
  private drainPairs!: Int32Array;
  /** Endpoint receive side: busy until, the cycle its last run took its last phit, and whether a
   * maintenance packet taken whole waits at the head of a receive buffer to be answered. */
  private readonly recvBusy: Float64Array;
  private readonly recvLast: Float64Array;
  private readonly recvHeld: Uint8Array;
  /** Per lane of every transmit port: bit-error rate, retry count, and which lanes are in service. */
  readonly laneBitErrorRate: Float64Array;
  readonly laneRetries: Uint32Array;
  readonly laneMask: Uint8Array;
  /** Routers that have stopped responding (fault injection): black holes behind dead links. */
  readonly routerDead: Uint8Array;
  /** Per router: probability that a packet passing through is corrupted (soft error, §4.3). */
  private readonly softErrorRate: Float64Array;
  /** Lane retry threshold of the processors' own link control blocks (a YARC's is a register). */
  endpointLaneRetryThreshold = 16;

  /** Maintenance packets in flight, by packet id (the store's ids are dense), and chip register
   * accesses being executed. */
  private readonly maintenance: (MaintenanceMessage | undefined)[] = [];
  /** Per input tile: maintenance answers the chip has yet to put in its input buffer (VC 1). */
  private readonly chipAnswers: Uint8Array;
  /**
   * Register accesses being executed, oldest first: every access takes MAINTENANCE_PROCESS_CYCLES
   * from its request's arrival, so arrival order is the order they are due. A ring of (due cycle,
   * arrival tile, answer packet); the request waits in the answer packet's `maintenance` slot.
   * Typed, not a list of objects: a 32K discovery queues half a million accesses.
   */
  private workDue = shared(Float64Array, 64);
  private workTile = shared(Int32Array, 64);
  private workAnswer = shared(Int32Array, 64);
  private workHead = 0;
  private workCount = 0;
  /** Serial number of every chip (identity register). */
  readonly serials: Uint32Array;
  /** Called when a maintenance response reaches an endpoint (the maintenance controller). */
  onMaintenance: (message: MaintenanceMessage, endpointPort: number, cycle: number) => void = () => undefined;
  /** Called once per cycle while set (the maintenance controller's timeouts). */
  onTick: ((cycle: number) => void) | null = null;

  /**
   * Reference mode: every stage is visited every cycle, as a plain cycle-by-cycle loop would do.
   * The event-driven evaluation skips the visits that cannot move anything; it must give the same
   * result, and a test holds it to that. Slow: for checking, not for running fabrics.
   */
  everyStageEveryCycle = false;

  /** Phits moved across links (a phit entering a router or an endpoint is one phit-hop). */
  get phitHops(): number {
    let n = 0;
    for (const world of this.worlds) n += world.phitHops;
    return n;
  }

  /** Copies replayed by go-back-N after a bad CRC. */
  get retransmissions(): number {
    let n = 0;
    for (const world of this.worlds) n += world.retransmissions;
    return n;
  }
  onInterrupt: InterruptSink = () => undefined;
  onDeliver: DeliveryRecord = () => undefined;

  constructor(
    readonly fabric: EmulatedFabric,
    readonly seed = 1,
  ) {
    const chips = fabric.design.chips;
    const routers: number[] = [];
    const endpoints: number[] = [];
    chips.forEach((c, i) => (c.kind === 'router' ? routers : endpoints).push(i));
    this.routerChip = sharedFrom(Int32Array, routers);
    this.endpointChip = sharedFrom(Int32Array, endpoints);
    this.chipRouter = shared(Int32Array, chips.length).fill(-1);
    this.chipEndpoint = shared(Int32Array, chips.length).fill(-1);
    routers.forEach((c, r) => (this.chipRouter[c] = r));
    endpoints.forEach((c, e) => (this.chipEndpoint[c] = e));
    const R = routers.length;
    const ports = fabric.portCount;
    this.regs = new YarcRegisterFile(R);
    this.tileGlobal = shared(Int32Array, R * NPORTS);
    this.globalTile = shared(Int32Array, ports).fill(-1);
    this.globalProcessor = shared(Int32Array, ports).fill(-1);
    for (let r = 0; r < R; r++) {
      for (let p = 0; p < NPORTS; p++) {
        const g = fabric.portBase[routers[r]] + p;
        this.tileGlobal[r * NPORTS + p] = g;
        this.globalTile[g] = r * NPORTS + p;
      }
    }
    let maxProcessor = -1;
    for (const c of endpoints) maxProcessor = max(maxProcessor, chips[c].processor);
    this.processorPort = shared(Int32Array, (maxProcessor + 1) * 4).fill(-1);
    for (const c of endpoints) {
      for (let p = 0; p < chips[c].portCount; p++) {
        const g = fabric.portBase[c] + p;
        this.globalProcessor[g] = chips[c].processor;
        this.processorPort[chips[c].processor * 4 + p] = g;
      }
    }

    const { routerPart, parts } = independentParts(fabric, this.chipRouter, this.tileGlobal);
    this.worlds = Array.from({ length: parts }, () => new PartWorld());
    this.packets = new FabricPackets(this.worlds.map((w) => w.packets));
    const { pool } = this.worlds[0];
    const channels = R * NPORTS * 8;
    this.ib = new BufferQueues(R * NPORTS * NVC, pool);
    this.rb = new BufferQueues(channels * NVC, pool, true);
    this.cb = new BufferQueues(channels * NVC, pool);
    this.cbMask = shared(Uint16Array, R * NPORTS);
    this.outRR = shared(Uint8Array, R * NPORTS);
    this.rowBusRR = shared(Uint8Array, R * NPORTS);
    this.adaptiveColumnRR = shared(Uint8Array, R * NPORTS);
    this.adaptiveRowRR = shared(Uint8Array, R * NPORTS * 8);
    const channelRecords = new SharedArrayBuffer(channels * CH_RECORD_BYTES);
    this.chF64 = new Float64Array(channelRecords);
    this.chI32 = new Int32Array(channelRecords);
    this.rowWait = shared(Uint8Array, channels * NVC);

    const portRecords = new SharedArrayBuffer(ports * PORT_RECORD_BYTES);
    this.portF64 = new Float64Array(portRecords);
    this.portI32 = new Int32Array(portRecords);
    for (let g = 0; g < ports; g++) for (let v = 0; v < NVC; v++) this.portF64[(g << P_F64_SHIFT) | (P_BLOCKED + v)] = -1;
    this.discarding = shared(Uint8Array, ports);
    this.discardReason = shared(Uint8Array, ports);
    let maxLatency = 1;
    for (let g = 0; g < ports; g++) {
      const peer = fabric.peer[g];
      if (peer < 0) continue;
      this.portF64[(g << P_F64_SHIFT) | P_RATE] = this.rateFor(g);
      const latency = max(1, ceil((LINK_FIXED_NS + CABLE_NS_PER_METER * fabric.lengthMeters[g]) / NS_PER_CYCLE));
      this.portI32[(g << P_I32_SHIFT) | P_LATENCY] = latency;
      maxLatency = max(maxLatency, latency);
      const downstreamIsEndpoint = this.globalTile[peer] < 0;
      for (let v = 0; v < NVC; v++)
        this.portI32[(g << P_I32_SHIFT) | (P_CREDITS + v)] = downstreamIsEndpoint ? ENDPOINT_RECEIVE_PHITS : INPUT_BUFFER_PHITS_PER_VC;
    }

    this.receive = new BufferQueues(ports * NVC, pool);
    this.accepting = shared(Uint8Array, ports).fill(1);
    // A go-back-N replay waits two link latencies; everything else is closer. Later wakes (the
    // forward-progress timer) are re-armed when they come due.
    const horizon = 3 * maxLatency + 128;
    this.linkPart = shared(Uint8Array, ports);
    for (let g = 0; g < ports; g++) {
      // An endpoint's port goes with the router it is cabled to.
      const tile = this.globalTile[g] >= 0 ? this.globalTile[g] : fabric.peer[g] >= 0 ? this.globalTile[fabric.peer[g]] : -1;
      this.linkPart[g] = tile >= 0 ? routerPart[(tile / NPORTS) | 0] : 0;
    }
    const columnPart = shared(Uint8Array, channels);
    for (let c = 0; c < channels; c++) columnPart[c] = routerPart[(c / (NPORTS * 8)) | 0];
    const rowPart = shared(Uint8Array, R * NPORTS);
    for (let t = 0; t < R * NPORTS; t++) rowPart[t] = routerPart[(t / NPORTS) | 0];
    this.wheels = Array.from({ length: parts }, () => new TimingWheel(horizon));
    this.links = new StageQueue(ports, horizon, PHASE_LINKS, this.linkPart);
    this.columns = new StageQueue(channels, horizon, PHASE_COLUMNS, columnPart);
    this.rows = new StageQueue(R * NPORTS, horizon, PHASE_ROWS, rowPart);
    this.partDoneAt = shared(Float64Array, parts);
    this.rowBusy = shared(Float64Array, R * NPORTS);
    this.chipAnswers = shared(Uint8Array, R * NPORTS);
    this.serials = sharedFrom(
      Uint32Array,
      chips.map((c) => chipSerial(c.name)),
    );
    const linkRecords = new SharedArrayBuffer(ports * TX_RECORD_BYTES);
    this.txF64 = new Float64Array(linkRecords);
    this.txI32 = new Int32Array(linkRecords);
    for (let g = 0; g < ports; g++) {
      this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = -1;
      this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = -1;
      this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE] = -1;
      this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER] = -1;
      this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] = -1;
    }
    this.txResumeAt = shared(Float64Array, ports);
    this.recvBusy = shared(Float64Array, ports);
    this.recvLast = shared(Float64Array, ports);
    this.recvHeld = shared(Uint8Array, ports);
    this.laneBitErrorRate = shared(Float64Array, ports * LANES);
    this.laneRetries = shared(Uint32Array, ports * LANES);
    this.laneMask = shared(Uint8Array, ports);
    for (let g = 0; g < ports; g++) this.laneMask[g] = (1 << fabric.activeLanes[g]) - 1;
    this.routerDead = shared(Uint8Array, R);
    this.softErrorRate = shared(Float64Array, R);
    this.sources = new PacketQueues(ports * NVC, this.worlds[0].packets);
    this.bind(0);
  }

  /** Binds part p's world: the store, pool and drain records its stages use. */
  private bind(p: number): void {
    if (p === this.bound) return;
    const world = this.worlds[p];
    this.bound = p;
    this.world = world;
    this.store = world.packets;
    this.pool = world.pool;
    this.drainPairs = world.drainPairs;
    this.ib.pool = world.pool;
    this.rb.pool = world.pool;
    this.cb.pool = world.pool;
    this.receive.pool = world.pool;
    this.sources.packets = world.packets;
  }

  /** Raises an interrupt; the bound part stays bound whatever the sink does. */
  private interrupt(kind: InterruptKind, cycle: number, chip: number, port: number, vc: number, details?: Record<string, unknown>): void {
    const part = this.bound;
    this.onInterrupt(kind, cycle, chip, port, vc, details);
    this.bind(part);
  }

  /** The handle (FabricPackets) of the bound part's packet `id`. */
  private handleOf(id: number): number {
    return this.packets.handle(this.bound, id);
  }

  // ---------------------------------------------------------------- threads (parallel/part-threads.ts)
  /** The whole fabric's state, for a thread that built the same fabric to take over. */
  sharedState(): SharedState {
    return exportState(this);
  }

  adoptSharedState(state: SharedState): void {
    importState(this, state);
    this.rebind();
  }

  /** What part p's run changed that is not in shared memory, or was moved in it (grown). */
  partState(p: number): SharedState {
    return {
      world: exportState(this.worlds[p]),
      wheel: exportState(this.wheels[p]),
      links: this.links.partState(p),
      columns: this.columns.partState(p),
      rows: this.rows.partState(p),
    };
  }

  adoptPartState(p: number, state: SharedState): void {
    importState(this.worlds[p], state.world as SharedState);
    importState(this.wheels[p], state.wheel as SharedState);
    this.links.adoptPartState(p, state.links as SharedState);
    this.columns.adoptPartState(p, state.columns as SharedState);
    this.rows.adoptPartState(p, state.rows as SharedState);
    this.rebind();
  }

  /** The parts have all run up to `cycle` (each on its own, see runPart). */
  advanceTo(cycle: number): void {
    this.cycle = cycle;
  }

  /** Binds the bound part afresh (its world's fields may have been replaced). */
  private rebind(): void {
    const part = max(0, this.bound);
    this.bound = -1;
    this.bind(part);
  }

  /**
   * Phits per cycle a port's link carries: lanes × rate / 24 bits, at 0.8 GHz (§4.1, §4.4). The
   * rate is the slowest of what the cable can be driven at and the octant rates programmed at
   * either end (the eight tiles of an octant share one SerDes rate).
   */
  private rateFor(g: number): number {
    let rate = this.fabric.rateGbps[g];
    for (const end of [g, this.fabric.peer[g]]) {
      if (end < 0) continue;
      const tile = this.globalTile[end];
      if (tile < 0) continue;
      const octantRate = this.regs.octantRateGbps[((tile / NPORTS) | 0) * 8 + ((tile % NPORTS) >> 3)];
      if (octantRate < rate) rate = octantRate;
    }
    return (this.fabric.activeLanes[g] * rate) / PHIT_BITS / YARC_CLOCK_GHZ;
  }

  /** Recomputes a port's serialization after a lane change (§7.7: a port runs 2- or 1-bit wide). */
  refreshLink(g: number): void {
    this.portF64[(g << P_F64_SHIFT) | P_RATE] = this.rateFor(g);
  }

  /** Port g's serialization rate: phits per cycle (0 on a dead link). */
  linkRateOf(g: number): number {
    return this.portF64[(g << P_F64_SHIFT) | P_RATE];
  }

  /** Port g's link latency in cycles. */
  linkLatencyOf(g: number): number {
    return this.portI32[(g << P_I32_SHIFT) | P_LATENCY];
  }

  /** Phits sent so far on each port and VC (index ((g << VC_SHIFT) | v)), for utilisation reports: a copy. */
  portPhits(): Float64Array {
    const ports = this.portF64.length >> P_F64_SHIFT;
    const out = new Float64Array(ports * NVC);
    for (let g = 0; g < ports; g++) for (let v = 0; v < NVC; v++) out[(g << VC_SHIFT) | v] = this.portF64[(g << P_F64_SHIFT) | (P_PHITS + v)];
    return out;
  }

  // ---------------------------------------------------------------- source queues (endpoints)
  /** Source queues of the endpoint ports, per VC: index g*NVC+v. */
  private readonly sources: PacketQueues;

  /** Creates a packet at processor `source`'s injection port for `slice` towards `destination`. */
  inject(source: number, slice: number, destination: number, length: number, vc: number, flags: number, hashBits: number, tag = 0): number {
    const g = this.processorPort[source * 4 + slice];
    if (this.windowPart >= 0 && g >= 0 && this.linkPart[g] !== this.windowPart)
      throw new Error(`processor ${source}'s slice ${slice} port is not in part ${this.windowPart}, which runWindowed is running on its own`);
    this.bind(this.partOfPort(g));
    const id = this.store.allocate(destination, g, length, vc, flags, hashBits, this.cycle, tag);
    if (g < 0 || this.fabric.peer[g] < 0 || this.fabric.activeLanes[g] === 0) {
      this.store.state[id] = STATE_IN_NETWORK;
      this.store.discard(id, DiscardReason.Unreachable, g, this.cycle);
      return this.handleOf(id);
    }
    this.sources.push((g << VC_SHIFT) | vc, id);
    // The sender takes it up when it is free. While the tail of the last copy is still being
    // serialized, a visit now could only arm a wake-up for when it is done: wake it for then.
    const busy = this.txF64[(g << TX_F64_SHIFT) | TX_BUSY];
    const serializing = busy > this.cycle && this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] < 0 && !this.discarding[g];
    this.wakeLink(g, serializing ? busy : this.cycle);
    return this.handleOf(id);
  }

  /** A processor stops or resumes taking phits from its receive buffers (fault injection). */
  setAccepting(g: number, accepting: boolean): void {
    this.accepting[g] = accepting ? 1 : 0;
    this.wakeLink(g, this.cycle);
  }

  // ---------------------------------------------------------------- the cycle
  /** Advances the fabric by `cycles` cycles. */
  run(cycles: number): void {
    for (let i = 0; i < cycles; i++) this.step();
  }

  /** How many independent parts the fabric has (see independentParts). */
  get parts(): number {
    return this.wheels.length;
  }

  /** Port g's part; 0 for no port (g < 0), whose packets are discarded as they are made. */
  partOfPort(g: number): number {
    return g >= 0 ? this.linkPart[g] : 0;
  }

  /** The port processor `endpoint` sends into slice `plane` by (-1: none). */
  endpointPort(endpoint: number, plane: number): number {
    return this.processorPort[endpoint * 4 + plane] ?? -1;
  }

  /** The processor whose port global port `g` is (-1: a router's). */
  endpointAt(g: number): number {
    return this.globalProcessor[g];
  }

  get portCount(): number {
    return this.globalProcessor.length;
  }

  isRouter(chip: number): boolean {
    return this.chipRouter[chip] >= 0;
  }

  /**
   * Runs `cycles` cycles with the same result as cycle by cycle, but the fabric's independent
   * parts (BlackWidow's four slices) one after another, each for up to `window` cycles on end: a
   * part's state then stays in the cache while it runs, where a cycle of the whole fabric sweeps
   * more state than the cache holds. `beforeCycle(part, cycle)` is called just before a part
   * evaluates a cycle, to inject that cycle's traffic into the part's ports (injecting into another
   * part's port then is an error). Deliveries are reported part by part, so their cycles go back
   * as each part's window starts.
   *
   * With `partDone`, the run ends early, after the first cycle at whose end `partDone(part)` holds
   * for every part — the cycle a loop of `step()` that asked after each cycle would end in. A part
   * is asked after each of its cycles, and must stay done once it is (a drained sample: nothing
   * labelled in flight, and nothing labelled made any more). Returns the cycles run.
   *
   * Where something acts across the parts (see partsIndependent), it runs cycle by cycle, calling
   * beforeCycle for every part before each cycle.
   *
   * Should `beforeCycle` or `partDone` throw, the parts are left at different cycles, which no
   * later cycle can mend: the fabric then refuses to run on (see `skewed`).
   */
  runWindowed(cycles: number, window: number, beforeCycle: (part: number, cycle: number) => void, partDone?: (part: number) => boolean): number {
    if (!(Number.isInteger(window) && window >= 1)) throw new RangeError(`window must be a whole number of cycles, at least 1: got ${window}`);
    this.checkNotSkewed();
    const start = this.cycle;
    const end = start + cycles;
    const parts = this.wheels.length;
    const doneAt = this.partDoneAt;
    while (this.cycle < end) {
      const from = this.cycle;
      if (!this.partsIndependent()) {
        for (let p = 0; p < parts; p++) beforeCycle(p, from);
        this.step();
        if (partDone !== undefined && this.allParts(partDone)) break;
        continue;
      }
      const until = min(end, from + window);
      let all = partDone !== undefined;
      this.windowCycles = 0;
      try {
        for (let p = 0; p < parts; p++) {
          doneAt[p] = this.runPart(p, from, until, beforeCycle, partDone);
          if (doneAt[p] < 0) all = false;
        }
        // Every part done: the run ends with the last of them; the others catch up to it. Else
        // the parts that were done early run on to the end of the window.
        let last = from;
        if (all) for (let p = 0; p < parts; p++) last = max(last, doneAt[p]);
        for (let p = 0; p < parts; p++) if (doneAt[p] >= 0 && doneAt[p] < (all ? last : until)) this.runPart(p, doneAt[p], all ? last : until, beforeCycle);
        this.cycle = all ? last : until;
      } catch (error) {
        // Nothing has run yet if the first part's first cycle threw: the fabric is as it was.
        if (this.windowCycles > 0) this.skewed = error instanceof Error ? error.message : String(error);
        this.cycle = from;
        throw error;
      }
      if (all) break;
    }
    return this.cycle - start;
  }

  /** Runs part p from cycle `from` up to `until`; with `partDone`, stops after the first cycle at
   * whose end the part is done and returns the cycle it stopped at (-1: not done). */
  runPart(p: number, from: number, until: number, beforeCycle: (part: number, cycle: number) => void, partDone?: (part: number) => boolean): number {
    this.windowPart = p;
    this.bind(p);
    try {
      for (let t = from; t < until; t++) {
        this.cycle = t;
        beforeCycle(p, t);
        this.fireEvents(p, t);
        this.evaluate(p, t);
        this.windowCycles++;
        if (partDone !== undefined && partDone(p)) return t + 1;
      }
      return -1;
    } finally {
      // Outside a part's run, a packet may be injected anywhere.
      this.windowPart = -1;
    }
  }

  private allParts(test: (part: number) => boolean): boolean {
    for (let p = 0; p < this.wheels.length; p++) if (!test(p)) return false;
    return true;
  }

  /** Part-cycles run in runWindowed's current window. */
  private windowCycles = 0;

  /** Per part, the cycle runWindowed found it done at (-1: not yet). */
  private readonly partDoneAt: Float64Array;

  /**
   * Set when an error in runWindowed's callbacks left the parts at different cycles: the error's
   * message. The fabric refuses to run on from such a state (it would go on with some parts ahead
   * of the others); it has to be built again.
   */
  skewed: string | null = null;

  private checkNotSkewed(): void {
    if (this.skewed !== null)
      throw new Error(
        `the fabric's parts were left at different cycles by an error during runWindowed (${this.skewed}); it cannot run on and must be built again`,
      );
  }

  /** The part runWindowed is running on its own (-1: none). */
  private windowPart = -1;

  /**
   * Whether the parts can run apart: nothing acts across them within a cycle — a maintenance
   * controller's per-cycle tick, maintenance packets and the chips' work on them, the reference
   * evaluation. (Bit and soft errors do not: each is drawn for its own port and cycle.)
   */
  partsIndependent(): boolean {
    return this.onTick === null && this.workCount === 0 && !this.everyStageEveryCycle && this.maintenanceInFlight === 0;
  }

  /** Nothing in flight, nothing being executed, no credit or timer pending. */
  idle(): boolean {
    let wakeUps = this.links.pending + this.columns.pending + this.rows.pending;
    for (const wheel of this.wheels) wakeUps += wheel.pending;
    return this.packets.inFlight === 0 && this.workCount === 0 && wakeUps === 0 && this.onTick === null;
  }

  /** Runs until nothing is in flight or `limit` cycles have passed; returns the cycles run. */
  drain(limit: number): number {
    const start = this.cycle;
    while (this.packets.inFlight > 0 && this.cycle - start < limit) this.step();
    return this.cycle - start;
  }

  /**
   * One cycle. Due events fire first (credit returns, wake-ups); then the stages that are awake,
   * downstream first — output links (and endpoints), column channels, row buses — so that room a
   * stage makes in its input buffer this cycle is seen by the stage feeding it this cycle, and a
   * phit moves through at most one stage per cycle. Links deliver into the future, so routers
   * never see each other's same-cycle state.
   *
   * A stage that wins arbitration moves a run: the consecutive phits of one packet that are
   * usable one per cycle from now on and fit downstream, each recorded with its own send time —
   * what the cycle-by-cycle machine would do over those cycles, since the stage is held by that
   * packet (wormhole; VCT on links) and nothing else can fill the room it reserved. The run stops
   * at the first phit that would not be there in time, leaving the stage free for the other VC.
   */
  step(): void {
    if (this.skewed !== null) this.checkNotSkewed();
    const now = this.cycle;
    this.phase = PHASE_EVENTS;
    const { wheels } = this;
    for (let p = 0; p < wheels.length; p++) {
      this.bind(p);
      this.fireEvents(p, now);
    }
    if (this.workCount > 0) this.runChipWork(now);
    if (this.onTick !== null) this.onTick(now);
    if (this.everyStageEveryCycle) this.wakeEveryStage(now);
    // The parts never act on each other within a cycle: each is evaluated on its own.
    for (let p = 0; p < wheels.length; p++) {
      this.bind(p);
      this.evaluate(p, now);
    }
    this.phase = PHASE_EVENTS;
    this.cycle = now + 1;
  }

  /** Part p's events due at cycle `now`: credit returns, and its stages' wake-ups. */
  private fireEvents(p: number, now: number): void {
    this.wheels[p].fire(now, this.returnedCredits);
    this.links.fire(p, now);
    this.columns.fire(p, now);
    this.rows.fire(p, now);
  }

  /** Evaluates part p's awake stages in cycle `now`, downstream first (see `step`). */
  private evaluate(p: number, now: number): void {
    const { links, columns, rows } = this;
    links.enter(p);
    columns.enter(p);
    rows.enter(p);
    this.phase = PHASE_LINKS;
    for (let i = 0; i < links.count[p]; i++) {
      const g = links.visit(p, i, now);
      const tile = this.globalTile[g];
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
  private wakeEveryStage(now: number): void {
    for (let g = 0; g < this.portI32.length >> P_I32_SHIFT; g++)
      if (this.globalTile[g] >= 0 || this.fabric.peer[g] >= 0) this.links.wake(g, now, now, PHASE_EVENTS);
    for (let c = 0; c < this.rb.count / NVC; c++) this.columns.wake(c, now, now, PHASE_EVENTS);
    for (let t = 0; t < this.rowBusy.length; t++) this.rows.wake(t, now, now, PHASE_EVENTS);
  }

  /** Credits due now (the timing wheel holds nothing else): `phits` of them to the sender of key
   * = (g << VC_SHIFT) | v. */
  private readonly returnedCredits = (key: number, phits: number): void => {
    // The VC ack in the LCB sideband (§4.3).
    this.portI32[portVcI32(key, P_CREDITS)] += phits;
    // Only a sender that found too few credits waits for them; any other is awake for its own
    // reasons, and waking it here would cost a visit per packet per hop.
    if (this.portI32[portVcI32(key, P_CREDIT_WAIT)]) {
      this.portI32[portVcI32(key, P_CREDIT_WAIT)] = 0;
      this.wakeLink(key >> VC_SHIFT, this.cycle);
    }
  };

  /** Returns `phits` credits of VC v to the sender at port g, arriving at cycle `at`. */
  private returnCredits(g: number, v: number, phits: number, at: number): void {
    this.wheels[this.linkPart[g]].schedule(this.cycle, at, (g << VC_SHIFT) | v, phits);
  }

  /** Wakes port g's sender (router output or endpoint) at cycle `at`. */
  private wakeLink(g: number, at: number): void {
    this.links.wake(g, at, this.cycle, this.phase);
  }

  private wakeColumn(channel: number, at: number): void {
    this.columns.wake(channel, at, this.cycle, this.phase);
  }

  private wakeRow(tile: number, at: number): void {
    this.rows.wake(tile, at, this.cycle, this.phase);
  }

  /** Wakes both sides of a port whose state changed (faults, restores). */
  private wake(g: number): void {
    this.wakeLink(g, this.cycle);
    const tile = this.globalTile[g];
    if (tile >= 0) this.wakeRow(tile, this.cycle);
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
    const g = this.tileGlobal[b >> 4]; // b is ((tile * 8 + row) << VC_SHIFT) | v
    let occupancy = this.cb.occupancyOf(b);
    if (this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER] === b) occupancy += this.drainPending(g, now);
    return occupancy;
  }

  /** Phits of output link g's last run from a column buffer that leave it after cycle `now`. */
  private drainPending(g: number, now: number): number {
    if (this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] <= now) return 0;
    const since = now - this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_FIRST];
    const drain = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN];
    const base = ((drain >> DRAIN_COUNT_BITS) - 1) * DRAIN_SLOT_INTS;
    let pending = 0;
    for (let j = (drain & DRAIN_COUNT_MASK) - 1; j >= 0 && this.drainPairs[base + 2 * j] > since; j--) pending++;
    return pending;
  }

  /**
   * Phits physically in a row or column buffer (index (tile*8 + column or row)*2 + vc) at the end
   * of `cycle`, counted phit by phit from the send times into it and out of it — not from the
   * counters the stages decide room by — so that tests can hold the counters to the buffer sizes.
   */
  bufferPhits(kind: 'row' | 'column', b: number, cycle: number): number {
    const queues = kind === 'row' ? this.rb : this.cb;
    // The buffer's entries are its router's part's.
    this.bind(this.linkPart[this.tileGlobal[b >> 4]]);
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
    const g = this.tileGlobal[tile];
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
    const g = this.tileGlobal[b >> 4];
    const drained = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER];
    if (this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] <= now || (drained !== b && drained !== (b ^ 1))) return NEVER;
    for (let t = now + 1; t <= this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST]; t++) if (this.columnRoom(b, t) > 0) return t;
    return NEVER;
  }

  /** Phits column buffer b (of VC b&1) can still take at `now`. */
  private columnRoom(b: number, now: number): number {
    // Both VCs' occupancies in one pass: the output link's last run drained at most one of them.
    const g = this.tileGlobal[b >> 4];
    let own = this.cb.occupancyOf(b);
    let other = this.cb.occupancyOf(b ^ 1);
    const drained = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER];
    if (drained === b) own += this.drainPending(g, now);
    else if (drained === (b ^ 1)) other += this.drainPending(g, now);
    return min(COLUMN_VC_LIMIT - own, COLUMN_BUFFER_PHITS - own - other);
  }

  // ---------------------------------------------------------------- endpoints
  /** One endpoint port: the processor takes phits from its receive buffers, and its interface
   * sends from the source queues. */
  private stepEndpoint(g: number, now: number): void {
    const pool = this.pool;
    // The port's own wake-ups, gathered into one: within its visit a stage's wake-ups keep only the
    // earliest anyway, and one call site leaves V8's inlining budget for the accessors below.
    let wake = NEVER;
    // Receive: one phit per cycle when accepting, from one VC at a time.
    if (now < this.recvBusy[g]) wake = this.recvBusy[g];
    else {
      if (this.recvHeld[g]) {
        this.recvHeld[g] = 0;
        for (let v = 0; v < NVC; v++) {
          const s = this.receive.headOf((g << VC_SHIFT) | v);
          if (s >= 0 && pool.sentOutOf(s) === this.store.length[pool.packetOf(s)]) this.finishReceive(g, v, this.recvLast[g], now);
        }
      }
      if (this.accepting[g]) {
        for (let v = 0; v < NVC; v++) {
          const buffer = (g << VC_SHIFT) | v;
          const s = this.receive.headOf(buffer);
          if (s < 0 || pool.routeOf(s) === -2) continue;
          const taken = pool.sentOutOf(s);
          const sent = pool.sentInOf(s);
          if (taken >= sent) continue;
          const u = pool.usable(s, taken);
          if (u > now) {
            if (u < wake) wake = u;
            continue;
          }
          const n = pool.usableRun(s, taken, sent, now);
          pool.setSentOut(s, taken + n);
          this.returnCredits(this.fabric.peer[g], v, n, now + n - 1 + this.portI32[(g << P_I32_SHIFT) | P_LATENCY]);
          this.recvBusy[g] = now + n;
          this.recvLast[g] = now + n - 1;
          // The packet is delivered with the cycle its tail is taken. A maintenance packet is
          // answered only once that cycle has come (the next visit).
          const packet = pool.packetOf(s);
          if (taken + n === this.store.length[packet]) {
            if (this.store.flags[packet] & FLAG_SOURCE_ROUTED) this.recvHeld[g] = 1;
            else this.finishReceive(g, v, now + n - 1, now);
          }
          wake = this.receiveNextWake(g, now + n);
          break;
        }
      }
    }
    // Send: continue the current packet (or its replay), or start the next one whose whole
    // length fits in the router's input buffer (VCT).
    if (this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] >= 0) this.advanceLink(g, now);
    if (this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] < 0) {
      const busy = this.txF64[(g << TX_F64_SHIFT) | TX_BUSY];
      if (this.discarding[g] || this.fabric.activeLanes[g] === 0) this.discardSources(g);
      else if (now < busy) {
        // The last copy's tail is still being serialized.
        if (this.hasSources(g) && busy < wake) wake = busy;
      } else {
        for (let v = 0; v < NVC; v++) {
          const q = (g << VC_SHIFT) | v;
          if (this.sources.size[q] === 0) continue;
          const head = this.sources.head[q];
          if (this.portI32[portVcI32(q, P_CREDITS)] < this.store.length[head]) {
            this.portI32[portVcI32(q, P_CREDIT_WAIT)] = 1; // the credit return wakes it
            continue;
          }
          this.sources.shift(q);
          this.portI32[portVcI32(q, P_CREDITS)] -= this.store.length[head];
          this.store.state[head] = STATE_IN_NETWORK;
          this.store.enteredAt[head] = now;
          this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = head;
          this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE] = -1;
          this.startCopy(g, now, ENDPOINT_INJECT_CYCLES);
          this.advanceLink(g, now);
          if (this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] < 0 && this.hasSources(g)) {
            const until = this.txF64[(g << TX_F64_SHIFT) | TX_BUSY];
            if (until < wake) wake = until;
          }
          break;
        }
      }
    }
    if (wake !== NEVER) this.wakeLink(g, wake);
  }

  /** Whether endpoint port g has a packet waiting to be sent on either VC. */
  private hasSources(g: number): boolean {
    return this.sources.size[g << VC_SHIFT] > 0 || this.sources.size[(g << VC_SHIFT) | 1] > 0;
  }

  /** Endpoint port g's own link is down: what waits to be sent cannot be (§7.7). */
  private discardSources(g: number): void {
    for (let v = 0; v < NVC; v++) {
      const q = (g << VC_SHIFT) | v;
      while (this.sources.size[q] > 0) {
        const p = this.sources.shift(q);
        this.store.state[p] = STATE_IN_NETWORK;
        this.forgetMessage(p);
        this.store.discard(p, this.discardReason[g] || DiscardReason.LinkDown, g, this.cycle);
      }
    }
  }

  /** When the receive side of endpoint port g next has something to do, from cycle `after` on. */
  private receiveNextWake(g: number, after: number): number {
    const pool = this.pool;
    let at = NEVER;
    for (let v = 0; v < NVC; v++) {
      const s = this.receive.headOf((g << VC_SHIFT) | v);
      if (s < 0 || pool.routeOf(s) === -2) continue;
      const taken = pool.sentOutOf(s);
      let t = NEVER;
      if (taken === this.store.length[pool.packetOf(s)]) t = after;
      else if (taken < pool.sentInOf(s)) t = max(after, pool.usable(s, taken));
      if (t < at) at = t;
    }
    return at;
  }

  /** The processor has taken the last phit of the packet at the head of VC v (at `cycle`). */
  private finishReceive(g: number, v: number, cycle: number, now: number): void {
    const packet = this.pool.packetOf(this.receive.headOf((g << VC_SHIFT) | v));
    this.receive.shift((g << VC_SHIFT) | v);
    const flags = this.store.flags[packet];
    if (flags & (FLAG_SOFT_ERROR | FLAG_LINK_LOST)) {
      // §4.3: the destination's interface discards a packet marked bad.
      this.forgetMessage(packet);
      this.store.discard(packet, flags & FLAG_LINK_LOST ? DiscardReason.LinkDown : DiscardReason.SoftError, g, cycle);
      return;
    }
    if (flags & FLAG_TRACE) this.trace(packet, this.fabric.portOwner(g), g - this.fabric.portBase[this.fabric.portOwner(g)], v, 'delivered', cycle);
    if (flags & FLAG_SOURCE_ROUTED) this.endpointMaintenance(g, packet, now);
    else {
      // Whatever the listener does (a response injected elsewhere), this part goes on bound.
      const part = this.bound;
      this.onDeliver(this.handleOf(packet), cycle);
      this.bind(part);
    }
    this.store.deliver(packet);
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
    this.cb.shift(b);
    if (this.cb.headOf(b) < 0) this.cbMask[b >> 4] &= ~(1 << (b & 15));
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
      const s = this.cb.headOf(candidate);
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
    this.cb.drain(buffer, taken - first);
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

  /** Starts a copy of port g's packet on the link; whether its CRC will fail is decided now. */
  private startCopy(g: number, now: number, stages: number): void {
    const packet = this.txI32[(g << TX_I32_SHIFT) | TX_PACKET];
    const v = this.store.vc[packet];
    const peer = this.fabric.peer[g];
    const peerTile = this.globalTile[peer];
    const down = this.pool.allocate(packet, now, stages + this.portI32[(g << P_I32_SHIFT) | P_LATENCY]);
    const errorProne = this.portI32[(g << P_I32_SHIFT) | P_ERROR_PRONE] !== 0;
    const bad = errorProne && keyedDraw(this.seed, DRAW_BAD_COPY, g, now) < this.copyErrorProbability(g, this.store.length[packet]) ? 1 : 0;
    if (bad) this.pool.setRoute(down, -2); // held at the receiver until its bad CRC is seen
    if (peerTile >= 0) this.ib.push((peerTile << VC_SHIFT) | v, down);
    else this.receive.push((peer << VC_SHIFT) | v, down);
    this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = down;
    this.txI32[(g << TX_I32_SHIFT) | TX_SENT] = bad << TX_BAD_SHIFT;
    this.txF64[(g << TX_F64_SHIFT) | TX_ACC] = 0;
    this.txF64[(g << TX_F64_SHIFT) | TX_ACC_TIME] = now - 1;
    if (this.store.flags[packet] & FLAG_TRACE) {
      const chip = this.fabric.portOwner(g);
      this.trace(packet, chip, g - this.fabric.portBase[chip], v, 'link', now, bad ? 'copy will fail its CRC' : undefined);
    }
  }

  /** Records a step of a traced packet (FLAG_TRACE). */
  private trace(packet: number, chip: number, port: number, vc: number, stage: TraceEvent['stage'], cycle: number, detail?: string): void {
    let events = this.store.traces.get(packet);
    if (!events) {
      events = [];
      this.store.traces.set(packet, events);
    }
    events.push({ cycle, chip, port, vc, stage, detail });
  }

  /** Turns a trace into readable lines (chip names, ns). */
  describeTrace(events: readonly TraceEvent[]): string[] {
    return events.map(
      (e) =>
        `${Number.isNaN(e.cycle) ? '' : `${(e.cycle * NS_PER_CYCLE).toFixed(2)} ns (cycle ${e.cycle})`} ${e.stage}` +
        (e.chip >= 0 ? ` ${this.fabric.chipNames[e.chip]}:${e.port}` : '') +
        ` vc${e.vc}${e.detail ? ` — ${e.detail}` : ''}`,
    );
  }

  /**
   * Moves phits of port g's packet onto the link at its rate: from the column buffer as they
   * become usable there, or from the LCB's own send buffer (endpoints, and replays). The rate
   * accumulator gains the link's rate (P_RATE) per cycle and a phit leaves whenever it reaches
   * one, exactly as a cycle-by-cycle loop would; the run ends with the packet or with the phits
   * the column channel has committed so far. A phit committed but not yet usable is waited for within the
   * run — the packet holds the link until its tail (VCT), so nothing else could use the link in
   * between — with the accumulator filling meanwhile as it would over idle cycles.
   */
  private advanceLink(g: number, now: number): void {
    const txI32 = this.txI32;
    const txF64 = this.txF64;
    const ti = g << TX_I32_SHIFT;
    const tf = g << TX_F64_SHIFT;
    const packet = txI32[ti | TX_PACKET];
    const length = this.store.length[packet];
    if (this.fabric.activeLanes[g] === 0 || txI32[ti | TX_DOWN] <= DOWN_CUT) {
      this.abortOnDeadLink(g, now, packet, length);
      return;
    }
    if (now < txF64[tf | TX_BUSY]) {
      this.wakeLink(g, txF64[tf | TX_BUSY]);
      return;
    }
    let down = txI32[ti | TX_DOWN];
    if (down < 0) {
      if (now < this.txResumeAt[g]) {
        this.wakeLink(g, this.txResumeAt[g]);
        return;
      }
      this.startCopy(g, now, 0);
      down = txI32[ti | TX_DOWN];
    }
    const sentWord = txI32[ti | TX_SENT];
    const first = sentWord & TX_SENT_BITS;
    if (first === length) {
      this.endCopy(g, now, packet);
      return;
    }
    const pool = this.pool;
    const source = txI32[ti | TX_SOURCE];
    const s = source >= 0 ? this.cb.headOf(source) : -1;
    const limit = s >= 0 ? pool.sentInOf(s) : length;
    const rate = this.portF64[(g << P_F64_SHIFT) | P_RATE];
    // The serialization accumulator fills over the cycles the link had nothing to send.
    let accumulator = txF64[tf | TX_ACC];
    const idle = now - 1 - txF64[tf | TX_ACC_TIME];
    if (idle > 0) accumulator = min(1, accumulator + rate * idle);
    if (first >= limit || !(rate > 0)) {
      // Nothing committed to send yet (the column channel's next run extends this one).
      txF64[tf | TX_ACC] = accumulator;
      txF64[tf | TX_ACC_TIME] = now - 1;
      if (s >= 0 && first < limit) this.wakeLink(g, max(now, pool.usable(s, first)));
      return;
    }
    // A run from a column buffer joins the link's drain record (see drainPairs): a new one, or the
    // record of a run whose phits are still leaving (the column channel extended it, see stepColumn).
    let pairs = this.drainPairs;
    let base = 0;
    let count = 0;
    let from = -1;
    if (s >= 0) {
      base = this.drainSlotOf(g) * DRAIN_SLOT_INTS;
      pairs = this.drainPairs;
      if (txI32[ti | TX_DRAIN_BUFFER] === source && txF64[tf | TX_DRAIN_LAST] > this.cycle) {
        count = txI32[ti | TX_DRAIN] & DRAIN_COUNT_MASK;
        from = txF64[tf | TX_DRAIN_FIRST];
      }
    }
    // The segments' records, read once (nothing here allocates a segment): the source's phits'
    // send times (usable after its delay) and the copy's, as offsets from each one's head. The
    // loop counts cycles from the copy's head time: the offsets it writes are int32 anyway, and so
    // are the drain pairs (from `from`), so that it works in small integers throughout — a
    // cycle is a float64 (it outgrows an int32), and mixing the two cost a conversion or a tag
    // check on every phit.
    const words = pool.words;
    const overflow = pool.overflow;
    const sAt = s << SEG_SHIFT;
    const dAt = down << SEG_SHIFT;
    const dTime = pool.times[dAt >> 1];
    const sHead = s >= 0 ? (pool.times[sAt >> 1] - dTime) | 0 : 0;
    const sDelay = s >= 0 ? words[sAt | SEG_DELAY] : 0;
    const fromKnown = from >= 0;
    let fromRel = fromKnown ? (from - dTime) | 0 : 0;
    let k = first;
    let cycle = (now - dTime) | 0;
    let firstRel = 0;
    let lastRel = 0;
    let into = 0;
    while (k < limit) {
      if (s >= 0) {
        into = sHead + (k < SEG_INLINE ? words[sAt | (SEG_OFFSET + k)] : overflow[s * MAX_PHITS + k]);
        const u = into + sDelay;
        if (u > cycle) {
          accumulator = min(1, accumulator + rate * (u - cycle));
          cycle = u;
        }
      }
      accumulator += rate;
      if (accumulator >= 1) {
        accumulator -= 1;
        if (k < SEG_INLINE) words[dAt | (SEG_OFFSET + k)] = cycle;
        else overflow[down * MAX_PHITS + k] = cycle;
        if (k === first) {
          firstRel = cycle;
          if (!fromKnown) fromRel = cycle;
        }
        if (s >= 0) {
          // When the phit leaves the column buffer, and when it came in (for bufferPhits: an
          // extended run can commit the departure of a phit that has yet to arrive).
          const at = base + 2 * count;
          pairs[at] = cycle - fromRel;
          pairs[at + 1] = into - fromRel;
          count++;
        }
        lastRel = cycle;
        k++;
      }
      if (accumulator > 1) accumulator = 1;
      cycle++;
    }
    // At least one phit went (first < limit, and the rate is positive).
    const c = dTime + cycle;
    const firstAt = dTime + firstRel;
    const lastAt = dTime + lastRel;
    if (!fromKnown) from = dTime + fromRel;
    words[dAt | SEG_SENT_IN] = k;
    txF64[tf | TX_ACC] = accumulator;
    txF64[tf | TX_ACC_TIME] = c - 1;
    const n = k - first;
    txI32[ti | TX_SENT] = (sentWord & ~TX_SENT_BITS) | k;
    this.world.phitHops += n;
    const v = this.store.vc[packet];
    this.portF64[(g << P_F64_SHIFT) | (P_PHITS + v)] += n;
    const peer = this.fabric.peer[g];
    const peerTile = this.globalTile[peer];
    if (peerTile >= 0) {
      this.ib.fill((peerTile << VC_SHIFT) | v, n);
      // The receiving row bus routes the head once it has been through the input stages.
      this.wakeRow(peerTile, first === 0 ? pool.headTimeOf(down) + INPUT_STAGES : firstAt + pool.delayOf(down));
    } else this.wakeLink(peer, firstAt + pool.delayOf(down));
    if (s >= 0) {
      pool.setSentOut(s, pool.sentOutOf(s) + n);
      this.cb.drain(source, n);
      txI32[ti | TX_DRAIN_BUFFER] = source;
      txF64[tf | TX_DRAIN_FIRST] = from;
      txI32[ti | TX_DRAIN] = (txI32[ti | TX_DRAIN] & ~DRAIN_COUNT_MASK) | count;
      txF64[tf | TX_DRAIN_LAST] = lastAt;
      // Room appears in the column buffer as the run's phits leave it; either VC of the channel
      // may be waiting for it (they share the buffer, §3).
      const state = ((source >> 1) << CH_I32_SHIFT) | CH_STATE;
      if (this.chI32[state] & (3 << CH_WAIT_SHIFT)) {
        this.chI32[state] &= ~(3 << CH_WAIT_SHIFT);
        // When the channel can use the room: its own run done, a phit to move (it waits again
        // if this run's room is not enough).
        const channel = source >> VC_SHIFT;
        const at = this.columnNextWake(channel, max(firstAt, this.chF64[(channel << CH_F64_SHIFT) | CH_BUSY]));
        if (at !== NEVER) this.wakeColumn(channel, at);
      }
      if (pool.sentOutOf(s) === length) {
        // The column buffer is done with the packet; the LCB keeps it until it is acknowledged.
        this.shiftColumnBuffer(source);
        txI32[ti | TX_SOURCE] = -1;
      }
    }
    txF64[tf | TX_BUSY] = lastAt + 1;
    if (k === length) {
      // A good copy is complete once its run is committed (the link stays busy until its tail
      // is out); a bad one is found out at the end.
      if (!(sentWord >> TX_BAD_SHIFT)) {
        txI32[ti | TX_PACKET] = -1;
        txI32[ti | TX_DOWN] = -1;
      } else this.wakeLink(g, lastAt + 1);
    }
  }

  /** Link g's drain-record slot: the one it holds, or the next in turn not in use, taken back
   * from a link of its part whose run is over (a busy link keeps its slot from run to run; when
   * every slot is in use, the pool doubles). */
  private drainSlotOf(g: number): number {
    const held = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN] >> DRAIN_COUNT_BITS;
    if (held > 0) return held - 1;
    const world = this.world;
    const slots = world.drainOwner.length;
    let slot = world.drainNext;
    for (let tried = 0; ; tried++, slot++) {
      if (tried === slots) {
        slot = this.growDrain();
        break;
      }
      if (slot === slots) slot = 0;
      const owner = world.drainOwner[slot];
      if (owner < 0) break;
      // The slots are the part's own: its links are at its cycle (runWindowed).
      if (this.txF64[(owner << TX_F64_SHIFT) | TX_DRAIN_LAST] <= this.cycle) {
        // Its last phit has left: its record can say nothing more.
        this.txI32[(owner << TX_I32_SHIFT) | TX_DRAIN] = 0;
        this.txI32[(owner << TX_I32_SHIFT) | TX_DRAIN_BUFFER] = -1;
        break;
      }
    }
    world.drainOwner[slot] = g;
    world.drainNext = slot + 1;
    this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN] = (slot + 1) << DRAIN_COUNT_BITS;
    return slot;
  }

  /** Doubles the drain-record pool; the first new slot. */
  private growDrain(): number {
    const world = this.world;
    const slots = world.drainOwner.length;
    const pairs = shared(Int32Array, 2 * slots * DRAIN_SLOT_INTS);
    pairs.set(world.drainPairs);
    const owner = shared(Int32Array, 2 * slots).fill(-1);
    owner.set(world.drainOwner);
    this.drainPairs = world.drainPairs = pairs;
    world.drainOwner = owner;
    return slots;
  }

  /** The whole copy is on the wire: the receiver's CRC check passes, or fails and the copy is
   * replayed after the go-back-N timeout (§4.3). */
  private endCopy(g: number, now: number, packet: number): void {
    const last = this.txF64[(g << TX_F64_SHIFT) | TX_BUSY] - 1;
    if (!(this.txI32[(g << TX_I32_SHIFT) | TX_SENT] >> TX_BAD_SHIFT)) {
      this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = -1;
      this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = -1;
      return;
    }
    // The receiver drops the copy and sends no VC ack; the sender's timer runs out and it replays
    // the packet from its send buffer.
    this.dropBadCopy(g);
    this.world.retransmissions++;
    this.countRetry(g, now);
    if (this.fabric.activeLanes[g] === 0) {
      this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = -1;
      this.store.discard(packet, DiscardReason.LinkDown, g, now);
      return;
    }
    this.txResumeAt[g] = last + 2 * this.portI32[(g << P_I32_SHIFT) | P_LATENCY] + 8;
    this.wakeLink(g, this.txResumeAt[g]);
  }

  /**
   * The link died with a packet on the wire. A copy the receiver has not passed on yet is simply
   * dropped; one already flowing downstream is cut short and marked bad, to be discarded at its
   * destination, which ends the packet (DOWN_CUT). The sender drains the rest of the packet from
   * its buffers into the dead port; the packet's id stays its own until the last of that is gone.
   */
  private abortOnDeadLink(g: number, now: number, packet: number, length: number): void {
    const pool = this.pool;
    const down = this.txI32[(g << TX_I32_SHIFT) | TX_DOWN];
    // The run the link had committed stops: phits it was yet to take leave the column buffer now,
    // not one by one, so a column channel waiting for that room gets it at once.
    const drained = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER];
    if (this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] > now && drained >= 0) this.wakeColumn(drained >> VC_SHIFT, now);
    this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] = -1;
    this.txF64[(g << TX_F64_SHIFT) | TX_BUSY] = 0;
    let continuesDownstream = down === DOWN_CUT;
    if (down >= 0) {
      if (pool.sentOutOf(down) === 0) {
        this.dropBadCopy(g);
        this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = DOWN_DROPPED;
      } else {
        this.store.flags[packet] |= FLAG_LINK_LOST;
        const missing = length - pool.sentInOf(down);
        if (missing > 0) {
          pool.send(down, now, missing);
          const peerTile = this.globalTile[this.fabric.peer[g]];
          if (peerTile >= 0) {
            this.ib.fill((peerTile << VC_SHIFT) | this.store.vc[packet], missing);
            this.wakeRow(peerTile, now + pool.delayOf(down));
          } else this.wakeLink(this.fabric.peer[g], now + pool.delayOf(down));
        }
        this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = DOWN_CUT;
        continuesDownstream = true;
      }
    }
    const source = this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE];
    if (source >= 0) {
      const s = this.cb.headOf(source);
      const n = pool.available(s, now);
      if (n > 0) {
        pool.setSentOut(s, pool.sentOutOf(s) + n);
        this.cb.drain(source, n);
        this.wakeColumn((source / NVC) | 0, now);
      }
      if (pool.sentOutOf(s) < length) {
        if (pool.sentOutOf(s) < pool.sentInOf(s)) this.wakeLink(g, max(now + 1, pool.usable(s, pool.sentOutOf(s))));
        return;
      }
      this.shiftColumnBuffer(source);
      this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE] = -1;
    }
    this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = -1;
    this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = -1;
    this.wakeLink(g, now + 1);
    if (!continuesDownstream) this.store.discard(packet, this.discardReason[g] || DiscardReason.LinkDown, g, now);
  }

  private dropBadCopy(g: number): void {
    const down = this.txI32[(g << TX_I32_SHIFT) | TX_DOWN];
    const packet = this.txI32[(g << TX_I32_SHIFT) | TX_PACKET];
    const v = this.store.vc[packet];
    const peer = this.fabric.peer[g];
    const peerTile = this.globalTile[peer];
    const phits = this.pool.sentInOf(down);
    if (peerTile >= 0) {
      const buffer = (peerTile << VC_SHIFT) | v;
      this.ib.popTail(buffer);
      this.ib.drain(buffer, phits);
    } else this.receive.popTail((peer << VC_SHIFT) | v);
    this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = -1;
  }

  /** Probability that a copy of `length` phits arrives with a bad CRC: the phits are striped over
   * the port's lanes in service (§4.4), each lane with its own bit-error rate. */
  private copyErrorProbability(g: number, length: number): number {
    const lanes = this.fabric.activeLanes[g];
    if (lanes === 0) return 0;
    const bitsPerLane = (length * PHIT_BITS) / lanes;
    let good = 1;
    for (let l = 0; l < LANES; l++) {
      if (!(this.laneMask[g] & (1 << l))) continue;
      good *= pow(1 - this.laneBitErrorRate[g * LANES + l], bitsPerLane);
    }
    return 1 - good;
  }

  /** §7.7: the LCB counts retries per lane and decommissions a lane past the software threshold;
   * with no lane left the link is down and the sender discards packets for the port. */
  private countRetry(g: number, now: number): void {
    let total = 0;
    for (let l = 0; l < LANES; l++) if (this.laneMask[g] & (1 << l)) total += this.laneBitErrorRate[g * LANES + l];
    let pick = keyedDraw(this.seed, DRAW_RETRY_LANE, g, now) * total;
    let lane = 0;
    for (let l = 0; l < LANES; l++) {
      if (!(this.laneMask[g] & (1 << l))) continue;
      lane = l;
      pick -= this.laneBitErrorRate[g * LANES + l];
      if (pick <= 0) break;
    }
    const retries = ++this.laneRetries[g * LANES + lane];
    const tile = this.globalTile[g];
    const threshold = tile >= 0 ? this.regs.laneRetryThreshold[tile] : this.endpointLaneRetryThreshold;
    if (retries <= threshold) return;
    this.laneMask[g] &= ~(1 << lane);
    this.fabric.activeLanes[g]--;
    this.refreshLink(g);
    const chip = this.fabric.portOwner(g);
    const port = g - this.fabric.portBase[chip];
    this.interrupt('LANE_DECOMMISSIONED', now, chip, port, -1, { lane, retries, lanesLeft: this.fabric.activeLanes[g] });
    if (this.fabric.activeLanes[g] === 0) this.takeDown(g, now);
  }

  /** All lanes gone: link_active drops at both ends, each raising an interrupt (§7.7). */
  private takeDown(g: number, now: number): void {
    const peer = this.fabric.peer[g];
    for (const end of peer >= 0 ? [g, peer] : [g]) {
      this.fabric.activeLanes[end] = 0;
      this.laneMask[end] = 0;
      this.refreshLink(end);
      this.discarding[end] = 1;
      this.discardReason[end] = DiscardReason.LinkDown;
      const chip = this.fabric.portOwner(end);
      if (this.chipRouter[chip] >= 0) this.interrupt('LINK_DOWN', now, chip, end - this.fabric.portBase[chip], -1);
      this.wake(end);
    }
  }

  // ---------------------------------------------------------------- fault injection (drills)
  /** Sets the bit-error rate of one lane of port g's transmit direction. */
  setLaneBitErrorRate(g: number, lane: number, ber: number): void {
    this.laneBitErrorRate[g * LANES + lane] = ber;
    let any = 0;
    for (let l = 0; l < LANES; l++) if (this.laneBitErrorRate[g * LANES + l] > 0) any = 1;
    this.portI32[(g << P_I32_SHIFT) | P_ERROR_PRONE] = any;
  }

  /** Sets the probability that a packet passing through router `chip` is corrupted (§4.3). */
  setSoftErrorRate(chip: number, rate: number): void {
    const r = this.chipRouter[chip] ?? -1;
    if (r < 0) throw new RangeError(`chip ${chip} is not a router`);
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`a soft-error rate is a probability in [0, 1], got ${rate}`);
    this.softErrorRate[r] = rate;
  }

  /** Cuts the cable at port g (both directions go down at once). */
  cutLink(g: number): void {
    if (this.fabric.peer[g] < 0 || this.fabric.activeLanes[g] === 0) return;
    this.takeDown(g, this.cycle);
  }

  /**
   * A router stops responding: every link to it goes down (its neighbours raise the interrupts;
   * it cannot), what is inside it or still arriving is discarded, and maintenance reads of it time
   * out.
   */
  killRouter(chip: number): void {
    const r = this.chipRouter[chip];
    if (r < 0 || this.routerDead[r]) return;
    this.routerDead[r] = 1;
    for (let p = 0; p < NPORTS; p++) {
      const g = this.tileGlobal[r * NPORTS + p];
      const peer = this.fabric.peer[g];
      this.discarding[g] = 1;
      this.discardReason[g] = DiscardReason.RouterDead;
      if (peer < 0 || this.fabric.activeLanes[g] === 0) continue;
      for (const end of [g, peer]) {
        this.fabric.activeLanes[end] = 0;
        this.laneMask[end] = 0;
        this.refreshLink(end);
        this.discarding[end] = 1;
        this.discardReason[end] = end === g ? DiscardReason.RouterDead : DiscardReason.LinkDown;
        this.wake(end);
      }
      const peerChip = this.fabric.portOwner(peer);
      if (this.chipRouter[peerChip] >= 0) this.interrupt('LINK_DOWN', this.cycle, peerChip, peer - this.fabric.portBase[peerChip], -1);
    }
    for (let p = 0; p < NPORTS; p++) this.wake(this.tileGlobal[r * NPORTS + p]);
  }

  /** A dead router is powered back up: links return, and its registers are back at reset values
   * (the control plane must configure it again). */
  reviveRouter(chip: number): void {
    const r = this.chipRouter[chip];
    if (r < 0 || !this.routerDead[r]) return;
    this.routerDead[r] = 0;
    this.regs.resetRouter(r);
    for (let p = 0; p < NPORTS; p++) {
      const g = this.tileGlobal[r * NPORTS + p];
      if (this.discardReason[g] === DiscardReason.RouterDead) this.discarding[g] = 0;
      if (this.fabric.peer[g] >= 0) this.restoreLink(g);
    }
  }

  /** Restores a cut cable or a decommissioned port to three good lanes. */
  restoreLink(g: number): void {
    const peer = this.fabric.peer[g];
    if (peer < 0) return;
    for (const end of [g, peer]) {
      const wasDown = this.fabric.activeLanes[end] === 0;
      this.fabric.activeLanes[end] = LANES;
      this.laneMask[end] = (1 << LANES) - 1;
      for (let l = 0; l < LANES; l++) this.laneRetries[end * LANES + l] = 0;
      this.refreshLink(end);
      if (this.discardReason[end] === DiscardReason.LinkDown) this.discarding[end] = 0;
      const chip = this.fabric.portOwner(end);
      if (wasDown && this.chipRouter[chip] >= 0) this.interrupt('LINK_UP', this.cycle, chip, end - this.fabric.portBase[chip], -1);
      this.wake(end);
    }
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
      const g = this.tileGlobal[tileOut];
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
        this.cb.push(cbv, down);
        this.cbMask[channel >> 3] |= 1 << (cbv & 15);
        this.chI32[ch | CH_OWNERS] = (this.chI32[ch | CH_OWNERS] & ~(0xff << (8 * v))) | ((input + 1) << (8 * v));
      }
      // Every run of a traced packet, with the input whose row buffer it leaves: a run's phits
      // leave from `now` on, one per cycle but where it waited.
      if (this.store.flags[packet] & FLAG_TRACE)
        this.trace(packet, this.routerChip[r], tileOut - base, v, 'column-buffer', now, `from row ${row}, input ${input}, ${n} phits`);
      this.chI32[ch | CH_STATE] &= ~(1 << (CH_WAIT_SHIFT + v));
      const down = this.cb.tailOf(cbv);
      if (last === now + n - 1) pool.sendRun(down, now, n);
      else for (let j = last - now; j >= 0; j--) if ((drain >>> j) & 1) pool.sendAt(down, last - j);
      pool.setSentOut(seg, taken + n);
      this.rb.drain(rbIndex, n);
      this.rb.setDrain(rbIndex, last + 1, drain);
      this.cb.fill(cbv, n);
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
      const seg = this.ib.headOf((tile << VC_SHIFT) | v);
      if (seg < 0 || pool.routeOf(seg) !== -1) continue;
      const at = pool.headTimeOf(seg) + INPUT_STAGES;
      if (now >= at) this.routeHead(r, i, v, seg, now);
      else if (at < wakeAt) wakeAt = at;
    }
    const first = this.rowBusRR[tile];
    for (let k = 0; k < NVC; k++) {
      const v = (first + k) & 1;
      const ibIndex = (tile << VC_SHIFT) | v;
      const seg = this.ib.headOf(ibIndex);
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
        this.ib.drain(ibIndex, n - taken);
        if (n === length) {
          if (out === CONSUME) this.consumeMaintenance(r, i, packet, now);
          this.finishInput(r, tile, ibIndex, seg, v, now, out !== CONSUME);
          // A maintenance request ends at the chip it was addressed to: delivered.
          if (out === CONSUME) this.store.deliver(packet);
          if (this.ib.headOf(ibIndex) >= 0 && now + 1 < wakeAt) wakeAt = now + 1;
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
      this.ib.drain(ibIndex, n);
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
    const other = this.ib.headOf((tile << VC_SHIFT) | (v ^ 1));
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
      const seg = this.ib.headOf((tile << VC_SHIFT) | v);
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
    routeYarc(this.regs, r, i, this.store.destination[packet], this.store.hashBits[packet], (flags & FLAG_HASH) !== 0, (flags & FLAG_ADAPTIVE) !== 0, d);
    let port = -1;
    if (d.kind === ROUTE_PORT) port = d.port;
    else if (d.kind === ROUTE_ADAPTIVE) port = this.chooseAdaptive(r, i, d.portsLo, d.portsHi, now);
    if (port < 0) {
      this.raiseRouteError(r, i, v, d.kind);
      this.pool.setRoute(seg, NPORTS); // discard as it arrives
      return;
    }
    const g = this.tileGlobal[r * NPORTS + port];
    this.store.hops[packet]++;
    if (this.discarding[g]) {
      // The port has been shut (link down, forward-progress timeout): discard here (§7.7).
      this.world.routeErrors.set(packet, this.discardReason[g] || DiscardReason.LinkDown);
      this.pool.setRoute(seg, NPORTS);
    } else this.pool.setRoute(seg, port);
  }

  /** The tail leaves the input buffer (at cycle `at`): free the entry and return the packet's
   * credits upstream. */
  private finishInput(r: number, tile: number, ibIndex: number, s: number, v: number, at: number, discarded: boolean): void {
    const packet = this.pool.packetOf(s);
    this.ib.shift(ibIndex);
    const g = this.tileGlobal[tile];
    const upstream = this.fabric.peer[g];
    const local = (this.store.flags[packet] & FLAG_LOCAL) !== 0;
    if (upstream >= 0 && !local) this.returnCredits(upstream, v, this.store.length[packet], at + this.portI32[(g << P_I32_SHIFT) | P_LATENCY]);
    // Only the input buffer the chip put it in was free of credits; every later one is not.
    if (local) this.store.flags[packet] &= ~FLAG_LOCAL;
    if (discarded) this.store.discard(packet, this.pendingReason(packet), g, at);
  }

  private pendingReason(packet: number): DiscardReason {
    const reason = this.world.routeErrors.get(packet);
    this.world.routeErrors.delete(packet);
    return reason ?? DiscardReason.NoRoute;
  }

  private raiseRouteError(r: number, i: number, v: number, kind: number): void {
    const s = this.ib.headOf(((r * NPORTS + i) << VC_SHIFT) | v);
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

  // ---------------------------------------------------------------- maintenance (§4.1, the r bit)
  /** Keeps the message a maintenance packet carries. The list is grown an element at a time, never
   * written past its end: packet ids taken by traffic leave gaps, and a write far past the end
   * would turn the list into a dictionary (slow elements). */
  private keepMessage(id: number, message: MaintenanceMessage): void {
    const key = this.handleOf(id);
    while (this.maintenance.length <= key) this.maintenance.push(undefined);
    if (this.maintenance[key] === undefined) this.maintenanceInFlight++;
    this.maintenance[key] = message;
  }

  /** The message the bound part's packet `id` carries. */
  private messageOf(id: number): MaintenanceMessage | undefined {
    return this.maintenance[this.handleOf(id)];
  }

  /** Packet `id` carries no maintenance message any more (answered, delivered or discarded). */
  private forgetMessage(id: number): void {
    const key = this.handleOf(id);
    if (this.maintenance[key] === undefined) return;
    this.maintenance[key] = undefined;
    this.maintenanceInFlight--;
  }

  /** Maintenance packets in the fabric or waiting to be sent (see partsIndependent). */
  private maintenanceInFlight = 0;

  /** Sends a maintenance request from endpoint port `g` along `route` (router output ports) from
   * its element `from` on. */
  sendMaintenance(g: number, route: readonly number[], message: MaintenanceMessage, from = 0): number {
    this.bind(this.partOfPort(g));
    const id = this.store.allocate(0, g, maintenancePacketPhits(message), 0, FLAG_SOURCE_ROUTED, 0, this.cycle, -1);
    this.keepMessage(id, message);
    this.store.setSourceRoute(id, route, from);
    if (this.fabric.peer[g] < 0 || this.fabric.activeLanes[g] === 0) {
      this.store.state[id] = STATE_IN_NETWORK;
      this.forgetMessage(id);
      this.store.discard(id, DiscardReason.Unreachable, g, this.cycle);
      return this.handleOf(id);
    }
    this.sources.push(g * NVC, id);
    this.wakeLink(g, this.cycle);
    return this.handleOf(id);
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
    const g = port < NPORTS ? this.tileGlobal[r * NPORTS + port] : -1;
    if (g < 0 || this.fabric.peer[g] < 0) {
      this.world.routeErrors.set(packet, DiscardReason.NoRoute);
      this.pool.setRoute(seg, NPORTS);
    } else if (this.discarding[g] || this.fabric.activeLanes[g] === 0) {
      this.world.routeErrors.set(packet, this.discardReason[g] || DiscardReason.LinkDown);
      this.pool.setRoute(seg, NPORTS);
    } else this.pool.setRoute(seg, port);
  }

  /** The chip takes a request addressed to it; its answer, going back the way the request came,
   * is created now and sent once the access has been executed. */
  private consumeMaintenance(r: number, inPort: number, packet: number, now: number): void {
    const message = this.messageOf(packet);
    this.forgetMessage(packet);
    if (!message) return;
    const response = this.store.allocate(0, -1, 4, 1, FLAG_SOURCE_ROUTED | FLAG_LOCAL, 0, now, -1);
    this.store.setReturnRoute(response, packet);
    this.keepMessage(response, message);
    if (this.workCount === this.workDue.length) this.growWork();
    const k = (this.workHead + this.workCount++) & (this.workDue.length - 1);
    this.workDue[k] = now + MAINTENANCE_PROCESS_CYCLES;
    this.workTile[k] = r * NPORTS + inPort;
    this.workAnswer[k] = response;
    this.chipAnswers[r * NPORTS + inPort]++;
  }

  /** Doubles the ring of register accesses, oldest first from slot 0. */
  private growWork(): void {
    const size = this.workDue.length;
    const due = shared(Float64Array, 2 * size);
    const tile = shared(Int32Array, 2 * size);
    const answer = shared(Int32Array, 2 * size);
    for (let j = 0; j < size; j++) {
      const k = (this.workHead + j) & (size - 1);
      due[j] = this.workDue[k];
      tile[j] = this.workTile[k];
      answer[j] = this.workAnswer[k];
    }
    this.workDue = due;
    this.workTile = tile;
    this.workAnswer = answer;
    this.workHead = 0;
  }

  /** Executes due register accesses and sends each response back the way the request came. */
  private runChipWork(now: number): void {
    const mask = this.workDue.length - 1;
    while (this.workCount > 0 && this.workDue[this.workHead] <= now) {
      const tile = this.workTile[this.workHead];
      const id = this.workAnswer[this.workHead];
      this.workHead = (this.workHead + 1) & mask;
      this.workCount--;
      const router = (tile / NPORTS) | 0;
      // The answer was made by the tile's part, when the request arrived.
      this.bind(this.linkPart[this.tileGlobal[tile]]);
      const response = this.executeOnRouter(router, this.messageOf(id)!, tile - router * NPORTS);
      this.store.length[id] = maintenancePacketPhits(response);
      this.store.createdAt[id] = now;
      this.store.state[id] = STATE_IN_NETWORK;
      this.store.enteredAt[id] = now;
      this.keepMessage(id, response);
      this.chipAnswers[tile]--;
      const seg = this.pool.allocate(id, now, 0);
      this.pool.send(seg, now, this.store.length[id]);
      this.ib.push((tile << VC_SHIFT) | 1, seg);
      this.ib.fill((tile << VC_SHIFT) | 1, this.store.length[id]);
      // Its head is routed once it has been through the input stages, as any arrival's is.
      this.wakeRow(tile, now + INPUT_STAGES);
    }
  }

  /**
   * One register access on router `chip` by its address, executed at once, as over an out-of-band
   * control network (a JTAG chain) rather than by a maintenance packet: for a benchmark's or a
   * test's fabric configured without carrying the push. The answer is the chip's.
   */
  accessByAddress(chip: number, message: MaintenanceMessage): MaintenanceMessage {
    const r = this.chipRouter[chip] ?? -1;
    if (r < 0) throw new RangeError(`chip ${chip} is not a router`);
    return this.executeOnRouter(r, message, -1);
  }

  private executeOnRouter(r: number, message: MaintenanceMessage, arrivalPort: number): MaintenanceMessage {
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
      for (let p = 0; p < NPORTS; p++) lanes.push(this.fabric.activeLanes[this.tileGlobal[r * NPORTS + p]]);
      return answerTo(message, lanes);
    }
    if (message.register === 'linkState') {
      if (message.index < 0 || message.index >= NPORTS) return answerTo(message, [], 'no-such-register', `linkState has ports 0..63`);
      return answerTo(message, [this.fabric.activeLanes[this.tileGlobal[r * NPORTS + message.index]]]);
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
        const g = this.tileGlobal[r * NPORTS + p];
        this.refreshLink(g);
        if (this.fabric.peer[g] >= 0) this.refreshLink(this.fabric.peer[g]);
      }
    }
    return problem ? answerTo(message, [], 'rejected', problem) : answerTo(message, []);
  }

  /** A maintenance packet reached a processor: a response for the controller, or a request the
   * processor's interface answers (its identity) back along the reverse route. */
  private endpointMaintenance(g: number, packet: number, now: number): void {
    const message = this.messageOf(packet);
    this.forgetMessage(packet);
    if (!message) return;
    if (message.op === 'response') {
      const part = this.bound;
      this.onMaintenance(message, g, now);
      this.bind(part);
      return;
    }
    const chip = this.fabric.portOwner(g);
    const processor = this.globalProcessor[g];
    const response =
      message.register === 'identity'
        ? answerTo(message, [this.serials[chip], MODEL_PROCESSOR, 4, g - this.fabric.portBase[chip], processor])
        : answerTo(message, [], 'no-such-register', `a processor interface answers only "identity"`);
    const id = this.store.allocate(0, g, maintenancePacketPhits(response), 1, FLAG_SOURCE_ROUTED, 0, now, -1);
    this.keepMessage(id, response);
    this.store.setReturnRoute(id, packet);
    this.sources.push((g << VC_SHIFT) | 1, id);
    this.wakeLink(g, now);
  }

  /** Bytes held in typed arrays by the fabric's state (registers, buffers, pools, links). */
  arrayBytes(): number {
    const seen = new Set<unknown>();
    const sum = (value: unknown, depth: number): number => {
      if (value === null || typeof value !== 'object' || seen.has(value)) return 0;
      seen.add(value);
      if (ArrayBuffer.isView(value)) {
        // Records are read through two views of one buffer: count the buffer once.
        if (seen.has(value.buffer)) return 0;
        seen.add(value.buffer);
        return value.byteLength;
      }
      if (depth > 2) return 0;
      let total = 0;
      for (const field of Object.values(value)) total += sum(field, depth + 1);
      return total;
    };
    return sum(this, 0);
  }
}

/** Parts beyond this many share the last: a part may hold several independent networks. */
const MAX_PARTS = 64;

/**
 * The fabric's independent networks: routers joined by cables, whatever the cables' state, are in
 * one part (BlackWidow's four network slices are four parts, §2.2). Nothing in one part can act on
 * another, so each can be evaluated on its own. The processors' ports join no parts together:
 * each goes with the router it is cabled to.
 */
function independentParts(fabric: EmulatedFabric, chipRouter: Int32Array, tileGlobal: Int32Array): { routerPart: Uint8Array; parts: number } {
  const routers = tileGlobal.length / NPORTS;
  const root = Int32Array.from({ length: routers }, (_, r) => r);
  const find = (r: number): number => {
    while (root[r] !== r) r = root[r] = root[root[r]];
    return r;
  };
  for (let r = 0; r < routers; r++)
    for (let p = 0; p < NPORTS; p++) {
      const peer = fabric.peer[tileGlobal[r * NPORTS + p]];
      const other = peer >= 0 ? chipRouter[fabric.portOwner(peer)] : -1;
      if (other >= 0) root[find(other)] = find(r);
    }
  const routerPart = new Uint8Array(routers);
  const partOfRoot = new Map<number, number>();
  for (let r = 0; r < routers; r++) {
    const top = find(r);
    if (!partOfRoot.has(top)) partOfRoot.set(top, min(partOfRoot.size, MAX_PARTS - 1));
    routerPart[r] = partOfRoot.get(top)!;
  }
  return { routerPart, parts: max(1, min(partOfRoot.size, MAX_PARTS)) };
}

/**
 * What one independent part of the fabric allocates and counts on its own: its packets, its buffer
 * entries, its links' drain records (see drainPairs) and its counters. Nothing of one part's world
 * is touched while another part runs, so the parts can run apart — in windows, or on threads.
 */
class PartWorld {
  readonly packets = new PacketStore(4096);
  readonly pool = new SegmentPool(8192, this.packets);
  drainPairs = shared(Int32Array, 4 * DRAIN_SLOT_INTS);
  drainOwner = shared(Int32Array, 4).fill(-1);
  drainNext = 0;
  phitHops = 0;
  retransmissions = 0;
  /** Why a packet routed to the discard port is discarded (see raiseRouteError), by packet id. */
  readonly routeErrors = new Map<number, number>();
}

walkedState(PartWorld);
walkedState(YarcFabricSim, [
  // The part bound, and what the binding put in fields (see bind).
  'bound',
  'world',
  'store',
  'pool',
  'drainPairs',
  // The thread's own run: where in a cycle and a window it is.
  'phase',
  'windowPart',
  'windowCycles',
  'skewed',
  // Scratch space, the handles' view, and the maintenance messages (never in flight while parts run apart).
  'decision',
  'packets',
  'maintenance',
]);
