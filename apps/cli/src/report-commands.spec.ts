import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadList } from './cli-options';
import { costReportCommand, topologyReportCommand } from './report-commands';

const fixture = (name: string) => join(__dirname, '../../../fixtures', name);

describe('weft report cost', () => {
  it('costs a flattened butterfly fixture cable by cable beside the four topologies of as many terminals, and writes the plot', async () => {
    const plot = join(mkdtempSync(join(tmpdir(), 'weft-cost-')), 'cost.svg');
    const text = await costReportCommand({ fixture: fixture('flattened-butterfly/fb-32ary-2flat-1024.json'), radix: 64, plot });
    expect(text).toMatch(/^Network cost and power at 1024 terminals on radix-64 routers/);
    expect(text).toMatch(/^flattened butterfly +32-ary 2-flat +32 +992 +42\.09 +2\.03$/m);
    expect(text).toMatch(/^folded Clos +2-level folded Clos +48 +2048 +66\.51 +4\.04$/m);
    expect(text).toMatch(/The design fb-32ary-2flat-1024 \(32-ary 2-flat\), cable by cable/);
    expect(text).toMatch(/992 router links against 2048/);
    expect(text).toMatch(/Assumptions:\n {2}- routers of radix 64 at \$390/);
    const svg = readFileSync(plot, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('cost per node ($)');
  });

  it('refuses what it cannot cost, saying why', async () => {
    await expect(costReportCommand({ radix: 64 })).rejects.toThrow('give either --terminals <n> or --fixture <file>');
    await expect(costReportCommand({ fixture: fixture('anton2/anton2-4x4x1-16.json'), radix: 64 })).rejects.toThrow(
      /is of the anton2 family; the cost report costs flattened butterfly designs/,
    );
    await expect(costReportCommand({ terminals: 1, radix: 64 })).rejects.toThrow('--terminals: a cost report is for 2 to 1048576 terminals, got 1');
    const json = JSON.parse(await costReportCommand({ terminals: 4096, radix: 64, json: true })) as { topologies: { shape: string }[] };
    expect(json.topologies.map((t) => t.shape)).toEqual(['21-ary 3-flat of 21×10 routers', '3-level folded Clos', '2-stage butterfly', '12-cube']);
  });
});

describe('weft report topologies', () => {
  it('runs the four networks of Table 1 at the loads asked, prints Fig. 6’s figures and writes its plot', async () => {
    const plot = join(mkdtempSync(join(tmpdir(), 'weft-topologies-')), 'fig6.svg');
    const text = await topologyReportCommand({ pattern: 'adversarial', loads: [0.3], warmup: 300, window: 600, seed: 4, plot });
    expect(text).toMatch(/^ {2}folded Clos +folded Clos of 32 leaves × 32 terminals, 16 spines +adaptive sequential, 1 VC$/m);
    expect(text).toMatch(/^adversarial: accepted throughput/m);
    expect(text).not.toMatch(/^uniform-random:/m);
    // The conventional butterfly is held to 1/32 by the worst case; the others carry the 0.3 offered.
    expect(text).toMatch(/^butterfly +0\.03\d \/ /m);
    for (const network of ['flattened butterfly', 'folded Clos', 'hypercube']) expect(text).toMatch(new RegExp(`^${network} +0\\.(29|30|31)\\d / \\d`, 'm'));
    expect(readFileSync(plot, 'utf8')).toContain('offered load (fraction of capacity)');
  });

  it('refuses a load outside (0, 1], naming it', () => {
    expect(() => loadList('0.2,1.5')).toThrow('"1.5": each load must be a fraction of capacity in (0, 1]');
    expect(loadList('0.1, .5,1')).toEqual([0.1, 0.5, 1]);
  });
});
