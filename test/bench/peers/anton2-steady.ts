/**
 * weft's side of test/bench/peers/booksim-torus.sh (issue 56): an emulated Anton 2 torus under
 * uniform random one-flit packets from 16 cores a node at a fraction of saturation (as the anton2
 * bench: saturation is where the most loaded torus channel is full), warmed up, then timed.
 * Prints one JSON line: torus channel crossings (flit link-hops on the torus, what BookSim2's
 * torus routers' hops are), every flit-hop (mesh, skip and adapter channels too), wall and CPU
 * seconds of the timed part.
 *
 *   node dist/test/bench/peers/anton2-steady.js [k] [load] [warmup cycles] [cycles]
 */
import { Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { generateAnton2Design, keyedDraw, shippedAnton2Floorplan } from '@weft/fabric-model';

/** One sending core per router of the floorplan's endpoint adapters, then round again: 16 a node. */
const CORES = [0, 2, 3, 4, 6, 9, 11, 13, 16, 19, 21, 1, 5, 7, 10, 12];
/** Torus cycles a flit: 24 bytes at 89.6 Gb/s in 1.5 GHz cycles. */
const TORUS_CYCLES_PER_FLIT = (24 * 8 * 1.5) / 89.6;

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
  const shape: [number, number, number] = [k, k, k];
  const sim = new Anton2Sim(new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })), shippedAnton2Floorplan(), 3);
  sim.programDefaults();
  const sources: (readonly [number, number])[] = [];
  for (let n = 0; n < sim.nodes; n++) for (const e of CORES) sources.push([n, e]);
  const nodes = sim.nodes;
  // The most loaded torus channel carries k packets a unit of per-core rate under uniform traffic.
  sim.startSteady(
    sources,
    load / (TORUS_CYCLES_PER_FLIT * k),
    1e12,
    (_n, _e, serial) => Math.floor(keyedDraw(5, 1, serial, 0) * nodes) * 23 + CORES[serial % 16],
  );
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

main();
