/**
 * A measuring instrument for the emulator benchmarks, not an emulator: about the least a
 * cycle-level model of YARC's contention points must do, to show how fast such a model runs here.
 *
 * It keeps the stages where packets contend (paper 000 §3, Figure 4): the input queue with its
 * routing (the real routeYarc on the real registers), the row bus into the row buffers, the
 * column channel into the column buffers, the output arbiter and the link with credits per VC
 * (§4.2). Each stage visit moves a whole packet (virtual cut-through everywhere, where YARC's row
 * buses and column channels are wormhole), and it leaves out what the emulator must also do: the
 * phit-by-phit timing, the link control block (lanes, CRC, go-back-N, §4.3–§4.4), forward-progress
 * timers, discards and their reasons, the downward invariant, adaptive choice, traces, soft errors
 * and maintenance. The emulator, built of typed arrays and event wheels as this is, does all of
 * this per hop and more, so the skeleton's figure is a ceiling to read the emulator's against.
 * It runs the bench's workload (same fabric, registers, arrivals and windows of slices).
 */
import {
  COLUMN_BUFFER_PHITS,
  ENDPOINT_RECEIVE_PHITS,
  INPUT_BUFFER_PHITS_PER_VC,
  PORTS,
  ROUTE_PORT,
  ROW_BUFFER_PHITS,
  RouteDecision,
  STAGES_COLUMN_CHANNEL,
  STAGES_INPUT_QUEUE,
  STAGES_OUTPUT,
  STAGES_ROW_BUS,
  STAGES_SUBSWITCH,
  YarcFabricSim,
  routeYarc,
} from '@weft/emulator';

// Module constants, read once: compiled to CommonJS, a name imported from a package's index is a
// getter call at every use, which in these loops cost more than the stages themselves.
const { ceil, clz32, min } = Math;
const NEVER = Infinity;
const route = routeYarc;
const DECIDED_PORT = ROUTE_PORT;
const INPUT_STAGES = STAGES_INPUT_QUEUE;
const COLUMN_DELAY = STAGES_COLUMN_CHANNEL;
const OUTPUT_STAGES = STAGES_OUTPUT;
const TILES_PER_ROUTER = PORTS;
const ROW_DELAY = STAGES_ROW_BUS + STAGES_SUBSWITCH;
/** As in the emulator: a VC may fill its row or column buffer but for two phits. */
const ROW_VC_LIMIT = ROW_BUFFER_PHITS - 2;
const COLUMN_VC_LIMIT = COLUMN_BUFFER_PHITS - 2;

/** The skeleton's timing and room, for the compiled skeleton (native-skeleton.ts) to run on the
 * same figures; an object apart, so that the loops here read plain module constants. */
export const SKELETON_FIGURES = {
  inputStages: INPUT_STAGES,
  columnDelay: COLUMN_DELAY,
  outputStages: OUTPUT_STAGES,
  rowDelay: ROW_DELAY,
  rowVcLimit: ROW_VC_LIMIT,
  columnVcLimit: COLUMN_VC_LIMIT,
  inputVcPhits: INPUT_BUFFER_PHITS_PER_VC,
  endpointReceivePhits: ENDPOINT_RECEIVE_PHITS,
} as const;

/** Event kinds: three stage wake-ups, a head arriving at a router's input, credits returning. */
const ROW = 0;
const COLUMN = 1;
const OUTPUT = 2;
const ARRIVE = 3;
const CREDIT = 4;
const KIND_BITS = 3;
const KIND_MASK = (1 << KIND_BITS) - 1;

const SLOT_BITS = 10;
const SLOTS = 1 << SLOT_BITS;
const SLOT_MASK = SLOTS - 1;
const PACKETS = 1 << 16;
const EVENTS = 1 << 20;

const rotate16 = (mask: number, by: number): number => ((mask >>> by) | (mask << (16 - by))) & 0xffff;
const lowestBit = (mask: number): number => 31 - clz32(mask & -mask);

export class StageSkeleton {
  phitHops = 0;
  injected = 0;
  delivered = 0;

  private readonly decision = new RouteDecision();
  private readonly tiles: number;
  private readonly ports: number;
  private readonly peer: Int32Array;
  private readonly rate: Float64Array;
  private readonly latency: Int32Array;

