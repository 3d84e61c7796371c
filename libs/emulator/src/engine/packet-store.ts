/**
 * Every packet the emulator has created, as parallel typed arrays (STYLE.md: no object per
 * packet). A packet id is an index; ids are recycled through a free list once a packet has ended
 * (delivered or discarded) and been counted, and no buffer entry holds any of its phits. The books
 * — created = delivered + discarded by reason + in flight — are kept here, so nothing can
 * disappear without a recorded reason.
 */
import { shared } from './shared-memory';
import { walkedState } from './shared-state';

export const FLAG_HASH = 1; // h: hash the optional hash bits (paper 000 §4.1)
export const FLAG_ADAPTIVE = 2; // a: route adaptively
export const FLAG_SOURCE_ROUTED = 4; // r: source routed (maintenance only)
export const FLAG_TRACE = 8; // record a per-packet trace
/** Put into an input buffer by the chip itself (a maintenance response), not by the link: no
 * credits to return upstream when it leaves. */
export const FLAG_LOCAL = 16;
/** §4.3: corrupted inside a router; travels on marked and is discarded at the destination. */
export const FLAG_SOFT_ERROR = 32;
/** Its link went down while it was on the wire: the truncated packet travels on marked bad and is
 * discarded at the destination (§4.3: an EOP marked transmit_error is appended). */
export const FLAG_LINK_LOST = 64;

export const STATE_FREE = 0;
export const STATE_QUEUED = 1; // waiting in a source queue
export const STATE_IN_NETWORK = 2;
/** Ended and counted, but buffer entries still hold some of its phits (the rest of a packet cut
 * by a dead link, draining): the id is given out again once the last of them is gone, so that
 * nothing they do can touch another packet. */
export const STATE_ENDED = 3;

/** Why a packet was discarded; every discard carries one. */
export enum DiscardReason {
  LinkDown = 0, // §7.7: sender discards packets for a dead port
  ForwardProgressTimeout = 1, // §7.7: discard packets destined to a port whose timer expired
  DownwardInvariant = 2, // §7.7: arrived from an uplink but routed up
  IllegalModulus = 3, // §7.8.2: port count the hash cannot take a modulo of
  NoRoute = 4, // no routing-table entry covers the destination
  SoftError = 5, // §4.3: corrupted in the router; discarded by the destination's interface
  Clipped = 6, // §4.3: longer than the maximum packet length
  RouterDead = 7, // the router stopped responding with the packet inside
  Unreachable = 8, // injected towards a destination with no path (e.g. no link at the source)
  Misdelivered = 9, // reached a processor that is not its destination (a wrong routing table): refused there
}
export const DISCARD_REASONS = Object.keys(DiscardReason).filter((k) => Number.isNaN(Number(k)));

/** Discards of one reason, at one global port, of packets for one destination processor, in one epoch. */
export interface DiscardLedgerEntry {
  /** Epochs are numbered from 0 at `openDiscardLedger`, one more at each `nextDiscardEpoch`. */
  readonly epoch: number;
  readonly reason: DiscardReason;
  /** Global port index; -1 where the packet never reached one. */
  readonly port: number;
  readonly destination: number;
  count: number;
  firstCycle: number;
  lastCycle: number;
}

/** One step of a traced packet: the buffer its head entered, on which chip, port and VC. */
export interface TraceEvent {
  readonly cycle: number;
  readonly chip: number;
  readonly port: number;
  readonly vc: number;
  readonly stage: 'source-queue' | 'link' | 'input-buffer' | 'row-buffer' | 'column-buffer' | 'delivered' | 'discarded';
  readonly detail?: string;
}

/** Hops a routing vector holds (six bits a hop: what the header phits can carry beside the
 * r bit). A maintenance route longer than this cannot be sent. */
export const ROUTE_VECTOR_HOPS = 16;
/** Per packet: a vector, or the way back, which also leaves the router the vector ends at. */
const ROUTE_SLOTS = ROUTE_VECTOR_HOPS + 1;

