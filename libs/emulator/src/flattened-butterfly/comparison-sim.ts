/**
 * The networks paper 003 §3.3 compares the flattened butterfly with (Table 1, Fig. 6), on the
 * flattened butterfly's own router model (flat-sim.ts: an input-queued router whose switch only
 * the output channels — a flit a cycle — and the input buffers limit, a packet routed once a
 * router as it enters an input buffer and waiting for its output first come first served, credit
 * flow control, channels of one cycle, single-flit packets):
 *
 * - a conventional butterfly, k-ary n-fly: n stages of k×k routers, unidirectional; a terminal
 *   injects into a first-stage router and is delivered by a last-stage one; destination-based
 *   routing, each stage taking its digit of the destination (most significant first), 1 VC;
 * - a folded Clos of three stages: leaves with terminals below and uplinks above, one uplink to
 *   each spine; a packet for another leaf climbs by its leaf's "adaptive sequential" choice [13] —
 *   the uplink with the shortest queue, each packet deciding in turn and seeing the decisions
 *   before it — and descends from the spine to its leaf, 1 VC;
 * - a binary n-cube: a terminal a router, e-cube routing (the lowest differing address bit
 *   first), 1 VC.
 *
 * §3.3 holds the bisection bandwidth and the total buffering constant across the four: buffers are
 * 32 flits a port with 1 VC (the flattened butterfly's CLOS AD has 2 VCs of 16). At 1,024
 * terminals (TABLE_1_NETWORKS) that makes the folded Clos's leaves have 16 uplinks for their 32
 * terminals (the 32-ary 2-flat's bisection, 512 channels), and the 10-cube's channels half as fast
 * (a flit every 2 cycles: its 1,024-channel bisection carrying what 512 full channels do). These
 * two readings of "bisection held constant" are the spec's (§3.3), and settings here.
 *
 * Nothing here can fail or be cut: every packet made is delivered (the books count what is held).
 */
import { mulberry32 } from '@weft/fabric-model';

const NONE = -1;
// Read once: globals looked up in a hot loop are slow under the test runner (flat-sim.ts).
const { floor, clz32 } = Math;
const INFINITE = Number.POSITIVE_INFINITY;

export type ComparisonTopology = 'butterfly' | 'folded-clos' | 'hypercube';

export type ComparisonShape =
  /** k-ary n-fly: N = kⁿ terminals, n stages of kⁿ⁻¹ routers of radix k. */
  | { readonly topology: 'butterfly'; readonly k: number; readonly n: number }
  /** Leaves of `terminalsPerLeaf` terminals, each with one uplink to each of `uplinks` spines. */
  | { readonly topology: 'folded-clos'; readonly leaves: number; readonly terminalsPerLeaf: number; readonly uplinks: number }
  /** A binary `dimensions`-cube, its router-to-router channels sending a flit every `channelPeriod` cycles. */
  | { readonly topology: 'hypercube'; readonly dimensions: number; readonly channelPeriod: number };

/** Table 1's three networks of 1,024 terminals at the 32-ary 2-flat's bisection (§3.3). */
export const TABLE_1_NETWORKS: Readonly<Record<ComparisonTopology, ComparisonShape>> = {
  butterfly: { topology: 'butterfly', k: 32, n: 2 },
  'folded-clos': { topology: 'folded-clos', leaves: 32, terminalsPerLeaf: 32, uplinks: 16 },
  hypercube: { topology: 'hypercube', dimensions: 10, channelPeriod: 2 },
};

/** Table 1's routing for each network. */
export const COMPARISON_ROUTING: Readonly<Record<ComparisonTopology, string>> = {
  butterfly: 'destination-based',
  'folded-clos': 'adaptive sequential',
  hypercube: 'e-cube',
};

/** Buffering a port: 32 flits, the flattened butterfly's (§3.2), all on the one VC. */
export const COMPARISON_BUFFER_FLITS = 32;

