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
 * The allocators of §3.1: greedy — the packets coming to the heads of one router's inputs in a
 * cycle all decide on the queue state as it stood, then it is updated en masse; sequential — they
 * decide one after another, each seeing the decisions before it (the first input rotating cycle
 * by cycle: the paper does not say which goes first). The queue an adaptive decision estimates,
 * for an output and a VC, is what this router has already routed to that output and not yet sent
 * plus what the far end's input buffer holds of that VC (its depth less the credits), as §3.2 says
 * adaptive routers estimate it from credits.
 *
 * Routing (§3.1; the spec's reading where the paper is open):
 * - `min`: dimension order (lowest differing dimension first); VC = n′ − hops remaining.
 * - `min-ad`: the productive channel with the shortest queue; VC = n′ − hops remaining.
 * - `val`: a random intermediate router; dimension order to it on VC 0, then to the destination
 *   on VC 1.
 * - `ugal`, `ugal-s`: at the source router, minimal (dimension order on VC 1) unless the queue
 *   times the hop count of a random Valiant route's first hop is smaller (greedy allocator for
 *   `ugal`, sequential for `ugal-s`).
 * - `clos-ad`: as UGAL, the non-minimal route adaptive towards the closest common ancestors:
 *   dimensions 1 … h (the highest in which source and destination differ) in order on VC 0, each
 *   taking its shortest queue or a "dummy queue" for staying (empty where the coordinate already
 *   matches the destination's, else the productive channel's), then dimension order to the
 *   destination on VC 1; sequential allocator.
 *
 * Every packet made is delivered or discarded with a reason (a destination no live route reaches).
 * Typed arrays throughout, allocated once (STYLE.md); no object per packet or per cycle.
 */
import { FLAT_ROUTINGS, flatAllocatorOf, FlatAllocator, FlatGrid, FlatRouting, flatRouterCount, flatVcsNeeded } from '@weft/fabric-model';

export interface FlatSimOptions {
  readonly routing: FlatRouting;
  /** Default: the algorithm's own (flatAllocatorOf). */
  readonly allocator?: FlatAllocator;
  /** VCs a port; default what the algorithm needs. */
  readonly vcs?: number;
  /** §3.2: 32 flits a port, split evenly over the VCs. */
  readonly bufferFlitsPerPort?: number;
  readonly seed: number;
}

// Read once: under the test runner the global object is a proxy, and a global looked up in a hot
// loop (Math, Infinity) costs a hundred nanoseconds there (random.ts).
const { floor, imul } = Math;
const INFINITE = Number.POSITIVE_INFINITY;

const NONE = -1;
/** A packet's intermediate router before its source router has decided (UGAL, CLOS AD, VAL). */
const UNDECIDED = -2;

export class FlatSim {
  readonly grid: FlatGrid;
  readonly routers: number;
  readonly terminals: number;
  /** Ports a router: k terminals, then each dimension's peers. */
  readonly ports: number;
  readonly dimensions: number;
  readonly vcs: number;
  /** Flits a VC buffer holds. */
  readonly depth: number;
  readonly routing: FlatRouting;
  readonly allocator: FlatAllocator;
  /** The routing as a number for the per-packet switch: 0 min, 1 min-ad, 2 val, 3 ugal or ugal-s, 4 clos-ad. */
  private readonly mode: number;
  cycle = 0;

  /** Flits that crossed a channel: terminal to router, router to router, router to terminal. */
  flitHops = 0;
  /** Of those, between routers. */
  routerHops = 0;
  delivered = 0;
  created = 0;
  discarded = 0;

  // Wiring: router r's coordinate in dimension d (1-based) at r·n′ + d − 1; the first port of each
  // dimension; each output's far input (global port index, -1 for terminals).
  private readonly coord: Int32Array;
  private readonly dimBase: Int32Array;
  private readonly dimSize: Int32Array;
  private readonly dimStep: Int32Array;
  private readonly far: Int32Array;
  /** Each global port's router. */
  private readonly routerOf: Int32Array;
  /** Each inter-router input's upstream output, for its credits. */
  private readonly upstream: Int32Array;
  /** Outputs taken out of every candidate set (a dead channel, §3.6). */
  private readonly dead: Uint8Array;

