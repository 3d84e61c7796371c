import { wheelSlots } from './timing-wheel';

/** A stage's record: two float64s (16 bytes), the cycle it was queued for and its pending wake-up. */
const RECORD_SHIFT = 1;
const F_STAMP = 0;
const F_PENDING = 1;

/** A slot's wake-ups are kept in blocks of BLOCK int32s (64 bytes): the next block's index,
 * then the stages woken for that slot's cycle, in the order they were woken. */
const BLOCK_SHIFT = 4;
const BLOCK = 1 << BLOCK_SHIFT;
const B_NEXT = 0;
/** A slot's state: its first block, its last, and how many int32s of the last are used. */
const SLOT_SHIFT = 2;
const S_FIRST = 0;
const S_LAST = 1;
const S_FILL = 2;

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
 * replaces the pending one.
 *
 * A slot is a list of blocks of stage indices, appended to as stages are woken for its cycle. A
 * wake-up that an earlier one replaced stays in its slot and is passed over when the slot comes
 * due (the stage's pending wake-up is no longer that cycle). On a busy fabric the stages are far
 * more than the cache holds and each wake-up of a stage comes long after the last, so this is
 * what keeps a due slot cheap: its stages are read in sequence and their records looked up
 * independently, where a list threaded through the records made every step of the walk wait for
 * the cache miss before it (and a replaced wake-up wrote to two more records to unlink itself).
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
  /** One 16-byte record per stage: times[s << 1 | F_STAMP] is the cycle it was queued for, or that
   * cycle + 0.5 once visited, and times[s << 1 | F_PENDING] its pending wake-up (-1: none). */
  private readonly times: Float64Array;
  /** Per slot: first block, last block, int32s used in the last (see SLOT_SHIFT). */
  private readonly slots: Int32Array;
  /** The blocks (see BLOCK_SHIFT), pooled: those of no slot form a free list through B_NEXT. A
   * pool that runs out doubles. */
  private blocks: Int32Array;
  private freeBlock = -1;
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
    this.times = new Float64Array(size << RECORD_SHIFT).fill(-1);
    this.horizon = wheelSlots(horizon);
    this.mask = this.horizon - 1;
    this.slots = new Int32Array(this.horizon << SLOT_SHIFT);
    for (let slot = 0; slot < this.horizon; slot++) {
      this.slots[(slot << SLOT_SHIFT) | S_FIRST] = -1;
      this.slots[(slot << SLOT_SHIFT) | S_LAST] = -1;
    }
    this.blocks = new Int32Array(0);
    this.growBlocks(Math.max(16, this.horizon));
  }

  private growBlocks(count: number): void {
    const had = this.blocks.length >> BLOCK_SHIFT;
    const blocks = new Int32Array(count << BLOCK_SHIFT);
    blocks.set(this.blocks);
    for (let b = count - 1; b >= had; b--) {
      blocks[(b << BLOCK_SHIFT) | B_NEXT] = this.freeBlock;
      this.freeBlock = b;
    }
    this.blocks = blocks;
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
    } else this.pending++;
    times[(stage << RECORD_SHIFT) | F_PENDING] = at;
    this.append(at & this.mask, stage);
  }

  /** Adds `stage` to the end of `slot`'s list. */
  private append(slot: number, stage: number): void {
    const slots = this.slots;
    const state = slot << SLOT_SHIFT;
    let last = slots[state | S_LAST];
    let fill = slots[state | S_FILL];
    if (last < 0 || fill === BLOCK) {
      if (this.freeBlock < 0) this.growBlocks((this.blocks.length >> BLOCK_SHIFT) * 2);
      const block = this.freeBlock;
      this.freeBlock = this.blocks[(block << BLOCK_SHIFT) | B_NEXT];
      this.blocks[(block << BLOCK_SHIFT) | B_NEXT] = -1;
      if (last < 0) slots[state | S_FIRST] = block;
      else this.blocks[(last << BLOCK_SHIFT) | B_NEXT] = block;
      slots[state | S_LAST] = block;
      last = block;
      fill = 1;
    }
    this.blocks[(last << BLOCK_SHIFT) | fill] = stage;
    slots[state | S_FILL] = fill + 1;
  }

  /** Queues the stages whose wake-ups are due at `now`. Called in the cycle's events phase,
   * before any stage is visited: a stage is then either queued already (woken for now by another
   * event) or not, never visited. A wake-up for a later cycle is never in this slot yet: the
   * wheel's horizon keeps it from reaching round to it before this cycle's are taken out. */
  fire(now: number): void {
    const state = (now & this.mask) << SLOT_SHIFT;
    const slots = this.slots;
    const first = slots[state | S_FIRST];
    if (first < 0) return;
    const last = slots[state | S_LAST];
    const fill = slots[state | S_FILL];
    slots[state | S_FIRST] = -1;
    slots[state | S_LAST] = -1;
    const times = this.times;
    const blocks = this.blocks;
    let block = first;
    for (;;) {
      const at = block << BLOCK_SHIFT;
      const end = block === last ? fill : BLOCK;
      for (let k = 1; k < end; k++) {
        const stage = blocks[at | k];
        // Passed over where an earlier wake-up replaced this one.
        if (times[(stage << RECORD_SHIFT) | F_PENDING] !== now) continue;
        times[(stage << RECORD_SHIFT) | F_PENDING] = -1;
        this.pending--;
        if (times[(stage << RECORD_SHIFT) | F_STAMP] !== now) {
          times[(stage << RECORD_SHIFT) | F_STAMP] = now;
          this.ready[this.count++] = stage;
        }
      }
      if (block === last) break;
      block = blocks[at | B_NEXT];
    }
    // The slot's blocks go back to the pool as one chain.
    blocks[(last << BLOCK_SHIFT) | B_NEXT] = this.freeBlock;
    this.freeBlock = first;
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
