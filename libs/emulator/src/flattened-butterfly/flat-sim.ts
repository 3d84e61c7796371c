/**
 * The flattened butterfly's routers, cycle by cycle (paper 003 §3; spec §3.2(a), §3.3): an
 * input-queued virtual-channel router of any radix, single-flit packets, single-cycle switching
 * with enough internal speedup that only the output channels (one flit a cycle each) and the input
 * buffers limit it (spec §3.2(a): the transfer from input to output unconstrained), credit flow
 * control, and channels of one cycle. A packet is routed once per router, in the cycle it enters
 * an input buffer, and holds its place in that buffer (its credit) until its output sends it;
 * each output sends its packets first come first served, so no packet waits behind another bound
 * elsewhere (with only each buffer's head routable, a switch like this saturates at 59% under
 * uniform traffic — Karol's head-of-line limit — not at the ~100% §3.2 reports).
 *
 * Each router routes by its registers (chips/flat-router.ts), as the control plane wrote them:
 * its coordinates and the grid's shape (a terminal's address read as digits: terminal, then a
 * coordinate a dimension), the port towards each coordinate of each dimension, the routing mode
 * and allocator, the VC of each hop's index, the buffer's split over the VCs, and the ports masked
 * out of every choice. Until they are written a router discards what it is asked to route.
 *
 * The allocators of §3.1: greedy — the packets entering one router's buffers in a cycle all
 * decide on the queue state as it stood, then it is updated en masse; sequential — they decide
 * one after another, each seeing the decisions before it (the first input rotating cycle by cycle:
 * the paper does not say which goes first). The queue an adaptive decision estimates, for an
 * output and a VC, is what this router has already routed to that output and not yet sent plus
 * what the far end's buffer holds of that VC (its room less the credits), as §3.2 says adaptive
 * routers estimate it from credits.
 *
 * Routing (§3.1; the spec's reading where the paper is open):
 * - `min`: dimension order (lowest differing dimension first); VC index n′ − hops remaining.
 * - `min-ad`: the productive channel with the shortest queue; VC index n′ − hops remaining.
 * - `val`: a random intermediate router; dimension order to it on VC index 0, then to the
 *   destination on 1.
 * - `ugal`, `ugal-s`: at the source router, minimal (dimension order on index 1) unless the queue
 *   times the hop count of a random Valiant route's first hop is smaller by more than
 *   FLAT_UGAL_THRESHOLD. The choice between the routes weighs each first hop's output channel as a
 *   whole (every VC's queue: §3.2, "output channel queue length" from the credits of its output
 *   virtual channels), not the one VC the packet would take (issue 57).
 * - `clos-ad`: as UGAL, the non-minimal route adaptive towards the closest common ancestors:
 *   dimensions 1 … h (the highest in which source and destination differ) in order on index 0,
 *   each taking its shortest queue or a "dummy queue" for staying (empty where the coordinate
 *   already matches the destination's, else the productive channel's), then dimension order to the
 *   destination on index 1.
 *
 * Every packet made is delivered or discarded with a reason: no route (a masked port is the only
 * way), the router unconfigured, the link down, the router dead. Typed arrays throughout,
 * allocated once (STYLE.md); no object per packet or per cycle.
 */
import {
  FLAT_BUFFER_FLITS_PER_PORT,
  FLAT_MAX_VCS,
  FLAT_ROUTINGS,
  flatAllocatorOf,
  FlatAllocator,
  flatCoordinates,
  FlatGrid,
  flatGridOf,
  flatPeerPort,
  FlatRouting,
  flatRouterCount,
  flatVcsNeeded,
  InterruptKind,
  keyedDraw,
} from '@weft/fabric-model';
import type { BlockEngine, BlockMail } from '../parallel/block-threads';

/** What the sim reads of an emulated fabric (EmulatedFabric has it): chip names, each port's far end, the design's chips and summary. */
export interface EmulatedFabricLike {
  readonly chipNames: readonly string[];
  readonly peer: Int32Array;
  readonly design: { readonly chips: readonly { readonly portCount: number }[]; readonly summary: Readonly<Record<string, string | number>> };
}

// Read once: under the test runner the global object is a proxy, and a global looked up in a hot
// loop (Math, Infinity) costs a hundred nanoseconds there (random.ts).
const { clz32, floor, imul } = Math;
const INFINITE = Number.POSITIVE_INFINITY;

// The datasheet's figures as module constants: an imported binding is a property read through the
// library's index on every use in a hot loop.
const MAX_VCS = FLAT_MAX_VCS;
const BUFFER_FLITS = FLAT_BUFFER_FLITS_PER_PORT;

const NONE = -1;
/** A packet's intermediate router before its source router has decided (UGAL, CLOS AD, VAL). */
const UNDECIDED = -2;
/** Most dimensions a router's registers describe (Table 4's 2-ary 12-flat has 11). */
export const FLAT_MAX_DIMENSIONS = 16;
const MAXD = FLAT_MAX_DIMENSIONS;
/** A router whose mode register has not been written. */
const UNCONFIGURED = 255;
/** What a block thread posts another (parallel/block-threads.ts): a packet crossing a channel, credits going back up one. */
const MAIL_ARRIVE = 0;
const MAIL_CREDIT = 1;
/** Doubles of a packet's record as it crosses to another thread: its birth cycle, then seven int32s. */
export const FLAT_PACKET_RECORD_DOUBLES = 5;
/** The kind of keyed draw that seeds a router's random stream. */
const DRAW_ROUTER = 0x464c4154;

export const FLAT_DISCARD_REASONS = ['no-route', 'unconfigured', 'link-down', 'router-dead', 'misdelivered'] as const;
export type FlatDiscardReason = (typeof FLAT_DISCARD_REASONS)[number];

/**
 * UGAL's and CLOS AD's bias towards the minimal route, in flits × hops (§3.1 via [27]: "the
 * product of queue length and hop count is used as an estimate of delay"): a packet leaves its
 * minimal route only where the non-minimal estimate is smaller by more than this. The paper gives
 * none; without one, the noise of queues a flit or two deep sends a third of the packets of benign
 * traffic non-minimally, where §3.1 says UGAL routes it minimally (issue 57). BookSim2's UGAL has
 * such a threshold too. The value is this emulator's choice, measured in test/studies/flat-ugal.ts.
 */
export const FLAT_UGAL_THRESHOLD = 8;

export interface FlatSimOptions {
  readonly seed: number;
  /** VCs a port has in hardware (default 4). */
  readonly vcs?: number;
  /** UGAL's and CLOS AD's bias towards the minimal route, flits × hops (default FLAT_UGAL_THRESHOLD). */
  readonly ugalThreshold?: number;
}

/** What the routers run in a study: every register as the control plane would write it for `routing`. */
export interface FlatStudyOptions {
  readonly routing: FlatRouting;
  /** Default: the algorithm's own (flatAllocatorOf). */
  readonly allocator?: FlatAllocator;
  /** VCs a port; default what the algorithm needs. */
  readonly vcs?: number;
  /** §3.2: 32 flits a port, split evenly over the VCs the algorithm uses. */
  readonly bufferFlitsPerPort?: number;
  /** Default FLAT_UGAL_THRESHOLD. */
  readonly ugalThreshold?: number;
  readonly seed: number;
}

export class FlatSim implements BlockEngine {
  /** The grid the routers are cabled as (the design's, for the terminals and ports). */
  readonly grid: FlatGrid;
  readonly routers: number;
  readonly terminals: number;
  /** Ports a router. */
  readonly ports: number;
  /** VCs a port (hardware). */
  readonly vcs: number;
  readonly routerNames: readonly string[];
  /** The chips' names, as the maintenance controller reads them. */
  readonly fabric: { readonly chipNames: readonly string[] };
  /** One cycle is one abstract router cycle (spec §4.3: the ideal router's time base). */
  readonly nsPerCycle = 1;
  cycle = 0;

  /** Flits that crossed a channel: terminal to router, router to router, router to terminal. */
  flitHops = 0;
  /** Of those, between routers. */
  routerHops = 0;
  delivered = 0;
  created = 0;
  discarded = 0;
  /** Discards by reason. */
  readonly discardedBy = new Map<FlatDiscardReason, number>();
  /** Per router output (global port): flits it has sent, in all and by VC (g × vcs + VC). */
  readonly portFlits: Float64Array;
  readonly portVcFlits: Float64Array;
  /** Packets alive by tag (a traffic run's books), where tagged. */
  private readonly alive = new Map<number, number>();

