/**
 * The Anton 2 network, ASIC by ASIC and router by router (paper 004 §2–3; spec §2.2): each ASIC a
 * 4×4 mesh of 6-port routers that is also the inter-node switch, its 12 channel adapters on the
 * torus channels of two slices, its 23 endpoint adapters, placed by the floorplan data file.
 *
 * Time is in on-chip cycles (1.5 GHz, one 24-byte flit a cycle on a mesh channel). Packets of one or
 * two flits move by virtual cut-through with credits: a packet is granted a channel only when the
 * buffer beyond has room for all of it in the VC it will hold there. A transfer is one event at
 * each end, not one per flit: the head reaches the next buffer a serialisation and the channel's
 * latency after the grant, the tail frees the buffer behind it once it has left, and the channel
 * is busy for every flit — on a torus channel 24 bytes at 89.6 Gb/s, 3.214 cycles a flit (§2.2).
 *
 * Routers: RC, VA and SA1 take `routerPipelineCycles` after a head arrives; then each input offers
 * one of its VCs (SA1, round robin among those whose output is free and whose next buffer has the
 * credits) and each output grants one input (SA2) — by §3.3's inverse-weighted arbiter (Fig. 6,
 * accumulators of M+1 bits on a sliding window, weights chosen by the packet's pattern field, a
 * priority bit, round robin among equals, underflow to zero) or by plain round robin, per arbiter.
 *
 * Routes: the source endpoint adapter draws the packet's dimension order and slice among those its
 * node's route policy allows for the destination (§2.3: "Typically, a unicast packet's dimension
 * order and torus slice are randomized"), and the tie of an offset of exactly k/2 by the tie rule.
 * At each ASIC the adapter a packet enters by (an endpoint's, or a channel's from the torus) picks
 * the adapter it must leave by — the next dimension of its order with an offset left, by the node's
 * coordinate, size and dateline registers — and the routers steer it there: a Y or Z through route
 * in its one router, an X through route over the skip channel, anything else in the direction
 * order (§2.4). VC promotion (§2.5): a packet starts on VC 0, the hop that crosses a dimension's
 * dateline arrives on the next VC, and a packet that finishes a dimension without crossing it takes
 * the next VC as it turns, on the output of the first router after the arriving channel adapter (the
 * deadlock-freedom argument needs what turns in a VC to have crossed its dateline); so after j
 * dimensions it is on VC j.
 *
 * The books: every packet is delivered at an endpoint or discarded with a reason. Random choices
 * are keyed draws of the seed and the packet's serial number, so a run is the same whatever order
 * events are handled in.
 */
import * as model from '@weft/fabric-model';
import type { Anton2Floorplan, InterruptKind, Torus as TorusType } from '@weft/fabric-model';
import type { EmulatedFabric } from '../emulated-fabric';
import type { EventWheel } from '../engine/event-wheel';
import { BlockCalendar } from '../engine/block-calendar';
import type { BlockEngine, BlockMail } from '../parallel/block-threads';
import { Anton2Settings, anton2Settings } from './anton2-settings';

// The datasheet's figures, read once into module constants (an imported binding is a property load
// on every use, a getter under the test runner); these are read per arbitration.
const CHANNELS = model.ANTON2_CHANNEL_ADAPTERS;
const ENDPOINTS = model.ANTON2_ENDPOINT_ADAPTERS;
const VCS_PER_CLASS = model.ANTON2_VCS_PER_CLASS;
const NS_PER_CYCLE = model.ANTON2_NS_PER_CYCLE;
const { keyedDraw, ANTON2_ORDERS } = model;
const { ceil, floor, max, min } = Math;

/** One ASIC's inside as numbers (fabric-model anton2/chip-wiring.ts). */
const ROUTERS = model.A2_ROUTERS;
const PORTS = model.A2_PORTS;
const IN_CA_FROM_ROUTER = model.A2_IN_CA_FROM_ROUTER;
const IN_CA_FROM_TORUS = model.A2_IN_CA_FROM_TORUS;
const IN_EA_INJECT = model.A2_IN_EA_INJECT;
const IN_EA_RECEIVE = model.A2_IN_EA_RECEIVE;
const INPUTS = model.A2_INPUTS;
const OUTPUTS = model.A2_OUTPUTS;
const EXIT_ENDPOINT = model.A2_EXIT_ENDPOINT;
const EXITS = model.A2_EXITS;
/** Units that arbitrate: the 16 routers, then every adapter input (one input, one output: unit u ↔ input and output u + SINGLE_OFFSET). */
const SINGLE_OFFSET = IN_CA_FROM_ROUTER - ROUTERS;
const UNITS = ROUTERS + (IN_EA_RECEIVE - IN_CA_FROM_ROUTER);
/** VCs an input keeps: four per class, two classes. */
const VCS = VCS_PER_CLASS * model.ANTON2_TRAFFIC_CLASSES;
const NONE = -1;

/**
 * ASICs a block: the machine's events are kept a calendar per block, and without per-cycle traffic
 * callbacks the blocks run one after another a window at a time (issue 56), each ASIC's state then
 * staying in the cache for the window. An emulator setting, not the machine's: the results are the
 * same for any. On 8×8×8, 8 to 64 gave the same windowed speed (1.8 M flit-hops a CPU second, 512:
 * 1.0 M); cycle by cycle — traffic runs — fewer blocks cost less, 64 within a few percent of one.
 */
const BLOCK_ASICS = 64;
/** Cycles each block's calendar holds in its buckets; events beyond wait in its list of far events. */
const BLOCK_HORIZON = 128;

const EV_ARRIVE = 1;
const EV_CREDIT = 2;
const EV_ARBITRATE = 3;
const EV_DELIVER = 4;
/** An endpoint's next open-loop send (startSteady). */
const EV_SOURCE = 5;

/**
 * Packet record: 128 bytes, one record a packet in one buffer (`ints` and `times` view it), aligned
 * to cache lines — what a hop reads of a packet in its first 64 bytes (its output and VCs, its
 * queue link, when it is eligible and when its tail arrives), its route's state in the second. As
 * an array per field, and the times apart, a hop cost a cache miss per field on a machine far
 * larger than the cache (issue 56). Integer slots:
 */
/** The output (local number) RC chose at the packet's present input, and the VC it will hold beyond it. */
const P_OUT = 0;
const P_NEXT_VC = 1;
const P_CLASS = 2;
const P_FLITS = 3;
const P_VC = 4;
const P_NEXT = 5;
/** A multicast copy on its way to the next table (group × 2 + tree), −1 for unicast. */
const P_MCAST = 6;
/** 1 for a multicast copy made at an input whose room another copy gives back. */
const P_SHARED = 7;
const P_PATTERN = 8;
const P_CHIP = 9;
const P_HOPS = 10;
/** 1 while the packet is in the machine (its record not free). */
const P_LIVE = 11;
// Integer slots 12–15 are the float64 slots T_ELIGIBLE and T_TAIL.
const P_SRC = 16;
const P_SRC_EP = 17;
const P_DST = 18;
const P_DST_EP = 19;
const P_ORDER = 20;
const P_SLICE = 21;
/** Index into the order of the dimension being routed (3 once all are done). */
const P_DIM = 22;
const P_CROSSED = 23;
const P_EXIT = 24;
const P_THROUGH = 25;
const P_TAG = 26;
/** Bit d: an offset of exactly k/2 in dimension d goes −. */
const P_TIES = 27;
const P_SERIAL = 28;
/** 1 from the channel adapter where the packet finished a dimension without crossing its dateline to the router output that takes it out of the T group: the VC it rises to there. */
const P_PROMOTE = 29;
// Integer slots 30–31 are the float64 slot T_SENT.
/** Int32 slots a record. */
const P_INTS = 32;
/** Float64 slots: when the head may first request, when the tail reaches the packet's buffer, when it was sent. */
const T_ELIGIBLE = 6;
const T_TAIL = 7;
const T_SENT = 15;
/** Float64 slots a record. */
const P_TIMES = P_INTS / 2;
/** A packet's record as doubles, as it travels to another thread (anton2-threads.ts). */
export const ANTON2_PACKET_RECORD_DOUBLES = P_TIMES;

const DRAW_ROUTE = 1;
const DRAW_TIE = 2;
const DRAW_BIT_ERROR = 3;
const DRAW_GAP = 4;
/** A packet's serial number, from its source and how many that source had sent before it. */
const DRAW_SERIAL = 5;

export const ANTON2_DISCARD_REASONS = ['unreachable', 'link-down', 'node-died', 'misrouted', 'unconfigured', 'no-multicast-entry'] as const;

/** One multicast table entry: the copies an ASIC makes of a packet of a group's tree (fabric-model anton2/multicast-words.ts). */
export type MulticastEntry = model.Anton2MulticastEntry;
export type Anton2DiscardReason = (typeof ANTON2_DISCARD_REASONS)[number];

export interface Anton2SendOptions {
  /** 0 request, 1 reply (§2.1). */
  readonly trafficClass?: number;
  /** The traffic pattern the packet belongs to, 0 or 1 (§3.3: it selects the arbiters' inverse weights). */
  readonly pattern?: number;
  readonly tag?: number;
  /** A fixed (order, slice) instead of the drawn one: ANTON2_ORDERS index and slice. */
  readonly order?: number;
  readonly slice?: number;
}

