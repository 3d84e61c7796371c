/**
 * The benchmark harness behind `npm run bench`: each benchmark runs a fixed workload a few times
 * after warm-up, and reports the median (and spread) of every measured quantity. Benchmarks are
 * not tests and gate nothing; the machines are shared and noisy, which is why medians are used.
 */
import { cpus, totalmem, platform, release } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Measurement {
  /** Wall time of the measured part, in milliseconds. */
  ms: number;
  /** Further quantities a run measured (rates, sizes), by name. */
  [metric: string]: number;
}

export interface Benchmark {
  name: string;
  /** Fixed sizes and settings of the workload, reported with the results. */
  parameters: Record<string, string | number | boolean>;
  warmup?: number;
  runs?: number;
  /**
   * Runs in a process of its own. V8's compiled code and type feedback are per process, so a
   * workload that takes other paths through the same functions (a saturated fabric's waits, say)
   * leaves code behind that is slower for the next one: the 19-phit emulator workload measured
   * 5.97M phit-hops/s after the saturated one and 12.3M alone.
   */
  isolated?: boolean;
  /** Prepares state for the runs; its cost is not measured. */
  setup?: () => Promise<void> | void;
  run: () => Promise<Measurement> | Measurement;
  teardown?: () => Promise<void> | void;
}

export interface BenchmarkResult {
  name: string;
  parameters: Benchmark['parameters'];
  runs: number;
  median: Record<string, number>;
  min: Record<string, number>;
  max: Record<string, number>;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function runBenchmark(benchmark: Benchmark): Promise<BenchmarkResult> {
  await benchmark.setup?.();
  try {
    for (let i = 0; i < (benchmark.warmup ?? 1); i++) await benchmark.run();
    const measurements: Measurement[] = [];
    for (let i = 0; i < (benchmark.runs ?? 5); i++) measurements.push(await benchmark.run());
    const keys = Object.keys(measurements[0]);
    const pick = (f: (v: number[]) => number) => Object.fromEntries(keys.map((k) => [k, f(measurements.map((m) => m[k]))]));
    return {
      name: benchmark.name,
      parameters: benchmark.parameters,
      runs: measurements.length,
      median: pick(median),
      min: pick((v) => Math.min(...v)),
      max: pick((v) => Math.max(...v)),
    };
  } finally {
    await benchmark.teardown?.();
  }
}

export function machineInfo() {
  const cpu = cpus();
  return {
    node: process.version,
    /** The flags the runner was started with (`npm run bench` passes the service's own, see README). */
    nodeFlags: process.execArgv,
    platform: `${platform()} ${release()}`,
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

let gc: (() => void) | undefined;

/**
 * Collects all garbage now (a full, blocking collection), so that a timed section does not pay for
 * what earlier runs left behind — a previous run's 32K fabric is more than a gigabyte. Benchmarks
 * call it before they start the clock.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Times a synchronous or asynchronous piece of work in milliseconds. */
export async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}
