import { ANTON2_ORDERS, anton2TorusRoute, defaultDatelines, generateAnton2Design, shippedAnton2Floorplan } from '@weft/fabric-model';
import { Anton2MaintenanceController, Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { FaultSet } from '../faults/fault-set';
import { quickAgainstWalked } from '../testing/quick-loads';
import { DEFAULT_ANTON2_CONFIGURATION } from './anton2-configuration';
import { discoverAnton2 } from './anton2-discovery';
import { anton2Forwarding } from './anton2-forwarding';
import { Anton2RoutingEngine } from './anton2-routing-engine';

describe('the route analyses’ reading of an Anton 2 image', () => {
  it('follows, hop by hop and VC by VC, the dimension-order route of every order the source may draw', async () => {
    const design = generateAnton2Design({ shape: [5, 4, 6], backplaneChannelNs: 2, cableChannelNs: 10 });
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 1);
    const known = await discoverAnton2(new Anton2MaintenanceController(sim), design);
    const engine = new Anton2RoutingEngine(known, { ...DEFAULT_ANTON2_CONFIGURATION, tieRule: 'plus' });
    const image = engine.compute(FaultSet.NONE).image;
    const forwarding = anton2Forwarding(known, image, 'plus');
    const torus = sim.torus;
    const datelines = defaultDatelines(torus);
    const wrong: string[] = [];
    for (let i = 0; i < 300; i++) {
      const s = (i * 37) % torus.size;
      const t = (i * 53 + 7) % torus.size;
      if (s === t) continue;
      const slice = i & 1;
      const start = forwarding.decide(forwarding.injection(s, slice)!, { destination: t, vc: 0, hashBits: null });
      if (start.kind !== 'forward') throw new Error(`no route from ${s} to ${t}`);
      expect(start.choices.reduce((a, c) => a + c.share, 0)).toBeCloseTo(1, 9);
      for (const first of start.choices) {
        const order = Number(first.state!.split('.')[0]);
        const expected = anton2TorusRoute(torus, s, t, ANTON2_ORDERS[order], slice, datelines, 'plus');
        const ports: number[] = [];
        let at = { chip: forwarding.injection(s, slice)!.chip, port: first.port };
        let vc = first.state!.split('.')[1] === '1' ? 1 : 0;
        let state = first.state;
        ports.push(first.port);
        const vcs = [vc];
        for (let hop = 0; hop < 20; hop++) {
          const arrived = forwarding.peer(at)!;
          const decision = forwarding.decide(arrived, { destination: t, vc, hashBits: null, state });
          if (decision.kind === 'deliver') break;
          if (decision.kind === 'drop') throw new Error(decision.reason);
          const taken = decision.choices.find((c) => c.port === decision.chosen)!;
          ports.push(decision.chosen);
          vc = decision.vc;
          vcs.push(vc);
          state = taken.state;
          at = { chip: arrived.chip, port: decision.chosen };
        }
        const same = ports.join() === expected.hops.map((h) => h.port).join() && vcs.join() === expected.hops.map((h) => h.vc).join();
        if (!same) wrong.push(`${s}→${t} order ${order}: ${ports}/${vcs} against ${expected.hops.map((h) => h.port)}/${expected.hops.map((h) => h.vc)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('counts a channel load quickly (issue 54 §11) and exactly as the walk through the ASICs’ decisions does, ties spread and round a dead ASIC', async () => {
    const design = generateAnton2Design({ shape: [5, 4, 6], backplaneChannelNs: 2, cableChannelNs: 10 });
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 1);
    const known = await discoverAnton2(new Anton2MaintenanceController(sim), design);
    const engine = new Anton2RoutingEngine(known, { ...DEFAULT_ANTON2_CONFIGURATION, tieRule: 'random' });
    const image = engine.compute(FaultSet.of([{ kind: 'router', chip: 'x1.y3.z1', port: null }], () => 12)).image;
    const forwarding = anton2Forwarding(known, image, 'random');
    expect(forwarding.quickLoad).toBeDefined();
    const flows = Array.from({ length: 120 }, (_, s) => Array.from({ length: 120 }, (_, t) => ({ source: s, destination: t, rate: 1 / 120 }))).flat();
    const { quick, differences } = await quickAgainstWalked(forwarding, flows, [0, 1]);
    expect(differences).toEqual([]);
    expect(quick.undeliverable).toBeGreaterThan(0);
  });
});
