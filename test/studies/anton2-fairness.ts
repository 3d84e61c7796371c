/**
 * Paper 004 §4.1, Fig. 9, on the emulated Anton 2 (issue 37's acceptance): every core (one per
 * router of the floorplan's endpoint adapters, 16 an ASIC) sends a batch of one-flit packets to
 * uniformly random destinations; throughput is the batch over the time to the last delivery,
 * normalised so that 1.0 keeps the most loaded torus channel busy (its load from the arbiter-load
 * analysis). With round-robin arbiters, and with inverse weights from the uniform pattern's loads.
 *
 * Beside the throughput over the whole batch, the rate while the first 10–50% and 50–90% of the
 * packets arrive (the network's steady throughput) and over the last 10% (the tail), each as a
 * fraction of the ideal rate; then where the tail comes from:
 * - `cores`: each endpoint's rate while 10–50% arrive, over the mean (the same endpoint on every
 *   ASIC pooled) — how evenly a chip's cores share its injection;
 * - `ASICs`: the spread of the ASICs' progress when half the batch has arrived;
 * - `sent`: when the sources sent their last packet, against when their last packet arrived — the
 *   batch that the network's buffers hold once the sources are done;
 * - `last 5%`: the share of the last 5% of deliveries that arrive on VC 3 (packets that moved in all
 *   three dimensions: the long routes), beside that share over the batch, and their median latency.
 * Minutes per batch size on 8×8×8; run by hand:
 *
 *   node -r ./scripts/ts-register.js test/studies/anton2-fairness.ts [k] [batch sizes, comma-separated]
 */
import { anton2ArbiterLoads, anton2WeightTable, inverseWeights } from '@weft/control';
import { Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { anton2ChipWiring, ANTON2_ENDPOINT_ADAPTERS, generateAnton2Design, keyedDraw, shippedAnton2Floorplan, Torus } from '@weft/fabric-model';
import { median, percentile } from '../bench/harness';

const CORES = [0, 2, 3, 4, 6, 9, 11, 13, 16, 19, 21, 1, 5, 7, 10, 12];
const TORUS_CYCLES_PER_FLIT = (24 * 8 * 1.5) / 89.6;
const E = ANTON2_ENDPOINT_ADAPTERS;

const k = Number(process.argv[2] ?? 8);
const batches = (process.argv[3] ?? '50,100,200').split(',').map(Number);
const shape: [number, number, number] = [k, k, k];
const floorplan = shippedAnton2Floorplan();
const loads = anton2ArbiterLoads(
  new Torus(shape),
  anton2ChipWiring(floorplan),
  { name: 'uniform' },
  { sourceEndpoints: CORES, destinationEndpoints: CORES, tieRule: 'random' },
);
const table = anton2WeightTable([loads.arbiters], 5, inverseWeights);
const busiest = Math.max(...loads.channels);
const spread = (values: number[]) => {
  const at = (p: number) => percentile(values, p).toFixed(2);
  return `${at(0)}–${at(100)} (p10 ${at(10)}, p90 ${at(90)})`;
};

for (const batch of batches)
  for (const arbitration of ['round-robin', 'inverse-weighted'] as const) {
    const sim = new Anton2Sim(new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })), floorplan, 11, { arbitration });
    sim.programDefaults();
    if (arbitration === 'inverse-weighted') for (let n = 0; n < sim.nodes; n++) sim.weights.set(table, n * table.length);
    const sources = [];
    for (let n = 0; n < sim.nodes; n++) for (const e of CORES) sources.push([n, e] as const);
    const total = sources.length * batch;
    const times: number[] = [];
    // Per source (node × 23 + endpoint): packets arrived, at 10% and at half of the batch; its last send.
    const arrived = new Int32Array(sim.nodes * E);
    let atTenth: Int32Array | null = null;
    let atHalf: Int32Array | null = null;
    const lastSent = new Float64Array(sim.nodes * E);
    let onVc3 = 0;
    let tailOnVc3 = 0;
    const tailLatency: number[] = [];
    sim.onDeliver = (p, t) => {
      times.push(t);
      const s = sim.packetSource(p) * E + sim.packetSourceEndpoint(p);
      arrived[s]++;
      if (sim.packetSentAt(p) > lastSent[s]) lastSent[s] = sim.packetSentAt(p);
      if (times.length === Math.floor(total / 10)) atTenth = arrived.slice();
      if (times.length === Math.floor(total / 2)) atHalf = arrived.slice();
      if (sim.packetVc(p) === 3) onVc3++;
      if (times.length > 0.95 * total) {
        if (sim.packetVc(p) === 3) tailOnVc3++;
        tailLatency.push(t - sim.packetSentAt(p));
      }
    };
    const nodes = sim.nodes;
    sim.startBatch(sources, batch, (_n, _e, serial) => Math.floor(keyedDraw(5, 1, serial, 0) * nodes) * 23 + CORES[serial % 16]);
    const started = performance.now();
    while (sim.inFlight > 0 || !sim.quiet) sim.run(1000);
    const last = times[times.length - 1];
    const ideal = busiest * batch * TORUS_CYCLES_PER_FLIT;
    const at = (f: number) => times[Math.floor(f * (total - 1))];
    // Packets a cycle between two fractions of the batch, over the ideal's.
    const phase = (a: number, b: number) => (((b - a) * total) / (at(b) - at(a)) / (total / ideal)).toFixed(3);
    console.log(
      `${shape.join('×')} batch ${batch} ${arbitration}: ${last} cycles, ideal ${ideal.toFixed(0)}, throughput ${(ideal / last).toFixed(3)}` +
        ` (10–50% ${phase(0.1, 0.5)}, 50–90% ${phase(0.5, 0.9)}, last 10% ${phase(0.9, 1)}; ${sim.delivered} delivered, ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
    const tenth = atTenth as Int32Array | null;
    const half = atHalf as Int32Array | null;
    if (!tenth || !half) continue;
    const steady = CORES.map((e) => {
      let sum = 0;
      for (let n = 0; n < nodes; n++) sum += half[n * E + e] - tenth[n * E + e];
      return sum / nodes;
    });
    const mean = steady.reduce((a, b) => a + b) / steady.length;
    const perAsic = Array.from({ length: nodes }, (_, n) => CORES.reduce((a, e) => a + half[n * E + e], 0) / (batch * CORES.length));
    console.log(
      `  cores ${CORES.map((e, i) => `e${e} ${(steady[i] / mean).toFixed(2)}`).join(' ')}\n` +
        `  ASICs at half ${spread(perAsic)}; sent ÷ ideal ${spread(sources.map(([n, e]) => lastSent[n * E + e] / ideal))},` +
        ` last arrival ÷ ideal ${(last / ideal).toFixed(2)}; last 5% ${((100 * tailOnVc3) / tailLatency.length).toFixed(0)}% on VC 3 (of all ${((100 * onVc3) / total).toFixed(0)}%),` +
        ` median latency ${median(tailLatency)} cycles`,
    );
  }
