/**
 * The link layer of a cycle-level fabric engine (issue 35, capability 2), over the run control of
 * parted-engine.ts: every cable's two link control blocks — serialization at the link's rate,
 * credits per VC, go-back-N replay after a bad CRC, lanes that fail and are decommissioned, the
 * drain records of the runs a link sends from a chip's output buffer — the endpoints' network
 * interfaces (source queues and receive buffers), fault injection on links and routers, and the
 * maintenance block: source-routed maintenance packets, the register accesses a chip executes,
 * and accesses by address over an out-of-band control network.
 *
 * The rates, latencies and sizes are the chip's, given as a LinkSpec. A chip model extends this
 * class with its own stages: it fills `outputs` (the buffers the output links send from), drains
 * `inputs` (where the links' copies arrive), and answers the hooks declared abstract below — each
 * called once per run, packet or event, never per phit. Citations are to the YARC paper (000),
 * whose link control block (§4.3, §4.4, §7.7) this layer implements.
 */
import { keyedDraw } from '@weft/fabric-model';
import type { EmulatedFabric } from '../emulated-fabric';
import type { FabricEngine } from './fabric-engine';
import { answerTo, MaintenanceMessage } from './maintenance-message';
import {
  DiscardReason,
  FLAG_LINK_LOST,
  FLAG_LOCAL,
  FLAG_SOFT_ERROR,
  FLAG_SOURCE_ROUTED,
  FLAG_TRACE,
  PacketQueues,
  STATE_IN_NETWORK,
  TraceEvent,
} from './packet-store';
import { DRAIN_SLOT_INTS, PartedEngine } from './parted-engine';
import { BufferQueues, MAX_PACKET_PHITS, SEGMENT_DELAY, SEGMENT_INLINE_PHITS, SEGMENT_OFFSET, SEGMENT_SENT_IN, SEGMENT_WORD_SHIFT } from './segment-pool';
import { shared, sharedFrom } from './shared-memory';
import { walkedState } from './shared-state';
import { StageQueue } from './stage-queue';
import { chipSerial } from './maintenance-message';

// The hot paths reach these through module constants, not the global object: inside a vm
// context (Jest's test environment) every global look-up is an intercepted property access, and
// an all-pairs run on the 1024-processor fabric took 11 s there instead of 2.8 s. For the same
// reason a chip model copies the record layout below into constants of its own module.
const { ceil, clz32, max, min, pow } = Math;
const NEVER = Infinity;

/** VCs per port where a chip's LinkSpec gives none (YARC's two: requests and responses). */
const DEFAULT_VCS = 2;
const SEG_SHIFT = SEGMENT_WORD_SHIFT;
const SEG_SENT_IN = SEGMENT_SENT_IN;
const SEG_DELAY = SEGMENT_DELAY;
const SEG_OFFSET = SEGMENT_OFFSET;
const SEG_INLINE = SEGMENT_INLINE_PHITS;
const MAX_PHITS = MAX_PACKET_PHITS;

/** The phase of the output links in a cycle's evaluation (PartedEngine: PHASE_EVENTS is 0). */
export const PHASE_LINKS = 1;

/** The fabric's random events on links, each drawn for itself from the seed (keyedDraw): whether a
 * copy on a port fails its CRC, and the lane a retry on a port is counted against — each keyed by
 * the port and the cycle, so that the order in which stages are visited, or parts are run, changes
 * none of them. A chip model numbers its own draws from DRAW_CHIP. */
const DRAW_BAD_COPY = 1;
const DRAW_RETRY_LANE = 2;
export const DRAW_CHIP = 3;

/** Link control block records (see `txF64`): 64 bytes, in Float64 and Int32 slots. A record's
 * first slot is index << shift, and a field's slot that | field (bitwise, so the optimized code
 * needs no overflow checks, as a multiply and add would). */
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

/** The port record's first float64 slot: the link's rate (phits per cycle). */
const P_RATE = 0;

/**
 * The record layouts for a chip of `vcs` VCs a port (issue 56: any number, where YARC's link
 * layer had two), for the engine and for a chip model's stages that read a link's state (copied
 * into its own module constants).
 *
 * A buffer's index per VC is (its index << VC_SHIFT) | v, VC_SHIFT the bits that hold `vcs`.
 *
 * The sender side of each global port is one record (portF64 / portI32 over the same bytes), since a
 * packet leaving by a port touches all of it: float64 slots P_RATE (phits per cycle), P_PHITS + v
 * (phits sent on VC v, for utilisation reports) and P_BLOCKED + v (since when VC v has had a packet
 * it could not send; -1: not blocked); int32 slots P_LATENCY (cycles), P_CREDITS + v,
 * P_CREDIT_WAIT + v (1 while VC v waits for credits: their return wakes the sender) and
 * P_ERROR_PRONE (a lane has a bit-error rate). As separate arrays they cost a cache miss each per
 * hop on a fabric far larger than the cache. The record is the power of two of bytes that holds
 * them: 64 bytes for two VCs, 128 for four, 256 for eight.
 */
export function linkRecords(vcs: number) {
  if (!(Number.isInteger(vcs) && vcs >= 1 && vcs <= 16)) throw new RangeError(`a port has 1 to 16 VCs, got ${vcs}`);
  const VC_SHIFT = vcs === 1 ? 0 : 32 - clz32(vcs - 1);
  const P_PHITS = 1;
  const P_BLOCKED = P_PHITS + vcs;
  const P_LATENCY = 2 * (P_BLOCKED + vcs);
  const P_CREDITS = P_LATENCY + 1;
  const P_CREDIT_WAIT = P_CREDITS + vcs;
  const P_ERROR_PRONE = P_CREDIT_WAIT + vcs;
  const PORT_RECORD_BYTES = 1 << (32 - clz32(4 * (P_ERROR_PRONE + 1) - 1));
  return {
    NVC: vcs,
    VC_SHIFT,
    VC_MASK: (1 << VC_SHIFT) - 1,
    PORT_RECORD_BYTES,
    P_F64_SHIFT: 31 - clz32(PORT_RECORD_BYTES / 8),
    P_I32_SHIFT: 31 - clz32(PORT_RECORD_BYTES / 4),
    P_PHITS,
    P_BLOCKED,
    P_LATENCY,
    P_CREDITS,
    P_CREDIT_WAIT,
    P_ERROR_PRONE,
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
  } as const;
}

