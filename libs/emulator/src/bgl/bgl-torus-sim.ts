/**
 * The BlueGene/L torus network, node by node, at the level paper 002's own simulator worked at (§3):
 * time in network cycles (one byte on a link), packets of 32-byte chunks moving by virtual
 * cut-through, token flow control per VC, the bubble escape with either accounting, the three
 * arbitration phases, hint bits cleared by the neighbour registers, finite injection and reception
 * FIFOs drained by the node's software, and the books: every packet is delivered or discarded with
 * a reason. A packet's transfer is one event at each end, not one per byte: the head is usable at
 * the next node a link latency and one chunk after its grant (§2: cut-through), its tail frees the
 * buffer behind it when the whole packet has left, and the link is busy for every byte of it.
 *
 * Registers are the node's own (neighbour coordinates, hint cutoffs, the software's route-override
 * table): a packet goes where they send it, right or wrong. Random choices (ties, SLQ cycles,
 * in-network cycles) are keyed draws of the seed, the node and the cycle, so that they do not
 * depend on the order nodes are visited in.
 */
import * as model from '@weft/fabric-model';
import type { InterruptKind, Torus as TorusType } from '@weft/fabric-model';
import type { EmulatedFabric } from '../emulated-fabric';
import { BglSettings, bglSettings } from './bgl-settings';
import { BlockCalendar } from '../engine/block-calendar';
import type { BlockEngine, BlockMail } from '../parallel/block-threads';

// The datasheet's figures and the table's format, read once into module constants: an imported
// binding is a property load on every use (a getter under the test runner), and these are read
// per arbitration.
const BGL_ACK_BYTES = model.BGL_ACK_BYTES;
const BGL_CHUNK_BYTES = model.BGL_CHUNK_BYTES;
const BGL_LINKS = model.BGL_LINKS;
const BGL_MAX_PACKET_CHUNKS = model.BGL_MAX_PACKET_CHUNKS;
const BGL_NS_PER_CYCLE = model.BGL_NS_PER_CYCLE;
const BGL_TRAILER_BYTES = model.BGL_TRAILER_BYTES;
const BGL_VC_BUBBLE = model.BGL_VC_BUBBLE;
const BGL_VC_PRIORITY = model.BGL_VC_PRIORITY;
const BGL_VCS = model.BGL_VCS;
const LEG_STATIC = model.LEG_STATIC;
const NO_SECOND_LEG = model.NO_SECOND_LEG;
const ROUTE_HARDWARE = model.ROUTE_HARDWARE;
const ROUTE_UNREACHABLE = model.ROUTE_UNREACHABLE;
const DIRECTION_MINUS = model.DIRECTION_MINUS;
const DIRECTION_PLUS = model.DIRECTION_PLUS;
const { chooseRoute, hardwareHintSign, keyedDraw, legDirectionChoice, legKind, relayNode } = model;
// Globals read once likewise (under the test runner the global object is a proxy).
const { max, min, ceil, pow } = Math;

const EV_HEAD = 1;
/** A packet's head reaching a receiver VC: the one event that travels with a packet's record. */
export const BGL_EV_HEAD = EV_HEAD;
const EV_FREE = 2;
const EV_FREE_INJECTION = 3;
const EV_TOKENS = 4;
const EV_WAKE = 5;
const EV_RECEIVED = 6;
const EV_READ_DONE = 7;
const EV_PATH_DONE = 8;
/** A node has died: what it holds goes (killNode). */
const EV_DIE = 9;

/** Packet flags. */
const STATIC = 1;
const PRIORITY = 2;
/** §2: "a bit in the header may be set that causes a packet to be broadcast down any dimension". */
const BROADCAST = 4;
/** Crossed the dateline of dimension d (the wrap-around link): flag CROSSED << d. */
const CROSSED = 8;
/** Virtual node mode (§1): the core that sent the packet, and the core it is for (flags: core 1). */
const FROM_CORE_1 = 64;
const TO_CORE_1 = 128;

/** Draw kinds (keyedDraw). */
const DRAW_TIE = 1;
const DRAW_SLQ = 2;
const DRAW_IN_NETWORK = 3;
const DRAW_JSQ_TIE = 4;
const DRAW_SENDER_TIE = 5;
const DRAW_BIT_ERROR = 6;

/** FIFOs per node: six receivers of four VCs, eight injection, seven reception. */
const VC_FIFOS = BGL_LINKS * BGL_VCS;
/** VC FIFOs per node (an event's FIFO index divided by it is its node). */
export const BGL_VC_FIFOS_PER_NODE = VC_FIFOS;
const INJECTION_FIFOS = 8;
const RECEPTION_FIFOS = 7;
/** A reception request's "direction". */
const TO_RECEPTION = 6;

const NONE = -1;
/** Cycles ahead the calendar buckets events (a go-back-N resend on a noisy link may fall later: see EventWheel). */
const CALENDAR_HORIZON = 8192;

/** Numbers in a packet's record when it moves to another thread (see toNode). */
export const PACKET_RECORD = 15;

/** Why a packet was discarded. */
export const BGL_DISCARD_REASONS = ['unreachable', 'link-down', 'node-died', 'misrouted', 'unconfigured'] as const;
export type BglDiscardReason = (typeof BGL_DISCARD_REASONS)[number];

export interface SendOptions {
  /** §2: the high-priority class (its own injection FIFOs, VC and reception FIFO). */
  readonly priority?: boolean;
  /** Overrides the node software's table: `dynamic` or `static` routing with the hardware's hints. */
  readonly routing?: 'table' | 'dynamic' | 'static';
  /** A number the sender keeps with the packet (a traffic run's class). */
  readonly tag?: number;
  /**
   * §2's broadcast bit: the packet runs statically down the one dimension in which the destination
   * differs, the way `direction` says (the minimal one by default), and every node it passes keeps
   * a copy — the destination is the last node of the run.
   */
  readonly broadcast?: { readonly direction?: 'plus' | 'minus' };
  /** §1 virtual node mode: the core that sends (its own injection FIFOs) and the core it is for (its reception FIFOs), 0 or 1. */
  readonly core?: number;
  readonly toCore?: number;
}

/** One VC of one receiver in a ring the watchdog found waiting on itself. */
export interface WaitingVc {
  readonly node: string;
  readonly port: number;
  readonly vc: number;
  /** Chunks held in the VC's buffer, and tokens its upstream sender holds for it. */
  readonly heldChunks: number;
  readonly upstreamTokens: number;
}

export class BglTorusSim implements BlockEngine {
  readonly settings: BglSettings;
  readonly nodes: number;
  readonly nsPerCycle = BGL_NS_PER_CYCLE;
  cycle = 0;

  /** The physical cabling: where the link out of node n's port d lands (node and port), and its latency in cycles. */
  readonly outNode: Int32Array;
  readonly outPort: Int32Array;
  readonly latency: Int32Array;
  /** Each node's place (its personality, §1) and the torus shape it was built for. */
  readonly torus: TorusType;
  readonly coords: Int32Array;
  /** The fabric's node at each torus index. */
  private readonly nodeOfIndex: Int32Array;

  // Registers the control plane writes (-1: not written).
  readonly neighbourRegister: Int32Array;
  readonly cutoffPlus: Int32Array;
  readonly cutoffMinus: Int32Array;
  readonly routeTables: (Int32Array | null)[];
  /**
   * The fault set broadcast to each node (fault-set-register.ts; one array shared by the nodes a
   * broadcast reached), and the table each node's software built from it, as it first sent
   * (issue 55): the route-override rule for its own packets, kept until the next broadcast.
   */
  readonly faultSets: (Int32Array | null)[];
  private readonly ownTables: (Int32Array | null)[];
  /** The rule for the last fault set broadcast (every node that holds it asks the same). */
  private ruleFor: { words: Int32Array; compiler: model.RouteOverrideCompiler } | null = null;
  /** The arbitration and bubble registers, per node (§2: "programmable"), from the settings until written. */
  private readonly slqPermille: Int32Array;
  private readonly inNetworkPermille: Int32Array;
  private readonly randomPackets: Uint8Array;
  private readonly bubbleBySize: Uint8Array;
  private readonly escapeByDirection: Uint8Array;

  // Faults.
  readonly dead: Uint8Array;
  readonly linkDown: Uint8Array;
  /** Cables cut (by either end's sender): a link down for that reason stays down when its nodes live. */
  private readonly cableCut: Uint8Array;
  private readonly readPaused: Uint8Array;

  // Senders: busy until, tokens per downstream VC, tokens owed back upstream per receiver VC.
  private readonly senderBusy: Float64Array;
  readonly credits: Int32Array;
  private readonly owed: Int32Array;
  private readonly pathsInUse: Int32Array;
  /** §4's study: a dateline pair of escape VCs (2 and 3) instead of the bubble (see escapeChannels). */
  private readonly datelinePair: boolean;
  /** The cycle a VC's head arrived on the bypass (see headArrives), per VC FIFO. */
  private readonly bypassAt: Float64Array;
  /** The cycle a receiver presents nothing in, under arbitrationGapBug. */
  private readonly receiverBlindAt: Float64Array;

  // Queues are linked lists through pNext: VC FIFOs, injection FIFOs, reception FIFOs, and the
  // software's send queue per node.
  private readonly vcHead: Int32Array;
  private readonly vcTail: Int32Array;
  readonly vcChunks: Int32Array;
  private readonly vcBusyUntil: Float64Array;
  private readonly vcEligible: Float64Array;
  private readonly injHead: Int32Array;
  private readonly injTail: Int32Array;
  private readonly injChunks: Int32Array;
  private readonly injEligible: Float64Array;
  private readonly rcvHead: Int32Array;
  private readonly rcvTail: Int32Array;
  private readonly rcvChunks: Int32Array;
  private readonly sendHead: Int32Array;
  private readonly sendTail: Int32Array;
  /** Per (node, core): whether its software is reading a packet, and the reception FIFO it reads next. */
  private readonly readBusy: Uint8Array;
  private readonly readNext: Uint8Array;
  /** §1 virtual node mode: two sets of injection and reception FIFOs, one per core (else one set). */
  readonly cores: number;
  private readonly injPerNode: number;
  private readonly rcvPerNode: number;
  private readonly lastWake: Float64Array;
  private readonly arbitrated: Float64Array;
  private readonly woken: number[] = [];
  /** Per node, packets its software has sent: a packet's serial (source, serial) names it whichever thread holds it. */
  private readonly sentBy: Int32Array;

