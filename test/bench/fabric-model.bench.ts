import { join } from 'node:path';
import { loadInstallationFile } from '@weft/fabric-model';
import { EmulatedFabric } from '@weft/emulator';
import { Benchmark, timed } from './harness';

const fixtures = join(__dirname, '../../../fixtures/blackwidow');

/** Loading and validating installation files and building the emulator's ground-truth arrays. */
export const benchmarks: Benchmark[] = ['bw-r1.5-288', 'bw-r2-1024', 'bw-r3.5-32k'].map((name) => ({
  name: `installation load + validate + ground truth: ${name}`,
  parameters: { fixture: name },
  warmup: 1,
  runs: name.includes('32k') ? 3 : 7,
  run: async () => {
    const { ms, value } = await timed(() => {
      const installation = loadInstallationFile(join(fixtures, `${name}.json`));
      return { installation, fabric: new EmulatedFabric(installation.physical) };
    });
    return {
      ms,
      chips: value.installation.physical.chips.length,
      cables: value.installation.physical.cables.length,
      groundTruthMiB: value.fabric.arrayBytes / 2 ** 20,
    };
  },
}));
