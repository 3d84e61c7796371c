/**
 * An emulated Anton 2 torus under uniform random one-flit packets at a fraction of saturation, as
 * the anton2 bench, its threaded runs and the BookSim2 side-by-side (peers/booksim-torus.sh) all run
 * it: the load the block threads run (startAnton2UniformLoad, anton2-threads.ts) — 16 sending cores
 * a node, one per router of the floorplan's endpoint adapters and round again; saturation is where
 * the most loaded torus channel is full (its load from the arbiter-load analysis: k packets a unit
 * of per-core rate on a k-ary ring), so each core offers load / (3.214 × k) packets a cycle.
 */
import { ANTON2_SENDING_CORES, ANTON2_TORUS_CYCLES_PER_FLIT, Anton2Sim, EmulatedFabric, startAnton2UniformLoad } from '@weft/emulator';
import { generateAnton2Design, shippedAnton2Floorplan } from '@weft/fabric-model';

export const CORES = ANTON2_SENDING_CORES;
export const TORUS_CYCLES_PER_FLIT = ANTON2_TORUS_CYCLES_PER_FLIT;
/** The seed of the load's destinations. */
export const LOAD_SEED = 5;

/** The machine of `shape` the bench runs (2 ns backplane channels, 10 ns cables). */
export function anton2BenchDesign(shape: [number, number, number]) {
  return generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 });
}

/** A machine of `shape` sending at `load` of saturation from its cores, not yet run. */
export function anton2AtLoad(shape: [number, number, number], load: number): Anton2Sim {
  const sim = new Anton2Sim(new EmulatedFabric(anton2BenchDesign(shape)), shippedAnton2Floorplan(), 3);
  sim.programDefaults();
  startAnton2UniformLoad(sim, { load, seed: LOAD_SEED, sendUntil: 1e12 });
  return sim;
}