export class PacketStore {
  capacity: number;
  destination!: Int32Array;
  source!: Int32Array;
  length!: Uint8Array;
  vc!: Uint8Array;
  flags!: Uint8Array;
  hashBits!: Uint16Array;
  createdAt!: Float64Array;
  enteredAt!: Float64Array;
  hops!: Uint8Array;
  state!: Uint8Array;
  /** Caller's tag (e.g. the measurement sample a packet belongs to). */
  tag!: Int32Array;
  /** Next packet in the same source queue (a packet waits in at most one). */
  queueNext!: Int32Array;
  /** Buffer entries (SegmentPool) holding each packet's phits. */
  segments!: Int32Array;
  private freeList!: Int32Array;
  private freeCount = 0;
  private next = 0;

  created = 0;
  delivered = 0;
  deliveredPhits = 0;
  readonly discarded = shared(Float64Array, DISCARD_REASONS.length);
  inFlight = 0;
  /** Packets in flight with a positive tag (a measurement's labelled packets): a run asks whether
   * its sample has drained without scanning the store (a fabric keeps a store per part, so this
   * is also a part's share). Maintenance packets carry -1, untagged 0. */
  taggedInFlight = 0;
  /** Per-packet traces (FLAG_TRACE), by packet id: where each traced packet was at which cycle. A
   * trace stays after its packet ends, until its id is given to another traced packet. */
  readonly traces = new Map<number, TraceEvent[]>();
  /**
   * Source-routed packets (the r bit, paper 000 §4.1): the routing vector — the output port to
   * take at each router — how far along it the packet has come, and the input port it arrived by
   * at each router so far, which is the way back for the answer. Held per packet with stride
   * ROUTE_SLOTS: a discovery sweep makes every packet in flight a source-routed one.
   */
  routeLength!: Uint8Array;
  routePosition!: Uint8Array;
  routePorts!: Uint8Array;
  backLength!: Uint8Array;
  backPorts!: Uint8Array;

  constructor(initialCapacity = 1024) {
    this.capacity = 0;
    this.grow(initialCapacity);
  }

  private grow(capacity: number): void {
    const copy = <T extends { length: number; set(a: ArrayLike<number>): void }>(old: T | undefined, make: (n: number) => T): T => {
      const fresh = make(capacity);
      if (old) fresh.set(old as unknown as ArrayLike<number>);
      return fresh;
    };
    this.destination = copy(this.destination, (n) => shared(Int32Array, n));
    this.source = copy(this.source, (n) => shared(Int32Array, n));
    this.length = copy(this.length, (n) => shared(Uint8Array, n));
    this.vc = copy(this.vc, (n) => shared(Uint8Array, n));
    this.flags = copy(this.flags, (n) => shared(Uint8Array, n));
    this.hashBits = copy(this.hashBits, (n) => shared(Uint16Array, n));
    this.createdAt = copy(this.createdAt, (n) => shared(Float64Array, n));
    this.enteredAt = copy(this.enteredAt, (n) => shared(Float64Array, n));
    this.hops = copy(this.hops, (n) => shared(Uint8Array, n));
    this.state = copy(this.state, (n) => shared(Uint8Array, n));
    this.tag = copy(this.tag, (n) => shared(Int32Array, n));
    this.queueNext = copy(this.queueNext, (n) => shared(Int32Array, n));
    this.segments = copy(this.segments, (n) => shared(Int32Array, n));
    this.routeLength = copy(this.routeLength, (n) => shared(Uint8Array, n));
    this.routePosition = copy(this.routePosition, (n) => shared(Uint8Array, n));
    this.routePorts = copy(this.routePorts, (n) => shared(Uint8Array, n * ROUTE_SLOTS));
    this.backLength = copy(this.backLength, (n) => shared(Uint8Array, n));
    this.backPorts = copy(this.backPorts, (n) => shared(Uint8Array, n * ROUTE_SLOTS));
    const free = shared(Int32Array, capacity);
    if (this.freeList) free.set(this.freeList.subarray(0, this.freeCount));
    this.freeList = free;
    this.capacity = capacity;
  }

