/**
 * An emulated Anton 2 torus under uniform random one-flit packets at a fraction of saturation, as
 * the anton2 bench and the BookSim2 side-by-side (peers/booksim-torus.sh) both run it: 16 sending
 * cores a node, one per router of the floorplan's endpoint adapters and round again; saturation is
 * where the most loaded torus channel is full (its load from the arbiter-load analysis: k packets a
 * unit of per-core rate on a k-ary ring), so each core offers load / (3.214 × k) packets a cycle.
 */
import { Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { ANTON2_ENDPOINT_ADAPTERS, generateAnton2Design, keyedDraw, shippedAnton2Floorplan } from '@weft/fabric-model';

/** The sending cores of each node (endpoint adapters): one per router of the floorplan's, then round again. */
export const CORES = [0, 2, 3, 4, 6, 9, 11, 13, 16, 19, 21, 1, 5, 7, 10, 12];
/** Torus cycles a flit: 24 bytes at 89.6 Gb/s in 1.5 GHz cycles. */
export const TORUS_CYCLES_PER_FLIT = (24 * 8 * 1.5) / 89.6;

/** A machine of `shape` sending at `load` of saturation from its cores, not yet run. */
export function anton2AtLoad(shape: [number, number, number], load: number): Anton2Sim {
  const sim = new Anton2Sim(new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })), shippedAnton2Floorplan(), 3);
  sim.programDefaults();
  const sources: (readonly [number, number])[] = [];
  for (let n = 0; n < sim.nodes; n++) for (const e of CORES) sources.push([n, e]);
  const nodes = sim.nodes;
  sim.startSteady(
    sources,
    load / (TORUS_CYCLES_PER_FLIT * Math.max(...shape)),
    1e12,
    (_n, _e, key) => Math.floor(keyedDraw(5, 1, key, 0) * nodes) * ANTON2_ENDPOINT_ADAPTERS + CORES[key % CORES.length],
  );
  return sim;
}
