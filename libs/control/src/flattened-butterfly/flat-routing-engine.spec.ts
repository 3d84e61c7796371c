import { join } from 'node:path';
import { EmulatedFabric, FlatHostedEngine, FlatMaintenanceController } from '@weft/emulator';
import { FLAT_PACKAGING, generateFlatDesign, loadInstallationFile } from '@weft/fabric-model';
import { FaultSet } from '../faults/fault-set';
import { discoverFlat } from './flat-discovery';
import { reconcileFlatImage } from './flat-registry';
import { FlatRoutingEngine } from './flat-routing-engine';

const fixture = (name: string) => loadInstallationFile(join(__dirname, '../../../../fixtures/flattened-butterfly', name));

async function configured(design = generateFlatDesign({ k: 4, n: 3, radix: 10, spareUse: 'unused', packaging: FLAT_PACKAGING }), physical = design) {
  const hosted = new FlatHostedEngine(new EmulatedFabric(physical), 1);
  const transport = new FlatMaintenanceController(hosted.sim, hosted.fabric);
  const known = await discoverFlat(transport, design);
  return { hosted, transport, known, engine: new FlatRoutingEngine(known) };
}

describe('the flattened butterfly routing engine (spec §3.4)', () => {
  it('discovers a fabric cabled by eq. (1) with nothing to report, proves its UGAL configuration and pushes it; the routers then carry traffic', async () => {
    const { hosted, transport, known, engine } = await configured();
    expect(known.matched.findings).toEqual([]);
    // 16 routers, 3 peers in each of 2 dimensions, a cable each pair.
    expect(known.discovered.links).toHaveLength((16 * 6) / 2);
    const computed = engine.compute(FaultSet.NONE);
    const proof = engine.verify(computed);
    expect(proof).toMatchObject({ ok: true, violations: [], maxHops: 4, endpointsProven: 64, pairsProven: 16 * 15 });
    const pushed = await reconcileFlatImage(transport, computed.image);
    // Ten registers a router, but for what a fresh router already holds: no doubled channels, no masked ports, no detours, no excluded intermediates, and r0.0's coordinates 0.0.
    expect(pushed).toMatchObject({ checked: 16 * 10, rewritten: 16 * 10 - 16 * 4 - 1, failures: [] });
    const sim = hosted.sim;
    for (let t = 0; t < 64; t++) sim.send(t, (t * 29 + 7) % 64);
    for (let i = 0; i < 200; i++) hosted.step();
    expect(hosted.books()).toEqual({ created: 64, delivered: 64, discarded: {}, inFlight: 0, balanced: true });
    // Read back again: every register holds.
    expect(await reconcileFlatImage(transport, computed.image)).toMatchObject({ rewritten: 0, failures: [] });
  });

  it('names both ends of each miscabled or missing cable, masks them and routes round them by detours on the VCs they add: nothing lost', async () => {
    const installation = fixture('fb-4ary-3flat-64-miscabled.json');
    const { hosted, transport, known, engine } = await configured(installation.expected, installation.physical);
    const findings = known.matched.findings.map((f) => f.message);
    expect(findings.some((m) => m.includes('r1.0') && m.includes('r2.1'))).toBe(true);
    expect(findings.some((m) => m.includes('r3.3') && m.includes('r3.0'))).toBe(true);
    const computed = engine.compute(FaultSet.NONE);
    // The two swapped cables and the missing one, as designed, masked at both ends.
    expect(computed.image.masked).toHaveLength(3);
    expect(computed.image).toMatchObject({ detours: true, cut: [] });
    expect(computed.image.routers[0].vcMap).toEqual([0, 2, 1, 3]);
    const proof = engine.verify(computed);
    expect(proof).toMatchObject({ ok: true, violations: [] });
    expect(proof.maxHops).toBe(6);
    expect((await reconcileFlatImage(transport, computed.image)).failures).toEqual([]);
    // Every terminal to every other but its router's: those whose way crosses a masked channel go round it.
    for (let s = 0; s < 64; s++) for (let t = 0; t < 64; t += 5) if (Math.floor(s / 4) !== Math.floor(t / 4)) hosted.sim.send(s, t);
    for (let i = 0; i < 2000 && !hosted.idle(); i++) hosted.step();
    expect(hosted.books()).toMatchObject({ discarded: {}, inFlight: 0, balanced: true });
    // Minimal routing: its detours too; no pair cut.
    expect(engine.applySettings({ routing: 'min' })).toEqual([]);
    const minimal = engine.compute(FaultSet.NONE);
    expect(minimal.image.routers[0].vcMap).toEqual([0, 1, 2]);
    expect(engine.verify(minimal)).toMatchObject({ ok: true, maxHops: 3 });
    expect(minimal.image.cut).toEqual([]);
  });

  it('leaves a dead router out: its channels masked, never an intermediate, its terminals said unreachable', async () => {
    // One dimension (an 8-ary 2-flat): every walk between live routers is one hop, or a detour's two.
    const { engine } = await configured(generateFlatDesign({ k: 8, n: 2, radix: 15, spareUse: 'unused', packaging: FLAT_PACKAGING }));
    const faults = FaultSet.of([{ kind: 'router', chip: 'r3', port: null }], () => 15);
    const computed = engine.compute(faults);
    expect(computed.image.deadRouters).toEqual(['r3']);
    expect(computed.image.routers.every((r) => r.excludedIntermediates.join() === '3')).toBe(true);
    expect(engine.verify(computed)).toMatchObject({ ok: true, violations: [] });
    expect(engine.unreachable(computed)).toEqual([{ kind: 'terminals', router: 'r3' }]);
    // MIN AD round masks is not proven yet: refused, saying so.
    expect(engine.applySettings({ routing: 'min-ad' })).toEqual([]);
    expect(engine.verify(engine.compute(faults))).toMatchObject({ ok: false, violations: [{ kind: 'not-proven' }] });
  });

  it('refuses a configuration whose dimension-order walks a dead router strands: two dimensions, walks that must cross it', async () => {
    const { engine } = await configured();
    const computed = engine.compute(FaultSet.of([{ kind: 'router', chip: 'r1.2', port: null }], () => 10));
    const proof = engine.verify(computed);
    expect(proof.ok).toBe(false);
    // From the other routers of its dimension-1 row to the rest of its column: dimension 1 first leads through r1.2.
    expect(proof.violations[0].message).toMatch(
      /^9 of 210 dimension-order walks between live routers find no way round the masked channels \(r0\.2 → r1\.0, r1\.1, r1\.3;/,
    );
  });

  it('fails over to a doubled channel (Fig. 14(a)) where the primary is masked: no detour, nothing lost', async () => {
    const design = generateFlatDesign({ k: 8, n: 2, radix: 16, spareUse: 'redundant', packaging: FLAT_PACKAGING });
    const { hosted, transport, engine } = await configured(design);
    // r0's primary channel to r1 is its port 8; the 16th port (15) doubles it.
    const computed = engine.compute(FaultSet.of([{ kind: 'link', chip: 'r0', port: 8 }], () => 16));
    const r0 = computed.image.routers[0];
    expect([r0.portMap[1], r0.redundantMap[1], r0.portMask[8], r0.portMask[15]]).toEqual([8, 15, 1, 0]);
    expect(computed.image.detours).toBe(false);
    expect(engine.verify(computed)).toMatchObject({ ok: true });
    expect((await reconcileFlatImage(transport, computed.image)).failures).toEqual([]);
    for (let t = 0; t < 8; t++) hosted.sim.send(t, 8 + t);
    for (let i = 0; i < 100; i++) hosted.step();
    expect(hosted.books()).toMatchObject({ delivered: 8, discarded: {}, balanced: true });
    expect(hosted.sim.portFlits[0 * 16 + 15]).toBeGreaterThan(0);
    expect(hosted.sim.portFlits[0 * 16 + 8]).toBe(0);
  });

  it('refuses a setting it cannot take, naming it', async () => {
    const { engine } = await configured();
    expect(engine.applySettings({ routing: 'zigzag', allocator: 'eager' })).toEqual([
      'routing: one of min, min-ad, val, ugal, ugal-s, clos-ad, got "zigzag"',
      'allocator: greedy or sequential, got "eager"',
    ]);
    expect(engine.settings()).toEqual({ routing: 'ugal' });
  });
});