export class Anton2Sim implements BlockEngine {
  readonly settings: Anton2Settings;
  readonly nodes: number;
  readonly nsPerCycle = NS_PER_CYCLE;
  readonly torus: TorusType;
  /** Each node's true place (the design's), for addressing packets. */
  readonly coords: Int32Array;
  // Registers, written by the control plane (or programDefaults for tests of the chip alone).
  /** Per node: its coordinate register and torus-size register, x y z. A size of 0 is unconfigured. */
  readonly coordinateRegister: Int32Array;
  readonly sizeRegister: Int32Array;
  /** Per node and dimension: the coordinate after which the + and the − dateline lie (§2.5). */
  readonly datelinePlus: Int32Array;
  readonly datelineMinus: Int32Array;
  /** Per source node, null (all 12 allowed) or a 12-bit mask of allowed (order × 2 + slice) per destination, indexed x + kX·(y + kY·z). */
  readonly routePolicy: (Uint16Array | null)[];
  /** Inverse weights: router output (chip, router, port), input, pattern. */
  readonly weights: Uint16Array;
  /** 1 where the router output's SA2 arbiter is plain round robin. */
  readonly roundRobin: Uint8Array;
  /**
   * SA1 (§4.3: "input switch arbitration"), one of §3.3's arbitration points too: at each input,
   * inverse weights per VC and pattern (node, input, VC, pattern) and whether it is plain round robin.
   */
  readonly vcWeights: Uint16Array;
  readonly vcRoundRobin: Uint8Array;
  /** Flits each input sent from each VC (node, input, VC): the loads SA1's weights are for. */
  readonly vcFlits: Float64Array;
  /** Per node, its multicast table by group × 2 + tree (null: empty). */
  readonly multicastTables: (Map<number, MulticastEntry> | null)[];

  // Wiring, by global output (chip × OUTPUTS + local) and input (chip × INPUTS + local).
  private readonly downstream: Int32Array;
  private readonly upstream: Int32Array;
  private readonly outLatency: Float64Array;
  private readonly outCyclesPerFlit: Float64Array;
  /** Per router, exit and through flag: the router port. */
  private readonly routeOut: Int8Array;
  /** Per input, the cycles from a head arriving to its first request: a router's RC, VA and SA1; an adapter's own. */
  private readonly pipeline: Int32Array;

  // State.
  readonly dead: Uint8Array;
  /** Per node and channel adapter: the torus channel is down. */
  readonly linkDown: Uint8Array;
  /** Per (node, channel): cut (setChannelDown), whatever its ends' state — a revived ASIC's channel stays down. */
  private readonly cut: Uint8Array;
  /** Per node and channel adapter: the probability a flit arrives corrupted (go-back-N resends it). */
  readonly bitErrorRate: Float64Array;
  readonly linkRetransmissions: Float64Array;
  readonly linkFlits: Float64Array;
  /** Flits each torus channel carried, per (node, channel, VC: class × 4 + VC on the channel). */
  readonly torusVcFlits: Float64Array;
  /** Flits each router's SA2 arbiter granted, per (node, router, output, input) — the loads the control plane's analysis predicts. */
  readonly grantedFlits: Float64Array;
  private readonly credits: Int32Array;
  private readonly outFree: Float64Array;
  private readonly inBusy: Float64Array;
  private readonly queueHead: Int32Array;
  private readonly queueTail: Int32Array;
  private readonly queueFlits: Int32Array;
  private readonly nonEmpty: Uint8Array;
  /** Per input VC, the cycle its head packet became its head; and whether the watchdog has reported it. */
  private readonly headSince: Float64Array;
  private readonly stallReported: Uint8Array;
  /** Packets queued at each ASIC's inputs (the watchdog's scan passes over an ASIC with none). */
  private readonly chipQueued: Int32Array;
  private nextScan = 0;
  private readonly rrVc: Uint8Array;
  private readonly vcAccum: Int32Array;
  private readonly accum: Int32Array;
  private readonly rrInput: Uint8Array;
  private readonly armedAt: Float64Array;
  private readonly arbitratedAt: Float64Array;
  /** Packets an endpoint adapter still has to make (a batch), and their class, pattern and destination rule. */
  private readonly batchLeft: Int32Array;
  private batchDestination: ((node: number, endpoint: number, serial: number) => number) | null = null;
  private batchOptions: Anton2SendOptions = {};
  /** Open-loop sources: packets a cycle per endpoint, until when, to where, each endpoint's draw count. */
  private steadyRate = 0;
  private steadyUntil = 0;
  private steadyDestination: ((node: number, endpoint: number, serial: number) => number) | null = null;
  private steadyOptions: Anton2SendOptions = {};
  private readonly steadyDraws: Int32Array;

  private ints = new Int32Array(0);
  private times = new Float64Array(0);
  private capacity = 0;
  private free = NONE;
  /**
   * Packets each endpoint adapter (node × 23 + endpoint) has sent. A packet's serial number — the
   * key of its random draws — is drawn from its endpoint and this count, a multicast copy's from
   * its parent's and where it was made: so it does not depend on the order in which ASICs, or one
   * ASIC's endpoints, are worked on within a cycle (issue 56: the ASICs run apart, in windows).
   */
  private readonly sentBy: Float64Array;
  /** The ASICs' events, a calendar per block (engine/block-calendar.ts): BLOCK_ASICS of them by index, or slabs of z (setBlocks). */
  private readonly calendar: BlockCalendar;
  /** Each ASIC's place among its block's (sortByChip). */
  private readonly rankInBlock: Int32Array;
  /** Where events for blocks this instance does not run go: a packet's arrival (its record with it), or credits (parallel/block-threads.ts). */
  mail: BlockMail | null = null;
  /** Packets handed to another thread, and taken from one. */
  migratedOut = 0;
  migratedIn = 0;
  /**
   * The torus's lookahead: fewer cycles than anything an ASIC does takes to reach another (a
   * packet's head, or credits, across the fastest torus channel); the longest window blocks run apart.
   */
  readonly lookahead: number;
  now = 0;

  // The books.
  injected = 0;
  /** Multicast copies made beyond the packets sent: delivered + discarded = injected + copies once all is done. */
  copies = 0;
  delivered = 0;
  flitHops = 0;
  torusFlitHops = 0;
  inFlight = 0;
  retransmissions = 0;
  readonly discarded = new Map<Anton2DiscardReason, number>();

  onDeliver: (packet: number, cycle: number, latencyCycles: number) => void = () => undefined;
  /** A discard, where: `port` the torus channel (0–11) at a channel adapter, 12 + the endpoint adapter at one, −1 inside the mesh. */
  onDiscard: (packet: number, reason: Anton2DiscardReason, node: number, port: number) => void = () => undefined;
  /** A multicast copy made of a packet (the copy's id): one more to deliver or discard. */
  onCopy: (packet: number) => void = () => undefined;
  onInterrupt: (kind: InterruptKind, cycle: number, node: number, port: number, vc: number, details?: Record<string, unknown>) => void = () => undefined;

