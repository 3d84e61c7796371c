import { CpuStopwatch } from './cpu-stopwatch';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A fixed amount of work (the same CPU whatever the machine's load does to its wall time). */
let sink = 0;
function work(iterations: number): void {
  let x = sink;
  for (let i = 0; i < iterations; i++) x = (x * 31 + i) % 1_000_003;
  sink = x;
}

/** The wall time of `iterations` of work at its least interrupted, of four timings. */
function fastestOf(iterations: number): number {
  let fastest = Infinity;
  for (let i = 0; i < 4; i++) {
    const began = performance.now();
    work(iterations);
    fastest = Math.min(fastest, performance.now() - began);
  }
  return fastest;
}

describe('CpuStopwatch', () => {
  it('charges a computation shorter than a scheduler tick for the CPU it took, every time', () => {
    // Work sized to about 1 ms.
    const iterations = Math.max(1, Math.round(100_000 / fastestOf(100_000)));
    const fastest = fastestOf(iterations);
    // Thread CPU time is kept in whole ticks (1–10 ms): timed by it, most 1 ms computations cost 0.
    // The stopwatch charges each what it took, though other work on the machine interrupts it.
    const readings: number[] = [];
    for (let i = 0; i < 20; i++) {
      const stopwatch = new CpuStopwatch();
      work(iterations);
      readings.push(stopwatch.cpuMs());
    }
    for (const ms of readings) {
      expect(ms).toBeGreaterThan(fastest / 2);
      expect(ms).toBeLessThan(50);
    }
  });

  it('never charges more than the wall time', () => {
    const stopwatch = new CpuStopwatch();
    spin(3);
    const cpu = stopwatch.cpuMs();
    expect(cpu).toBeLessThanOrEqual(stopwatch.wallMs());
  });
});
