import { generateAnton2Design, shippedAnton2Floorplan } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { Anton2ParallelRun, digestAnton2Deliveries, runAnton2InThreads, startAnton2UniformLoad } from './anton2-threads';
import { Anton2Sim } from './anton2-sim';

const design = generateAnton2Design({ shape: [4, 4, 4], backplaneChannelNs: 2, cableChannelNs: 10 });
const traffic = { load: 0.5, seed: 5, sendUntil: 600 };
const cycles = 2000;

/** One machine, not cut, run cycle after cycle as the host steps it: the reference. */
function whole() {
  const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 3);
  sim.programDefaults();
  startAnton2UniformLoad(sim, traffic);
  const seen = digestAnton2Deliveries(sim);
  for (let t = 0; t < cycles; t++) sim.run(1);
  return { sim, seen };
}

describe('Anton 2 in blocks on threads (issue 56: the block threads every torus family shares)', () => {
  const run: Anton2ParallelRun = { design, seed: 3, settings: {}, traffic, cycles, blocks: 4 };

  it('on two threads, the machine delivers the same packets at the same cycles as on one, and every packet sent is accounted for', () => {
    const { sim, seen } = whole();
    const one = runAnton2InThreads(run, 1);
    const two = runAnton2InThreads(run, 2);
    expect(seen.delivered).toBeGreaterThan(5_000);
    expect(sim.inFlight).toBe(0);
    const figures = (r: typeof one) => ({
      delivered: r.delivered,
      latency: r.latencyCycles,
      hash: r.hash,
      injected: r.injected,
      discarded: r.discarded,
      flitHops: r.flitHops,
    });
    const reference = {
      delivered: seen.delivered,
      latency: seen.latencyCycles,
      hash: seen.hash,
      injected: sim.injected,
      discarded: {},
      flitHops: sim.flitHops,
    };
    expect(figures(one)).toEqual(reference);
    expect(figures(two)).toEqual(reference);
    // Windows no longer than a head or credits take across the fastest channel between blocks.
    expect(two.window).toBeGreaterThan(1);
  });

  it('refuses more threads than blocks, naming both', () => {
    expect(() => runAnton2InThreads({ ...run, blocks: 2 }, 3)).toThrow('threads must be 1 to the 2 blocks, got 3');
  });
});
