import { dialectOf, placeholder } from '../database/dialect';
import { ControlErrorCode, ControlException } from './control.exception';
import { RoutingSettings } from './routing-settings.entity';
import { ChipNamesService } from '../chip-names/chip-names.service';
import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { StoreOwnerService } from '../database/store-owner.service';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import {
  ChipImages,
  chipsChanged,
  ConfigurationImage,
  diffImages,
  executePlan,
  DiscoveryResult,
  faultsOn,
  driveEngine,
  driveOptimisation,
  indexKnownFabric,
  RoutingEngine,
  Unreachable,
  routingEngineNamed,
  routingEngineOf,
  Finding,
  GenerationCircumstances,
  KnownFabric,
  MatchedFabric,
  planWrites,
  sameSweep,
  VerificationReport,
} from '@weft/control';
import { DataSource, Repository } from 'typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { GenerationImages } from '../config-generations/generation-images.service';
import { PushRecord } from '../config-generations/push-record.entity';
import { EmulatorService } from '../emulator/emulator.service';
import { FabricTransports } from '../transport/fabric-transports';
import { EventsService } from '../events/events.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import { Fabric } from '../fabrics/fabric.entity';
import { FabricsService } from '../fabrics/fabrics.service';
import { Fault } from '../faults/fault.entity';
import { FaultsService } from '../faults/faults.service';
import { CpuStopwatch } from './cpu-stopwatch';

export interface DiscoveryOutcome {
  discovered: DiscoveryResult;
  matched: MatchedFabric;
  findings: Finding[];
  wallMs: number;
}

export interface ConfigurationOutcome {
  generation: ConfigGeneration;
  verification: VerificationReport;
  problems: string[];
  findings: Finding[];
  unreachable: readonly Unreachable[];
  writes: number;
  /** Nothing differed from the generation in force: none was stored or pushed, `generation` is that one. */
  unchanged?: boolean;
}

export interface ConfigureOptions {
  /** Sweep the fabric first (operators); automation reuses the last sweep and routes around the recorded faults. */
  rediscover?: boolean;
  /** Emulated time (ns) the reaction started from (its interrupt), for charging compute time in drills. */
  chargeFromNs?: number;
  /**
   * Emulated time (ns) of the latest interrupt the reaction knew of (its batch's last): in a drill,
   * which faults a generation routes around — one pushed after a fault it never heard of did not
   * heal it. By default the time the computation began.
   */
  knowsNs?: number;
  /** Why this generation was computed, for its event. */
  trigger?: string;
  /** Compute what the configuration in force left for later (RoutingEngine.optimise) instead of routing around the faults afresh. */
  optimise?: boolean;
  /** The faults in force as the caller holds them, just stored (the automation's, as triage left them); by default read from the store. */
  faults?: readonly Fault[];
}

/**
 * The control plane's loop for one fabric, through the maintenance transport only: discover,
 * compare with the design, compute the routing image (with fault entries), verify it, and push it
 * only if it is proven; every computed configuration is stored as a numbered generation with its
 * diff from the previous one. Operations on one fabric run one at a time.
 */
