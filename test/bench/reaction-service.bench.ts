/**
 * The figure an operator lives by (issues 35, 55): one fault on each family's largest fabric, end to end
 * through the service — the emulated fabric raises its interrupts, the service stores them, the
 * automation triages them, computes, verifies, stores and pushes a new generation through the
 * maintenance transport. `ms` runs from the first interrupt the service heard through the fabric's
 * transport to the GENERATION_PUSHED event it published (both seen in process, as they happen); `streamMs` is the
 * same as a subscriber to the event stream over graphql-ws sees it (while the service computes,
 * events it has stored wait to be sent, so the subscriber sees the interrupt late); and
 * `injectedToPushedMs` adds the emulated fabric's time to notice the fault. Each run cuts a
 * different R1–R2 cable (or kills a different R2); the repair that follows (the cable restored, the
 * router revived) is measured beside it as `repairMs`.
 *
 * Issue 55: a fault must cost what it touches. Each fabric's bring-up (discovery, the full
 * configuration, its proof and push) is measured in the same process as `bringUpCpuMs`, and every
 * reaction's CPU time on the service's thread (`cpuMs`, from the fault's injection to its push:
 * triage, compute, proof, store, push) beside it as `cpuShare`; `growthMiB` is how far the
 * process's peak resident memory rose above where it stood before the fault.
 */
import { Client, createClient } from 'graphql-ws';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ApiKeysService } from '../../apps/fabric-manager/src/auth/api-keys.service';
import { StartedService, startService } from '../../apps/fabric-manager/src/bootstrap';
import { loadWeftConfig } from '../../apps/fabric-manager/src/config/weft-config';
import { AutomationService } from '../../apps/fabric-manager/src/automation/automation.service';
import { ControlService } from '../../apps/fabric-manager/src/control/control.service';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { EventsService } from '../../apps/fabric-manager/src/events/events.service';
import { FabricEventKind } from '../../apps/fabric-manager/src/events/fabric-event-kind';
import { FabricsService } from '../../apps/fabric-manager/src/fabrics/fabrics.service';
import { FabricTransports } from '../../apps/fabric-manager/src/transport/fabric-transports';
import type { PhysicalFault } from '@weft/emulator';
import { mulberry32 } from '@weft/fabric-model';
import { readFileSync, writeFileSync } from 'node:fs';
import { Benchmark, collectGarbage, Measurement } from './harness';

interface StreamedEvent {
  kind: string;
  chip: string | null;
  details: Record<string, unknown>;
  at: number;
  /** The service thread's CPU time when it was seen (in process only). */
  cpu?: number;
}

interface Setup {
  dir: string;
  service: StartedService;
  client: Client;
  fabricId: number;
  stream: StreamedEvent[];
  /** The same events as the service published them, with the time each was seen in process. */
  published: StreamedEvent[];
  stopListening: () => void;
  /** Cables (one end) and routers to break, spread over the fabric (BlackWidow: R1–R2 cables, R2 routers). */
  cables: { chip: string; port: number }[];
  routers: string[];
  /** Full configuration of the fabric through the service, as set-up measured it: wall and the service thread's CPU. */
  configureMs: number;
  configureCpuMs: number;
}

/** CPU time of the calling thread (the service's: the emulated fabric runs on threads of its own), in ms, to the scheduler tick. */
function threadCpuMs(): number {
  const fields = readFileSync('/proc/thread-self/stat', 'latin1').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Resident memory now and at its peak since the last reset, in MiB. */
function residentMiB(): { now: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'latin1');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { now: field('VmRSS'), peak: field('VmHWM') };
}

/** Starts the peak of resident memory afresh (Linux: clear_refs 5). */
function resetPeakMemory(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not allowed: the peak is the process's since it started.
  }
}

let setup: Setup | undefined;

