import { join } from 'node:path';
import { configureBlackWidow, designAsDiscovered, faultSet, KnownFabric, MaintenanceTransport, NO_FAULTS, triageInterrupts } from '@weft/control';
import { loadInstallationFile } from '@weft/fabric-model';
import { Benchmark, timed } from './harness';

const fixtures = join(__dirname, '../../../fixtures/blackwidow');

function asDiscovered(fixture: string): KnownFabric {
  const installation = loadInstallationFile(join(fixtures, `${fixture}.json`));
  return designAsDiscovered(installation.expected, installation.file.maintenanceAttachment);
}

/**
 * Full configuration of a fabric as designed: the routing engine's image, then the verifier's
 * proof. Discovery is measured apart; here its result is the design itself.
 */
function configuration(fixture: string, runs: number): Benchmark {
  let known: KnownFabric;
  return {
    name: `configuration: compute + verify, ${fixture}`,
    parameters: { fixture },
    warmup: 1,
    runs,
    setup: () => {
      known = asDiscovered(fixture);
    },
    run: async () => {
      const configured = await timed(() => configureBlackWidow(known, NO_FAULTS));
      if (!configured.value.verification.ok) throw new Error(`verification failed: ${configured.value.verification.violations[0]?.message}`);
      return { ms: configured.ms, states: configured.value.verification.states, routers: configured.value.image.routers.length };
    },
  };
}

/** Interrupts need no answer from the fabric when both ends of a cut cable report it. */
const silentTransport: MaintenanceTransport = {
  read: () => Promise.reject(new Error('the bench reaction needs no maintenance reads')),
  write: () => Promise.reject(new Error('not used')),
  writeMany: () => Promise.reject(new Error('not used')),
  onInterrupt: () => () => undefined,
};

/**
 * The reaction to one cable cut between an R1 and an R2 (issue 4: fault → verified new
 * generation): both ends report LINK_DOWN, triage declares the link fault, and the configuration
 * is computed around it and verified. The push's own time is the fabric's, measured by the drills.
 */
function reaction(fixture: string, runs: number): Benchmark {
  let known: KnownFabric;
  let ends: { chip: string; port: number }[];
  return {
    name: `reaction: one R1–R2 cable cut → verified generation, ${fixture}`,
    parameters: { fixture },
    warmup: 1,
    runs,
    setup: () => {
      known = asDiscovered(fixture);
      const rank = new Map(known.design.chips.map((c) => [c.name, c.rank]));
      const cable = known.design.cables.find((c) => rank.get(c.a.chip) === 1 && rank.get(c.b.chip) === 2)!;
      ends = [cable.a, cable.b];
      configureBlackWidow(known, NO_FAULTS); // the generation in force before the cut
    },
    run: async () => {
      const serialOf = new Map([...known.matched.names].map(([serial, name]) => [name, serial]));
      const interrupts = ends.map((e) => ({ kind: 'LINK_DOWN', emulatedTimeNs: 0, serial: serialOf.get(e.chip)!, port: e.port }));
      const started = performance.now();
      const decisions = await triageInterrupts(interrupts, silentTransport, { known, faults: NO_FAULTS, interruptFaults: [], downHistory: new Map() });
      const declared = decisions.flatMap((d) => (d.action === 'declare' ? [{ kind: d.kind, chip: d.chip, port: d.port }] : []));
      const configured = configureBlackWidow(known, faultSet(declared));
      const ms = performance.now() - started;
      if (declared.length !== 1 || !configured.verification.ok) throw new Error(`reaction went wrong: ${JSON.stringify(decisions)}`);
      return { ms, states: configured.verification.states };
    },
  };
}

export const benchmarks: Benchmark[] = [
  configuration('bw-r1.5-288', 7),
  configuration('bw-r2-1024', 5),
  configuration('bw-r2.5-4608', 5),
  configuration('bw-r3-16k', 3),
  configuration('bw-r3.5-32k', 3),
  reaction('bw-r2-1024', 5),
  reaction('bw-r3.5-32k', 3),
];
