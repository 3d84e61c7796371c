import { FABRIC_FAMILY_MODELS, generateAnton2Design, shippedAnton2Floorplan } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { TorusRunnerSim, TorusTrafficRun } from '../traffic/torus-traffic-run';
import type { TrafficRequest } from '../traffic/traffic-request';
import { Anton2Sim } from './anton2-sim';
import { anton2RunnerSim } from './anton2-traffic';

// 8×4×4: 128 ASICs, two blocks of 64.
const design = generateAnton2Design({ shape: [8, 4, 4], backplaneChannelNs: 2, cableChannelNs: 10 });
const shape = FABRIC_FAMILY_MODELS.anton2.trafficShape({ shape: '8×4×4', asics: 128 });

function machine(): Anton2Sim {
  const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 2);
  sim.programDefaults();
  // A dead ASIC and a cut channel: discards from both sides of the block edge, recorded where they happened.
  sim.killNode(70);
  sim.setChannelDown(3, 4, true);
  return sim;
}

/** The same machine, its blocks' traffic sent cycle by cycle — every block's arrivals, then every block's events — rather than a block a window at a time. */
function cycleByCycle(sim: Anton2Sim): TorusRunnerSim {
  const runner = anton2RunnerSim(sim);
  const blocks = runner.blocks!;
  return {
    ...runner,
    blocks: {
      ...blocks,
      run: (cycles, beforeCycle) =>
        sim.run(cycles, (cycle) => {
          for (let b = 0; b < blocks.count; b++) beforeCycle(b, cycle);
        }),
    },
  };
}

describe('traffic runs on Anton 2 in blocks (issue 56: each block a window at a time, its own arrivals with it)', () => {
  it('gives the same report as the same run cycle by cycle: every delivery, discard, hop and link count', () => {
    const request: TrafficRequest = { mode: 'background', pattern: { kind: 'uniform-random' }, packetPhits: 1, slices: [0, 5, 11], seed: 4, load: 0.3 };
    const windowedSim = machine();
    expect(windowedSim.blockCount).toBe(2);
    const windowed = new TorusTrafficRun(anton2RunnerSim(windowedSim), request, shape);
    const stepped = new TorusTrafficRun(cycleByCycle(machine()), request, shape);
    for (const run of [windowed, stepped]) {
      run.advance(1000);
      run.stop(20_000);
      while (!run.advance(1000));
    }
    const a = windowed.report();
    const b = stepped.report();
    expect(a.books.injected).toBeGreaterThan(10_000);
    expect(a.books.discarded['link-down']).toBeGreaterThan(0);
    expect(a).toEqual(b);
  });
});