async function up(fixture: string): Promise<void> {
  const family = fixture.split('/')[0];
  const dir = mkdtempSync(join(tmpdir(), 'weft-reaction-bench-'));
  const config = loadWeftConfig({}, { WEFT_DATABASE: join(dir, 'bench.sqlite'), WEFT_PORT: 0, WEFT_DEFAULT_FIXTURE: 'none', WEFT_LOG_LEVEL: 'silent' });
  const service = await startService(config, { logger: false });
  const fabrics = service.app.get(FabricsService);
  const fabricId = (await fabrics.load(fabrics.readInstallation({ fixture }))).id;
  collectGarbage();
  const started = performance.now();
  const startedCpu = threadCpuMs();
  const configured = await service.app.get(ControlService).configure(fabricId);
  const configureMs = performance.now() - started;
  const configureCpuMs = threadCpuMs() - startedCpu;
  if (configured.generation.state !== 'pushed') throw new Error(`the first configuration was not pushed: ${configured.generation.state}`);
  const { design } = await fabrics.design(fabricId);
  const chip = new Map(design.chips.map((c) => [c.name, c]));
  const blackWidow = family === 'blackwidow';
  // BlackWidow: its R1–R2 cables and R2 routers (issue 35's figures); elsewhere any cable between two routers, any router.
  const breakable = design.cables.filter((c) =>
    blackWidow
      ? chip.get(c.a.chip)?.rank === 1 && chip.get(c.b.chip)?.rank === 2
      : chip.get(c.a.chip)?.kind === 'router' && chip.get(c.b.chip)?.kind === 'router',
  );
  const killable = design.chips.filter((c) => c.kind === 'router' && (!blackWidow || c.rank === 2)).map((c) => c.name);
  // Eight of each, drawn (seeded) so that no two share a chip: a cable two faults took down in turn
  // would be quarantined as flapping (the automation's rule), and later runs would start from more faults.
  const random = mulberry32(55);
  const taken = new Set<string>();
  const neighbours = new Map<string, string[]>();
  for (const c of design.cables) {
    neighbours.set(c.a.chip, [...(neighbours.get(c.a.chip) ?? []), c.b.chip]);
    neighbours.set(c.b.chip, [...(neighbours.get(c.b.chip) ?? []), c.a.chip]);
  }
  const apart = <T>(all: readonly T[], chips: (item: T) => string[]): T[] => {
    const order = all.map((item) => ({ item, key: random() })).sort((a, b) => a.key - b.key);
    const chosen: T[] = [];
    for (const { item } of order) {
      if (chosen.length === 8) break;
      const near = chips(item).flatMap((chip) => [chip, ...(neighbours.get(chip) ?? [])]);
      if (near.some((chip) => taken.has(chip))) continue;
      for (const chip of near) taken.add(chip);
      chosen.push(item);
    }
    return chosen;
  };
  const cables = apart(breakable, (c) => [c.a.chip, c.b.chip]).map((c) => c.a);
  const routers = apart(killable, (chip) => [chip]);
  const key = (await service.app.get(ApiKeysService).create('bench', 'operator' as never)).key;
  const client = createClient({
    url: `${service.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
  const stream: StreamedEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.subscribe(
      { query: 'subscription($f: ID) { fabricEvents(fabricId: $f) { kind chip details } }', variables: { f: String(fabricId) } },
      {
        next: (m) => {
          stream.push({ ...(m.data!.fabricEvents as Omit<StreamedEvent, 'at'>), at: performance.now() });
          arrived();
        },
        error: reject,
        complete: () => undefined,
      },
    );
  });
  // In process: interrupts as the emulator service hands them on (stored), events as published.
  const published: StreamedEvent[] = [];
  const unsubscribe = service.app
    .get(FabricTransports)
    .transport(fabricId)
    .onInterrupt((interrupt) => {
      published.push({ kind: `interrupt ${interrupt.kind}`, chip: null, details: {}, at: performance.now() });
      arrived();
    });
  const events = service.app.get(EventsService).subscribe({ fabricId, kinds: [FabricEventKind.GENERATION_COMPUTED, FabricEventKind.GENERATION_PUSHED] });
  void (async () => {
    for await (const event of events) {
      published.push({ kind: event.kind, chip: event.chip, details: event.details as Record<string, unknown>, at: performance.now(), cpu: threadCpuMs() });
      arrived();
    }
  })();
  const stopListening = () => {
    unsubscribe();
    void events.return?.();
  };
  setup = { dir, service, client, fabricId, stream, published, stopListening, cables, routers, configureMs, configureCpuMs };
}

async function down(): Promise<void> {
  if (!setup) return;
  setup.stopListening();
  await setup.client.dispose();
  await setup.service.app.close();
  rmSync(setup.dir, { recursive: true, force: true });
  setup = undefined;
}

/** Those waiting for an event, told when one arrives (rather than polling: a poll on the service's thread would be charged to its CPU time). */
let arrivals: (() => void)[] = [];

/** An event arrived on one of the streams: every waiter looks again. */
function arrived(): void {
  const waiting = arrivals;
  arrivals = [];
  for (const wake of waiting) wake();
}

/** Waits for `events` to hold an event after `from` matching `predicate`. */
async function seen(events: StreamedEvent[], from: number, predicate: (e: StreamedEvent) => boolean, what: string): Promise<StreamedEvent> {
  const deadline = performance.now() + 120_000;
  let looked = from;
  for (;;) {
    for (; looked < events.length; looked++) if (predicate(events[looked])) return events[looked];
    const left = deadline - performance.now();
    if (left <= 0) throw new Error(`the event stream never carried ${what}`);
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      arrivals.push(resolve);
      timer = setTimeout(resolve, left);
    });
    clearTimeout(timer);
  }
}

/** Injects `fault` and measures until the generation it causes is pushed. */
async function reactTo(fault: PhysicalFault, interruptKinds: readonly string[]): Promise<Measurement> {
  const { stream, published, service, fabricId } = setup!;
  const from = stream.length;
  const fromPublished = published.length;
  const before = residentMiB().now;
  resetPeakMemory();
  const injectedCpu = threadCpuMs();
  const injected = performance.now();
  reactionWindow.from = Number(process.hrtime.bigint() / 1000n);
  await service.app.get(EmulatorService).injectFault(fabricId, fault);
  const what = `after ${fault.action} ${fault.chip}`;
  const firstInterrupt = await seen(published, fromPublished, (e) => e.kind.startsWith('interrupt '), `an interrupt ${what}`);
  const computedHere = await seen(published, fromPublished, (e) => e.kind === 'GENERATION_COMPUTED', `a generation computed ${what}`);
  const pushedHere = await seen(
    published,
    fromPublished,
    (e) => e.kind === 'GENERATION_PUSHED' && e.details.generation === computedHere.details.generation,
    'its push',
  );
  reactionWindow.to = Number(process.hrtime.bigint() / 1000n);
  // CPU to the push as it was published (what follows — an optimisation generation — is not the reaction's).
  const cpuMs = pushedHere.cpu! - injectedCpu;
  const growthMiB = residentMiB().peak - before;
  // Work the engine left for a generation of its own (Anton 2's weights after its routes), and any
  // interrupt still being handled, are waited out before the next fault, and measured apart: they
  // are not on the way to a fabric routed around the fault.
  const automation = service.app.get(AutomationService);
  const control = service.app.get(ControlService);
  while (automation.busy(fabricId)) {
    await automation.settled(fabricId);
    await control.settled(fabricId);
  }
  await control.settled(fabricId);
  const optimiseMs = computedHere.details.deferred ? performance.now() - pushedHere.at : 0;
  const interrupt = await seen(stream, from, (e) => interruptKinds.includes(e.kind), `a ${interruptKinds.join(' or ')} ${what}`);
  const computed = await seen(stream, from, (e) => e.kind === 'GENERATION_COMPUTED', `a generation computed ${what}`);
  const pushed = await seen(stream, from, (e) => e.kind === 'GENERATION_PUSHED' && e.details.generation === computed.details.generation, 'its push');
  if (!computed.details.verified) throw new Error(`generation ${String(computed.details.generation)} failed verification`);
  if ((pushed.details.failures as unknown[]).length > 0) throw new Error(`the push failed: ${JSON.stringify(pushed.details.failures)}`);
  return {
    ms: pushedHere.at - firstInterrupt.at,
    cpuMs,
    growthMiB,
    optimiseMs,
    streamMs: pushed.at - interrupt.at,
    injectedToPushedMs: pushedHere.at - injected,
    interruptToComputedMs: computedHere.at - firstInterrupt.at,
    computeMs: Number(computed.details.computeMs),
    computeCpuMs: Number(computed.details.computeCpuMs),
    computedToPushedMs: pushedHere.at - computedHere.at,
    changedRouters: Number(computed.details.changedRouters),
    writes: Number(pushed.details.writes),
  };
}

/** The last reaction's span on the monotonic clock, in µs (the profiler's clock): injection to the push seen. */
const reactionWindow = { from: 0, to: 0 };

/**
 * Runs `work` under the V8 profiler when WEFT_BENCH_PROFILE names a directory, writing
 * `<name>.cpuprofile` there (open it in Chrome's DevTools or speedscope) and beside it
 * `<name>.window.json`, the reaction's span on the profile's clock: where a reaction's CPU goes.
 */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.WEFT_BENCH_PROFILE;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    writeFileSync(join(dir, `${name}.window.json`), JSON.stringify(reactionWindow));
    session.disconnect();
  }
}

/** A fault and its repair, each measured to the push of the generation it causes; run k takes the k-th fault. */
function faultAndRepair(what: string, fixture: string, runs: number, faults: (s: Setup, run: number) => [PhysicalFault, PhysicalFault]): Benchmark {
  // What the stream says of the fault (a dead chip's neighbours see their links go down) and of its repair.
  const breaking = ['LINK_DOWN', 'ROUTER_UNRESPONSIVE'];
  const repairing = ['LINK_UP'];
  let run = 0;
  return {
    name: `reaction through the service: ${what}, interrupt → generation pushed, ${fixture}`,
    parameters: { fixture },
    isolated: true,
    warmup: 1,
    runs,
    setup: () => up(fixture),
    teardown: down,
    run: async () => {
      collectGarbage();
      const [fault, repair] = faults(setup!, run++);
      const broken = await profiled(`${fixture.replace('/', '-')}-${what.replace(/\W+/g, '-')}-${run}`, () => reactTo(fault, breaking));
      const repaired = await reactTo(repair, repairing);
      const { configureMs, configureCpuMs } = setup!;
      return {
        ...broken,
        cpuShare: broken.cpuMs / configureCpuMs,
        repairMs: repaired.ms,
        repairCpuMs: repaired.cpuMs,
        repairWrites: repaired.writes,
        bringUpMs: configureMs,
        bringUpCpuMs: configureCpuMs,
      };
    },
  };
}

const cableCut = (what: string, fixture: string, runs: number) =>
  faultAndRepair(what, fixture, runs, (s, run) => {
    const cable = s.cables[run % s.cables.length];
    return [
      { action: 'cut-link', ...cable },
      { action: 'restore-link', ...cable },
    ];
  });

const routerDeath = (what: string, fixture: string, runs: number) =>
  faultAndRepair(what, fixture, runs, (s, run) => {
    const chip = s.routers[run % s.routers.length];
    return [
      { action: 'kill-router', chip },
      { action: 'revive-router', chip },
    ];
  });

export const benchmarks: Benchmark[] = [
  cableCut('one R1–R2 cable cut', 'blackwidow/bw-r3.5-32k', 5),
  routerDeath('one R2 router dies', 'blackwidow/bw-r3.5-32k', 3),
  routerDeath('one node dies', 'bgl/bgl-64k', 3),
  cableCut('one cable cut', 'bgl/bgl-64k', 3),
  cableCut('one torus channel dies', 'anton2/anton2-16x16x16-4096', 3),
  routerDeath('one ASIC dies', 'anton2/anton2-16x16x16-4096', 3),
  cableCut('one cable cut', 'flattened-butterfly/fb-16ary-4flat-65536', 3),
  // The tori OpenSM's torus-2QoS is measured on beside them (test/bench/peers/opensm-torus.sh): 8×8×8 and 16×16×16.
  routerDeath('one node dies', 'bgl/bgl-midplane-512', 5),
  cableCut('one cable cut', 'bgl/bgl-midplane-512', 5),
  routerDeath('one node dies', 'bgl/bgl-4k', 3),
  cableCut('one cable cut', 'bgl/bgl-4k', 3),
  cableCut('one torus channel dies', 'anton2/anton2-8x8x8-512', 5),
  routerDeath('one ASIC dies', 'anton2/anton2-8x8x8-512', 5),
];