/** A chip's link layer in numbers (the chip's datasheet; YARC's in yarc/yarc-constants.ts). */
export interface LinkSpec {
  /** The chip's clock, and ns per cycle (the engine's cycle). */
  readonly clockGHz: number;
  readonly nsPerCycle: number;
  /** Bits a phit carries, and lanes a healthy port stripes them over. */
  readonly phitBits: number;
  readonly lanes: number;
  /** SerDes and link control latency at each end of a link, and signal propagation per metre of cable. */
  readonly linkFixedNs: number;
  readonly cableNsPerMeter: number;
  /** Credits (phits) per VC of a router port's input buffer, and of an endpoint's receive buffer. */
  readonly inputCreditsPerVc: number;
  readonly endpointReceivePhits: number;
  /** VCs a port has (2 where absent: YARC's requests and responses). */
  readonly vcs?: number;
  /** Cycles an endpoint's interface takes to start a packet on its link. */
  readonly endpointInjectCycles: number;
  /** Cycles from a copy's head arriving in an input buffer to its being routable (the input stages). */
  readonly inputStages: number;
  /** Output buffers per router port, per VC included (the buffers an output link sends from). */
  readonly outputBuffersPerPort: number;
  /** Cycles a chip's maintenance block takes to execute a register access. */
  readonly maintenanceProcessCycles: number;
}

/** A link's latency in cycles: the fixed part at its ends and the cable's propagation. */
function linkLatencyCycles(link: LinkSpec, meters: number): number {
  return max(1, ceil((link.linkFixedNs + link.cableNsPerMeter * meters) / link.nsPerCycle));
}

/** Cycles ahead anything is timed: a go-back-N replay waits two link latencies; everything else is
 * closer. Later wakes (a forward-progress timer) are re-armed when they come due. */
function horizonOf(fabric: EmulatedFabric, link: LinkSpec): number {
  let maxLatency = 1;
  for (let g = 0; g < fabric.portCount; g++) if (fabric.peer[g] >= 0) maxLatency = max(maxLatency, linkLatencyCycles(link, fabric.lengthMeters[g]));
  return 3 * maxLatency + 128;
}

export abstract class LinkEngine extends PartedEngine implements FabricEngine {
  /** VCs per port (the LinkSpec's; YARC's two: requests and responses). */
  readonly vcs: number;
  /**
   * The record layout for `vcs` (linkRecords), in fields the hot code reads: a buffer's index per
   * VC is (its index << vcShift) | v, and a port record's fields are at these slots.
   */
  protected readonly vcShift: number;
  protected readonly vcMask: number;
  protected readonly pF64Shift: number;
  protected readonly pI32Shift: number;
  protected readonly pPhits: number;
  protected readonly pBlocked: number;
  protected readonly pLatency: number;
  protected readonly pCredits: number;
  protected readonly pCreditWait: number;
  protected readonly pErrorProne: number;
  /** The fabric's clock: emulated ns per cycle. */
  readonly nsPerCycle: number;
  /**
   * Router ports, numbered densely router by router (a router's input buffers, and its stages,
   * are indexed by them): the global port of each, the router port of each global port (-1 for
   * endpoint ports), and each router's first (routerPortBase[routers]: their count).
   */
  readonly routerPortGlobal: Int32Array;
  readonly globalRouterPort: Int32Array;
  readonly routerPortBase: Int32Array;
  /** Processor number of each endpoint port's chip (-1 for router ports). */
  readonly globalProcessor: Int32Array;
  /** Endpoint port of each processor and plane: processorPort[p * planes + plane]. */
  readonly processorPort: Int32Array;
  /** Ports of the widest endpoint: the planes an endpoint sends into (BlackWidow: four slices). */
  readonly planes: number;

  /** Input buffers of every router port, per VC: index (router port << VC_SHIFT) | v. A link's
   * copies arrive in the input buffer of the router port at its far end (or an endpoint's receive
   * buffer). */
  protected readonly inputs: BufferQueues;
  /** The chip's output buffers, which the output links send from (TX_SOURCE), outputBuffersPerPort
   * to a router port (YARC: a port's 8 output buffers × 2 VCs). */
  protected readonly outputs: BufferQueues;
  /** Sender side of every global port (see PORT_RECORD_BYTES). */
  protected readonly portF64: Float64Array;
  protected readonly portI32: Int32Array;
  /** Per global port: packets routed here are discarded (link down or forward-progress timeout). */
  readonly discarding: Uint8Array;
  readonly discardReason: Uint8Array;
  /** Endpoint ports: receive buffers, and whether the processor takes phits from them. Their room
   * is the sender's credits alone (ENDPOINT_RECEIVE_PHITS), so their occupancy is not counted. */
  protected readonly receive: BufferQueues;
  readonly accepting: Uint8Array;

  /**
   * Stages wake up through events (see `step` and StageQueue): a stage that cannot move anything
   * now is woken by whatever will let it — the phits it waits for becoming usable, room
   * downstream, credits, the end of its own run — so an idle stage costs nothing. The output links
   * (router outputs and endpoints, by global port) are the link layer's stages; a chip model adds
   * its own. Credit returns are timed on the parts' wheels (PartedEngine.wheels).
   */
  protected readonly links: StageQueue;

