/**
 * Paper 004 §4.1, Fig. 9, on the emulated Anton 2 (issue 37's acceptance): every core (one per
 * router of the floorplan's endpoint adapters, 16 an ASIC) sends a batch of one-flit packets to
 * uniformly random destinations; throughput is the batch over the time to the last delivery,
 * normalised so that 1.0 keeps the most loaded torus channel busy (its load from the arbiter-load
 * analysis). With round-robin arbiters, and with inverse weights from the uniform pattern's loads.
 * Beside the throughput over the whole batch, the rate while the first 10–50% and 50–90% of the
 * packets arrive (the network's steady throughput) and over the last 10% (the tail that unfair
 * arbitration drags out: sources left behind finish alone), each as a fraction of the ideal rate.
 * Minutes per batch size on 8×8×8; run by hand:
 *
 *   node -r ./scripts/ts-register.js test/studies/anton2-fairness.ts [k] [batch sizes, comma-separated]
 */
import { anton2ArbiterLoads, anton2WeightTable, inverseWeights } from '@weft/control';
import { Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { anton2ChipWiring, generateAnton2Design, keyedDraw, shippedAnton2Floorplan, Torus } from '@weft/fabric-model';

const CORES = [0, 2, 3, 4, 6, 9, 11, 13, 16, 19, 21, 1, 5, 7, 10, 12];
const TORUS_CYCLES_PER_FLIT = (24 * 8 * 1.5) / 89.6;

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

for (const batch of batches)
  for (const arbitration of ['round-robin', 'inverse-weighted'] as const) {
    const sim = new Anton2Sim(new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })), floorplan, 11, { arbitration });
    sim.programDefaults();
    if (arbitration === 'inverse-weighted') for (let n = 0; n < sim.nodes; n++) sim.weights.set(table, n * table.length);
    const sources = [];
    for (let n = 0; n < sim.nodes; n++) for (const e of CORES) sources.push([n, e] as const);
    let last = 0;
    const times: number[] = [];
    sim.onDeliver = (_p, t) => {
      last = t;
      times.push(t);
    };
    const nodes = sim.nodes;
    sim.startBatch(sources, batch, (_n, _e, serial) => Math.floor(keyedDraw(5, 1, serial, 0) * nodes) * 23 + CORES[serial % 16]);
    const started = performance.now();
    while (sim.inFlight > 0 || !sim.quiet) sim.run(1000);
    const ideal = busiest * batch * TORUS_CYCLES_PER_FLIT;
    const total = times.length;
    const at = (f: number) => times[Math.floor(f * (total - 1))];
    // Packets a cycle between two fractions of the batch, over the ideal's.
    const phase = (a: number, b: number) => (((b - a) * total) / (at(b) - at(a)) / (total / ideal)).toFixed(3);
    console.log(
      `${shape.join('×')} batch ${batch} ${arbitration}: ${last} cycles, ideal ${ideal.toFixed(0)}, throughput ${(ideal / last).toFixed(3)}` +
        ` (10–50% ${phase(0.1, 0.5)}, 50–90% ${phase(0.5, 0.9)}, last 10% ${phase(0.9, 1)}; ${sim.delivered} delivered, ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