  constructor(
    readonly fabric: EmulatedFabric,
    readonly floorplan: Anton2Floorplan,
    readonly seed: number,
    settings: Partial<Anton2Settings> = {},
  ) {
    const st = (this.settings = anton2Settings(settings));
    const chips = fabric.design.chips;
    const n = (this.nodes = chips.length);
    this.torus = model.designTorus(fabric.design);
    this.coords = new Int32Array(3 * n);
    chips.forEach((c, i) => {
      if (c.portCount !== CHANNELS || !c.coordinates) throw new Error(`chip ${c.name} is not an Anton 2 ASIC (12 channel adapters and coordinates)`);
      this.coords.set(c.coordinates, 3 * i);
    });
    this.coordinateRegister = new Int32Array(3 * n);
    this.sizeRegister = new Int32Array(3 * n);
    this.datelinePlus = new Int32Array(3 * n);
    this.datelineMinus = new Int32Array(3 * n);
    this.routePolicy = new Array<Uint16Array | null>(n).fill(null);
    this.multicastTables = new Array<Map<number, MulticastEntry> | null>(n).fill(null);
    this.vcWeights = new Uint16Array(n * INPUTS * VCS * 2).fill((1 << st.weightBits) - 1);
    // Spec §2.2.7: SA1 round robin unless an input's VC weights are set (inverse-weighted at SA1 is
    // selectable per input; weights from each ASIC's exact VC loads raised the §4.1 batch throughput
    // on 8×8×8 by a few points only — 0.645 to 0.690 at a batch of 400 — see the fairness study).
    this.vcRoundRobin = new Uint8Array(n * INPUTS).fill(1);
    this.vcFlits = new Float64Array(n * INPUTS * VCS);
    this.vcAccum = new Int32Array(n * INPUTS * VCS);
    this.weights = new Uint16Array(n * ROUTERS * PORTS * PORTS * 2).fill((1 << st.weightBits) - 1);
    this.roundRobin = new Uint8Array(n * ROUTERS * PORTS).fill(st.arbitration === 'round-robin' ? 1 : 0);

    // The chip's own wiring, from the floorplan.
    const { downstream: localDown, routeOut } = model.anton2ChipWiring(this.floorplan, st.directionOrder);
    this.routeOut = routeOut;
    this.pipeline = new Int32Array(INPUTS);
    for (let i = 0; i < INPUTS; i++) this.pipeline[i] = i < IN_CA_FROM_ROUTER ? st.routerPipelineCycles : i < IN_EA_INJECT ? st.adapterCycles : 0;

    // Every ASIC's wiring: the chip's own, and the torus channels from the design's cables.
    this.downstream = new Int32Array(n * OUTPUTS).fill(NONE);
    this.upstream = new Int32Array(n * INPUTS).fill(NONE);
    this.outLatency = new Float64Array(n * OUTPUTS).fill(st.meshLinkCycles);
    this.outCyclesPerFlit = new Float64Array(n * OUTPUTS).fill(1);
    const torusCyclesPerFlit = (model.ANTON2_FLIT_BYTES * 8) / (model.ANTON2_CHANNEL_EFFECTIVE_GBPS * NS_PER_CYCLE);
    for (let chip = 0; chip < n; chip++)
      for (let o = 0; o < OUTPUTS; o++) {
        if (o >= IN_CA_FROM_ROUTER && o < IN_CA_FROM_TORUS) continue;
        if (localDown[o] === NONE) continue;
        this.downstream[chip * OUTPUTS + o] = chip * INPUTS + localDown[o];
      }
    this.linkDown = new Uint8Array(n * CHANNELS).fill(1);
    for (let chip = 0; chip < n; chip++)
      for (let c = 0; c < CHANNELS; c++) {
        const peer = fabric.peer[fabric.portBase[chip] + c];
        if (peer < 0) continue;
        const farChip = fabric.portOwner(peer);
        const farPort = peer - fabric.portBase[farChip];
        const o = chip * OUTPUTS + IN_CA_FROM_ROUTER + c;
        this.downstream[o] = farChip * INPUTS + IN_CA_FROM_TORUS + farPort;
        this.outCyclesPerFlit[o] = torusCyclesPerFlit;
        this.linkDown[chip * CHANNELS + c] = 0;
      }
    for (const cable of fabric.design.cables) {
      const cycles = (st.serdesNs + (cable.latencyNs ?? 10)) / NS_PER_CYCLE;
      this.outLatency[fabric.chipId(cable.a.chip) * OUTPUTS + IN_CA_FROM_ROUTER + cable.a.port] = cycles;
      this.outLatency[fabric.chipId(cable.b.chip) * OUTPUTS + IN_CA_FROM_ROUTER + cable.b.port] = cycles;
    }
    this.credits = new Int32Array(n * OUTPUTS * VCS);
    for (let o = 0; o < n * OUTPUTS; o++) {
      const d = this.downstream[o];
      if (d === NONE) continue;
      this.upstream[d] = o;
      const local = d % INPUTS;
      const room = local < IN_CA_FROM_ROUTER ? st.routerBufferFlits : local < IN_EA_INJECT ? st.adapterBufferFlits : st.endpointBufferFlits;
      this.credits.fill(room, o * VCS, (o + 1) * VCS);
    }
    this.dead = new Uint8Array(n);
    this.cut = new Uint8Array(n * CHANNELS);
    this.bitErrorRate = new Float64Array(n * CHANNELS);
    this.linkRetransmissions = new Float64Array(n * CHANNELS);
    this.linkFlits = new Float64Array(n * OUTPUTS);
    this.torusVcFlits = new Float64Array(n * CHANNELS * VCS);
    this.grantedFlits = new Float64Array(n * ROUTERS * PORTS * PORTS);
    this.outFree = new Float64Array(n * OUTPUTS);
    this.inBusy = new Float64Array(n * INPUTS);
    this.queueHead = new Int32Array(n * INPUTS * VCS).fill(NONE);
    this.queueTail = new Int32Array(n * INPUTS * VCS).fill(NONE);
    this.queueFlits = new Int32Array(n * INPUTS * VCS);
    this.nonEmpty = new Uint8Array(n * INPUTS);
    this.headSince = new Float64Array(n * INPUTS * VCS);
    this.stallReported = new Uint8Array(n * INPUTS * VCS);
    this.chipQueued = new Int32Array(n);
    this.rrVc = new Uint8Array(n * INPUTS);
    this.accum = new Int32Array(n * ROUTERS * PORTS * PORTS);
    this.rrInput = new Uint8Array(n * ROUTERS * PORTS);
    this.armedAt = new Float64Array(n * UNITS).fill(-1);
    this.arbitratedAt = new Float64Array(n * UNITS).fill(-1);
    this.batchLeft = new Int32Array(n * ENDPOINTS);
    this.sentBy = new Float64Array(n * ENDPOINTS);
    this.steadyDraws = new Int32Array(n * ENDPOINTS);
    this.calendar = new BlockCalendar(n, BLOCK_HORIZON, ceil(n / BLOCK_ASICS), (chip) => (chip / BLOCK_ASICS) | 0);
    this.rankInBlock = new Int32Array(n);
    for (let chip = 0; chip < n; chip++) this.rankInBlock[chip] = chip % BLOCK_ASICS;
    let fastest = Infinity;
    for (let chip = 0; chip < n; chip++)
      for (let c = 0; c < CHANNELS; c++)
        if (this.downstream[chip * OUTPUTS + IN_CA_FROM_ROUTER + c] !== NONE)
          fastest = Math.min(fastest, this.outLatency[chip * OUTPUTS + IN_CA_FROM_ROUTER + c]);
    // A head arrives ceil(start + a flit + latency) after its grant, credits ceil(tail) + ceil(latency): at least floor(latency) + 1 on.
    this.lookahead = fastest === Infinity ? BLOCK_HORIZON / 2 : Math.max(1, Math.min(BLOCK_HORIZON / 2, floor(fastest)));
    this.grow(4096);
  }

  // ------------------------------------------------------------------ registers

  /** Writes what a correct configuration holds, from each node's own place (tests of the chip alone; the control plane writes them over JTAG). */
  programDefaults(): void {
    const t = this.torus;
    for (let node = 0; node < this.nodes; node++)
      for (let d = 0; d < 3; d++) {
        this.coordinateRegister[3 * node + d] = this.coords[3 * node + d];
        this.sizeRegister[3 * node + d] = t.shape[d];
        this.datelinePlus[3 * node + d] = t.shape[d] - 1;
        this.datelineMinus[3 * node + d] = t.shape[d] - 1;
      }
  }

  /** Loads one router output's inverse weights, m[input][pattern], and resets its accumulators (spec §2.3.5). */
  setWeights(node: number, router: number, port: number, m: readonly (readonly number[])[]): void {
    const top = (1 << this.settings.weightBits) - 1;
    const base = (node * ROUTERS + router) * PORTS + port;
    for (let i = 0; i < PORTS; i++)
      for (let pat = 0; pat < 2; pat++) {
        const w = m[i]?.[pat] ?? top;
        if (!(Number.isInteger(w) && w >= 0 && w <= top))
          throw new RangeError(`an inverse weight is 0 to ${top}, got ${w} (router ${router} port ${port} input ${i})`);
        this.weights[(base * PORTS + i) * 2 + pat] = w;
      }
    this.accum.fill(0, base * PORTS, (base + 1) * PORTS);
  }

  // ------------------------------------------------------------------ packets

  private grow(capacity: number): void {
    const records = new ArrayBuffer(capacity * P_INTS * 4);
    const ints = new Int32Array(records);
    ints.set(this.ints);
    const times = new Float64Array(records);
    for (let p = capacity - 1; p >= this.capacity; p--) {
      ints[p * P_INTS + P_NEXT] = this.free;
      this.free = p;
    }
    this.ints = ints;
    this.times = times;
    this.capacity = capacity;
  }

  private allocate(): number {
    if (this.free === NONE) this.grow(this.capacity * 2);
    const p = this.free;
    this.free = this.ints[p * P_INTS + P_NEXT];
    this.ints[p * P_INTS + P_LIVE] = 1;
    return p;
  }

  private release(p: number): void {
    this.ints[p * P_INTS + P_LIVE] = 0;
    this.ints[p * P_INTS + P_NEXT] = this.free;
    this.free = p;
    this.inFlight--;
  }

  /** The packet's serial number: the key of its draws (see sentBy). */
  packetSerial(p: number): number {
    return this.ints[p * P_INTS + P_SERIAL];
  }

  packetSource(p: number): number {
    return this.ints[p * P_INTS + P_SRC];
  }
  /** The endpoint adapter that sent the packet. */
  packetSourceEndpoint(p: number): number {
    return this.ints[p * P_INTS + P_SRC_EP];
  }
  packetDestination(p: number): number {
    return this.ints[p * P_INTS + P_DST];
  }
  /** Packets (and multicast copies) of `tag` still in the machine. */
  packetsAlive(tag: number): number {
    let n = 0;
    for (let p = 0; p < this.capacity; p++) if (this.ints[p * P_INTS + P_LIVE] === 1 && this.ints[p * P_INTS + P_TAG] === tag) n++;
    return n;
  }
  packetTag(p: number): number {
    return this.ints[p * P_INTS + P_TAG];
  }
  packetHops(p: number): number {
    return this.ints[p * P_INTS + P_HOPS];
  }
  packetFlits(p: number): number {
    return this.ints[p * P_INTS + P_FLITS];
  }
  packetSentAt(p: number): number {
    return this.times[p * P_TIMES + T_SENT];
  }
  /** The (order, slice) the packet was given: ANTON2_ORDERS index × 2 + slice. */
  packetRoute(p: number): number {
    return this.ints[p * P_INTS + P_ORDER] * 2 + this.ints[p * P_INTS + P_SLICE];
  }
  /** The VC the packet holds now (it rises by promotion). */
  packetVc(p: number): number {
    return this.ints[p * P_INTS + P_VC];
  }