  // Packets: a free list threaded through `next`, which also threads the queue a packet is in.
  private readonly destination = new Int32Array(PACKETS);
  private readonly length = new Int32Array(PACKETS);
  private readonly route = new Int32Array(PACKETS);
  private readonly next = new Int32Array(PACKETS);
  /** When the packet's head is usable where it is. */
  private readonly ready = new Float64Array(PACKETS);
  private freePacket = 0;

  /** Queues: input buffers (tile, VC), row buffers ((tile, column), VC), column buffers
   * ((output tile, row), VC), source queues (port, VC), one head/tail array for all. */
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly ibBase = 0;
  private readonly rbBase: number;
  private readonly cbBase: number;
  private readonly srcBase: number;

  private readonly rowRoom: Int32Array;
  private readonly columnRoom: Int32Array;
  private readonly credits: Int32Array;
  private readonly rowWaiting: Uint8Array;
  private readonly columnWaiting: Uint8Array;
  private readonly creditWaiting: Uint8Array;
  private readonly rowBusy: Float64Array;
  private readonly channelBusy: Float64Array;
  private readonly linkBusy: Float64Array;
  /** Per column channel, the row buffers whose head packet wants it (bit input-in-row*2 + VC). */
  private readonly want: Int32Array;
  /** Per output tile, its column buffers holding a packet (bit row*2 + VC). */
  private readonly columnsHolding: Int32Array;
  private readonly channelRR: Uint8Array;
  private readonly outputRR: Uint8Array;
  private readonly rowRR: Uint8Array;
  /** Per stage kind and stage, its pending wake-up (-1: none); later duplicates are dropped. */
  private readonly pending: Float64Array[];

  /** Events: one wheel of slots per part (slice), lists threaded through eventNext. */
  private readonly eventA = new Int32Array(EVENTS);
  private readonly eventB = new Int32Array(EVENTS);
  private readonly eventNext = new Int32Array(EVENTS);
  private freeEvent = 0;
  private readonly slotHead: Int32Array;
  private part = 0;
  private now = 0;

  constructor(private readonly sim: YarcFabricSim) {
    const { fabric, globalRouterPort } = sim;
    this.tiles = sim.routerChip.length * TILES_PER_ROUTER;
    this.ports = fabric.portCount;
    this.peer = fabric.peer;
    const T = this.tiles;
    this.rbBase = 2 * T;
    this.cbBase = this.rbBase + 16 * T;
    this.srcBase = this.cbBase + 16 * T;
    this.head = new Int32Array(this.srcBase + 2 * this.ports).fill(-1);
    this.tail = new Int32Array(this.head.length).fill(-1);
    this.rowRoom = new Int32Array(16 * T).fill(ROW_VC_LIMIT);
    this.columnRoom = new Int32Array(16 * T).fill(COLUMN_VC_LIMIT);
    this.rowWaiting = new Uint8Array(16 * T);
    this.columnWaiting = new Uint8Array(16 * T);
    this.credits = new Int32Array(2 * this.ports);
    this.creditWaiting = new Uint8Array(2 * this.ports);
    this.rate = new Float64Array(this.ports);
    this.latency = new Int32Array(this.ports);
    for (let g = 0; g < this.ports; g++) {
      if (this.peer[g] < 0) continue;
      this.rate[g] = sim.linkRateOf(g);
      this.latency[g] = sim.linkLatencyOf(g);
      const room = globalRouterPort[this.peer[g]] >= 0 ? INPUT_BUFFER_PHITS_PER_VC : ENDPOINT_RECEIVE_PHITS;
      this.credits[2 * g] = room;
      this.credits[2 * g + 1] = room;
    }
    this.rowBusy = new Float64Array(T);
    this.channelBusy = new Float64Array(8 * T);
    this.linkBusy = new Float64Array(this.ports);
    this.want = new Int32Array(8 * T);
    this.columnsHolding = new Int32Array(T);
    this.channelRR = new Uint8Array(8 * T);
    this.outputRR = new Uint8Array(T);
    this.rowRR = new Uint8Array(T);
    this.pending = [new Float64Array(T).fill(-1), new Float64Array(8 * T).fill(-1), new Float64Array(this.ports).fill(-1)];
    for (let p = 0; p < PACKETS; p++) this.next[p] = p + 1;
    this.next[PACKETS - 1] = -1;
    for (let e = 0; e < EVENTS; e++) this.eventNext[e] = e + 1;
    this.eventNext[EVENTS - 1] = -1;
    this.slotHead = new Int32Array(sim.parts << SLOT_BITS).fill(-1);
  }