export function comparisonName(s: ComparisonShape): string {
  switch (s.topology) {
    case 'butterfly':
      return `${s.k}-ary ${s.n}-fly`;
    case 'folded-clos':
      return `folded Clos of ${s.leaves} leaves × ${s.terminalsPerLeaf} terminals, ${s.uplinks} spines`;
    case 'hypercube':
      return `${s.dimensions}-cube${s.channelPeriod > 1 ? `, channels at 1/${s.channelPeriod}` : ''}`;
  }
}

function checkShape(s: ComparisonShape): void {
  const whole = (name: string, v: number, least: number) => {
    if (!Number.isInteger(v) || v < least) throw new RangeError(`${comparisonName(s)}: ${name} must be a whole number ≥ ${least}, got ${v}`);
  };
  switch (s.topology) {
    case 'butterfly':
      whole('k', s.k, 2);
      whole('n', s.n, 1);
      break;
    case 'folded-clos':
      whole('leaves', s.leaves, 1);
      whole('terminalsPerLeaf', s.terminalsPerLeaf, 1);
      whole('uplinks', s.uplinks, 1);
      break;
    case 'hypercube':
      whole('dimensions', s.dimensions, 1);
      whole('channelPeriod', s.channelPeriod, 1);
      if (s.dimensions > 20) throw new RangeError(`${comparisonName(s)}: at most 20 dimensions`);
      break;
  }
}

export class ComparisonSim {
  readonly name: string;
  readonly routing: string;
  readonly terminals: number;
  /** Terminals of a first-stage router, leaf or node: the adversarial pattern's "router". */
  readonly endpointsPerRouter: number;
  readonly routers: number;
  /** Ports a router (the widest). */
  readonly ports: number;
  cycle = 0;
  flitHops = 0;
  routerHops = 0;
  created = 0;
  delivered = 0;
  onDeliver: ((p: number, cycle: number) => void) | undefined;
  /** Per output (router × ports + port): flits it has sent. */
  readonly portFlits: Float64Array;

  // Topology: 0 butterfly, 1 folded Clos, 2 hypercube, and its figures.
  private readonly kind: number;
  private readonly k: number;
  private readonly stages: number;
  private readonly rowsPerStage: number;
  private readonly uplinks: number;
  private readonly leaves: number;

  // Wiring, per output (router × ports + port): the far input (NONE: a terminal), the terminal
  // delivered to, cycles a flit; per input: the upstream output its credits go to (NONE: a
  // terminal's); per terminal: the input it injects into.
  private readonly far: Int32Array;
  private readonly ejectTo: Int32Array;
  private readonly period: Int32Array;
  private readonly nextFree: Float64Array;
  private readonly creditTo: Int32Array;
  private readonly injectInput: Int32Array;

  // State: per input, flits held; per output, credits and its waiting packets (first come first served).
  private readonly bufCount: Int32Array;
  private readonly credit: Int32Array;
  private readonly waitHead: Int32Array;
  private readonly waitTail: Int32Array;
  private readonly waiting: Int32Array;
  private readonly busy: Int32Array;
  private busyCount = 0;
  private readonly isBusy: Uint8Array;

  // Terminals' source queues.
  private readonly sqHead: Int32Array;
  private readonly sqTail: Int32Array;
  private readonly sqCount: Int32Array;
  private readonly activeTerminals: Int32Array;
  private activeCount = 0;

  // Channel crossings and credits landing next cycle.
  private arriveP: Int32Array;
  private arriveInput: Int32Array;
  private arriveCount = 0;
  private landP: Int32Array;
  private landInput: Int32Array;
  private creditBack: Int32Array;
  private creditLand: Int32Array;
  private creditCount = 0;

  // Packets.
  private capacity = 1024;
  private pDest = new Int32Array(1024);
  private pBorn = new Float64Array(1024);
  private pTag = new Int32Array(1024);
  private pNext = new Int32Array(1024);
  private pInput = new Int32Array(1024);
  private freeList = new Int32Array(1024);
  private freeCount = 0;
  private nextId = 0;
  private readonly draw: () => number;