  // Packets, by id (columns grown on demand; ids reused from a free list).
  private capacity = 0;
  private pDst = new Int32Array(0);
  private pSrc = new Int32Array(0);
  private pSize = new Int32Array(0);
  private pHints = new Int32Array(0);
  private pVc = new Int32Array(0);
  private pFlags = new Int32Array(0);
  private pLastDir = new Int32Array(0);
  private pCharge = new Int32Array(0);
  private pArrivedOn = new Int32Array(0);
  private pFinal = new Int32Array(0);
  private pLeg2 = new Int32Array(0);
  private pTag = new Int32Array(0);
  private pNext = new Int32Array(0);
  private pHops = new Int32Array(0);
  private pTailAt = new Float64Array(0);
  private pSentAt = new Float64Array(0);
  private pSerial = new Int32Array(0);
  private freeIds: number[] = [];
  private nextId = 0;

  /**
   * The torus cut into blocks (slabs of z) for parallel runs (§3: the paper's simulator ran blocks
   * of the torus on processors, in windows no longer than the shortest link between them): each
   * block has its own calendar of events. `owned` are the blocks this instance runs; an event for a
   * node of another block (a packet's head, a token-ack) goes by `mail` (parallel/block-threads.ts).
   */
  private readonly calendar: BlockCalendar;
  /** Where events for blocks this instance does not run go: a packet's head (its record with it), or tokens (parallel/block-threads.ts). */
  mail: BlockMail | null = null;

  // The books.
  injected = 0;
  delivered = 0;
  readonly discarded = new Map<BglDiscardReason, number>();
  /** Bytes the links were granted, packets (each sending of one) and acks, counted as each is granted (linkBytes counts them as they cross). */
  bytesMoved = 0;
  /** Bytes each link (by sender) was granted, and by VC (sender × 4 + VC, packets only). */
  private readonly linkBooked: Float64Array;
  private readonly linkVcBooked: Float64Array;
  /**
   * Per link, its last grant — a link sends one thing at a time — so that what it was granted
   * can be told from what has crossed (issue 57): the cycle its first sending began, the bytes a
   * sending, how many sendings (a packet resent after a CRC failure crosses again, a retry's wait
   * apart), and the packet's VC (-1 for an ack).
   */
  private readonly sendFrom: Float64Array;
  private readonly sendWire: Float64Array;
  private readonly sendTries: Int32Array;
  private readonly sendVc: Int8Array;
  /** Bit error rate per link (by sender), and the packets each has had to send again. */
  private readonly bitErrorRate: Float64Array;
  readonly linkRetransmissions: Float64Array;
  retransmissions = 0;
  /** Packets in VC FIFOs or on links (not in the nodes' FIFOs or send queues). */
  private inNetwork = 0;
  private lastProgress = 0;
  /** The ring the watchdog found, once it fired. */
  deadlock: WaitingVc[] | null = null;

  onDeliver: (packet: number, cycle: number) => void = () => undefined;
  /** Told of each discard before the packet's id is reused (see discard). */
  onDiscard: (packet: number, reason: BglDiscardReason, node: number, port: number) => void = () => undefined;
  onInterrupt: (kind: InterruptKind, cycle: number, node: number, port: number, vc: number, details?: Record<string, unknown>) => void = () => undefined;

  constructor(
    readonly fabric: EmulatedFabric,
    readonly seed: number,
    settings: Partial<BglSettings> = {},
  ) {
    this.settings = bglSettings(settings);
    const chips = fabric.design.chips;
    this.nodes = chips.length;
    const n = this.nodes;
    this.torus = model.designTorus(fabric.design);
    this.coords = new Int32Array(3 * n);
    chips.forEach((c, i) => {
      if (c.portCount !== BGL_LINKS || !c.coordinates) throw new Error(`chip ${c.name} is not a BG/L node (six links and coordinates)`);
      this.coords.set(c.coordinates, 3 * i);
    });
    this.nodeOfIndex = new Int32Array(this.torus.size).fill(NONE);
    for (let i = 0; i < n; i++) this.nodeOfIndex[this.torusIndex(i)] = i;
    this.outNode = new Int32Array(6 * n).fill(NONE);
    this.outPort = new Int32Array(6 * n).fill(NONE);
    this.latency = new Int32Array(6 * n);
    for (let g = 0; g < 6 * n; g++) {
      const peer = fabric.peer[g];
      if (peer < 0) continue;
      this.outNode[g] = (peer / 6) | 0;
      this.outPort[g] = peer % 6;
    }
    for (const cable of fabric.design.cables) {
      const cycles = Math.max(1, Math.round((cable.latencyNs ?? 10 * BGL_NS_PER_CYCLE) / BGL_NS_PER_CYCLE));
      this.latency[fabric.portIndex(cable.a.chip, cable.a.port)] = cycles;
      this.latency[fabric.portIndex(cable.b.chip, cable.b.port)] = cycles;
    }
    this.neighbourRegister = new Int32Array(18 * n).fill(NONE);
    this.cutoffPlus = new Int32Array(3 * n).fill(NONE);
    this.cutoffMinus = new Int32Array(3 * n).fill(NONE);
    this.routeTables = new Array<Int32Array | null>(n).fill(null);
    this.faultSets = new Array<Int32Array | null>(n).fill(null);
    this.ownTables = new Array<Int32Array | null>(n).fill(null);
    const st = this.settings;
    this.slqPermille = new Int32Array(n).fill(Math.round(st.slqFraction * 1000));
    this.inNetworkPermille = new Int32Array(n).fill(Math.round(st.inNetworkPriorityFraction * 1000));
    this.randomPackets = new Uint8Array(n).fill(st.packetArbitration === 'random' ? 1 : 0);
    this.bubbleBySize = new Uint8Array(n).fill(st.bubbleAccounting === 'by-size' ? 1 : 0);
    this.escapeByDirection = new Uint8Array(n).fill(st.escapeOrder === 'direction' ? 1 : 0);
    this.dead = new Uint8Array(n);
    this.linkDown = new Uint8Array(6 * n);
    this.cableCut = new Uint8Array(6 * n);
    this.readPaused = new Uint8Array(n);
    for (let g = 0; g < 6 * n; g++) if (this.outNode[g] === NONE) this.linkDown[g] = 1;
    this.senderBusy = new Float64Array(6 * n);
    this.linkBooked = new Float64Array(6 * n);
    this.linkVcBooked = new Float64Array(6 * n * BGL_VCS);
    this.sendFrom = new Float64Array(6 * n);
    this.sendWire = new Float64Array(6 * n);
    this.sendTries = new Int32Array(6 * n);
    this.sendVc = new Int8Array(6 * n).fill(-1);
    this.bitErrorRate = new Float64Array(6 * n);
    this.linkRetransmissions = new Float64Array(6 * n);
    this.credits = new Int32Array(6 * n * BGL_VCS).fill(this.settings.vcTokens);
    this.owed = new Int32Array(6 * n * BGL_VCS);
    this.pathsInUse = new Int32Array(6 * n);
    this.receiverBlindAt = new Float64Array(6 * n).fill(-1);
    this.bypassAt = new Float64Array(VC_FIFOS * n).fill(-1);
    this.datelinePair = this.settings.escapeChannels === 'dateline-pair';
    this.vcHead = new Int32Array(VC_FIFOS * n).fill(NONE);
    this.vcTail = new Int32Array(VC_FIFOS * n).fill(NONE);
    this.vcChunks = new Int32Array(VC_FIFOS * n);
    this.vcBusyUntil = new Float64Array(VC_FIFOS * n);
    this.vcEligible = new Float64Array(VC_FIFOS * n);
    this.cores = this.settings.virtualNodeMode ? 2 : 1;
    this.injPerNode = INJECTION_FIFOS * this.cores;
    this.rcvPerNode = RECEPTION_FIFOS * this.cores;
    this.injHead = new Int32Array(this.injPerNode * n).fill(NONE);
    this.injTail = new Int32Array(this.injPerNode * n).fill(NONE);
    this.injChunks = new Int32Array(this.injPerNode * n);
    this.injEligible = new Float64Array(this.injPerNode * n);
    this.rcvHead = new Int32Array(this.rcvPerNode * n).fill(NONE);
    this.rcvTail = new Int32Array(this.rcvPerNode * n).fill(NONE);
    this.rcvChunks = new Int32Array(this.rcvPerNode * n);
    this.sendHead = new Int32Array(n).fill(NONE);
    this.sendTail = new Int32Array(n).fill(NONE);
    this.readBusy = new Uint8Array(n * this.cores);
    this.readNext = new Uint8Array(n * this.cores);
    this.lastWake = new Float64Array(n).fill(-1);
    this.sentBy = new Int32Array(n);
    this.calendar = new BlockCalendar(n, CALENDAR_HORIZON);
    this.arbitrated = new Float64Array(n).fill(-1);
    this.grow(1024);
  }

  // ------------------------------------------------------------------ registers
  /**
   * Writes the registers a correct configuration holds, from the node's own place: for tests of the
   * node alone (the control plane writes them over the control network). `tieRule` says where an
   * offset of k/2 on an even ring goes (torus.ts: TieRule; the control plane's policy names it).
   */
  programMinimalRouting(tieRule: model.TieRule = 'plus'): void {
    const torus = tieRule === this.torus.tieRule ? this.torus : new model.Torus(this.torus.shape, tieRule);
    for (let node = 0; node < this.nodes; node++) {
      for (let dir = 0; dir < 6; dir++) {
        const m = torus.neighbour(this.torusIndex(node), dir);
        for (let d = 0; d < 3; d++) this.neighbourRegister[18 * node + 3 * dir + d] = torus.coordinate(m, d);
      }
      for (let d = 0; d < 3; d++) {
        const k = torus.shape[d];
        const s = this.coords[3 * node + d];
        const [plus, minus] = model.minimalHintCutoffs(s, k, torus.minimalSign(d, s, (s + (k >> 1)) % k) > 0);
        this.cutoffPlus[3 * node + d] = plus;
        this.cutoffMinus[3 * node + d] = minus;
      }
    }
  }

