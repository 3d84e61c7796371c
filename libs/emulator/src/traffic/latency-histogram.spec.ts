import { LatencyHistogram } from './latency-histogram';

describe('LatencyHistogram', () => {
  it('gives the statistics of the sorted list of latencies, exactly, in any order of arrival', () => {
    let x = 7;
    const values = Array.from({ length: 10_000 }, () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) % 5_000) + 20);
    values.push(LatencyHistogram.EXACT_LIMIT + 5, LatencyHistogram.EXACT_LIMIT + 1);
    const histogram = new LatencyHistogram();
    for (const v of values) histogram.record(v);
    const sorted = [...values].sort((a, b) => a - b);
    for (const q of [0, 0.5, 0.99, 0.9999, 1]) expect(histogram.quantile(q)).toBe(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
    expect(histogram.sum / histogram.count).toBe(sorted.reduce((a, b) => a + b, 0) / sorted.length);
    expect(histogram.max).toBe(LatencyHistogram.EXACT_LIMIT + 5);
  });

  it('keeps a counter per latency value, not a number per packet', () => {
    const histogram = new LatencyHistogram();
    for (let i = 0; i < 1_000_000; i++) histogram.record(100 + (i % 50));
    expect(histogram.count).toBe(1_000_000);
    expect(histogram.quantile(0.5)).toBe(125);
    // 1,024 counters, grown to none larger: memory in proportion to the longest latency, not to the traffic.
    expect((histogram as unknown as { counts: Float64Array }).counts.length).toBe(1024);
  });

  it('counts latencies of fractional cycles (a chip clocked apart from the run) at the nearest whole cycle, the mean exact', () => {
    const histogram = new LatencyHistogram();
    for (const v of [475.8, 843.4, 100.2, 100.6]) histogram.record(v);
    expect([histogram.quantile(0), histogram.quantile(0.5), histogram.quantile(0.99)]).toEqual([100, 476, 843]);
    expect(histogram.sum / histogram.count).toBeCloseTo((475.8 + 843.4 + 100.2 + 100.6) / 4, 10);
  });
});
