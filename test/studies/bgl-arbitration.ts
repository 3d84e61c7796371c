/**
 * Paper 002 §2 and §4, Fig. 4, on the emulated BlueGene/L (issue 57, item 4): response time under
 * the "light traffic, random destination workload" for the arbitration policies — the "base"
 * policy's random choices, SLQ (75 % of the receivers' and senders' cycles serve the longest queue)
 * and JSQ (a dynamic packet joins the direction and VC with the most free tokens, by 2-bit range) —
 * where §4 reports that "at 95% link utilization, the average response time is reduced by about
 * 20%" with JSQ.
 *
 * The set-up follows §3's simulator: packets are generated as a Poisson stream at every node (a
 * rate per node, destinations uniform over the other nodes) and placed in unbounded injection
 * FIFOs at once (`injectionFifoChunks` 0); a packet's response time runs from its generation to its
 * delivery into the destination's reception FIFO. Packets are 256 bytes (8 chunks; the paper does
 * not give the workload driver's sizes — a named setting here), dynamically routed. Each point warms
 * up, then measures the link utilisation (bytes crossing, BglTorusSim.linkBytes) and the mean
 * response time of the packets generated in a window, running on until all of them are delivered.
 *
 * The paper's machine is 32×32×32; the default here is 16×16×16 (scaled: 12 hops on average
 * against 24, so response times are shorter; the utilisation axis is the same). Run by hand:
 *
 *   node -r ./scripts/ts-register.js test/studies/bgl-arbitration.ts [x,y,z] [utilisations,…] [warm-up cycles] [window cycles] [policies,…] [settings JSON]
 */
import { DEFAULT_BGL_POLICY } from '@weft/control';
import { BglSettings, bglSettings, BglTorusSim, DEFAULT_BGL_SETTINGS, EmulatedFabric } from '@weft/emulator';
import { generateBglDesign, makePattern, TIE_RULES, TieRule } from '@weft/fabric-model';
import { meanTorusHops, poissonDriver } from './bgl-workload';

const shape = (process.argv[2] ?? '16,16,16').split(',').map(Number) as [number, number, number];
const targets = (process.argv[3] ?? '0.5,0.7,0.8,0.9,0.95').split(',').map(Number);
const warmup = Number(process.argv[4] ?? 20_000);
const window = Number(process.argv[5] ?? 20_000);
if (shape.length !== 3 || shape.some((k) => !Number.isInteger(k) || k < 2 || k > 64))
  throw new Error(`bgl-arbitration: shape ${process.argv[2]} is not x,y,z of 2..64`);
if (targets.some((u) => !(u > 0 && u <= 1.2))) throw new Error(`bgl-arbitration: utilisations must be in (0, 1.2], got ${process.argv[3]}`);
for (const [what, value] of [
  ['warm-up', warmup],
  ['window', window],
] as const)
  if (!Number.isInteger(value) || value < 1000) throw new Error(`bgl-arbitration: ${what} must be a whole number of cycles ≥ 1000, got ${value}`);

const PACKET_CHUNKS = 8;
/** Cycles after the window that a point may take to deliver the window's packets before it is called saturated. */
const DRAIN_LIMIT = 100_000;
const POLICIES: { name: string; settings: Partial<BglSettings> }[] = [
  { name: 'base (random)', settings: { packetArbitration: 'random', slqFraction: 0 } },
  { name: 'SLQ 75 %', settings: { packetArbitration: 'random', slqFraction: 0.75 } },
  { name: 'JSQ', settings: { packetArbitration: 'jsq', slqFraction: 0 } },
  { name: 'JSQ + SLQ 75 %', settings: { packetArbitration: 'jsq', slqFraction: 0.75 } },
];
const MEASURED = 1;
const chosen = process.argv[6] ? process.argv[6].split(',') : POLICIES.map((p) => p.name);
for (const name of chosen)
  if (!POLICIES.some((p) => p.name === name)) throw new Error(`bgl-arbitration: no policy "${name}"; choose from ${POLICIES.map((p) => p.name).join(', ')}`);
const RUN = POLICIES.filter((p) => chosen.includes(p.name));
/**
 * Further settings for every policy, as JSON (checked by bglSettings: a bad value names the
 * setting), and `tieRule`: where the hint registers send an offset of k/2 (torus.ts: TieRule).
 */