  // Wiring: each output's far input (global port index, -1 for a terminal or nothing plugged in),
  // each input's upstream output, each global port's router; links up; routers alive.
  private readonly far: Int32Array;
  private readonly upstream: Int32Array;
  private readonly routerOf: Int32Array;
  readonly linkUp: Uint8Array;
  readonly dead: Uint8Array;

  // Registers, per router.
  readonly regK: Int32Array;
  readonly regDims: Int32Array;
  /** Per router and dimension (r · MAXD + d − 1): size, coordinate, where its port map row starts. */
  readonly regSize: Int32Array;
  readonly regCoord: Int32Array;
  /** Per router and dimension: routers below it (the router-number step); per router, routers in all. */
  private readonly regRouterStep: Int32Array;
  private readonly regRouters: Int32Array;
  /** Scratch digits (the destination's, and another router's), and compare's lowest and highest differing dimension. */
  private readonly destDigits = new Int32Array(MAXD);
  private readonly scratchDigits = new Int32Array(MAXD);
  private lowest = -1;
  private highest = 0;
  /** The masked output a route found in its way (for the discard's record). */
  private blocked = NONE;
  private readonly regMapBase: Int32Array;
  /** Per router, `mapWidth` entries: the port towards each coordinate of each dimension (-1 at its own). */
  readonly portMap: Int32Array;
  readonly mapWidth: number;
  /** Per router: routing mode (index in FLAT_ROUTINGS, 255 unset) and whether its allocator is sequential. */
  readonly regMode: Uint8Array;
  readonly regSequential: Uint8Array;
  /** Per router, MAX_VCS entries: the VC of each hop index, and how many indexes are set. */
  readonly vcMap: Int32Array;
  readonly vcMapLength: Int32Array;
  /** Per port: masked out of every choice. */
  readonly mask: Uint8Array;
  /** Per router, laid out as the port map: a second port to the same router (-1: none). */
  readonly redundantMap: Int32Array;
  /** Per router, laid out as the port map: the coordinate a masked hop detours through (-1: none). */
  readonly detourVia: Int32Array;
  /** Per router: the router numbers it never takes as an intermediate (null: none). */
  readonly excluded: (Uint8Array | null)[];
  /** Per router and VC: flits of the port's buffer that VC has (the split). */
  readonly split: Int32Array;
  /** The numeric mode for the per-packet switch: 0 min, 1 min-ad, 2 val, 3 ugal/ugal-s, 4 clos-ad. */
  private readonly modeKind: Uint8Array;

  // Input buffers, per (global port, VC) slot: flits held (routed or waiting to be).
  private readonly bufCount: Int32Array;
  /** Per slot: the upstream (output, VC) its credits go back to, -1 for a terminal's. */
  private readonly creditTo: Int32Array;
  /** Credits per (output, VC): free entries in the far input's buffer of that VC. */
  private readonly credit: Int32Array;
  /** Per (output, VC), the packets waiting for it, first come first served: a list through pNext. */
  private readonly waitHead: Int32Array;
  private readonly waitTail: Int32Array;
  private readonly waitCount: Int32Array;
  /** Per output: packets routed to it and not yet sent (on any VC). */
  private readonly waiting: Int32Array;
  /** Per output: the VC its round robin tries first. */
  private readonly rr: Int32Array;
  /** Per output: where the far router's split starts (its index × vcs), -1 for a terminal's. */
  private readonly farSplit: Int32Array;
  /** Outputs with packets waiting (each once), for the switch to visit. */
  private readonly busy: Int32Array;
  private busyCount = 0;

  /**
   * Packets that entered each router's input buffers this cycle, by input (r · ports + port; an
   * input takes at most a flit a cycle), with a bit per input set (`freshWords` words a router):
   * each router routes them in the order of its inputs, so that what it decides does not hang on
   * the order they arrived in — the same on one thread or several (issue 56).
   */
  private readonly fresh: Int32Array;
  private readonly freshBits: Uint32Array;
  private readonly freshWords: number;
  private readonly freshCount: Int32Array;
  private readonly freshRouters: Int32Array;
  private freshRouterCount = 0;
  /** The greedy allocator's decisions of this cycle, applied together (and the sequential one's, one at a time). */
  private readonly decidedP: Int32Array;
  private readonly decidedOut: Int32Array;
  private readonly decidedVc: Int32Array;
  private readonly deciding: Int32Array;

  // Channel crossings landing next cycle, double-buffered.
  private arriveP: Int32Array;
  private arriveSlot: Int32Array;
  private arriveRouter: Int32Array;
  private landP: Int32Array;
  private landSlot: Int32Array;
  private landRouter: Int32Array;
  private arriveCount = 0;
  private creditBack: Int32Array;
  private creditLand: Int32Array;
  private creditCount = 0;

  // Packets, by id (recycled).
  private capacity = 1024;
  private pDest = new Int32Array(1024);
  private pSrc = new Int32Array(1024);
  private pBorn = new Float64Array(1024);
  /** The intermediate router (as a router number in the grid's radix), or UNDECIDED. */
  private pInter = new Int32Array(1024);
  /** 0 on the way to the intermediate, 1 to the destination. */
  private pPhase = new Uint8Array(1024);
  /** CLOS AD: the next dimension phase 0 decides in, and the highest it goes to (h). */
  private pDim = new Uint8Array(1024);
  private pHigh = new Uint8Array(1024);
  private pHops = new Uint8Array(1024);
  /** Whether the packet took a detour in its current phase (its VC index raised by it). */
  private pDetour = new Uint8Array(1024);
  private pTag = new Int32Array(1024);
  /** Its number among the packets its source terminal sent (a parallel run's digest names a packet by source and serial). */
  private pSerial = new Int32Array(1024);
  /** Source-queue link, then the link of its output's wait list. */
  private pNext = new Int32Array(1024);
  /** The input buffer slot it holds a place in (-1 in a source queue). */
  private pSlot = new Int32Array(1024);
  private freeList = new Int32Array(1024);
  private freeCount = 0;
  private nextId = 0;

  // Source queues per terminal, and the terminals with something queued.
  private readonly sqHead: Int32Array;
  private readonly sqTail: Int32Array;
  private readonly sqCount: Int32Array;
  private readonly activeTerminals: Int32Array;
  private activeCount = 0;
  private readonly active: Uint8Array;
  /** Per terminal: packets it has sent. */
  private readonly serials: Int32Array;

  // Blocks (issue 56): the routers cut into runs of neighbours (block b has routers b·R/B to
  // (b+1)·R/B − 1), of which this instance runs some, as one of several threads
  // (parallel/block-threads.ts). A channel takes a cycle, so the threads meet every cycle.
  /** Where packets and credits for another thread's routers go (null: this instance runs every router). */
  mail: BlockMail | null = null;
  /** Blocks the routers are cut into, and those this instance runs. */
  blockCount = 1;
  private ownedBlocks: readonly number[] = [0];
  private blockOfRouter: Int32Array;
  /** Per output: its far input is on a router another thread runs. */
  private readonly farAway: Uint8Array;
  /** Per input slot: its credits go back to a router another thread runs. */
  private readonly creditAway: Uint8Array;
  /** Per (output, VC) of another thread's: credits owed it this cycle, and the list of those owed any. */
  private creditsOwed: Int32Array | null = null;
  private owedList: Int32Array | null = null;
  private owedCount = 0;
  /** Packets handed to another thread, and taken from one. */
  sentAway = 0;
  imported = 0;

  /** UGAL's and CLOS AD's bias towards the minimal route (FLAT_UGAL_THRESHOLD). */
  readonly ugalThreshold: number;
  /** Each router's random stream (VAL's and UGAL's intermediates), its own so that a router's draws do not hang on another's. */
  private readonly random: Uint32Array;

  /** Called for each packet delivered (id, cycle) and discarded (id, reason, router, port). */
  onDeliver: ((p: number, cycle: number) => void) | undefined;
  onDiscard: ((p: number, reason: FlatDiscardReason, router: number, port: number) => void) | undefined;
  /** The chips' interrupts, as the maintenance controller passes them on. */
  onInterrupt: (kind: InterruptKind, cycle: number, node: number, port: number, vc: number, details?: Record<string, unknown>) => void = () => undefined;

