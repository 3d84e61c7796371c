import { BglMaintenanceController, BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { BGL_BROADCAST_ROUTE, bglFaultSetWords, generateBglDesign, mulberry32, RouteOverrideCompiler, Torus, TorusFaults } from '@weft/fabric-model';

// Read once: under the test runner every global look-up goes through a proxy.
const { floor } = Math;

/**
 * The software routing around dead nodes, run: the compiler's tables in the emulated nodes'
 * memory, the nodes dead in the emulator, and every live node sending a packet to every other
 * live node. Nothing may be lost: the books balance with every packet delivered. (Here the tables
 * and registers are put in place directly; the control plane writes them over the control network.)
 */
async function allPairs(shape: [number, number, number], dead: number[], seed: number, via: 'tables' | 'broadcast' = 'tables') {
  const torus = new Torus(shape);
  const faults = new TorusFaults(torus, dead);
  const sim = new BglTorusSim(new EmulatedFabric(generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 })), seed);
  sim.programMinimalRouting();
  for (const node of dead) sim.killNode(node);
  if (via === 'tables')
    new RouteOverrideCompiler(torus, faults).compile().tables.forEach((words, node) => (sim.routeTables[node] = words ? Int32Array.from(words) : null));
  // One write to every node (issue 55): each node's software builds its own table from the fault set.
  else expect(await new BglMaintenanceController(sim).write(BGL_BROADCAST_ROUTE, 'faultSet', 0, bglFaultSetWords(8, faults))).toMatchObject({ ok: true });
  const deliveries: number[] = [];
  const live = Array.from({ length: torus.size }, (_, n) => n).filter((n) => !dead.includes(n));
  // Each node walks the other live nodes in its own seeded order, one packet every 24 cycles.
  const random = mulberry32(seed);
  const orders = live.map((s) => {
    const others = live.filter((t) => t !== s);
    for (let i = others.length - 1; i > 0; i--) {
      const j = floor(random() * (i + 1));
      [others[i], others[j]] = [others[j], others[i]];
    }
    return others;
  });
  const reached = new Set<number>();
  sim.onDeliver = (p) => {
    reached.add(sim.packetSource(p) * torus.size + sim.packetDestination(p));
    deliveries.push(sim.packetSource(p), sim.packetDestination(p), sim.cycle);
  };
  let round = 0;
  while (round < live.length - 1) {
    const r = round++;
    sim.run(24, (cycle) => {
      if (cycle % 24 !== 0) return;
      live.forEach((s, i) => sim.send(s, orders[i][r], 1 + ((s + r) % 8)));
    });
  }
  sim.drain(2_000_000);
  return { sim, pairs: live.length * (live.length - 1), reached: reached.size, deliveries };
}

describe('BlueGene/L: routing around dead nodes, emulated (paper 002 §2: "full connectivity can be maintained when there are up to three faulty nodes, provided they are not co-linear")', () => {
  it('seeded sets of up to three dead nodes not on one line on 4×4×4: every live pair reached, nothing lost', async () => {
    const torus = new Torus([4, 4, 4]);
    const random = mulberry32(36);
    for (let sample = 0; sample < 6; sample++) {
      let dead: number[];
      do {
        dead = [...new Set(Array.from({ length: 1 + (sample % 3) }, () => floor(random() * 64)))];
      } while (dead.length === 3 && torus.colinear(dead));
      const { sim, pairs, reached } = await allPairs([4, 4, 4], dead, sample + 1);
      expect({ dead, reached, inFlight: sim.inFlight, discarded: [...sim.discarded], delivered: sim.delivered }).toEqual({
        dead,
        reached: pairs,
        inFlight: 0,
        discarded: [],
        delivered: pairs,
      });
    }
  });

  it('three dead nodes on an 8×8×8 midplane: all 509 × 508 live pairs reached, nothing lost', async () => {
    const torus = new Torus([8, 8, 8]);
    const dead = [torus.index(1, 2, 3), torus.index(2, 2, 3), torus.index(1, 3, 3)];
    const { sim, pairs, reached } = await allPairs([8, 8, 8], dead, 7);
    expect({ reached, inFlight: sim.inFlight, discarded: [...sim.discarded] }).toEqual({ reached: pairs, inFlight: 0, discarded: [] });
  });

  it('the fault set broadcast once, each node building its own table as it sends: every packet delivered when and where the tables written node by node deliver it', async () => {
    const torus = new Torus([4, 4, 4]);
    const dead = [torus.index(1, 2, 3), torus.index(2, 2, 3), torus.index(0, 1, 1)];
    const tables = await allPairs([4, 4, 4], dead, 3, 'tables');
    const broadcast = await allPairs([4, 4, 4], dead, 3, 'broadcast');
    expect(broadcast.reached).toBe(broadcast.pairs);
    expect(broadcast.deliveries).toEqual(tables.deliveries);
    expect([...broadcast.sim.discarded]).toEqual([]);
  });
});