  /** Node n's arbitration register: [SLQ permille, in-network priority permille, packet arbitration (0 JSQ, 1 random)]. */
  arbitrationRegister(n: number): number[] {
    return [this.slqPermille[n], this.inNetworkPermille[n], this.randomPackets[n]];
  }

  checkArbitrationRegister(value: readonly number[]): string | undefined {
    if (value.length !== 3 || !value.every(Number.isInteger))
      return `three whole numbers [SLQ permille, in-network priority permille, 0 JSQ | 1 random], got [${value.join(', ')}]`;
    if (value[0] < 0 || value[0] > 1000 || value[1] < 0 || value[1] > 1000) return `fractions are permille, 0 to 1000, got [${value.join(', ')}]`;
    if (value[2] !== 0 && value[2] !== 1) return `packet arbitration is 0 (JSQ) or 1 (random), got ${value[2]}`;
    return undefined;
  }

  setArbitrationRegister(n: number, value: readonly number[]): void {
    this.slqPermille[n] = value[0];
    this.inNetworkPermille[n] = value[1];
    this.randomPackets[n] = value[2];
  }

  /** Node n's bubble register: [accounting (0 full-size, 1 by-size), escape order (0 dimension, 1 direction)]. */
  bubbleRegister(n: number): number[] {
    return [this.bubbleBySize[n], this.escapeByDirection[n]];
  }

  checkBubbleRegister(value: readonly number[]): string | undefined {
    if (value.length !== 2 || !value.every((v) => v === 0 || v === 1))
      return `two flags [0 full-size | 1 by-size, 0 dimension | 1 direction order], got [${value.join(', ')}]`;
    return undefined;
  }

  setBubbleRegister(n: number, value: readonly number[]): void {
    this.bubbleBySize[n] = value[0];
    this.escapeByDirection[n] = value[1];
  }

  /** The node's index in its torus numbering (x fastest) from its coordinates. */
  private torusIndex(node: number): number {
    return this.torus.index(this.coords[3 * node], this.coords[3 * node + 1], this.coords[3 * node + 2]);
  }

  // ------------------------------------------------------------------ the books
  get inFlight(): number {
    let discarded = 0;
    for (const count of this.discarded.values()) discarded += count;
    return this.injected + this.copiesMade - this.delivered - discarded;
  }

  /** A packet goes, for `reason`, at node `node` (in the VC of its receiver port `port`; −1: in the node's FIFOs or software). */
  private discard(p: number, reason: BglDiscardReason, node: number, port: number): void {
    this.discarded.set(reason, (this.discarded.get(reason) ?? 0) + 1);
    this.onDiscard(p, reason, node, port);
    this.release(p);
  }

  // ------------------------------------------------------------------ packets
  private grow(capacity: number): void {
    const grow32 = (a: Int32Array) => {
      const b = new Int32Array(capacity);
      b.set(a);
      return b;
    };
    const grow64 = (a: Float64Array) => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    this.pDst = grow32(this.pDst);
    this.pSrc = grow32(this.pSrc);
    this.pSize = grow32(this.pSize);
    this.pHints = grow32(this.pHints);
    this.pVc = grow32(this.pVc);
    this.pFlags = grow32(this.pFlags);
    this.pLastDir = grow32(this.pLastDir);
    this.pCharge = grow32(this.pCharge);
    this.pArrivedOn = grow32(this.pArrivedOn);
    this.pFinal = grow32(this.pFinal);
    this.pLeg2 = grow32(this.pLeg2);
    this.pTag = grow32(this.pTag);
    this.pNext = grow32(this.pNext);
    this.pHops = grow32(this.pHops);
    this.pTailAt = grow64(this.pTailAt);
    this.pSentAt = grow64(this.pSentAt);
    this.pSerial = grow32(this.pSerial);
    this.capacity = capacity;
  }

  private allocate(): number {
    const reused = this.freeIds.pop();
    if (reused !== undefined) return reused;
    if (this.nextId === this.capacity) this.grow(this.capacity * 2);
    return this.nextId++;
  }

  private release(p: number): void {
    this.pSize[p] = 0;
    this.freeIds.push(p);
  }

  /** What a delivered packet (its id, valid inside onDeliver) was. */
  packetSource(p: number): number {
    return this.pSrc[p];
  }
  packetDestination(p: number): number {
    return this.pDst[p];
  }
  packetChunks(p: number): number {
    return this.pSize[p];
  }
  packetTag(p: number): number {
    return this.pTag[p];
  }
  packetHops(p: number): number {
    return this.pHops[p];
  }
  packetSentAt(p: number): number {
    return this.pSentAt[p];
  }
  /** Packets carrying `tag` still somewhere in the torus or its nodes' FIFOs (a scan: for reports). */
  packetsAlive(tag: number): number {
    let n = 0;
    for (let p = 0; p < this.nextId; p++) if (this.pSize[p] > 0 && this.pTag[p] === tag) n++;
    return n;
  }
  /** The node a packet is for in the end (a relayed packet's first leg is addressed to its relay). */
  packetFinalDestination(p: number): number {
    return this.pFinal[p] !== NONE ? this.pFinal[p] : this.pDst[p];
  }
  /** The core a packet is for (virtual node mode; 0 otherwise). */
  packetCore(p: number): number {
    return this.pFlags[p] & TO_CORE_1 ? 1 : 0;
  }
  /** The packet's number among those its source sent (0, 1, …). */
  packetSerial(p: number): number {
    return this.pSerial[p];
  }

  /**
   * The table node `source`'s software routes by: the one written to it where it holds entries,
   * else the one it builds from the fault set broadcast to it (built at its first send after the
   * broadcast: the route-override rule for its own source, libs/fabric-model route-overrides.ts).
   */
  private tableOf(source: number): Int32Array | null {
    const written = this.routeTables[source];
    if (written !== null && written[1] > 0) return written;
    const set = this.faultSets[source];
    if (set === null) return written;
    let own = this.ownTables[source];
    if (own === null) {
      if (this.ruleFor?.words !== set) {
        const parsed = model.parseBglFaultSet(this.torus, set);
        if ('problem' in parsed) throw new Error(`node ${source} holds a fault set it cannot read: ${parsed.problem}`);
        // The rule reckons with the tie rule the hint registers follow, which the fault set names.
        this.ruleFor = {
          words: set,
          compiler: new model.RouteOverrideCompiler(parsed.faults.torus, parsed.faults, { relayPenaltyHops: parsed.relayPenaltyHops }),
        };
      }
      own = Int32Array.from(this.ruleFor.compiler.table(this.torusIndex(source)));
      this.ownTables[source] = own;
    }
    return own;
  }

  /** Node `node` takes a fault set (null: none): its software's table is built afresh from it. */
  setFaultSet(node: number, words: Int32Array | null): void {
    this.faultSets[node] = words;
    this.ownTables[node] = null;
  }

  // ------------------------------------------------------------------ the node's software: sending
  /**
   * Node `source`'s software sends `chunks` chunks (1–8: 32 to 256 bytes) to node `destination`:
   * by its route-override table (the hardware's dynamic route where no entry holds the
   * destination), or as `options.routing` says. Returns the packet's id, or −1 when the software
   * refused it (recorded as discarded: unreachable, or the node not configured).
   */
  send(source: number, destination: number, chunks: number, options: SendOptions = {}): number {
    if (!Number.isInteger(chunks) || chunks < 1 || chunks > BGL_MAX_PACKET_CHUNKS)
      throw new RangeError(`a BG/L packet is 1 to 8 chunks of 32 bytes, got ${chunks}`);
    if (source === destination) throw new RangeError(`node ${source} cannot send a packet to itself over the torus`);
    if (this.dead[source]) throw new RangeError(`node ${this.fabric.chipNames[source]} is dead and sends nothing`);
    for (const core of [options.core, options.toCore])
      if (core !== undefined && !(Number.isInteger(core) && core >= 0 && core < this.cores))
        throw new RangeError(`a core is 0${this.cores === 2 ? ' or 1 (virtual node mode)' : ' (one set of FIFOs: not in virtual node mode)'}, got ${core}`);
    if (options.priority && this.datelinePair)
      throw new RangeError("with a dateline pair of escape VCs the high-priority VC is the pair's higher one: there is no priority class");
    const p = this.allocate();
    this.injected++;
    this.pSrc[p] = source;
    // Addressed to its destination until a leg is chosen (a packet refused at once is recorded as for it).
    this.pDst[p] = destination;
    this.pSize[p] = chunks;
    this.pFlags[p] = (options.priority ? PRIORITY : 0) | (options.core === 1 ? FROM_CORE_1 : 0) | (options.toCore === 1 ? TO_CORE_1 : 0);
    this.pTag[p] = options.tag ?? 0;
    this.pHops[p] = 0;
    this.pFinal[p] = NONE;
    this.pLeg2[p] = NO_SECOND_LEG;
    this.pSentAt[p] = this.cycle;
    this.pSerial[p] = this.sentBy[source]++;
    const routing = options.routing ?? 'table';
    let leg = 0;
    let target = destination;
    if (options.broadcast) {
      const moving = [0, 1, 2].filter((d) => this.coords[3 * source + d] !== this.coords[3 * destination + d]);
      if (moving.length !== 1) {
        this.injected--;
        this.release(p);
        throw new RangeError(
          `a broadcast runs down one dimension: ${this.fabric.chipNames[source]} and ${this.fabric.chipNames[destination]} differ in ${moving.length}`,
        );
      }
      const dirs = [0, 0, 0];
      const way = options.broadcast.direction;
      dirs[moving[0]] = way === 'plus' ? DIRECTION_PLUS : way === 'minus' ? DIRECTION_MINUS : 0;
      leg = model.legWord(LEG_STATIC, dirs);
      this.pFlags[p] |= BROADCAST;
    } else if (routing === 'table') {
      const table = this.tableOf(source);
      const at = table ? chooseRoute(this.torus, table, this.torusIndex(source), this.torusIndex(destination)) : ROUTE_HARDWARE;
      if (at === ROUTE_UNREACHABLE) {
        this.discard(p, 'unreachable', source, NONE);
        return NONE;
      }
      if (at !== ROUTE_HARDWARE) {
        leg = table![at];
        if (table![at + 1] !== NO_SECOND_LEG) {
          const relay = relayNode(this.torus, table!, at, this.torusIndex(source), this.torusIndex(destination));
          target = this.nodeAt(relay);
          this.pFinal[p] = destination;
          this.pLeg2[p] = table![at + 1];
        }
      }
    } else if (routing === 'static') leg = LEG_STATIC;
    if (!this.address(p, source, target, leg)) {
      this.discard(p, 'unconfigured', source, NONE);
      return NONE;
    }
    this.queueSend(source, p);
    return p;
  }