  /** The cycle the skeleton has run to. */
  get cycle(): number {
    return this.now;
  }

  get inFlight(): number {
    return this.injected - this.delivered;
  }

  /** A packet of `length` phits from injection port g (part `part`, which must be running) to processor `destination`. */
  inject(g: number, destination: number, length: number): void {
    const p = this.freePacket;
    if (p < 0) throw new Error('the skeleton ran out of packets');
    this.freePacket = this.next[p];
    this.destination[p] = destination;
    this.length[p] = length;
    this.route[p] = -1;
    const q = this.srcBase + 2 * g;
    const wasEmpty = this.head[q] < 0;
    this.push(q, p);
    this.injected++;
    if (wasEmpty) this.wake(OUTPUT, g, this.now);
  }

  /** Runs the parts one after another, `window` cycles at a time, as YarcFabricSim.runWindowed. */
  runWindowed(cycles: number, window: number, beforeCycle: (part: number, cycle: number) => void): void {
    const start = this.now;
    const end = start + cycles;
    for (let from = start; from < end; from += window) {
      const until = min(end, from + window);
      for (let part = 0; part < this.sim.parts; part++) {
        this.part = part;
        for (let t = from; t < until; t++) {
          this.now = t;
          beforeCycle(part, t);
          const slot = (part << SLOT_BITS) | (t & SLOT_MASK);
          let e = this.slotHead[slot];
          this.slotHead[slot] = -1;
          while (e >= 0) {
            const following = this.eventNext[e];
            this.fire(this.eventA[e], this.eventB[e]);
            this.eventNext[e] = this.freeEvent;
            this.freeEvent = e;
            e = following;
          }
        }
      }
    }
    this.now = end;
  }

  private push(q: number, p: number): void {
    this.next[p] = -1;
    const last = this.tail[q];
    if (last < 0) this.head[q] = p;
    else this.next[last] = p;
    this.tail[q] = p;
  }

  private pop(q: number): number {
    const p = this.head[q];
    const following = this.next[p];
    this.head[q] = following;
    if (following < 0) this.tail[q] = -1;
    return p;
  }

  private schedule(at: number, a: number, b: number): void {
    if (at - this.now >= SLOTS) throw new RangeError(`an event ${at - this.now} cycles ahead is beyond the wheel`);
    const e = this.freeEvent;
    if (e < 0) throw new Error('the skeleton ran out of events');
    this.freeEvent = this.eventNext[e];
    this.eventA[e] = a;
    this.eventB[e] = b;
    const slot = (this.part << SLOT_BITS) | (at & SLOT_MASK);
    this.eventNext[e] = this.slotHead[slot];
    this.slotHead[slot] = e;
  }

  /** Wakes a stage at `at` (the next cycle at the earliest), unless it is to wake by then already. */
  private wake(kind: number, stage: number, at: number): void {
    if (at <= this.now) at = this.now + 1;
    const pending = this.pending[kind];
    const current = pending[stage];
    if (current >= this.now && current <= at) return;
    pending[stage] = at;
    this.schedule(at, (stage << KIND_BITS) | kind, 0);
  }

  private fire(a: number, b: number): void {
    const kind = a & KIND_MASK;
    const s = a >> KIND_BITS;
    if (kind <= OUTPUT) {
      // A wake-up that an earlier one replaced is passed over.
      if (this.pending[kind][s] !== this.now) return;
      this.pending[kind][s] = -1;
      if (kind === ROW) this.stepRow(s);
      else if (kind === COLUMN) this.stepColumn(s);
      else this.stepOutput(s);
    } else if (kind === ARRIVE) {
      // The head of packet b reaches input tile s (VC 0: the workload's requests).
      const q = this.ibBase + 2 * s;
      this.ready[b] = this.now + INPUT_STAGES;
      this.route[b] = -1;
      const wasEmpty = this.head[q] < 0;
      this.push(q, b);
      if (wasEmpty) this.wake(ROW, s, this.ready[b]);
    } else {
      this.credits[s] += b;
      if (this.creditWaiting[s]) {
        this.creditWaiting[s] = 0;
        this.wake(OUTPUT, s >> 1, this.now);
      }
    }
  }