  /**
   * The link control block of every global port's transmit side (§4.3), one 64-byte record per
   * port (`txF64` and `txI32` over the same bytes; a link's fields are read together, and on a 32K
   * fabric an array per field cost a cache miss per field). Float64 slots: TX_BUSY, until when
   * the link is busy with the copy it is sending; TX_ACC and TX_ACC_TIME, the serialization
   * accumulator and the last cycle whose rate has been added to it; TX_DRAIN_FIRST and
   * TX_DRAIN_LAST, the first and last send times of the link's last run from a output buffer.
   * Int32 slots: TX_PACKET, the packet on the link (-1: none); TX_DOWN, the downstream segment of
   * the copy being sent; TX_SOURCE, where its phits come from (a output buffer, or -1 for the LCB's
   * own send buffer: endpoints and replays); TX_SENT, phits of the copy sent so far, with bit 8 set
   * when this copy will fail its CRC; TX_DRAIN_BUFFER and TX_DRAIN, the output buffer the last
   * run drew from, and its phit count with the slot of `drainPairs` that holds each phit's send
   * times. The drain record is kept here, not read from the downstream copy, because the next
   * router may be done with that copy — and reuse its entry — before the last of these phits has
   * left.
   */
  protected readonly txF64: Float64Array;
  protected readonly txI32: Int32Array;
  /** When a go-back-N replay starts. */
  protected readonly txResumeAt: Float64Array;
  /**
   * Drain records' phits, a slot of MAX_PACKET_PHITS pairs per record, side by side (one cache
   * line per run, not two): [2k] when phit k leaves the output buffer, [2k+1] when it came in (for
   * bufferPhits), both from TX_DRAIN_FIRST. A record says something only until its last phit has
   * left, so slots are lent to links as they start runs and taken back, in turn, from links whose
   * runs are over: the slots in use are the links draining now, not every output of the fabric (on
   * a 32K fabric a slot per output was 192 MB, written page by page as the traffic first reached
   * each output). `drainOwner`: the link holding each slot (-1: none); `drainNext`: the next slot
   * to lend. It starts small, so that the tests holding this evaluation to the reference mode go
   * through its growing and its lending again. The bound part's are in `drainPairs` (PartedEngine).
   */
  /** Endpoint receive side: busy until, the cycle its last run took its last phit, and whether a
   * maintenance packet taken whole waits at the head of a receive buffer to be answered. */
  protected readonly recvBusy: Float64Array;
  protected readonly recvLast: Float64Array;
  protected readonly recvHeld: Uint8Array;
  /** Per lane of every transmit port: bit-error rate, retry count, and which lanes are in service. */
  readonly laneBitErrorRate: Float64Array;
  readonly laneRetries: Uint32Array;
  readonly laneMask: Uint8Array;
  /** Routers that have stopped responding (fault injection): black holes behind dead links. */
  readonly routerDead: Uint8Array;
  /** Lane retry threshold of the endpoints' own link control blocks (a router's is its chip's: laneRetryThreshold). */
  endpointLaneRetryThreshold = 16;

  /** Maintenance packets in flight, by packet id (the store's ids are dense), and chip register
   * accesses being executed. */
  protected readonly maintenance: (MaintenanceMessage | undefined)[] = [];
  /** Per router port: maintenance answers the chip has yet to put in its input buffer (VC 1). */
  protected readonly chipAnswers: Uint8Array;
  /**
   * Register accesses being executed, oldest first: every access takes MAINTENANCE_PROCESS_CYCLES
   * from its request's arrival, so arrival order is the order they are due. A ring of (due cycle,
   * arrival router port, answer packet); the request waits in the answer packet's `maintenance` slot.
   * Typed, not a list of objects: a 32K discovery queues half a million accesses.
   */
  protected workDue = shared(Float64Array, 64);
  protected workTile = shared(Int32Array, 64);
  protected workAnswer = shared(Int32Array, 64);
  protected workHead = 0;
  protected workCount = 0;
  /** Serial number of every chip (identity register). */
  readonly serials: Uint32Array;
  /** Called when a maintenance response reaches an endpoint (the maintenance controller). */
  onMaintenance: (message: MaintenanceMessage, endpointPort: number, cycle: number) => void = () => undefined;
  /** Called once per cycle while set (the maintenance controller's timeouts). */
  onTick: ((cycle: number) => void) | null = null;

  /** Lanes a healthy port has, and the input stages' cycles (LinkSpec), where the code reads them. */
  protected readonly lanes: number;
  protected readonly inputStages: number;

  constructor(
    fabric: EmulatedFabric,
    seed: number,
    /** The chip's link layer in numbers. */
    readonly link: LinkSpec,
  ) {
    super(fabric, seed, horizonOf(fabric, link));
    const records = linkRecords(link.vcs ?? DEFAULT_VCS);
    this.vcs = records.NVC;
    this.vcShift = records.VC_SHIFT;
    this.vcMask = records.VC_MASK;
    this.pF64Shift = records.P_F64_SHIFT;
    this.pI32Shift = records.P_I32_SHIFT;
    this.pPhits = records.P_PHITS;
    this.pBlocked = records.P_BLOCKED;
    this.pLatency = records.P_LATENCY;
    this.pCredits = records.P_CREDITS;
    this.pCreditWait = records.P_CREDIT_WAIT;
    this.pErrorProne = records.P_ERROR_PRONE;
    this.nsPerCycle = link.nsPerCycle;
    this.lanes = link.lanes;
    this.inputStages = link.inputStages;
    const chips = fabric.design.chips;
    const R = this.routerChip.length;
    const ports = fabric.portCount;
    this.routerPortBase = shared(Int32Array, R + 1);
    for (let r = 0; r < R; r++) this.routerPortBase[r + 1] = this.routerPortBase[r] + chips[this.routerChip[r]].portCount;
    const routerPorts = this.routerPortBase[R];
    this.routerPortGlobal = shared(Int32Array, routerPorts);
    this.globalRouterPort = shared(Int32Array, ports).fill(-1);
    for (let r = 0; r < R; r++) {
      for (let t = this.routerPortBase[r]; t < this.routerPortBase[r + 1]; t++) {
        const g = fabric.portBase[this.routerChip[r]] + (t - this.routerPortBase[r]);
        this.routerPortGlobal[t] = g;
        this.globalRouterPort[g] = t;
      }
    }
    this.globalProcessor = shared(Int32Array, ports).fill(-1);
    let maxProcessor = -1;
    let planes = 1;
    for (const c of this.endpointChip) {
      maxProcessor = max(maxProcessor, chips[c].processor);
      planes = max(planes, chips[c].portCount);
    }
    this.planes = planes;
    this.processorPort = shared(Int32Array, (maxProcessor + 1) * planes).fill(-1);
    for (const c of this.endpointChip) {
      for (let p = 0; p < chips[c].portCount; p++) {
        const g = fabric.portBase[c] + p;
        this.globalProcessor[g] = chips[c].processor;
        this.processorPort[chips[c].processor * planes + p] = g;
      }
    }

    const { pool } = this.worlds[0];
    this.inputs = new BufferQueues(routerPorts << this.vcShift, pool);
    this.outputs = new BufferQueues(routerPorts * link.outputBuffersPerPort, pool);
    this.receive = new BufferQueues(ports << this.vcShift, pool);
    this.sources = new PacketQueues(ports << this.vcShift, this.worlds[0].packets);
    this.boundQueues.push(this.inputs, this.outputs, this.receive);
    this.boundSources.push(this.sources);

    // Rates wait for the chip's registers (linksReady); latencies and credits are the cables' and the chips'.
    const portRecords = new SharedArrayBuffer(ports * records.PORT_RECORD_BYTES);
    this.portF64 = new Float64Array(portRecords);
    this.portI32 = new Int32Array(portRecords);
    for (let g = 0; g < ports; g++) for (let v = 0; v < this.vcs; v++) this.portF64[(g << this.pF64Shift) | (this.pBlocked + v)] = -1;
    for (let g = 0; g < ports; g++) {
      const peer = fabric.peer[g];
      if (peer < 0) continue;
      this.portI32[(g << this.pI32Shift) | this.pLatency] = linkLatencyCycles(link, fabric.lengthMeters[g]);
      const downstreamIsEndpoint = this.globalRouterPort[peer] < 0;
      for (let v = 0; v < this.vcs; v++)
        this.portI32[(g << this.pI32Shift) | (this.pCredits + v)] = downstreamIsEndpoint ? link.endpointReceivePhits : link.inputCreditsPerVc;
    }
    this.discarding = shared(Uint8Array, ports);
    this.discardReason = shared(Uint8Array, ports);
    this.accepting = shared(Uint8Array, ports).fill(1);
    this.links = new StageQueue(ports, this.horizon, PHASE_LINKS, this.linkPart);
    this.stages.push(this.links);
    this.chipAnswers = shared(Uint8Array, routerPorts);
    this.serials = sharedFrom(
      Uint32Array,
      chips.map((c) => chipSerial(c.name)),
    );
    const txRecords = new SharedArrayBuffer(ports * TX_RECORD_BYTES);
    this.txF64 = new Float64Array(txRecords);
    this.txI32 = new Int32Array(txRecords);
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
    this.laneBitErrorRate = shared(Float64Array, ports * link.lanes);
    this.laneRetries = shared(Uint32Array, ports * link.lanes);
    this.laneMask = shared(Uint8Array, ports);
    for (let g = 0; g < ports; g++) this.laneMask[g] = (1 << fabric.activeLanes[g]) - 1;
    this.routerDead = shared(Uint8Array, R);
  }

