/** Most phits a packet may have (the LCB clips longer ones, paper 000 §4.3). */
import { shared } from './shared-memory';
import { walkedState } from './shared-state';
export const MAX_PACKET_PHITS = 32;

/**
 * Fields of a segment's record: 16 32-bit words (64 bytes, a cache line's size), the first two
 * holding the cycle its head was sent as a float64. The send times of its first INLINE_PHITS phits
 * (offsets from the head's) are in the record too — a minimum-length packet touches one record
 * per buffer it passes through — and those of later phits in an overflow table. (JavaScript
 * cannot align a buffer: Node on Linux puts a large one 16 bytes past a 64-byte boundary, so a
 * record spans two lines there. Offsetting the views to align them made no measurable difference.)
 */
const WORDS = 16;
/** log2(WORDS): a record's first word is s << WORD_SHIFT, and a field's index is that | field
 * (bitwise: no overflow checks in the optimized code, as an add or multiply would have). */
const WORD_SHIFT = 31 - Math.clz32(WORDS);
const F_PACKET = 2;
const F_SENT_IN = 3;
const F_SENT_OUT = 4;
const F_DELAY = 5;
const F_NEXT = 6;
const F_ROUTE = 7;
const F_ARRIVED = 8;
const F_LIVE = 9;
const F_OFFSET = 10;
const INLINE_PHITS = WORDS - F_OFFSET;
/** The layout for hot loops that index the records themselves (see `words`). */
export const SEGMENT_WORD_SHIFT = WORD_SHIFT;
export const SEGMENT_SENT_IN = F_SENT_IN;
export const SEGMENT_DELAY = F_DELAY;
export const SEGMENT_OFFSET = F_OFFSET;
export const SEGMENT_INLINE_PHITS = INLINE_PHITS;

/** Who is told when a buffer entry of a packet is taken and given back (the packet store, which
 * holds a packet's id until none is left). */
export interface SegmentOwner {
  segmentHeld(packet: number): void;
  segmentReleased(packet: number): void;
}

const NO_OWNER: SegmentOwner = { segmentHeld: () => undefined, segmentReleased: () => undefined };

/**
 * Buffer entries: the part of a packet that sits in one buffer (a packet is spread over several
 * buffers while its worm moves through a router, paper 000 §7.5). Entries form FIFO lists per
 * buffer, drawn from one pool of records that grows by doubling and never shrinks.
 *
 * Phits are counted, not stored: `sentIn` phits have been sent into the buffer by the stage
 * before, `sentOut` have left for the next. Each phit's send time is kept (as an offset from the
 * head's), and a phit is usable once the stage's `delay` has passed since it was sent — so every
 * phit, not just the head, pays each pipeline stage's latency, and the back-pressure of each
 * buffer comes out of the counts.
 */
export class SegmentPool {
  capacity = 0;
  /**
   * The records (1 << SEGMENT_WORD_SHIFT words each, the head's send time a float64 over the first two),
   * the same bytes as float64s, and the overflow table of send-time offsets. A hot loop that
   * allocates no segment may read them into locals and index the exported fields itself; they
   * are replaced when the pool grows.
   */
  words!: Int32Array;
  times!: Float64Array;
  overflow!: Int32Array;
  private free = -1;
  private used = 0;

  constructor(
    initial = 4096,
    private readonly owner: SegmentOwner = NO_OWNER,
  ) {
    this.grow(initial);
  }

  private grow(capacity: number): void {
    const buffer = new SharedArrayBuffer(capacity * WORDS * 4);
    const words = new Int32Array(buffer);
    const overflow = shared(Int32Array, capacity * MAX_PACKET_PHITS);
    if (this.words) {
      words.set(this.words);
      overflow.set(this.overflow);
    }
    this.words = words;
    this.times = new Float64Array(buffer);
    this.overflow = overflow;
    for (let i = capacity - 1; i >= this.capacity; i--) {
      this.words[i * WORDS + F_NEXT] = this.free;
      this.free = i;
    }
    this.capacity = capacity;
  }