  /** Per input buffer slot (global port × VCs + VC): flits it holds (routed or waiting to be). */
  private readonly bufCount: Int32Array;
  /** Per slot: the upstream (output, VC) its credits go back to, -1 for a terminal's. */
  private readonly creditTo: Int32Array;
  /** Credits per (output, VC): free entries in the far input's buffer of that VC. */
  private readonly credit: Int32Array;
  /** Per (output, VC), the packets waiting for it, first come first served: a list through pWait. */
  private readonly waitHead: Int32Array;
  private readonly waitTail: Int32Array;
  private readonly waitCount: Int32Array;
  /** Per output: packets routed to it and not yet sent (on any VC). */
  private readonly waiting: Int32Array;
  /** Per output: the VC its round robin tries first. */
  private readonly rr: Int32Array;

  /** Packets that entered each router's input buffers this cycle, to be routed. */
  private readonly fresh: Int32Array;
  private readonly freshCount: Int32Array;
  private readonly freshRouters: Int32Array;
  private freshRouterCount = 0;
  private readonly sequential: boolean;
  /** The greedy allocator's decisions of this cycle, applied together (and the sequential one's, one at a time). */
  private readonly decidedP: Int32Array;
  private readonly decidedOut: Int32Array;
  private readonly decidedVc: Int32Array;
  private decidedCount = 0;
  /** Scratch: one router's new packets, taken out of its list before they are routed. */
  private readonly deciding: Int32Array;

  // Channel crossings landing next cycle, double-buffered.
  private arriveP: Int32Array;
  private arriveSlot: Int32Array;
  private arriveRouter: Int32Array;
  private landRouter: Int32Array;
  private arriveCount = 0;
  private landP: Int32Array;
  private landSlot: Int32Array;
  private creditBack: Int32Array;
  private creditCount = 0;
  private creditLand: Int32Array;

  // Packets, by id (recycled).
  private capacity: number;
  private pDest: Int32Array;
  private pSrc: Int32Array;
  private pBorn: Float64Array;
  private pInter: Int32Array;
  /** 0 on the way to the intermediate, 1 to the destination. */
  private pPhase: Uint8Array;
  /** CLOS AD: the next dimension phase 0 decides in, and the highest it goes to (h). */
  private pDim: Uint8Array;
  private pHigh: Uint8Array;
  private pHops: Uint8Array;
  private pTag: Int32Array;
  /** Source-queue link, then the link of its output's wait list. */
  private pNext: Int32Array;
  /** The input buffer slot it holds a place in. */
  private pSlot: Int32Array;
  private freeList: Int32Array;
  private freeCount = 0;
  private nextId = 0;

  // Source queues per terminal, and the terminals with something queued.
  private readonly sqHead: Int32Array;
  private readonly sqTail: Int32Array;
  private readonly sqCount: Int32Array;
  private readonly activeTerminals: Int32Array;
  private activeCount = 0;
  private readonly active: Uint8Array;

  private random: number;

  /** Called for each packet delivered (id, cycle) and discarded (id, reason). */
  onDeliver: ((p: number, cycle: number) => void) | undefined;
  onDiscard: ((p: number, reason: string) => void) | undefined;