  /** A chip model's constructor ends with this, once its registers are in place: every link's rate
   * (which the chips' programmed rates limit), and part 0 bound. */
  protected linksReady(): void {
    for (let g = 0; g < this.fabric.portCount; g++) if (this.fabric.peer[g] >= 0) this.refreshLink(g);
    this.rebind();
  }

  // ---------------------------------------------------------------- what the chip model answers
  /** Wakes the stage of router port `input` that takes the copies arriving in its input buffers, at cycle `at`. */
  protected abstract wakeInput(input: number, at: number): void;
  /** An output link's run takes phits out of output buffer `source` from cycle `from` on: room
   * appears there (a stage waiting for it may be woken). */
  protected abstract outputDraining(source: number, from: number): void;
  /** Output buffer `source` is done with its head packet: all of it has left. */
  protected abstract outputPacketLeft(source: number): void;
  /** Phits left output buffer `source` at once, at `now` (a dead link dropped them). */
  protected abstract outputRoomNow(source: number, now: number): void;
  /** The lane rate (Gb/s) the chip of router port g is programmed to run it at (Infinity: no limit). */
  protected abstract laneRateLimit(g: number): number;
  /** Retries a lane of router port g may count before it is decommissioned (§7.7). */
  protected abstract laneRetryThreshold(g: number): number;
  /** A register access on router r, arrived on its port `arrivalPort` (-1: by address); the answer. */
  protected abstract executeAccess(r: number, message: MaintenanceMessage, arrivalPort: number): MaintenanceMessage;
  /** What an endpoint's interface answers to an identity read at its port `port`. */
  protected abstract endpointIdentity(chip: number, port: number, processor: number): number[];
  /** Phits of a maintenance packet carrying `message`. */
  protected abstract maintenancePhits(message: MaintenanceMessage): number;
  /** Router r's registers back at their power-on values (a revived router). */
  protected abstract resetRouter(r: number): void;

  // ---------------------------------------------------------------- the cycle, for the run control
  /** The link layer's events due at `now` in part p: credit returns, and the output links' wake-ups.
   * A chip model's fireEvents calls this first, then fires its own stages. */
  protected fireLinkEvents(p: number, now: number): void {
    this.wheels[p].fire(now, this.returnedCredits);
    this.links.fire(p, now);
  }

  protected beforeParts(now: number): void {
    if (this.workCount > 0) this.runChipWork(now);
    if (this.onTick !== null) this.onTick(now);
  }

  /** A maintenance controller's per-cycle tick, maintenance packets and the chips' work on them act across parts. */
  protected actsAcrossParts(): boolean {
    return this.onTick !== null || this.workCount !== 0 || this.maintenanceInFlight !== 0;
  }

  protected quiet(): boolean {
    return this.workCount === 0 && this.onTick === null;
  }

  /**
   * Phits per cycle a port's link carries: lanes × rate / phit bits, at the chip's clock (YARC:
   * 24-bit phits at 0.8 GHz, paper 000 §4.1, §4.4). The rate is the slowest of what the cable can
   * be driven at and the rates the chips at either end are programmed for (laneRateLimit).
   */
  protected rateFor(g: number): number {
    let rate = this.fabric.rateGbps[g];
    for (const end of [g, this.fabric.peer[g]]) {
      if (end < 0 || this.globalRouterPort[end] < 0) continue;
      const limit = this.laneRateLimit(end);
      if (limit < rate) rate = limit;
    }
    return (this.fabric.activeLanes[g] * rate) / this.link.phitBits / this.link.clockGHz;
  }

  /** Recomputes a port's serialization after a lane change (§7.7: a port runs 2- or 1-bit wide). */
  refreshLink(g: number): void {
    this.portF64[(g << this.pF64Shift) | P_RATE] = this.rateFor(g);
  }

  /** Port g's serialization rate: phits per cycle (0 on a dead link). */
  linkRateOf(g: number): number {
    return this.portF64[(g << this.pF64Shift) | P_RATE];
  }

  /** Port g's link latency in cycles. */
  linkLatencyOf(g: number): number {
    return this.portI32[(g << this.pI32Shift) | this.pLatency];
  }

  /** Phits sent so far on each port and VC (index g * vcs + v), for utilisation reports: a copy. */
  portPhits(): Float64Array {
    const ports = this.portF64.length >> this.pF64Shift;
    const V = this.vcs;
    const out = new Float64Array(ports * V);
    for (let g = 0; g < ports; g++) for (let v = 0; v < V; v++) out[g * V + v] = this.portF64[(g << this.pF64Shift) | (this.pPhits + v)];
    return out;
  }