  /** The fabric's node at torus index `i`. */
  private nodeAt(i: number): number {
    return this.nodeOfIndex[i];
  }

  /** Sets a packet's destination and hint bits for a leg from `from` to `to`; false when the hardware hint registers are not written. */
  private address(p: number, from: number, to: number, leg: number): boolean {
    this.pDst[p] = to;
    let hints = 0;
    for (let d = 0; d < 3; d++) {
      const s = this.coords[3 * from + d];
      const t = this.coords[3 * to + d];
      if (s === t) continue;
      const choice = legDirectionChoice(leg, d);
      let sign: number;
      if (choice === DIRECTION_PLUS) sign = 1;
      else if (choice === DIRECTION_MINUS) sign = -1;
      else {
        const plus = this.cutoffPlus[3 * from + d];
        if (plus < 0) return false;
        sign = hardwareHintSign(s, t, plus, this.cutoffMinus[3 * from + d], this.torus.shape[d]);
      }
      if (sign !== 0) hints |= 1 << (5 - (2 * d + (sign > 0 ? 0 : 1)));
    }
    // Registers that hint nothing towards another node would leave the packet where it is.
    if (hints === 0) return false;
    // A leg starts before every dateline (a relay's second leg is a packet sent afresh).
    this.pFlags[p] &= ~(CROSSED | (CROSSED << 1) | (CROSSED << 2));
    this.pHints[p] = hints;
    if (legKind(leg) === LEG_STATIC) this.pFlags[p] |= STATIC;
    else this.pFlags[p] &= ~STATIC;
    this.pLastDir[p] = NONE;
    this.pVc[p] = NONE;
    return true;
  }

  private queueSend(node: number, p: number): void {
    this.pNext[p] = NONE;
    if (this.sendTail[node] === NONE) this.sendHead[node] = p;
    else this.pNext[this.sendTail[node]] = p;
    this.sendTail[node] = p;
    this.fillInjection(node);
  }

  /** Moves packets from the software's send queue into the injection FIFOs while they have room (in order: the software writes them so). */
  private fillInjection(node: number): void {
    const limit = this.settings.injectionFifoChunks;
    while (this.sendHead[node] !== NONE) {
      const p = this.sendHead[node];
      const fifo = this.injPerNode * node + this.injectionFifoOf(p);
      if (limit !== 0 && this.injChunks[fifo] + this.pSize[p] > limit) return;
      this.sendHead[node] = this.pNext[p];
      if (this.sendHead[node] === NONE) this.sendTail[node] = NONE;
      this.pTailAt[p] = this.cycle;
      this.pArrivedOn[p] = NONE;
      const wasEmpty = this.injHead[fifo] === NONE;
      this.pNext[p] = NONE;
      if (wasEmpty) this.injHead[fifo] = p;
      else this.pNext[this.injTail[fifo]] = p;
      this.injTail[fifo] = p;
      this.injChunks[fifo] += this.pSize[p];
      if (wasEmpty) {
        this.injEligible[fifo] = this.cycle + this.settings.arbitrationLatency;
        this.wake(node, this.injEligible[fifo]);
      }
    }
  }

  /** §2: two high-priority FIFOs and six normal ones; weft fills a normal one per first direction of the packet's hints, so that one direction's back-pressure stalls only its own FIFO. */
  private injectionFifoOf(p: number): number {
    const set = this.pFlags[p] & FROM_CORE_1 ? INJECTION_FIFOS : 0;
    if (this.pFlags[p] & PRIORITY) return set + (this.pSerial[p] & 1);
    const hints = this.pHints[p];
    for (let dir = 0; dir < 6; dir++) if (hints & (1 << (5 - dir))) return set + 2 + dir;
    return set + 2;
  }

  /** The reception FIFO packet p goes to at node n, arriving by receiver `from`: its core's set, the high-priority one or the receiver's. */
  private receptionFifo(n: number, p: number, from: number): number {
    const set = this.pFlags[p] & TO_CORE_1 ? RECEPTION_FIFOS : 0;
    return this.rcvPerNode * n + set + (this.pFlags[p] & PRIORITY ? 6 : from);
  }

  // ------------------------------------------------------------------ running
  private wake(node: number, at: number): void {
    const calendar = this.calendar;
    calendar.addTo(calendar.blockOf[node], at, EV_WAKE, node, 0, 0);
  }

  /** Schedules an event at node `node`'s block. */
  private schedule(node: number, at: number, kind: number, a: number, b: number, c: number): void {
    const calendar = this.calendar;
    calendar.addTo(calendar.blockOf[node], at, kind, a, b, c);
  }

  /**
   * Cuts the torus into `blocks` slabs of z, of which this instance runs `owned` (all by default).
   * Returns the lookahead: cycles from anything a node does to its first effect on another block
   * (a token-ack's latency across the shortest link between blocks), the longest window runWindowed
   * may take.
   */
  setBlocks(blocks: number, owned?: readonly number[]): number {
    const kz = this.torus.kz;
    if (!Number.isInteger(blocks) || blocks < 1 || blocks > kz)
      throw new RangeError(`a ${this.torus.shape.join('×')} torus is cut into 1 to ${kz} blocks of z, got ${blocks}`);
    if (this.cycle !== 0 || this.injected !== 0) throw new Error('blocks are set before the fabric runs');
    this.calendar.cut(blocks, (node) => Math.floor((this.coords[3 * node + 2] * blocks) / kz), owned);
    return this.lookahead();
  }

  /** The block of each node, and how many (see setBlocks). */
  get blockOf(): Int32Array {
    return this.calendar.blockOf;
  }

  get blocks(): number {
    return this.calendar.blocks;
  }

  lookahead(): number {
    let shortest = Infinity;
    for (let g = 0; g < 6 * this.nodes; g++) {
      const m = this.outNode[g];
      if (m >= 0 && this.blockOf[m] !== this.blockOf[(g / 6) | 0]) shortest = Math.min(shortest, this.latency[g] + BGL_ACK_BYTES);
    }
    return shortest;
  }

  /** The nodes of block `b`. */
  nodesOf(b: number): number[] {
    const out: number[] = [];
    for (let node = 0; node < this.nodes; node++) if (this.blockOf[node] === b) out.push(node);
    return out;
  }

  /**
   * Runs `cycles` cycles; `beforeCycle` is called at the start of each (to send that cycle's
   * traffic). Within a cycle, every event is applied first (arrivals, tokens, freed room) and then
   * each node woken arbitrates once, on the state the events left: no node sees another's
   * decisions of the same cycle, since every effect of a grant lands in a later one.
   */
  run(cycles: number, beforeCycle?: (cycle: number) => void): void {
    const end = this.cycle + cycles;
    while (this.cycle < end) {
      const t = this.cycle;
      beforeCycle?.(t);
      const calendar = this.calendar;
      calendar.now = t;
      for (let b = 0; b < calendar.blocks; b++) if (calendar.owned[b]) this.runCycle(b, t);
      this.cycle = t;
      if (this.inNetwork > 0 && t - this.lastProgress > this.settings.watchdogCycles && this.deadlock === null) this.watchdog(t);
      this.cycle = t + 1;
    }
  }

  /**
   * Runs `cycles` cycles a window at a time: each owned block runs the whole window on its own,
   * then the next — the same as cycle by cycle, since nothing a block does reaches another within
   * the lookahead. `beforeCycle(block, cycle)` sends a block's traffic for a cycle; `windowEnd` is
   * called at each window's end (the threads exchange their mail there).
   */
  runWindowed(cycles: number, window: number, beforeCycle: ((block: number, cycle: number) => void) | null, windowEnd?: (cycle: number) => void): void {
    if (!(Number.isInteger(window) && window >= 1 && window <= this.lookahead()))
      throw new RangeError(`a window is 1 to ${this.lookahead()} cycles (the lookahead between blocks), got ${window}`);
    const end = this.cycle + cycles;
    while (this.cycle < end) {
      const from = this.cycle;
      const until = Math.min(end, from + window);
      const calendar = this.calendar;
      calendar.now = from;
      calendar.windowUntil = until;
      for (let b = 0; b < calendar.blocks; b++) {
        if (!calendar.owned[b]) continue;
        calendar.runningBlock = b;
        for (let t = from; t < until; t++) {
          this.cycle = t;
          beforeCycle?.(b, t);
          this.runCycle(b, t);
        }
      }
      calendar.windowDone();
      this.cycle = until;
      windowEnd?.(until);
      if (this.mail === null && this.inNetwork > 0 && until - 1 - this.lastProgress > this.settings.watchdogCycles && this.deadlock === null)
        this.watchdog(until - 1);
    }
  }

  /** Block b's cycle t: its events, then its woken nodes' arbitration. */
  private runCycle(b: number, t: number): void {
    this.cycle = t;
    const wheel = this.calendar.wheels[b];
    const woken = this.woken;
    let i = 0;
    for (;;) {
      for (; i < wheel.count(t); i += 4) {
        const data = wheel.bucket(t);
        const kind = data[i];
        const a = data[i + 1];
        if (kind !== EV_WAKE) this.fire(t, kind, a, data[i + 2], data[i + 3]);
        else if (this.lastWake[a] !== t) {
          this.lastWake[a] = t;
          woken.push(a);
        } else if (this.arbitrated[a] === t) this.wake(a, t + 1);
      }
      if (woken.length === 0) break;
      for (let k = 0; k < woken.length; k++) {
        this.arbitrated[woken[k]] = t;
        this.arbitrate(woken[k], t);
      }
      woken.length = 0;
    }
    this.calendar.finish(b, t);
  }