  constructor(grid: FlatGrid, options: FlatSimOptions) {
    this.grid = grid;
    this.routing = options.routing;
    this.allocator = options.allocator ?? flatAllocatorOf(options.routing);
    this.mode = [0, 1, 2, 3, 3, 4][FLAT_ROUTINGS.indexOf(options.routing)];
    this.sequential = this.allocator === 'sequential';
    const routers = flatRouterCount(grid);
    const dims = grid.sizes.length;
    const ports = grid.k + grid.sizes.reduce((s, size) => s + size - 1, 0);
    this.routers = routers;
    this.terminals = routers * grid.k;
    this.ports = ports;
    this.dimensions = dims;
    this.vcs = options.vcs ?? flatVcsNeeded(options.routing, dims);
    const needed = flatVcsNeeded(options.routing, dims);
    if (this.vcs < needed) throw new RangeError(`${options.routing} needs ${needed} VCs on ${dims} dimension${dims > 1 ? 's' : ''}, got ${this.vcs}`);
    const perPort = options.bufferFlitsPerPort ?? 32;
    this.depth = floor(perPort / this.vcs);
    if (this.depth < 1) throw new RangeError(`${perPort} flits a port cannot be split over ${this.vcs} VCs`);
    this.random = options.seed >>> 0;

    this.coord = new Int32Array(routers * dims);
    this.dimBase = new Int32Array(dims + 1);
    this.dimSize = new Int32Array(dims + 1);
    this.dimStep = new Int32Array(dims + 1);
    let base = grid.k;
    let step = 1;
    for (let d = 1; d <= dims; d++) {
      this.dimBase[d] = base;
      this.dimSize[d] = grid.sizes[d - 1];
      this.dimStep[d] = step;
      base += grid.sizes[d - 1] - 1;
      step *= grid.sizes[d - 1];
    }
    for (let r = 0; r < routers; r++) for (let d = 1; d <= dims; d++) this.coord[r * dims + d - 1] = floor(r / this.dimStep[d]) % this.dimSize[d];
    const globalPorts = routers * ports;
    this.far = new Int32Array(globalPorts).fill(NONE);
    this.upstream = new Int32Array(globalPorts).fill(NONE);
    this.dead = new Uint8Array(globalPorts);
    this.routerOf = new Int32Array(globalPorts);
    for (let g = 0; g < globalPorts; g++) this.routerOf[g] = floor(g / ports);
    for (let r = 0; r < routers; r++)
      for (let d = 1; d <= dims; d++) {
        const own = this.coord[r * dims + d - 1];
        for (let m = 0; m < this.dimSize[d]; m++) {
          if (m === own) continue;
          const peer = r + (m - own) * this.dimStep[d];
          const out = r * ports + this.portTo(d, own, m);
          const input = peer * ports + this.portTo(d, m, own);
          this.far[out] = input;
          this.upstream[input] = out;
        }
      }

    const V = this.vcs;
    const slots = globalPorts * V;
    this.bufCount = new Int32Array(slots);
    this.creditTo = new Int32Array(slots).fill(NONE);
    for (let g = 0; g < globalPorts; g++) if (this.upstream[g] !== NONE) for (let v = 0; v < V; v++) this.creditTo[g * V + v] = this.upstream[g] * V + v;
    this.credit = new Int32Array(slots);
    for (let g = 0; g < globalPorts; g++) if (this.far[g] !== NONE) for (let v = 0; v < V; v++) this.credit[g * V + v] = this.depth;
    this.waitHead = new Int32Array(slots).fill(NONE);
    this.waitTail = new Int32Array(slots).fill(NONE);
    this.waitCount = new Int32Array(slots);
    this.waiting = new Int32Array(globalPorts);
    this.rr = new Int32Array(globalPorts);
    // A router takes at most a flit a cycle on each input.
    this.fresh = new Int32Array(routers * ports);
    this.freshCount = new Int32Array(routers);
    this.freshRouters = new Int32Array(routers);
    // At most a flit a cycle lands on each input of the fabric.
    this.decidedP = new Int32Array(globalPorts);
    this.decidedOut = new Int32Array(globalPorts);
    this.decidedVc = new Int32Array(globalPorts);
    this.deciding = new Int32Array(ports);
    this.arriveP = new Int32Array(globalPorts);
    this.arriveRouter = new Int32Array(globalPorts);
    this.landRouter = new Int32Array(globalPorts);
    this.arriveSlot = new Int32Array(globalPorts);
    this.landP = new Int32Array(globalPorts);
    this.landSlot = new Int32Array(globalPorts);
    this.creditBack = new Int32Array(globalPorts);
    this.creditLand = new Int32Array(globalPorts);

    this.capacity = 1024;
    this.pDest = new Int32Array(this.capacity);
    this.pSrc = new Int32Array(this.capacity);
    this.pBorn = new Float64Array(this.capacity);
    this.pInter = new Int32Array(this.capacity);
    this.pPhase = new Uint8Array(this.capacity);
    this.pDim = new Uint8Array(this.capacity);
    this.pHigh = new Uint8Array(this.capacity);
    this.pHops = new Uint8Array(this.capacity);
    this.pTag = new Int32Array(this.capacity);
    this.pNext = new Int32Array(this.capacity);
    this.pSlot = new Int32Array(this.capacity);
    this.freeList = new Int32Array(this.capacity);

    this.sqHead = new Int32Array(this.terminals).fill(NONE);
    this.sqTail = new Int32Array(this.terminals).fill(NONE);
    this.sqCount = new Int32Array(this.terminals);
    this.activeTerminals = new Int32Array(this.terminals);
    this.active = new Uint8Array(this.terminals);
  }