  allocate(destination: number, source: number, length: number, vc: number, flags: number, hashBits: number, now: number, tag: number): number {
    let id: number;
    if (this.freeCount > 0) id = this.freeList[--this.freeCount];
    else {
      if (this.next === this.capacity) this.grow(this.capacity * 2);
      id = this.next++;
    }
    this.destination[id] = destination;
    this.source[id] = source;
    this.length[id] = length;
    this.vc[id] = vc;
    this.flags[id] = flags;
    this.hashBits[id] = hashBits;
    this.createdAt[id] = now;
    this.enteredAt[id] = -1;
    this.hops[id] = 0;
    this.state[id] = STATE_QUEUED;
    this.tag[id] = tag;
    this.routeLength[id] = 0;
    this.routePosition[id] = 0;
    this.backLength[id] = 0;
    // A traced packet's trace starts empty: ids are reused, and the trace of the last packet that
    // had this id must not run on into this one's.
    if (flags & FLAG_TRACE) this.traces.set(id, []);
    this.created++;
    this.inFlight++;
    if (tag > 0) this.taggedInFlight++;
    return id;
  }

  /** Ends a packet as delivered; the id is free for reuse afterwards. */
  deliver(id: number): void {
    this.delivered++;
    this.deliveredPhits += this.length[id];
    this.release(id);
  }

  /**
   * Ends a packet as discarded, for `reason`, at global port `port` (-1: none) in cycle `cycle`.
   * While a discard ledger is open, it is entered there too.
   */
  discard(id: number, reason: DiscardReason, port: number, cycle: number): void {
    this.discarded[reason]++;
    if (this.ledger !== null) this.enter(this.ledger, reason, port, this.destination[id], cycle);
    if (this.flags[id] & FLAG_TRACE)
      this.traces.get(id)?.push({ cycle: NaN, chip: -1, port: -1, vc: this.vc[id], stage: 'discarded', detail: DISCARD_REASONS[reason] });
    this.release(id);
  }

  /** Where, when and for whom packets were discarded in the current epoch of the open ledger; null when none is open. */
  private ledger: Map<number, DiscardLedgerEntry> | null = null;
  /** Entries of the open ledger's earlier epochs. */
  private ledgerEarlier: DiscardLedgerEntry[] = [];
  private ledgerEpoch = 0;

  /**
   * Starts a fresh discard ledger: from now on each discard is counted by reason, the global port it
   * happened at and its packet's destination, with the first and last cycle, and split into epochs
   * (`nextDiscardEpoch`) — what a drill needs to tell whether each discard is explained by a fault
   * (which part of the fabric, for how long). One ledger at a time: a traffic run opens it and
   * takes it at its end.
   */
  openDiscardLedger(): void {
    this.ledger = new Map();
    this.ledgerEarlier = [];
    this.ledgerEpoch = 0;
  }

  /** Later discards go into entries of their own (a drill starts one at each step of its timeline). */
  nextDiscardEpoch(): void {
    if (this.ledger === null) return;
    for (const entry of this.ledger.values()) this.ledgerEarlier.push(entry);
    this.ledger = new Map();
    this.ledgerEpoch++;
  }

  /** The entries since `openDiscardLedger`, and the ledger closed. */
  takeDiscardLedger(): DiscardLedgerEntry[] {
    const entries = this.ledger === null ? [] : [...this.ledgerEarlier, ...this.ledger.values()];
    this.ledger = null;
    this.ledgerEarlier = [];
    return entries;
  }

  private enter(ledger: Map<number, DiscardLedgerEntry>, reason: DiscardReason, port: number, destination: number, cycle: number): void {
    // Reason (< 16), port + 1 (< 2^23) and destination + 1 (< 2^22) in one exact integer (< 2^53).
    const key = (reason * 0x800000 + (port + 1)) * 0x400000 + (destination + 1);
    const entry = ledger.get(key);
    if (entry === undefined) ledger.set(key, { epoch: this.ledgerEpoch, reason, port, destination, count: 1, firstCycle: cycle, lastCycle: cycle });
    else {
      entry.count++;
      if (cycle < entry.firstCycle) entry.firstCycle = cycle;
      if (cycle > entry.lastCycle) entry.lastCycle = cycle;
    }
  }

  private release(id: number): void {
    if (this.state[id] === STATE_FREE || this.state[id] === STATE_ENDED) throw new Error(`packet ${id} ended twice`);
    this.inFlight--;
    if (this.tag[id] > 0) this.taggedInFlight--;
    if (this.segments[id] > 0) this.state[id] = STATE_ENDED;
    else this.free(id);
  }

  private free(id: number): void {
    this.state[id] = STATE_FREE;
    this.freeList[this.freeCount++] = id;
  }

