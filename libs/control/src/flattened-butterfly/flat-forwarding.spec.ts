import { EmulatedFabric, FlatHostedEngine, FlatMaintenanceController } from '@weft/emulator';
import { FLAT_PACKAGING, generateFlatDesign } from '@weft/fabric-model';
import { channelLoad, patternFlows } from '../analysis/channel-load';
import { traceRoute } from '../analysis/route-trace';
import { FaultSet } from '../faults/fault-set';
import { discoverFlat } from './flat-discovery';
import { flatForwarding } from './flat-forwarding';
import { FlatRoutingEngine } from './flat-routing-engine';

async function reading(routing: string, faults = FaultSet.NONE) {
  const design = generateFlatDesign({ k: 4, n: 3, radix: 10, spareUse: 'unused', packaging: FLAT_PACKAGING });
  const hosted = new FlatHostedEngine(new EmulatedFabric(design), 1);
  const known = await discoverFlat(new FlatMaintenanceController(hosted.sim, hosted.fabric), design);
  const engine = new FlatRoutingEngine(known);
  expect(engine.applySettings({ routing })).toEqual([]);
  return flatForwarding(known, engine.compute(faults).image);
}

describe('the flattened butterfly read for the route analyses', () => {
  it('traces a minimal route by dimension order, terminal to terminal, and a masked hop by its detour on the next VC', async () => {
    // r1.0's terminal 2 (endpoint 4·1 + 2) to r3.2's terminal 1 (endpoint 4·(3 + 4·2) + 1).
    const plain = traceRoute(await reading('min'), 6, 45, { plane: 0, vc: 0, hashBits: null });
    expect(plain).toMatchObject({ outcome: 'delivered', injection: { chip: 'r1.0', port: 2 } });
    expect(plain.hops.map((h) => [h.chip, h.farEnd.chip, h.vc])).toEqual([
      ['r1.0', 'r3.0', 0],
      ['r3.0', 'r3.2', 1],
    ]);
    // r1.0's channel to r3.0 (its port 6) declared faulty.
    const around = traceRoute(
      await reading(
        'min',
        FaultSet.of([{ kind: 'link', chip: 'r1.0', port: 6 }], () => 10),
      ),
      6,
      45,
      { plane: 0, vc: 0, hashBits: null },
    );
    expect(around.outcome).toBe('delivered');
    expect(around.hops).toHaveLength(3);
    expect(around.hops[0].how).toMatch(/a detour round a masked channel/);
    expect(around.hops.map((h) => h.vc)).toEqual([0, 1, 2]);
  });

  it('spreads VAL over every intermediate and loads the channels of the adversarial pattern as the algorithm would', async () => {
    const val = await reading('val');
    const first = val.decide({ chip: 'r0.0', port: 0 }, { destination: 63, vc: 0, hashBits: null });
    expect(first.kind === 'forward' && first.choices.reduce((s, c) => s + c.share, 0)).toBeCloseTo(1, 9);
    const endpoints = val.endpoints.map((e) => e.number);
    const flows = patternFlows({ kind: 'adversarial' }, endpoints, { endpointsPerRouter: val.endpointsPerRouter }, 3, 4);
    const minimal = await channelLoad(await reading('min'), flows, { planes: [0], vc: 0 });
    const spread = await channelLoad(val, flows, { planes: [0], vc: 0 });
    expect(minimal.undeliverable).toBe(0);
    expect(spread.undeliverable).toBe(0);
    // Router i's four terminals all to router i + 1: minimal routing piles them on one channel; VAL spreads them.
    expect(spread.loads[0].load).toBeLessThan(minimal.loads[0].load);
  });
});
