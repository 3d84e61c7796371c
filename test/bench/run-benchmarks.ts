/**
 * `npm run bench [filter]`: runs every benchmark under test/bench (compiled into dist/), prints a
 * table and writes one JSON file per run to data/bench/.
 */
import 'reflect-metadata';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Benchmark, BenchmarkResult, machineInfo, runBenchmark } from './harness';

function format(value: number): string {
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (Math.abs(value) >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

async function main(): Promise<void> {
  const filter = process.argv[2]?.toLowerCase();
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .sort();
  const results: BenchmarkResult[] = [];
  for (const file of files) {
    const { benchmarks } = (await import(join(__dirname, file))) as { benchmarks: Benchmark[] };
    for (const benchmark of benchmarks) {
      if (filter && !benchmark.name.toLowerCase().includes(filter)) continue;
      process.stderr.write(`running: ${benchmark.name} …\n`);
      const result = await runBenchmark(benchmark);
      results.push(result);
      const metrics = Object.entries(result.median)
        .map(([k, v]) => `${k}=${format(v)}`)
        .join('  ');
      process.stdout.write(`${result.name}\n    median of ${result.runs}: ${metrics}\n`);
    }
  }
  const outDir = join(__dirname, '../../../data/bench');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), machine: machineInfo(), results }, null, 2));
  process.stdout.write(`\nwrote ${file}\n`);
}

void main();