  // ---------------------------------------------------------------- source queues (endpoints)
  /** Source queues of the endpoint ports, per VC: index g*NVC+v. */
  protected readonly sources: PacketQueues;

  /** Creates a packet at processor `source`'s injection port into `plane` towards `destination`. */
  inject(source: number, plane: number, destination: number, length: number, vc: number, flags: number, hashBits: number, tag = 0): number {
    const g = this.endpointPort(source, plane);
    if (this.windowPart >= 0 && g >= 0 && this.linkPart[g] !== this.windowPart)
      throw new Error(`processor ${source}'s port into plane ${plane} is not in part ${this.windowPart}, which runWindowed is running on its own`);
    this.bind(this.partOfPort(g));
    const id = this.store.allocate(destination, g, length, vc, flags, hashBits, this.cycle, tag);
    if (g < 0 || this.fabric.peer[g] < 0 || this.fabric.activeLanes[g] === 0) {
      this.store.state[id] = STATE_IN_NETWORK;
      this.store.discard(id, DiscardReason.Unreachable, g, this.cycle);
      return this.handleOf(id);
    }
    this.sources.push((g << this.vcShift) | vc, id);
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

  /** The port processor `endpoint` sends into `plane` by (-1: none). */
  endpointPort(endpoint: number, plane: number): number {
    return plane >= 0 && plane < this.planes ? (this.processorPort[endpoint * this.planes + plane] ?? -1) : -1;
  }

  /** The processor whose port global port `g` is (-1: a router's). */
  endpointAt(g: number): number {
    return this.globalProcessor[g];
  }

  get portCount(): number {
    return this.globalProcessor.length;
  }

  /** Credits due now (the timing wheel holds nothing else): `phits` of them to the sender of key
   * = (g << VC_SHIFT) | v. */
  protected readonly returnedCredits = (key: number, phits: number): void => {
    // The VC ack in the LCB sideband (§4.3).
    this.portI32[this.portVcI32(key, this.pCredits)] += phits;
    // Only a sender that found too few credits waits for them; any other is awake for its own
    // reasons, and waking it here would cost a visit per packet per hop.
    if (this.portI32[this.portVcI32(key, this.pCreditWait)]) {
      this.portI32[this.portVcI32(key, this.pCreditWait)] = 0;
      this.wakeLink(key >> this.vcShift, this.cycle);
    }
  };

  /** Returns `phits` credits of VC v to the sender at port g, arriving at cycle `at`. */
  protected returnCredits(g: number, v: number, phits: number, at: number): void {
    this.wheels[this.linkPart[g]].schedule(this.cycle, at, (g << this.vcShift) | v, phits);
  }

  /** Wakes port g's sender (router output or endpoint) at cycle `at`. */
  protected wakeLink(g: number, at: number): void {
    this.links.wake(g, at, this.cycle, this.phase);
  }

  /** Wakes both sides of a port whose state changed (faults, restores). */
  protected wake(g: number): void {
    this.wakeLink(g, this.cycle);
    const input = this.globalRouterPort[g];
    if (input >= 0) this.wakeInput(input, this.cycle);
  }

  /** Phits of output link g's last run from a output buffer that leave it after cycle `now`. */
  protected drainPending(g: number, now: number): number {
    if (this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] <= now) return 0;
    const since = now - this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_FIRST];
    const drain = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN];
    const base = ((drain >> DRAIN_COUNT_BITS) - 1) * DRAIN_SLOT_INTS;
    let pending = 0;
    for (let j = (drain & DRAIN_COUNT_MASK) - 1; j >= 0 && this.drainPairs[base + 2 * j] > since; j--) pending++;
    return pending;
  }

  // ---------------------------------------------------------------- endpoints
  /** One endpoint port: the processor takes phits from its receive buffers, and its interface
   * sends from the source queues. */
  protected stepEndpoint(g: number, now: number): void {
    const pool = this.pool;
    // The port's own wake-ups, gathered into one: within its visit a stage's wake-ups keep only the
    // earliest anyway, and one call site leaves V8's inlining budget for the accessors below.
    let wake = NEVER;
    // Receive: one phit per cycle when accepting, from one VC at a time.
    if (now < this.recvBusy[g]) wake = this.recvBusy[g];
    else {
      if (this.recvHeld[g]) {
        this.recvHeld[g] = 0;
        for (let v = 0; v < this.vcs; v++) {
          const s = this.receive.headOf((g << this.vcShift) | v);
          if (s >= 0 && pool.sentOutOf(s) === this.store.length[pool.packetOf(s)]) this.finishReceive(g, v, this.recvLast[g], now);
        }
      }
      if (this.accepting[g]) {
        for (let v = 0; v < this.vcs; v++) {
          const buffer = (g << this.vcShift) | v;
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
          this.returnCredits(this.fabric.peer[g], v, n, now + n - 1 + this.portI32[(g << this.pI32Shift) | this.pLatency]);
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
        for (let v = 0; v < this.vcs; v++) {
          const q = (g << this.vcShift) | v;
          if (this.sources.size[q] === 0) continue;
          const head = this.sources.head[q];
          if (this.portI32[this.portVcI32(q, this.pCredits)] < this.store.length[head]) {
            this.portI32[this.portVcI32(q, this.pCreditWait)] = 1; // the credit return wakes it
            continue;
          }
          this.sources.shift(q);
          this.portI32[this.portVcI32(q, this.pCredits)] -= this.store.length[head];
          this.store.state[head] = STATE_IN_NETWORK;
          this.store.enteredAt[head] = now;
          this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = head;
          this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE] = -1;
          this.startCopy(g, now, this.link.endpointInjectCycles);
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

  /** Whether endpoint port g has a packet waiting to be sent on any VC. */
  protected hasSources(g: number): boolean {
    const size = this.sources.size;
    const first = g << this.vcShift;
    for (let q = first, end = first + this.vcs; q < end; q++) if (size[q] > 0) return true;
    return false;
  }

  /** Slot in portI32 of VC v's field `field` (pCredits, pCreditWait) for key = ((g << vcShift) | v). */
  protected portVcI32(key: number, field: number): number {
    return ((key >> this.vcShift) << this.pI32Shift) | (field + (key & this.vcMask));
  }

  /** Endpoint port g's own link is down: what waits to be sent cannot be (§7.7). */
  protected discardSources(g: number): void {
    for (let v = 0; v < this.vcs; v++) {
      const q = (g << this.vcShift) | v;
      while (this.sources.size[q] > 0) {
        const p = this.sources.shift(q);
        this.store.state[p] = STATE_IN_NETWORK;
        this.forgetMessage(p);
        this.store.discard(p, this.discardReason[g] || DiscardReason.LinkDown, g, this.cycle);
      }
    }
  }

  /** When the receive side of endpoint port g next has something to do, from cycle `after` on. */
  protected receiveNextWake(g: number, after: number): number {
    const pool = this.pool;
    let at = NEVER;
    for (let v = 0; v < this.vcs; v++) {
      const s = this.receive.headOf((g << this.vcShift) | v);
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
  protected finishReceive(g: number, v: number, cycle: number, now: number): void {
    const packet = this.pool.packetOf(this.receive.headOf((g << this.vcShift) | v));
    this.receive.shift((g << this.vcShift) | v);
    const flags = this.store.flags[packet];
    if (flags & (FLAG_SOFT_ERROR | FLAG_LINK_LOST)) {
      // §4.3: the destination's interface discards a packet marked bad.
      this.forgetMessage(packet);
      this.store.discard(packet, flags & FLAG_LINK_LOST ? DiscardReason.LinkDown : DiscardReason.SoftError, g, cycle);
      return;
    }
    if (!(flags & FLAG_SOURCE_ROUTED) && this.store.destination[packet] !== this.globalProcessor[g]) {
      // Issue 54: a packet at the wrong processor counted as delivered (a force-pushed bad image
      // sent 260 of 2,304 astray, unseen). The processor's interface checks the destination and
      // refuses it: a discard no fault explains, which fails a drill.
      this.forgetMessage(packet);
      this.store.discard(packet, DiscardReason.Misdelivered, g, cycle);
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

  /** Starts a copy of port g's packet on the link; whether its CRC will fail is decided now. */
  protected startCopy(g: number, now: number, stages: number): void {
    const packet = this.txI32[(g << TX_I32_SHIFT) | TX_PACKET];
    const v = this.store.vc[packet];
    const peer = this.fabric.peer[g];
    const peerTile = this.globalRouterPort[peer];
    const down = this.pool.allocate(packet, now, stages + this.portI32[(g << this.pI32Shift) | this.pLatency]);
    const errorProne = this.portI32[(g << this.pI32Shift) | this.pErrorProne] !== 0;
    const bad = errorProne && keyedDraw(this.seed, DRAW_BAD_COPY, g, now) < this.copyErrorProbability(g, this.store.length[packet]) ? 1 : 0;
    if (bad) this.pool.setRoute(down, -2); // held at the receiver until its bad CRC is seen
    if (peerTile >= 0) this.inputs.push((peerTile << this.vcShift) | v, down);
    else this.receive.push((peer << this.vcShift) | v, down);
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
  protected trace(packet: number, chip: number, port: number, vc: number, stage: TraceEvent['stage'], cycle: number, detail?: string): void {
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
        `${Number.isNaN(e.cycle) ? '' : `${(e.cycle * this.nsPerCycle).toFixed(2)} ns (cycle ${e.cycle})`} ${e.stage}` +
        (e.chip >= 0 ? ` ${this.fabric.chipNames[e.chip]}:${e.port}` : '') +
        ` vc${e.vc}${e.detail ? ` — ${e.detail}` : ''}`,
    );
  }

  /**
   * Moves phits of port g's packet onto the link at its rate: from the output buffer as they
   * become usable there, or from the LCB's own send buffer (endpoints, and replays). The rate
   * accumulator gains the link's rate (P_RATE) per cycle and a phit leaves whenever it reaches
   * one, exactly as a cycle-by-cycle loop would; the run ends with the packet or with the phits
   * the column channel has committed so far. A phit committed but not yet usable is waited for within the
   * run — the packet holds the link until its tail (VCT), so nothing else could use the link in
   * between — with the accumulator filling meanwhile as it would over idle cycles.
   */
  protected advanceLink(g: number, now: number): void {
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
    const s = source >= 0 ? this.outputs.headOf(source) : -1;
    const limit = s >= 0 ? pool.sentInOf(s) : length;
    const rate = this.portF64[(g << this.pF64Shift) | P_RATE];
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
    // A run from a output buffer joins the link's drain record (see drainPairs): a new one, or the
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
          // When the phit leaves the output buffer, and when it came in (for bufferPhits: an
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
    this.portF64[(g << this.pF64Shift) | (this.pPhits + v)] += n;
    const peer = this.fabric.peer[g];
    const peerTile = this.globalRouterPort[peer];
    if (peerTile >= 0) {
      this.inputs.fill((peerTile << this.vcShift) | v, n);
      // The receiving row bus routes the head once it has been through the input stages.
      this.wakeInput(peerTile, first === 0 ? pool.headTimeOf(down) + this.inputStages : firstAt + pool.delayOf(down));
    } else this.wakeLink(peer, firstAt + pool.delayOf(down));
    if (s >= 0) {
      pool.setSentOut(s, pool.sentOutOf(s) + n);
      this.outputs.drain(source, n);
      txI32[ti | TX_DRAIN_BUFFER] = source;
      txF64[tf | TX_DRAIN_FIRST] = from;
      txI32[ti | TX_DRAIN] = (txI32[ti | TX_DRAIN] & ~DRAIN_COUNT_MASK) | count;
      txF64[tf | TX_DRAIN_LAST] = lastAt;
      // Room appears in the output buffer as the run's phits leave it, from firstAt on.
      this.outputDraining(source, firstAt);
      if (pool.sentOutOf(s) === length) {
        // The output buffer is done with the packet; the LCB keeps it until it is acknowledged.
        this.outputPacketLeft(source);
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
  protected drainSlotOf(g: number): number {
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
  protected growDrain(): number {
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
  protected endCopy(g: number, now: number, packet: number): void {
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
    this.txResumeAt[g] = last + 2 * this.portI32[(g << this.pI32Shift) | this.pLatency] + 8;
    this.wakeLink(g, this.txResumeAt[g]);
  }

  /**
   * The link died with a packet on the wire. A copy the receiver has not passed on yet is simply
   * dropped; one already flowing downstream is cut short and marked bad, to be discarded at its
   * destination, which ends the packet (DOWN_CUT). The sender drains the rest of the packet from
   * its buffers into the dead port; the packet's id stays its own until the last of that is gone.
   */
  protected abortOnDeadLink(g: number, now: number, packet: number, length: number): void {
    const pool = this.pool;
    const down = this.txI32[(g << TX_I32_SHIFT) | TX_DOWN];
    // The run the link had committed stops: phits it was yet to take leave the output buffer now,
    // not one by one, so a column channel waiting for that room gets it at once.
    const drained = this.txI32[(g << TX_I32_SHIFT) | TX_DRAIN_BUFFER];
    if (this.txF64[(g << TX_F64_SHIFT) | TX_DRAIN_LAST] > now && drained >= 0) this.outputRoomNow(drained, now);
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
          const peerTile = this.globalRouterPort[this.fabric.peer[g]];
          if (peerTile >= 0) {
            this.inputs.fill((peerTile << this.vcShift) | this.store.vc[packet], missing);
            this.wakeInput(peerTile, now + pool.delayOf(down));
          } else this.wakeLink(this.fabric.peer[g], now + pool.delayOf(down));
        }
        this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = DOWN_CUT;
        continuesDownstream = true;
      }
    }
    const source = this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE];
    if (source >= 0) {
      const s = this.outputs.headOf(source);
      const n = pool.available(s, now);
      if (n > 0) {
        pool.setSentOut(s, pool.sentOutOf(s) + n);
        this.outputs.drain(source, n);
        this.outputRoomNow(source, now);
      }
      if (pool.sentOutOf(s) < length) {
        if (pool.sentOutOf(s) < pool.sentInOf(s)) this.wakeLink(g, max(now + 1, pool.usable(s, pool.sentOutOf(s))));
        return;
      }
      this.outputPacketLeft(source);
      this.txI32[(g << TX_I32_SHIFT) | TX_SOURCE] = -1;
    }
    this.txI32[(g << TX_I32_SHIFT) | TX_PACKET] = -1;
    this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = -1;
    this.wakeLink(g, now + 1);
    if (!continuesDownstream) this.store.discard(packet, this.discardReason[g] || DiscardReason.LinkDown, g, now);
  }

  protected dropBadCopy(g: number): void {
    const down = this.txI32[(g << TX_I32_SHIFT) | TX_DOWN];
    const packet = this.txI32[(g << TX_I32_SHIFT) | TX_PACKET];
    const v = this.store.vc[packet];
    const peer = this.fabric.peer[g];
    const peerTile = this.globalRouterPort[peer];
    const phits = this.pool.sentInOf(down);
    if (peerTile >= 0) {
      const buffer = (peerTile << this.vcShift) | v;
      this.inputs.popTail(buffer);
      this.inputs.drain(buffer, phits);
    } else this.receive.popTail((peer << this.vcShift) | v);
    this.txI32[(g << TX_I32_SHIFT) | TX_DOWN] = -1;
  }

  /** Probability that a copy of `length` phits arrives with a bad CRC: the phits are striped over
   * the port's lanes in service (§4.4), each lane with its own bit-error rate. */
  protected copyErrorProbability(g: number, length: number): number {
    const lanes = this.fabric.activeLanes[g];
    if (lanes === 0) return 0;
    const bitsPerLane = (length * this.link.phitBits) / lanes;
    let good = 1;
    for (let l = 0; l < this.lanes; l++) {
      if (!(this.laneMask[g] & (1 << l))) continue;
      good *= pow(1 - this.laneBitErrorRate[g * this.lanes + l], bitsPerLane);
    }
    return 1 - good;
  }

  /** §7.7: the LCB counts retries per lane and decommissions a lane past the software threshold;
   * with no lane left the link is down and the sender discards packets for the port. */
  protected countRetry(g: number, now: number): void {
    let total = 0;
    for (let l = 0; l < this.lanes; l++) if (this.laneMask[g] & (1 << l)) total += this.laneBitErrorRate[g * this.lanes + l];
    let pick = keyedDraw(this.seed, DRAW_RETRY_LANE, g, now) * total;
    let lane = 0;
    for (let l = 0; l < this.lanes; l++) {
      if (!(this.laneMask[g] & (1 << l))) continue;
      lane = l;
      pick -= this.laneBitErrorRate[g * this.lanes + l];
      if (pick <= 0) break;
    }
    const retries = ++this.laneRetries[g * this.lanes + lane];
    const threshold = this.globalRouterPort[g] >= 0 ? this.laneRetryThreshold(g) : this.endpointLaneRetryThreshold;
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
  protected takeDown(g: number, now: number): void {
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
    this.laneBitErrorRate[g * this.lanes + lane] = ber;
    let any = 0;
    for (let l = 0; l < this.lanes; l++) if (this.laneBitErrorRate[g * this.lanes + l] > 0) any = 1;
    this.portI32[(g << this.pI32Shift) | this.pErrorProne] = any;
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
    for (let t = this.routerPortBase[r]; t < this.routerPortBase[r + 1]; t++) {
      const g = this.routerPortGlobal[t];
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
    for (let t = this.routerPortBase[r]; t < this.routerPortBase[r + 1]; t++) this.wake(this.routerPortGlobal[t]);
  }

  /** A dead router is powered back up: links return, and its registers are back at reset values
   * (the control plane must configure it again). */
  reviveRouter(chip: number): void {
    const r = this.chipRouter[chip];
    if (r < 0 || !this.routerDead[r]) return;
    this.routerDead[r] = 0;
    this.resetRouter(r);
    for (let t = this.routerPortBase[r]; t < this.routerPortBase[r + 1]; t++) {
      const g = this.routerPortGlobal[t];
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
      this.fabric.activeLanes[end] = this.lanes;
      this.laneMask[end] = (1 << this.lanes) - 1;
      for (let l = 0; l < this.lanes; l++) this.laneRetries[end * this.lanes + l] = 0;
      this.refreshLink(end);
      if (this.discardReason[end] === DiscardReason.LinkDown) this.discarding[end] = 0;
      const chip = this.fabric.portOwner(end);
      if (wasDown && this.chipRouter[chip] >= 0) this.interrupt('LINK_UP', this.cycle, chip, end - this.fabric.portBase[chip], -1);
      this.wake(end);
    }
  }

  /** The tail leaves the input buffer (at cycle `at`): free the entry and return the packet's
   * credits upstream. */
  protected finishInput(r: number, tile: number, ibIndex: number, s: number, v: number, at: number, discarded: boolean): void {
    const packet = this.pool.packetOf(s);
    this.inputs.shift(ibIndex);
    const g = this.routerPortGlobal[tile];
    const upstream = this.fabric.peer[g];
    const local = (this.store.flags[packet] & FLAG_LOCAL) !== 0;
    if (upstream >= 0 && !local) this.returnCredits(upstream, v, this.store.length[packet], at + this.portI32[(g << this.pI32Shift) | this.pLatency]);
    // Only the input buffer the chip put it in was free of credits; every later one is not.
    if (local) this.store.flags[packet] &= ~FLAG_LOCAL;
    if (discarded) this.store.discard(packet, this.pendingReason(packet), g, at);
  }

  protected pendingReason(packet: number): DiscardReason {
    const reason = this.world.routeErrors.get(packet);
    this.world.routeErrors.delete(packet);
    return reason ?? DiscardReason.NoRoute;
  }

  // ---------------------------------------------------------------- maintenance (§4.1, the r bit)
  /** Keeps the message a maintenance packet carries. The list is grown an element at a time, never
   * written past its end: packet ids taken by traffic leave gaps, and a write far past the end
   * would turn the list into a dictionary (slow elements). */
  protected keepMessage(id: number, message: MaintenanceMessage): void {
    const key = this.handleOf(id);
    while (this.maintenance.length <= key) this.maintenance.push(undefined);
    if (this.maintenance[key] === undefined) this.maintenanceInFlight++;
    this.maintenance[key] = message;
  }

  /** The message the bound part's packet `id` carries. */
  protected messageOf(id: number): MaintenanceMessage | undefined {
    return this.maintenance[this.handleOf(id)];
  }

  /** Packet `id` carries no maintenance message any more (answered, delivered or discarded). */
  protected forgetMessage(id: number): void {
    const key = this.handleOf(id);
    if (this.maintenance[key] === undefined) return;
    this.maintenance[key] = undefined;
    this.maintenanceInFlight--;
  }

  /** Maintenance packets in the fabric or waiting to be sent (see partsIndependent). */
  protected maintenanceInFlight = 0;

  /** Sends a maintenance request from endpoint port `g` along `route` (router output ports) from
   * its element `from` on. */
  sendMaintenance(g: number, route: readonly number[], message: MaintenanceMessage, from = 0): number {
    this.bind(this.partOfPort(g));
    const id = this.store.allocate(0, g, this.maintenancePhits(message), 0, FLAG_SOURCE_ROUTED, 0, this.cycle, -1);
    this.keepMessage(id, message);
    this.store.setSourceRoute(id, route, from);
    if (this.fabric.peer[g] < 0 || this.fabric.activeLanes[g] === 0) {
      this.store.state[id] = STATE_IN_NETWORK;
      this.forgetMessage(id);
      this.store.discard(id, DiscardReason.Unreachable, g, this.cycle);
      return this.handleOf(id);
    }
    this.sources.push(g << this.vcShift, id);
    this.wakeLink(g, this.cycle);
    return this.handleOf(id);
  }

  /** The chip takes a request addressed to it; its answer, going back the way the request came,
   * is created now and sent once the access has been executed. */
  protected consumeMaintenance(r: number, inPort: number, packet: number, now: number): void {
    const message = this.messageOf(packet);
    this.forgetMessage(packet);
    if (!message) return;
    const response = this.store.allocate(0, -1, 4, 1, FLAG_SOURCE_ROUTED | FLAG_LOCAL, 0, now, -1);
    this.store.setReturnRoute(response, packet);
    this.keepMessage(response, message);
    if (this.workCount === this.workDue.length) this.growWork();
    const k = (this.workHead + this.workCount++) & (this.workDue.length - 1);
    this.workDue[k] = now + this.link.maintenanceProcessCycles;
    this.workTile[k] = this.routerPortBase[r] + inPort;
    this.workAnswer[k] = response;
    this.chipAnswers[this.routerPortBase[r] + inPort]++;
  }

  /** Doubles the ring of register accesses, oldest first from slot 0. */
  protected growWork(): void {
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
  protected runChipWork(now: number): void {
    const mask = this.workDue.length - 1;
    while (this.workCount > 0 && this.workDue[this.workHead] <= now) {
      const tile = this.workTile[this.workHead];
      const id = this.workAnswer[this.workHead];
      this.workHead = (this.workHead + 1) & mask;
      this.workCount--;
      const g = this.routerPortGlobal[tile];
      const chip = this.fabric.portOwner(g);
      // The answer was made by the router port's part, when the request arrived.
      this.bind(this.linkPart[g]);
      const response = this.executeAccess(this.chipRouter[chip], this.messageOf(id)!, g - this.fabric.portBase[chip]);
      this.store.length[id] = this.maintenancePhits(response);
      this.store.createdAt[id] = now;
      this.store.state[id] = STATE_IN_NETWORK;
      this.store.enteredAt[id] = now;
      this.keepMessage(id, response);
      this.chipAnswers[tile]--;
      const seg = this.pool.allocate(id, now, 0);
      this.pool.send(seg, now, this.store.length[id]);
      this.inputs.push((tile << this.vcShift) | 1, seg);
      this.inputs.fill((tile << this.vcShift) | 1, this.store.length[id]);
      // Its head is routed once it has been through the input stages, as any arrival's is.
      this.wakeInput(tile, now + this.inputStages);
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
    return this.executeAccess(r, message, -1);
  }

  /** A maintenance packet reached a processor: a response for the controller, or a request the
   * processor's interface answers (its identity) back along the reverse route. */
  protected endpointMaintenance(g: number, packet: number, now: number): void {
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
        ? answerTo(message, this.endpointIdentity(chip, g - this.fabric.portBase[chip], processor))
        : answerTo(message, [], 'no-such-register', `a processor interface answers only "identity"`);
    const id = this.store.allocate(0, g, this.maintenancePhits(response), 1, FLAG_SOURCE_ROUTED, 0, now, -1);
    this.keepMessage(id, response);
    this.store.setReturnRoute(id, packet);
    this.sources.push((g << this.vcShift) | 1, id);
    this.wakeLink(g, now);
  }
}

walkedState(LinkEngine, [
  // The maintenance messages (never in flight while parts run apart), and the spec.
  'maintenance',
  'link',
]);