  /**
   * The source node's endpoint adapter `endpoint` sends a packet of `flits` flits to `destEndpoint`
   * of `destination`; returns its id, or −1 when the source refused it (the reason is in the books).
   */
  send(source: number, endpoint: number, destination: number, destEndpoint: number, flits = 1, options: Anton2SendOptions = {}): number {
    if (!(flits >= 1 && flits <= model.ANTON2_MAX_PACKET_FLITS)) throw new RangeError(`an Anton 2 packet is 1 or 2 flits, got ${flits}`);
    const p = this.allocate();
    this.inFlight++;
    this.injected++;
    const I = p * P_INTS;
    const ints = this.ints;
    const serial = (keyedDraw(this.seed, DRAW_SERIAL, source * ENDPOINTS + endpoint, this.sentBy[source * ENDPOINTS + endpoint]++) * 4294967296) | 0;
    ints[I + P_SRC] = source;
    ints[I + P_SRC_EP] = endpoint;
    ints[I + P_DST] = destination;
    ints[I + P_DST_EP] = destEndpoint;
    ints[I + P_CLASS] = options.trafficClass ?? 0;
    ints[I + P_PATTERN] = options.pattern ?? 0;
    ints[I + P_FLITS] = flits;
    ints[I + P_TAG] = options.tag ?? 0;
    ints[I + P_SERIAL] = serial;
    ints[I + P_HOPS] = 0;
    ints[I + P_VC] = 0;
    ints[I + P_DIM] = 0;
    ints[I + P_CROSSED] = 0;
    ints[I + P_THROUGH] = 0;
    ints[I + P_PROMOTE] = 0;
    ints[I + P_MCAST] = NONE;
    ints[I + P_SHARED] = 0;
    ints[I + P_CHIP] = source;
    this.times[p * P_TIMES + T_SENT] = this.now;
    if (this.dead[source]) {
      this.discard(p, 'node-died', source, CHANNELS + endpoint);
      return NONE;
    }
    // §2.3: the order and slice drawn among those the source's policy allows for the destination.
    // The policy table is indexed by the destination's place, by the source's own size register.
    const policy = this.routePolicy[source];
    const S = 3 * source;
    const D = 3 * destination;
    const allowed =
      policy === null ? 0xfff : (policy[this.coords[D] + this.sizeRegister[S] * (this.coords[D + 1] + this.sizeRegister[S + 1] * this.coords[D + 2])] ?? 0);
    let route: number;
    if (options.order !== undefined) route = options.order * 2 + (options.slice ?? 0);
    else {
      const count = popcount12(allowed);
      if (count === 0) {
        this.discard(p, 'unreachable', source, CHANNELS + endpoint);
        return NONE;
      }
      let pick = (keyedDraw(this.seed, DRAW_ROUTE, serial, 0) * count) | 0;
      route = 0;
      for (let r = 0; r < 12; r++)
        if (allowed & (1 << r)) {
          if (pick === 0) {
            route = r;
            break;
          }
          pick--;
        }
    }
    ints[I + P_ORDER] = route >> 1;
    ints[I + P_SLICE] = route & 1;
    const tie = this.settings.tieRule;
    let ties = 0;
    for (let d = 0; d < 3; d++) {
      const minus = tie === 'random' ? keyedDraw(this.seed, DRAW_TIE, serial, d) < 0.5 : tie === 'source-parity' && (this.coords[3 * source + d] & 1) === 1;
      if (minus) ties |= 1 << d;
    }
    ints[I + P_TIES] = ties;
    const input = source * INPUTS + IN_EA_INJECT + endpoint;
    if (!this.chooseExit(p, source)) return NONE;
    ints[I + P_OUT] = IN_EA_INJECT + endpoint;
    ints[I + P_NEXT_VC] = 0;
    this.times[p * P_TIMES + T_ELIGIBLE] = this.now;
    this.times[p * P_TIMES + T_TAIL] = this.now;
    this.enqueue(p, input);
    this.arm(source * UNITS + IN_EA_INJECT + endpoint - SINGLE_OFFSET, this.now);
    return p;
  }

  /**
   * Every endpoint adapter listed sends `count` packets, one as soon as the last has left it — a
   * batch (§4.1: "all cores sent a given number of packets") — each to `destination(node,
   * endpoint, key)`, a node × 23 + endpoint; `key` is a number of its own for every packet, whatever
   * order the endpoints send in (sendKey).
   */
  startBatch(
    endpoints: readonly (readonly [number, number])[],
    count: number,
    destination: (node: number, endpoint: number, key: number) => number,
    options: Anton2SendOptions = {},
  ): void {
    this.batchDestination = destination;
    this.batchOptions = options;
    for (const [node, e] of endpoints) {
      this.batchLeft[node * ENDPOINTS + e] = count;
      this.nextOfBatch(node, e);
    }
  }

  /** A number of its own for the next packet endpoint `e` of `node` sends: its count × endpoints + its index. */
  private sendKey(node: number, e: number): number {
    const source = node * ENDPOINTS + e;
    return this.sentBy[source] * this.nodes * ENDPOINTS + source;
  }

  private nextOfBatch(node: number, e: number): void {
    const k = node * ENDPOINTS + e;
    if (this.batchLeft[k] === 0 || this.batchDestination === null) return;
    this.batchLeft[k]--;
    const target = this.batchDestination(node, e, this.sendKey(node, e));
    this.send(node, e, (target / ENDPOINTS) | 0, target % ENDPOINTS, 1, this.batchOptions);
  }

  /**
   * Open-loop traffic: every endpoint adapter listed sends packets at `rate` a cycle on average
   * (exponential gaps, keyed draws) until cycle `until`, each to `destination(node, endpoint,
   * key)`, a node × 23 + endpoint (`key` as startBatch's).
   */
  startSteady(
    endpoints: readonly (readonly [number, number])[],
    rate: number,
    until: number,
    destination: (node: number, endpoint: number, serial: number) => number,
    options: Anton2SendOptions = {},
  ): void {
    if (!(rate > 0 && rate <= 1)) throw new RangeError(`an endpoint sends 0 to 1 packets a cycle, got ${rate}`);
    this.steadyRate = rate;
    this.steadyUntil = until;
    this.steadyDestination = destination;
    this.steadyOptions = options;
    // A thread running some blocks sends only from their ASICs (parallel/block-threads.ts).
    const calendar = this.calendar;
    for (const [node, e] of endpoints) if (calendar.owned[calendar.blockOf[node]]) this.nextSteady(node * ENDPOINTS + e, this.now);
  }

  private nextSteady(source: number, t: number): void {
    const u = keyedDraw(this.seed, DRAW_GAP, source, this.steadyDraws[source]++);
    const at = t + 1 + floor(-Math.log(1 - u) / this.steadyRate);
    if (at < this.steadyUntil) this.schedule((source / ENDPOINTS) | 0, at, EV_SOURCE, source, 0, 0);
  }

  private steadySend(source: number, t: number): void {
    const node = (source / ENDPOINTS) | 0;
    const e = source - node * ENDPOINTS;
    const target = this.steadyDestination!(node, e, this.sendKey(node, e));
    this.send(node, e, (target / ENDPOINTS) | 0, target % ENDPOINTS, 1, this.steadyOptions);
    this.nextSteady(source, t);
  }

  // ------------------------------------------------------------------ routing

  /**
   * At ASIC `node`, where the packet must leave it: the next dimension of its order with an offset
   * left (by the node's own registers), or its endpoint. False when it was discarded instead.
   */
  private chooseExit(p: number, node: number): boolean {
    const I = p * P_INTS;
    const ints = this.ints;
    const N = 3 * node;
    if (this.sizeRegister[N] === 0) {
      this.discard(p, 'unconfigured', node);
      return false;
    }
    const order = ANTON2_ORDERS[ints[I + P_ORDER]];
    const dst = 3 * ints[I + P_DST];
    for (let i = ints[I + P_DIM]; i < 3; i++) {
      const d = order[i];
      const k = this.sizeRegister[N + d];
      const ahead = (((this.coords[dst + d] - this.coordinateRegister[N + d]) % k) + k) % k;
      if (ahead === 0) continue;
      const minus = 2 * ahead > k || (2 * ahead === k && (ints[I + P_TIES] & (1 << d)) !== 0);
      if (i !== ints[I + P_DIM]) {
        ints[I + P_DIM] = i;
        ints[I + P_CROSSED] = 0;
      }
      ints[I + P_EXIT] = 4 * d + (minus ? 2 : 0) + ints[I + P_SLICE];
      return true;
    }
    if (ints[I + P_DST] !== node) {
      this.discard(p, 'misrouted', node);
      return false;
    }
    ints[I + P_DIM] = 3;
    ints[I + P_EXIT] = EXIT_ENDPOINT + ints[I + P_DST_EP];
    return true;
  }

  /** RC at the input a packet has just reached: its output there and the VC it will hold beyond. False when it was discarded. */
  private routeAt(p: number, input: number): boolean {
    const I = p * P_INTS;
    const ints = this.ints;
    const chip = (input / INPUTS) | 0;
    const local = input - chip * INPUTS;
    const vc = ints[I + P_VC];
    if (local < IN_CA_FROM_ROUTER) {
      const r = (local / PORTS) | 0;
      ints[I + P_OUT] = r * PORTS + this.routeOut[(r * EXITS + ints[I + P_EXIT]) * 2 + ints[I + P_THROUGH]];
      // §2.5: the rise for a dimension finished without crossing comes as the packet turns, at the
      // first router's output — the channel from the adapter keeps the torus VC, so that what turns
      // in a VC has crossed its dateline (the deadlock-freedom argument's premise).
      const next = vc + ints[I + P_PROMOTE];
      ints[I + P_PROMOTE] = 0;
      ints[I + P_NEXT_VC] = next < VCS_PER_CLASS ? next : VCS_PER_CLASS - 1;
      return true;
    }
    if (local < IN_CA_FROM_TORUS) {
      // Leaving by a torus channel: the hop that crosses the dateline arrives on the next VC.
      const c = local - IN_CA_FROM_ROUTER;
      if (this.linkDown[chip * CHANNELS + c]) {
        this.discard(p, 'link-down', chip, c);
        return false;
      }
      const d = c >> 2;
      const N = 3 * chip + d;
      const at = this.coordinateRegister[N];
      const k = this.sizeRegister[N];
      const crosses = c & 2 ? at === (this.datelineMinus[N] + 1) % k : at === this.datelinePlus[N];
      let next = vc;
      if (crosses && !ints[I + P_CROSSED]) {
        ints[I + P_CROSSED] = 1;
        next = vc + 1;
      }
      // More promotions than VCs (misplaced datelines, non-minimal routes): the top VC is shared.
      ints[I + P_NEXT_VC] = next < VCS_PER_CLASS ? next : VCS_PER_CLASS - 1;
      ints[I + P_OUT] = local;
      return true;
    }
    if (local < IN_EA_INJECT) {
      // Arrived from the torus: on through, or the dimension is done (promotion if it did not cross).
      const c = local - IN_CA_FROM_TORUS;
      const dimBefore = ints[I + P_DIM];
      const crossedBefore = ints[I + P_CROSSED];
      ints[I + P_HOPS]++;
      if (!this.chooseExit(p, chip)) return false;
      // Arriving on D− means travelling D+: through goes on by D+ of the same slice.
      ints[I + P_THROUGH] = ints[I + P_EXIT] === (c ^ 2) ? 1 : 0;
      if (ints[I + P_DIM] !== dimBefore) {
        if (!crossedBefore) ints[I + P_PROMOTE] = 1;
        ints[I + P_CROSSED] = 0;
      }
      ints[I + P_NEXT_VC] = vc;
      ints[I + P_OUT] = local;
      return true;
    }
    // An endpoint adapter's injection: on to its router.
    ints[I + P_OUT] = local;
    ints[I + P_NEXT_VC] = vc;
    return true;
  }

  // ------------------------------------------------------------------ multicast

