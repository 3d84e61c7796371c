import { join } from 'node:path';
import { BglMaintenanceController, BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { discoverBgl } from './bgl-discovery';

const fixture = (name: string) => loadInstallationFile(join(__dirname, `../../../../fixtures/bgl/${name}.json`));

function emulate(name: string, before?: (sim: BglTorusSim) => void) {
  const installation = fixture(name);
  const sim = new BglTorusSim(new EmulatedFabric(installation.physical), 1);
  before?.(sim);
  return { installation, jtag: new BglMaintenanceController(sim) };
}

describe('BlueGene/L discovery over the control network (spec §1.3)', () => {
  it('a midplane as designed: 512 nodes named by their place, 1536 cables, no findings', async () => {
    const { installation, jtag } = emulate('bgl-midplane-512');
    const known = await discoverBgl(jtag, installation.expected);
    expect(known.discovered.chips).toHaveLength(512);
    expect(known.matched.cables).toHaveLength(1536);
    expect(known.matched.findings).toEqual([]);
  });

  it('the miscabled midplane: both swapped cables found, each naming both its ends and where the design puts them', async () => {
    const { installation, jtag } = emulate('bgl-midplane-512-miscabled');
    const known = await discoverBgl(jtag, installation.expected);
    expect(known.matched.findings.map((f) => `${f.kind}: ${f.message}`).sort()).toEqual([
      'miswired-cable: x0.y0.z0:1 is cabled to x7.y1.z0:0; the design puts x7.y0.z0:0 at x0.y0.z0:1, and x0.y1.z0:1 at x7.y1.z0:0',
      'miswired-cable: x7.y0.z0:0 is cabled to x0.y1.z0:1; the design puts x0.y0.z0:1 at x7.y0.z0:0, and x7.y1.z0:0 at x0.y1.z0:1',
    ]);
  });

  it('a dead node is unreachable, and the cables to it are not reported missing twice over', async () => {
    const { installation, jtag } = emulate('bgl-midplane-512', (sim) => sim.killNode(9));
    const known = await discoverBgl(jtag, installation.expected);
    expect(known.matched.findings).toEqual([
      { kind: 'unreachable-chip', message: 'node x1.y1.z0 does not answer on the control network', ends: [], chip: 'x1.y1.z0' },
    ]);
    expect(known.discovered.unanswered).toEqual([{ route: [0, 0, 4, 1], register: 'nodeIdentity', reason: 'timeout' }]);
  });

  it('a cut cable is missing, naming both ends', async () => {
    const { installation, jtag } = emulate('bgl-midplane-512', (sim) => sim.cutLink(0, 2));
    const known = await discoverBgl(jtag, installation.expected);
    expect(known.matched.findings).toEqual([
      {
        kind: 'missing-cable',
        message: "the design's cable x0.y0.z0:2–x0.y1.z0:3 is down at both ends",
        ends: [
          { chip: 'x0.y0.z0', port: 2 },
          { chip: 'x0.y1.z0', port: 3 },
        ],
      },
    ]);
  });
});
