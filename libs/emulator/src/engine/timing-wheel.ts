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
  private a: Int32Array;
  private b: Int32Array;
  private next: Int32Array;
  private free = -1;
  private capacity = 0;
  pending = 0;

  constructor(horizon: number, initial = 1024) {
    this.horizon = wheelSlots(horizon);
    this.mask = this.horizon - 1;
    this.slotHead = new Int32Array(this.horizon).fill(-1);
    this.a = new Int32Array(0);
    this.b = new Int32Array(0);
    this.next = new Int32Array(0);
    this.grow(initial);
  }

  private grow(capacity: number): void {
    const a = new Int32Array(capacity);
    a.set(this.a);
    const b = new Int32Array(capacity);
    b.set(this.b);
    const next = new Int32Array(capacity);
    next.set(this.next);
    for (let i = capacity - 1; i >= this.capacity; i--) {
      next[i] = this.free;
      this.free = i;
    }
    this.a = a;
    this.b = b;
    this.next = next;
    this.capacity = capacity;
  }

  /** Schedules (a, b) for cycle `at`, which must lie within the horizon of `now`. */
  schedule(now: number, at: number, a: number, b: number): void {
    const delay = at - now;
    if (delay < 1 || delay >= this.horizon) throw new RangeError(`event ${delay} cycles ahead is outside the wheel's horizon of ${this.horizon}`);
    if (this.free < 0) this.grow(this.capacity * 2);
    const e = this.free;
    this.free = this.next[e];
    const slot = at & this.mask;
    this.a[e] = a;
    this.b[e] = b;
    this.next[e] = this.slotHead[slot];
    this.slotHead[slot] = e;
    this.pending++;
  }

  /** Calls `fire` for every event due at cycle `now`, and frees them. */
  fire(now: number, fire: (a: number, b: number) => void): void {
    const slot = now & this.mask;
    let e = this.slotHead[slot];
    this.slotHead[slot] = -1;
    while (e >= 0) {
      const n = this.next[e];
      fire(this.a[e], this.b[e]);
      this.next[e] = this.free;
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
