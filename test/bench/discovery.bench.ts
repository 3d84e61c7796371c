import { join } from 'node:path';
import { DISCOVERY_CONCURRENCY, discoverFabric, matchDesign } from '@weft/control';
import { EmulatedFabric, NS_PER_CYCLE, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { Benchmark, collectGarbage, timed } from './harness';

const fixtures = join(__dirname, '../../../fixtures/blackwidow');

/** Directed-route discovery of an emulated fabric through the maintenance transport, then the
 * comparison with the expected design. */
function discovery(fixture: string, runs: number): Benchmark {
  return {
    name: `discovery: sweep + match, ${fixture}`,
    parameters: { fixture, concurrency: DISCOVERY_CONCURRENCY },
    warmup: 0,
    runs,
    run: async () => {
      const installation = loadInstallationFile(join(fixtures, `${fixture}.json`));
      const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
      const controller = new YarcMaintenanceController(sim, 0);
      const start = sim.cycle;
      // The previous run's fabric is garbage now; its collection is not part of this discovery.
      collectGarbage();
      const { ms, value } = await timed(async () => {
        const result = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 1e9, 200);
        return { result, matched: matchDesign(result, installation.expected) };
      });
      return {
        ms,
        emulatedUs: ((sim.cycle - start) * NS_PER_CYCLE) / 1000,
        requests: value.result.requests,
        chips: value.result.chips.length,
        findings: value.matched.findings.length,
      };
    },
  };
}

export const benchmarks: Benchmark[] = [discovery('bw-r1.5-288', 5), discovery('bw-r2-1024', 3), discovery('bw-r3-16k', 3), discovery('bw-r3.5-32k', 3)];
