import { defaultCableLengths, generateBlackWidowDesign } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { FLAG_HASH } from '../engine/packet-store';
import { configureR15ByHand } from './blackwidow-test-config';
import { YarcFabricSim } from './yarc-fabric-sim';

function r15(processors: number, slices = 1, portSeed = 0): YarcFabricSim {
  const network = processors <= 32 ? 'R1' : 'R1.5';
  const design = generateBlackWidowDesign({ network, processors, slices, r1Uplinks: 32, portSeed, cableLengths: defaultCableLengths(processors) });
  const sim = new YarcFabricSim(new EmulatedFabric(design));
  configureR15ByHand(sim);
  return sim;
}

describe('YARC fabric, cycle by cycle', () => {
  it('delivers a lone packet with the zero-load latency of the pipeline model (25 stages per router)', () => {
    const sim = r15(64);
    let deliveredAt = -1;
    sim.onDeliver = (_p, cycle) => (deliveredAt = cycle);
    // p0 → p40: up from subtree 0, across a sidelink to subtree 1, down: two routers.
    sim.inject(0, 0, 40, 4, 0, 0, 0);
    sim.drain(10_000);
    const g0 = sim.processorPort[0];
    const r0 = sim.fabric.peer[g0];
    const side = [...Array(64).keys()].map((p) => sim.tileGlobal[p]).find((g) => sim.fabric.peer[g] >= 0 && sim.globalProcessor[sim.fabric.peer[g]] < 0)!;
    const latencies = [sim.linkLatency[g0], sim.linkLatency[side], sim.linkLatency[sim.processorPort[40]]];
    expect(r0).toBeGreaterThanOrEqual(0);
    // The last phit is consumed at the head's latency plus serialization; within one cycle of
    // rounding, since a 3-lane port carries 0.977 phits per core cycle.
    const expected = YarcFabricSim.zeroLoadCycles(2, latencies, 4, sim.linkRate[g0]);
    expect(Math.abs(deliveredAt - expected)).toBeLessThanOrEqual(1);
    expect(deliveredAt * 1.25).toBeGreaterThan(2 * 31.25);
    expect(sim.packets.books()).toMatchObject({ created: 1, delivered: 1, inFlight: 0, balanced: true });
  });

  it('delivers every packet of an all-pairs exchange on a 288-processor R1.5 slice with the right hop counts', () => {
    const sim = r15(288, 1, 288);
    const hops = new Map<number, number>();
    sim.onDeliver = (p) => {
      const src = sim.globalProcessor[sim.packets.source[p]];
      const dst = sim.packets.destination[p];
      const expected = src >> 5 === dst >> 5 ? 1 : 2;
      hops.set(expected === sim.packets.hops[p] ? 0 : 1, (hops.get(expected === sim.packets.hops[p] ? 0 : 1) ?? 0) + 1);
    };
    for (let s = 0; s < 288; s++) for (let d = 0; d < 288; d++) if (s !== d) sim.inject(s, 0, d, 4, 0, FLAG_HASH, (s * 7 + d) & 0x7fff);
    sim.drain(2_000_000);
    expect(sim.packets.books()).toEqual({ created: 288 * 287, delivered: 288 * 287, discarded: {}, inFlight: 0, balanced: true });
    expect(hops.get(1) ?? 0).toBe(0);
  });
});