  /** An event at another node, perhaps of another block or thread: a packet's head (`p`), or tokens. */
  private toNode(target: number, at: number, kind: number, a: number, b: number, c: number, p: number): void {
    const calendar = this.calendar;
    if (calendar.add(target, at, kind, a, b, c)) return;
    const mail = this.mail!;
    if (p === NONE) {
      mail.post(calendar.blockOf[target], at, kind, a, b, c);
      return;
    }
    const offset = mail.post(calendar.blockOf[target], at, kind, NONE, b, c);
    const record = mail.f64;
    record[offset] = this.pDst[p];
    record[offset + 1] = this.pSrc[p];
    record[offset + 2] = this.pSize[p];
    record[offset + 3] = this.pHints[p];
    record[offset + 4] = this.pVc[p];
    record[offset + 5] = this.pFlags[p];
    record[offset + 6] = this.pLastDir[p];
    record[offset + 7] = this.pCharge[p];
    record[offset + 8] = this.pFinal[p];
    record[offset + 9] = this.pLeg2[p];
    record[offset + 10] = this.pTag[p];
    record[offset + 11] = this.pHops[p];
    record[offset + 12] = this.pTailAt[p];
    record[offset + 13] = this.pSentAt[p];
    record[offset + 14] = this.pSerial[p];
    this.inNetwork--;
    this.migratedOut++;
    this.release(p);
  }

  /** Packets handed to another thread, and taken from one: the books of a thread count them. */
  migratedOut = 0;
  migratedIn = 0;

  /** An event another thread posted for this one (see toNode). */
  importEvent(at: number, kind: number, a: number, b: number, c: number, record: Float64Array, _i32: Int32Array, offset: number): void {
    if (kind !== EV_HEAD) {
      this.schedule((a / 6) | 0, at, kind, a, b, c);
      return;
    }
    const p = this.allocate();
    this.pDst[p] = record[offset];
    this.pSrc[p] = record[offset + 1];
    this.pSize[p] = record[offset + 2];
    this.pHints[p] = record[offset + 3];
    this.pVc[p] = record[offset + 4];
    this.pFlags[p] = record[offset + 5];
    this.pLastDir[p] = record[offset + 6];
    this.pCharge[p] = record[offset + 7];
    this.pFinal[p] = record[offset + 8];
    this.pLeg2[p] = record[offset + 9];
    this.pTag[p] = record[offset + 10];
    this.pHops[p] = record[offset + 11];
    this.pTailAt[p] = record[offset + 12];
    this.pSentAt[p] = record[offset + 13];
    this.pSerial[p] = record[offset + 14];
    this.inNetwork++;
    this.migratedIn++;
    const node = (b / VC_FIFOS) | 0;
    this.schedule(node, at, EV_HEAD, p, b, 0);
  }

  /** Nothing is scheduled in any block this instance runs: until something is sent, cycles pass empty. */
  get quiet(): boolean {
    return this.calendar.quiet;
  }

  /** Moves the clock on to `cycle` over empty cycles (quiet: no event falls in them). */
  skipTo(cycle: number): void {
    if (!this.quiet) throw new Error(`cycles ${this.cycle} to ${cycle} are not empty: events are pending`);
    if (cycle > this.cycle) this.cycle = this.calendar.now = cycle;
  }

  /** Runs until every packet is delivered or discarded, or `limit` cycles pass; returns the cycles run. */
  drain(limit: number): number {
    const start = this.cycle;
    while (this.inFlight > 0 && this.cycle - start < limit && this.deadlock === null) this.run(1);
    return this.cycle - start;
  }

  private fire(t: number, kind: number, a: number, b: number, c: number): void {
    switch (kind) {
      case EV_HEAD:
        return this.headArrives(t, a, b);
      case EV_FREE: {
        // A packet's tail has left VC FIFO `a`: its tokens go back upstream by a token-ack.
        const node = (a / VC_FIFOS) | 0;
        this.vcChunks[a] -= b;
        if (this.dead[node]) return;
        this.owed[a] += b;
        this.wake(node, t);
        return;
      }
      case EV_FREE_INJECTION: {
        const node = (a / this.injPerNode) | 0;
        this.injChunks[a] -= b;
        if (this.dead[node]) return;
        this.fillInjection(node);
        this.wake(node, t);
        return;
      }
      case EV_TOKENS:
        this.credits[a * BGL_VCS + b] += c;
        this.wake((a / 6) | 0, t);
        return;
      case EV_PATH_DONE:
        this.pathsInUse[a]--;
        this.wake((a / 6) | 0, t);
        return;
      case EV_RECEIVED:
        return this.received(t, a, b);
      case EV_READ_DONE:
        return this.readDone(t, a, b);
      case EV_DIE:
        if (this.dead[a]) this.dropHeld(a);
        return;
    }
  }

  /** A packet's head reaches a receiver VC (`fifo`): queued; at the head of the FIFO it asks for arbitration after the pipeline's latency. */
  private headArrives(t: number, p: number, fifo: number): void {
    const node = (fifo / VC_FIFOS) | 0;
    if (this.dead[node]) {
      this.inNetwork--;
      this.discard(p, 'node-died', node, ((fifo % VC_FIFOS) / BGL_VCS) | 0);
      return;
    }
    this.pArrivedOn[p] = ((fifo % VC_FIFOS) / BGL_VCS) | 0;
    this.pNext[p] = NONE;
    const wasEmpty = this.vcHead[fifo] === NONE;
    if (wasEmpty) this.vcHead[fifo] = p;
    else this.pNext[this.vcTail[fifo]] = p;
    this.vcTail[fifo] = p;
    this.vcChunks[fifo] += this.pCharge[p];
    if (wasEmpty) {
      this.vcEligible[fifo] = max(t + this.settings.arbitrationLatency, this.vcBusyUntil[fifo]);
      this.wake(node, this.vcEligible[fifo]);
      // §2's bypass: arriving at an empty VC whose way out is free, a packet may go on this very
      // cycle without being stored — at the receiver's lowest priority; else it is stored and asks
      // after the pipeline's latency as any other.
      if (this.settings.bypass && this.vcBusyUntil[fifo] <= t) {
        this.bypassAt[fifo] = t;
        this.wake(node, t);
      }
    }
  }

  // ------------------------------------------------------------------ arbitration (§2)
  // Per-evaluation scratch (STYLE.md: allocated once).
  private readonly rxRequestVc = new Int32Array(6);
  private readonly rxRequestDir = new Int32Array(6);
  private readonly rxRequestToVc = new Int32Array(6);
  private readonly injRequestDir = new Int32Array(2 * INJECTION_FIFOS);
  private readonly injRequestToVc = new Int32Array(2 * INJECTION_FIFOS);
  private readonly vcDir = new Int32Array(BGL_VCS);
  private readonly vcTo = new Int32Array(BGL_VCS);
  private choiceDir = NONE;
  private choiceVc = NONE;

  private arbitrate(n: number, t: number): void {
    if (this.dead[n]) return;
    const sb = 6 * n;
    // Phase 3's first rule: token-acks before anything else on a free sender.
    for (let s = 0; s < 6; s++) {
      const g = sb + s;
      if (this.linkDown[g] || this.senderBusy[g] > t) continue;
      let any = false;
      for (let v = 0; v < BGL_VCS; v++) if (this.owed[g * BGL_VCS + v] > 0) any = true;
      if (!any) continue;
      const busy = t + BGL_ACK_BYTES;
      this.senderBusy[g] = busy;
      const upstream = this.outNode[g] * 6 + this.outPort[g];
      for (let v = 0; v < BGL_VCS; v++) {
        const tokens = this.owed[g * BGL_VCS + v];
        if (tokens > 0) this.toNode(this.outNode[g], busy + this.latency[g], EV_TOKENS, upstream, v, tokens, NONE);
        this.owed[g * BGL_VCS + v] = 0;
      }
      this.bytesMoved += BGL_ACK_BYTES;
      this.linkBooked[g] += BGL_ACK_BYTES;
      this.sendFrom[g] = t;
      this.sendWire[g] = BGL_ACK_BYTES;
      this.sendTries[g] = 1;
      this.sendVc[g] = -1;
      this.wake(n, busy);
    }
    let requested = false;
    // Requests a receiver could not present beside the one it did.
    let unpresented = 0;
    // Phases 1 and 2: each receiver presents at most one request.
    for (let r = 0; r < 6; r++) {
      this.rxRequestVc[r] = NONE;
      const pathsFree = this.pathsInUse[sb + r] < this.settings.paths;
      let requests = 0;
      let only = NONE;
      // The gap bug: a receiver whose packets found nothing available last cycle is blind this one.
      if (this.receiverBlindAt[sb + r] === t) continue;
      let stalled = false;
      for (let v = 0; v < BGL_VCS; v++) {
        this.vcDir[v] = NONE;
        const f = VC_FIFOS * n + r * BGL_VCS + v;
        const p = this.vcHead[f];
        if (p === NONE || this.vcBusyUntil[f] > t || (this.vcEligible[f] > t && this.bypassAt[f] !== t)) continue;
        if (!this.decide(n, p, t, r, r * BGL_VCS + v)) {
          stalled = true;
          continue;
        }
        if (this.choiceDir !== TO_RECEPTION && !pathsFree) continue;
        this.vcDir[v] = this.choiceDir;
        this.vcTo[v] = this.choiceVc;
        requests++;
        only = v;
      }
      if (requests === 0) {
        if (stalled && this.settings.arbitrationGapBug) {
          this.receiverBlindAt[sb + r] = t + 1;
          unpresented++;
        }
        continue;
      }
      unpresented += requests - 1;
      let best = only;
      if (requests > 1 && this.vcDir[BGL_VC_PRIORITY] === NONE) {
        // §2 phase 2: high priority wins; else the fullest by 2-bit range on SLQ cycles, random
        // otherwise. (Draws only where there is a choice: they are the arbitration's cost.)
        const fraction = this.slqPermille[n] / 1000;
        const slq = fraction >= 1 || (fraction > 0 && keyedDraw(this.seed, DRAW_SLQ, VC_FIFOS * n + r, t) < fraction);
        let bestRange = -2;
        let ties = 0;
        for (let v = 0; v < BGL_VCS; v++) {
          if (this.vcDir[v] === NONE) continue;
          const f = VC_FIFOS * n + r * BGL_VCS + v;
          // A packet on the bypass has the lowest priority (§2).
          const range = this.bypassAt[f] === t ? -1 : slq ? this.fullnessRange(this.vcChunks[f]) : 0;
          if (range > bestRange) {
            best = v;
            bestRange = range;
            ties = 1;
          } else if (range === bestRange) {
            ties++;
            if (keyedDraw(this.seed, DRAW_TIE, (VC_FIFOS * n + r * BGL_VCS + v) * 8 + ties, t) * ties < 1) best = v;
          }
        }
      } else if (requests > 1) best = BGL_VC_PRIORITY;
      this.rxRequestVc[r] = best;
      this.rxRequestDir[r] = this.vcDir[best];
      this.rxRequestToVc[r] = this.vcTo[best];
      requested = true;
    }
    const injections = this.injPerNode;
    for (let i = 0; i < injections; i++) {
      this.injRequestDir[i] = NONE;
      const f = injections * n + i;
      const p = this.injHead[f];
      if (p === NONE || this.injEligible[f] > t) continue;
      if (!this.decide(n, p, t, NONE, VC_FIFOS + i)) continue;
      this.injRequestDir[i] = this.choiceDir;
      this.injRequestToVc[i] = this.choiceVc;
      requested = true;
    }
    if (!requested) return;
    // Reception requests: each receiver's dedicated bus to its reception FIFO.
    for (let r = 0; r < 6; r++) {
      if (this.rxRequestVc[r] === NONE || this.rxRequestDir[r] !== TO_RECEPTION) continue;
      this.grantReception(n, t, r, this.rxRequestVc[r]);
      this.rxRequestVc[r] = NONE;
    }
    // Phase 3: each free sender picks among the requests for it.
    const inNetworkFraction = this.inNetworkPermille[n] / 1000;
    const inNetworkFirst = inNetworkFraction >= 1 || (inNetworkFraction > 0 && keyedDraw(this.seed, DRAW_IN_NETWORK, n, t) < inNetworkFraction);
    for (let s = 0; s < 6; s++) {
      const g = sb + s;
      if (this.senderBusy[g] > t || this.linkDown[g]) continue;
      let best = NONE;
      let bestKey = -1;
      let ties = 0;
      for (let k = 0; k < 6 + injections; k++) {
        const network = k < 6;
        const dir = network ? (this.rxRequestVc[k] === NONE ? NONE : this.rxRequestDir[k]) : this.injRequestDir[k - 6];
        if (dir !== s) continue;
        const toVc = network ? this.rxRequestToVc[k] : this.injRequestToVc[k - 6];
        const chunks = network ? this.vcChunks[VC_FIFOS * n + k * BGL_VCS + this.rxRequestVc[k]] : this.injChunks[injections * n + k - 6];
        // High priority first (in the network before injection), then the favoured group, then SLQ.
        const priority = toVc === BGL_VC_PRIORITY ? 2 : 0;
        const group = network === inNetworkFirst ? 1 : 0;
        const key = (priority * 2 + group) * 8 + this.fullnessRange(chunks) + (network && priority ? 4 : 0);
        if (key > bestKey) {
          best = k;
          bestKey = key;
          ties = 1;
        } else if (key === bestKey) {
          ties++;
          if (keyedDraw(this.seed, DRAW_SENDER_TIE, (6 * n + s) * 32 + k, t) * ties < 1) best = k;
        }
      }
      if (best === NONE) continue;
      if (best < 6) {
        const r = best;
        const v = this.rxRequestVc[r];
        const sent = this.grantLink(n, t, VC_FIFOS * n + r * BGL_VCS + v, false, s, this.rxRequestToVc[r]);
        this.pathsInUse[sb + r]++;
        this.schedule(n, sent, EV_PATH_DONE, sb + r, 0, 0);
        this.rxRequestVc[r] = NONE;
      } else {
        this.grantLink(n, t, injections * n + best - 6, true, s, this.injRequestToVc[best - 6]);
        this.injRequestDir[best - 6] = NONE;
      }
    }
    // The arbiters run every cycle: a request that lost, or one a receiver could not present
    // beside another, is asked again next cycle. (What asked for nothing waits for an event: room,
    // tokens or a free link.)
    let unserved = unpresented;
    for (let r = 0; r < 6; r++) if (this.rxRequestVc[r] !== NONE) unserved++;
    for (let i = 0; i < injections; i++) if (this.injRequestDir[i] !== NONE) unserved++;
    if (unserved > 0) this.wake(n, t + 1);
  }