  constructor(
    readonly shape: ComparisonShape,
    seed: number,
  ) {
    checkShape(shape);
    this.name = comparisonName(shape);
    this.routing = COMPARISON_ROUTING[shape.topology];
    let routers: number;
    let ports: number;
    this.k = 0;
    this.stages = 0;
    this.rowsPerStage = 0;
    this.uplinks = 0;
    this.leaves = 0;
    switch (shape.topology) {
      case 'butterfly':
        this.kind = 0;
        this.k = shape.k;
        this.stages = shape.n;
        this.rowsPerStage = shape.k ** (shape.n - 1);
        this.terminals = shape.k ** shape.n;
        this.endpointsPerRouter = shape.k;
        routers = this.rowsPerStage * shape.n;
        ports = shape.k;
        break;
      case 'folded-clos':
        this.kind = 1;
        this.k = shape.terminalsPerLeaf;
        this.uplinks = shape.uplinks;
        this.leaves = shape.leaves;
        this.terminals = shape.leaves * shape.terminalsPerLeaf;
        this.endpointsPerRouter = shape.terminalsPerLeaf;
        routers = shape.leaves + shape.uplinks;
        ports = Math.max(shape.terminalsPerLeaf + shape.uplinks, shape.leaves);
        break;
      case 'hypercube':
        this.kind = 2;
        this.stages = shape.dimensions;
        this.terminals = 2 ** shape.dimensions;
        this.endpointsPerRouter = 1;
        routers = this.terminals;
        ports = shape.dimensions + 1;
        break;
    }
    this.routers = routers;
    this.ports = ports;
    const g = routers * ports;
    this.far = new Int32Array(g).fill(NONE);
    this.ejectTo = new Int32Array(g).fill(NONE);
    this.period = new Int32Array(g).fill(1);
    this.nextFree = new Float64Array(g);
    this.portFlits = new Float64Array(g);
    this.creditTo = new Int32Array(g).fill(NONE);
    this.injectInput = new Int32Array(this.terminals);
    this.bufCount = new Int32Array(g);
    this.credit = new Int32Array(g).fill(COMPARISON_BUFFER_FLITS);
    this.waitHead = new Int32Array(g).fill(NONE);
    this.waitTail = new Int32Array(g).fill(NONE);
    this.waiting = new Int32Array(g);
    this.busy = new Int32Array(g);
    this.isBusy = new Uint8Array(g);
    this.sqHead = new Int32Array(this.terminals).fill(NONE);
    this.sqTail = new Int32Array(this.terminals).fill(NONE);
    this.sqCount = new Int32Array(this.terminals);
    this.activeTerminals = new Int32Array(this.terminals);
    this.arriveP = new Int32Array(g);
    this.arriveInput = new Int32Array(g);
    this.landP = new Int32Array(g);
    this.landInput = new Int32Array(g);
    this.creditBack = new Int32Array(g);
    this.creditLand = new Int32Array(g);
    this.draw = mulberry32(seed);
    this.wire(shape);
  }

  private connect(fromRouter: number, fromPort: number, toRouter: number, toPort: number, period = 1): void {
    const out = fromRouter * this.ports + fromPort;
    const input = toRouter * this.ports + toPort;
    this.far[out] = input;
    this.creditTo[input] = out;
    this.period[out] = period;
  }

  private terminalAt(t: number, injectRouter: number, injectPort: number, ejectRouter: number, ejectPort: number): void {
    this.injectInput[t] = injectRouter * this.ports + injectPort;
    this.ejectTo[ejectRouter * this.ports + ejectPort] = t;
  }

