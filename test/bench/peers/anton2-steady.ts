/**
 * weft's side of test/bench/peers/booksim-torus.sh (issue 56): an emulated Anton 2 torus under
 * uniform random one-flit packets from 16 cores a node at a fraction of saturation, as the anton2
 * bench runs it (anton2-load.ts), warmed up, then timed.
 * Prints one JSON line: torus channel crossings (flit link-hops on the torus, what BookSim2's
 * torus routers' hops are), every flit-hop (mesh, skip and adapter channels too), wall and CPU
 * seconds of the timed part.
 *
 *   node dist/test/bench/peers/anton2-steady.js [k] [load] [warmup cycles] [cycles]
 */
import { anton2AtLoad } from '../anton2-load';

function wholeArgument(index: number, fallback: number, name: string): number {
  const text = process.argv[index];
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!(Number.isFinite(n) && n > 0)) throw new Error(`${name} must be a positive number, got '${text}'`);
  return n;
}

function main(): void {
  const k = wholeArgument(2, 8, 'k');
  const load = wholeArgument(3, 0.5, 'load');
  const warmup = wholeArgument(4, 1_500, 'warm-up cycles');
  const cycles = wholeArgument(5, 1_000, 'cycles');
  if (!Number.isInteger(k) || k < 2 || k > 16) throw new Error(`k must be a whole number from 2 to 16, got ${k}`);
  if (load > 1) throw new Error(`load is a fraction of saturation, at most 1, got ${load}`);
  const sim = anton2AtLoad([k, k, k], load);
  sim.run(warmup);
  const hops = sim.flitHops;
  const torus = sim.torusFlitHops;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  sim.run(cycles);
  const used = process.cpuUsage(cpu);
  process.stdout.write(
    `${JSON.stringify({
      k,
      load,
      cycles,
      torusLinkHops: sim.torusFlitHops - torus,
      flitHops: sim.flitHops - hops,
      wallSeconds: (performance.now() - wall) / 1000,
      cpuSeconds: (used.user + used.system) / 1e6,
    })}\n`,
  );
}

try {
  main();
} catch (error) {
  process.stderr.write(`anton2-steady: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
