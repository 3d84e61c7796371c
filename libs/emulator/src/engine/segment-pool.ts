/** Most phits a packet may have (the LCB clips longer ones, paper 000 §4.3). */
export const MAX_PACKET_PHITS = 32;

/**
 * Buffer entries: the part of a packet that sits in one buffer (a packet is spread over several
 * buffers while its worm moves through a router, paper 000 §7.5). Entries form FIFO lists per
 * buffer, drawn from one pool of parallel arrays that grows by doubling and never shrinks.
 *
 * Phits are counted, not stored: `sentIn` phits have been sent into the buffer by the stage
 * before, `sentOut` have left for the next. Each phit's send time is kept (as an offset from the
 * head's), and a phit is usable once the stage's `delay` has passed since it was sent — so every
 * phit, not just the head, pays each pipeline stage's latency, and the back-pressure of each
 * buffer comes out of the counts.
 */
export class SegmentPool {
  capacity = 0;
  packet!: Int32Array;
  sentIn!: Uint8Array;
  sentOut!: Uint8Array;
  headTime!: Float64Array;
  /** Cycle the head was sent, the stage latency, phits known to have arrived, and each phit's
   * send time relative to the head's (stride MAX_PACKET_PHITS). */
  firstSend!: Float64Array;
  delay!: Uint16Array;
  arrived!: Uint8Array;
  sendOffset!: Uint32Array;
  next!: Int32Array;
  /** Output port chosen for the packet at this router (-1: not routed yet). */
  route!: Int16Array;
  /** 1 while a segment is in use: catches a double release at once instead of corrupting lists. */
  live!: Uint8Array;
  private free = -1;
  private used = 0;

  constructor(initial = 4096) {
    this.grow(initial);
  }

  private grow(capacity: number): void {
    const resize = <T extends { set(a: ArrayLike<number>): void }>(old: T | undefined, fresh: T): T => {
      if (old) fresh.set(old as unknown as ArrayLike<number>);
      return fresh;
    };
    this.packet = resize(this.packet, new Int32Array(capacity));
    this.sentIn = resize(this.sentIn, new Uint8Array(capacity));
    this.sentOut = resize(this.sentOut, new Uint8Array(capacity));
    this.headTime = resize(this.headTime, new Float64Array(capacity));
    this.firstSend = resize(this.firstSend, new Float64Array(capacity));
    this.delay = resize(this.delay, new Uint16Array(capacity));
    this.arrived = resize(this.arrived, new Uint8Array(capacity));
    this.sendOffset = resize(this.sendOffset, new Uint32Array(capacity * MAX_PACKET_PHITS));
    this.next = resize(this.next, new Int32Array(capacity));
    this.route = resize(this.route, new Int16Array(capacity));
    this.live = resize(this.live, new Uint8Array(capacity));
    for (let i = capacity - 1; i >= this.capacity; i--) {
      this.next[i] = this.free;
      this.free = i;
    }
    this.capacity = capacity;
  }

  /** A new entry for `packet` whose phits will be sent from cycle `now` on and become usable
   * `delay` cycles after each is sent. */
  allocate(packet: number, now: number, delay: number): number {
    // Callers read the arrays through the pool after an allocation, never from locals held across
    // one, so growing here is safe.
    if (this.free < 0) this.grow(this.capacity * 2);
    const s = this.free;
    this.free = this.next[s];
    this.packet[s] = packet;
    this.sentIn[s] = 0;
    this.sentOut[s] = 0;
    this.arrived[s] = 0;
    this.firstSend[s] = now;
    this.delay[s] = delay;
    this.headTime[s] = now + delay;
    this.next[s] = -1;
    this.route[s] = -1;
    this.live[s] = 1;
    this.used++;
    return s;
  }

  release(s: number): void {
    if (this.live[s] !== 1) throw new Error(`segment ${s} released twice`);
    this.live[s] = 0;
    this.next[s] = this.free;
    this.free = s;
    this.used--;
  }

  get inUse(): number {
    return this.used;
  }

  /** Records `n` phits sent into segment s at cycle `now`. */
  send(s: number, now: number, n: number): void {
    const base = s * MAX_PACKET_PHITS;
    const offset = now - this.firstSend[s];
    let k = this.sentIn[s];
    const end = k + n;
    for (; k < end; k++) this.sendOffset[base + k] = offset;
    this.sentIn[s] = end;
  }