  constructor(fabric: EmulatedFabricLike, options: FlatSimOptions) {
    const design = fabric.design;
    this.grid = flatGridOf(design);
    const { k, sizes } = this.grid;
    const routers = design.chips.length;
    if (routers !== flatRouterCount(this.grid))
      throw new RangeError(`a flattened butterfly of ${sizes.join('×')} routers, but the design has ${routers} chips`);
    const ports = design.chips[0].portCount;
    this.routers = routers;
    this.terminals = routers * k;
    this.ports = ports;
    this.routerNames = fabric.chipNames;
    this.fabric = { chipNames: fabric.chipNames };
    const V = options.vcs ?? 4;
    if (!(Number.isInteger(V) && V >= 1 && V <= MAX_VCS)) throw new RangeError(`a router port has 1 to ${MAX_VCS} VCs, got ${V}`);
    this.vcs = V;
    const threshold = options.ugalThreshold ?? FLAT_UGAL_THRESHOLD;
    if (!(Number.isFinite(threshold) && threshold >= 0)) throw new RangeError(`the UGAL threshold is flits × hops, 0 or more, got ${threshold}`);
    this.ugalThreshold = threshold;
    this.random = new Uint32Array(routers);
    for (let r = 0; r < routers; r++) this.random[r] = (keyedDraw(options.seed, DRAW_ROUTER, r, 0) * 4294967296) >>> 0;

    const globalPorts = routers * ports;
    this.far = new Int32Array(globalPorts).fill(NONE);
    this.upstream = new Int32Array(globalPorts).fill(NONE);
    this.routerOf = new Int32Array(globalPorts);
    this.linkUp = new Uint8Array(globalPorts);
    this.dead = new Uint8Array(routers);
    this.portFlits = new Float64Array(globalPorts);
    this.portVcFlits = new Float64Array(globalPorts * V);
    for (let g = 0; g < globalPorts; g++) {
      this.routerOf[g] = floor(g / ports);
      const peer = fabric.peer[g];
      if (peer < 0 || g % ports < k) continue;
      this.far[g] = peer;
      this.upstream[peer] = g;
      this.linkUp[g] = 1;
    }

    this.regK = new Int32Array(routers);
    this.regDims = new Int32Array(routers);
    this.regSize = new Int32Array(routers * MAXD);
    this.regCoord = new Int32Array(routers * MAXD);
    this.regRouterStep = new Int32Array(routers * MAXD).fill(1);
    this.regRouters = new Int32Array(routers);
    this.regMapBase = new Int32Array(routers * MAXD);
    this.mapWidth = ports + MAXD;
    this.portMap = new Int32Array(routers * this.mapWidth).fill(NONE);
    this.regMode = new Uint8Array(routers).fill(UNCONFIGURED);
    this.regSequential = new Uint8Array(routers);
    this.modeKind = new Uint8Array(routers);
    this.vcMap = new Int32Array(routers * MAX_VCS);
    this.vcMapLength = new Int32Array(routers);
    this.mask = new Uint8Array(globalPorts);
    this.detourVia = new Int32Array(routers * this.mapWidth).fill(NONE);
    this.redundantMap = new Int32Array(routers * this.mapWidth).fill(NONE);
    this.excluded = new Array<Uint8Array | null>(routers).fill(null);
    this.split = new Int32Array(routers * V);
    // Until the split is written, the buffer is shared evenly by the hardware's VCs.
    this.split.fill(floor(BUFFER_FLITS / V));

    const slots = globalPorts * V;
    this.bufCount = new Int32Array(slots);
    this.creditTo = new Int32Array(slots).fill(NONE);
    this.credit = new Int32Array(slots);
    for (let g = 0; g < globalPorts; g++) {
      const up = this.upstream[g];
      if (up !== NONE) for (let v = 0; v < V; v++) this.creditTo[g * V + v] = up * V + v;
      const farIn = this.far[g];
      if (farIn !== NONE) for (let v = 0; v < V; v++) this.credit[g * V + v] = this.split[this.routerOf[farIn] * V + v];
    }
    this.waitHead = new Int32Array(slots).fill(NONE);
    this.waitTail = new Int32Array(slots).fill(NONE);
    this.waitCount = new Int32Array(slots);
    this.waiting = new Int32Array(globalPorts);
    this.rr = new Int32Array(globalPorts);
    this.busy = new Int32Array(globalPorts);
    this.farSplit = new Int32Array(globalPorts).fill(NONE);
    for (let g = 0; g < globalPorts; g++) if (this.far[g] !== NONE) this.farSplit[g] = this.routerOf[this.far[g]] * V;
    this.fresh = new Int32Array(routers * ports);
    this.freshWords = Math.ceil(ports / 32);
    this.freshBits = new Uint32Array(routers * this.freshWords);
    this.freshCount = new Int32Array(routers);
    this.freshRouters = new Int32Array(routers);
    // At most a flit a cycle lands on each input of the fabric.
    this.decidedP = new Int32Array(globalPorts);
    this.decidedOut = new Int32Array(globalPorts);
    this.decidedVc = new Int32Array(globalPorts);
    this.deciding = new Int32Array(ports);
    this.arriveP = new Int32Array(globalPorts);
    this.arriveSlot = new Int32Array(globalPorts);
    this.arriveRouter = new Int32Array(globalPorts);
    this.landP = new Int32Array(globalPorts);
    this.landSlot = new Int32Array(globalPorts);
    this.landRouter = new Int32Array(globalPorts);
    this.creditBack = new Int32Array(slots);
    this.creditLand = new Int32Array(slots);

    this.sqHead = new Int32Array(this.terminals).fill(NONE);
    this.sqTail = new Int32Array(this.terminals).fill(NONE);
    this.sqCount = new Int32Array(this.terminals);
    this.activeTerminals = new Int32Array(this.terminals);
    this.active = new Uint8Array(this.terminals);
    this.serials = new Int32Array(this.terminals);
    this.blockOfRouter = new Int32Array(routers);
    this.farAway = new Uint8Array(globalPorts);
    this.creditAway = new Uint8Array(slots);
  }

  /**
   * Cuts the routers into `blocks` runs of neighbours, of which this instance runs `owned` (by
   * default all); what crosses to a router of another block goes through `mail`. Returns the
   * lookahead: one cycle, a channel's latency.
   */
  setBlocks(blocks: number, owned?: readonly number[]): number {
    const routers = this.routers;
    if (!(Number.isInteger(blocks) && blocks >= 1 && blocks <= routers)) throw new RangeError(`the routers are cut into 1 to ${routers} blocks, got ${blocks}`);
    const list = owned ?? Array.from({ length: blocks }, (_, b) => b);
    for (const b of list) if (!(Number.isInteger(b) && b >= 0 && b < blocks)) throw new RangeError(`a block is 0 to ${blocks - 1}, got ${b}`);
    const mine = new Uint8Array(blocks);
    for (const b of list) mine[b] = 1;
    this.blockCount = blocks;
    this.ownedBlocks = [...list].sort((a, b) => a - b);
    for (let r = 0; r < routers; r++) this.blockOfRouter[r] = floor((r * blocks) / routers);
    const V = this.vcs;
    const away = (g: number) => (mine[this.blockOfRouter[this.routerOf[g]]] ? 0 : 1);
    for (let g = 0; g < this.far.length; g++) {
      this.farAway[g] = this.far[g] === NONE ? 0 : away(this.far[g]);
      const up = this.upstream[g];
      for (let v = 0; v < V; v++) this.creditAway[g * V + v] = up === NONE ? 0 : away(up);
    }
    const remote = list.length < blocks;
    this.creditsOwed = remote ? new Int32Array(this.far.length * V) : null;
    this.owedList = remote ? new Int32Array(this.far.length * V) : null;
    return 1;
  }

  /** The block router r is in. */
  blockOf(r: number): number {
    return this.blockOfRouter[r];
  }

  /**
   * Runs `cycles` cycles, a window (one cycle: a channel's latency) at a time: each cycle
   * `beforeCycle(block, cycle)` sends each owned block's traffic, the routers run, the credits owed
   * other threads are posted, and `windowEnd` is called (where the threads meet and trade mail).
   */
  runWindowed(cycles: number, window: number, beforeCycle: ((block: number, cycle: number) => void) | null, windowEnd?: (cycle: number) => void): void {
    if (window !== 1) throw new RangeError(`a flattened butterfly's channels take a cycle: its window is 1, got ${window}`);
    const end = this.cycle + cycles;
    const blocks = this.ownedBlocks;
    while (this.cycle < end) {
      if (beforeCycle) for (let i = 0; i < blocks.length; i++) beforeCycle(blocks[i], this.cycle);
      this.step();
      if (this.owedCount > 0) this.postCredits();
      if (windowEnd) windowEnd(this.cycle);
    }
  }

