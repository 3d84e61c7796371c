import { generateAnton2Design, shippedAnton2Floorplan } from '@weft/fabric-model';
import { Anton2MaintenanceController, Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { anton2Faults, computeAnton2Image, pushAnton2Image, verifyAnton2Image } from './anton2-configuration';
import { discoverAnton2 } from './anton2-discovery';
import type { Anton2MulticastGroup } from './anton2-multicast';

describe('configuring an Anton 2 machine', () => {
  const design = generateAnton2Design({ shape: [4, 4, 4], backplaneChannelNs: 2, cableChannelNs: 10 });

  async function configured(faults: (sim: Anton2Sim) => void, groups = new Map<number, Anton2MulticastGroup>()) {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 2);
    faults(sim);
    const transport = new Anton2MaintenanceController(sim);
    const known = await discoverAnton2(transport, design);
    const image = computeAnton2Image(design, anton2Faults(known, sim.torus), undefined, undefined, groups);
    const verdict = verifyAnton2Image(image, 'random');
    const pushed = await pushAnton2Image(transport, design, image);
    return { sim, image, verdict, pushed };
  }

  it('discovers, computes, proves and pushes: every pair of live ASICs then talks, every packet delivered', async () => {
    const { sim, verdict, pushed } = await configured(() => undefined);
    expect(verdict.problems).toEqual([]);
    expect(verdict.dependencies.acyclic).toBe(true);
    expect(pushed.failure).toBeUndefined();
    for (let s = 0; s < sim.nodes; s++) for (let t = 0; t < sim.nodes; t++) sim.send(s, (s + t) % 23, t, t % 23);
    sim.run(60_000);
    expect(sim.delivered).toBe(sim.nodes * sim.nodes);
  });

  it('routes around a dead channel and a dead ASIC: nothing is sent into them, every reachable pair still delivers', async () => {
    const dead = 42;
    const { sim, image, verdict } = await configured((s) => {
      s.setChannelDown(5, 2, true); // x1.y1.z0's X0−
      s.setChannelDown(20, 9, true); // x0.y1.z1's Z1+
      s.killNode(dead);
    });
    expect(verdict.ok).toBe(true);
    const unreachable = new Set(image.policy.unreachable.map(([a, b]) => `${a}>${b}`));
    let sent = 0;
    for (let s = 0; s < sim.nodes; s++)
      for (let t = 0; t < sim.nodes; t++) {
        if (s === dead || t === dead || unreachable.has(`${s}>${t}`)) continue;
        for (let i = 0; i < 4; i++) sim.send(s, i, t, i);
        sent += 4;
      }
    sim.run(80_000);
    expect([...sim.discarded]).toEqual([]);
    expect(sim.delivered).toBe(sent);
  });

  it('builds multicast trees around a dead channel, pushes the tables, and every copy arrives once', async () => {
    const destinations = [5, 6, 9, 10, 27, 37, 58].map((node) => ({ node, endpoint: node % 23 }));
    const { sim, image, verdict, pushed } = await configured((s) => s.setChannelDown(1, 0, true), new Map([[7, { source: 1, destinations }]]));
    expect(verdict.problems).toEqual([]);
    expect(pushed.failure).toBeUndefined();
    for (const tree of image.plans.get(7)!.trees) expect(tree.channels).not.toContain(1 * 12 + 0);
    const got = new Map<number, number>();
    sim.onDeliver = (p) => got.set(sim.packetDestination(p), (got.get(sim.packetDestination(p)) ?? 0) + 1);
    for (let i = 0; i < 50; i++) {
      sim.sendMulticast(1, 0, 7, i & 1);
      sim.run(30);
    }
    sim.run(20_000);
    expect([...sim.discarded]).toEqual([]);
    expect([...got].sort((a, b) => a[0] - b[0])).toEqual(destinations.map((d) => [d.node, 50]));
  });
});
