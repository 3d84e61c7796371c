import * as model from '@weft/fabric-model';
import { generateAnton2Design, shippedAnton2Floorplan, Torus } from '@weft/fabric-model';
import { Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { anton2ArbiterLoads, anton2ArbiterLoadsAroundFaults, anton2WeightTable, arbiterInput, ARBITER_INPUTS_PER_ASIC } from './arbiter-loads';
import { anton2RoutePolicy } from './anton2-route-policy';
import { inverseWeights } from './inverse-weights';

const plan = shippedAnton2Floorplan();
const wiring = model.anton2ChipWiring(plan);
/** One core per router where the floorplan gives the router an endpoint adapter, then the rest round the routers again: 16 sending cores. */
const CORES = [0, 2, 3, 4, 6, 9, 11, 13, 16, 19, 21, 1, 5, 7, 10, 12];
const options = { sourceEndpoints: CORES, destinationEndpoints: CORES, tieRule: 'random' as const };

describe('Anton 2 arbiter loads from traffic patterns', () => {
  it('loads every torus channel as the pattern’s hops say: uniform evenly, tornado only its + channels', () => {
    const torus = new Torus([8, 8, 8]);
    const uniform = anton2ArbiterLoads(torus, wiring, { name: 'uniform' }, options);
    // Per dimension and direction a packet averages (1 + 2 + 3 + ½·4)/8 = 1 hop, over two slices; 16 cores.
    for (const load of uniform.channels) expect(load).toBeCloseTo(8, 9);
    const tornado = anton2ArbiterLoads(torus, wiring, { name: 'tornado' }, options);
    // §4.2: offset k/2 − 1 = 3 in every dimension, all +.
    for (let c = 0; c < 12; c++) expect(tornado.channels[c]).toBeCloseTo(c & 2 ? 0 : 24, 9);
  });

  it('hands each channel adapter exactly the load of its channel through the router output that feeds it', () => {
    const torus = new Torus([6, 4, 5]);
    const { arbiters, channels } = anton2ArbiterLoads(torus, wiring, { name: 'neighbour', hops: 2 }, options);
    for (let c = 0; c < 12; c++) {
      const feeder = [...wiring.downstream].indexOf(model.A2_IN_CA_FROM_ROUTER + c);
      const r = Math.floor(feeder / model.A2_PORTS);
      let sum = 0;
      for (let i = 0; i < model.A2_PORTS; i++) sum += arbiters[arbiterInput(r, feeder % model.A2_PORTS, i)];
      expect(sum).toBeCloseTo(channels[c], 9);
    }
  });

  it('predicts the share of grants each arbiter input gets in the emulated network under the same traffic', () => {
    const shape: [number, number, number] = [4, 4, 4];
    const { arbiters } = anton2ArbiterLoads(new Torus(shape), wiring, { name: 'uniform' }, options);
    const sim = new Anton2Sim(new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })), plan, 5);
    sim.programDefaults();
    const sources = [];
    for (let n = 0; n < sim.nodes; n++) for (const e of CORES) sources.push([n, e] as const);
    sim.startSteady(sources, 0.01, 6000, (_n, _e, serial) => Math.floor(model.keyedDraw(9, 1, serial, 0) * sim.nodes) * 23 + CORES[serial % 16]);
    sim.run(8000);
    // Summed over every ASIC, granted flits per arbiter input against the predicted load.
    const granted = new Float64Array(ARBITER_INPUTS_PER_ASIC);
    for (let n = 0; n < sim.nodes; n++) for (let a = 0; a < ARBITER_INPUTS_PER_ASIC; a++) granted[a] += sim.grantedFlits[n * ARBITER_INPUTS_PER_ASIC + a];
    const totalGranted = granted.reduce((a, b) => a + b, 0);
    const totalLoad = arbiters.reduce((a, b) => a + b, 0);
    let worst = 0;
    for (let a = 0; a < ARBITER_INPUTS_PER_ASIC; a++) {
      const predicted = arbiters[a] / totalLoad;
      if (predicted === 0) expect(granted[a]).toBe(0);
      else if (predicted > 0.002) worst = Math.max(worst, Math.abs(granted[a] / totalGranted - predicted) / predicted);
    }
    expect(worst).toBeLessThan(0.1);
  });

  it('weights each arbiter’s inputs inversely to their loads: m = nint(β/γ), the least loaded at 2^M − 1', () => {
    const { arbiters } = anton2ArbiterLoads(new Torus([8, 8, 8]), wiring, { name: 'uniform' }, options);
    const table = anton2WeightTable([arbiters], 5, inverseWeights);
    for (let r = 0; r < model.A2_ROUTERS; r++)
      for (let o = 0; o < model.A2_PORTS; o++) {
        const loaded = [0, 1, 2, 3, 4, 5].filter((i) => arbiters[arbiterInput(r, o, i)] > 0);
        if (loaded.length < 2) continue;
        const least = Math.min(...loaded.map((i) => arbiters[arbiterInput(r, o, i)]));
        for (const i of loaded) {
          const m = table[arbiterInput(r, o, i) * 2];
          // m = nint(β/γ) with β = 31·γmin, at least 1.
          expect(m).toBe(Math.max(1, Math.round((31 * least) / arbiters[arbiterInput(r, o, i)])));
        }
      }
  });

  it('moves the loads off a dead channel onto the routes left, and matches the grants of the emulated network around it', () => {
    const shape: [number, number, number] = [4, 4, 4];
    const torus = new Torus(shape);
    const dead = { node: torus.index(1, 2, 0), port: model.anton2ChannelPort(1, false, 0) }; // its Y0+
    const policy = anton2RoutePolicy(torus, [dead, { node: torus.index(1, 3, 0), port: model.anton2ChannelPort(1, true, 0) }], [], 'random');
    const loads = anton2ArbiterLoadsAroundFaults(torus, wiring, { name: 'uniform' }, options, policy.masks);
    const feeder = (port: number) => {
      const at = [...wiring.downstream].indexOf(model.A2_IN_CA_FROM_ROUTER + port);
      return [Math.floor(at / model.A2_PORTS), at % model.A2_PORTS];
    };
    const channelLoad = (node: number, port: number) => {
      const [r, o] = feeder(port);
      let sum = 0;
      for (let i = 0; i < model.A2_PORTS; i++) sum += loads[node * ARBITER_INPUTS_PER_ASIC + arbiterInput(r, o, i)];
      return sum;
    };
    expect(channelLoad(dead.node, dead.port)).toBe(0);
    // Minimal routes all: the torus hops are conserved, each moved to another channel (no pair is cut by one dead channel).
    expect(policy.unreachable).toEqual([]);
    let total = 0;
    for (let n = 0; n < torus.size; n++) for (let c = 0; c < 12; c++) total += channelLoad(n, c);
    expect(total).toBeCloseTo(torus.size * 12 * 4, 6);
    // The emulated network under the same policy grants what the loads say, ASIC by ASIC.
    const sim = new Anton2Sim(new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })), plan, 5);
    sim.programDefaults();
    sim.setChannelDown(dead.node, dead.port, true);
    for (const [s, table] of policy.masks) sim.routePolicy[s] = table;
    const sources = [];
    for (let n = 0; n < sim.nodes; n++) for (const e of CORES) sources.push([n, e] as const);
    sim.startSteady(sources, 0.01, 6000, (_n, _e, serial) => Math.floor(model.keyedDraw(9, 1, serial, 0) * sim.nodes) * 23 + CORES[serial % 16]);
    sim.run(8000);
    expect([...sim.discarded]).toEqual([]);
    const node = torus.index(1, 2, 0);
    const granted = sim.grantedFlits.subarray(node * ARBITER_INPUTS_PER_ASIC, (node + 1) * ARBITER_INPUTS_PER_ASIC);
    const predicted = loads.subarray(node * ARBITER_INPUTS_PER_ASIC, (node + 1) * ARBITER_INPUTS_PER_ASIC);
    const totalGranted = granted.reduce((a, b) => a + b, 0);
    const totalPredicted = predicted.reduce((a, b) => a + b, 0);
    for (let a = 0; a < ARBITER_INPUTS_PER_ASIC; a++)
      if (predicted[a] / totalPredicted > 0.01)
        expect(Math.abs(granted[a] / totalGranted - predicted[a] / totalPredicted) / (predicted[a] / totalPredicted)).toBeLessThan(0.3);
      else if (predicted[a] === 0) expect(granted[a]).toBe(0);
  });

  it('loads each ASIC by its own row and column of a traffic matrix: a permutation matrix as its named pattern, a hot spot at the hot ASIC', () => {
    const torus = new Torus([4, 4, 2]);
    const n = torus.size;
    const tornadoOf = (s: number) =>
      torus.index(...([0, 1, 2].map((d) => (torus.coordinate(s, d) + (torus.shape[d] >> 1) - 1) % torus.shape[d]) as [number, number, number]));
    const permutation = Array.from({ length: n }, (_, s) => Array.from({ length: n }, (_, t) => (t === tornadoOf(s) ? 1 : 0)));
    const named = anton2ArbiterLoads(torus, wiring, { name: 'tornado' }, options).arbiters;
    const perAsic = anton2ArbiterLoadsAroundFaults(torus, wiring, { name: 'matrix', weights: permutation }, options, new Map());
    for (let p = 0; p < n; p++) {
      const mine = perAsic.subarray(p * ARBITER_INPUTS_PER_ASIC, (p + 1) * ARBITER_INPUTS_PER_ASIC);
      for (let a = 0; a < ARBITER_INPUTS_PER_ASIC; a++) expect(mine[a]).toBeCloseTo(named[a], 9);
    }
    // Everyone sends to ASIC 5 besides a trickle elsewhere: its ejection arbiters carry what no other ASIC's do.
    const hot = Array.from({ length: n }, (_, s) => Array.from({ length: n }, (_, t) => (t === s ? 0 : t === 5 ? 10 : 0.1)));
    const loads = anton2ArbiterLoadsAroundFaults(torus, wiring, { name: 'matrix', weights: hot }, options, new Map());
    const received = (p: number) => loads.subarray(p * ARBITER_INPUTS_PER_ASIC, (p + 1) * ARBITER_INPUTS_PER_ASIC).reduce((a, b) => a + b, 0);
    for (let p = 0; p < n; p++) if (p !== 5) expect(received(5)).toBeGreaterThan(received(p));
  });
});