  /**
   * The source node's endpoint adapter sends a packet to a multicast group by tree `tree` (§2.3:
   * table-based; the control plane alternates trees across packets): its node's table entry says
   * which local endpoints get a copy and which channels copies leave by; each ASIC a copy reaches
   * looks the group up again. Returns the number of copies made here, 0 when there is no entry.
   */
  sendMulticast(source: number, endpoint: number, group: number, tree: number, flits = 1, options: Anton2SendOptions = {}): number {
    const p = this.send(source, endpoint, source, endpoint, flits, { ...options, order: 0, slice: 0 });
    if (p === NONE) return 0;
    // Out of the injection queue again: it goes as the table's copies instead.
    const input = source * INPUTS + IN_EA_INJECT + endpoint;
    this.unqueueLast(p, input);
    this.ints[p * P_INTS + P_MCAST] = group * 2 + tree;
    return this.copyOut(p, input, source, -1, this.now);
  }

  /** A multicast copy arriving from the torus: the table's copies, or a discard when the ASIC has no entry. */
  private replicate(p: number, input: number, t: number): void {
    const chip = (input / INPUTS) | 0;
    const c = input - chip * INPUTS - IN_CA_FROM_TORUS;
    this.ints[p * P_INTS + P_HOPS]++;
    if (this.copyOut(p, input, chip, c, t) === 0) this.returnCredits(input, p, t);
  }

  /**
   * Makes the copies of multicast packet `p` at `input` of `chip` (arrived by channel `c`, or −1 at
   * its source) by the chip's table: `p` itself becomes the first; all wait in the input's queue,
   * and only the last gives its room back upstream. Returns how many.
   */
  private copyOut(p: number, input: number, chip: number, c: number, t: number): number {
    const key = this.ints[p * P_INTS + P_MCAST];
    const entry = this.multicastTables[chip]?.get(key);
    const outputs = entry ? entry.endpoints.length + entry.channels.length : 0;
    if (outputs === 0) {
      this.discard(p, 'no-multicast-entry', chip);
      return 0;
    }
    const local = input - chip * INPUTS;
    const eligible = t + this.pipeline[local];
    const crossed = this.ints[p * P_INTS + P_CROSSED];
    // Every copy from the packet as it arrived, before any is changed (ids in a reused scratch: no allocation per packet).
    const ids = this.copyIds;
    ids[0] = p;
    for (let k = 1; k < outputs; k++) {
      const q = this.allocate();
      this.ints.copyWithin(q * P_INTS, p * P_INTS, (p + 1) * P_INTS);
      this.inFlight++;
      this.copies++;
      ids[k] = q;
      this.onCopy(q);
    }
    for (let k = 0; k < outputs; k++) {
      const q = ids[k];
      const ints = this.ints;
      const Q = q * P_INTS;
      ints[Q + P_SERIAL] = k === 0 ? ints[Q + P_SERIAL] : (keyedDraw(this.seed, DRAW_SERIAL, ints[p * P_INTS + P_SERIAL], chip * 64 + k) * 4294967296) | 0;
      ints[Q + P_SHARED] = k < outputs - 1 ? 1 : 0;
      const toEndpoint = k < entry!.endpoints.length;
      const exit = toEndpoint ? EXIT_ENDPOINT + entry!.endpoints[k] : entry!.channels[k - entry!.endpoints.length];
      ints[Q + P_EXIT] = exit;
      if (toEndpoint) {
        ints[Q + P_DST] = chip;
        ints[Q + P_DST_EP] = exit - EXIT_ENDPOINT;
        ints[Q + P_MCAST] = NONE;
      } else ints[Q + P_SLICE] = exit & 1;
      // Through (same channel's way on), or a turn or delivery: the dimension is done, with §2.5's rise if it did not cross.
      const through = c >= 0 && exit === (c ^ 2);
      ints[Q + P_THROUGH] = through ? 1 : 0;
      if (c >= 0 && !through) {
        ints[Q + P_PROMOTE] = crossed ? 0 : 1;
        ints[Q + P_CROSSED] = 0;
      }
      ints[Q + P_NEXT_VC] = ints[Q + P_VC];
      ints[Q + P_OUT] = local;
      this.times[q * P_TIMES + T_ELIGIBLE] = eligible;
      this.enqueue(q, input);
    }
    this.arm(chip * UNITS + local - SINGLE_OFFSET, eligible);
    return outputs;
  }

  private readonly copyIds = new Int32Array(ENDPOINTS + CHANNELS);

  /** Takes `p`, just queued last at `input`, back out. */
  private unqueueLast(p: number, input: number): void {
    const ints = this.ints;
    const I = p * P_INTS;
    const vcIndex = ints[I + P_CLASS] * VCS_PER_CLASS + ints[I + P_VC];
    const q = input * VCS + vcIndex;
    let prev = NONE;
    for (let at = this.queueHead[q]; at !== p; at = ints[at * P_INTS + P_NEXT]) prev = at;
    if (prev === NONE) this.queueHead[q] = NONE;
    else ints[prev * P_INTS + P_NEXT] = NONE;
    this.queueTail[q] = prev;
    this.queueFlits[q] -= ints[I + P_FLITS];
    if (this.queueHead[q] === NONE) this.nonEmpty[input] &= ~(1 << vcIndex);
    this.chipQueued[(input / INPUTS) | 0]--;
  }

  // ------------------------------------------------------------------ queues and events

  private enqueue(p: number, input: number): void {
    const ints = this.ints;
    const I = p * P_INTS;
    const vcIndex = ints[I + P_CLASS] * VCS_PER_CLASS + ints[I + P_VC];
    const q = input * VCS + vcIndex;
    ints[I + P_NEXT] = NONE;
    if (this.queueTail[q] === NONE) {
      this.queueHead[q] = p;
      this.headSince[q] = this.now;
      this.stallReported[q] = 0;
    } else ints[this.queueTail[q] * P_INTS + P_NEXT] = p;
    this.queueTail[q] = p;
    this.queueFlits[q] += ints[I + P_FLITS];
    this.nonEmpty[input] |= 1 << vcIndex;
    this.chipQueued[(input / INPUTS) | 0]++;
  }

  /** Has the unit arbitrate at `at` (rounded up), or the cycle after it last did if that is later: one arbitration a cycle. */
  private arm(unit: number, at: number): void {
    let when = ceil(at);
    if (when < this.now) when = this.now;
    if (when <= this.arbitratedAt[unit]) when = this.arbitratedAt[unit] + 1;
    const armed = this.armedAt[unit];
    if (armed >= this.now && armed <= when) return;
    this.armedAt[unit] = when;
    this.schedule((unit / UNITS) | 0, when, EV_ARBITRATE, unit, 0, 0);
  }

  private discard(p: number, reason: Anton2DiscardReason, node: number, port = NONE): void {
    this.discarded.set(reason, (this.discarded.get(reason) ?? 0) + 1);
    this.onDiscard(p, reason, node, port);
    this.release(p);
  }

  /**
   * Runs `cycles` cycles; `beforeCycle` (a traffic run's arrivals) is called at the start of each.
   * Given `nextArrival` (the first cycle from `from`, before `until`, in which `beforeCycle` has
   * something to do, or `until`), cycles in which neither the machine nor the arrivals have anything
   * to do are passed over — up to the watchdog's next scan, which runs when it is due — so that a
   * lightly loaded machine costs its events, not its cycles.
   */
  run(cycles: number, beforeCycle?: (cycle: number) => void, nextArrival?: (from: number, until: number) => number): void {
    if (beforeCycle === undefined) {
      this.runAhead(cycles);
      return;
    }
    const end = this.now + cycles;
    while (this.now < end) {
      let t = this.now;
      if (nextArrival !== undefined && this.calendar.nothingAt(t)) {
        const until = this.nextScan <= t ? t : this.nextScan < end ? this.nextScan : end;
        const next = this.calendar.nextBusy(t, nextArrival(t, until));
        if (next > t) {
          this.now = t = next;
          if (t >= end) break;
        }
      }
      beforeCycle(t);
      this.runCycle(t);
      this.endOfCycle(t);
      this.now = t + 1;
    }
  }

  /** Cycle t on every block whose calendar has something then (every calendar is at t). */
  private runCycle(t: number): void {
    const calendar = this.calendar;
    calendar.now = t;
    this.now = t;
    const due = calendar.due;
    for (let k = 0, n = calendar.takeDue(t); k < n; k++) {
      const b = due[k];
      this.runEvents(calendar.wheels[b], t, true);
      calendar.finish(b, t);
    }
  }

  /**
   * Runs `cycles` with nothing sent from outside (the machine's own sources: startSteady,
   * startBatch): block by block, each a window of up to `lookahead` cycles on end — the same as
   * cycle by cycle, since nothing a block does within a window reaches another before the window
   * is over, and within a cycle an ASIC's events are handled in an order of their own (runEvents).
   * A window ends where the watchdog looks, so that it sees what it would have.
   */
  private runAhead(cycles: number): void {
    const end = this.now + cycles;
    const calendar = this.calendar;
    const wheels = calendar.wheels;
    while (this.now < end) {
      const from = this.now;
      if (this.quiet) {
        // Nothing will ever move again: what waits is stuck; the watchdog sees it when its time comes.
        if (this.inFlight > 0) this.watchdogScan(end - 1);
        this.now = end;
        break;
      }
      let until = min(end, from + this.lookahead);
      // The watchdog looks at the end of the first cycle from its time on.
      if (this.nextScan < until) until = max(from, this.nextScan) + 1;
      let last = -1;
      if (until === from + 1) {
        // One cycle (the host stepping): the blocks with something then, as cycle by cycle.
        this.runCycle(from);
        last = from;
      } else {
        calendar.now = from;
        for (let b = 0; b < wheels.length; b++) {
          const wheel = wheels[b];
          for (let t = from; t < until; t++) {
            if (wheel.pending === 0) break;
            if (wheel.count(t) === 0) continue;
            this.now = t;
            this.runEvents(wheel, t, false);
            calendar.finish(b, t);
            if (t > last) last = t;
          }
        }
        calendar.windowDone();
      }
      // Gone quiet within the window: cycle by cycle, the run would have stopped at the first cycle
      // with nothing left, before the window's last (the next window's start says what then).
      this.now = until - 1;
      if (last === until - 1 || !this.quiet) this.endOfCycle(until - 1);
      this.now = until;
    }
  }

