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
    // Seven registers a router, but for what a fresh router already holds: no masked ports, and r0.0's coordinates 0.0.
    expect(pushed).toMatchObject({ checked: 16 * 7, rewritten: 16 * 7 - 16 - 1, failures: [] });
    const sim = hosted.sim;
    for (let t = 0; t < 64; t++) sim.send(t, (t * 29 + 7) % 64);
    for (let i = 0; i < 200; i++) hosted.step();
    expect(hosted.books()).toEqual({ created: 64, delivered: 64, discarded: {}, inFlight: 0, balanced: true });
    // Read back again: every register holds.
    expect(await reconcileFlatImage(transport, computed.image)).toMatchObject({ rewritten: 0, failures: [] });
  });

  it('names both ends of each miscabled or missing cable, and masks them; minimal routing says the pairs it cuts, the others refuse to route unproven', async () => {
    const installation = fixture('fb-4ary-3flat-64-miscabled.json');
    const { known, engine } = await configured(installation.expected, installation.physical);
    const findings = known.matched.findings.map((f) => f.message);
    expect(findings.some((m) => m.includes('r1.0') && m.includes('r2.1'))).toBe(true);
    expect(findings.some((m) => m.includes('r3.3') && m.includes('r3.0'))).toBe(true);
    const computed = engine.compute(FaultSet.NONE);
    expect(computed.image.masked.length).toBeGreaterThanOrEqual(3);
    expect(engine.verify(computed)).toMatchObject({ ok: false, violations: [{ kind: 'not-proven' }] });
    expect(engine.applySettings({ routing: 'min' })).toEqual([]);
    const minimal = engine.compute(FaultSet.NONE);
    expect(engine.verify(minimal).ok).toBe(true);
    // r3.3's dimension-2 channel to r3.0 is gone: r3.3 cannot reach r3.0 by dimension order, nor r3.0 r3.3.
    expect(minimal.image.cut.find((c) => c.source === 'r3.3')?.destinations).toContain('r3.0');
    expect(engine.unreachable(minimal).length).toBeGreaterThan(0);
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
