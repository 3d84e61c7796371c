import { generateAnton2Design, shippedAnton2Floorplan, Torus } from '@weft/fabric-model';
import { Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { checkMulticastGroup, checkMulticastTree, multicastTables, MulticastError, planAnton2Multicast } from './anton2-multicast';

describe('Anton 2 multicast', () => {
  const shape: [number, number, number] = [6, 6, 4];
  const torus = new Torus(shape);
  // Fig. 3's kind of set: nodes of one plane (z = 0) around the source, two endpoints on each.
  const source = torus.index(1, 1, 0);
  const plane = [
    [3, 1],
    [4, 2],
    [1, 4],
    [2, 5],
    [5, 5],
    [0, 3],
    [3, 3],
  ];
  const group = { source, destinations: plane.flatMap(([x, y]) => [0, 7].map((endpoint) => ({ node: torus.index(x, y, 0), endpoint }))) };

  it('serves a set in one plane with fewer torus hops than unicasting to each, every path a unicast route', () => {
    const plan = planAnton2Multicast(torus, group, { tieRule: 'random' });
    for (const tree of plan.trees) {
      expect(checkMulticastTree(torus, group, tree)).toEqual([]);
      expect(tree.channels.length).toBeLessThan(plan.unicastHops);
    }
    expect(plan.trees[0].slice).not.toBe(plan.trees[1].slice);
  });

  it('delivers every copy once in the emulated machine, and alternating the two trees lowers the busiest channel’s load', () => {
    const plan = planAnton2Multicast(torus, group, { tieRule: 'random' });
    const busiest = (alternate: boolean) => {
      const sim = new Anton2Sim(new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })), shippedAnton2Floorplan(), 4);
      sim.programDefaults();
      for (const [node, table] of multicastTables(torus, new Map([[3, plan]]))) sim.multicastTables[node] = table;
      let delivered = 0;
      const got = new Map<string, number>();
      sim.onDeliver = (p) => {
        delivered++;
        const key = `${sim.packetDestination(p)}`;
        got.set(key, (got.get(key) ?? 0) + 1);
      };
      for (let i = 0; i < 200; i++) {
        sim.sendMulticast(source, i % 4, 3, alternate ? i & 1 : 0);
        sim.run(20);
      }
      sim.run(20_000);
      expect([...sim.discarded]).toEqual([]);
      expect(delivered).toBe(200 * group.destinations.length);
      expect(sim.delivered + [...sim.discarded.values()].reduce((a, b) => a + b, 0)).toBe(sim.injected + sim.copies);
      expect(sim.inFlight).toBe(0);
      for (const [x, y] of plane) expect(got.get(`${torus.index(x, y, 0)}`)).toBe(400);
      let most = 0;
      for (let n = 0; n < sim.nodes; n++) for (let c = 0; c < 12; c++) most = Math.max(most, sim.linkFlits[n * 143 + 96 + c]);
      return most;
    };
    const one = busiest(false);
    const alternating = busiest(true);
    expect(one).toBe(200);
    expect(alternating).toBeLessThan(one);
  });

  it('refuses an empty set, unknown nodes and endpoints, and a set naming one endpoint twice, saying where', () => {
    expect(checkMulticastGroup(torus, { source, destinations: [] })).toEqual(['destinations: the set is empty']);
    expect(
      checkMulticastGroup(torus, {
        source: 999,
        destinations: [
          { node: 5, endpoint: 23 },
          { node: 5, endpoint: 1 },
          { node: 5, endpoint: 1 },
        ],
      }),
    ).toEqual([
      'source: no ASIC 999 in a 6×6×4 torus',
      'destinations[0].endpoint: an ASIC has endpoints 0 to 22, got 23',
      'destinations[2]: 5:1 is in the set twice',
    ]);
    expect(() => planAnton2Multicast(torus, { source, destinations: [] }, { tieRule: 'random' })).toThrow(MulticastError);
  });

  it('refuses a group that would overflow a node’s table, naming the node', () => {
    const plans = new Map(Array.from({ length: 3 }, (_, g) => [g, planAnton2Multicast(torus, group, { tieRule: 'random' })] as const));
    expect(() => multicastTables(torus, plans, 4)).toThrow(/the multicast table of \(1,1,0\) is full: 4 entries, and group 2 needs one more/);
  });
});
