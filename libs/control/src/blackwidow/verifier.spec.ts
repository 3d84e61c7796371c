import { defaultCableLengths, FabricDesign, generateBlackWidowDesign, BlackWidowNetwork } from '@weft/fabric-model';
import type { DiscoveryResult } from '../discovery/discovery-sweep';
import type { MatchedFabric } from '../discovery/match-design';
import { computeBlackWidowImage, ConfigurationImage } from './blackwidow-engine';
import { verifyConfiguration } from './verifier';

/** The fabric as if discovery had found exactly the design (the verifier is a pure function). */
function asDesigned(network: BlackWidowNetwork, processors: number, slices = 1): { design: FabricDesign; image: ConfigurationImage; matched: MatchedFabric } {
  const design = generateBlackWidowDesign({ network, processors, slices, r1Uplinks: 32, portSeed: 11, cableLengths: defaultCableLengths(processors) });
  const names = new Map(design.chips.map((c, i) => [i + 1, c.name]));
  const discovered: DiscoveryResult = {
    chips: design.chips.map((c, i) => ({ serial: i + 1, kind: c.kind, portCount: c.portCount, route: [], slice: c.slice })),
    links: [],
    unanswered: [],
    requests: 0,
  };
  const matched: MatchedFabric = { names, findings: [], cables: design.cables.map((c) => ({ a: c.a, b: c.b, lanes: 3 })) };
  return { design, image: computeBlackWidowImage(discovered, matched, design), matched };
}

const verify = (f: ReturnType<typeof asDesigned>, processors: number, diameter: number, extra: Partial<Parameters<typeof verifyConfiguration>[0]> = {}) =>
  verifyConfiguration({
    image: f.image,
    cables: f.matched.cables,
    processors: Array.from({ length: processors }, (_, i) => i),
    slices: [0],
    diameter,
    ...extra,
  });

describe('verifier (paper 000 §5, §7.7)', () => {
  it('proves the computed R1.5 and R2 configurations: everyone reaches everyone within the diameter', () => {
    const r15 = verify(asDesigned('R1.5', 288), 288, 2);
    expect(r15).toMatchObject({ ok: true, violations: [], pairsProven: 9 * 9, maxHops: 2 });
    const r2 = verify(asDesigned('R2', 1024), 1024, 3);
    expect(r2).toMatchObject({ ok: true, violations: [], pairsProven: 32 * 32, maxHops: 3 });
  });

  it('proves an R2.5 design (sidelinks between 512-processor subtrees) too', () => {
    expect(verify(asDesigned('R2.5', 1536), 1536, 4)).toMatchObject({ ok: true, maxHops: 4 });
  });

  it('finds a destination no table entry covers', () => {
    const f = asDesigned('R1.5', 96);
    const vr = f.image.routers.find((r) => r.name === 's0.r1.0')!.virtualRouters[0] as unknown as { table: unknown[] };
    vr.table.pop();
    const result = verify(f, 96, 2);
    expect(result.ok).toBe(false);
    expect(result.violations.map((v) => v.message)).toContain('s0.r1.0 has no table entry for processors 64–95');
  });

  it('refuses a route over a dead cable or a declared fault', () => {
    const f = asDesigned('R1.5', 96);
    const side = f.image.routers.find((r) => r.name === 's0.r1.0')!.virtualRouters[0].table[0].ports[0];
    const dead = verify(f, 96, 2, { faultyPorts: new Set([`s0.r1.0:${side}`]) });
    expect(dead.violations[0]).toMatchObject({ kind: 'uses-fault', message: `s0.r1.0:${side} is dead or faulty but routes processors 32–63` });
  });

  it('catches a route that turns up after going down (§7.7)', () => {
    const f = asDesigned('R1.5', 96);
    // Subtree 1 no longer claims processors 32–63: packets arriving on its sidelinks would go up again.
    const r1 = f.image.routers.find((r) => r.name === 's0.r1.1')!;
    for (const vr of r1.virtualRouters) (vr as unknown as { rootDetect: readonly [number, number] }).rootDetect = [0x4000, 0x1f];
    const result = verify(f, 96, 2);
    expect(result.violations.some((v) => v.kind === 'up-after-down')).toBe(true);
  });

  it('reports a path longer than the diameter', () => {
    expect(verify(asDesigned('R2', 1024), 1024, 2).violations[0]).toMatchObject({ kind: 'too-many-hops' });
  });
});