  /** A new entry for `packet` whose phits will be sent from cycle `now` on and become usable
   * `delay` cycles after each is sent. */
  allocate(packet: number, now: number, delay: number): number {
    if (this.free < 0) this.grow(this.capacity * 2);
    const s = this.free;
    const w = this.words;
    const at = s << WORD_SHIFT;
    this.free = w[at | F_NEXT];
    this.times[at >> 1] = now;
    w[at | F_PACKET] = packet;
    w[at | F_SENT_IN] = 0;
    w[at | F_SENT_OUT] = 0;
    w[at | F_ARRIVED] = 0;
    w[at | F_DELAY] = delay;
    w[at | F_NEXT] = -1;
    w[at | F_ROUTE] = -1;
    w[at | F_LIVE] = 1;
    this.used++;
    this.owner.segmentHeld(packet);
    return s;
  }

  release(s: number): void {
    const at = s << WORD_SHIFT;
    if (this.words[at | F_LIVE] !== 1) throw new Error(`segment ${s} released twice`);
    this.words[at | F_LIVE] = 0;
    this.words[at | F_NEXT] = this.free;
    this.free = s;
    this.used--;
    this.owner.segmentReleased(this.words[at | F_PACKET]);
  }

  get inUse(): number {
    return this.used;
  }

  packetOf(s: number): number {
    return this.words[(s << WORD_SHIFT) | F_PACKET];
  }

  /** Phits sent into the segment's buffer so far (some possibly at future cycles). */
  sentInOf(s: number): number {
    return this.words[(s << WORD_SHIFT) | F_SENT_IN];
  }

  /** Phits the next stage has taken from it. */
  sentOutOf(s: number): number {
    return this.words[(s << WORD_SHIFT) | F_SENT_OUT];
  }

  setSentOut(s: number, phits: number): void {
    this.words[(s << WORD_SHIFT) | F_SENT_OUT] = phits;
  }

  /** The output port chosen for the packet at this router (-1: not routed yet). */
  routeOf(s: number): number {
    return this.words[(s << WORD_SHIFT) | F_ROUTE];
  }

  setRoute(s: number, route: number): void {
    this.words[(s << WORD_SHIFT) | F_ROUTE] = route;
  }

  nextOf(s: number): number {
    return this.words[(s << WORD_SHIFT) | F_NEXT];
  }

  setNext(s: number, next: number): void {
    this.words[(s << WORD_SHIFT) | F_NEXT] = next;
  }

  /** The stage latency: a phit is usable this many cycles after it was sent. */
  delayOf(s: number): number {
    return this.words[(s << WORD_SHIFT) | F_DELAY];
  }

  /** The cycle from which the head is usable. */
  headTimeOf(s: number): number {
    return this.times[s << (WORD_SHIFT - 1)] + this.words[(s << WORD_SHIFT) | F_DELAY];
  }

  private setOffset(s: number, k: number, offset: number): void {
    if (k < INLINE_PHITS) this.words[(s << WORD_SHIFT) | (F_OFFSET + k)] = offset;
    else this.overflow[s * MAX_PACKET_PHITS + k] = offset;
  }

  /** Phit k's send time as an offset from the head's (an int32: a hot loop can count cycles from the
   * head's, or from its usable origin, in small integers). */
  offsetOf(s: number, k: number): number {
    return k < INLINE_PHITS ? this.words[(s << WORD_SHIFT) | (F_OFFSET + k)] : this.overflow[s * MAX_PACKET_PHITS + k];
  }

  /** Records `n` phits sent into segment s at cycle `now`. */
  send(s: number, now: number, n: number): void {
    const at = s << WORD_SHIFT;
    const offset = now - this.times[at >> 1];
    let k = this.words[at | F_SENT_IN];
    const end = k + n;
    for (; k < end; k++) this.setOffset(s, k, offset);
    this.words[at | F_SENT_IN] = end;
  }

  /** Records the next phit of segment s as sent at cycle `at` (which may lie ahead of the
   * current cycle: a stage commits a run of phits at once, each with its own send time). */
  sendAt(s: number, at: number): void {
    const w = s << WORD_SHIFT;
    const k = this.words[w | F_SENT_IN];
    this.setOffset(s, k, at - this.times[w >> 1]);
    this.words[w | F_SENT_IN] = k + 1;
  }

