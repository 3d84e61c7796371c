import { join } from 'node:path';
import { cableEndKey } from '../fabric-design';
import { InstallationFileError } from '../installation/installation-error';
import { loadInstallationFile, parseInstallation } from '../installation/load-installation';
import { Torus } from '../torus/torus';
import { bglControlAddress, generateBglDesign } from './bgl-design';

const fixtures = join(__dirname, '../../../../fixtures/bgl');

function issuesOf(json: object): string[] {
  try {
    parseInstallation(JSON.stringify(json), 'test');
  } catch (error) {
    if (error instanceof InstallationFileError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

const bglFile = (design: object, extra: object = {}) => ({ format: 'weft-installation/1', name: 'bgl-test', family: 'bgl', design, ...extra });

describe('BlueGene/L designs (paper 002 §2, §3)', () => {
  it('a midplane: 512 nodes, six links each, every port taken once, boards inside and cables on the wraparound', () => {
    const design = generateBglDesign({ shape: [8, 8, 8], midplaneLinkCycles: 3, cableLinkCycles: 10 });
    expect(design.chips).toHaveLength(512);
    expect(design.cables).toHaveLength(3 * 512);
    const ends = new Set(design.cables.flatMap((c) => [cableEndKey(c.a), cableEndKey(c.b)]));
    expect(ends.size).toBe(6 * 512);
    const latencies = (from: string, port: number) => design.cables.find((c) => c.a.chip === from && c.a.port === port)!;
    // x3 → x4 stays on the boards; x7 → x0 wraps round through a cable.
    expect(latencies('x3.y0.z0', 0)).toMatchObject({ b: { chip: 'x4.y0.z0', port: 1 }, latencyNs: 3 * (1000 / 175) });
    expect(latencies('x7.y0.z0', 0)).toMatchObject({ b: { chip: 'x0.y0.z0', port: 1 }, latencyNs: 10 * (1000 / 175) });
    expect(design.chips[5]).toMatchObject({ name: 'x5.y0.z0', model: 'BGL-node', kind: 'router', portCount: 6, processor: 5, coordinates: [5, 0, 0] });
  });

  it('on rings of two both links between a pair are there, each on its own ports', () => {
    const design = generateBglDesign({ shape: [2, 4, 3], midplaneLinkCycles: 3, cableLinkCycles: 10 });
    const pair = design.cables.filter((c) => [c.a.chip, c.b.chip].sort().join() === 'x0.y0.z0,x1.y0.z0');
    expect(pair.map((c) => `${c.a.chip}:${c.a.port}-${c.b.chip}:${c.b.port}`).sort()).toEqual(['x0.y0.z0:0-x1.y0.z0:1', 'x1.y0.z0:0-x0.y0.z0:1']);
  });

  it('every node of the full machine has its own control-network address (midplane, node card, card, ASIC)', () => {
    const torus = new Torus([64, 32, 32]);
    const seen = new Set<string>();
    for (let node = 0; node < torus.size; node++) seen.add(bglControlAddress(torus, node).join('.'));
    expect(seen.size).toBe(65536);
    expect(bglControlAddress(torus, torus.index(63, 31, 31))).toEqual([127, 15, 15, 1]);
  });

  it('the fixtures load, and the miscabled midplane differs from its design exactly at the two swapped cables', () => {
    for (const name of ['bgl-midplane-512', 'bgl-4k', 'bgl-8k', 'bgl-32k'])
      expect(loadInstallationFile(join(fixtures, `${name}.json`)).expected.family).toBe('bgl');
    const miscabled = loadInstallationFile(join(fixtures, 'bgl-midplane-512-miscabled.json'));
    const designed = new Set(miscabled.expected.cables.map((c) => `${cableEndKey(c.a)}-${cableEndKey(c.b)}`));
    const moved = miscabled.physical.cables.filter((c) => !designed.has(`${cableEndKey(c.a)}-${cableEndKey(c.b)}`));
    expect(moved.map((c) => `${cableEndKey(c.a)}-${cableEndKey(c.b)}`).sort()).toEqual(['x7.y0.z0:0-x0.y1.z0:1', 'x7.y1.z0:0-x0.y0.z0:1']);
  });

  it('bad design parameters are named by their path', () => {
    expect(issuesOf(bglFile({ shape: [8, 8] }))).toEqual(['$.design.shape: must give three ring sizes [x, y, z], got 2']);
    expect(issuesOf(bglFile({ shape: [128, 32, 32] }))).toEqual(['$.design.shape: at most 65536 nodes (the full machine, 64×32×32), got 128×32×32 = 131072']);
    expect(issuesOf(bglFile({ shape: [8, 1, 8], cableLinkCycles: 0 }))).toEqual([
      '$.design.shape[1]: must be between 2 and 256, got 1',
      '$.design.cableLinkCycles: must be between 1 and 1000, got 0',
    ]);
    expect(issuesOf(bglFile({ shape: [8, 8, 8] }, { maintenance: { attachment: 'x0.y0.z0' } }))).toEqual([
      '$.maintenance.attachment: BlueGene/L is managed over its JTAG control network (paper 002 §1): the attachment is "jtag", got "x0.y0.z0"',
    ]);
    expect(issuesOf(bglFile({ shape: [8, 8, 8] }, { links: [{ chip: 'x0.y0.z0', port: 0, rateGbps: 3.125 }] }))).toEqual([
      '$.links[0].rateGbps: a bgl link runs at one rate; it cannot be set',
    ]);
    expect(issuesOf(bglFile({ shape: [8, 8, 8] }, { cabling: { missing: [{ chip: 'x9.y0.z0', port: 0 }] } }))).toEqual([
      '$.cabling.missing[0].chip: no chip "x9.y0.z0" in this 8×8×8 torus design',
    ]);
  });
});