function furtherSettings(text: string): Partial<BglSettings> & { tieRule?: TieRule } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`bgl-arbitration: the settings argument is not JSON (${(e as Error).message}): ${text}`, { cause: e });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`bgl-arbitration: the settings argument must be a JSON object, got ${text}`);
  const unknown = Object.keys(value).filter((key) => key !== 'tieRule' && !(key in DEFAULT_BGL_SETTINGS));
  if (unknown.length > 0)
    throw new Error(`bgl-arbitration: no BG/L setting ${unknown.join(', ')}; the settings are tieRule, ${Object.keys(DEFAULT_BGL_SETTINGS).join(', ')}`);
  return value;
}
const { tieRule = DEFAULT_BGL_POLICY.tieRule, ...extra } = furtherSettings(process.argv[7] ?? '{}');
bglSettings(extra);
if (!TIE_RULES.includes(tieRule)) throw new Error(`bgl-arbitration: tieRule is ${TIE_RULES.join(' or ')}, not ${String(tieRule)}`);

const design = generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 });
const meanHops = meanTorusHops(shape);

interface Point {
  utilisation: number;
  response: number | null;
  delivered: number;
}

function point(settings: Partial<BglSettings>, target: number): Point {
  const sim = new BglTorusSim(new EmulatedFabric(design), 1, { ...extra, ...settings, injectionFifoChunks: 0 });
  sim.programMinimalRouting(tieRule);
  const n = sim.nodes;
  const links = sim.outNode.reduce((count, m) => count + (m >= 0 ? 1 : 0), 0);
  // Link bytes a packet puts on the torus ≈ its chunks times its hops; the rate that makes `target`.
  const perNode = (target * links) / (n * PACKET_CHUNKS * 32 * meanHops);
  let tag = 0;
  let response = 0;
  let delivered = 0;
  sim.onDeliver = (p, cycle) => {
    if (sim.packetTag(p) !== MEASURED) return;
    response += cycle - sim.packetSentAt(p);
    delivered++;
  };
  const generate = poissonDriver(sim, perNode, PACKET_CHUNKS, makePattern({ kind: 'uniform-random' }, { endpoints: n }).destination, 20261129, () => tag);
  sim.run(warmup, generate);
  const before = sim.linkBytes().reduce((a, b) => a + b, 0);
  tag = MEASURED;
  sim.run(window, generate);
  const utilisation = (sim.linkBytes().reduce((a, b) => a + b, 0) - before) / (links * window);
  tag = 0;
  for (let waited = 0; sim.packetsAlive(MEASURED) > 0 && waited < DRAIN_LIMIT; waited += 1000) sim.run(1000, generate);
  return { utilisation, response: sim.packetsAlive(MEASURED) > 0 ? null : response / delivered, delivered };
}

console.log(
  `Fig. 4 on ${shape.join('×')}: ${PACKET_CHUNKS * 32}-byte packets to random destinations, ${meanHops.toFixed(2)} hops on average; warm-up ${warmup}, window ${window} cycles`,
);
console.log(`offered   ${RUN.map((p) => p.name.padStart(26)).join('')}`);
const results: Point[][] = [];
for (const target of targets) {
  const row = RUN.map((policy) => point(policy.settings, target));
  results.push(row);
  console.log(
    `${target.toFixed(2).padEnd(9)} ${row.map((r) => `${r.utilisation.toFixed(3)} ${r.response === null ? 'saturated' : `${r.response.toFixed(0)} cycles`}`.padStart(26)).join('')}`,
  );
}
console.log('(each cell: link utilisation measured, mean response time)');
console.log(`JSQ's response time against the base policy's (paper: about 0.8 at 95 % utilisation):`);
results.forEach((row, i) => {
  const base = row[RUN.findIndex((p) => p.name === 'base (random)')];
  const jsq = row[RUN.findIndex((p) => p.name === 'JSQ')];
  if (base && jsq && base.response !== null && jsq.response !== null)
    console.log(
      `  at ${base.utilisation.toFixed(3)} / ${jsq.utilisation.toFixed(3)} utilisation (offered ${targets[i]}): ${(jsq.response / base.response).toFixed(3)}`,
    );
});