  /** Records the next `n` phits of segment s as sent one per cycle from cycle `at` on: a run's
   * stretch without gaps, written in one loop (the common case of sendAt phit by phit). */
  sendRun(s: number, at: number, n: number): void {
    const w = s << WORD_SHIFT;
    const words = this.words;
    let k = words[w | F_SENT_IN];
    const end = k + n;
    let offset = at - this.times[w >> 1];
    for (; k < end && k < INLINE_PHITS; k++) words[w | (F_OFFSET + k)] = offset++;
    for (; k < end; k++) this.overflow[s * MAX_PACKET_PHITS + k] = offset++;
    words[w | F_SENT_IN] = end;
  }

  /** The cycle phit k (< sentIn) of segment s was, or will be, sent into its buffer. */
  sendTime(s: number, k: number): number {
    return this.times[s << (WORD_SHIFT - 1)] + this.offsetOf(s, k);
  }

  /** The cycle from which phit k (< sentIn) of segment s can be taken by the next stage. */
  usable(s: number, k: number): number {
    // sendTime written out: this is the hottest read of the emulator, and going through the
    // helpers measured slower (V8 inlines less of it).
    const at = s << WORD_SHIFT;
    return this.times[at >> 1] + (k < INLINE_PHITS ? this.words[at | (F_OFFSET + k)] : this.overflow[s * MAX_PACKET_PHITS + k]) + this.words[at | F_DELAY];
  }

  /**
   * How many of segment s's phits from k on (below `end`) can leave one per cycle from cycle
   * `now`: phit k + j is usable by now + j. Phit k must be usable by `now`, so it is at least 1.
   * The stages' runs begin with this count; it works in offsets from the head's send time, small
   * integers, where a loop of `usable` mixed them with cycles (float64) phit by phit.
   */
  usableRun(s: number, k: number, end: number, now: number): number {
    const words = this.words;
    const at = s << WORD_SHIFT;
    // Phit j goes in the run if its offset is at most `limit` + (j - k).
    const limit = (now - this.times[at >> 1] - words[at | F_DELAY] - k) | 0;
    let j = k + 1;
    for (; j < end && j < INLINE_PHITS; j++) if (words[at | (F_OFFSET + j)] > limit + j) return j - k;
    for (; j < end; j++) if (this.overflow[s * MAX_PACKET_PHITS + j] > limit + j) break;
    return j - k;
  }

  /** Phits of segment s that have reached its buffer and not left it, at cycle `now`. */
  available(s: number, now: number): number {
    const at = s << WORD_SHIFT;
    let a = this.words[at | F_ARRIVED];
    const sent = this.words[at | F_SENT_IN];
    if (a < sent && now >= this.headTimeOf(s)) {
      const limit = now - this.times[at >> 1] - this.words[at | F_DELAY];
      while (a < sent && this.offsetOf(s, a) <= limit) a++;
      this.words[at | F_ARRIVED] = a;
    }
    return a - this.words[at | F_SENT_OUT];
  }
}

/** Fields of a buffer's record in BufferQueues (32-bit words: 4 per record, 8 in a timed one, whose
 * float64 at words 4–5 is the time kept for the buffer). */
const HEAD = 0;
const TAIL = 1;
const OCCUPANCY = 2;
/** Timed queues: which cycles the owner's last run out of the buffer took a phit in (see drainMaskOf). */
const DRAIN_MASK = 3;
/** log2 of a record's words: plain, and timed; and the time's float64 slot within a timed record. */
const PLAIN_SHIFT = 2;
const TIMED_SHIFT = 3;
const TIME_SLOT = 2;

/**
 * FIFO queues of segments, one per buffer, with the phit occupancy of each buffer (phits sent in
 * and not yet sent out — what the upstream stage must leave room for). A buffer's head, tail and
 * occupancy sit in one 16-byte record, and the two VCs of a buffer are neighbours, so a stage
 * looking at a buffer touches one record instead of three arrays: on the 32K fabric the buffers
 * take hundreds of megabytes and every access a packet makes at a router is a cache miss.
 * Queues made `timed` keep a cycle per buffer in its record as well (a 32-byte record, the two VCs
 * side by side), for what the owner must know of the buffer's timing (a read port's end).
 */