  /** The 2-bit range of a buffer's fullness or a sender's tokens (spec §1.2.7: quartiles of the VC). */
  private fullnessRange(chunks: number): number {
    const q = this.settings.vcTokens >> 2;
    return chunks >= 3 * q ? 3 : chunks >= 2 * q ? 2 : chunks >= q ? 1 : 0;
  }

  /**
   * §2 phase 1 for packet p at the head of a FIFO of node n (arrived on receiver `from`, NONE for
   * injection): sets choiceDir/choiceVc to the move it requests and returns true, or false when it
   * requests nothing (nothing possible is available). A packet none of whose possible directions
   * has a link any more is discarded here, as a sender discards packets for a link that is down.
   */
  private decide(n: number, p: number, t: number, from: number, requester: number): boolean {
    const hints = this.pHints[p];
    if (hints === 0) {
      // Arrived: its reception FIFO (the receiver's own, or the high-priority one) must have room.
      const fifo = this.receptionFifo(n, p, from < 0 ? 0 : from);
      if (this.rcvChunks[fifo] + this.pSize[p] > this.settings.receptionFifoChunks) return false;
      this.choiceDir = TO_RECEPTION;
      this.choiceVc = NONE;
      return from >= 0;
    }
    const sb = 6 * n;
    // Every possible direction's link down: nothing can ever take it.
    let usable = false;
    for (let dir = 0; dir < 6; dir++) if (hints & (1 << (5 - dir)) && !this.linkDown[sb + dir]) usable = true;
    if (!usable) {
      this.dropAtHead(n, p, from);
      return false;
    }
    // A broadcast packet passing through leaves a copy in the reception FIFO of the way it came.
    if (this.pFlags[p] & BROADCAST && from >= 0 && this.rcvChunks[this.receptionFifo(n, p, from)] + this.pSize[p] > this.settings.receptionFifoChunks)
      return false;
    const escapeDir = this.escapeDirection(n, hints);
    const priority = (this.pFlags[p] & PRIORITY) !== 0;
    // A static or high-priority packet's one move is the escape direction: with its link down it
    // can never move (issue 56's soak found such packets waiting behind a dead neighbour for ever,
    // and every packet behind them in the FIFO with them).
    if ((this.pFlags[p] & STATIC || priority) && this.linkDown[sb + escapeDir]) {
      this.dropAtHead(n, p, from);
      return false;
    }
    const bubbleVc = priority ? BGL_VC_PRIORITY : BGL_VC_BUBBLE;
    if (!(this.pFlags[p] & STATIC) && !priority) {
      // Dynamic: JSQ over the possible and available dynamic direction/VC pairs.
      let best = NONE;
      let bestVc = NONE;
      let bestRange = -1;
      let ties = 0;
      for (let dir = 0; dir < 6; dir++) {
        if (!(hints & (1 << (5 - dir)))) continue;
        const g = sb + dir;
        if (this.linkDown[g] || this.senderBusy[g] > t) continue;
        for (let v = 0; v < 2; v++) {
          const tokens = this.credits[g * BGL_VCS + v];
          if (tokens < BGL_MAX_PACKET_CHUNKS) continue;
          const range = this.randomPackets[n] === 0 ? this.fullnessRange(tokens) : 0;
          if (range > bestRange) {
            best = dir;
            bestVc = v;
            bestRange = range;
            ties = 1;
          } else if (range === bestRange) {
            ties++;
            if (keyedDraw(this.seed, DRAW_JSQ_TIE, ((n * 32 + requester) * 6 + dir) * 2 + v, t) * ties < 1) {
              best = dir;
              bestVc = v;
            }
          }
        }
      }
      if (best !== NONE) {
        this.choiceDir = best;
        this.choiceVc = bestVc;
        return true;
      }
    }
    // The escape (static and priority packets' only move).
    const g = sb + escapeDir;
    if (this.linkDown[g] || this.senderBusy[g] > t) return false;
    if (this.datelinePair) {
      // The higher VC of the pair once the packet has crossed the dateline of the dimension it is
      // going down (this hop crossing it counts); the lower one before, and in a new dimension.
      const d = escapeDir >> 1;
      const vc = this.pFlags[p] & (CROSSED << d) || this.wraps(n, escapeDir) ? BGL_VC_PRIORITY : BGL_VC_BUBBLE;
      if (this.credits[g * BGL_VCS + vc] < BGL_MAX_PACKET_CHUNKS) return false;
      this.choiceDir = escapeDir;
      this.choiceVc = vc;
      return true;
    }
    const tokens = this.credits[g * BGL_VCS + bubbleVc];
    // §2: advancing on the bubble needs a full-sized packet's tokens; entering it — injection, a
    // turn, or from a dynamic VC — two.
    const continuing = this.pVc[p] === bubbleVc && this.pLastDir[p] === escapeDir;
    if (tokens < (continuing ? BGL_MAX_PACKET_CHUNKS : 2 * BGL_MAX_PACKET_CHUNKS)) return false;
    // By-size accounting must still fit the packet itself.
    if (tokens < this.chargeFor(n, p, bubbleVc)) return false;
    this.choiceDir = escapeDir;
    this.choiceVc = bubbleVc;
    return true;
  }

  /** Whether the link out of node n in `direction` is the wrap-around one, where §4's study puts the dateline. */
  private wraps(n: number, direction: number): boolean {
    const d = direction >> 1;
    const c = this.coords[3 * n + d];
    return (direction & 1) === 0 ? c === this.torus.shape[d] - 1 : c === 0;
  }

  /** The escape direction: the lowest dimension with hints (§2), or the first in x+, y+, z+, x−, y−, z− order. */
  private escapeDirection(n: number, hints: number): number {
    if (this.escapeByDirection[n] === 0) {
      for (let dir = 0; dir < 6; dir++) if (hints & (1 << (5 - dir))) return dir;
    } else {
      for (const dir of DIRECTION_ORDER) if (hints & (1 << (5 - dir))) return dir;
    }
    return NONE;
  }

  /** Tokens a packet is charged on VC v: its size, or on a bubble VC under full-size accounting a full packet's. */
  private chargeFor(n: number, p: number, v: number): number {
    if (this.datelinePair) return this.pSize[p];
    if ((v === BGL_VC_BUBBLE || v === BGL_VC_PRIORITY) && this.bubbleBySize[n] === 0) return BGL_MAX_PACKET_CHUNKS;
    return this.pSize[p];
  }