  private wire(s: ComparisonShape): void {
    switch (s.topology) {
      case 'butterfly': {
        // A router of stage i is numbered i·kⁿ⁻¹ + its row a (n − 1 digits); its port j sends to
        // the stage i + 1 router whose row is a with digit n − 2 − i made j, arriving on the port
        // numbered by the digit it replaced (so each stage settles one digit of the destination).
        const { k, n } = s;
        const rows = this.rowsPerStage;
        for (let t = 0; t < this.terminals; t++) this.terminalAt(t, floor(t / k), t % k, (n - 1) * rows + floor(t / k), t % k);
        for (let i = 0; i + 1 < n; i++) {
          const place = k ** (n - 2 - i);
          for (let a = 0; a < rows; a++) {
            const digit = floor(a / place) % k;
            for (let j = 0; j < k; j++) this.connect(i * rows + a, j, (i + 1) * rows + a + (j - digit) * place, digit);
          }
        }
        break;
      }
      case 'folded-clos': {
        // Leaf l: ports 0 … t − 1 its terminals, t + j the uplink to spine j; spine j's port l goes down to leaf l.
        const t = s.terminalsPerLeaf;
        for (let x = 0; x < this.terminals; x++) this.terminalAt(x, floor(x / t), x % t, floor(x / t), x % t);
        for (let l = 0; l < s.leaves; l++)
          for (let j = 0; j < s.uplinks; j++) {
            this.connect(l, t + j, s.leaves + j, l);
            this.connect(s.leaves + j, l, l, t + j);
          }
        break;
      }
      case 'hypercube': {
        // Node r: port d to r with bit d flipped (arriving on its port d), port `dimensions` its terminal.
        const n = s.dimensions;
        for (let r = 0; r < this.routers; r++) {
          this.terminalAt(r, r, n, r, n);
          for (let d = 0; d < n; d++) this.connect(r, d, r ^ (1 << d), d, s.channelPeriod);
        }
        break;
      }
    }
  }

  /** Terminal `source` queues a packet for `destination`. */
  send(source: number, destination: number, tag = 0): number {
    if (this.nextId === this.capacity && this.freeCount === 0) this.grow();
    const p = this.freeCount > 0 ? this.freeList[--this.freeCount] : this.nextId++;
    this.pDest[p] = destination;
    this.pBorn[p] = this.cycle;
    this.pTag[p] = tag;
    this.pNext[p] = NONE;
    this.pInput[p] = NONE;
    this.created++;
    if (this.sqCount[source]++ === 0) {
      this.sqHead[source] = p;
      this.activeTerminals[this.activeCount++] = source;
    } else this.pNext[this.sqTail[source]] = p;
    this.sqTail[source] = p;
    return p;
  }

  packetTag(p: number): number {
    return this.pTag[p];
  }

  packetBorn(p: number): number {
    return this.pBorn[p];
  }

  /** Packets made and not yet delivered (the books: created = delivered + held). */
  heldPackets(): number {
    return this.created - this.delivered;
  }

  run(cycles: number, beforeCycle?: (cycle: number) => void): void {
    for (let i = 0; i < cycles; i++) {
      if (beforeCycle) beforeCycle(this.cycle);
      this.step();
    }
  }

  step(): void {
    this.land();
    this.inject();
    this.switch_();
    this.cycle++;
  }

  /** Last cycle's credits, then its channel crossings, arrive; each packet is routed as it lands, the first to decide rotating cycle by cycle. */
  private land(): void {
    const c = this.creditCount;
    let t = this.creditLand;
    this.creditLand = this.creditBack;
    this.creditBack = t;
    this.creditCount = 0;
    for (let i = 0; i < c; i++) this.credit[this.creditLand[i]]++;
    const n = this.arriveCount;
    t = this.landP;
    this.landP = this.arriveP;
    this.arriveP = t;
    t = this.landInput;
    this.landInput = this.arriveInput;
    this.arriveInput = t;
    this.arriveCount = 0;
    const first = n > 0 ? this.cycle % n : 0;
    for (let j = 0, i = first; j < n; j++, i = i + 1 === n ? 0 : i + 1) this.enter(this.landP[i], this.landInput[i]);
  }

  /** Each terminal with a packet queued moves one into its router's input buffer (its channel carries a flit a cycle). */
  private inject(): void {
    let kept = 0;
    for (let i = 0; i < this.activeCount; i++) {
      const t = this.activeTerminals[i];
      const input = this.injectInput[t];
      if (this.bufCount[input] < COMPARISON_BUFFER_FLITS) {
        const p = this.sqHead[t];
        this.sqHead[t] = this.pNext[p];
        this.pNext[p] = NONE;
        this.flitHops++;
        this.enter(p, input);
        if (--this.sqCount[t] === 0) continue;
      }
      this.activeTerminals[kept++] = t;
    }
    this.activeCount = kept;
  }