  /**
   * Cuts the torus into `blocks` slabs of z (paper 002 §3's cut, as BG/L's), of which this instance
   * runs `owned` (all by default), for runs on several threads (parallel/block-threads.ts). Returns
   * the lookahead: fewer cycles than a head or credits take across the fastest channel between
   * blocks — the longest window runWindowed may take.
   */
  setBlocks(blocks: number, owned?: readonly number[]): number {
    const kz = this.torus.shape[2];
    if (!(Number.isInteger(blocks) && blocks >= 1 && blocks <= kz))
      throw new RangeError(`a ${this.torus.shape.join('×')} torus is cut into 1 to ${kz} blocks of z, got ${blocks}`);
    if (this.now !== 0 || this.injected !== 0 || !this.quiet) throw new Error('blocks are set before the machine runs');
    const calendar = this.calendar;
    calendar.cut(blocks, (chip) => floor((this.coords[3 * chip + 2] * blocks) / kz), owned);
    const sizes = new Int32Array(blocks);
    for (let chip = 0; chip < this.nodes; chip++) this.rankInBlock[chip] = sizes[calendar.blockOf[chip]]++;
    this.chipCounts = new Int32Array(Math.max(...sizes) + 1);
    let fastest = Infinity;
    for (let chip = 0; chip < this.nodes; chip++)
      for (let c = 0; c < CHANNELS; c++) {
        const out = chip * OUTPUTS + IN_CA_FROM_ROUTER + c;
        const down = this.downstream[out];
        if (down !== NONE && calendar.blockOf[(down / INPUTS) | 0] !== calendar.blockOf[chip]) fastest = Math.min(fastest, this.outLatency[out]);
      }
    return fastest === Infinity ? BLOCK_HORIZON / 2 : Math.max(1, Math.min(BLOCK_HORIZON / 2, floor(fastest)));
  }

  /**
   * Runs `cycles` cycles a window at a time, each block this instance runs the whole window on its
   * own, then the next; `beforeCycle(block, cycle)` (null: none — the machine's own sources) is
   * called at the start of each of a block's cycles, `windowEnd` at each window's end (the threads
   * exchange their mail there). Windows end at the same cycles on every instance, whatever each has
   * pending: at most `window` apart, and where the watchdog looks.
   */
  runWindowed(
    cycles: number,
    window: number,
    beforeCycle: ((block: number, cycle: number) => void) | null,
    windowEnd?: (cycle: number) => void,
    nextArrival?: (block: number, from: number, until: number) => number,
  ): void {
    if (!(Number.isInteger(window) && window >= 1 && window <= BLOCK_HORIZON / 2))
      throw new RangeError(`a window is 1 to ${BLOCK_HORIZON / 2} cycles, got ${window}`);
    const end = this.now + cycles;
    const calendar = this.calendar;
    const wheels = calendar.wheels;
    while (this.now < end) {
      const from = this.now;
      let until = min(end, from + window);
      if (this.nextScan < until) until = max(from, this.nextScan) + 1;
      calendar.now = from;
      calendar.windowUntil = until;
      for (let b = 0; b < wheels.length; b++) {
        if (calendar.owned[b] === 0) continue;
        calendar.runningBlock = b;
        const wheel = wheels[b];
        for (let t = from; t < until; t++) {
          if (beforeCycle !== null) {
            // A block with nothing to do and nothing sent passes over its idle cycles.
            if (nextArrival !== undefined && wheel.count(t) === 0) {
              const next = min(wheel.nextBusy(t, until), nextArrival(b, t, until));
              if (next >= until) break;
              t = next;
            }
            this.now = t;
            beforeCycle(b, t);
          } else if (wheel.pending === 0) break;
          if (wheel.count(t) === 0) continue;
          this.now = t;
          this.runEvents(wheel, t, false);
          calendar.finish(b, t);
        }
      }
      calendar.windowDone();
      this.now = until - 1;
      this.endOfCycle(until - 1);
      this.now = until;
      windowEnd?.(until);
    }
  }

  /** The blocks the ASICs' events are kept in (see setBlocks), and ASIC `chip`'s. */
  get blockCount(): number {
    return this.calendar.blocks;
  }

  blockOf(chip: number): number {
    return this.calendar.blockOf[chip];
  }

  /**
   * Runs `cycles` cycles with traffic sent from outside block by block (`beforeCycle(block,
   * cycle)`, a traffic run's arrivals for that block's ASICs): each block a lookahead window at a
   * time — the same run as cycle by cycle with every block's arrivals first, when what each block
   * sends depends on nothing but its own ASICs and draws (torus-traffic-run.ts). Given
   * `nextArrival` (block `block`'s first cycle from `from`, before `until`, with arrivals), a block
   * passes over the cycles in which neither it nor its arrivals have anything to do.
   */
  runBlocks(cycles: number, beforeCycle: (block: number, cycle: number) => void, nextArrival?: (block: number, from: number, until: number) => number): void {
    this.runWindowed(cycles, this.lookahead, beforeCycle, undefined, nextArrival);
  }

  /** An event another thread posted for this one: an arrival brings its packet's record (see schedule). */
  importEvent(at: number, kind: number, a: number, b: number, c: number, _f64: Float64Array, i32: Int32Array, offset: number): void {
    let p = a;
    if (kind === EV_ARRIVE) {
      p = this.allocate();
      const ints = this.ints;
      const I = p * P_INTS;
      const from = 2 * offset;
      for (let k = 0; k < P_INTS; k++) ints[I + k] = i32[from + k];
      ints[I + P_LIVE] = 1;
      this.inFlight++;
      this.migratedIn++;
    }
    const chip = kind === EV_ARRIVE ? (b / INPUTS) | 0 : (a / OUTPUTS) | 0;
    this.calendar.add(chip, at, kind, p, b, c);
  }

  /** What closes cycle t for the whole machine: the watchdog, every so often. */
  private endOfCycle(t: number): void {
    if (t >= this.nextScan) {
      this.nextScan = t + (this.settings.watchdogCycles >> 2);
      if (this.inFlight > 0) this.watchdogScan(t);
    }
  }

  /** Schedules an event for ASIC `chip`'s block. */
  private schedule(chip: number, at: number, kind: number, a: number, b: number, c: number): void {
    if (!this.calendar.add(chip, at, kind, a, b, c)) this.sendAway(chip, at, kind, a, b, c);
  }

  /**
   * An event for an ASIC of a block another thread runs — a packet's arrival, or credits (nothing
   * else crosses an ASIC's edge) — goes by the mail; an arriving packet's record goes with it, its
   * 32 int32s copied exactly, and its slot here is freed.
   */
  private sendAway(chip: number, at: number, kind: number, a: number, b: number, c: number): void {
    const mail = this.mail;
    if (mail === null) throw new Error(`ASIC ${chip}'s block is run elsewhere, and no mail goes there`);
    const block = this.calendar.blockOf[chip];
    if (kind !== EV_ARRIVE) {
      if (kind !== EV_CREDIT) throw new Error(`only arrivals and credits cross to another thread, got event ${kind}`);
      mail.post(block, at, kind, a, b, c);
      return;
    }
    const to = 2 * mail.post(block, at, kind, NONE, b, c);
    const i32 = mail.i32;
    const ints = this.ints;
    const I = a * P_INTS;
    for (let k = 0; k < P_INTS; k++) i32[to + k] = ints[I + k];
    this.migratedOut++;
    this.release(a);
  }

  /**
   * Cycle t's events on `wheel`: first every arrival, credit, delivery and send, then the arbiters
   * they (or earlier cycles) woke — within a cycle an ASIC's buffers and credits are up to date
   * before its arbiters decide, whatever order the events were made in (issue 56: so that ASICs can
   * be run apart, their events of a cycle made in another order, with the same result). Arbiters of
   * one ASIC share no buffer or credit, so their order among themselves does not matter; what they
   * make for the same cycle (a batch's next packet) is handled as it comes.
   */
  private runEvents(wheel: EventWheel, t: number, sort: boolean): void {
    const arbiters = this.arbiters;
    // The order is free (see above): cycle by cycle, an ASIC at a time while its state is in the
    // cache (it measured as fast as before the blocks; in windows, where a block's state stays in
    // the cache anyway, sorting cost more than it gave: 1.8 M against 1.6 M flit-hops a CPU second).
    if (sort && wheel.count(t) > 256) this.sortByChip(wheel, t);
    let i = 0;
    for (;;) {
      for (; i < wheel.count(t); i += 4) {
        const data = wheel.bucket(t);
        const kind = data[i];
        const a = data[i + 1];
        if (kind === EV_ARBITRATE) arbiters.push(a);
        else if (kind === EV_ARRIVE) this.arrive(a, data[i + 2], t);
        else if (kind === EV_CREDIT) this.credit(a, data[i + 2], data[i + 3], t);
        else if (kind === EV_DELIVER) this.deliver(a, t);
        else if (kind === EV_SOURCE) this.steadySend(a, t);
      }
      if (arbiters.length === 0) return;
      for (let k = 0; k < arbiters.length; k++) this.arbitrate(arbiters[k], t);
      arbiters.length = 0;
    }
  }
  private readonly arbiters: number[] = [];

  private sortScratch = new Int32Array(0);
  private chipCounts = new Int32Array(BLOCK_ASICS + 1);
  /** Orders block `block`'s events of cycle t by the ASIC they touch (a counting sort, stable). */
  private sortByChip(wheel: EventWheel, t: number): void {
    const data = wheel.bucket(t);
    const length = wheel.count(t);
    if (this.sortScratch.length < length) this.sortScratch = new Int32Array(data.length);
    const scratch = this.sortScratch;
    const counts = this.chipCounts;
    const rank = this.rankInBlock;
    counts.fill(0);
    for (let i = 0; i < length; i += 4) counts[rank[eventChip(data, i)] + 1]++;
    for (let c = 1; c < counts.length; c++) counts[c] += counts[c - 1];
    for (let i = 0; i < length; i += 4) {
      const at = counts[rank[eventChip(data, i)]]++ * 4;
      scratch[at] = data[i];
      scratch[at + 1] = data[i + 1];
      scratch[at + 2] = data[i + 2];
      scratch[at + 3] = data[i + 3];
    }
    data.set(scratch.subarray(0, length));
  }

