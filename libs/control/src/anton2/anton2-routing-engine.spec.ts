import { generateAnton2Design, shippedAnton2Floorplan } from '@weft/fabric-model';
import { Anton2MaintenanceController, Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { FaultSet } from '../faults/fault-set';
import { discoverAnton2 } from './anton2-discovery';
import { anton2WriteList } from './anton2-configuration';
import { Anton2RoutingEngine, Anton2EngineImage } from './anton2-routing-engine';

describe('the Anton 2 routing engine', () => {
  const design = generateAnton2Design({ shape: [4, 4, 2], backplaneChannelNs: 2, cableChannelNs: 10 });

  async function push(transport: Anton2MaintenanceController, image: Anton2EngineImage, only?: readonly string[]) {
    for (const asic of image.routers) {
      if (only && !only.includes(asic.name)) continue;
      for (const w of anton2WriteList(asic)) expect((await transport.write(asic.route, w.register, w.index, [...w.value])).ok).toBe(true);
    }
  }

  it('computes a proven configuration, one around a declared dead ASIC, and nothing new for faults it has already routed around', async () => {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 3);
    const transport = new Anton2MaintenanceController(sim);
    const engine = new Anton2RoutingEngine(await discoverAnton2(transport, design));
    const first = engine.compute(FaultSet.NONE);
    const proof = engine.verify(first);
    expect(proof.violations).toEqual([]);
    expect(proof.ok).toBe(true);
    engine.adopt(first, proof);
    await push(transport, first.image);
    for (let s = 0; s < sim.nodes; s++) for (let t = 0; t < sim.nodes; t++) sim.send(s, 0, t, 1);
    sim.run(40_000);
    expect(sim.delivered).toBe(sim.nodes * sim.nodes);

    const dead = 'x1.y2.z0';
    const faults = FaultSet.of([{ kind: 'router', chip: dead, port: null }], () => 12);
    const second = engine.compute(faults);
    const secondProof = engine.verify(second);
    expect(secondProof.ok).toBe(true);
    expect(second.image.routers.map((r) => r.name)).not.toContain(dead);
    // The policy and every ASIC's weights move around it (its neighbours' routes, everyone's loads).
    expect(second.changedRouters.length).toBeGreaterThan(0);
    engine.adopt(second, secondProof);
    const again = engine.compute(faults);
    expect(again.changedRouters).toEqual([]);
    again.image.routers.forEach((r, i) => expect(r).toBe(second.image.routers[i]));
    sim.killNode(design.chips.findIndex((c) => c.name === dead));
    await push(transport, second.image, second.changedRouters);
    const cut = new Set(second.image.cut.flatMap((c) => c.destinations.map((d) => `${c.source}>${d}`)));
    const names = design.chips.map((c) => c.name);
    let sent = 0;
    const before = sim.delivered;
    for (let s = 0; s < sim.nodes; s++)
      for (let t = 0; t < sim.nodes; t++) {
        if (names[s] === dead || names[t] === dead || cut.has(`${names[s]}>${names[t]}`)) continue;
        sim.send(s, 0, t, 1);
        sent++;
      }
    sim.run(40_000);
    expect([...sim.discarded]).toEqual([]);
    expect(sim.delivered - before).toBe(sent);
  });

  it('reacts to a dead channel with the routes that cross it alone, and brings the weights around it in a generation of its own', async () => {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 3);
    const known = await discoverAnton2(new Anton2MaintenanceController(sim), design);
    const engine = new Anton2RoutingEngine(known);
    const first = engine.compute(FaultSet.NONE);
    engine.adopt(first, engine.verify(first));
    expect(engine.optimise()).toBeNull();
    const faults = FaultSet.of([{ kind: 'link', chip: 'x1.y1.z0', port: 0 }], () => 12);
    const routes = engine.compute(faults);
    const proof = engine.verify(routes);
    expect(proof.ok).toBe(true);
    expect(routes.incremental).toBe(true);
    expect(routes.deferred).toMatch(/arbiter weights/);
    // Routes first: only route policies change, every weight array is the one in force.
    const before = new Map(first.image.routers.map((r) => [r.name, r]));
    for (const asic of routes.image.routers) {
      const old = before.get(asic.name)!;
      expect(asic.arbiterWeights).toBe(old.arbiterWeights);
      if (routes.changedRouters.includes(asic.name)) expect(asic.routePolicy).not.toEqual(old.routePolicy);
      else expect(asic).toBe(old);
    }
    expect(routes.changedRouters.length).toBeGreaterThan(0);
    engine.adopt(routes, proof);
    // Weights after: what a full computation around the fault gives, written only where a weight changed.
    const weights = engine.optimise()!;
    expect(weights.deferred).toBeUndefined();
    expect(engine.verify(weights).ok).toBe(true);
    const full = new Anton2RoutingEngine(known).compute(faults);
    weights.image.routers.forEach((asic, i) => {
      expect(asic.arbiterWeights).toEqual(full.image.routers[i].arbiterWeights);
      expect(asic.routePolicy).toBe(routes.image.routers[i].routePolicy);
      if (!weights.changedRouters.includes(asic.name)) expect(asic).toBe(routes.image.routers[i]);
    });
    expect(weights.changedRouters.length).toBeGreaterThan(0);
    engine.adopt(weights, engine.verify(weights));
    expect(engine.optimise()).toBeNull();
  });

  it('refuses, with the cycle, a configuration whose datelines the options would misplace', async () => {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 3);
    const engine = new Anton2RoutingEngine(await discoverAnton2(new Anton2MaintenanceController(sim), design));
    const computed = engine.compute(FaultSet.NONE);
    // An X − dateline one node off the + on every ASIC, as a misconfigured image would carry.
    computed.configuration.datelineMinus.forEach((_, i) => i % 3 === 0 && (computed.configuration.datelineMinus[i] = 1));
    const proof = engine.verify(computed);
    expect(proof.ok).toBe(false);
    expect(proof.violations.map((v) => v.kind)).toContain('registers');
    expect(proof.violations.find((v) => v.kind === 'dependency-cycle')?.message).toMatch(/^the channel dependencies close a cycle: /);
  });

  it('takes an operator’s weight patterns and multicast groups whole or not at all, naming each problem, and serves a group around a dead destination', async () => {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 3);
    const engine = new Anton2RoutingEngine(await discoverAnton2(new Anton2MaintenanceController(sim), design));
    const uniform = engine.compute(FaultSet.NONE);
    expect(
      engine.applySettings({
        arbiterPatterns: [{ name: 'tornado' }, { name: 'neighbour', hops: 4 }],
        multicastGroups: [
          { group: 1, source: 'x9.y0.z0', destinations: [] },
          {
            group: 1,
            source: 'x0.y0.z0',
            destinations: [
              { chip: 'x1.y0.z0', endpoints: [3, 23, 3] },
              { chip: 'nowhere', endpoints: [] },
            ],
          },
        ],
      }),
    ).toEqual([
      'arbiterPatterns[1].hops: 1 to 2, got 4',
      'multicastGroups[0].source: no ASIC is named "x9.y0.z0"',
      'multicastGroups[0].destinations: the set is empty',
      'multicastGroups[1].group: group 1 is listed twice',
      'multicastGroups[1].destinations[0].endpoints[1]: an ASIC has endpoint adapters 0 to 22, got 23',
      'multicastGroups[1].destinations[0].endpoints[2]: x1.y0.z0 endpoint 3 is in the set twice',
      'multicastGroups[1].destinations[1].chip: no ASIC is named "nowhere"',
      'multicastGroups[1].destinations[1].endpoints: at least one endpoint adapter',
    ]);
    // Nothing was taken: the same settings as before.
    expect(engine.settings()).toEqual({ arbiterPatterns: [{ name: 'uniform' }], multicastGroups: [] });
    // 257 groups from one source need 514 entries in its table of 512.
    const many = Array.from({ length: 257 }, (_, group) => ({ group, source: 'x0.y0.z0', destinations: [{ chip: 'x1.y1.z1', endpoints: [0] }] }));
    expect(engine.applySettings({ arbiterPatterns: [{ name: 'uniform' }], multicastGroups: many })).toEqual([
      'multicastGroups: the multicast table of x0.y0.z0 is full: 512 entries, and group 256 needs one more',
    ]);

    const settings = {
      arbiterPatterns: [{ name: 'tornado' }, { name: 'uniform' }],
      multicastGroups: [
        {
          group: 7,
          source: 'x0.y0.z0',
          destinations: [
            { chip: 'x2.y1.z0', endpoints: [0, 5] },
            { chip: 'x1.y3.z1', endpoints: [2] },
          ],
        },
      ],
    };
    expect(engine.applySettings(settings)).toEqual([]);
    expect(engine.settings()).toEqual(settings);
    const chosen = engine.compute(FaultSet.NONE);
    expect(engine.verify(chosen).ok).toBe(true);
    expect(chosen.configuration.weights).not.toEqual(uniform.configuration.weights);
    expect(chosen.configuration.plans.get(7)!.trees).toHaveLength(2);
    // A dead destination is left out of the trees, and said.
    const dead = engine.compute(FaultSet.of([{ kind: 'router', chip: 'x1.y3.z1', port: null }], () => 12));
    expect(engine.verify(dead).ok).toBe(true);
    expect(dead.configuration.groups.get(7)!.destinations).toHaveLength(2);
    expect(engine.unreachable(dead)).toContainEqual({ kind: 'multicast', group: 7, reason: 'x1.y3.z1 dead, left out of its trees' });
  });

  it('weighs the arbiters by a traffic matrix, each ASIC by its own loads, and refuses a matrix of the wrong shape', async () => {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 3);
    const engine = new Anton2RoutingEngine(await discoverAnton2(new Anton2MaintenanceController(sim), design));
    const n = 32;
    expect(engine.applySettings({ arbiterPatterns: [{ name: 'matrix', weights: [[1, 2]] }] })).toEqual([
      'arbiterPatterns[0].weights: 32 rows, one an ASIC by torus index, got 1',
    ]);
    const hot = Array.from({ length: n }, (_, s) => Array.from({ length: n }, (_, t) => (t === s ? 0 : t === 5 ? 10 : 0.1)));
    expect(engine.applySettings({ arbiterPatterns: [{ name: 'matrix', weights: hot }, { name: 'uniform' }] })).toEqual([]);
    const computed = engine.compute(FaultSet.NONE);
    expect(engine.verify(computed).ok).toBe(true);
    const asics = computed.image.routers;
    // The matrix's weights (the first of each pair) differ from ASIC to ASIC, as their loads do.
    const first = (r: (typeof asics)[number]) => r.arbiterWeights.filter((_, i) => i % 2 === 0).join(',');
    const hotAsic = asics.find((r) => r.nodeCoordinates.join(',') === '1,1,0')!;
    const other = asics.find((r) => r.nodeCoordinates.join(',') === '3,2,1')!;
    expect(first(hotAsic)).not.toEqual(first(other));
  });
});