export class BufferQueues {
  private readonly record: Int32Array;
  private readonly times: Float64Array | null;
  /** log2 of a record's words: 2, or 3 when timed (indices by shift and or, see WORD_SHIFT). */
  private readonly recordShift: number;

  constructor(
    readonly count: number,
    /** The pool of the entries queued (a fabric's part's: see PartedEngine's bind). */
    public pool: SegmentPool,
    timed = false,
  ) {
    this.recordShift = timed ? TIMED_SHIFT : PLAIN_SHIFT;
    const bytes = new SharedArrayBuffer((count << this.recordShift) * 4);
    this.record = new Int32Array(bytes);
    this.times = timed ? new Float64Array(bytes) : null;
    for (let b = 0; b < count; b++) {
      this.record[(b << this.recordShift) | HEAD] = -1;
      this.record[(b << this.recordShift) | TAIL] = -1;
    }
  }

  /** The cycle kept for buffer b (timed queues). */
  timeOf(buffer: number): number {
    return this.times![(buffer << (TIMED_SHIFT - 1)) | TIME_SLOT];
  }

  /** Departures of the last run out of buffer b (timed queues), as a mask back from its time:
   * bit j is set if a phit left at timeOf(b) - 1 - j (a run spans at most 32 cycles). */
  drainMaskOf(buffer: number): number {
    return this.record[(buffer << TIMED_SHIFT) | DRAIN_MASK];
  }

  /** A run out of buffer b ends at cycle `end` (its last phit leaves at end - 1), its phits leaving
   * in the cycles `mask` marks (see drainMaskOf). */
  setDrain(buffer: number, end: number, mask: number): void {
    this.times![(buffer << (TIMED_SHIFT - 1)) | TIME_SLOT] = end;
    this.record[(buffer << TIMED_SHIFT) | DRAIN_MASK] = mask;
  }

  /** The segment at the head of buffer b (-1: empty). */
  headOf(buffer: number): number {
    return this.record[(buffer << this.recordShift) | HEAD];
  }

  /** The segment at the tail of buffer b (-1: empty). */
  tailOf(buffer: number): number {
    return this.record[(buffer << this.recordShift) | TAIL];
  }

  occupancyOf(buffer: number): number {
    return this.record[(buffer << this.recordShift) | OCCUPANCY];
  }

  /** `phits` more phits sent into buffer b. */
  fill(buffer: number, phits: number): void {
    this.record[(buffer << this.recordShift) | OCCUPANCY] += phits;
  }

  /** `phits` phits have left buffer b. */
  drain(buffer: number, phits: number): void {
    this.record[(buffer << this.recordShift) | OCCUPANCY] -= phits;
  }

  push(buffer: number, segment: number): void {
    const at = buffer << this.recordShift;
    const t = this.record[at | TAIL];
    if (t < 0) this.record[at | HEAD] = segment;
    else this.pool.setNext(t, segment);
    this.record[at | TAIL] = segment;
  }

  /** Removes the tail segment (a copy dropped before it moved on); walks the short list. */
  popTail(buffer: number): number {
    const at = buffer << this.recordShift;
    const t = this.record[at | TAIL];
    let h = this.record[at | HEAD];
    if (h === t) {
      this.record[at | HEAD] = -1;
      this.record[at | TAIL] = -1;
    } else {
      while (this.pool.nextOf(h) !== t) h = this.pool.nextOf(h);
      this.pool.setNext(h, -1);
      this.record[at | TAIL] = h;
    }
    this.pool.release(t);
    return t;
  }

  /** Removes the head segment (its packet has left this buffer entirely). */
  shift(buffer: number): number {
    const at = buffer << this.recordShift;
    const s = this.record[at | HEAD];
    const n = this.pool.nextOf(s);
    this.record[at | HEAD] = n;
    if (n < 0) this.record[at | TAIL] = -1;
    this.pool.release(s);
    return s;
  }
}

// The owner and a queue's pool are its part's, bound by the fabric (see PartedEngine's bind).
walkedState(SegmentPool, ['owner']);
walkedState(BufferQueues, ['pool']);
