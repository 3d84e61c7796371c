import { join } from 'node:path';
import { computeBlackWidowImage, DiscoveryResult, MatchedFabric, verifyConfiguration } from '@weft/control';
import { loadInstallationFile } from '@weft/fabric-model';
import { Benchmark, timed } from './harness';

const fixtures = join(__dirname, '../../../fixtures/blackwidow');
const DIAMETER: Record<string, number> = { R1: 1, 'R1.5': 2, R2: 3, 'R2.5': 4, R3: 5, 'R3.5': 6 };

/**
 * Full configuration of a fabric as designed: the routing engine's image, then the verifier's
 * proof. Discovery is measured apart; here its result is the design itself.
 */
function configuration(fixture: string, runs: number): Benchmark {
  let input: {
    discovered: DiscoveryResult;
    matched: MatchedFabric;
    design: ReturnType<typeof loadInstallationFile>['expected'];
    processors: number[];
    network: string;
  };
  return {
    name: `configuration: compute + verify, ${fixture}`,
    parameters: { fixture },
    warmup: 1,
    runs,
    setup: () => {
      const installation = loadInstallationFile(join(fixtures, `${fixture}.json`));
      const design = installation.expected;
      input = {
        design,
        network: String(design.summary.network),
        processors: design.chips.filter((c) => c.kind === 'endpoint').map((c) => c.processor),
        discovered: {
          chips: design.chips.map((c, i) => ({ serial: i + 1, kind: c.kind, portCount: c.portCount, route: [], slice: c.slice })),
          links: [],
          unanswered: [],
          requests: 0,
        },
        matched: {
          names: new Map(design.chips.map((c, i) => [i + 1, c.name])),
          findings: [],
          cables: design.cables.map((c) => ({ a: c.a, b: c.b, lanes: 3 })),
        },
      };
    },
    run: async () => {
      const compute = await timed(() => computeBlackWidowImage(input.discovered, input.matched, input.design));
      const verify = await timed(() =>
        verifyConfiguration({
          image: compute.value,
          cables: input.matched.cables,
          processors: input.processors,
          slices: [0, 1, 2, 3],
          diameter: DIAMETER[input.network],
        }),
      );
      if (!verify.value.ok) throw new Error(`verification failed: ${verify.value.violations[0]?.message}`);
      return { ms: compute.ms + verify.ms, computeMs: compute.ms, verifyMs: verify.ms, states: verify.value.states, routers: compute.value.routers.length };
    },
  };
}

export const benchmarks: Benchmark[] = [configuration('bw-r1.5-288', 7), configuration('bw-r2-1024', 5), configuration('bw-r3.5-32k', 3)];