  /** Input tile's row bus: routes the head of each VC's queue and moves one packet into its row buffer. */
  private stepRow(tile: number): void {
    const now = this.now;
    if (now < this.rowBusy[tile]) return this.wake(ROW, tile, this.rowBusy[tile]);
    const r = (tile / TILES_PER_ROUTER) | 0;
    const i = tile - r * TILES_PER_ROUTER;
    let wakeAt = NEVER;
    const first = this.rowRR[tile];
    for (let k = 0; k < 2; k++) {
      const v = (first + k) & 1;
      const q = this.ibBase + 2 * tile + v;
      const p = this.head[q];
      if (p < 0) continue;
      if (this.ready[p] > now) {
        if (this.ready[p] < wakeAt) wakeAt = this.ready[p];
        continue;
      }
      let out = this.route[p];
      if (out < 0) {
        const d = this.decision;
        route(this.sim.regs, r, i, this.destination[p], this.destination[p] & 0x7fff, true, false, d);
        if (d.kind !== DECIDED_PORT) throw new Error(`the skeleton found no route at router ${r} input ${i} for ${this.destination[p]}`);
        out = this.route[p] = d.port;
      }
      const length = this.length[p];
      const rb = ((tile * 8 + (out & 7)) << 1) | v;
      if (this.rowRoom[rb] < length) {
        this.rowWaiting[rb] = 1;
        continue;
      }
      this.pop(q);
      this.rowRoom[rb] -= length;
      this.ready[p] = now + ROW_DELAY;
      const wasEmpty = this.head[this.rbBase + rb] < 0;
      this.push(this.rbBase + rb, p);
      if (wasEmpty) {
        const channel = (r * TILES_PER_ROUTER + out) * 8 + (i >> 3);
        this.want[channel] |= 1 << (((i & 7) << 1) | v);
        this.wake(COLUMN, channel, now + ROW_DELAY);
      }
      this.rowBusy[tile] = now + length;
      const g = this.sim.routerPortGlobal[tile];
      this.schedule(now + length + this.latency[g], (((this.peer[g] << 1) | v) << KIND_BITS) | CREDIT, length);
      this.rowRR[tile] = (v + 1) & 1;
      if (this.head[this.ibBase + 2 * tile] >= 0 || this.head[this.ibBase + 2 * tile + 1] >= 0) wakeAt = now + length;
      break;
    }
    if (wakeAt !== NEVER) this.wake(ROW, tile, wakeAt);
  }

  /** A column channel (output tile, subswitch row): round robin over the row buffers whose head wants it. */
  private stepColumn(channel: number): void {
    const now = this.now;
    if (now < this.channelBusy[channel]) return this.wake(COLUMN, channel, this.channelBusy[channel]);
    const want = this.want[channel];
    if (want === 0) return;
    const outTile = channel >> 3;
    const row = channel & 7;
    const base = ((outTile / TILES_PER_ROUTER) | 0) * TILES_PER_ROUTER;
    const column = (outTile - base) & 7;
    let wakeAt = NEVER;
    const start = this.channelRR[channel];
    for (let bits = rotate16(want, start); bits !== 0; bits &= bits - 1) {
      const c = (start + lowestBit(bits)) & 15;
      const input = row * 8 + (c >> 1);
      const v = c & 1;
      const cb = (channel << 1) | v;
      const rb = (((base + input) * 8 + column) << 1) | v;
      const p = this.head[this.rbBase + rb];
      if (this.ready[p] > now) {
        if (this.ready[p] < wakeAt) wakeAt = this.ready[p];
        continue;
      }
      const length = this.length[p];
      if (this.columnRoom[cb] < length) {
        this.columnWaiting[cb] = 1;
        continue;
      }
      this.pop(this.rbBase + rb);
      this.want[channel] &= ~(1 << c);
      // The row buffer's next head wants its own output's channel.
      const following = this.head[this.rbBase + rb];
      if (following >= 0) {
        const other = (base + this.route[following]) * 8 + row;
        this.want[other] |= 1 << c;
        this.wake(COLUMN, other, now + length);
      }
      this.rowRoom[rb] += length;
      if (this.rowWaiting[rb]) {
        this.rowWaiting[rb] = 0;
        this.wake(ROW, base + input, now + length);
      }
      this.columnRoom[cb] -= length;
      this.ready[p] = now + COLUMN_DELAY;
      this.push(this.cbBase + cb, p);
      this.columnsHolding[outTile] |= 1 << ((row << 1) | v);
      this.channelBusy[channel] = now + length;
      this.channelRR[channel] = (c + 1) & 15;
      this.wake(OUTPUT, this.sim.routerPortGlobal[outTile], now + COLUMN_DELAY);
      if (this.want[channel] !== 0) wakeAt = now + length;
      break;
    }
    if (wakeAt !== NEVER) this.wake(COLUMN, channel, wakeAt);
  }