  /** Records the next phit of segment s as sent at cycle `at` (which may lie ahead of the
   * current cycle: a stage commits a run of phits at once, each with its own send time). */
  sendAt(s: number, at: number): void {
    const k = this.sentIn[s];
    this.sendOffset[s * MAX_PACKET_PHITS + k] = at - this.firstSend[s];
    this.sentIn[s] = k + 1;
  }

  /** The cycle phit k (< sentIn) of segment s was, or will be, sent into its buffer. */
  sendTime(s: number, k: number): number {
    return this.firstSend[s] + this.sendOffset[s * MAX_PACKET_PHITS + k];
  }

  /** The cycle from which phit k (< sentIn) of segment s can be taken by the next stage. */
  usable(s: number, k: number): number {
    return this.sendTime(s, k) + this.delay[s];
  }

  /** Phits of segment s that have reached its buffer and not left it, at cycle `now`. */
  available(s: number, now: number): number {
    let a = this.arrived[s];
    const sent = this.sentIn[s];
    if (a < sent && now >= this.headTime[s]) {
      const limit = now - this.firstSend[s] - this.delay[s];
      const base = s * MAX_PACKET_PHITS;
      while (a < sent && this.sendOffset[base + a] <= limit) a++;
      this.arrived[s] = a;
    }
    return a - this.sentOut[s];
  }
}

/** Fields of a buffer's record in BufferQueues. */
const HEAD = 0;
const TAIL = 1;
const OCCUPANCY = 2;
const STRIDE = 4;

/**
 * FIFO queues of segments, one per buffer, with the phit occupancy of each buffer (phits sent in
 * and not yet sent out — what the upstream stage must leave room for). A buffer's head, tail and
 * occupancy sit in one 16-byte record, and the two VCs of a buffer are neighbours, so a stage
 * looking at a buffer touches one cache line instead of three: on the 32K fabric the buffers
 * take hundreds of megabytes and every access a packet makes at a router is a cache miss.
 */
export class BufferQueues {
  private readonly record: Int32Array;

  constructor(
    readonly count: number,
    private readonly pool: SegmentPool,
  ) {
    this.record = new Int32Array(count * STRIDE);
    for (let b = 0; b < count; b++) {
      this.record[b * STRIDE + HEAD] = -1;
      this.record[b * STRIDE + TAIL] = -1;
    }
  }

  /** The segment at the head of buffer b (-1: empty). */
  headOf(buffer: number): number {
    return this.record[buffer * STRIDE + HEAD];
  }

  /** The segment at the tail of buffer b (-1: empty). */
  tailOf(buffer: number): number {
    return this.record[buffer * STRIDE + TAIL];
  }

  occupancyOf(buffer: number): number {
    return this.record[buffer * STRIDE + OCCUPANCY];
  }

  /** `phits` more phits sent into buffer b. */
  fill(buffer: number, phits: number): void {
    this.record[buffer * STRIDE + OCCUPANCY] += phits;
  }

  /** `phits` phits have left buffer b. */
  drain(buffer: number, phits: number): void {
    this.record[buffer * STRIDE + OCCUPANCY] -= phits;
  }

  push(buffer: number, segment: number): void {
    const at = buffer * STRIDE;
    const t = this.record[at + TAIL];
    if (t < 0) this.record[at + HEAD] = segment;
    else this.pool.next[t] = segment;
    this.record[at + TAIL] = segment;
  }

  /** Removes the tail segment (a copy dropped before it moved on); walks the short list. */
  popTail(buffer: number): number {
    const at = buffer * STRIDE;
    const t = this.record[at + TAIL];
    let h = this.record[at + HEAD];
    if (h === t) {
      this.record[at + HEAD] = -1;
      this.record[at + TAIL] = -1;
    } else {
      while (this.pool.next[h] !== t) h = this.pool.next[h];
      this.pool.next[h] = -1;
      this.record[at + TAIL] = h;
    }
    this.pool.release(t);
    return t;
  }

  /** Removes the head segment (its packet has left this buffer entirely). */
  shift(buffer: number): number {
    const at = buffer * STRIDE;
    const s = this.record[at + HEAD];
    const n = this.pool.next[s];
    this.record[at + HEAD] = n;
    if (n < 0) this.record[at + TAIL] = -1;
    this.pool.release(s);
    return s;
  }
}