  /** Whether nothing is left to happen. */
  get quiet(): boolean {
    return this.calendar.quiet;
  }

  /** Moves a quiet machine's time on to `cycle`. */
  skipTo(cycle: number): void {
    if (!this.quiet) throw new Error(`cycles ${this.now} to ${cycle} are not empty: events are pending`);
    if (cycle > this.now) this.now = cycle;
  }

  private arrive(p: number, input: number, t: number): void {
    const chip = (input / INPUTS) | 0;
    this.ints[p * P_INTS + P_CHIP] = chip;
    const local = input - chip * INPUTS;
    if (this.dead[chip]) {
      // The sender's link layer sees no link (killNode): it frees what it sent.
      this.returnCredits(input, p, t);
      this.discard(p, 'node-died', chip, portOfInput(local));
      return;
    }
    if (local >= IN_EA_RECEIVE) {
      this.schedule((input / INPUTS) | 0, max(t, ceil(this.times[p * P_TIMES + T_TAIL])), EV_DELIVER, p, input, 0);
      return;
    }
    if (this.ints[p * P_INTS + P_MCAST] !== NONE && local >= IN_CA_FROM_TORUS && local < IN_EA_INJECT) {
      this.replicate(p, input, t);
      return;
    }
    if (!this.routeAt(p, input)) {
      this.returnCredits(input, p, t);
      return;
    }
    this.times[p * P_TIMES + T_ELIGIBLE] = t + this.pipeline[local];
    this.enqueue(p, input);
    this.arm(local < IN_CA_FROM_ROUTER ? chip * UNITS + ((local / PORTS) | 0) : chip * UNITS + local - SINGLE_OFFSET, t + this.pipeline[local]);
  }

  /** A packet dropped at an input gives its room back at once. */
  private returnCredits(input: number, p: number, t: number): void {
    const up = this.upstream[input];
    if (up === NONE) return;
    const I = p * P_INTS;
    this.schedule(
      (up / OUTPUTS) | 0,
      t + ceil(this.outLatency[up]),
      EV_CREDIT,
      up,
      this.ints[I + P_CLASS] * VCS_PER_CLASS + this.ints[I + P_VC],
      this.ints[I + P_FLITS],
    );
  }

  private credit(output: number, vcIndex: number, flits: number, t: number): void {
    this.credits[output * VCS + vcIndex] += flits;
    const chip = (output / OUTPUTS) | 0;
    const local = output - chip * OUTPUTS;
    this.arm(local < IN_CA_FROM_ROUTER ? chip * UNITS + ((local / PORTS) | 0) : chip * UNITS + local - SINGLE_OFFSET, t);
  }

  private deliver(p: number, t: number): void {
    const I = p * P_INTS;
    const input = this.ints[I + P_CHIP] * INPUTS + IN_EA_RECEIVE + this.ints[I + P_DST_EP];
    this.returnCredits(input, p, t);
    this.delivered++;
    const latency = t - this.times[p * P_TIMES + T_SENT] + this.settings.endpointOverheadNs / NS_PER_CYCLE;
    this.onDeliver(p, t, latency);
    this.release(p);
  }

  // ------------------------------------------------------------------ arbitration

  /** SA1 and SA2 at one unit: each input offers one VC's head packet, each output grants one input. */
  private arbitrate(unit: number, t: number): void {
    if (this.arbitratedAt[unit] === t) return;
    this.arbitratedAt[unit] = t;
    if (this.armedAt[unit] === t) this.armedAt[unit] = -1;
    const chip = (unit / UNITS) | 0;
    const u = unit - chip * UNITS;
    let wake = Infinity;
    if (u >= ROUTERS) {
      const input = chip * INPUTS + u + SINGLE_OFFSET;
      const w = this.offer(input, chip * OUTPUTS, t);
      if (w >= 0) this.transfer(w, input, t);
      else if (w !== NONE) wake = -w - 2;
      if (this.nonEmpty[input] && w >= 0) wake = t + 1;
    } else {
      // SA1: each of the router's inputs offers one packet; requests[port] collects the inputs asking for it.
      const inBase = chip * INPUTS + u * PORTS;
      const outBase = chip * OUTPUTS;
      let requests = 0;
      const offered = this.offered;
      for (let i = 0; i < PORTS; i++) {
        const input = inBase + i;
        if (this.nonEmpty[input] === 0) continue;
        const w = this.offer(input, outBase, t);
        offered[i] = w;
        if (w >= 0) requests |= 1 << (this.ints[w * P_INTS + P_OUT] - u * PORTS);
        else if (w !== NONE && -w - 2 < wake) wake = -w - 2;
      }
      // SA2: each requested output grants one input.
      for (let port = 0; port < PORTS; port++) {
        if (!(requests & (1 << port))) continue;
        const out = u * PORTS + port;
        let mask = 0;
        for (let i = 0; i < PORTS; i++) {
          const w = offered[i];
          if (w >= 0 && this.ints[w * P_INTS + P_OUT] === out) mask |= 1 << i;
        }
        const g = this.sa2(chip, u, port, mask);
        this.grantedFlits[((chip * ROUTERS + u) * PORTS + port) * PORTS + g] += this.ints[offered[g] * P_INTS + P_FLITS];
        this.transfer(offered[g], inBase + g, t);
        if (mask !== 1 << g) wake = t + 1;
      }
      offered.fill(NONE);
      for (let i = 0; i < PORTS; i++)
        if (this.nonEmpty[inBase + i] && this.inBusy[inBase + i] >= t + 1 && this.inBusy[inBase + i] < wake) wake = this.inBusy[inBase + i];
    }
    if (wake !== Infinity) this.arm(unit, wake <= t ? t + 1 : wake);
  }
  private readonly offered = new Int32Array(PORTS).fill(NONE);

  /**
   * SA1 at one input: round robin over its VCs, the first whose head packet is through the
   * pipeline, whose output is free and whose next buffer has room for it. Returns the packet;
   * NONE when nothing can go until credits come back; or −(cycle + 2) for the cycle to try again.
   */
  private offer(input: number, outBase: number, t: number): number {
    if (this.inBusy[input] >= t + 1) return -(floor(this.inBusy[input]) + 2);
    const mask = this.nonEmpty[input];
    const start = this.rrVc[input];
    let retry = Infinity;
    const rr = this.vcRoundRobin[input] === 1;
    const half = 1 << this.settings.weightBits;
    let firstLow = NONE;
    for (let k = 0; k < VCS; k++) {
      const v = (start + k) & (VCS - 1);
      if (!(mask & (1 << v))) continue;
      const p = this.queueHead[input * VCS + v];
      const I = p * P_INTS;
      const eligible = this.times[p * P_TIMES + T_ELIGIBLE];
      if (eligible > t) {
        if (eligible < retry) retry = eligible;
        continue;
      }
      const out = outBase + this.ints[I + P_OUT];
      // A torus channel's serialiser frees part-way through a cycle and starts the next flit there.
      if (this.outFree[out] >= t + 1) {
        if (floor(this.outFree[out]) < retry) retry = floor(this.outFree[out]);
        continue;
      }
      if (this.credits[out * VCS + this.ints[I + P_CLASS] * VCS_PER_CLASS + this.ints[I + P_NEXT_VC]] < this.ints[I + P_FLITS]) continue;
      // SA1: the first ready VC in round-robin order, or by §3.3's rule the first of high priority.
      if (rr || this.vcAccum[input * VCS + v] < half) return p;
      if (firstLow === NONE) firstLow = p;
    }
    if (firstLow !== NONE) return firstLow;
    return retry === Infinity ? NONE : -(ceil(retry) + 2);
  }

  /** SA2 at a router output among the requesting inputs (`mask`): inverse-weighted (§3.3, Fig. 6) or round robin. */
  private sa2(chip: number, router: number, port: number, mask: number): number {
    const arb = (chip * ROUTERS + router) * PORTS + port;
    const next = this.rrInput[arb];
    const rr = this.roundRobin[arb] === 1;
    const half = 1 << this.settings.weightBits;
    const A = arb * PORTS;
    const accum = this.accum;
    let g = NONE;
    let gHigh = false;
    for (let j = 0; j < PORTS; j++) {
      const i = next + j < PORTS ? next + j : next + j - PORTS;
      if (!(mask & (1 << i))) continue;
      const high = rr || accum[A + i] < half;
      if (g < 0 || (high && !gHigh)) {
        g = i;
        gHigh = high;
        if (high) break;
      }
    }
    this.rrInput[arb] = g + 1 < PORTS ? g + 1 : 0;
    if (rr) return g;
    if (!gHigh) for (let i = 0; i < PORTS; i++) if (i !== g) accum[A + i] = accum[A + i] < half ? 0 : accum[A + i] - half;
    const offeredPacket = this.offered[g];
    const pattern = this.ints[offeredPacket * P_INTS + P_PATTERN];
    accum[A + g] = (accum[A + g] & (half - 1)) + this.weights[(A + g) * 2 + pattern];
    return g;
  }

