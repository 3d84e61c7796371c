import { generateBglDesign, mulberry32, Torus } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import type { BglSettings } from './bgl-settings';
import { BglTorusSim } from './bgl-torus-sim';

function torusSim(shape: [number, number, number], settings: Partial<BglSettings> = {}, seed = 1): BglTorusSim {
  const fabric = new EmulatedFabric(generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 }));
  const sim = new BglTorusSim(fabric, seed, settings);
  sim.programMinimalRouting();
  return sim;
}

/** Uniform random traffic: each node sends a packet of 1–8 chunks with probability `load` per 256 cycles. */
function uniform(sim: BglTorusSim, cycles: number, load: number, seed: number, options: { routing?: 'dynamic' | 'static'; sizes?: readonly number[] } = {}) {
  const random = mulberry32(seed);
  const sizes = options.sizes ?? [1, 2, 3, 4, 5, 6, 7, 8];
  sim.run(cycles, () => {
    for (let n = 0; n < sim.nodes; n++) {
      if (random() >= load / 256) continue;
      let t = Math.floor(random() * (sim.nodes - 1));
      if (t >= n) t++;
      sim.send(n, t, sizes[Math.floor(random() * sizes.length)], { routing: options.routing });
    }
  });
}

describe('the BlueGene/L node in the emulator (paper 002 §2)', () => {
  it('uniform traffic on a 4×4×4 torus: every packet is delivered, each by a minimal number of hops', () => {
    const sim = torusSim([4, 4, 4]);
    const torus = new Torus([4, 4, 4]);
    let minimal = 0;
    sim.onDeliver = (p) => {
      if (sim.packetHops(p) === torus.nodeDistance(sim.packetSource(p), sim.packetDestination(p))) minimal++;
    };
    uniform(sim, 20000, 0.3, 7);
    sim.drain(100000);
    expect(sim.injected).toBeGreaterThan(1000);
    expect({ inFlight: sim.inFlight, discarded: [...sim.discarded] }).toEqual({ inFlight: 0, discarded: [] });
    expect(sim.delivered).toBe(sim.injected);
    expect(minimal).toBe(sim.delivered);
    expect(sim.deadlock).toBeNull();
  });

  it('the same seed gives the same run; another seed another', () => {
    const run = (seed: number) => {
      const sim = torusSim([4, 4, 2], {}, seed);
      let sum = 0;
      sim.onDeliver = (p, cycle) => (sum = (sum * 31 + cycle * 7 + p) % 1_000_000_007);
      uniform(sim, 10000, 0.5, 3);
      sim.drain(100000);
      return sum;
    };
    expect(run(1)).toBe(run(1));
    expect(run(1)).not.toBe(run(2));
  });
});