  /** The credits this cycle freed for other threads' outputs, one record an (output, VC). */
  private postCredits(): void {
    const owed = this.creditsOwed!;
    const list = this.owedList!;
    const V = this.vcs;
    for (let i = 0; i < this.owedCount; i++) {
      const q = list[i];
      this.mail!.post(this.blockOfRouter[this.routerOf[floor(q / V)]], this.cycle, MAIL_CREDIT, q, owed[q], 0);
      owed[q] = 0;
    }
    this.owedCount = 0;
  }

  /** Packet p crosses to input slot `slot` of a router another thread runs: its record goes by mail, and it leaves this instance. */
  private sendAway(p: number, slot: number): void {
    const mail = this.mail!;
    const at = mail.post(this.blockOfRouter[this.routerOf[floor(slot / this.vcs)]], this.cycle + 1, MAIL_ARRIVE, slot, 0, 0);
    mail.f64[at] = this.pBorn[p];
    const i32 = mail.i32;
    const i = (at + 1) * 2;
    i32[i] = this.pDest[p];
    i32[i + 1] = this.pSrc[p];
    i32[i + 2] = this.pInter[p];
    i32[i + 3] = this.pTag[p];
    i32[i + 4] = this.pSerial[p];
    i32[i + 5] = this.pPhase[p] | (this.pDim[p] << 8) | (this.pHigh[p] << 16) | (this.pHops[p] << 24);
    i32[i + 6] = this.pDetour[p];
    this.sentAway++;
    this.release(p);
  }

  /** What another thread posted: a packet landing on an input here next cycle, or credits for an output here. */
  importEvent(_at: number, kind: number, a: number, b: number, _c: number, f64: Float64Array, i32: Int32Array, offset: number): void {
    if (kind === MAIL_CREDIT) {
      this.credit[a] += b;
      return;
    }
    const p = this.allocate();
    this.pBorn[p] = f64[offset];
    const i = (offset + 1) * 2;
    this.pDest[p] = i32[i];
    this.pSrc[p] = i32[i + 1];
    this.pInter[p] = i32[i + 2];
    const tag = (this.pTag[p] = i32[i + 3]);
    this.pSerial[p] = i32[i + 4];
    const packed = i32[i + 5];
    this.pPhase[p] = packed & 255;
    this.pDim[p] = (packed >>> 8) & 255;
    this.pHigh[p] = (packed >>> 16) & 255;
    this.pHops[p] = packed >>> 24;
    this.pDetour[p] = i32[i + 6];
    this.pNext[p] = NONE;
    this.pSlot[p] = NONE;
    this.imported++;
    if (tag !== 0) this.alive.set(tag, (this.alive.get(tag) ?? 0) + 1);
    const n = this.arriveCount++;
    this.arriveP[n] = p;
    this.arriveSlot[n] = a;
    this.arriveRouter[n] = this.routerOf[floor(a / this.vcs)];
  }

  /**
   * The routers of a k-ary n-flat (`grid`'s sizes all k) cabled as designed, every register written
   * as the control plane writes them for `routing` (flat-wiring.ts): the paper's studies.
   */
  static study(grid: FlatGrid, options: FlatStudyOptions): FlatSim {
    const needed = flatVcsNeeded(options.routing, grid.sizes.length);
    const vcs = options.vcs ?? needed;
    if (vcs < needed)
      throw new RangeError(`${options.routing} needs ${needed} VCs on ${grid.sizes.length} dimension${grid.sizes.length > 1 ? 's' : ''}, got ${vcs}`);
    const sim = new FlatSim(idealFabric(grid), { seed: options.seed, vcs, ugalThreshold: options.ugalThreshold });
    const perVc = floor((options.bufferFlitsPerPort ?? BUFFER_FLITS) / needed);
    if (perVc < 1) throw new RangeError(`${options.bufferFlitsPerPort} flits a port cannot be split over ${needed} VCs`);
    const split = Array.from({ length: vcs }, (_, v) => (v < needed ? perVc : 0));
    for (let r = 0; r < sim.routers; r++) {
      sim.programRouter(r, {
        shape: [grid.k, ...grid.sizes],
        coordinates: flatCoordinates(grid, r),
        portMap: idealPortMap(grid, r),
        mode: FLAT_ROUTINGS.indexOf(options.routing),
        sequential: (options.allocator ?? flatAllocatorOf(options.routing)) === 'sequential',
        vcMap: Array.from({ length: needed }, (_, i) => i),
        split,
      });
    }
    return sim;
  }

  /** Writes a router's routing registers at once (the maintenance controller writes them one by one, through the setters). */
  programRouter(
    r: number,
    regs: {
      shape: readonly number[];
      coordinates: readonly number[];
      portMap: readonly number[];
      mode: number;
      sequential: boolean;
      vcMap: readonly number[];
      split: readonly number[];
    },
  ): void {
    this.setShape(r, regs.shape);
    this.setCoordinates(r, regs.coordinates);
    this.setPortMap(r, regs.portMap);
    this.setVcMap(r, regs.vcMap);
    this.setSplit(r, regs.split);
    this.setMode(r, regs.mode, regs.sequential);
  }

  /** `gridShape`: [k, sizes…]; an error names what the router cannot take. */
  setShape(r: number, shape: readonly number[]): void {
    const [k, ...sizes] = shape;
    if (!(Number.isInteger(k) && k >= 1 && k <= this.ports)) throw new RangeError(`k must be 1 to ${this.ports} (the router's ports), got ${k}`);
    if (sizes.length < 1 || sizes.length > MAXD) throw new RangeError(`1 to ${MAXD} dimensions, got ${sizes.length}`);
    if (!sizes.every((s) => Number.isInteger(s) && s >= 2)) throw new RangeError(`each dimension has at least 2 routers, got ${sizes.join(', ')}`);
    const used = k + sizes.reduce((a, s) => a + s - 1, 0);
    if (used > this.ports) throw new RangeError(`k + Σ(size − 1) = ${used} ports, more than the router's ${this.ports}`);
    this.regK[r] = k;
    this.regDims[r] = sizes.length;
    let step = k;
    let base = 0;
    for (let d = 0; d < sizes.length; d++) {
      this.regSize[r * MAXD + d] = sizes[d];
      this.regRouterStep[r * MAXD + d] = step / k;
      this.regMapBase[r * MAXD + d] = base;
      step *= sizes[d];
      base += sizes[d];
    }
    this.regRouters[r] = step / k;
  }

  setCoordinates(r: number, coordinates: readonly number[]): void {
    const dims = this.regDims[r];
    if (coordinates.length !== dims) throw new RangeError(`the grid shape has ${dims} dimensions; ${coordinates.length} coordinates given`);
    coordinates.forEach((c, d) => {
      if (!(Number.isInteger(c) && c >= 0 && c < this.regSize[r * MAXD + d]))
        throw new RangeError(`coordinate ${d + 1} must be 0 to ${this.regSize[r * MAXD + d] - 1}, got ${c}`);
      this.regCoord[r * MAXD + d] = c;
    });
  }

  setPortMap(r: number, map: readonly number[]): void {
    const dims = this.regDims[r];
    let width = 0;
    for (let d = 0; d < dims; d++) width += this.regSize[r * MAXD + d];
    if (map.length !== width) throw new RangeError(`the port map has one entry a coordinate of each dimension (${width}), got ${map.length}`);
    for (const port of map)
      if (!(Number.isInteger(port) && port >= -1 && port < this.ports))
        throw new RangeError(`a port map entry is a port 0 to ${this.ports - 1} or -1, got ${port}`);
    this.portMap.fill(NONE, r * this.mapWidth, (r + 1) * this.mapWidth);
    this.portMap.set(map, r * this.mapWidth);
  }

  /** `redundantMap`: laid out as the port map; each entry a port or -1. */
  setRedundantMap(r: number, map: readonly number[]): void {
    const dims = this.regDims[r];
    let width = 0;
    for (let d = 0; d < dims; d++) width += this.regSize[r * MAXD + d];
    if (map.length !== width) throw new RangeError(`the redundant map has one entry a coordinate of each dimension (${width}), got ${map.length}`);
    for (const port of map)
      if (!(Number.isInteger(port) && port >= -1 && port < this.ports))
        throw new RangeError(`a redundant map entry is a port 0 to ${this.ports - 1} or -1, got ${port}`);
    this.redundantMap.fill(NONE, r * this.mapWidth, (r + 1) * this.mapWidth);
    this.redundantMap.set(map, r * this.mapWidth);
  }

