import { FaultSet } from '../faults/fault-set';
import { defaultCableLengths, FabricDesign, generateBlackWidowDesign, BlackWidowNetwork } from '@weft/fabric-model';
import type { MatchedFabric } from '../discovery/match-design';
import { designAsDiscovered } from '../discovery/known-fabric';
import { computeBlackWidowImage, ConfigurationImage } from './blackwidow-engine';
import { verifyConfiguration } from './verifier';

/** The fabric as if discovery had found exactly the design (the verifier is a pure function). */
function asDesigned(network: BlackWidowNetwork, processors: number, slices = 1): { design: FabricDesign; image: ConfigurationImage; matched: MatchedFabric } {
  const design = generateBlackWidowDesign({ network, processors, slices, r1Uplinks: 32, portSeed: 11, cableLengths: defaultCableLengths(processors) });
  const { discovered, matched } = designAsDiscovered(design, 'p0');
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
    const dead = verify(f, 96, 2, { faults: FaultSet.of([{ kind: 'link', chip: 's0.r1.0', port: side }], () => 64) });
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

  it('proves nothing when no router could be configured, and says so: every live processor is named (was ok with 0 pairs)', () => {
    const f = asDesigned('R1.5', 288);
    const result = verify({ ...f, image: { ...f.image, routers: [] } }, 288, 2);
    expect(result.ok).toBe(false);
    expect(result.pairsProven).toBe(0);
    expect(result.endpointsProven).toBe(0);
    expect(result.violations.filter((v) => v.kind === 'endpoint-left-out').map((v) => v.message)).toEqual(
      Array.from(
        { length: 9 },
        (_, r) =>
          `processors ${r * 32}–${r * 32 + 31} in slice 0 are live but left out of the proof: s0.r1.${r}, their router, is not configured by this image`,
      ),
    );
  });

  it('names the processors under a router the image leaves out, besides the routes that lead to it', () => {
    const f = asDesigned('R1.5', 288);
    const result = verify({ ...f, image: { ...f.image, routers: f.image.routers.filter((r) => r.name !== 's0.r1.3') } }, 288, 2);
    expect(result.ok).toBe(false);
    expect(result.violations.map((v) => v.message)).toContain(
      'processors 96–127 in slice 0 are live but left out of the proof: s0.r1.3, their router, is not configured by this image',
    );
  });

  it('counts every live endpoint it proves, in every slice', () => {
    expect(verify(asDesigned('R1.5', 288), 288, 2)).toMatchObject({ ok: true, endpointsProven: 288 });
  });

  it('reports a path longer than the diameter', () => {
    expect(verify(asDesigned('R2', 1024), 1024, 2).violations[0]).toMatchObject({ kind: 'too-many-hops' });
  });
});

describe('link-layer settings (§4.3, §4.4, §7.2)', () => {
  it('runs an octant of long cables at the rate they can be driven at, and programs the timers', () => {
    const design = generateBlackWidowDesign({
      network: 'R2.5',
      processors: 1536,
      slices: 1,
      r1Uplinks: 32,
      portSeed: 0,
      cableLengths: { injection: 0.5, r1r2: 4, r2r3: 5, side: 10 },
    });
    const { discovered, matched } = designAsDiscovered(design, 'p0');
    const image = computeBlackWidowImage(discovered, matched, design, { laneRetryThreshold: 8, forwardProgressTimeoutNs: 50_000, maxPacketLength: 19 });
    const r2 = image.routers.find((r) => r.name === 's0.r2.0.0')!;
    // Virtual router 0: ports 0–15 down (4 m), 16–31 side (10 m); the same again for ports 32–63.
    expect(r2.link.octantRates).toEqual([6.25, 6.25, 3.125, 3.125, 6.25, 6.25, 3.125, 3.125]);
    expect(r2.link).toMatchObject({ laneRetryThreshold: 8, forwardProgressTimer: 40_000, maxPacketLength: 19 });
  });
});
