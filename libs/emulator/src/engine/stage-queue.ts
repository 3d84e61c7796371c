import { wheelSlots } from './timing-wheel';

/** A stage's record: four float64s (32 bytes), of which the last two hold int32 links. */
const RECORD_SHIFT = 2;
const F_STAMP = 0;
const F_PENDING = 1;
const LINK_SHIFT = RECORD_SHIFT + 1;
const I_NEXT = 4;
const I_PREVIOUS = 5;

/**
 * The wake-ups of one kind of pipeline stage (a chip's output links, its crossbar channels, ...):
 * which stages are awake in the current cycle, and at most one pending wake-up per stage, kept in
 * the queue's own wheel of slots. A chip evaluates its kinds of stages in a fixed order each
 * cycle, one phase per kind; a stage woken for "now" after its phase has passed, or after it has
 * been visited this cycle, is visited in the next cycle.
 *
 * A wake-up later than one already pending is not kept: the stage's owner must re-arm it on every
 * visit for whatever it can see coming (phits becoming usable, the end of its own run, room
 * appearing, a timer), and whoever causes what it cannot see announces it afresh. An earlier one
 * replaces the pending one. The wheel's slots are lists threaded through the stages themselves (a
 * stage is in at most one), so a wake-up is a few stores, a replaced one leaves nothing behind to
 * be skipped, and a due slot is appended to the ready list as it is (no shared event pool, no
 * dispatch on the event's kind).
 */
export class StageQueue {
  /** Stages to visit this cycle, in wake order (index order once sorted): ready[0..count). */
  readonly ready: Int32Array;
  count = 0;
  /** Cycles ahead a wake-up may lie: the requested horizon rounded up to a power of two (a
   * cycle's slot is a mask); a later one is kept at the horizon and the visit then re-arms it. */
  readonly horizon: number;
  /** Stages with a wake-up pending. */
  pending = 0;
  private readonly mask: number;
  /**
   * One 32-byte record per stage, so that a wake-up touches one cache line (on a busy fabric the
   * stages are far more than the cache holds, and each wake-up of a stage comes long after the
   * last). As float64s, times[s << 2 | F_STAMP] is the cycle it was queued for, or that cycle +
   * 0.5 once visited, and times[s << 2 | F_PENDING] its pending wake-up (-1: none); as int32s,
   * links[s << 3 | I_NEXT] is the next stage in its wake-up's slot and links[s << 3 | I_PREVIOUS]
   * the previous one (-1: the first, held by slotHead).
   */
  private readonly times: Float64Array;
  private readonly links: Int32Array;
  private readonly slotHead: Int32Array;
  /** sortReady's second array (made on the first sort that needs it: most queues are never
   * sorted), its digit counts, and the bits a stage index has. */
  private scratch: Int32Array | null = null;
  private readonly counts = new Int32Array(256);
  private readonly indexBits: number;

  constructor(
    size: number,
    horizon: number,
    /** This queue's phase in the chip's evaluation order. */
    private readonly phase: number,
  ) {
    this.ready = new Int32Array(size);
    this.indexBits = 32 - Math.clz32(Math.max(1, size - 1));
    const records = new ArrayBuffer(size << (RECORD_SHIFT + 3));
    this.times = new Float64Array(records).fill(-1);
    this.links = new Int32Array(records);
    for (let s = 0; s < size; s++) {
      this.links[(s << LINK_SHIFT) | I_NEXT] = -1;
      this.links[(s << LINK_SHIFT) | I_PREVIOUS] = -1;
    }
    this.horizon = wheelSlots(horizon);
    this.mask = this.horizon - 1;
    this.slotHead = new Int32Array(this.horizon).fill(-1);
  }

