/** An entry's record: four int32s, of which the last is spare (a power of two: indices by shift). */
import { shared } from './shared-memory';
import { walkedState } from './shared-state';
const ENTRY_SHIFT = 2;
const E_A = 0;
const E_B = 1;
const E_NEXT = 2;

/**
 * Events due at a future cycle (credit returns, arrivals), in a wheel of slots with pooled
 * entries: scheduling and firing are O(1) and allocate nothing once warm. Each event is two
 * integers (what and how much), interpreted by the owner.
 */
export class TimingWheel {
  /** Cycles ahead an event may be scheduled: the requested horizon rounded up to a power of two,
   * so that a cycle's slot is a mask, not a division, on every schedule and every cycle. */
  readonly horizon: number;
  private readonly mask: number;
  private readonly slotHead: Int32Array;
  /** The pooled entries, a 16-byte record each: what, how much, and the next entry in its slot
   * (or in the free list). One record, not three arrays: an event is written and fired far
   * apart in time, and each touch would otherwise be three cache misses. */
  private entries: Int32Array;
  private free = -1;
  private capacity = 0;
  pending = 0;

  constructor(horizon: number, initial = 1024) {
    this.horizon = wheelSlots(horizon);
    this.mask = this.horizon - 1;
    this.slotHead = shared(Int32Array, this.horizon).fill(-1);
    this.entries = shared(Int32Array, 0);
    this.grow(initial);
  }

  private grow(capacity: number): void {
    const entries = shared(Int32Array, capacity << ENTRY_SHIFT);
    entries.set(this.entries);
    for (let i = capacity - 1; i >= this.capacity; i--) {
      entries[(i << ENTRY_SHIFT) | E_NEXT] = this.free;
      this.free = i;
    }
    this.entries = entries;
    this.capacity = capacity;
  }

  /** Schedules (a, b) for cycle `at`, which must lie within the horizon of `now`. */
  schedule(now: number, at: number, a: number, b: number): void {
    const delay = at - now;
    if (delay < 1 || delay >= this.horizon) throw new RangeError(`event ${delay} cycles ahead is outside the wheel's horizon of ${this.horizon}`);
    if (this.free < 0) this.grow(this.capacity * 2);
    const entries = this.entries;
    const e = this.free;
    const at0 = e << ENTRY_SHIFT;
    this.free = entries[at0 | E_NEXT];
    const slot = at & this.mask;
    entries[at0 | E_A] = a;
    entries[at0 | E_B] = b;
    entries[at0 | E_NEXT] = this.slotHead[slot];
    this.slotHead[slot] = e;
    this.pending++;
  }

  /** Calls `fire` for every event due at cycle `now`, and frees them. */
  fire(now: number, fire: (a: number, b: number) => void): void {
    const slot = now & this.mask;
    let e = this.slotHead[slot];
    this.slotHead[slot] = -1;
    while (e >= 0) {
      // Read afresh each time: `fire` may schedule, and growing replaces the array.
      const entries = this.entries;
      const at = e << ENTRY_SHIFT;
      const n = entries[at | E_NEXT];
      fire(entries[at | E_A], entries[at | E_B]);
      this.entries[at | E_NEXT] = this.free;
      this.free = e;
      this.pending--;
      e = n;
    }
  }
}

/** The slots of a wheel that looks `horizon` cycles ahead: a power of two at least that (and at
 * least 2), so that a cycle's slot is a mask, not a division. */
export function wheelSlots(horizon: number): number {
  return 1 << (32 - Math.clz32(Math.max(2, horizon) - 1));
}

walkedState(TimingWheel);