  /** The port of a router whose coordinate in dimension d is `own`, towards coordinate m (flat-design.ts's numbering). */
  private portTo(d: number, own: number, m: number): number {
    return this.dimBase[d] + (m < own ? m : m - 1);
  }

  /** Packets made and not yet delivered or discarded. */
  get inFlight(): number {
    return this.created - this.delivered - this.discarded;
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
    this.pTag[p] = tag;
    this.pNext[p] = NONE;
    this.created++;
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

  /** Takes a router-to-router channel (router `router`'s `port`, both directions) out of service. */
  cutChannel(router: number, port: number): void {
    const out = router * this.ports + port;
    const back = this.upstream[out];
    if (this.far[out] === NONE || back === NONE) throw new RangeError(`router ${router} port ${port} is not a channel between routers`);
    this.dead[out] = 1;
    this.dead[back] = 1;
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

  /** Last cycle's channel crossings and credits arrive. */
  private land(): void {
    // Swap the double buffers: what was sent last cycle lands now, the credits first (a decision
    // made as a packet lands sees the room freed in the cycle before).
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
    for (let i = 0; i < n; i++) this.enqueue(landRouter[i], landSlot[i], landP[i]);
  }

  /**
   * A packet takes a place in input buffer slot `slot` of router r, to be routed this cycle. Under
   * the greedy allocator it is routed at once, on the queue state of the cycle's start — no
   * decision of this cycle counts until allocate_ applies them all; under the sequential one it
   * waits for its router's turn.
   */
  private enqueue(r: number, slot: number, p: number): void {
    this.bufCount[slot]++;
    this.pSlot[p] = slot;
    if (!this.sequential) {
      const n = this.decidedCount;
      if (this.route(r, p, n)) {
        this.decidedP[n] = p;
        this.decidedCount = n + 1;
      }
      return;
    }
    const n = this.freshCount[r];
    if (n === 0) this.freshRouters[this.freshRouterCount++] = r;
    this.fresh[r * this.ports + n] = p;
    this.freshCount[r] = n + 1;
  }

  /** Each terminal with a packet queued moves one into its router's input buffer (its channel carries a flit a cycle). */
  private inject(): void {
    const k = this.grid.k;
    const ports = this.ports;
    const V = this.vcs;
    let kept = 0;
    for (let i = 0; i < this.activeCount; i++) {
      const t = this.activeTerminals[i];
      // Packets enter on VC 0: the first VC of every algorithm's path.
      const r = floor(t / k);
      const slot = (r * ports + (t - r * k)) * V;
      if (this.bufCount[slot] < this.depth) {
        const p = this.sqHead[t];
        this.sqHead[t] = this.pNext[p];
        this.pNext[p] = NONE;
        this.enqueue(r, slot, p);
        this.flitHops++;
        if (--this.sqCount[t] === 0) {
          this.active[t] = 0;
          continue;
        }
      }
      this.activeTerminals[kept++] = t;
    }
    this.activeCount = kept;
  }

  /** The cycle's decisions take effect: the greedy allocator's all at once, the sequential one's router by router, each in turn. */
  private allocate_(): void {
    if (!this.sequential) {
      const n = this.decidedCount;
      for (let j = 0; j < n; j++) this.wait(this.decidedP[j], this.decidedOut[j], this.decidedVc[j]);
      this.decidedCount = 0;
      return;
    }
    const ports = this.ports;
    const deciding = this.deciding;
    const routers = this.freshRouterCount;
    for (let i = 0; i < routers; i++) {
      const r = this.freshRouters[i];
      const n = this.freshCount[r];
      this.freshCount[r] = 0;
      const fresh = this.fresh;
      for (let j = 0, f = r * ports; j < n; j++) deciding[j] = fresh[f + j];
      // Each decision sees the ones before it; the first input rotates with the cycle.
      const first = this.cycle % n;
      for (let j = 0; j < n; j++) {
        const p = deciding[(first + j) % n];
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
    this.waiting[out]++;
  }

  /** What an adaptive decision estimates of output `out` on VC `vc` (§3.2). */
  private queue(out: number, vc: number): number {
    const o = out * this.vcs + vc;
    return this.waiting[out] + (this.far[out] === NONE ? 0 : this.depth - this.credit[o]);
  }

  private draw(): number {
    const a = (this.random + 0x6d2b79f5) >>> 0;
    this.random = a;
    let t = a;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Dimensions in which routers a and b differ. */
  private differing(a: number, b: number): number {
    const dims = this.dimensions;
    let n = 0;
    for (let d = 0; d < dims; d++) if (this.coord[a * dims + d] !== this.coord[b * dims + d]) n++;
    return n;
  }

  /** Router r's output towards router `to` by dimension order (its lowest differing dimension), or -1 at it. */
  private dorPort(r: number, to: number): number {
    const dims = this.dimensions;
    for (let d = 1; d <= dims; d++) {
      const own = this.coord[r * dims + d - 1];
      const want = this.coord[to * dims + d - 1];
      if (own !== want) return r * this.ports + this.portTo(d, own, want);
    }
    return NONE;
  }

  /**
   * Routes packet p at router r: the output and VC go to decidedOut/decidedVc[at]. False where it
   * was discarded instead (no live route).
   */
  private route(r: number, p: number, at: number): boolean {
    const k = this.grid.k;
    const dest = this.pDest[p];
    const dr = floor(dest / k);
    const dims = this.dimensions;
    if (dr === r) {
      this.decidedOut[at] = r * this.ports + (dest % k);
      this.decidedVc[at] = 0;
      return true;
    }
    let out = NONE;
    let vc: number;
    switch (this.mode) {
      case 0:
        out = this.dorPort(r, dr);
        vc = dims - this.differing(r, dr);
        break;
      case 1: {
        vc = dims - this.differing(r, dr);
        let best = INFINITE;
        for (let d = 1; d <= dims; d++) {
          const own = this.coord[r * dims + d - 1];
          const want = this.coord[dr * dims + d - 1];
          if (own === want) continue;
          const o = r * this.ports + this.portTo(d, own, want);
          if (this.dead[o]) continue;
          const q = this.queue(o, vc);
          if (q < best) {
            best = q;
            out = o;
          }
        }
        break;
      }
      default: {
        let inter = this.pInter[p];
        if (inter === UNDECIDED) inter = this.decideAtSource(p, r, dr);
        if (this.pPhase[p] === 0 && this.mode === 4) {
          out = this.closUp(p, r, dr);
          if (out !== NONE) {
            vc = 0;
            break;
          }
          this.pPhase[p] = 1;
        }
        if (this.pPhase[p] === 0 && inter === r) this.pPhase[p] = 1;
        if (this.pPhase[p] === 0) {
          out = this.dorPort(r, inter);
          vc = 0;
        } else {
          out = this.dorPort(r, dr);
          vc = 1;
        }
      }
    }
    if (out === NONE || this.dead[out]) {
      this.leave(p);
      this.discarded++;
      if (this.onDiscard) this.onDiscard(p, 'no-route');
      this.release(p);
      return false;
    }
    this.decidedOut[at] = out;
    this.decidedVc[at] = vc;
    return true;
  }

  /**
   * The source router's choice for VAL, UGAL and CLOS AD: the intermediate router (the
   * destination's own for a minimal route, in phase 1 from the start); -1 for CLOS AD's adaptive
   * intermediate, found on the way.
   */
  private decideAtSource(p: number, r: number, dr: number): number {
    const routers = this.routers;
    if (this.mode === 2) {
      const b = floor(this.draw() * routers);
      this.pInter[p] = b;
      return b;
    }
    const minOut = this.dorPort(r, dr);
    const hMin = this.differing(r, dr);
    const qMin = this.dead[minOut] ? INFINITE : this.queue(minOut, 1) * hMin;
    if (this.mode === 4) {
      // The non-minimal route's first hop: the adaptive choice in the lowest dimension that hops.
      let h = 0;
      for (let d = this.dimensions; d >= 1 && h === 0; d--) if (this.coord[r * this.dimensions + d - 1] !== this.coord[dr * this.dimensions + d - 1]) h = d;
      this.pHigh[p] = h;
      this.pDim[p] = 1;
      const first = this.closUp(p, r, dr);
      const qNon = first === NONE ? INFINITE : this.queue(first, 0) * 2 * h;
      this.pDim[p] = 1;
      if (qMin <= qNon) {
        this.pInter[p] = dr;
        this.pPhase[p] = 1;
        return dr;
      }
      this.pInter[p] = NONE;
      this.pDim[p] = 1;
      return NONE;
    }
    // UGAL (§3.1, [27]): minimal unless a random Valiant route's first queue × hops is smaller.
    const b = floor(this.draw() * routers);
    if (b !== r && b !== dr) {
      const valOut = this.dorPort(r, b);
      const hVal = this.differing(r, b) + this.differing(b, dr);
      if (!this.dead[valOut] && this.queue(valOut, 0) * hVal < qMin) {
        this.pInter[p] = b;
        return b;
      }
    }
    this.pInter[p] = dr;
    this.pPhase[p] = 1;
    return dr;
  }

  /**
   * CLOS AD's phase 0 at router r: from the packet's next dimension up to h (the highest in which
   * the source and destination differ), each dimension's shortest queue or the dummy queue of
   * staying; the output of the first hop chosen, or -1 once the dimensions are done (the packet's
   * next dimension advanced past those it stayed in, and past the one it hops in).
   */
  private closUp(p: number, r: number, dr: number): number {
    const dims = this.dimensions;
    const h = this.pHigh[p];
    for (let d = this.pDim[p]; d <= h; d++) {
      const own = this.coord[r * dims + d - 1];
      const want = this.coord[dr * dims + d - 1];
      const productive = own === want ? NONE : r * this.ports + this.portTo(d, own, want);
      let best = productive === NONE ? 0 : this.dead[productive] ? INFINITE : this.queue(productive, 0);
      let out = NONE;
      for (let m = 0; m < this.dimSize[d]; m++) {
        if (m === own) continue;
        const o = r * this.ports + this.portTo(d, own, m);
        if (this.dead[o]) continue;
        const q = this.queue(o, 0);
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
    this.bufCount[slot]--;
    const to = this.creditTo[slot];
    if (to !== NONE) this.creditBack[this.creditCount++] = to;
  }

  /** Each output with packets waiting sends one whose VC has room beyond it (round robin over VCs). */
  private switch_(): void {
    const V = this.vcs;
    const outputs = this.routers * this.ports;
    const waiting = this.waiting;
    const credit = this.credit;
    const waitCount = this.waitCount;
    const waitHead = this.waitHead;
    const pNext = this.pNext;
    const far = this.far;
    const rr = this.rr;
    for (let out = 0; out < outputs; out++) {
      if (waiting[out] === 0) continue;
      const farInput = far[out];
      let vc = rr[out];
      for (let j = 0; j < V; j++, vc = vc + 1 === V ? 0 : vc + 1) {
        const q = out * V + vc;
        if (waitCount[q] === 0 || (farInput !== NONE && credit[q] === 0)) continue;
        const p = waitHead[q];
        const next = pNext[p];
        waitHead[q] = next;
        if (next === NONE) this.waitTail[q] = NONE;
        pNext[p] = NONE;
        waitCount[q]--;
        waiting[out]--;
        rr[out] = vc + 1 === V ? 0 : vc + 1;
        this.leave(p);
        this.flitHops++;
        if (farInput === NONE) {
          this.delivered++;
          if (this.onDeliver) this.onDeliver(p, this.cycle + 1);
          this.release(p);
        } else {
          credit[q]--;
          this.routerHops++;
          this.pHops[p]++;
          const a = this.arriveCount++;
          this.arriveP[a] = p;
          this.arriveSlot[a] = farInput * V + vc;
          this.arriveRouter[a] = this.routerOf[farInput];
        }
        break;
      }
    }
  }

  private allocate(): number {
    if (this.freeCount > 0) return this.freeList[--this.freeCount];
    if (this.nextId === this.capacity) this.grow();
    return this.nextId++;
  }

  private release(p: number): void {
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
    this.pTag = growI(this.pTag);
    this.pNext = growI(this.pNext);
    this.pSlot = growI(this.pSlot);
    this.freeList = growI(this.freeList);
    this.capacity = n;
  }
}
