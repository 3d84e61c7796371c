import { FlatRouting } from '@weft/fabric-model';
import { FlatSim } from './flat-sim';
import { digestFlatDeliveries, FlatParallelRun, flatUniformLoad, runFlatInThreads } from './flat-threads';

const traffic = { load: 0.6, seed: 5, sendUntil: 300 };
const cycles = 400;

/** The routers, not cut into threads, run cycle after cycle as the host steps them: the reference. */
function whole(run: FlatParallelRun) {
  const sim = FlatSim.study({ k: run.k, sizes: [...run.sizes] }, { routing: run.routing, seed: run.seed });
  sim.setBlocks(run.blocks);
  const send = flatUniformLoad(sim, run.traffic);
  const seen = digestFlatDeliveries(sim);
  sim.run(run.cycles, (cycle) => {
    for (let b = 0; b < run.blocks; b++) send(b, cycle);
  });
  return { sim, seen };
}

describe('the flattened butterfly in blocks on threads (issue 56: the block threads every family shares)', () => {
  const run = (routing: FlatRouting): FlatParallelRun => ({ k: 8, sizes: [8, 8], routing, seed: 3, traffic, cycles, blocks: 4 });

  it.each<FlatRouting>(['ugal', 'clos-ad'])(
    'under %s, on two and three threads the routers deliver the same packets at the same cycles as on one, every packet sent delivered',
    (routing) => {
      const { sim, seen } = whole(run(routing));
      expect(seen.delivered).toBeGreaterThan(50_000);
      expect(sim.inFlight).toBe(0);
      const reference = {
        delivered: seen.delivered,
        latency: seen.latencyCycles,
        hash: seen.hash,
        created: sim.created,
        discarded: {},
        flitHops: sim.flitHops,
      };
      for (const threads of [1, 2, 3]) {
        const r = runFlatInThreads(run(routing), threads);
        expect({
          threads,
          delivered: r.delivered,
          latency: r.latencyCycles,
          hash: r.hash,
          created: r.created,
          discarded: r.discarded,
          flitHops: r.flitHops,
        }).toEqual({
          threads,
          ...reference,
        });
      }
    },
  );

  it('refuses a window longer than a channel, naming it', () => {
    const sim = FlatSim.study({ k: 4, sizes: [4] }, { routing: 'min', seed: 1 });
    expect(sim.setBlocks(2)).toBe(1);
    expect(() => sim.runWindowed(10, 2, null)).toThrow("a flattened butterfly's channels take a cycle: its window is 1, got 2");
  });
});
