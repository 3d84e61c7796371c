/**
 * A calendar of a torus engine's events (BG/L's, Anton 2's): one bucket per cycle of a horizon that is a power of
 * two, each bucket a growable run of fixed-size records (kind and three integers). Events for the
 * cycle being processed may be added while it is (a zero-latency arbitration).
 *
 * An event beyond the horizon — rare: a link so noisy that go-back-N resends a packet for
 * thousands of cycles (issue 56's soak found BG/L's host thrown out by one) — waits in a short list
 * of far events and joins its cycle's bucket when that cycle's events are first counted; `nextBusy`
 * and `pending` count it all along.
 */
export const EVENT_INTS = 4;

export class EventWheel {
  private readonly mask: number;
  private readonly data: Int32Array[];
  private readonly length: Int32Array;
  pending = 0;
  /** Events beyond the horizon when added: their cycles, their records (EVENT_INTS each), how many, and the earliest cycle. */
  private farAt: number[] = [];
  private farData: number[] = [];
  private farNext = Infinity;

  constructor(readonly horizon: number) {
    if (horizon < 2 || (horizon & (horizon - 1)) !== 0) throw new RangeError(`the event horizon must be a power of two, got ${horizon}`);
    this.mask = horizon - 1;
    this.data = Array.from({ length: horizon }, () => new Int32Array(8 * EVENT_INTS));
    this.length = new Int32Array(horizon);
  }

  /** Adds an event at cycle `at` (now ≤ at; beyond the horizon, it waits among the far events). */
  add(now: number, at: number, kind: number, a: number, b: number, c: number): void {
    if (at < now) throw new RangeError(`an event at cycle ${at} is in the past of cycle ${now}`);
    if (at - now >= this.horizon) {
      this.farAt.push(at);
      this.farData.push(kind, a, b, c);
      if (at < this.farNext) this.farNext = at;
      this.pending++;
      return;
    }
    this.put(at, kind, a, b, c);
  }

  private put(at: number, kind: number, a: number, b: number, c: number): void {
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

  /** The far events due at cycle `at` join its bucket (they stay pending, now there). */
  private bringNear(at: number): void {
    const farAt = this.farAt;
    const farData = this.farData;
    let kept = 0;
    let next = Infinity;
    for (let i = 0; i < farAt.length; i++) {
      const when = farAt[i];
      if (when <= at) {
        this.pending--;
        this.put(at, farData[4 * i], farData[4 * i + 1], farData[4 * i + 2], farData[4 * i + 3]);
        continue;
      }
      if (when < next) next = when;
      farAt[kept] = when;
      for (let k = 0; k < EVENT_INTS; k++) farData[EVENT_INTS * kept + k] = farData[EVENT_INTS * i + k];
      kept++;
    }
    farAt.length = kept;
    farData.length = EVENT_INTS * kept;
    this.farNext = next;
  }

  /** The records of cycle `at`'s bucket (read with `count`; they may grow while read). */
  bucket(at: number): Int32Array {
    return this.data[at & this.mask];
  }

  /** The cycle of the first far event (Infinity: none). */
  get firstFar(): number {
    return this.farNext;
  }

  /** Records in cycle `at`'s bucket (×EVENT_INTS); far events due then join it on the first count. */
  count(at: number): number {
    if (at >= this.farNext) this.bringNear(at);
    return this.length[at & this.mask];
  }

  /**
   * The first cycle from `from` (the present) before `until` that has an event, or `until`: the
   * buckets hold the events within the horizon from the present, so at most one horizon is looked
   * at, and the far events are due no earlier than the first of them.
   */
  nextBusy(from: number, until: number): number {
    if (this.pending === 0) return until;
    const end = until < this.farNext ? until : this.farNext < from ? from : this.farNext;
    const last = end < from + this.horizon ? end : from + this.horizon;
    for (let c = from; c < last; c++) if (this.length[c & this.mask] !== 0) return c;
    return end;
  }

  /** Empties cycle `at`'s bucket once its events are done. */
  clear(at: number): void {
    const slot = at & this.mask;
    this.pending -= this.length[slot] / EVENT_INTS;
    this.length[slot] = 0;
  }
}
