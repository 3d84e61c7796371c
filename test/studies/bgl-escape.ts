/**
 * Paper 002 §4, "Virtual Channel Architecture", Figs. 7–8, on the emulated BlueGene/L (issue 57,
 * item 5): throughput over time under the hot-region workload for the escape-VC architectures —
 * BG/L's bubble escape or a dateline pair ("two escape VCs per direction … before crossing the
 * dateline, the escape VC is the lower numbered of the pair, … after … the higher"), each dimension
 * ordered or direction ordered. The paper: "the dimension ordered dateline pair shows particularly
 * poor and wild behavior, with a steep decline in throughput, followed by a rise and then another
 * steep decline", waves that "persist even over this much longer time scale" (Fig. 8, per VC),
 * where the bubble's throughput declines and levels off.
 *
 * The workload is Fig. 3's: a quarter of the packets go to the hot region, the 12.5 % of the
 * machine whose coordinates are all below half the torus side (it "starts at coordinates
 * (0,0,0)"), the rest uniformly; the datelines are at the maximum coordinate (the wrap-around link).
 * Packets are generated as §3's driver does (bgl-workload.ts), 256 bytes each, at `offered` bytes a
 * cycle a node — beyond what the links into the hot region carry, so that the buffers fill.
 * Throughput is delivered bytes a cycle a node over 10,000-cycle intervals, as the paper measures
 * it; for each architecture the study also prints the share of link bytes on each VC (Fig. 8) and
 * the swing of its throughput after the first 50,000 cycles: the largest interval over the
 * smallest, and how many times the throughput turns by more than 5 % of its mean. Run by hand
 * (minutes on 16×16×16, the paper's 4K):
 *
 *   node -r ./scripts/ts-register.js test/studies/bgl-escape.ts [x,y,z] [offered B/cycle/node] [cycles] [architectures: bubble-dimension,…]
 */
import { DEFAULT_BGL_POLICY } from '@weft/control';
import { BglSettings, BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { BGL_VCS, generateBglDesign } from '@weft/fabric-model';
import { hotRegionDestination, poissonDriver } from './bgl-workload';

const shape = (process.argv[2] ?? '16,16,16').split(',').map(Number) as [number, number, number];
const offered = Number(process.argv[3] ?? 0.5);
const cycles = Number(process.argv[4] ?? 200_000);
const PACKET_CHUNKS = 8;
const HOT_FRACTION = 0.25;
const INTERVAL = 10_000;
const SETTLED = 50_000;
const TURN = 0.05;
const ARCHITECTURES: Record<string, Partial<BglSettings>> = {
  'bubble-dimension': { escapeChannels: 'bubble', escapeOrder: 'dimension' },
  'bubble-direction': { escapeChannels: 'bubble', escapeOrder: 'direction' },
  'dateline-dimension': { escapeChannels: 'dateline-pair', escapeOrder: 'dimension' },
  'dateline-direction': { escapeChannels: 'dateline-pair', escapeOrder: 'direction' },
};
const chosen = (process.argv[5] ?? Object.keys(ARCHITECTURES).join(',')).split(',');
if (shape.length !== 3 || shape.some((k) => !Number.isInteger(k) || k < 2 || k > 64))
  throw new Error(`bgl-escape: shape ${process.argv[2]} is not x,y,z of 2..64`);
if (!(offered > 0 && offered <= 8)) throw new Error(`bgl-escape: offered load must be in (0, 8] bytes a cycle a node, got ${process.argv[3]}`);
/** Cycles a run needs: the settling, then at least two intervals to measure its swing over. */
const SHORTEST = SETTLED + 2 * INTERVAL;
if (!Number.isInteger(cycles) || cycles < SHORTEST) throw new Error(`bgl-escape: cycles must be a whole number ≥ ${SHORTEST}, got ${process.argv[4]}`);
for (const name of chosen)
  if (!ARCHITECTURES[name]) throw new Error(`bgl-escape: no architecture ${name}; choose from ${Object.keys(ARCHITECTURES).join(', ')}`);

const design = generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 });
const side = shape.map((k) => k / 2);
console.log(
  `Figs. 7–8 on ${shape.join('×')}: ${HOT_FRACTION * 100} % of ${PACKET_CHUNKS * 32}-byte packets to the ${side.join('×')} region at (0,0,0), offered ${offered} B/cycle/node, ${INTERVAL}-cycle intervals`,
);
console.log(
  'paper (Figs. 7–8): the dimension-ordered dateline pair declines steeply, rises, declines again, in waves that persist; the bubble declines and levels off',
);
for (const name of chosen) {
  const started = performance.now();
  const sim = new BglTorusSim(new EmulatedFabric(design), 1, { ...ARCHITECTURES[name], injectionFifoChunks: 0 });
  sim.programMinimalRouting(DEFAULT_BGL_POLICY.tieRule);
  const n = sim.nodes;
  let bytes = 0;
  sim.onDeliver = (p) => {
    bytes += sim.packetChunks(p) * 32;
  };
  const generate = poissonDriver(sim, offered / (PACKET_CHUNKS * 32), PACKET_CHUNKS, hotRegionDestination(sim, HOT_FRACTION, side), 20261129);
  const series: number[] = [];
  const shares: number[][] = [];
  let vcBefore: Float64Array = new Float64Array(sim.linkVcBytes().length);
  for (let t = 0; t < cycles; t += INTERVAL) {
    const before = bytes;
    sim.run(INTERVAL, generate);
    series.push((bytes - before) / (n * INTERVAL));
    const vc = sim.linkVcBytes();
    const perVc = new Array<number>(BGL_VCS).fill(0);
    for (let i = 0; i < vc.length; i++) perVc[i % BGL_VCS] += vc[i] - vcBefore[i];
    const total = perVc.reduce((a, b) => a + b, 0) || 1;
    shares.push(perVc.map((v) => v / total));
    vcBefore = vc;
  }
  const settled = series.slice(SETTLED / INTERVAL);
  const mean = settled.reduce((a, b) => a + b, 0) / settled.length;
  // Turns: the throughput reverses direction after moving by more than TURN of the mean.
  let turns = 0;
  let direction = 0;
  let anchor = settled[0];
  for (const v of settled) {
    const move = v - anchor;
    if (Math.abs(move) < TURN * mean) continue;
    const now = Math.sign(move);
    if (direction !== 0 && now !== direction) turns++;
    direction = now;
    anchor = v;
  }
  console.log(`\n${name} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  console.log(`  throughput ${series.map((v) => v.toFixed(3)).join(' ')}`);
  console.log(`  VC shares  ${shares.map((s) => s.map((v) => (100 * v).toFixed(0)).join('/')).join(' ')}  (VC 0/1/2/3, % of link bytes)`);
  console.log(
    `  after ${SETTLED} cycles: mean ${mean.toFixed(3)}, largest/smallest ${(Math.max(...settled) / Math.min(...settled)).toFixed(2)}, turns by > ${TURN * 100} % of the mean: ${turns}`,
  );
}
