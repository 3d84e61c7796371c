import { TimingWheel } from './timing-wheel';

/** Low bits of a timing-wheel event's first integer that say which queue (or other kind) it is for. */
export const EVENT_KIND_BITS = 2;

/**
 * The wake-ups of one kind of pipeline stage (a chip's output links, its crossbar channels, ...):
 * which stages are awake in the current cycle, and one pending wake-up per stage on the timing
 * wheel. A chip evaluates its kinds of stages in a fixed order each cycle, one phase per kind; a
 * stage woken for "now" after its phase has passed, or after it has been visited this cycle, is
 * visited in the next cycle.
 *
 * A wake-up later than one already pending is not scheduled: the stage's owner must re-arm it on
 * every visit for whatever it can see coming (phits becoming usable, the end of its own run, room
 * appearing, a timer), and whoever causes what it cannot see announces it afresh.
 */
export class StageQueue {
  /** Stages to visit this cycle, in wake order (index order once sorted): ready[0..count). */
  readonly ready: Int32Array;
  count = 0;
  /** Per stage, side by side (one cache line for both on a fabric far larger than the cache):
   * [2s] the cycle it was queued for, or that cycle + 0.5 once visited; [2s+1] its earliest
   * pending wake-up on the wheel (-1: none). */
  private readonly times: Float64Array;

  constructor(
    size: number,
    private readonly wheel: TimingWheel,
    /** The event kind this queue's wake-ups carry (below 2^EVENT_KIND_BITS). */
    private readonly kind: number,
    /** This queue's phase in the chip's evaluation order. */
    private readonly phase: number,
  ) {
    this.ready = new Int32Array(size);
    this.times = new Float64Array(2 * size).fill(-1);
  }

  /** Wakes `stage` at cycle `at`; `now` is the current cycle and `phase` the one being evaluated. */
  wake(stage: number, at: number, now: number, phase: number): void {
    if (at <= now) {
      const stamp = this.times[2 * stage];
      if (stamp === now) return; // already queued for this cycle
      if (phase <= this.phase && stamp !== now + 0.5) {
        this.times[2 * stage] = now;
        this.ready[this.count++] = stage;
        return;
      }
      at = now + 1;
    } else {
      const latest = now + this.wheel.horizon - 1;
      if (at > latest) at = latest; // beyond the wheel: the visit re-arms it
    }
    const pending = this.times[2 * stage + 1];
    if (pending > now && pending <= at) return;
    this.times[2 * stage + 1] = at;
    this.wheel.schedule(now, at, (stage << EVENT_KIND_BITS) | this.kind, 0);
  }

  /** The wheel has fired a wake-up of `stage` at `now` (during the events phase). */
  fired(stage: number, now: number, phase: number): void {
    // A wake-up that an earlier one replaced is dropped: the visit at the earlier one re-armed the
    // stage for everything it could see coming.
    if (this.times[2 * stage + 1] !== now) return;
    this.times[2 * stage + 1] = -1;
    this.wake(stage, now, now, phase);
  }

  /**
   * Puts this cycle's stages in index order, for a phase whose stages interact within the cycle:
   * they are then visited in the same order whatever order they were woken in — the order a loop
   * over every stage would take.
   */
  sortReady(): void {
    sortRange(this.ready, 0, this.count - 1);
  }

  /** The i-th stage to visit this cycle, marked visited. */
  visit(i: number, now: number): number {
    const stage = this.ready[i];
    this.times[2 * stage] = now + 0.5;
    return stage;
  }
}

/** Sorts a[lo..hi] in place, allocating nothing (it runs every cycle): quicksort on the middle
 * element, the shorter side first, insertion sort for short runs. */
function sortRange(a: Int32Array, lo: number, hi: number): void {
  while (hi - lo > 16) {
    const pivot = a[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (j - lo < hi - i) {
      sortRange(a, lo, j);
      lo = i;
    } else {
      sortRange(a, i, hi);
      hi = j;
    }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
