import { CpuStopwatch } from './cpu-stopwatch';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('CpuStopwatch', () => {
  it('charges a computation shorter than a scheduler tick for the CPU it took, every time', () => {
    // Thread CPU time is kept in whole ticks (1–10 ms): timed by it, most 1 ms computations cost 0.
    const readings: number[] = [];
    for (let i = 0; i < 20; i++) {
      const stopwatch = new CpuStopwatch();
      spin(1);
      readings.push(stopwatch.cpuMs());
    }
    for (const ms of readings) {
      expect(ms).toBeGreaterThan(0.5);
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
