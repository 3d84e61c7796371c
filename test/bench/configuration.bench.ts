import { join } from 'node:path';
import {
  BlackWidowConfigurator,
  configureBlackWidow,
  designAsDiscovered,
  faultSet,
  KnownFabric,
  MaintenanceTransport,
  NO_FAULTS,
  triageInterrupts,
} from '@weft/control';
import { loadInstallationFile } from '@weft/fabric-model';
import { Benchmark, collectGarbage, timed } from './harness';

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
  let known: KnownFabric | undefined;
  return {
    name: `configuration: compute + verify, ${fixture}`,
    parameters: { fixture },
    warmup: 1,
    runs,
    setup: () => {
      known = asDiscovered(fixture);
    },
    run: async () => {
      collectGarbage();
      const configured = await timed(() => configureBlackWidow(known!, NO_FAULTS));
      if (!configured.value.verification.ok) throw new Error(`verification failed: ${configured.value.verification.violations[0]?.message}`);
      return { ms: configured.ms, states: configured.value.verification.states, routers: configured.value.image.routers.length };
    },
    teardown: () => {
      known = undefined;
    },
  };
}

/** Interrupts need no answer from the fabric when both ends of a cut cable report it. */
const silentTransport: MaintenanceTransport = {
  read: () => Promise.reject(new Error('the bench reaction needs no maintenance reads')),
  readMany: () => Promise.reject(new Error('the bench reaction needs no maintenance reads')),
  write: () => Promise.reject(new Error('not used')),
  writeMany: () => Promise.reject(new Error('not used')),
  onInterrupt: () => () => undefined,
};

/**
 * The reaction to one cable cut between an R1 and an R2 (issue 4: fault → verified new
 * generation): both ends report LINK_DOWN, triage declares the link fault, and the configuration
 * is recomputed incrementally from the one in force and proven. Each run cuts a different cable
 * and the repair that follows (not measured) puts the fabric back. The push's own time is the
 * fabric's, measured by the drills.
 */
function reaction(fixture: string, runs: number): Benchmark {
  /** Set up before the runs and released after them (later benchmarks should not carry its heap). */
  let state: { known: KnownFabric; cables: KnownFabric['design']['cables']; configurator: BlackWidowConfigurator } | undefined;
  let run = 0;
  return {
    name: `reaction: one R1–R2 cable cut → verified generation, ${fixture}`,
    parameters: { fixture },
    warmup: 1,
    runs,
    setup: () => {
      const known = asDiscovered(fixture);
      const rank = new Map(known.design.chips.map((c) => [c.name, c.rank]));
      const all = known.design.cables.filter((c) => rank.get(c.a.chip) === 1 && rank.get(c.b.chip) === 2);
      const cables = Array.from({ length: 8 }, (_, i) => all[Math.floor(((i + 0.5) * all.length) / 8)]);
      const configurator = new BlackWidowConfigurator(known);
      configurator.configure(NO_FAULTS); // the generation in force before the cut
      state = { known, cables, configurator };
    },
    run: async () => {
      const { known, cables, configurator } = state!;
      const cable = cables[run++ % cables.length];
      const serialOf = new Map([...known.matched.names].map(([serial, name]) => [name, serial]));
      const interrupts = [cable.a, cable.b].map((e) => ({ kind: 'LINK_DOWN' as const, emulatedTimeNs: 0, serial: serialOf.get(e.chip)!, port: e.port }));
      const started = performance.now();
      const decisions = await triageInterrupts(interrupts, silentTransport, { known, faults: NO_FAULTS, interruptFaults: [], downHistory: new Map() });
      const declared = decisions.flatMap((d) => (d.action === 'declare' ? [{ kind: d.kind, chip: d.chip, port: d.port }] : []));
      const configured = configurator.configure(faultSet(declared));
      const ms = performance.now() - started;
      if (declared.length !== 1 || !configured.verification.ok || !configured.incremental) throw new Error(`reaction went wrong: ${JSON.stringify(decisions)}`);
      const repaired = performance.now();
      configurator.configure(NO_FAULTS);
      return { ms, changedRouters: configured.changedRouters.length, statesProven: configured.verification.states, repairMs: performance.now() - repaired };
    },
    teardown: () => {
      state = undefined;
    },
  };
}

/**
 * A router of rank 2 dies: its neighbours are recomputed without it and the fabric is proven
 * around it (the triage that tells a dead router from a cut cable is a probe in emulated time, not
 * measured here). Each run kills a different R2; its revival follows and is measured apart.
 */
function routerDeath(fixture: string, runs: number): Benchmark {
  let state: { configurator: BlackWidowConfigurator; r2: string[] } | undefined;
  let run = 0;
  return {
    name: `reaction: one R2 router dies → verified generation, ${fixture}`,
    parameters: { fixture },
    warmup: 1,
    runs,
    setup: () => {
      const known = asDiscovered(fixture);
      const all = known.design.chips.filter((c) => c.kind === 'router' && c.rank === 2).map((c) => c.name);
      const r2 = Array.from({ length: 8 }, (_, i) => all[Math.floor(((i + 0.5) * all.length) / 8)]);
      const configurator = new BlackWidowConfigurator(known);
      configurator.configure(NO_FAULTS);
      state = { configurator, r2 };
    },
    run: async () => {
      const { configurator, r2 } = state!;
      const chip = r2[run++ % r2.length];
      const dead = await timed(() => configurator.configure(faultSet([{ kind: 'router', chip, port: null }])));
      if (!dead.value.verification.ok || !dead.value.incremental) throw new Error(`the death of ${chip} went wrong`);
      const revived = await timed(() => configurator.configure(NO_FAULTS));
      return { ms: dead.ms, changedRouters: dead.value.changedRouters.length, reviveMs: revived.ms };
    },
    teardown: () => {
      state = undefined;
    },
  };
}

export const benchmarks: Benchmark[] = [
  configuration('bw-r1.5-288', 7),
  configuration('bw-r2-1024', 5),
  configuration('bw-r2.5-4608', 5),
  configuration('bw-r3-16k', 3),
  configuration('bw-r3.5-32k', 3),
  reaction('bw-r2-1024', 7),
  reaction('bw-r3-16k', 5),
  reaction('bw-r3.5-32k', 5),
  routerDeath('bw-r2-1024', 5),
  routerDeath('bw-r3.5-32k', 3),
];