  /** `detourVia`: laid out as the port map; each entry a coordinate of its dimension other than the router's own, or -1. */
  setDetourVia(r: number, via: readonly number[]): void {
    const dims = this.regDims[r];
    let width = 0;
    for (let d = 0; d < dims; d++) width += this.regSize[r * MAXD + d];
    if (via.length !== width) throw new RangeError(`detourVia has one entry a coordinate of each dimension (${width}), got ${via.length}`);
    let at = 0;
    for (let d = 0; d < dims; d++)
      for (let m = 0; m < this.regSize[r * MAXD + d]; m++, at++) {
        const v = via[at];
        if (v === NONE) continue;
        if (!(Number.isInteger(v) && v >= 0 && v < this.regSize[r * MAXD + d] && v !== this.regCoord[r * MAXD + d] && v !== m))
          throw new RangeError(`detourVia entry ${at} (dimension ${d + 1}, coordinate ${m}) must be -1 or another coordinate of the dimension, got ${v}`);
      }
    this.detourVia.fill(NONE, r * this.mapWidth, (r + 1) * this.mapWidth);
    this.detourVia.set(via, r * this.mapWidth);
  }

  /** `excludedIntermediates`: router numbers (in the grid's radix) never taken as an intermediate. */
  setExcluded(r: number, routers: readonly number[]): void {
    const count = this.regRouters[r];
    for (const b of routers)
      if (!(Number.isInteger(b) && b >= 0 && b < count)) throw new RangeError(`an excluded intermediate is a router number 0 to ${count - 1}, got ${b}`);
    if (routers.length === 0) {
      this.excluded[r] = null;
      return;
    }
    const list = new Uint8Array(count);
    for (const b of routers) list[b] = 1;
    this.excluded[r] = list;
  }

  setMode(r: number, mode: number, sequential: boolean): void {
    if (!(Number.isInteger(mode) && mode >= 0 && mode < FLAT_ROUTINGS.length))
      throw new RangeError(`the routing mode is 0 to ${FLAT_ROUTINGS.length - 1} (${FLAT_ROUTINGS.join(', ')}), got ${mode}`);
    this.regMode[r] = mode;
    this.modeKind[r] = [0, 1, 2, 3, 3, 4][mode];
    this.regSequential[r] = sequential ? 1 : 0;
  }

  setVcMap(r: number, map: readonly number[]): void {
    if (map.length < 1 || map.length > MAX_VCS) throw new RangeError(`the VC map has 1 to ${MAX_VCS} entries, got ${map.length}`);
    for (const v of map) if (!(Number.isInteger(v) && v >= 0 && v < this.vcs)) throw new RangeError(`a VC map entry is a VC 0 to ${this.vcs - 1}, got ${v}`);
    this.vcMap.set(map, r * MAX_VCS);
    this.vcMapLength[r] = map.length;
  }

  /** The buffer's split over the VCs; the routers upstream gain or lose the difference in credits. */
  setSplit(r: number, split: readonly number[]): void {
    const V = this.vcs;
    if (split.length !== V) throw new RangeError(`the split gives each of the ${V} VCs its flits, got ${split.length} entries`);
    if (!split.every((f) => Number.isInteger(f) && f >= 0) || split.reduce((a, b) => a + b, 0) > BUFFER_FLITS)
      throw new RangeError(`the split's flits are whole and at most ${BUFFER_FLITS} together, got ${split.join(', ')}`);
    for (let p = 0; p < this.ports; p++) {
      const up = this.upstream[r * this.ports + p];
      if (up === NONE) continue;
      for (let v = 0; v < V; v++) this.credit[up * V + v] += split[v] - this.split[r * V + v];
    }
    this.split.set(split, r * V);
  }

  /** Terminal `source` queues a packet for terminal `destination`; its id. */
  send(source: number, destination: number, tag = 0): number {
    const p = this.allocate();
    this.pDest[p] = destination;
    this.pSrc[p] = source;
    this.pBorn[p] = this.cycle;
    this.pInter[p] = UNDECIDED;
    this.pPhase[p] = 0;
    this.pDim[p] = 1;
    this.pHops[p] = 0;
    this.pDetour[p] = 0;
    this.pTag[p] = tag;
    this.pSerial[p] = this.serials[source]++;
    this.pNext[p] = NONE;
    this.pSlot[p] = NONE;
    this.created++;
    if (tag !== 0) this.alive.set(tag, (this.alive.get(tag) ?? 0) + 1);
    const r = floor(source / this.grid.k);
    if (this.dead[r]) {
      this.discard(p, 'router-dead', r, source % this.grid.k);
      return p;
    }
    if (this.sqCount[source]++ === 0) this.sqHead[source] = p;
    else this.pNext[this.sqTail[source]] = p;
    this.sqTail[source] = p;
    if (!this.active[source]) {
      this.active[source] = 1;
      this.activeTerminals[this.activeCount++] = source;
    }
    return p;
  }

  packetSource(p: number): number {
    return this.pSrc[p];
  }
  packetDestination(p: number): number {
    return this.pDest[p];
  }
  packetBorn(p: number): number {
    return this.pBorn[p];
  }
  packetHops(p: number): number {
    return this.pHops[p];
  }
  packetTag(p: number): number {
    return this.pTag[p];
  }
  packetSerial(p: number): number {
    return this.pSerial[p];
  }
  /** Packets terminal t has sent (the next one's serial). */
  sentBy(t: number): number {
    return this.serials[t];
  }

  /** The far end (global port) of output g's cable to another router, -1 for a terminal's or none. */
  farOf(g: number): number {
    return this.far[g];
  }

  /** Packets the fabric holds, counted where they are — source queues, input buffers, wires — for the books to check against what was made. */
  heldPackets(): number {
    let n = this.arriveCount;
    for (let t = 0; t < this.terminals; t++) n += this.sqCount[t];
    for (let s = 0; s < this.bufCount.length; s++) n += this.bufCount[s];
    return n;
  }

  /** Packets of `tag` made and not yet delivered or discarded. */
  packetsAlive(tag: number): number {
    return this.alive.get(tag) ?? 0;
  }

  /** Terminals a router (the adversarial pattern's grouping). */
  get endpointsPerRouter(): number {
    return this.grid.k;
  }

  /** Packets made and not yet delivered or discarded. */
  get inFlight(): number {
    return this.created + this.imported - this.delivered - this.discarded - this.sentAway;
  }

  /** A cable between routers cut (or mended): both its channels; both ends raise LINK_DOWN (LINK_UP) where their router lives. */
  setLinkDown(router: number, port: number, down: boolean): void {
    const g = router * this.ports + port;
    const peer = this.far[g];
    if (peer === NONE) throw new RangeError(`${this.routerNames[router]} port ${port} has no cable to another router`);
    for (const end of [g, peer]) {
      if (this.linkUp[end] === (down ? 0 : 1)) continue;
      this.linkUp[end] = down ? 0 : 1;
      const r = this.routerOf[end];
      if (!down) this.resetCredits(end);
      if (!this.dead[r]) this.onInterrupt(down ? 'LINK_DOWN' : 'LINK_UP', this.cycle, r, end - r * this.ports, 0);
    }
  }

  /** A mended link's credits: the far buffer's room as it stands. */
  private resetCredits(out: number): void {
    const V = this.vcs;
    const farIn = this.far[out];
    const fr = this.routerOf[farIn];
    for (let v = 0; v < V; v++) this.credit[out * V + v] = this.split[fr * V + v] - this.bufCount[farIn * V + v];
  }