  /** An output port (router tile or endpoint): arbitration over its buffers, then the link with credits. */
  private stepOutput(g: number): void {
    const now = this.now;
    if (now < this.linkBusy[g]) return this.wake(OUTPUT, g, this.linkBusy[g]);
    const tile = this.sim.globalRouterPort[g];
    if (tile < 0) {
      const q = this.srcBase + 2 * g;
      const p = this.head[q];
      if (p < 0) return;
      if (this.credits[2 * g] < this.length[p]) {
        this.creditWaiting[2 * g] = 1;
        return;
      }
      this.pop(q);
      this.send(g, p, 0);
      if (this.head[q] >= 0) this.wake(OUTPUT, g, this.linkBusy[g]);
      return;
    }
    const holding = this.columnsHolding[tile];
    if (holding === 0) return;
    let wakeAt = NEVER;
    const start = this.outputRR[tile];
    for (let bits = rotate16(holding, start); bits !== 0; bits &= bits - 1) {
      const c = (start + lowestBit(bits)) & 15;
      const v = c & 1;
      const cb = ((tile * 8 + (c >> 1)) << 1) | v;
      const p = this.head[this.cbBase + cb];
      if (this.ready[p] > now) {
        if (this.ready[p] < wakeAt) wakeAt = this.ready[p];
        continue;
      }
      const length = this.length[p];
      if (this.credits[2 * g + v] < length) {
        this.creditWaiting[2 * g + v] = 1;
        continue;
      }
      this.pop(this.cbBase + cb);
      if (this.head[this.cbBase + cb] < 0) this.columnsHolding[tile] &= ~(1 << c);
      this.columnRoom[cb] += length;
      if (this.columnWaiting[cb]) {
        this.columnWaiting[cb] = 0;
        this.wake(COLUMN, cb >> 1, now);
      }
      this.outputRR[tile] = (c + 1) & 15;
      this.send(g, p, v);
      if (this.columnsHolding[tile] !== 0) wakeAt = this.linkBusy[g];
      break;
    }
    if (wakeAt !== NEVER) this.wake(OUTPUT, g, wakeAt);
  }

  /** Serializes packet p onto port g's link; its head reaches the far input, or the endpoint takes it. */
  private send(g: number, p: number, v: number): void {
    const now = this.now;
    const length = this.length[p];
    this.credits[2 * g + v] -= length;
    const cycles = ceil(length / this.rate[g]);
    this.linkBusy[g] = now + cycles;
    this.phitHops += length;
    const far = this.peer[g];
    const at = now + OUTPUT_STAGES + this.latency[g] + cycles - 1;
    const farTile = this.sim.globalRouterPort[far];
    if (farTile >= 0) this.schedule(at, (farTile << KIND_BITS) | ARRIVE, p);
    else {
      this.delivered++;
      this.next[p] = this.freePacket;
      this.freePacket = p;
      this.schedule(at + this.latency[g], (((g << 1) | v) << KIND_BITS) | CREDIT, length);
    }
  }
}
