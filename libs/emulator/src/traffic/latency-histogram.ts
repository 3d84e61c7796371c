/**
 * Packet latencies, in whole cycles, counted per value: a run keeps one counter per cycle of
 * latency seen, not one number per packet. A drill's background traffic measures every packet, and
 * at a real load a list of them grew past what V8 can allocate (169M elements) and took the service
 * down. The counts give the same statistics the sorted list gave, exactly — the same rank for a
 * percentile, the same sum for the mean — which an HDR histogram's rounded buckets would not, and
 * the reports are held to their previous values.
 */
/** A histogram's counts as plain data (LatencyHistogram.take). */
export interface LatencyCounts {
  readonly counts: Float64Array;
  readonly beyond: readonly number[];
  readonly count: number;
  readonly sum: number;
  readonly max: number;
}

export class LatencyHistogram {
  /** Latencies up to this many cycles are counted per value (21 ms at 1.25 ns a cycle); longer ones,
   * a pathology, are kept one by one. */
  static readonly EXACT_LIMIT = 1 << 24;

  private counts = new Float64Array(1024);
  private readonly beyond: number[] = [];
  count = 0;
  sum = 0;
  max = 0;

  record(cycles: number): void {
    if (cycles >= LatencyHistogram.EXACT_LIMIT) this.beyond.push(cycles);
    else {
      // Counted at the whole cycle nearest (a chip clocked apart from the run's cycle, as Anton 2's
      // channels are, gives fractions: a fractional index was a property, not a count, and every
      // percentile came out undefined — issue 54); the sum, and so the mean, stays exact.
      const bin = Math.round(cycles);
      if (bin >= this.counts.length) this.grow(bin);
      this.counts[bin]++;
    }
    this.count++;
    this.sum += cycles;
    if (cycles > this.max) this.max = cycles;
  }

  /** The counts as plain data (the arrays are the histogram's own until it changes). */
  peek(): LatencyCounts {
    return { counts: this.counts, beyond: this.beyond, count: this.count, sum: this.sum, max: this.max };
  }

  /** The counts as plain data (to hand to another thread), and the histogram emptied. */
  take(): LatencyCounts {
    const taken = { counts: this.counts, beyond: [...this.beyond], count: this.count, sum: this.sum, max: this.max };
    this.counts = new Float64Array(1024);
    this.beyond.length = 0;
    this.count = this.sum = this.max = 0;
    return taken;
  }

  /** Adds another histogram's counts (taken with `take`) to this one's. */
  absorb(other: LatencyCounts): void {
    if (other.counts.length > this.counts.length) this.grow(other.counts.length - 1);
    for (let v = 0; v < other.counts.length; v++) this.counts[v] += other.counts[v];
    for (const cycles of other.beyond) this.beyond.push(cycles);
    this.count += other.count;
    this.sum += other.sum;
    if (other.max > this.max) this.max = other.max;
  }

  /** The value at rank ⌊q · count⌋ of the latencies in ascending order (0 when there are none). */
  quantile(q: number): number {
    if (this.count === 0) return 0;
    const rank = Math.min(this.count - 1, Math.floor(q * this.count));
    let below = 0;
    const counts = this.counts;
    for (let v = 0; v < counts.length; v++) {
      below += counts[v];
      if (below > rank) return v;
    }
    const sorted = [...this.beyond].sort((a, b) => a - b);
    return sorted[rank - below];
  }

  private grow(cycles: number): void {
    let size = this.counts.length;
    while (size <= cycles) size *= 2;
    const next = new Float64Array(Math.min(size, LatencyHistogram.EXACT_LIMIT));
    next.set(this.counts);
    this.counts = next;
  }
}
