import { FLAG_ADAPTIVE } from '../engine/packet-store';
import { startTraffic } from '../traffic/traffic-request';
import { yarcFlatFabric } from './yarc-flat-unit';

/** Phits router `router`'s ports sent, both VCs together. */
function routerPortPhits(sim: ReturnType<typeof yarcFlatFabric>, router: number): number[] {
  const phits = sim.portPhits();
  const base = sim.fabric.portBase[sim.routerChip[router]];
  return Array.from({ length: 64 }, (_, p) => phits[(base + p) * 2] + phits[(base + p) * 2 + 1]);
}

describe('the flattened butterfly on a YARC-class chip: YARC’s datapath with a flattened-butterfly routing unit (spec §3.2(c))', () => {
  it('delivers an all-pairs exchange on the 4-ary 3-flat in dimension order: one router within a router, one more a differing dimension', () => {
    const sim = yarcFlatFabric(4, 3);
    const byHops = new Map<number, number>();
    sim.onDeliver = (p) => byHops.set(sim.packets.hops(p), (byHops.get(sim.packets.hops(p)) ?? 0) + 1);
    for (let s = 0; s < 64; s++) for (let d = 0; d < 64; d++) if (s !== d) sim.inject(s, 0, d, 4, 0, 0, 0);
    sim.drain(2_000_000);
    expect(sim.packets.books()).toEqual({ created: 4032, delivered: 4032, discarded: {}, inFlight: 0, balanced: true });
    // Per source: 3 neighbours on its router; 2 dimensions × 3 other coordinates × 4 terminals one dimension away; 3 × 3 × 4 two away.
    expect(Object.fromEntries(byHops)).toEqual({ 1: 64 * 3, 2: 64 * 24, 3: 64 * 36 });
  });

  it('spreads adaptive packets over a channel and its spare-port double by the datapath’s §7.8.3 choice, and keeps a hashed flow on one', () => {
    // On the 32-ary 2-flat's 64-port YARCs the spare port doubles the channel between routers 0 and 1 (Fig. 14(a)).
    const portsCarrying = (flags: number) => {
      const sim = yarcFlatFabric(32, 2, { spareUse: 'redundant' });
      // Router 0's 32 processors each send 40 packets to processor 32, on router 1.
      for (let i = 0; i < 40; i++) for (let s = 0; s < 32; s++) sim.inject(s, 0, 32, 4, 0, flags, 0);
      sim.drain(1_000_000);
      expect(sim.packets.books()).toMatchObject({ delivered: 40 * 32, balanced: true });
      return routerPortPhits(sim, 0).filter((v) => v > 0);
    };
    const adaptive = portsCarrying(FLAG_ADAPTIVE);
    expect(adaptive).toHaveLength(2);
    expect(Math.abs(adaptive[0] - adaptive[1]) / (adaptive[0] + adaptive[1])).toBeLessThan(0.2);
    const hashed = portsCarrying(0);
    expect(hashed).toEqual([adaptive[0] + adaptive[1]]);
  });

  it('carries uniform random traffic at half of its injection links’ capacity and holds the worst case to about 1/32, as minimal routing on any flattened butterfly', () => {
    const run = (pattern: 'uniform-random' | 'adversarial') => {
      const sim = yarcFlatFabric(32, 2);
      const session = startTraffic(
        sim,
        {
          mode: 'steady-state',
          pattern: { kind: pattern },
          packetPhits: 4,
          slices: [0],
          seed: 3,
          load: 0.5,
          warmup: { min: 1000, max: 3000 },
          sampleCycles: 2000,
          drainLimit: 20_000,
        },
        { endpoints: 1024, slices: 1, endpointsPerRouter: 32, packetPhits: { min: 4, max: 19 } },
      );
      while (!session.advance(1 << 30));
      return session.report();
    };
    const uniform = run('uniform-random');
    expect(uniform.accepted).toBeGreaterThan(0.48);
    expect(uniform.books.discarded).toEqual({});
    // Every packet of router i's 32 processors crosses the one channel to router i + 1.
    const worst = run('adversarial').accepted;
    expect(worst).toBeGreaterThan(0.02);
    expect(worst).toBeLessThan(1 / 32 + 0.002);
  });
});
