/**
 * `npm run bench [filter]`: runs every benchmark under test/bench (compiled into dist/) whose name
 * holds the filter (its words joined by spaces, in any case), prints a table and writes one JSON
 * file per run to data/bench/. A benchmark marked `isolated` runs in a child process of its own
 * (this script again, with the same Node flags, given `--only` and the benchmark's name), which
 * prints its result as JSON.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Benchmark, BenchmarkResult, machineInfo, runBenchmark } from './harness';

function format(value: number): string {
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (Math.abs(value) >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** Runs the benchmark in a fresh process and returns the result it prints. */
function runIsolated(benchmark: Benchmark): BenchmarkResult {
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, '--only', benchmark.name], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  if (child.status !== 0) throw new Error(`benchmark '${benchmark.name}' failed in its own process (exit ${child.status ?? child.signal})`);
  // The result is the last line: anything a module printed while loading comes before it.
  const lines = child.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]) as BenchmarkResult;
}

async function main(): Promise<void> {
  const only = process.argv[2] === '--only' ? process.argv[3] : undefined;
  // The filter is every argument joined: `npm run bench load 0.5` means the words "load 0.5".
  const filter = only === undefined ? process.argv.slice(2).join(' ').toLowerCase() || undefined : undefined;
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .sort();
  const results: BenchmarkResult[] = [];
  for (const file of files) {
    const { benchmarks } = (await import(join(__dirname, file))) as { benchmarks: Benchmark[] };
    for (const benchmark of benchmarks) {
      if (only !== undefined) {
        if (benchmark.name !== only) continue;
        process.stdout.write(`\n${JSON.stringify(await runBenchmark(benchmark))}\n`);
        return;
      }
      if (filter && !benchmark.name.toLowerCase().includes(filter)) continue;
      process.stderr.write(`running: ${benchmark.name}${benchmark.isolated ? ' (own process)' : ''} …\n`);
      const result = benchmark.isolated ? runIsolated(benchmark) : await runBenchmark(benchmark);
      results.push(result);
      const metrics = Object.entries(result.median)
        .map(([k, v]) => `${k}=${format(v)}`)
        .join('  ');
      process.stdout.write(`${result.name}\n    median of ${result.runs}: ${metrics}\n`);
    }
  }
  if (only !== undefined) throw new Error(`no benchmark is named '${only}'`);
  if (results.length === 0) throw new Error(`no benchmark's name holds '${filter}'`);
  const outDir = join(__dirname, '../../../data/bench');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), machine: machineInfo(), results }, null, 2));
  process.stdout.write(`\nwrote ${file}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`npm run bench: ${error.message}\n`);
  process.exitCode = 1;
});