  /** A router dies: what it holds is lost, its links go down (its neighbours say so); revived, it comes back unconfigured. */
  setRouterDead(r: number, dead: boolean): void {
    if (this.dead[r] === (dead ? 1 : 0)) return;
    const ports = this.ports;
    if (dead) {
      this.dead[r] = 1;
      for (let p = 0; p < ports; p++) {
        const g = r * ports + p;
        const peer = this.far[g];
        if (peer !== NONE && this.linkUp[g]) this.setLinkDown(r, p, true);
        // Its wait lists: every packet routed here and not yet sent.
        for (let v = 0; v < this.vcs; v++) {
          const q = g * this.vcs + v;
          for (let x = this.waitHead[q]; x !== NONE;) {
            const next = this.pNext[x];
            this.leave(x);
            this.discard(x, 'router-dead', r, p);
            x = next;
          }
          this.waitHead[q] = this.waitTail[q] = NONE;
          this.waitCount[q] = 0;
        }
        this.waiting[g] = 0;
      }
      // Its terminals' queued packets.
      for (let t = r * this.grid.k; t < (r + 1) * this.grid.k; t++)
        for (let x = this.sqHead[t]; x !== NONE && this.sqCount[t] > 0;) {
          const next = this.pNext[x];
          this.discard(x, 'router-dead', r, t % this.grid.k);
          this.sqCount[t]--;
          x = next;
        }
      for (let t = r * this.grid.k; t < (r + 1) * this.grid.k; t++) {
        this.sqHead[t] = this.sqTail[t] = NONE;
        this.sqCount[t] = 0;
      }
      return;
    }
    this.dead[r] = 0;
    this.regMode[r] = UNCONFIGURED;
    this.regDims[r] = 0;
    this.mask.fill(0, r * ports, (r + 1) * ports);
    this.detourVia.fill(NONE, r * this.mapWidth, (r + 1) * this.mapWidth);
    this.redundantMap.fill(NONE, r * this.mapWidth, (r + 1) * this.mapWidth);
    this.excluded[r] = null;
    for (let p = 0; p < ports; p++) if (this.far[r * ports + p] !== NONE) this.setLinkDown(r, p, false);
  }

  /** Runs `cycles` cycles; `beforeCycle` (if given) is called at the start of each, before injection. */
  run(cycles: number, beforeCycle?: (cycle: number) => void): void {
    for (let i = 0; i < cycles; i++) {
      if (beforeCycle) beforeCycle(this.cycle);
      this.step();
    }
  }

  step(): void {
    this.land();
    this.inject();
    this.allocate_();
    this.switch_();
    this.cycle++;
  }

  /** Last cycle's credits and channel crossings arrive (credits first: a decision made as a packet lands sees the room freed the cycle before). */
  private land(): void {
    const c = this.creditCount;
    let t = this.creditLand;
    this.creditLand = this.creditBack;
    this.creditBack = t;
    this.creditCount = 0;
    const credit = this.credit;
    const land = this.creditLand;
    for (let i = 0; i < c; i++) credit[land[i]]++;
    const n = this.arriveCount;
    t = this.landP;
    this.landP = this.arriveP;
    this.arriveP = t;
    t = this.landSlot;
    this.landSlot = this.arriveSlot;
    this.arriveSlot = t;
    t = this.landRouter;
    this.landRouter = this.arriveRouter;
    this.arriveRouter = t;
    this.arriveCount = 0;
    const landP = this.landP;
    const landSlot = this.landSlot;
    const landRouter = this.landRouter;
    const V = this.vcs;
    for (let i = 0; i < n; i++) {
      const slot = landSlot[i];
      const r = landRouter[i];
      const input = floor(slot / V);
      // On a link cut or a router dead while it crossed: lost on the wire.
      if (this.linkUp[input] === 0 || this.dead[r]) {
        this.discard(landP[i], this.dead[r] ? 'router-dead' : 'link-down', r, input - r * this.ports);
        continue;
      }
      this.enqueue(r, input - r * this.ports, slot, landP[i]);
    }
  }

  /**
   * A packet takes a place in input buffer slot `slot` of router r's input `port`, to be routed
   * this cycle (by allocate_, in the order of the router's inputs).
   */
  private enqueue(r: number, port: number, slot: number, p: number): void {
    this.bufCount[slot]++;
    this.pSlot[p] = slot;
    const word = r * this.freshWords + (port >>> 5);
    const bit = 1 << (port & 31);
    if ((this.freshBits[word] & bit) !== 0) throw new Error(`${this.routerNames[r]} input ${port} took two flits in cycle ${this.cycle}`);
    this.freshBits[word] |= bit;
    this.fresh[r * this.ports + port] = p;
    if (this.freshCount[r]++ === 0) this.freshRouters[this.freshRouterCount++] = r;
  }

  /** Each terminal with a packet queued moves one into its router's input buffer (its channel carries a flit a cycle). */
  private inject(): void {
    const k = this.grid.k;
    const ports = this.ports;
    const V = this.vcs;
    let kept = 0;
    for (let i = 0; i < this.activeCount; i++) {
      const t = this.activeTerminals[i];
      // Emptied by its router's death (setRouterDead discards what it queued): off the list.
      if (this.sqCount[t] === 0) {
        this.active[t] = 0;
        continue;
      }
      const r = floor(t / k);
      // Packets enter on VC 0: the first of every algorithm's path.
      const port = t - r * k;
      const slot = (r * ports + port) * V;
      if (this.bufCount[slot] < this.split[r * V]) {
        const p = this.sqHead[t];
        this.sqHead[t] = this.pNext[p];
        this.pNext[p] = NONE;
        this.flitHops++;
        this.enqueue(r, port, slot, p);
        if (--this.sqCount[t] === 0) {
          this.active[t] = 0;
          continue;
        }
      }
      this.activeTerminals[kept++] = t;
    }
    this.activeCount = kept;
  }

  /**
   * Each router with packets new to its input buffers routes them, in the order of its inputs. The
   * greedy allocator decides them all on the queue state of the cycle's start, then they take
   * effect together; the sequential one decides them one after another, each seeing the decisions
   * before it, the first input rotating with the cycle. A router's decisions read only its own
   * outputs, so the routers may go in any order.
   */
  private allocate_(): void {
    const ports = this.ports;
    const words = this.freshWords;
    const fresh = this.fresh;
    const bits = this.freshBits;
    const deciding = this.deciding;
    const decidedP = this.decidedP;
    const routers = this.freshRouterCount;
    for (let i = 0; i < routers; i++) {
      const r = this.freshRouters[i];
      this.freshCount[r] = 0;
      let m = 0;
      for (let w = 0, at = r * words; w < words; w++, at++) {
        let word = bits[at];
        bits[at] = 0;
        while (word !== 0) {
          const low = word & -word;
          word ^= low;
          deciding[m++] = fresh[r * ports + (w << 5) + 31 - clz32(low)];
        }
      }
      if (!this.regSequential[r]) {
        let n = 0;
        for (let j = 0; j < m; j++) {
          const p = deciding[j];
          if (this.route(r, p, n)) decidedP[n++] = p;
        }
        for (let j = 0; j < n; j++) this.wait(decidedP[j], this.decidedOut[j], this.decidedVc[j]);
        continue;
      }
      const first = this.cycle % m;
      for (let j = 0; j < m; j++) {
        const p = deciding[(first + j) % m];
        if (this.route(r, p, 0)) this.wait(p, this.decidedOut[0], this.decidedVc[0]);
      }
    }
    this.freshRouterCount = 0;
  }

  /** Packet p waits for output `out` on VC `vc`. */
  private wait(p: number, out: number, vc: number): void {
    const q = out * this.vcs + vc;
    const tail = this.waitTail[q];
    if (tail === NONE) this.waitHead[q] = p;
    else this.pNext[tail] = p;
    this.waitTail[q] = p;
    this.waitCount[q]++;
    if (this.waiting[out]++ === 0) this.busy[this.busyCount++] = out;
  }

  /** What an adaptive decision estimates of output `out` on VC `vc` (§3.2). */
  private queue(out: number, vc: number): number {
    const farSplit = this.farSplit[out];
    if (farSplit === NONE) return this.waiting[out];
    return this.waiting[out] + this.split[farSplit + vc] - this.credit[out * this.vcs + vc];
  }

