import { FLAG_HASH } from '../engine/packet-store';
import { handConfiguredR15 } from './blackwidow-test-config';
import { YarcFabricSim } from './yarc-fabric-sim';

const r15 = (processors: number, seed = 1) => handConfiguredR15(processors, { seed });

/** The port of s0.r1.0 that carries sidelink k to s0.r1.1 (ports 32.. in design order). */
const sidelink = (sim: YarcFabricSim, k = 0) => sim.routerPortGlobal[sim.chipRouter[sim.fabric.chipId('s0.r1.0')] * 64 + 32 + k];

describe('link control block (§4.3, §7.7)', () => {
  it('recovers from bit errors by go-back-N: every packet delivered exactly once', () => {
    const sim = r15(64);
    sim.regs.laneRetryThreshold.fill(60_000);
    sim.endpointLaneRetryThreshold = 60_000;
    // Noisy injection link of p0 and a noisy sidelink: about one copy in five fails its CRC.
    for (let lane = 0; lane < 3; lane++) {
      sim.setLaneBitErrorRate(sim.processorPort[0], lane, 3e-3);
      sim.setLaneBitErrorRate(sidelink(sim), lane, 3e-3);
    }
    const seen = new Map<number, number>();
    sim.onDeliver = (p) => seen.set(sim.packets.tag(p), (seen.get(sim.packets.tag(p)) ?? 0) + 1);
    for (let i = 0; i < 2000; i++) sim.inject(i % 2 === 0 ? 0 : (i % 31) + 1, 0, 32 + (i % 32), 4 + (i % 16), 0, FLAG_HASH, i, i);
    sim.drain(2_000_000);
    expect(sim.retransmissions).toBeGreaterThan(100);
    expect(sim.packets.books()).toEqual({ created: 2000, delivered: 2000, discarded: {}, inFlight: 0, balanced: true });
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(seen.size).toBe(2000);
  });

  it('decommissions a lane past the retry threshold; the port runs 2 lanes wide and slower, losing nothing', () => {
    const sim = r15(64);
    const g = sim.processorPort[0];
    const interrupts: string[] = [];
    sim.onInterrupt = (kind, _c, chip, port, _v, details) => interrupts.push(`${kind} ${sim.fabric.chipNames[chip]}:${port} lane ${String(details?.lane)}`);
    const fullRate = sim.linkRateOf(g);
    sim.setLaneBitErrorRate(g, 1, 2e-2);
    for (let i = 0; i < 300; i++) sim.inject(0, 0, 33 + (i % 30), 19, 0, FLAG_HASH, i);
    sim.drain(2_000_000);
    expect(interrupts).toEqual(['LANE_DECOMMISSIONED p0:0 lane 1']);
    expect(sim.fabric.activeLanes[g]).toBe(2);
    expect(sim.linkRateOf(g)).toBeCloseTo((fullRate * 2) / 3, 6);
    expect(sim.packets.books()).toMatchObject({ created: 300, delivered: 300, inFlight: 0, balanced: true });

    // The narrower port carries a stream of 19-phit packets at two thirds of the rate.
    const batch = (processor: number) => {
      const start = sim.cycle;
      for (let i = 0; i < 100; i++) sim.inject(processor, 0, 33 + (i % 30), 19, 0, FLAG_HASH, i);
      sim.drain(1_000_000);
      return sim.cycle - start;
    };
    const narrow = batch(0);
    const wide = batch(1);
    expect(narrow / wide).toBeGreaterThan(1.4);
    expect(narrow / wide).toBeLessThan(1.6);
  });

  it('takes the link down when every lane is gone: interrupts at both ends, packets discarded with a reason', () => {
    const sim = r15(64);
    sim.regs.laneRetryThreshold.fill(3);
    const g = sidelink(sim, 0);
    for (let lane = 0; lane < 3; lane++) sim.setLaneBitErrorRate(g, lane, 5e-2);
    // Only sidelink 0 may carry traffic from s0.r1.0 to subtree 1, so packets keep hitting it.
    for (let t = 0; t < 64; t++) sim.regs.setTableEntry(sim.chipRouter[sim.fabric.chipId('s0.r1.0')], t, 0, 32, 0x1f, [32]);
    const interrupts: string[] = [];
    sim.onInterrupt = (kind, _c, chip, port) => interrupts.push(`${kind} ${sim.fabric.chipNames[chip]}:${port}`);
    for (let i = 0; i < 400; i++) sim.inject(i % 32, 0, 32 + (i % 32), 8, 0, 0, i);
    sim.drain(2_000_000);
    expect(interrupts.filter((i) => i.startsWith('LINK_DOWN')).sort()).toEqual(['LINK_DOWN s0.r1.0:32', 'LINK_DOWN s0.r1.1:32']);
    expect(interrupts.filter((i) => i.startsWith('LANE_DECOMMISSIONED'))).toHaveLength(3);
    const books = sim.packets.books();
    expect(books.balanced).toBe(true);
    expect(books.inFlight).toBe(0);
    expect(books.discarded.LinkDown).toBeGreaterThan(0);
    expect(books.delivered + books.discarded.LinkDown).toBe(400);
  });

  it('a cut cable is down at once; restored, it carries traffic again', () => {
    const sim = r15(64);
    const events: string[] = [];
    sim.onInterrupt = (kind, _c, chip, port) => events.push(`${kind} ${sim.fabric.chipNames[chip]}:${port}`);
    sim.cutLink(sim.processorPort[3 * 4]);
    sim.inject(3, 0, 40, 4, 0, 0, 0);
    sim.inject(5, 0, 3, 4, 0, 0, 0);
    sim.drain(100_000);
    expect(sim.packets.books()).toMatchObject({ discarded: { Unreachable: 1, LinkDown: 1 }, balanced: true });
    expect(events).toEqual(['LINK_DOWN s0.r1.0:3']);
    sim.restoreLink(sim.processorPort[3 * 4]);
    sim.inject(3, 0, 40, 4, 0, 0, 0);
    sim.drain(100_000);
    expect(sim.packets.delivered).toBe(1);
    expect(events).toEqual(['LINK_DOWN s0.r1.0:3', 'LINK_UP s0.r1.0:3']);
  });
});
