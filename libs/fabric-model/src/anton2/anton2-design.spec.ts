import { join } from 'node:path';
import { loadInstallationFile } from '../installation/load-installation';
import { JsonChecker } from '../installation/json-checker';
import { anton2ChannelName } from '../chips/anton2-asic';
import { checkAnton2Design, generateAnton2Design } from './anton2-design';

const design = (shape: [number, number, number]) => generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 });

describe('Anton 2 designs: a channel-sliced torus of ASICs (paper 004 §2.2)', () => {
  it('8×8×8: twelve channels an ASIC, each cabled once to the neighbour its direction names, traces within a 4×4×1 backplane', () => {
    const d = design([8, 8, 8]);
    expect(d.chips).toHaveLength(512);
    expect(d.cables).toHaveLength(512 * 3 * 2);
    const used = new Set<string>();
    for (const c of d.cables) {
      for (const end of [c.a, c.b]) {
        expect(used.has(`${end.chip}:${end.port}`)).toBe(false);
        used.add(`${end.chip}:${end.port}`);
      }
      // A node's X0+ lands on its + neighbour's X0−: the same dimension and slice, the other direction.
      expect(anton2ChannelName(c.b.port)).toBe(anton2ChannelName(c.a.port).replace('+', '-'));
    }
    expect(used.size).toBe(512 * 12);
    // Six of each eight x and y links stay on a backplane; every z link is a cable (§2.2, Fig. 2: 32 backplanes).
    expect(d.summary).toMatchObject({ asics: 512, backplanes: 32, backplaneChannels: 1536, cables: 1536 });
    expect(d.cables.find((c) => c.a.chip === 'x3.y0.z0' && c.a.port === 0)).toMatchObject({
      b: { chip: 'x4.y0.z0', port: 2 },
      latencyNs: 10,
      lanes: 8,
      rateGbps: 14,
    });
    expect(d.cables.find((c) => c.a.chip === 'x2.y0.z0' && c.a.port === 1)).toMatchObject({ b: { chip: 'x3.y0.z0', port: 3 }, latencyNs: 2 });
  });

  it('one backplane (4×4×1): its Z channels have nothing to reach; a ring of two has two cables between its pair', () => {
    const one = design([4, 4, 1]);
    expect(one.cables).toHaveLength(16 * 2 * 2);
    expect(one.cables.every((c) => c.a.port < 8 && c.latencyNs === 2)).toBe(true);
    const two = design([2, 8, 1]);
    const between = two.cables.filter((c) => [c.a.chip, c.b.chip].sort().join() === 'x0.y0.z0,x1.y0.z0' && c.a.port === 0);
    expect(between.map((c) => `${c.a.chip}>${c.b.chip}`).sort()).toEqual(['x0.y0.z0>x1.y0.z0', 'x1.y0.z0>x0.y0.z0']);
  });

  it('refuses shapes the machine does not come in, naming each', () => {
    const c = new JsonChecker();
    checkAnton2Design({ shape: [4, 2, 1], cableChannelNs: -1, slices: 2 }, c);
    checkAnton2Design({ shape: [17, 16, 16] }, c);
    expect(c.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      '$.design.slices: unknown field (allowed: shape, backplaneChannelNs, cableChannelNs)',
      '$.design.shape: at least 16 ASICs (one backplane, 4×4×1), got 4×2×1 = 8',
      '$.design.cableChannelNs: must be between 0.1 and 10000, got -1',
      '$.design.shape[0]: must be between 1 and 16, got 17',
    ]);
  });

  it('the fixtures load: one backplane, the 512-ASIC machine the paper measures, and the largest', () => {
    const fixtures = join(__dirname, '../../../../fixtures/anton2');
    const sizes = ['anton2-4x4x1-16', 'anton2-8x8x8-512', 'anton2-16x16x16-4096'].map(
      (name) => loadInstallationFile(join(fixtures, `${name}.json`)).expected.chips.length,
    );
    expect(sizes).toEqual([16, 512, 4096]);
  });
});