  /** The next draw of router r's stream, in [0, 1). */
  private draw(r: number): number {
    const a = (this.random[r] + 0x6d2b79f5) >>> 0;
    this.random[r] = a;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /**
   * Router number `to`'s digits by router r's registers into `into`; the dimensions in which it
   * differs from r go to the scratch fields (how many, the lowest, the highest + 1).
   */
  private compare(r: number, to: number, into: Int32Array): number {
    const dims = this.regDims[r];
    const rb = r * MAXD;
    let n = 0;
    let lowest = -1;
    let highest = 0;
    for (let d = 0; d < dims; d++) {
      const w = floor(to / this.regRouterStep[rb + d]) % this.regSize[rb + d];
      into[d] = w;
      if (w !== this.regCoord[rb + d]) {
        n++;
        if (lowest < 0) lowest = d;
        highest = d + 1;
      }
    }
    this.lowest = lowest;
    this.highest = highest;
    return n;
  }

  /** Dimensions in which router r and router number `to` differ, by r's registers. */
  private differing(r: number, to: number): number {
    return this.compare(r, to, this.scratchDigits);
  }

  /** Router r's port towards coordinate m of dimension d (0-based), as a global output; -1 where the map has none. */
  private toward(r: number, d: number, m: number): number {
    const i = r * this.mapWidth + this.regMapBase[r * MAXD + d] + m;
    const port = this.portMap[i];
    if (port === NONE) return NONE;
    const primary = r * this.ports + port;
    const second = this.redundantMap[i];
    if (second === NONE) return primary;
    // A doubled channel (Fig. 14(a)): the other where one is masked, else the less loaded.
    const alt = r * this.ports + second;
    if (this.mask[primary]) return alt;
    if (this.mask[alt]) return primary;
    return this.occupancy(alt) < this.occupancy(primary) ? alt : primary;
  }

  /** What output `out` has routed to it here and its far buffer holds, over every VC. */
  private occupancy(out: number): number {
    let n = this.waiting[out];
    const farSplit = this.farSplit[out];
    if (farSplit !== NONE) for (let v = 0; v < this.vcs; v++) n += this.split[farSplit + v] - this.credit[out * this.vcs + v];
    return n;
  }

  /**
   * Routes packet p at router r: the output and VC go to decidedOut/decidedVc[at]. False where it
   * was discarded instead (unconfigured, or no live route).
   */
  private route(r: number, p: number, at: number): boolean {
    if (this.regMode[r] === UNCONFIGURED) {
      this.leave(p);
      this.discard(p, 'unconfigured', r, floor(this.pSlot[p] / this.vcs) - r * this.ports);
      return false;
    }
    const k = this.regK[r];
    const dest = this.pDest[p];
    const dr = floor(dest / k);
    const dims = this.regDims[r];
    const base = r * MAX_VCS;
    const want = this.destDigits;
    const diff = this.compare(r, dr, want);
    if (diff === 0) {
      this.decidedOut[at] = r * this.ports + (dest - dr * k);
      this.decidedVc[at] = 0;
      return true;
    }
    const lowest = this.lowest;
    const vcs = this.vcMapLength[r];
    this.blocked = NONE;
    let out = NONE;
    // The hop's VC index (§3.1's, raised past a detour's first hop: spec §3.6), then its VC.
    let index: number;
    switch (this.modeKind[r]) {
      case 0:
        index = dims - diff + this.pDetour[p];
        out = this.hop(r, p, lowest, want[lowest]);
        break;
      case 1: {
        index = dims - diff + this.pDetour[p];
        let best = INFINITE;
        const rb = r * MAXD;
        const vc = index < vcs ? this.vcMap[base + index] : 0;
        for (let d = lowest; d < dims; d++) {
          if (this.regCoord[rb + d] === want[d]) continue;
          const o = this.toward(r, d, want[d]);
          if (o === NONE || this.mask[o]) continue;
          const q = this.queue(o, vc);
          if (q < best) {
            best = q;
            out = o;
          }
        }
        // Every productive channel masked: a detour in the lowest.
        if (out === NONE) out = this.hop(r, p, lowest, want[lowest]);
        break;
      }
      default: {
        let inter = this.pInter[p];
        if (inter === UNDECIDED) inter = this.decideAtSource(p, r, dr, diff, lowest, want[lowest]);
        if (this.pPhase[p] === 0 && this.modeKind[r] === 4) {
          out = this.closUp(p, r, want);
          if (out !== NONE) {
            index = 0;
            break;
          }
          this.enterPhase1(p);
        }
        if (this.pPhase[p] === 0) {
          index = this.pDetour[p] ? 2 : 0;
          out = this.dorHop(r, p, inter);
          if (out === NONE && this.differing(r, inter) === 0) this.enterPhase1(p);
          else break;
        }
        index = this.pDetour[p] ? 3 : 1;
        out = this.hop(r, p, lowest, want[lowest]);
      }
    }
    if (index >= vcs) out = NONE;
    if (out === NONE || this.mask[out]) {
      this.leave(p);
      const where = out !== NONE ? out : this.blocked;
      this.discard(p, 'no-route', r, where === NONE ? -1 : where - r * this.ports);
      return false;
    }
    this.decidedOut[at] = out;
    this.decidedVc[at] = this.vcMap[base + index];
    return true;
  }

  /** A packet turns at its intermediate: the second phase, with its own detour. */
  private enterPhase1(p: number): void {
    this.pPhase[p] = 1;
    this.pDetour[p] = 0;
  }

  /**
   * Router r's output for packet p towards coordinate m of dimension d: its channel, or where that
   * is masked a detour through the coordinate the router's detourVia register names — once a
   * phase, the packet's VC index rising for the detour's second hop (spec §3.6); -1 where neither
   * is open.
   */
  private hop(r: number, p: number, d: number, m: number): number {
    const o = this.toward(r, d, m);
    if (o === NONE || !this.mask[o]) return o;
    this.blocked = o;
    if (this.pDetour[p]) return NONE;
    const via = this.detourVia[r * this.mapWidth + this.regMapBase[r * MAXD + d] + m];
    if (via === NONE) return NONE;
    const o2 = this.toward(r, d, via);
    if (o2 === NONE || this.mask[o2]) return NONE;
    this.pDetour[p] = 1;
    return o2;
  }

  /** Dimension order towards router number `to`, detours allowed; -1 at it or where no way is open. */
  private dorHop(r: number, p: number, to: number): number {
    const scratch = this.scratchDigits;
    if (this.compare(r, to, scratch) === 0) return NONE;
    return this.hop(r, p, this.lowest, scratch[this.lowest]);
  }

  /**
   * The source router's choice for VAL, UGAL and CLOS AD: the intermediate router (the
   * destination's own for a minimal route, in phase 1 from the start); -1 for CLOS AD's adaptive
   * intermediate, found on the way. `diff` and `minOut`: the destination's differing dimensions and
   * minimal port (the scratch digits hold its digits).
   */
  private decideAtSource(p: number, r: number, dr: number, diff: number, lowest: number, target: number): number {
    const kind = this.modeKind[r];
    const highest = this.highest;
    if (kind === 2) {
      // A dead router is never an intermediate: drawn again, up to four times, then none (minimal).
      let b = floor(this.draw(r) * this.regRouters[r]);
      for (let tries = 0; tries < 4 && this.isExcluded(r, b); tries++) b = floor(this.draw(r) * this.regRouters[r]);
      if (this.isExcluded(r, b)) b = dr;
      this.pInter[p] = b;
      return b;
    }
    // The minimal route's first hop, or its detour's (one hop longer).
    let minOut = this.toward(r, lowest, target);
    let hMin = diff;
    if (minOut !== NONE && this.mask[minOut]) {
      const via = this.detourVia[r * this.mapWidth + this.regMapBase[r * MAXD + lowest] + target];
      minOut = via === NONE ? NONE : this.toward(r, lowest, via);
      if (minOut !== NONE && this.mask[minOut]) minOut = NONE;
      hMin++;
    }
    // §3.2: an output channel's queue, as the credits of all its VCs show it.
    const qMin = minOut === NONE ? INFINITE : this.occupancy(minOut) * hMin;
    if (kind === 4) {
      // The non-minimal route's first hop: the adaptive choice in the lowest dimension that hops.
      this.pHigh[p] = highest;
      this.pDim[p] = 1;
      const first = this.closUp(p, r, this.destDigits);
      const qNon = first === NONE ? INFINITE : this.occupancy(first) * 2 * highest;
      this.pDim[p] = 1;
      if (qMin <= qNon + this.ugalThreshold) {
        this.pInter[p] = dr;
        this.pPhase[p] = 1;
        return dr;
      }
      this.pInter[p] = NONE;
      return NONE;
    }
    // UGAL (§3.1, [27]): minimal unless a random Valiant route's first queue × hops is smaller.
    const b = floor(this.draw(r) * this.regRouters[r]);
    if (b !== dr && !this.isExcluded(r, b)) {
      const toB = this.differing(r, b);
      if (toB !== 0) {
        const valOut = this.toward(r, this.lowest, this.scratchDigits[this.lowest]);
        // b's digits (scratch) against the destination's: the second phase's hops.
        const dims = this.regDims[r];
        const bDigits = this.scratchDigits;
        const want = this.destDigits;
        let onward = 0;
        for (let d = 0; d < dims; d++) if (bDigits[d] !== want[d]) onward++;
        const hVal = toB + onward;
        if (valOut !== NONE && !this.mask[valOut] && this.occupancy(valOut) * hVal + this.ugalThreshold < qMin) {
          this.pInter[p] = b;
          return b;
        }
      }
    }
    this.pInter[p] = dr;
    this.pPhase[p] = 1;
    return dr;
  }

  /** Whether router r's registers exclude router number b as an intermediate (a dead router). */
  private isExcluded(r: number, b: number): boolean {
    const list = this.excluded[r];
    return list !== null && list[b] === 1;
  }

  /**
   * CLOS AD's phase 0 at router r: from the packet's next dimension up to h (the highest in which
   * the source and destination differ), each dimension's shortest queue or the dummy queue of
   * staying; the output of the first hop chosen, or -1 once the dimensions are done (the packet's
   * next dimension advanced past those it stayed in, and past the one it hops in).
   */
  private closUp(p: number, r: number, want: Int32Array): number {
    const h = this.pHigh[p];
    const vc = this.vcMap[r * MAX_VCS];
    for (let d = this.pDim[p]; d <= h; d++) {
      const own = this.regCoord[r * MAXD + d - 1];
      const target = want[d - 1];
      const productive = own === target ? NONE : this.toward(r, d - 1, target);
      let best = own === target ? 0 : productive === NONE || this.mask[productive] ? INFINITE : this.queue(productive, vc);
      let out = NONE;
      const size = this.regSize[r * MAXD + d - 1];
      for (let m = 0; m < size; m++) {
        if (m === own) continue;
        const o = this.toward(r, d - 1, m);
        if (o === NONE || this.mask[o]) continue;
        const q = this.queue(o, vc);
        if (q < best) {
          best = q;
          out = o;
        }
      }
      if (out !== NONE) {
        this.pDim[p] = d + 1;
        return out;
      }
    }
    this.pDim[p] = h + 1;
    return NONE;
  }

  /** The packet gives its place in its input buffer back, the credit going upstream. */
  private leave(p: number): void {
    const slot = this.pSlot[p];
    if (slot === NONE) return;
    this.bufCount[slot]--;
    this.pSlot[p] = NONE;
    const to = this.creditTo[slot];
    if (to === NONE) return;
    if (this.creditAway[slot] === 0) this.creditBack[this.creditCount++] = to;
    else if (this.creditsOwed![to]++ === 0) this.owedList![this.owedCount++] = to;
  }

  private discard(p: number, reason: FlatDiscardReason, router: number, port: number): void {
    this.discarded++;
    this.discardedBy.set(reason, (this.discardedBy.get(reason) ?? 0) + 1);
    if (this.onDiscard) this.onDiscard(p, reason, router, port);
    this.release(p);
  }

  /**
   * Each output with packets waiting sends one whose VC has room beyond it (round robin over VCs).
   * The outputs are independent within a cycle — what one sends lands, and the credit it frees
   * returns, the next — so the order they are visited in does not matter.
   */
  private switch_(): void {
    const V = this.vcs;
    const waiting = this.waiting;
    const credit = this.credit;
    const waitCount = this.waitCount;
    const waitHead = this.waitHead;
    const pNext = this.pNext;
    const far = this.far;
    const rr = this.rr;
    const busy = this.busy;
    const visits = this.busyCount;
    let kept = 0;
    for (let i = 0; i < visits; i++) {
      const out = busy[i];
      // An output emptied by a dead router's discards since it was listed.
      if (waiting[out] === 0) continue;
      const farInput = far[out];
      let vc = rr[out];
      for (let j = 0; j < V; j++, vc = vc + 1 === V ? 0 : vc + 1) {
        const q = out * V + vc;
        if (waitCount[q] === 0 || (farInput !== NONE && credit[q] <= 0)) continue;
        const p = waitHead[q];
        const next = pNext[p];
        waitHead[q] = next;
        if (next === NONE) this.waitTail[q] = NONE;
        pNext[p] = NONE;
        waitCount[q]--;
        waiting[out]--;
        rr[out] = vc + 1 === V ? 0 : vc + 1;
        this.leave(p);
        if (farInput !== NONE && this.linkUp[out] === 0) {
          // §3.6: a dead channel's sender drops what it was routed to send.
          const r = this.routerOf[out];
          this.discard(p, 'link-down', r, out - r * this.ports);
          break;
        }
        this.flitHops++;
        this.portFlits[out]++;
        this.portVcFlits[q]++;
        if (farInput === NONE) {
          const r = this.routerOf[out];
          if (this.pDest[p] !== r * this.grid.k + out - r * this.ports) {
            // Issue 54: the terminal's interface checks the destination (a wrong port map ejects
            // elsewhere) and refuses the packet — a discard no fault explains.
            this.discard(p, 'misdelivered', r, out - r * this.ports);
            break;
          }
          this.delivered++;
          if (this.onDeliver) this.onDeliver(p, this.cycle + 1);
          this.release(p);
        } else {
          credit[q]--;
          this.routerHops++;
          this.pHops[p]++;
          if (this.farAway[out] !== 0) {
            this.sendAway(p, farInput * V + vc);
            break;
          }
          const a = this.arriveCount++;
          this.arriveP[a] = p;
          this.arriveSlot[a] = farInput * V + vc;
          this.arriveRouter[a] = this.routerOf[farInput];
        }
        break;
      }
      if (waiting[out] > 0) busy[kept++] = out;
    }
    // Outputs listed while the switch ran (none today: waits are made in allocation) stay listed.
    for (let i = visits; i < this.busyCount; i++) busy[kept++] = busy[i];
    this.busyCount = kept;
  }

  private allocate(): number {
    if (this.freeCount > 0) return this.freeList[--this.freeCount];
    if (this.nextId === this.capacity) this.grow();
    return this.nextId++;
  }

  private release(p: number): void {
    const tag = this.pTag[p];
    if (tag !== 0) {
      const n = this.alive.get(tag)! - 1;
      if (n === 0) this.alive.delete(tag);
      else this.alive.set(tag, n);
    }
    this.freeList[this.freeCount++] = p;
  }

  private grow(): void {
    const n = this.capacity * 2;
    const growI = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    const growU = (a: Uint8Array) => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.pDest = growI(this.pDest);
    this.pSrc = growI(this.pSrc);
    const born = new Float64Array(n);
    born.set(this.pBorn);
    this.pBorn = born;
    this.pInter = growI(this.pInter);
    this.pPhase = growU(this.pPhase);
    this.pDim = growU(this.pDim);
    this.pHigh = growU(this.pHigh);
    this.pHops = growU(this.pHops);
    this.pDetour = growU(this.pDetour);
    this.pTag = growI(this.pTag);
    this.pSerial = growI(this.pSerial);
    this.pNext = growI(this.pNext);
    this.pSlot = growI(this.pSlot);
    this.freeList = growI(this.freeList);
    this.capacity = n;
  }
}

/** The design's cabling of a k-ary n-flat as the sim reads it, without the packaging (studies). */
function idealFabric(grid: FlatGrid): EmulatedFabricLike {
  const k = grid.k;
  if (!grid.sizes.every((s) => s === k)) throw new RangeError(`a study's flattened butterfly is a k-ary n-flat, every dimension of k = ${k} routers`);
  const routers = flatRouterCount(grid);
  const ports = k + grid.sizes.reduce((s, size) => s + size - 1, 0);
  const peer = new Int32Array(routers * ports).fill(NONE);
  const names: string[] = [];
  for (let r = 0; r < routers; r++) {
    const coords = grid.sizes.map((_, d) => floor(r / k ** d) % k);
    names.push(`r${coords.join('.')}`);
    const map = idealPortMap(grid, r);
    let base = 0;
    grid.sizes.forEach((size, d) => {
      for (let m = 0; m < size; m++) {
        const port = map[base + m];
        if (port < 0) continue;
        const q = r + (m - coords[d]) * k ** d;
        const back = idealPortMap(grid, q)[base + coords[d]];
        peer[r * ports + port] = q * ports + back;
      }
      base += size;
    });
  }
  return { chipNames: names, peer, design: { chips: names.map(() => ({ portCount: ports })), summary: { k, sizes: grid.sizes.join('×') } } };
}

/** A router's port map as the design numbers its ports (flat-design.ts): dimension by dimension, each coordinate's port, -1 at its own. */
export function idealPortMap(grid: FlatGrid, r: number): number[] {
  const own = flatCoordinates(grid, r);
  return grid.sizes.flatMap((size, d) => Array.from({ length: size }, (_, m) => (m === own[d] ? NONE : flatPeerPort(grid, d + 1, own[d], m))));
}
