/**
 * A calendar of a torus engine's events (BG/L's, Anton 2's): one bucket per cycle of a horizon that is a power of
 * two, each bucket a growable run of fixed-size records (kind and three integers). Events for the
 * cycle being processed may be added while it is (a zero-latency arbitration); an event beyond the
 * horizon is a programming error, refused.
 */
export const EVENT_INTS = 4;

export class EventWheel {
  private readonly mask: number;
  private readonly data: Int32Array[];
  private readonly length: Int32Array;
  pending = 0;

  constructor(readonly horizon: number) {
    if (horizon < 2 || (horizon & (horizon - 1)) !== 0) throw new RangeError(`the event horizon must be a power of two, got ${horizon}`);
    this.mask = horizon - 1;
    this.data = Array.from({ length: horizon }, () => new Int32Array(8 * EVENT_INTS));
    this.length = new Int32Array(horizon);
  }

  /** Adds an event at cycle `at` (now ≤ at < now + horizon). */
  add(now: number, at: number, kind: number, a: number, b: number, c: number): void {
    if (at < now || at - now >= this.horizon) throw new RangeError(`an event at cycle ${at} is outside the horizon from cycle ${now} (${this.horizon} cycles)`);
    const slot = at & this.mask;
    let data = this.data[slot];
    const n = this.length[slot];
    if (n + EVENT_INTS > data.length) {
      const grown = new Int32Array(data.length * 2);
      grown.set(data);
      this.data[slot] = data = grown;
    }
    data[n] = kind;
    data[n + 1] = a;
    data[n + 2] = b;
    data[n + 3] = c;
    this.length[slot] = n + EVENT_INTS;
    this.pending++;
  }

  /** The records of cycle `at`'s bucket (read with `count`; they may grow while read). */
  bucket(at: number): Int32Array {
    return this.data[at & this.mask];
  }

  count(at: number): number {
    return this.length[at & this.mask];
  }

  /**
   * The first cycle from `from` (the present) before `until` that has an event, or `until`: every
   * pending event lies within the horizon from the present, so at most one horizon is looked at.
   */
  nextBusy(from: number, until: number): number {
    if (this.pending === 0) return until;
    const last = until < from + this.horizon ? until : from + this.horizon;
    for (let c = from; c < last; c++) if (this.length[c & this.mask] !== 0) return c;
    return until;
  }

  /** Empties cycle `at`'s bucket once its events are done. */
  clear(at: number): void {
    const slot = at & this.mask;
    this.pending -= this.length[slot] / EVENT_INTS;
    this.length[slot] = 0;
  }
}
