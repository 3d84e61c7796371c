import type { FlatRouting } from '@weft/fabric-model';
import { FlatSim } from './flat-sim';

/** Delivers everything queued, returning each packet's router hops by id. */
function drain(sim: FlatSim, cycles = 200): Map<number, number> {
  const hops = new Map<number, number>();
  sim.onDeliver = (p) => hops.set(p, sim.packetHops(p));
  sim.run(cycles);
  return hops;
}

describe('the flattened butterfly router (paper 003 §3.2)', () => {
  it('crosses one channel a differing dimension under minimal routing, in a cycle a hop, and ejects at the destination terminal', () => {
    // A 4-ary 3-flat: routers r = c1 + 4·c2, terminals 4r … 4r + 3.
    const sim = FlatSim.study({ k: 4, sizes: [4, 4] }, { routing: 'min', seed: 1 });
    const local = sim.send(0, 3);
    const oneDim = sim.send(1, 4 * 2 + 1);
    const twoDims = sim.send(2, 4 * (3 + 4 * 2));
    let delivered = 0;
    const latency = new Map<number, number>();
    sim.onDeliver = (p, cycle) => {
      delivered++;
      latency.set(p, cycle - sim.packetBorn(p));
    };
    sim.run(20);
    expect(delivered).toBe(3);
    expect([local, oneDim, twoDims].map((p) => latency.get(p))).toEqual([1, 2, 3]);
    expect(sim.routerHops).toBe(3);
    expect(sim.inFlight).toBe(0);
  });

  it.each<[FlatRouting, number]>([
    ['min', 2],
    ['min-ad', 2],
    ['val', 4],
    ['ugal', 4],
    ['ugal-s', 4],
    ['clos-ad', 4],
  ])('keeps %s within its hop bound on two dimensions (minimal ≤ n′, non-minimal ≤ 2n′) and accounts for every packet', (routing, bound) => {
    const sim = FlatSim.study({ k: 4, sizes: [4, 4] }, { routing, seed: 3 });
    for (let i = 0; i < 2000; i++) sim.send(i % 64, (i * 37 + 11) % 64);
    const hops = drain(sim, 2000);
    expect(hops.size).toBe(2000);
    expect(Math.max(...hops.values())).toBeLessThanOrEqual(bound);
    expect(sim.created).toBe(sim.delivered + sim.discarded);
    expect(sim.discarded).toBe(0);
  });

  it('differs by allocator as §3.1 says: packets arriving together all go minimally under the greedy allocator; the sequential one spreads them', () => {
    const spread = (routing: FlatRouting) => {
      // Every terminal of router 0 of an 8-ary 2-flat sends to router 1 in the same cycle; no bias
      // towards the minimal route (its threshold would outweigh a queue of 8).
      const sim = FlatSim.study({ k: 8, sizes: [8] }, { routing, seed: 5, ugalThreshold: 0 });
      for (let t = 0; t < 8; t++) sim.send(t, 8 + t);
      const hops = drain(sim, 50);
      return [...hops.values()].filter((h) => h === 2).length;
    };
    expect(spread('ugal')).toBe(0);
    expect(spread('ugal-s')).toBeGreaterThan(0);
    expect(spread('clos-ad')).toBeGreaterThan(0);
  });

  it('loses what it sends on a cut cable (both ends raise LINK_DOWN) and refuses to route onto a masked port, each discard with its reason', () => {
    const sim = FlatSim.study({ k: 4, sizes: [4] }, { routing: 'min', seed: 1 });
    const interrupts: string[] = [];
    sim.onInterrupt = (kind, _cycle, node, port) => interrupts.push(`${kind} ${sim.routerNames[node]}:${port}`);
    const reasons: string[] = [];
    sim.onDiscard = (_p, reason, router, port) => reasons.push(`${reason} at ${sim.routerNames[router]}:${port}`);
    // r0's port to r1 is its first peer port, after its 4 terminals; r1's to r0 likewise.
    sim.setLinkDown(0, 4, true);
    expect(interrupts).toEqual(['LINK_DOWN r0:4', 'LINK_DOWN r1:4']);
    sim.send(0, 4);
    sim.send(0, 8);
    // r0's port to r3 masked out of every choice: minimal routing has no other way.
    sim.mask[0 * sim.ports + 6] = 1;
    sim.send(1, 13);
    drain(sim, 20);
    expect(reasons.sort()).toEqual(['link-down at r0:4', 'no-route at r0:6']);
    expect([sim.created, sim.delivered, sim.discarded, sim.inFlight]).toEqual([3, 1, 2, 0]);
  });

  it('loses once, with its reason, what a dying router held or its terminals had queued: each packet delivered or discarded exactly once, the books balanced', () => {
    // Issue 56's digests found the dead router's terminals left on the injection list, sending
    // nothing into the dead router every cycle: discards counted twice, the books negative.
    const sim = FlatSim.study({ k: 8, sizes: [8] }, { routing: 'min', seed: 2 });
    const outcomes = new Map<number, string[]>();
    const note = (p: number, what: string) => outcomes.set(p, [...(outcomes.get(p) ?? []), what]);
    sim.onDeliver = (p) => note(p, 'delivered');
    sim.onDiscard = (p, reason) => note(p, reason);
    const sent: number[] = [];
    // Sent before any is released, so every id is a packet of its own.
    for (let round = 0; round < 20; round++) for (let t = 0; t < sim.terminals; t++) sent.push(sim.send(t, (t + 9 + round) % sim.terminals));
    sim.run(3);
    sim.setRouterDead(3, true);
    sim.run(400);
    expect(sent.filter((p) => outcomes.get(p)?.length !== 1)).toEqual([]);
    expect(outcomes.size).toBe(sent.length);
    expect([...outcomes.values()].filter(([o]) => o === 'router-dead').length).toBeGreaterThan(8 * 19);
    expect({ created: sim.created, delivered: sim.delivered, discarded: sim.discarded, held: sim.heldPackets() }).toEqual({
      created: sent.length,
      delivered: sent.length - sim.discarded,
      discarded: sim.discarded,
      held: 0,
    });
  });

  it('refuses at the terminal a packet a wrong register sent to another terminal (issue 54): a misdelivery is a discard, not a delivery', () => {
    const sim = FlatSim.study({ k: 4, sizes: [4] }, { routing: 'min', seed: 1 });
    const reasons: string[] = [];
    sim.onDiscard = (_p, reason, router, port) => reasons.push(`${reason} at ${sim.routerNames[router]}:${port}`);
    // r0 told it is r1: a packet for r1's terminal 1 (terminal 5) leaves at r0's own terminal 1.
    sim.setCoordinates(0, [1]);
    sim.send(0, 5);
    sim.send(4, 8);
    drain(sim, 20);
    expect(reasons).toEqual(['misdelivered at r0:1']);
    expect([sim.created, sim.delivered, sim.discarded, sim.inFlight]).toEqual([2, 1, 1, 0]);
  });
  it('takes a masked channel round through another router of its dimension, the second hop on the next VC (spec §3.6)', () => {
    const sim = FlatSim.study({ k: 4, sizes: [4] }, { routing: 'min', vcs: 2, seed: 1 });
    // r0's channel to r1 (its port 4) masked; its detourVia sends what wanted r1 through r2.
    for (let r = 0; r < 4; r++) {
      sim.setVcMap(r, [0, 1]);
      sim.setSplit(r, [16, 16]);
    }
    sim.mask[4] = 1;
    sim.setDetourVia(0, [-1, 2, -1, -1]);
    const vcs: number[] = [];
    sim.onDeliver = (p) => vcs.push(sim.packetHops(p));
    sim.send(0, 4);
    sim.run(20);
    expect(vcs).toEqual([2]);
    expect(Array.from(sim.portVcFlits.subarray(0 * 7 * 2 + 5 * 2, 0 * 7 * 2 + 5 * 2 + 2))).toEqual([1, 0]); // r0 → r2 on VC 0
    expect(Array.from(sim.portVcFlits.subarray((2 * 7 + 5) * 2, (2 * 7 + 5) * 2 + 2))).toEqual([0, 1]); // r2 → r1 (its port 5) on VC 1
    expect(() => sim.setDetourVia(0, [-1, 0, -1, -1])).toThrow(/must be -1 or another coordinate of the dimension, got 0/);
  });

  it('refuses a VC budget the algorithm cannot live in', () => {
    expect(() => FlatSim.study({ k: 4, sizes: [4, 4] }, { routing: 'val', vcs: 1, seed: 1 })).toThrow('val needs 2 VCs on 2 dimensions, got 1');
  });

  it('refuses a UGAL threshold that is not a count of flits × hops', () => {
    expect(() => FlatSim.study({ k: 4, sizes: [4] }, { routing: 'ugal', ugalThreshold: -1, seed: 1 })).toThrow(
      'the UGAL threshold is flits × hops, 0 or more, got -1',
    );
  });
});