  /** Grants packet at the head of `fifo` the link `s` on VC v; returns when its first sending ends (the receiver's path is free again then). */
  private grantLink(n: number, t: number, fifo: number, injection: boolean, s: number, v: number): number {
    const p = injection ? this.injHead[fifo] : this.vcHead[fifo];
    const size = this.pSize[p];
    const wire = size * BGL_CHUNK_BYTES + BGL_TRAILER_BYTES;
    const g = 6 * n + s;
    const done = t + wire;
    // §2 link-level reliability: a packet whose CRC fails at the receiver is dropped there and
    // never acknowledged; the sender, holding it in its retransmission FIFO, sends it again when
    // the timeout passes (go-back-N from the oldest unacknowledged, which it is: the link waits).
    let start = t;
    const ber = this.bitErrorRate[g];
    if (ber > 0) {
      const corrupt = 1 - pow(1 - ber, 8 * wire);
      while (keyedDraw(this.seed, DRAW_BIT_ERROR, g, start) < corrupt) {
        start += wire + this.settings.linkRetryCycles;
        this.retransmissions++;
        this.linkRetransmissions[g]++;
        this.bytesMoved += wire;
        this.linkBooked[g] += wire;
      }
    }
    this.sendFrom[g] = t;
    this.sendWire[g] = wire;
    this.sendTries[g] = 1 + (start - t) / (wire + this.settings.linkRetryCycles);
    this.sendVc[g] = v;
    this.senderBusy[g] = start + wire;
    this.wake(n, start + wire);
    // The FIFO the packet leaves: its next packet asks once this one has gone; its room comes back at the tail.
    if (injection) {
      this.injHead[fifo] = this.pNext[p];
      if (this.injHead[fifo] === NONE) this.injTail[fifo] = NONE;
      else {
        this.injEligible[fifo] = max(done, t + this.settings.arbitrationLatency);
        this.wake(n, this.injEligible[fifo]);
      }
      this.schedule(n, done, EV_FREE_INJECTION, fifo, size, 0);
      this.inNetwork++;
    } else {
      this.vcHead[fifo] = this.pNext[p];
      this.vcBusyUntil[fifo] = done;
      if (this.vcHead[fifo] === NONE) this.vcTail[fifo] = NONE;
      else {
        this.vcEligible[fifo] = max(done, t + this.settings.arbitrationLatency);
        this.wake(n, this.vcEligible[fifo]);
      }
      this.schedule(n, done, EV_FREE, fifo, this.pCharge[p], 0);
    }
    if (!injection && this.pFlags[p] & BROADCAST) this.copyForReception(n, t, p, ((fifo % VC_FIFOS) / BGL_VCS) | 0);
    const charge = this.chargeFor(n, p, v);
    this.credits[g * BGL_VCS + v] -= charge;
    // §2: the hint bits of a dimension clear as the packet leaves towards a node whose coordinate
    // there, by this node's neighbour register, is the destination's.
    const d = s >> 1;
    if (this.neighbourRegister[18 * n + 3 * s + d] === this.coords[3 * this.pDst[p] + d]) this.pHints[p] &= ~(3 << (4 - 2 * d));
    if (this.wraps(n, s)) this.pFlags[p] |= CROSSED << (s >> 1);
    this.pLastDir[p] = s;
    this.pVc[p] = v;
    this.pCharge[p] = charge;
    this.pHops[p]++;
    const m = this.outNode[g];
    const arrive = start + this.latency[g];
    this.pTailAt[p] = arrive + wire;
    this.toNode(m, arrive + BGL_CHUNK_BYTES, EV_HEAD, p, VC_FIFOS * m + this.outPort[g] * BGL_VCS + v, 0, p);
    this.bytesMoved += wire;
    this.linkBooked[g] += wire;
    this.linkVcBooked[g * BGL_VCS + v] += wire;
    this.lastProgress = t;
    return done;
  }

  /**
   * Bytes each link (by node × 6 + port of its sender) has carried by the current cycle, packets
   * and acks, a byte a cycle as they cross (§2) — not the whole packet as it is granted the link,
   * which let a window's utilisation read above 1 (issue 57).
   */
  linkBytes(): Float64Array {
    const into = Float64Array.from(this.linkBooked);
    for (let g = 0; g < into.length; g++) into[g] -= this.uncrossed(g);
    return into;
  }

  /** The same by VC (index sender × 4 + VC), packets only: what a traffic run's utilisation splits by VC. */
  linkVcBytes(): Float64Array {
    const into = Float64Array.from(this.linkVcBooked);
    for (let g = 0; g < this.sendVc.length; g++) {
      const v = this.sendVc[g];
      if (v < 0) continue;
      // Only a packet's last sending is booked to its VC.
      const last = this.sendFrom[g] + (this.sendTries[g] - 1) * (this.sendWire[g] + this.settings.linkRetryCycles);
      into[g * BGL_VCS + v] -= min(this.sendWire[g], max(0, last + this.sendWire[g] - max(this.cycle, last)));
    }
    return into;
  }

  /** Of link g's last grant, the bytes that have not crossed by the current cycle. */
  private uncrossed(g: number): number {
    const wire = this.sendWire[g];
    const gap = wire + this.settings.linkRetryCycles;
    let left = 0;
    for (let i = 0, from = this.sendFrom[g]; i < this.sendTries[g]; i++, from += gap) left += min(wire, max(0, from + wire - max(this.cycle, from)));
    return left;
  }

  /** A broadcast packet's copy for node n, into the reception FIFO of the port it came by, whole once its tail is in. */
  private copyForReception(n: number, t: number, p: number, from: number): void {
    const c = this.allocate();
    this.pSrc[c] = this.pSrc[p];
    this.pDst[c] = n;
    this.pSize[c] = this.pSize[p];
    this.pFlags[c] = this.pFlags[p] & ~BROADCAST;
    this.pTag[c] = this.pTag[p];
    this.pSerial[c] = this.pSerial[p];
    this.pSentAt[c] = this.pSentAt[p];
    this.pHops[c] = this.pHops[p];
    this.pFinal[c] = NONE;
    this.pLeg2[c] = NO_SECOND_LEG;
    const reception = this.receptionFifo(n, c, from);
    this.rcvChunks[reception] += this.pSize[c];
    this.copiesMade++;
    this.inNetwork++;
    this.schedule(n, max(t + 1, this.pTailAt[p]), EV_RECEIVED, c, reception, 0);
  }

  /** Copies broadcast packets have left at the nodes they passed (each delivered or discarded like any packet). */
  copiesMade = 0;

  /** Sets the bit error rate of the link leaving node n's port (both directions of a cable are set apart). */
  setBitErrorRate(n: number, port: number, ber: number): void {
    if (!(ber >= 0 && ber < 0.01)) throw new RangeError(`a bit error rate is from 0 to 0.01, got ${ber}`);
    this.bitErrorRate[6 * n + port] = ber;
  }

  private grantReception(n: number, t: number, r: number, v: number): void {
    const fifo = VC_FIFOS * n + r * BGL_VCS + v;
    const p = this.vcHead[fifo];
    const reception = this.receptionFifo(n, p, r);
    this.vcHead[fifo] = this.pNext[p];
    if (this.vcHead[fifo] === NONE) this.vcTail[fifo] = NONE;
    // The packet is all in once its tail has arrived.
    const done = max(t + 1, this.pTailAt[p]);
    this.vcBusyUntil[fifo] = done;
    if (this.vcHead[fifo] !== NONE) {
      this.vcEligible[fifo] = max(done, t + this.settings.arbitrationLatency);
      this.wake(n, this.vcEligible[fifo]);
    }
    this.rcvChunks[reception] += this.pSize[p];
    this.schedule(n, done, EV_FREE, fifo, this.pCharge[p], 0);
    this.schedule(n, done, EV_RECEIVED, p, reception, 0);
    this.lastProgress = t;
  }

  /** A packet none of whose directions has a link: discarded where it stands, its room returned. */
  private dropAtHead(n: number, p: number, from: number): void {
    const t = this.cycle;
    if (from < 0) {
      const fifo = this.injPerNode * n + this.injectionFifoOf(p);
      this.injHead[fifo] = this.pNext[p];
      if (this.injHead[fifo] === NONE) this.injTail[fifo] = NONE;
      else this.injEligible[fifo] = t + this.settings.arbitrationLatency;
      this.schedule(n, t + 1, EV_FREE_INJECTION, fifo, this.pSize[p], 0);
    } else {
      const fifo = VC_FIFOS * n + from * BGL_VCS + this.pVc[p];
      this.vcHead[fifo] = this.pNext[p];
      if (this.vcHead[fifo] === NONE) this.vcTail[fifo] = NONE;
      else this.vcEligible[fifo] = t + this.settings.arbitrationLatency;
      this.schedule(n, t + 1, EV_FREE, fifo, this.pCharge[p], 0);
      this.inNetwork--;
    }
    this.wake(n, t + 1);
    this.discard(p, 'link-down', n, from);
  }

  // ------------------------------------------------------------------ the node's software: receiving
  private received(t: number, p: number, fifo: number): void {
    const node = (fifo / this.rcvPerNode) | 0;
    const core = ((fifo - this.rcvPerNode * node) / RECEPTION_FIFOS) | 0;
    this.inNetwork--;
    if (this.dead[node]) {
      this.discard(p, 'node-died', node, NONE);
      return;
    }
    this.pNext[p] = NONE;
    if (this.rcvHead[fifo] === NONE) this.rcvHead[fifo] = p;
    else this.pNext[this.rcvTail[fifo]] = p;
    this.rcvTail[fifo] = p;
    this.lastProgress = t;
    if (!this.readBusy[node * this.cores + core]) this.startRead(node, core, t);
  }

  /** The software reads its reception FIFOs in turn, each packet at its read rate. */
  private startRead(node: number, core: number, t: number): void {
    if (this.readPaused[node]) return;
    const reader = node * this.cores + core;
    const base = this.rcvPerNode * node + RECEPTION_FIFOS * core;
    for (let k = 0; k < RECEPTION_FIFOS; k++) {
      const fifo = base + ((this.readNext[reader] + k) % RECEPTION_FIFOS);
      const p = this.rcvHead[fifo];
      if (p === NONE) continue;
      this.readNext[reader] = (fifo - base + 1) % RECEPTION_FIFOS;
      this.readBusy[reader] = 1;
      const cycles = max(1, ceil((this.pSize[p] * BGL_CHUNK_BYTES) / this.settings.receptionReadBytesPerCycle));
      this.schedule(node, t + cycles, EV_READ_DONE, node, fifo, 0);
      return;
    }
  }

