import { wheelSlots } from './timing-wheel';
import { SharedState, walkedState } from './shared-state';
import { shared } from './shared-memory';

// A module constant, not a global look-up per call (see link-engine.ts).
const { clz32 } = Math;

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
 * Stages belong to parts: sets of stages that never act on each other within a cycle (the
 * fabric's independent networks). Each part has its own slots and its own stretch of `ready`, so
 * that its stages can be evaluated on their own — part after part within a cycle, or a part for
 * many cycles on end while its state stays in the cache (see PartedEngine.runWindowed). A stage of
 * a part already evaluated this cycle that is woken for "now" waits for the next cycle.
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
  /** Stages to visit this cycle, a stretch per part: part p's are ready[start[p] .. start[p] +
   * count[p]), in wake order (index order once sorted). */
  readonly ready: Int32Array;
  readonly count: Int32Array;
  private readonly start: Int32Array;
  /** The part being evaluated (-1: none, between the events of a cycle and its stages). */
  private active = -1;
  /** Per part, the last cycle whose stages it has evaluated. */
  private readonly doneAt: Float64Array;
  /** Cycles ahead a wake-up may lie: the requested horizon rounded up to a power of two (a
   * cycle's slot is a mask); a later one is kept at the horizon and the visit then re-arms it. */
  readonly horizon: number;
  /** Per part, its stages with a wake-up pending. */
  private readonly pendingOf: Int32Array;
  private readonly mask: number;
  private readonly horizonBits: number;
  /** One 16-byte record per stage: times[s << 1 | F_STAMP] is the cycle it was queued for, or that
   * cycle + 0.5 once visited, and times[s << 1 | F_PENDING] its pending wake-up (-1: none). */
  private readonly times: Float64Array;
  /** Per part and slot (part << horizonBits | slot): first block, last block, int32s used in the
   * last (see SLOT_SHIFT). */
  private readonly slots: Int32Array;
  /** The blocks (see BLOCK_SHIFT), pooled per part (a part run on a thread of its own takes
   * blocks from no other part's pool): those of no slot form a free list through B_NEXT. A pool
   * that runs out doubles. */
  private readonly blocks: Int32Array[];
  private readonly freeBlock: Int32Array;
  /** sortReady's bitmap of the stages being sorted, a bit per stage, and its summary, a bit per
   * word of the bitmap that has one set (made on the first sort that needs them: most queues are
   * never sorted). Both are all zero between sorts. */
  private sortBits: Int32Array | null = null;
  private sortSummary: Int32Array | null = null;
  /** Each stage's part. */
  private readonly partOf: Uint8Array;

  constructor(
    size: number,
    horizon: number,
    /** This queue's phase in the chip's evaluation order. */
    private readonly phase: number,
    /** Each stage's part (all in part 0 if not given). */
    partOf?: Uint8Array,
  ) {
    this.partOf = partOf ?? shared(Uint8Array, size);
    if (this.partOf.length !== size) throw new RangeError(`${this.partOf.length} parts given for ${size} stages`);
    let parts = 1;
    for (let s = 0; s < size; s++) parts = Math.max(parts, this.partOf[s] + 1);
    this.count = shared(Int32Array, parts);
    this.start = shared(Int32Array, parts);
    for (let s = 0; s < size; s++) if (this.partOf[s] + 1 < parts) this.start[this.partOf[s] + 1]++;
    for (let p = 1; p < parts; p++) this.start[p] += this.start[p - 1];
    this.doneAt = shared(Float64Array, parts).fill(-Infinity);
    this.ready = shared(Int32Array, size);
    this.times = shared(Float64Array, size << RECORD_SHIFT).fill(-1);
    this.horizon = wheelSlots(horizon);
    this.mask = this.horizon - 1;
    this.horizonBits = 31 - Math.clz32(this.horizon);
    this.slots = shared(Int32Array, (parts * this.horizon) << SLOT_SHIFT);
    for (let slot = 0; slot < parts * this.horizon; slot++) {
      this.slots[(slot << SLOT_SHIFT) | S_FIRST] = -1;
      this.slots[(slot << SLOT_SHIFT) | S_LAST] = -1;
    }
    this.pendingOf = shared(Int32Array, parts);
    this.freeBlock = shared(Int32Array, parts).fill(-1);
    this.blocks = Array.from({ length: parts }, () => shared(Int32Array, 0));
    for (let p = 0; p < parts; p++) this.growBlocks(p, Math.max(16, this.horizon));
  }

  /** Part p's block pool, which its thread may have grown (the rest of the queue is in shared memory). */
  partState(p: number): SharedState {
    return { blocks: this.blocks[p] };
  }

  adoptPartState(p: number, state: SharedState): void {
    this.blocks[p] = state.blocks as Int32Array;
  }

  /** Stages with a wake-up pending. */
  get pending(): number {
    let n = 0;
    for (let p = 0; p < this.pendingOf.length; p++) n += this.pendingOf[p];
    return n;
  }

  /** How many parts the stages fall into. */
  get parts(): number {
    return this.count.length;
  }

  private growBlocks(part: number, count: number): void {
    const had = this.blocks[part].length >> BLOCK_SHIFT;
    const blocks = shared(Int32Array, count << BLOCK_SHIFT);
    blocks.set(this.blocks[part]);
    for (let b = count - 1; b >= had; b--) {
      blocks[(b << BLOCK_SHIFT) | B_NEXT] = this.freeBlock[part];
      this.freeBlock[part] = b;
    }
    this.blocks[part] = blocks;
  }

  /** Wakes `stage` at cycle `at`; `now` is the current cycle and `phase` the one being evaluated. */
  wake(stage: number, at: number, now: number, phase: number): void {
    const times = this.times;
    const part = this.partOf[stage];
    if (at <= now) {
      const stamp = times[(stage << RECORD_SHIFT) | F_STAMP];
      if (stamp === now) return; // already queued for this cycle
      // Now, if its part's turn in this queue's phase is still to come: the part is not done with
      // this cycle and, if it is the one being evaluated (or none is), its phase has not passed.
      const active = this.active;
      if (stamp !== now + 0.5 && this.doneAt[part] < now && (part !== active && active >= 0 ? true : phase <= this.phase)) {
        times[(stage << RECORD_SHIFT) | F_STAMP] = now;
        this.ready[this.start[part] + this.count[part]++] = stage;
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
    } else this.pendingOf[part]++;
    times[(stage << RECORD_SHIFT) | F_PENDING] = at;
    this.append(part, (part << this.horizonBits) | (at & this.mask), stage);
  }

  /** Adds `stage` to the end of `slot`'s list (a slot of part `part`). */
  private append(part: number, slot: number, stage: number): void {
    const slots = this.slots;
    const state = slot << SLOT_SHIFT;
    let last = slots[state | S_LAST];
    let fill = slots[state | S_FILL];
    let blocks = this.blocks[part];
    if (last < 0 || fill === BLOCK) {
      if (this.freeBlock[part] < 0) {
        this.growBlocks(part, (blocks.length >> BLOCK_SHIFT) * 2);
        blocks = this.blocks[part];
      }
      const block = this.freeBlock[part];
      this.freeBlock[part] = blocks[(block << BLOCK_SHIFT) | B_NEXT];
      blocks[(block << BLOCK_SHIFT) | B_NEXT] = -1;
      if (last < 0) slots[state | S_FIRST] = block;
      else blocks[(last << BLOCK_SHIFT) | B_NEXT] = block;
      slots[state | S_LAST] = block;
      last = block;
      fill = 1;
    }
    blocks[(last << BLOCK_SHIFT) | fill] = stage;
    slots[state | S_FILL] = fill + 1;
  }

  /** Queues part `part`'s stages whose wake-ups are due at `now`. Called in the cycle's events
   * phase, before any of the part's stages is visited: a stage is then either queued already
   * (woken for now by another event) or not, never visited. A wake-up for a later cycle is never
   * in this slot yet: the wheel's horizon keeps it from reaching round to it before this cycle's
   * are taken out. */
  fire(part: number, now: number): void {
    const state = ((part << this.horizonBits) | (now & this.mask)) << SLOT_SHIFT;
    const slots = this.slots;
    const first = slots[state | S_FIRST];
    if (first < 0) return;
    const last = slots[state | S_LAST];
    const fill = slots[state | S_FILL];
    slots[state | S_FIRST] = -1;
    slots[state | S_LAST] = -1;
    const times = this.times;
    const blocks = this.blocks[part];
    const ready = this.ready;
    const start = this.start[part];
    let count = this.count[part];
    let fired = 0;
    let block = first;
    for (;;) {
      const at = block << BLOCK_SHIFT;
      const end = block === last ? fill : BLOCK;
      for (let k = 1; k < end; k++) {
        const stage = blocks[at | k];
        // Passed over where an earlier wake-up replaced this one.
        if (times[(stage << RECORD_SHIFT) | F_PENDING] !== now) continue;
        times[(stage << RECORD_SHIFT) | F_PENDING] = -1;
        fired++;
        if (times[(stage << RECORD_SHIFT) | F_STAMP] !== now) {
          times[(stage << RECORD_SHIFT) | F_STAMP] = now;
          ready[start + count++] = stage;
        }
      }
      if (block === last) break;
      block = blocks[at | B_NEXT];
    }
    this.count[part] = count;
    this.pendingOf[part] -= fired;
    // The slot's blocks go back to the part's pool as one chain.
    blocks[(last << BLOCK_SHIFT) | B_NEXT] = this.freeBlock[part];
    this.freeBlock[part] = first;
  }

  /** Part `part`'s stages are being visited (in this queue's phase or an earlier one). */
  enter(part: number): void {
    this.active = part;
  }

  /** Part `part` has been evaluated for cycle `now`: its stretch of `ready` is emptied. */
  leave(part: number, now: number): void {
    this.count[part] = 0;
    this.doneAt[part] = now;
    this.active = -1;
  }

  /**
   * Puts part `part`'s stages of this cycle in index order, for a phase whose stages interact
   * within the cycle: they are then visited in the same order whatever order they were woken in —
   * the order a loop over every stage would take. The stages are marked in a bitmap and read back
   * from it in order, through a summary of the bitmap's words that have a bit set, from the lowest
   * such word to the highest: linear in the stages woken plus the span of the summary they cover,
   * with no fixed cost per cycle (a busy part wakes a few dozen channels a cycle). A handful is
   * insertion-sorted.
   */
  sortReady(part: number): void {
    const n = this.count[part];
    const base = this.start[part];
    const ready = this.ready;
    if (n <= 8) {
      insertionSort(ready, base, n);
      return;
    }
    const words = (this.ready.length + 31) >>> 5;
    const bits = this.sortBits ?? (this.sortBits = new Int32Array(words));
    const summary = this.sortSummary ?? (this.sortSummary = new Int32Array((words + 31) >>> 5));
    let low = summary.length;
    let high = -1;
    for (let i = base; i < base + n; i++) {
      const stage = ready[i];
      const word = stage >>> 5;
      bits[word] |= 1 << (stage & 31);
      const s = word >>> 5;
      summary[s] |= 1 << (word & 31);
      if (s < low) low = s;
      if (s > high) high = s;
    }
    let out = base;
    for (let s = low; s <= high; s++) {
      for (let marked = summary[s]; marked !== 0; marked &= marked - 1) {
        const word = (s << 5) | (31 - clz32(marked & -marked));
        for (let set = bits[word]; set !== 0; set &= set - 1) ready[out++] = (word << 5) | (31 - clz32(set & -set));
        bits[word] = 0;
      }
      summary[s] = 0;
    }
  }

  /** The i-th stage of part `part` to visit this cycle, marked visited. */
  visit(part: number, i: number, now: number): number {
    const stage = this.ready[this.start[part] + i];
    this.times[(stage << RECORD_SHIFT) | F_STAMP] = now + 0.5;
    return stage;
  }
}

/** Sorts a[base..base+n) in place: insertion sort, for the few stages of a quiet cycle. */
function insertionSort(a: Int32Array, base: number, n: number): void {
  for (let i = base + 1; i < base + n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= base && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

// The part being evaluated and the sort's scratch space are each thread's own.
walkedState(StageQueue, ['active', 'sortBits', 'sortSummary']);