@Injectable()
export class ControlService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ControlService.name);
  /** The last sweep of each fabric (with the creation time of the fabric it belongs to), and the
   * configurator that recomputes only what a fault changes since the last configuration. */
  private readonly known = new Map<number, { known: KnownFabric; fabricCreatedAt: number; engine: RoutingEngine }>();
  private readonly queues = new Map<number, Promise<unknown>>();
  /** Resolves when the start-up recovery has finished (tests, drills). */
  recovered: Promise<void> = Promise.resolve();
  /** Recoveries under way (at start-up, and each time a lost fabric is reached again), and whether the start-up one has run. */
  private recovering = 0;
  private readingBackCount = 0;
  private startedUp = false;
  /** Fabrics in a drill: the wall time spent computing a generation is charged to emulated time. */
  private readonly charged = new Set<number>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(ConfigGeneration) private readonly generations: Repository<ConfigGeneration>,
    @InjectRepository(Fabric) private readonly fabricRows: Repository<Fabric>,
    @InjectRepository(PushRecord) private readonly pushes: Repository<PushRecord>,
    @InjectRepository(RoutingSettings) private readonly settingsRows: Repository<RoutingSettings>,
    private readonly fabrics: FabricsService,
    private readonly emulator: EmulatorService,
    private readonly transports: FabricTransports,
    private readonly events: EventsService,
    private readonly faults: FaultsService,
    private readonly chipNames: ChipNamesService,
    private readonly images: GenerationImages,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  /** In a drill, compute time is charged to the fabric's emulated time (see configure). */
  chargeComputeTime(fabricId: number, on: boolean): void {
    if (on) this.charged.add(fabricId);
    else this.charged.delete(fabricId);
  }

  /** Runs `work` after every earlier operation on the same fabric has finished. */
  private exclusive<T>(fabricId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(fabricId) ?? Promise.resolve();
    this.waiting.set(fabricId, (this.waiting.get(fabricId) ?? 0) + 1);
    const run = () => {
      this.waiting.set(fabricId, this.waiting.get(fabricId)! - 1);
      return work();
    };
    const next = previous.then(run, run);
    const tail = next.catch(() => undefined);
    this.queues.set(fabricId, tail);
    void tail.then(() => {
      if (this.queues.get(fabricId) === tail) this.queues.delete(fabricId);
    });
    return next;
  }

  /** Operations queued on each fabric that have not started. */
  private readonly waiting = new Map<number, number>();

  /** Resolves once every operation on the fabric queued so far — an optimisation generation after a reaction included — has finished. */
  async settled(fabricId: number): Promise<void> {
    for (let queue = this.queues.get(fabricId); queue; queue = this.queues.get(fabricId)) await queue;
  }

  discover(fabricId: number): Promise<DiscoveryOutcome> {
    return this.exclusive(fabricId, () => this.sweep(fabricId));
  }

  /** What the control plane knows of the fabric: the last sweep, or a new one if there is none. */
  async knownFabric(fabricId: number): Promise<KnownFabric> {
    const cached = this.known.get(fabricId);
    if (cached) {
      // Fabric ids can be reused after a delete: the cache must belong to this fabric.
      const row = await this.fabricRows.findOne({ where: { id: fabricId }, select: { id: true, createdAt: true } });
      if (row && row.createdAt.getTime() === cached.fabricCreatedAt) return cached.known;
    }
    await this.sweep(fabricId);
    return this.known.get(fabricId)!.known;
  }

  private async sweep(fabricId: number): Promise<DiscoveryOutcome> {
    const { fabric, file, design } = await this.fabrics.design(fabricId);
    const createdAt = fabric.createdAt.getTime();
    const start = Date.now();
    // Each family discovers its own way (BlackWidow hop by hop from a processor, BG/L over JTAG).
    const swept = await routingEngineOf(fabric.family).discover(this.transports.transport(fabricId), design, file.maintenanceAttachment);
    const { discovered, matched } = swept;
    // A sweep that finds nothing new keeps the routing engine's state: the next fault is still
    // handled incrementally from the configuration in force.
    const last = this.known.get(fabricId);
    if (!last || last.fabricCreatedAt !== createdAt || !sameSweep(last.known, swept)) {
      const engine = routingEngineOf(fabric.family).create(swept);
      // The operator's settings of the fabric, stored: a set the engine no longer takes (a chip renamed) is said, and its defaults used.
      const stored = await this.settingsRows.findOne({ where: { fabricId } });
      const problems = stored && engine.applySettings ? engine.applySettings(JSON.parse(stored.settings)) : [];
      if (problems.length > 0)
        this.logger.warn(`fabric ${fabricId}: its stored routing settings are refused (${problems.join('; ')}); the engine's defaults are used`);
      this.known.set(fabricId, { known: swept, fabricCreatedAt: createdAt, engine });
    }
    // Interrupts name the chip by serial number; the events carry the name discovery matched to it.
    this.chipNames.learn(fabricId, matched.names);
    await this.recordDiscovery(fabricId, matched);
    return { discovered, matched, findings: matched.findings, wallMs: Date.now() - start };
  }

  /** Chip and link states in the store follow what discovery saw, in one transaction. */
  private async recordDiscovery(fabricId: number, matched: MatchedFabric): Promise<void> {
    const found = new Set(matched.names.values());
    await this.dataSource.transaction(async (manager) => {
      const p = (i: number) => placeholder(dialectOf(manager), i);
      await manager.query(`UPDATE "chip" SET "state" = 'missing' WHERE "fabricId" = ${p(1)}`, [fabricId]);
      const names = [...found];
      for (let i = 0; i < names.length; i += 500) {
        const chunk = names.slice(i, i + 500);
        await manager.query(`UPDATE "chip" SET "state" = 'discovered' WHERE "fabricId" = ${p(1)} AND "name" IN (${chunk.map((_, k) => p(k + 2)).join(',')})`, [
          fabricId,
          ...chunk,
        ]);
      }
    });
  }

  configure(fabricId: number, options: ConfigureOptions = {}): Promise<ConfigurationOutcome> {
    return this.exclusive(fabricId, () => this.configureNow(fabricId, options));
  }

  /** The routing settings in force on a fabric and what they came to, in its family's terms (settings null: its engine takes none), with the engine's name. */
  async routingSettings(fabricId: number): Promise<{ engine: string; settings: unknown; report: unknown }> {
    await this.knownFabric(fabricId);
    const { engine } = this.known.get(fabricId)!;
    return { engine: engine.name, settings: engine.settings?.() ?? null, report: engine.settingsReport?.() ?? null };
  }

  /**
   * New routing settings for a fabric (an operator's): its engine checks them whole and takes them,
   * a generation is computed, proven and pushed with them, and they are stored. Refused settings
   * change nothing; a generation that is not proven is recorded as such and the settings go back.
   */
  changeRoutingSettings(fabricId: number, settings: unknown, trigger: string): Promise<ConfigurationOutcome> {
    return this.exclusive(fabricId, async () => {
      await this.knownFabric(fabricId);
      const { engine } = this.known.get(fabricId)!;
      if (!engine.applySettings || !engine.settings)
        throw new ControlException(ControlErrorCode.SettingsInvalid, `the ${engine.name} routing engine takes no settings`);
      const previous = engine.settings();
      const problems = engine.applySettings(settings);
      if (problems.length > 0) throw new ControlException(ControlErrorCode.SettingsInvalid, `routing settings refused: ${problems.join('; ')}`, { problems });
      const stored = await this.settingsRows.findOne({ where: { fabricId } });
      const restore = async () => {
        engine.applySettings!(previous);
        if (stored) await this.settingsRows.save(stored);
        else await this.settingsRows.delete({ fabricId });
      };
      try {
        await this.settingsRows.save({ fabricId, settings: JSON.stringify(engine.settings()) });
        const outcome = await this.configureNow(fabricId, { rediscover: false, trigger });
        if (!outcome.verification.ok) await restore();
        return outcome;
      } catch (error) {
        await restore();
        throw error;
      }
    });
  }

  private async configureNow(fabricId: number, options: ConfigureOptions): Promise<ConfigurationOutcome> {
    if (options.rediscover !== false) await this.sweep(fabricId);
    const known = await this.knownFabric(fabricId);
    const { engine } = this.known.get(fabricId)!;
    // Faults the configuration must not use (§7.7): declared by operators or recorded from interrupts.
    const active = options.faults ?? (await this.faults.active(fabricId));
    const faults = faultsOn(indexKnownFabric(known).chips, active);
    const stopwatch = new CpuStopwatch();
    // The driver has the engine's configuration proven before it may be pushed.
    const driven = options.optimise ? driveOptimisation(engine) : driveEngine(engine, faults);
    // Nothing left to optimise: the generation in force stays.
    if (!driven) return this.inForce(fabricId, known.matched.findings);
    const { image, incremental } = driven.computed;
    const { verification } = driven;
    const unreachable = engine.unreachable(driven.computed);
    const computeMs = stopwatch.wallMs();
    if (options.trigger === undefined && verification.ok) {
      // An operator's configuration that changes nothing stores no generation (issue 54: the
      // README's `config diff 1 2` came out empty): the one in force stays, and is reported.
      const same = (await this.pushCertain(fabricId)) ? this.images.inForceAndSame(fabricId, image) : null;
      const inForce = same === null ? null : await this.generations.findOne({ where: { fabricId, number: same } });
      if (inForce?.state === 'pushed')
        return { generation: inForce, verification, problems: problemsOf(image), findings: known.matched.findings, unreachable, writes: 0, unchanged: true };
    }
    // What the computation cost in CPU time, which a busy machine does not inflate.
    const chargedMs = stopwatch.cpuMs();
    let knowsNs: number | null = null;
    if (this.charged.has(fabricId)) {
      // The fabric keeps running while the control plane computes, one emulated ns per ns of the
      // computation's CPU time — the push waits in the emulator until the fabric has got that far.
      const from = options.chargeFromNs ?? (await this.emulator.emulatedNs(fabricId));
      knowsNs = options.knowsNs ?? from;
      await this.emulator.drillControls().embargo(fabricId, from + chargedMs * 1e6);
    }
    const outcome = await this.record(fabricId, driven.engine, image as ConfigurationImage, verification, {
      findings: known.matched.findings,
      faults: active,
      unreachable,
      trigger: options.trigger ?? 'operator',
      knowsNs,
      computation: {
        incremental,
        fellBack: driven.fellBack,
        fallback: driven.fallback,
        ms: Math.round(computeMs * 1000) / 1000,
        verifyMs: Math.round(driven.verifyMs * 1000) / 1000,
        cpuMs: Math.round(chargedMs * 1000) / 1000,
      },
      deferred: driven.computed.deferred ?? null,
    });
    // What the engine left for later (Anton 2's weights after its routes) follows as a generation
    // of its own, once this one is pushed, in the fabric's queue after it.
    // A fault reaction queued meanwhile goes first: it defers the weights again, and its own optimisation follows it.
    const { deferred } = driven.computed;
    if (deferred && outcome.generation.state === 'pushed')
      void this.exclusive(fabricId, async () => {
        if ((this.waiting.get(fabricId) ?? 0) > 0) return;
        await this.configureNow(fabricId, { rediscover: false, optimise: true, knowsNs: knowsNs ?? undefined, trigger: `optimisation: ${deferred}` });
      }).catch((error: unknown) =>
        this.logger.error(`fabric ${fabricId}: the optimisation after generation ${outcome.generation.number} failed: ${String(error)}`),
      );
    return outcome;
  }

  /** The generation in force, reported as a configuration that changed nothing. */
  private async inForce(fabricId: number, findings: Finding[]): Promise<ConfigurationOutcome> {
    const generation = await this.generations.findOne({ where: { fabricId, state: 'pushed' }, order: { number: 'DESC' } });
    if (!generation) throw new Error(`fabric ${fabricId} has no generation in force`);
    const verification = JSON.parse(generation.verification) as VerificationReport & { unreachable?: ConfigurationOutcome['unreachable'] };
    return { generation, verification, problems: [], findings, unreachable: verification.unreachable ?? [], writes: 0, unchanged: true };
  }

  /** Stores the generation and its diff, announces it, and pushes it if it was proven. */
  private async record(
    fabricId: number,
    engine: string,
    image: ConfigurationImage,
    verification: VerificationReport,
    context: {
      findings: Finding[];
      faults: readonly Fault[];
      unreachable: readonly Unreachable[];
      trigger: string;
      /** In a drill, the emulated time of the latest fault it knew of (ConfigureOptions.knowsNs). */
      knowsNs?: number | null;
      computation: { incremental: boolean; fellBack: boolean; fallback?: string | null; ms: number; verifyMs: number; cpuMs: number };
      /** What the engine left for a generation of its own after this one (EngineComputation.deferred). */
      deferred?: string | null;
    },
  ): Promise<ConfigurationOutcome> {
    const previous = await this.generations.findOne({ where: { fabricId }, order: { number: 'DESC' }, select: { id: true, number: true } });
    const number = (previous?.number ?? 0) + 1;
    const stored = this.images.encode(fabricId, number, image);
    // Which routers' registers changed: from the delta where there is one (the same comparison).
    const diff = stored.delta
      ? chipsChanged(image, stored.delta, ['route'])
      : diffImages(previous ? await this.images.read<ConfigurationImage>(fabricId, previous.number) : null, image);
    let generation = await this.generations.save(
      this.generations.create({
        fabricId,
        number,
        engine,
        image: stored.image,
        parentNumber: stored.parentNumber,
        diff: JSON.stringify(diff),
        state: verification.ok ? 'computed' : 'rejected',
        verification: JSON.stringify({
          ok: verification.ok,
          violations: verification.violations,
          pairsProven: verification.pairsProven,
          endpointsProven: verification.endpointsProven,
          unreachable: context.unreachable,
          maxHops: verification.maxHops,
        }),
        circumstances: JSON.stringify(circumstancesOf(context.faults, context.findings)),
        pushedAt: null,
      }),
    );
    this.images.stored(generation, image);
    await this.events.record({
      fabricId,
      kind: FabricEventKind.GENERATION_COMPUTED,
      details: {
        generation: generation.number,
        trigger: context.trigger,
        verified: verification.ok,
        changedRouters: diff.changed.length,
        problems: problemsOf(image).length,
        // The proof covers every live endpoint: proven, or cut off by a fault (unreachable).
        endpointsProven: verification.endpointsProven,
        unreachable: context.unreachable,
        // The engine that computed it, and how: only the affected routers (incremental) or all of
        // them (fellBack: the incremental one failed its proof and the full one was taken).
        engine,
        incremental: context.computation.incremental,
        fellBack: context.computation.fellBack,
        // The engine's preferred routing failed its proof and its proven fallback was taken (what it gave up).
        fallback: context.computation.fallback ?? null,
        // Wall time to compute and prove it, and of that the proof's.
        computeMs: context.computation.ms,
        verifyMs: context.computation.verifyMs,
        // The thread's CPU time for it: what a drill charges to emulated time.
        computeCpuMs: context.computation.cpuMs,
        // Left for a generation of its own after this one (Anton 2: the weights after the routes).
        deferred: context.deferred ?? null,
        // In a drill: the emulated time of the latest interrupt it knew of (what it can heal).
        ...(context.knowsNs != null ? { knowsNs: context.knowsNs } : {}),
      },
    });
    if (!verification.ok) {
      // An alarm, not a log line: the fabric stays on the configuration in force before it.
      const reasons = verification.violations.slice(0, 5).map((v) => v.message);
      await this.events.record({
        fabricId,
        kind: FabricEventKind.GENERATION_REJECTED,
        details: {
          generation: generation.number,
          trigger: context.trigger,
          reason: reasons[0] ?? 'its proof failed',
          violations: reasons,
          more: Math.max(0, verification.violations.length - reasons.length),
        },
      });
    }
    let writes = 0;
    if (verification.ok) {
      const report = await this.push(fabricId, generation, image);
      writes = report.writes;
      generation = report.generation;
    }
    return { generation, verification, problems: problemsOf(image), findings: context.findings, unreachable: context.unreachable, writes };
  }

  /** Whether the fabric holds what the last push wrote (it finished, or was recovered): else it must be read back. */
  private async pushCertain(fabricId: number): Promise<boolean> {
    const last = await this.pushes.findOne({ where: { fabricId }, order: { id: 'DESC' }, select: { id: true, state: true } });
    return !last || last.state === 'done' || last.state === 'recovered';
  }

  /**
   * Pushes a verified generation as a plan from what the fabric holds (the last generation pushed
   * completely), recording its progress phase by phase. When the last push did not finish, what
   * the fabric holds is uncertain: the registers are read back and only what differs is written.
   */
  private async push(fabricId: number, generation: ConfigGeneration, image: ConfigurationImage): Promise<{ writes: number; generation: ConfigGeneration }> {
    const began = performance.now();
    const transport = this.transports.transport(fabricId);
    const held = await this.generations.findOne({ where: { fabricId, state: 'pushed' }, order: { number: 'DESC' }, select: { id: true, number: true } });
    const certain = await this.pushCertain(fabricId);
    // The fabric's own engine, as the registry has it for its family.
    const engine = routingEngineOf((await this.knownFabric(fabricId)).design.family);
    const plan = engine.plan(certain && held ? await this.images.read<ConfigurationImage>(fabricId, held.number) : null, image);
    let record = await this.pushes.save(
      this.pushes.create({
        fabricId,
        generationId: generation.id,
        fromGeneration: held?.number ?? null,
        phases: plan.phases.length,
        phasesDone: 0,
        writes: planWrites(plan),
        state: 'running',
        finishedAt: null,
      }),
    );
    generation.state = 'pushing';
    generation = await this.generations.save(generation);
    let writes: number;
    let failures: { router: string; register: string; detail: string }[];
    if (certain) {
      const report = await executePlan(transport, plan, { onPhaseDone: (phasesDone) => this.pushes.update(record.id, { phasesDone }).then(() => undefined) });
      writes = report.writes;
      failures = report.failures;
      record.phasesDone = report.phasesDone;
    } else {
      const report = await engine.reconcile(transport, image);
      writes = report.rewritten;
      failures = report.failures;
      record.phasesDone = failures.length === 0 ? plan.phases.length : 0;
      record.detail = `the previous push did not finish: read back ${report.checked} registers, rewrote ${report.rewritten}`;
    }
    record.state = failures.length === 0 ? 'done' : 'failed';
    record.finishedAt = new Date();
    if (failures.length > 0)
      record.detail = failures
        .slice(0, 5)
        .map((f) => `${f.router} ${f.register}: ${f.detail}`)
        .join('; ');
    record = await this.pushes.save(record);
    generation.state = failures.length === 0 ? 'pushed' : 'failed';
    generation.pushedAt = new Date();
    generation = await this.generations.save(generation);
    if (failures.length === 0) this.images.markPushed(fabricId, generation.number, image);
    await this.events.record({
      fabricId,
      kind: FabricEventKind.GENERATION_PUSHED,
      // The emulated time the last write was done: when the fabric holds the new generation.
      emulatedTimeNs: await this.emulator.emulatedNs(fabricId),
      details: {
        generation: generation.number,
        writes,
        phases: record.phasesDone,
        failures: failures.slice(0, 20),
        pushMs: Math.round((performance.now() - began) * 1000) / 1000,
      },
    });
    await this.images.compact(fabricId);
    return { writes, generation };
  }

  /**
   * After a restart, store and fabric must agree again: a push that was running when the service
   * stopped is finished by reading every register back and writing what differs (the emulated
   * fabrics also power up blank, so the last pushed generation of every fabric is reconciled too).
   * This runs in the background, one fabric at a time in each fabric's queue.
   */
  onApplicationBootstrap(): void {
    // A standby recovers when it takes over: the fabric is then as the deposed manager left it.
    // Readiness waits for every fabric where they powered up blank with this manager (embedded);
    // where a fabric process kept them, only for those with a push cut off.
    const gate = this.emulator.keepsFabrics() ? 'interrupted' : 'all';
    if (this.owner) void this.owner.whenActive(() => void this.recoverInBackground('after a restart', gate));
    else this.recoverInBackground('after a restart', gate);
    // A fabric reached again after it was lost (a fabric process restarted) may hold anything.
    this.transports.onReattached(() => this.recoverInBackground('after the fabric was reached again', 'all'));
  }

  private recoverInBackground(when: string, gate: 'interrupted' | 'all'): void {
    void this.recoverAll(when, gate).catch((error: unknown) => this.logger.error(`recovery failed: ${error instanceof Error ? error.stack : String(error)}`));
  }

  /** Whether no recovery readiness waits for is under way and the start-up one has run (readiness). */
  get recoveryDone(): boolean {
    return this.startedUp && this.recovering === 0;
  }

  /** Fabrics whose registers are being read back while the manager is ready (each one's operations wait in its queue). */
  get readingBack(): number {
    return this.readingBackCount;
  }

  /**
   * Reads every fabric back, each in its own queue. Readiness waits for the fabrics `gate` names:
   * where a fabric process kept them through a restart or a takeover, those with a push cut off —
   * the rest hold what was pushed and are checked in the background (issue 54: ready took 13–19 s
   * after a takeover with 6–7 fabrics, one read-back after another); all of them where they powered
   * up blank (an embedded emulator, or a fabric process that came back).
   */
  private recoverAll(when: string, gate: 'interrupted' | 'all'): Promise<void> {
    this.recovering++;
    let gated = true;
    const ungate = () => {
      if (!gated) return;
      gated = false;
      this.recovering--;
      this.startedUp = true;
    };
    this.recovered = (async () => {
      const interrupted = await this.pushes.find({ where: { state: 'running' } });
      const fabricIds = new Set<number>(interrupted.map((p) => p.fabricId));
      const pushed = await this.generations
        .createQueryBuilder('g')
        .select('DISTINCT g.fabricId', 'fabricId')
        .where(`g.state = 'pushed'`)
        .getRawMany<{ fabricId: number }>();
      for (const row of pushed) fabricIds.add(row.fabricId);
      const waitedFor = (fabricId: number) => gate === 'all' || interrupted.some((p) => p.fabricId === fabricId);
      const recover = (fabricId: number) =>
        this.exclusive(fabricId, () => this.recover(fabricId, interrupted.find((p) => p.fabricId === fabricId) ?? null, when));
      const background = [...fabricIds].filter((id) => !waitedFor(id));
      this.readingBackCount += background.length;
      const checked = Promise.all(
        background.map((id) =>
          recover(id)
            .catch((error: unknown) => this.logger.error(`fabric ${id}: reading it back failed: ${error instanceof Error ? error.stack : String(error)}`))
            .finally(() => this.readingBackCount--),
        ),
      );
      try {
        await Promise.all([...fabricIds].filter(waitedFor).map(recover));
      } finally {
        ungate();
      }
      await checked;
    })().finally(ungate);
    return this.recovered;
  }

  private async recover(fabricId: number, interrupted: PushRecord | null, when: string): Promise<void> {
    const narrow = { id: true, number: true, engine: true } as const;
    const target = interrupted
      ? await this.generations.findOne({ where: { id: interrupted.generationId }, select: narrow })
      : await this.generations.findOne({ where: { fabricId, state: 'pushed' }, order: { number: 'DESC' }, select: narrow });
    if (!target) return;
    const image = await this.images.read<ConfigurationImage>(fabricId, target.number);
    const report = await routingEngineNamed(target.engine).reconcile(this.transports.transport(fabricId), image);
    const ok = report.failures.length === 0;
    const detail = `${when}: read back ${report.checked} registers, rewrote ${report.rewritten}${ok ? '' : `, ${report.failures.length} failed`}`;
    if (interrupted) {
      await this.pushes.update(interrupted.id, {
        state: ok ? 'recovered' : 'failed',
        phasesDone: ok ? interrupted.phases : interrupted.phasesDone,
        detail,
        finishedAt: new Date(),
      });
      await this.generations.update(target.id, { state: ok ? 'pushed' : 'failed', pushedAt: new Date() });
    }
    if (ok) this.images.markPushed(fabricId, target.number, image);
    await this.events.record({
      fabricId,
      kind: FabricEventKind.GENERATION_PUSHED,
      details: { generation: target.number, recovered: true, checked: report.checked, writes: report.rewritten, failures: report.failures.slice(0, 20) },
    });
    this.logger.log(`fabric ${fabricId}, generation ${target.number}: ${detail}`);
  }
}

/** What a generation is computed from besides the design, as it is stored with it. */
function circumstancesOf(faults: readonly Fault[], findings: readonly Finding[]): GenerationCircumstances {
  return {
    faults: faults.map((f) => ({ id: f.id, kind: f.kind, chip: f.chip, port: f.port, source: f.source, declaredAt: f.declaredAt.toISOString(), note: f.note })),
    findings,
  };
}

/** What an image could not route, where its family reports it beside the image (BlackWidow's `problems`). */
function problemsOf(image: ChipImages): string[] {
  return (image as ChipImages & { problems?: string[] }).problems ?? [];
}