  /** Wakes `stage` at cycle `at`; `now` is the current cycle and `phase` the one being evaluated. */
  wake(stage: number, at: number, now: number, phase: number): void {
    const times = this.times;
    if (at <= now) {
      const stamp = times[(stage << RECORD_SHIFT) | F_STAMP];
      if (stamp === now) return; // already queued for this cycle
      if (phase <= this.phase && stamp !== now + 0.5) {
        times[(stage << RECORD_SHIFT) | F_STAMP] = now;
        this.ready[this.count++] = stage;
        return;
      }
      at = now + 1;
    } else {
      const latest = now + this.horizon - 1;
      if (at > latest) at = latest; // beyond the wheel: the visit re-arms it
    }
    const pending = times[(stage << RECORD_SHIFT) | F_PENDING];
    if (pending >= 0) {
      if (pending <= at) return;
      this.unlink(stage, pending);
    } else this.pending++;
    times[(stage << RECORD_SHIFT) | F_PENDING] = at;
    const links = this.links;
    const slot = at & this.mask;
    const first = this.slotHead[slot];
    links[(stage << LINK_SHIFT) | I_NEXT] = first;
    links[(stage << LINK_SHIFT) | I_PREVIOUS] = -1;
    if (first >= 0) links[(first << LINK_SHIFT) | I_PREVIOUS] = stage;
    this.slotHead[slot] = stage;
  }

  /** Takes `stage` out of the slot of its pending wake-up at cycle `at`. */
  private unlink(stage: number, at: number): void {
    const links = this.links;
    const next = links[(stage << LINK_SHIFT) | I_NEXT];
    const previous = links[(stage << LINK_SHIFT) | I_PREVIOUS];
    if (previous >= 0) links[(previous << LINK_SHIFT) | I_NEXT] = next;
    else this.slotHead[at & this.mask] = next;
    if (next >= 0) links[(next << LINK_SHIFT) | I_PREVIOUS] = previous;
  }

  /** Queues the stages whose wake-ups are due at `now`. Called in the cycle's events phase,
   * before any stage is visited: a stage is then either queued already (woken for now by another
   * event) or not, never visited. */
  fire(now: number): void {
    const slot = now & this.mask;
    let stage = this.slotHead[slot];
    this.slotHead[slot] = -1;
    const times = this.times;
    const links = this.links;
    while (stage >= 0) {
      const next = links[(stage << LINK_SHIFT) | I_NEXT];
      times[(stage << RECORD_SHIFT) | F_PENDING] = -1;
      this.pending--;
      if (times[(stage << RECORD_SHIFT) | F_STAMP] !== now) {
        times[(stage << RECORD_SHIFT) | F_STAMP] = now;
        this.ready[this.count++] = stage;
      }
      stage = next;
    }
  }

  /**
   * Puts this cycle's stages in index order, for a phase whose stages interact within the cycle:
   * they are then visited in the same order whatever order they were woken in — the order a loop
   * over every stage would take. A least-significant-digit radix sort, a byte per pass, over as
   * many bytes as a stage index has (passes whose byte is the same for every stage are skipped):
   * linear in the stages woken, where a comparison sort cost several times more on the few
   * hundred channels a busy fabric wakes each cycle.
   */
  sortReady(): void {
    const n = this.count;
    let from = this.ready;
    if (n <= 24) {
      insertionSort(from, n);
      return;
    }
    let to = this.scratch ?? (this.scratch = new Int32Array(this.ready.length));
    const counts = this.counts;
    for (let shift = 0; shift < this.indexBits; shift += 8) {
      counts.fill(0);
      for (let i = 0; i < n; i++) counts[(from[i] >>> shift) & 255]++;
      if (counts[(from[0] >>> shift) & 255] === n) continue;
      let sum = 0;
      for (let d = 0; d < 256; d++) {
        const c = counts[d];
        counts[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const stage = from[i];
        to[counts[(stage >>> shift) & 255]++] = stage;
      }
      const t = from;
      from = to;
      to = t;
    }
    if (from !== this.ready) for (let i = 0; i < n; i++) this.ready[i] = from[i]; // no subarray view made per cycle
  }

  /** The i-th stage to visit this cycle, marked visited. */
  visit(i: number, now: number): number {
    const stage = this.ready[i];
    this.times[(stage << RECORD_SHIFT) | F_STAMP] = now + 0.5;
    return stage;
  }
}

/** Sorts a[0..n) in place: insertion sort, for the few stages of a quiet cycle. */
function insertionSort(a: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
