/**
 * Paper 002 §4, Fig. 6, on the emulated BlueGene/L (issue 57, item 6): during an all-to-all on the
 * 32K-node 32×32×32 torus, dynamic routing, the links are "approximately 98%" busy (packet headers,
 * CRC trailers and token acks included) and the payload — 240 bytes of a 256-byte packet —
 * occupies 87% of them; on the asymmetric 32×16×16, 49% and 44%.
 *
 * Every node sends 256-byte packets (8 chunks) to every other node, each in an order of its own (a
 * stride through the others), keeping 32 of its packets in flight (the paper's software keeps the
 * injection FIFOs fed; its simulator's were unbounded). Link bytes are counted as they cross
 * (BglTorusSim.linkBytes), window by window; the run is in steady state once the mean of three windows running is
 * within 1% of the three before — the buffers take tens of thousands of cycles to fill, so a figure over the
 * whole run, printed beside, reads otherwise. The steady figure is the mean of the next `measure`
 * windows.
 *
 * Minutes on 32×32×32; run by hand, the shape scaled where stated:
 *
 *   node -r ./scripts/ts-register.js test/studies/bgl-all-to-all.ts [x,y,z] [window cycles] [measured windows]
 */
import { DEFAULT_BGL_POLICY } from '@weft/control';
import { BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { generateBglDesign } from '@weft/fabric-model';

const shape = (process.argv[2] ?? '32,32,32').split(',').map(Number) as [number, number, number];
const window = Number(process.argv[3] ?? 2000);
const measure = Number(process.argv[4] ?? 3);
const PACKET_CHUNKS = 8;
const PAYLOAD_BYTES = 240;
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 32);
const STEADY_SPREAD = 0.01;
/** Windows a side: the run is steady once the mean link use of the last AGREEING windows is within STEADY_SPREAD of the AGREEING before them. */
const AGREEING = 3;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const MOST_WINDOWS = 60;

const sim = new BglTorusSim(new EmulatedFabric(generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 })), 1);
sim.programMinimalRouting(DEFAULT_BGL_POLICY.tieRule);
const n = sim.nodes;
const links = sim.outNode.reduce((count, m) => count + (m >= 0 ? 1 : 0), 0);
// Each node's order through the others: a stride coprime to n − 1, from an offset of its own.
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const strides = Int32Array.from({ length: n }, (_, s) => {
  let stride = 1 + ((s * 7919) % (n - 1));
  while (gcd(stride, n - 1) !== 1) stride = 1 + (stride % (n - 1));
  return stride;
});
const sent = new Int32Array(n);
const outstanding = new Int32Array(n);
let payload = 0;
sim.onDeliver = (p) => {
  outstanding[sim.packetSource(p)]--;
  payload += PAYLOAD_BYTES * sim.packetHops(p);
};
const feed = () => {
  for (let s = 0; s < n; s++)
    while (outstanding[s] < IN_FLIGHT) {
      const i = (sent[s]++ * strides[s] + s) % (n - 1);
      sim.send(s, (s + 1 + i) % n, PACKET_CHUNKS, { routing: 'dynamic' });
      outstanding[s]++;
    }
};

const started = performance.now();
const total = (bytes: Float64Array) => bytes.reduce((a, b) => a + b, 0);
let before = total(sim.linkBytes());
let payloadBefore = 0;
const series: { link: number; payload: number }[] = [];
let steadyAt = -1;
for (let w = 0; w < MOST_WINDOWS && (steadyAt < 0 || series.length < steadyAt + measure); w++) {
  sim.run(window, feed);
  const now = total(sim.linkBytes());
  series.push({ link: (now - before) / (links * window), payload: (payload - payloadBefore) / (links * window) });
  before = now;
  payloadBefore = payload;
  if (steadyAt < 0 && series.length >= 2 * AGREEING) {
    const last = mean(series.slice(-AGREEING).map((s) => s.link));
    const previous = mean(series.slice(-2 * AGREEING, -AGREEING).map((s) => s.link));
    if (Math.abs(last - previous) / last < STEADY_SPREAD) steadyAt = series.length;
  }
}
const steady = steadyAt < 0 ? [] : series.slice(steadyAt, steadyAt + measure);
const symmetric = shape[0] === shape[1] && shape[1] === shape[2];
console.log(`all-to-all on ${shape.join('×')} (${n} nodes, ${links} links), dynamic routing, 256-byte packets, windows of ${window} cycles`);
console.log('window  link   payload');
series.forEach((s, i) =>
  console.log(`${String(i + 1).padStart(6)}  ${s.link.toFixed(3)}  ${s.payload.toFixed(3)}${i + 1 === steadyAt ? '   ← steady from here' : ''}`),
);
console.log(`\npaper (Fig. 6${symmetric ? '' : '; §4 for 32×16×16'}): link ≈ ${symmetric ? '0.98' : '0.49'}, payload ≈ ${symmetric ? '0.87' : '0.44'}`);
if (steady.length > 0)
  console.log(
    `weft, steady (windows ${steadyAt + 1}–${steadyAt + steady.length}): link ${mean(steady.map((s) => s.link)).toFixed(3)}, payload ${mean(steady.map((s) => s.payload)).toFixed(3)}`,
  );
else console.log(`weft: no three windows agreed within ${STEADY_SPREAD * 100}% in ${MOST_WINDOWS}: no steady state`);
console.log(`weft, the whole run: link ${mean(series.map((s) => s.link)).toFixed(3)}, payload ${mean(series.map((s) => s.payload)).toFixed(3)}`);
console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