  /** Packet p takes a place in `input`'s buffer and is routed: it waits for the output its router chooses. */
  private enter(p: number, input: number): void {
    this.bufCount[input]++;
    this.pInput[p] = input;
    const r = floor(input / this.ports);
    const out = r * this.ports + this.route(r, this.pDest[p]);
    const tail = this.waitTail[out];
    if (tail === NONE) this.waitHead[out] = p;
    else this.pNext[tail] = p;
    this.waitTail[out] = p;
    if (this.waiting[out]++ === 0 && !this.isBusy[out]) {
      this.isBusy[out] = 1;
      this.busy[this.busyCount++] = out;
    }
  }

  /** The output port router r sends a packet for terminal `dest` on. */
  private route(r: number, dest: number): number {
    switch (this.kind) {
      case 0: {
        // Stage i takes digit n − 1 − i of the destination.
        const stage = floor(r / this.rowsPerStage);
        return floor(dest / this.k ** (this.stages - 1 - stage)) % this.k;
      }
      case 1: {
        const leaf = floor(dest / this.k);
        if (r >= this.leaves) return leaf;
        if (r === leaf) return dest - leaf * this.k;
        return this.shortestUplink(r);
      }
      default: {
        const differ = r ^ dest;
        return differ === 0 ? this.stages : 31 - clz32(differ & -differ);
      }
    }
  }

  /** The uplink of leaf r with the shortest queue — what this leaf has routed to it and not sent, plus what the spine's buffer holds (§3.2's credit estimate) — ties broken from a random start. */
  private shortestUplink(r: number): number {
    const u = this.uplinks;
    const base = r * this.ports + this.k;
    const start = floor(this.draw() * u);
    let best = NONE;
    let bestQueue = INFINITE;
    for (let j = 0, x = start; j < u; j++, x = x + 1 === u ? 0 : x + 1) {
      const out = base + x;
      const q = this.waiting[out] + COMPARISON_BUFFER_FLITS - this.credit[out];
      if (q < bestQueue) {
        bestQueue = q;
        best = x;
      }
    }
    return this.k + best;
  }

  /** Each output with a packet waiting, room beyond it and its channel free sends the first. */
  private switch_(): void {
    let kept = 0;
    const visits = this.busyCount;
    for (let i = 0; i < visits; i++) {
      const out = this.busy[i];
      const farInput = this.far[out];
      if ((farInput === NONE || this.credit[out] > 0) && this.nextFree[out] <= this.cycle) {
        const p = this.waitHead[out];
        const next = this.pNext[p];
        this.waitHead[out] = next;
        if (next === NONE) this.waitTail[out] = NONE;
        this.pNext[p] = NONE;
        this.waiting[out]--;
        const input = this.pInput[p];
        this.bufCount[input]--;
        const upstream = this.creditTo[input];
        if (upstream !== NONE) this.creditBack[this.creditCount++] = upstream;
        this.nextFree[out] = this.cycle + this.period[out];
        this.flitHops++;
        this.portFlits[out]++;
        if (farInput === NONE) {
          if (this.ejectTo[out] !== this.pDest[p])
            throw new Error(`${this.name}: a packet for terminal ${this.pDest[p]} left for terminal ${this.ejectTo[out]}`);
          this.delivered++;
          if (this.onDeliver) this.onDeliver(p, this.cycle + 1);
          this.freeList[this.freeCount++] = p;
        } else {
          this.credit[out]--;
          this.routerHops++;
          const a = this.arriveCount++;
          this.arriveP[a] = p;
          this.arriveInput[a] = farInput;
        }
      }
      if (this.waiting[out] > 0) this.busy[kept++] = out;
      else this.isBusy[out] = 0;
    }
    this.busyCount = kept;
  }

  private grow(): void {
    const n = this.capacity * 2;
    const widen = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    const int = (m: number) => new Int32Array(m);
    this.pDest = widen(this.pDest, int);
    this.pBorn = widen(this.pBorn, (m) => new Float64Array(m));
    this.pTag = widen(this.pTag, int);
    this.pNext = widen(this.pNext, int);
    this.pInput = widen(this.pInput, int);
    this.freeList = widen(this.freeList, int);
    this.capacity = n;
  }
}