  /** Sends input `input`'s head packet `p` on to its output, granted at cycle t. */
  private transfer(p: number, input: number, t: number): void {
    const ints = this.ints;
    const I = p * P_INTS;
    const chip = (input / INPUTS) | 0;
    const vcIndex = ints[I + P_CLASS] * VCS_PER_CLASS + ints[I + P_VC];
    const q = input * VCS + vcIndex;
    const next = ints[I + P_NEXT];
    this.queueHead[q] = next;
    this.headSince[q] = t;
    this.stallReported[q] = 0;
    if (next === NONE) {
      this.queueTail[q] = NONE;
      this.nonEmpty[input] &= ~(1 << vcIndex);
    }
    const flits = ints[I + P_FLITS];
    this.queueFlits[q] -= flits;
    this.chipQueued[chip]--;
    this.rrVc[input] = (vcIndex + 1) & (VCS - 1);
    this.vcFlits[q] += flits;
    if (this.vcRoundRobin[input] === 0) {
      // §3.3, Fig. 6, among the input's VCs: a low-priority grant shifts the window for all.
      const half = 1 << this.settings.weightBits;
      const A = input * VCS;
      const accum = this.vcAccum;
      if (accum[q] >= half) for (let v = 0; v < VCS; v++) if (A + v !== q) accum[A + v] = accum[A + v] < half ? 0 : accum[A + v] - half;
      accum[q] = (accum[q] & (half - 1)) + this.vcWeights[q * 2 + ints[I + P_PATTERN]];
    }
    const local = ints[I + P_OUT];
    const out = chip * OUTPUTS + local;
    const perFlit = this.outCyclesPerFlit[out];
    const T = p * P_TIMES;
    const start = this.outFree[out] > t ? this.outFree[out] : t;
    let tailLeaves = start + flits * perFlit;
    const tailIn = this.times[T + T_TAIL] + perFlit;
    if (tailIn > tailLeaves) tailLeaves = tailIn;
    let latency = this.outLatency[out];
    // §2.2: go-back-N on a torus channel — a corrupted flit and those behind it are sent again.
    if (perFlit !== 1) {
      const c = local - IN_CA_FROM_ROUTER;
      const rate = this.bitErrorRate[chip * CHANNELS + c];
      if (rate > 0 && keyedDraw(this.seed, DRAW_BIT_ERROR, ints[I + P_SERIAL], ints[I + P_HOPS]) < rate * flits) {
        latency += this.settings.linkRetryCycles;
        this.linkRetransmissions[chip * CHANNELS + c]++;
        this.retransmissions++;
      }
      this.torusFlitHops += flits;
      this.torusVcFlits[(chip * CHANNELS + c) * VCS + ints[I + P_CLASS] * VCS_PER_CLASS + ints[I + P_NEXT_VC]] += flits;
    }
    this.outFree[out] = tailLeaves;
    this.inBusy[input] = tailLeaves;
    const up = this.upstream[input];
    // A multicast copy's room is given back by the last copy made at this input; beyond it, each copy has its own.
    if (up !== NONE && ints[I + P_SHARED] === 0) this.schedule((up / OUTPUTS) | 0, ceil(tailLeaves) + ceil(this.outLatency[up]), EV_CREDIT, up, vcIndex, flits);
    ints[I + P_SHARED] = 0;
    const nextVc = ints[I + P_NEXT_VC];
    this.credits[out * VCS + ints[I + P_CLASS] * VCS_PER_CLASS + nextVc] -= flits;
    this.flitHops += flits;
    this.linkFlits[out] += flits;
    ints[I + P_VC] = nextVc;
    this.times[T + T_TAIL] = tailLeaves + latency;
    const down = this.downstream[out];
    this.schedule((down / INPUTS) | 0, ceil(start + perFlit + latency), EV_ARRIVE, p, down, 0);
    // A batch's next packet is made as soon as the last has left the endpoint adapter.
    if (local >= IN_EA_INJECT) {
      const e = local - IN_EA_INJECT;
      if (this.batchLeft[chip * ENDPOINTS + e] > 0) this.nextOfBatch(chip, e);
    }
  }

  /**
   * The forward-progress watchdog, per VC: a head packet that has waited `watchdogCycles` at an
   * input raises one interrupt naming the ASIC, the input and the VC, timed when it expired.
   */
  private watchdogScan(t: number): void {
    const limit = this.settings.watchdogCycles;
    for (let input = 0; input < this.nonEmpty.length; input++) {
      // An ASIC that queues nothing is passed over whole (a lightly loaded machine's scans cost little).
      if (input % INPUTS === 0 && this.chipQueued[input / INPUTS] === 0) {
        input += INPUTS - 1;
        continue;
      }
      const mask = this.nonEmpty[input];
      if (mask === 0) continue;
      for (let v = 0; v < VCS; v++) {
        const q = input * VCS + v;
        if (!(mask & (1 << v)) || this.stallReported[q] || t - this.headSince[q] < limit) continue;
        this.stallReported[q] = 1;
        const chip = (input / INPUTS) | 0;
        const p = this.queueHead[q];
        this.onInterrupt('FORWARD_PROGRESS_TIMEOUT', this.headSince[q] + limit, chip, input - chip * INPUTS, v, {
          input: model.anton2BufferName(input - chip * INPUTS),
          waitingFlits: this.queueFlits[q],
          nextCredits:
            this.credits[
              (chip * OUTPUTS + this.ints[p * P_INTS + P_OUT]) * VCS + this.ints[p * P_INTS + P_CLASS] * VCS_PER_CLASS + this.ints[p * P_INTS + P_NEXT_VC]
            ],
        });
      }
    }
  }

  // ------------------------------------------------------------------ faults

  /** A torus channel goes down at both ends (a cut cable or a dead SerDes), or is mended (it trains again where both ends live). */
  setChannelDown(node: number, port: number, down: boolean): void {
    const far = this.farEnd(node, port);
    for (const [n, c] of far === null ? [[node, port]] : [[node, port], far]) this.cut[n * CHANNELS + c] = down ? 1 : 0;
    const up = !down && !this.dead[node] && (far === null || !this.dead[far[0]]);
    this.setLink(node, port, !up);
    if (far) this.setLink(far[0], far[1], !up);
  }

  /** The far end of a channel, or null where it is not cabled. */
  private farEnd(node: number, port: number): [number, number] | null {
    const peer = this.fabric.peer[this.fabric.portBase[node] + port];
    if (peer < 0) return null;
    const far = this.fabric.portOwner(peer);
    return [far, peer - this.fabric.portBase[far]];
  }

  /** One end's link training lost or regained: its channel adapter interrupts, where its ASIC lives. */
  private setLink(n: number, c: number, down: boolean): void {
    if (this.linkDown[n * CHANNELS + c] === (down ? 1 : 0)) return;
    this.linkDown[n * CHANNELS + c] = down ? 1 : 0;
    if (!this.dead[n])
      this.onInterrupt(
        down ? 'LINK_DOWN' : 'LINK_UP',
        this.now,
        n,
        c,
        NONE,
        down && this.dead[this.farEnd(n, c)?.[0] ?? n] ? { farEnd: 'unresponsive' } : undefined,
      );
  }

  /** A torus channel turns noisy (or clean again): a flit arrives corrupted with probability `rate`, both directions. */
  setBitErrorRate(node: number, port: number, rate: number): void {
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`a bit error rate is 0 to 1, got ${rate}`);
    this.bitErrorRate[node * CHANNELS + port] = rate;
    const peer = this.fabric.peer[this.fabric.portBase[node] + port];
    if (peer >= 0) {
      const far = this.fabric.portOwner(peer);
      this.bitErrorRate[far * CHANNELS + peer - this.fabric.portBase[far]] = rate;
    }
  }

  /** A replaced ASIC comes back, empty and unconfigured (the control plane writes its registers); its channels train again, but for those cut. */
  reviveNode(node: number): void {
    if (!this.dead[node]) return;
    this.dead[node] = 0;
    this.sizeRegister.fill(0, 3 * node, 3 * node + 3);
    this.routePolicy[node] = null;
    this.multicastTables[node] = null;
    for (let c = 0; c < CHANNELS; c++) {
      const far = this.farEnd(node, c);
      if (far === null || this.cut[node * CHANNELS + c] || this.dead[far[0]]) continue;
      this.setLink(node, c, false);
      this.setLink(far[0], far[1], false);
    }
  }

  /** A node dies: what it holds is discarded, and whatever reaches it after; its neighbours lose link training on every channel to it (and discard what they would send on it). */
  killNode(node: number): void {
    this.dead[node] = 1;
    for (let c = 0; c < CHANNELS; c++) {
      const far = this.farEnd(node, c);
      this.setLink(node, c, true);
      if (far) this.setLink(far[0], far[1], true);
    }
    for (let input = node * INPUTS; input < (node + 1) * INPUTS; input++) {
      if (!this.nonEmpty[input]) continue;
      for (let v = 0; v < VCS; v++) {
        let p = this.queueHead[input * VCS + v];
        while (p !== NONE) {
          const next = this.ints[p * P_INTS + P_NEXT];
          this.returnCredits(input, p, this.now);
          this.discard(p, 'node-died', node, portOfInput(input - node * INPUTS));
          p = next;
        }
        this.queueHead[input * VCS + v] = NONE;
        this.queueTail[input * VCS + v] = NONE;
        this.queueFlits[input * VCS + v] = 0;
      }
      this.nonEmpty[input] = 0;
    }
    this.chipQueued[node] = 0;
    this.batchLeft.fill(0, node * ENDPOINTS, (node + 1) * ENDPOINTS);
  }
}

/** The ASIC an event (its record at `i` of a calendar's bucket) touches. */
function eventChip(data: Int32Array, i: number): number {
  const kind = data[i];
  const a = data[i + 1];
  if (kind === EV_ARBITRATE) return (a / UNITS) | 0;
  if (kind === EV_ARRIVE || kind === EV_DELIVER) return (data[i + 2] / INPUTS) | 0;
  if (kind === EV_CREDIT) return (a / OUTPUTS) | 0;
  return (a / ENDPOINTS) | 0;
}

/** The port an input's discards are recorded at: its torus channel, 12 + its endpoint adapter, or −1 in the mesh. */
function portOfInput(local: number): number {
  if (local < IN_CA_FROM_ROUTER) return NONE;
  if (local < IN_CA_FROM_TORUS) return local - IN_CA_FROM_ROUTER;
  if (local < IN_EA_INJECT) return local - IN_CA_FROM_TORUS;
  if (local < IN_EA_RECEIVE) return CHANNELS + local - IN_EA_INJECT;
  return CHANNELS + local - IN_EA_RECEIVE;
}

function popcount12(x: number): number {
  let n = 0;
  for (let v = x & 0xfff; v; v &= v - 1) n++;
  return n;
}