  private readDone(t: number, node: number, fifo: number): void {
    const core = ((fifo - this.rcvPerNode * node) / RECEPTION_FIFOS) | 0;
    this.readBusy[node * this.cores + core] = 0;
    if (this.dead[node]) return;
    const p = this.rcvHead[fifo];
    this.rcvHead[fifo] = this.pNext[p];
    if (this.rcvHead[fifo] === NONE) this.rcvTail[fifo] = NONE;
    this.rcvChunks[fifo] -= this.pSize[p];
    this.wake(node, t);
    this.startRead(node, core, t);
    if (this.pDst[p] !== node) {
      // The hints cleared somewhere else than the destination: wrong registers.
      this.discard(p, 'misrouted', node, NONE);
      return;
    }
    const final = this.pFinal[p];
    if (final !== NONE && final !== node) {
      // A relay's software sends the packet on by its second leg (route-override-table.ts).
      this.pFinal[p] = NONE;
      // The relay's core that received it sends it on (the same-numbered core as at the destination).
      this.pFlags[p] = this.pFlags[p] & TO_CORE_1 ? this.pFlags[p] | FROM_CORE_1 : this.pFlags[p] & ~FROM_CORE_1;
      const leg = this.pLeg2[p];
      this.pLeg2[p] = NO_SECOND_LEG;
      if (!this.address(p, node, final, leg)) {
        this.discard(p, 'unconfigured', node, NONE);
        return;
      }
      this.queueSend(node, p);
      return;
    }
    this.delivered++;
    this.lastProgress = t;
    this.onDeliver(p, t);
    this.release(p);
  }

  // ------------------------------------------------------------------ faults
  /**
   * Node n dies: it sends and takes nothing more; its neighbours' links to it go down; what it
   * held is discarded as the cycle about to run begins (it can do nothing with it before then).
   */
  killNode(n: number): void {
    if (this.dead[n]) return;
    this.dead[n] = 1;
    this.schedule(n, this.cycle, EV_DIE, n, 0, 0);
    for (let s = 0; s < 6; s++) {
      this.setLinkDown(6 * n + s);
      const m = this.outNode[6 * n + s];
      if (m >= 0) this.setLinkDown(6 * m + this.outPort[6 * n + s]);
    }
  }

  /** What dead node n held goes: its VC, injection, reception and send queues. */
  private dropHeld(n: number): void {
    const drop = (head: Int32Array, tail: Int32Array, fifo: number, network: boolean) => {
      for (let p = head[fifo]; p !== NONE;) {
        const next = this.pNext[p];
        if (network) this.inNetwork--;
        this.discard(p, 'node-died', n, network ? ((fifo % VC_FIFOS) / BGL_VCS) | 0 : NONE);
        p = next;
      }
      head[fifo] = tail[fifo] = NONE;
    };
    for (let f = 0; f < VC_FIFOS; f++) drop(this.vcHead, this.vcTail, VC_FIFOS * n + f, true);
    for (let f = 0; f < this.injPerNode; f++) drop(this.injHead, this.injTail, this.injPerNode * n + f, false);
    // Packets in the reception FIFOs left the network when they arrived.
    for (let f = 0; f < this.rcvPerNode; f++) drop(this.rcvHead, this.rcvTail, this.rcvPerNode * n + f, false);
    drop(this.sendHead, this.sendTail, n, false);
  }

  /** Both directions of the cable at node n's port `port` go down. */
  cutLink(n: number, port: number): void {
    const g = 6 * n + port;
    this.cableCut[g] = 1;
    this.setLinkDown(g);
    const m = this.outNode[g];
    if (m >= 0) {
      this.cableCut[6 * m + this.outPort[g]] = 1;
      this.setLinkDown(6 * m + this.outPort[g]);
    }
  }

  /** The cable at node n's port is mended: both directions come up where both nodes live. */
  restoreLink(n: number, port: number): void {
    const g = 6 * n + port;
    const m = this.outNode[g];
    if (m < 0) throw new RangeError(`nothing is cabled at ${this.fabric.chipNames[n]} port ${port}`);
    const back = 6 * m + this.outPort[g];
    this.cableCut[g] = this.cableCut[back] = 0;
    this.bringUp(g);
  }

  /**
   * A dead node is replaced: it comes up empty and unconfigured (its registers and table unwritten,
   * its arbitration and bubble settings the defaults), and its links where the cables are whole.
   */
  reviveNode(n: number): void {
    if (!this.dead[n]) return;
    // Replaced before its death was felt: what it held goes first.
    this.dropHeld(n);
    this.dead[n] = 0;
    this.neighbourRegister.fill(NONE, 18 * n, 18 * n + 18);
    this.cutoffPlus.fill(NONE, 3 * n, 3 * n + 3);
    this.cutoffMinus.fill(NONE, 3 * n, 3 * n + 3);
    this.routeTables[n] = null;
    this.faultSets[n] = null;
    this.ownTables[n] = null;
    const st = this.settings;
    this.setArbitrationRegister(n, [
      Math.round(st.slqFraction * 1000),
      Math.round(st.inNetworkPriorityFraction * 1000),
      st.packetArbitration === 'random' ? 1 : 0,
    ]);
    this.setBubbleRegister(n, [st.bubbleAccounting === 'by-size' ? 1 : 0, st.escapeOrder === 'direction' ? 1 : 0]);
    this.owed.fill(0, VC_FIFOS * n, VC_FIFOS * n + VC_FIFOS);
    this.vcChunks.fill(0, VC_FIFOS * n, VC_FIFOS * n + VC_FIFOS);
    this.injChunks.fill(0, this.injPerNode * n, this.injPerNode * (n + 1));
    this.rcvChunks.fill(0, this.rcvPerNode * n, this.rcvPerNode * (n + 1));
    this.pathsInUse.fill(0, 6 * n, 6 * n + 6);
    this.readBusy.fill(0, n * this.cores, (n + 1) * this.cores);
    for (let port = 0; port < 6; port++) this.bringUp(6 * n + port);
  }

  /** Both directions of the link at sender g up, if the cable is whole and both ends live; their tokens fresh. */
  private bringUp(g: number): void {
    const n = (g / 6) | 0;
    const m = this.outNode[g];
    if (m < 0 || this.dead[n] || this.dead[m] || this.cableCut[g]) return;
    const back = 6 * m + this.outPort[g];
    for (const [sender, receiverFifo] of [
      [g, VC_FIFOS * m + this.outPort[g] * BGL_VCS],
      [back, VC_FIFOS * n + (g % 6) * BGL_VCS],
    ]) {
      const owner = (sender / 6) | 0;
      // Link training: the tokens are the room the far receiver has (an empty one after a revival).
      for (let v = 0; v < BGL_VCS; v++) this.credits[sender * BGL_VCS + v] = this.settings.vcTokens - this.vcChunks[receiverFifo + v];
      if (this.linkDown[sender]) {
        this.linkDown[sender] = 0;
        this.onInterrupt('LINK_UP', this.cycle, owner, sender % 6, -1);
      }
      this.wake(owner, this.cycle);
    }
  }

  /** Node n's software stops reading its reception FIFOs (or reads again): back-pressure into the torus. */
  setReading(n: number, reading: boolean): void {
    this.readPaused[n] = reading ? 0 : 1;
    if (reading && !this.dead[n]) for (let core = 0; core < this.cores; core++) if (!this.readBusy[n * this.cores + core]) this.startRead(n, core, this.cycle);
  }

  private setLinkDown(g: number): void {
    if (this.linkDown[g]) return;
    this.linkDown[g] = 1;
    const n = (g / 6) | 0;
    if (!this.dead[n]) {
      this.onInterrupt('LINK_DOWN', this.cycle, n, g % 6, -1);
      this.wake(n, this.cycle);
    }
  }

  // ------------------------------------------------------------------ the watchdog
  /** No packet has moved for the watchdog's cycles while packets wait in the network: find the ring they wait on and report it. */
  private watchdog(t: number): void {
    const ring = this.waitingRing();
    this.deadlock = ring;
    const at = ring[0];
    this.onInterrupt('FORWARD_PROGRESS_TIMEOUT', t, at ? this.fabric.chipId(at.node) : 0, at?.port ?? -1, at?.vc ?? -1, { ring });
  }

  /** From a waiting VC FIFO's head, follow the VC each head waits for until one repeats: that cycle is the ring. */
  private waitingRing(): WaitingVc[] {
    let start = NONE;
    for (let f = 0; f < this.vcHead.length && start === NONE; f++) if (this.vcHead[f] !== NONE) start = f;
    const seen = new Map<number, number>();
    const path: number[] = [];
    let f = start;
    while (f !== NONE && !seen.has(f)) {
      seen.set(f, path.length);
      path.push(f);
      const p = this.vcHead[f];
      if (p === NONE) break;
      const n = (f / VC_FIFOS) | 0;
      const hints = this.pHints[p];
      if (hints === 0) break;
      const dir = this.escapeDirection(n, hints);
      const v = this.pFlags[p] & PRIORITY ? BGL_VC_PRIORITY : BGL_VC_BUBBLE;
      const m = this.outNode[6 * n + dir];
      if (m < 0) break;
      f = VC_FIFOS * m + this.outPort[6 * n + dir] * BGL_VCS + v;
    }
    const from = f !== NONE && seen.has(f) ? seen.get(f)! : 0;
    return path.slice(from).map((fifo) => {
      const n = (fifo / VC_FIFOS) | 0;
      const port = ((fifo % VC_FIFOS) / BGL_VCS) | 0;
      const vc = fifo % BGL_VCS;
      const upstream = this.outNode[6 * n + port];
      const upstreamSender = upstream >= 0 ? 6 * upstream + this.outPort[6 * n + port] : NONE;
      return {
        node: this.fabric.chipNames[n],
        port,
        vc,
        heldChunks: this.vcChunks[fifo],
        upstreamTokens: upstreamSender >= 0 ? this.credits[upstreamSender * BGL_VCS + vc] : 0,
      };
    });
  }
}

const DIRECTION_ORDER = [0, 2, 4, 1, 3, 5];