  /** A buffer entry now holds phits of packet `id` (SegmentOwner). */
  segmentHeld(id: number): void {
    this.segments[id]++;
  }

  /** A buffer entry of packet `id` is gone; the last one frees the id of a packet that has ended. */
  segmentReleased(id: number): void {
    if (--this.segments[id] === 0 && this.state[id] === STATE_ENDED) this.free(id);
  }

  /** Gives packet `id` the routing vector `ports[from..]` (at most ROUTE_VECTOR_HOPS long). */
  setSourceRoute(id: number, ports: ArrayLike<number>, from = 0): void {
    const n = ports.length - from;
    if (n > ROUTE_VECTOR_HOPS) throw new RangeError(`a routing vector holds at most ${ROUTE_VECTOR_HOPS} hops, got ${n}`);
    const base = id * ROUTE_SLOTS;
    for (let k = 0; k < n; k++) this.routePorts[base + k] = ports[from + k];
    this.routeLength[id] = n;
    this.routePosition[id] = 0;
    this.backLength[id] = 0;
  }

  /** Gives packet `id` the way back of packet `from` as its routing vector: the input ports
   * `from` arrived by, last router first. */
  setReturnRoute(id: number, from: number): void {
    const n = this.backLength[from];
    const to = id * ROUTE_SLOTS;
    const base = from * ROUTE_SLOTS;
    for (let k = 0; k < n; k++) this.routePorts[to + k] = this.backPorts[base + n - 1 - k];
    this.routeLength[id] = n;
    this.routePosition[id] = 0;
    this.backLength[id] = 0;
  }

  /** A source-routed packet passes a router, having arrived by input port `inPort`: returns the
   * output port its vector gives, or -1 when the vector is used up (this router is its target). */
  nextSourceHop(id: number, inPort: number): number {
    const base = id * ROUTE_SLOTS;
    const back = this.backLength[id];
    // An answer's own way back is never used; it is not kept past the slots.
    if (back < ROUTE_SLOTS) {
      this.backPorts[base + back] = inPort;
      this.backLength[id] = back + 1;
    }
    const position = this.routePosition[id];
    if (position >= this.routeLength[id]) return -1;
    this.routePosition[id] = position + 1;
    return this.routePorts[base + position];
  }

  get totalDiscarded(): number {
    let n = 0;
    for (let i = 0; i < this.discarded.length; i++) n += this.discarded[i];
    return n;
  }

  /** The books: every created packet is delivered, discarded with a reason, or still in flight. */
  books(): { created: number; delivered: number; discarded: Record<string, number>; inFlight: number; balanced: boolean } {
    const discarded: Record<string, number> = {};
    DISCARD_REASONS.forEach((name, i) => {
      if (this.discarded[i] > 0) discarded[name] = this.discarded[i];
    });
    return {
      created: this.created,
      delivered: this.delivered,
      discarded,
      inFlight: this.inFlight,
      balanced: this.created === this.delivered + this.totalDiscarded + this.inFlight,
    };
  }
}

/** FIFO queues of packets (source queues of network interfaces), linked through the packet
 * store's `queueNext`: no allocation per packet, O(1) at both ends. */
export class PacketQueues {
  readonly head: Int32Array;
  readonly tail: Int32Array;
  readonly size: Int32Array;

  constructor(
    count: number,
    /** The store of the packets queued (a fabric's part's: see PartedEngine's bind). */
    public packets: PacketStore,
  ) {
    this.head = shared(Int32Array, count).fill(-1);
    this.tail = shared(Int32Array, count).fill(-1);
    this.size = shared(Int32Array, count);
  }

  push(queue: number, packet: number): void {
    this.packets.queueNext[packet] = -1;
    const t = this.tail[queue];
    if (t < 0) this.head[queue] = packet;
    else this.packets.queueNext[t] = packet;
    this.tail[queue] = packet;
    this.size[queue]++;
  }

  shift(queue: number): number {
    const p = this.head[queue];
    const n = this.packets.queueNext[p];
    this.head[queue] = n;
    if (n < 0) this.tail[queue] = -1;
    this.size[queue]--;
    return p;
  }
}

walkedState(PacketStore);
// A queue's store is its part's, bound by the fabric (see PartedEngine's bind).
walkedState(PacketQueues, ['packets']);
