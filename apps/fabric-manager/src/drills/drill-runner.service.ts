import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { StoreOwnerService } from '../database/store-owner.service';
import { InjectRepository } from '@nestjs/typeorm';
import {
  BackgroundReport,
  checkDrillTargets,
  drillTrafficRequest,
  DEFAULT_DISCARD_DRAIN_NS,
  DiscardVerdict,
  DrillAction,
  DrillFile,
  explainDiscards,
  NS_PER_CYCLE,
  validateDrillFile,
  validateTrafficRequest,
} from '@weft/emulator';
import { FABRIC_FAMILY_MODELS, FabricDesign } from '@weft/fabric-model';
import { GenerationImages } from '../config-generations/generation-images.service';
import { Repository } from 'typeorm';
import { AutomationService } from '../automation/automation.service';
import { ControlService } from '../control/control.service';
import { EmulatorService } from '../emulator/emulator.service';
import { InterruptRecorder } from '../events/interrupt-recorder.service';
import { FabricEvent } from '../events/fabric-event.entity';
import { FabricEventKind } from '../events/fabric-event-kind';
import { EventsService } from '../events/events.service';
import { FabricsService } from '../fabrics/fabrics.service';
import { FaultsService } from '../faults/faults.service';
import { Drill } from './drill.entity';
import { DrillRun } from './drill-run.entity';

/** Cycles a drill waits, after its traffic stops, for every packet to be delivered or discarded. */
const DRAIN_LIMIT = 2_000_000;
/** Intervals of traffic a drill measures after a healing push that came past its end. */
const AFTER_LATE_HEAL_INTERVALS = 5;

export interface DrillProgress {
  readonly runId: number;
  readonly emulatedNs: number;
  readonly durationNs: number;
  readonly step: string;
}

export interface ExpectationResult {
  readonly name: string;
  readonly expected: string;
  readonly actual: string;
  readonly passed: boolean;
}

export interface DrillReport {
  readonly drill: string;
  readonly description: string;
  /** The fabric the run loaded; `kept` false when it was deleted at the end (the default). */
  readonly fabric: { readonly id: number; readonly fixture: string; readonly kept: boolean };
  readonly passed: boolean;
  readonly expectations: readonly ExpectationResult[];
  readonly timeline: readonly { readonly atNs: number; readonly label: string }[];
  readonly interrupts: readonly { readonly atNs: number; readonly kind: string; readonly chip: string | null; readonly port: number | null }[];
  readonly generations: readonly {
    readonly generation: number;
    readonly trigger: string;
    /** Wall time of the computation (what the machine's load inflates). */
    readonly computeMs: number;
    /** Its CPU time on the control plane's thread: what was charged to emulated time. */
    readonly chargedMs: number;
    readonly incremental: boolean;
    readonly pushedAtNs: number | null;
    readonly writes: number | null;
  }[];
  /** Emulated time from each fault to the pushed generation that routes around it. */
  readonly heal: readonly { readonly step: string; readonly faultNs: number; readonly healedNs: number | null; readonly healNs: number | null }[];
  /** The traffic run's report; its discards are summed up in `discards`. */
  readonly traffic: Omit<BackgroundReport, 'discards'>;
  /** Each discard explained by the step of the timeline that accounts for it, or not. */
  readonly discards: DiscardVerdict;
  /** Pairs of endpoints the generations pushed during the drill declared cut by its faults (proven so by their verification). */
  readonly declaredCut: number;
  readonly durationNs: number;
  /** The fabric's clock: the traffic series counts its cycles. */
  readonly nsPerCycle: number;
  /** When the traffic stopped: the drill's end, or later when a healing push came past it. */
  readonly endNs: number;
  readonly wallMs: number;
}

/**
 * Runs drills (issue 5): a fresh copy of the drill's fabric is loaded, discovered and configured;
 * background traffic runs in the emulator while the timeline is played at exact emulated times —
 * physical faults in the fabric, operator actions through the fault service — and the control
 * plane reacts by itself, its compute time charged to emulated time. Then the traffic drains, and
 * the report (timeline, interrupts, generations with their timings, traffic, books, expectations)
 * is stored with the run.
 */
@Injectable()
export class DrillRunnerService implements OnApplicationBootstrap {
  private readonly logger = new Logger(DrillRunnerService.name);
  /** Where each running drill is: its step, and once its timeline is played from a time, the fabric's clock to read. */
  private readonly progress = new Map<number, { step: string; durationNs: number; clock: { fabricId: number; startNs: number } | null }>();

  constructor(
    @InjectRepository(Drill) private readonly drills: Repository<Drill>,
    @InjectRepository(DrillRun) private readonly runs: Repository<DrillRun>,
    @InjectRepository(FabricEvent) private readonly eventRows: Repository<FabricEvent>,
    private readonly fabrics: FabricsService,
    private readonly control: ControlService,
    private readonly emulator: EmulatorService,
    private readonly automation: AutomationService,
    private readonly faults: FaultsService,
    private readonly events: EventsService,
    private readonly recorder: InterruptRecorder,
    private readonly images: GenerationImages,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  /** A run still marked running at start was cut off when the service last stopped: it says so. */
  onApplicationBootstrap(): Promise<void> {
    return this.owner ? this.owner.whenActive(() => this.abortStale()) : this.abortStale();
  }

  /** Drills the last (active) manager was running when it stopped have ended with it; the fabrics
   * they loaded go as they would have at the end of the run (issue 54: they stayed, paused). */
  private async abortStale(): Promise<void> {
    const stale = await this.runs.find({ where: { state: 'running' } });
    for (const run of stale) {
      await this.runs.save({ ...run, state: 'aborted', report: { error: 'the service stopped during the run' }, finishedAt: new Date() });
      if (run.fabricId !== null && !run.keepFabric && (await this.fabrics.exists(run.fabricId))) await this.removeFabric(run.fabricId, run.id);
    }
  }

  /** Where a running drill is: its step, and the emulated time its fabric has reached since the
   * timeline began, read from the fabric's clock (issue 54: it said the time of the step awaited,
   * and 100% from the last step on while the fabric ran to the end). */
  async progressOf(runId: number): Promise<DrillProgress | null> {
    const progress = this.progress.get(runId);
    if (!progress) return null;
    const { step, durationNs, clock } = progress;
    const emulatedNs = clock ? Math.max(0, (await this.emulator.emulatedNs(clock.fabricId)) - clock.startNs) : 0;
    return { runId, step, durationNs, emulatedNs };
  }

  /**
   * Validates a drill and starts it; resolves with the run (state running) and the promise of its
   * end. The fabric the run loads is deleted when the run ends, its report kept, unless
   * `keepFabric` asks to look at it afterwards.
   */
  async start(definition: unknown, options: { keepFabric?: boolean } = {}): Promise<{ run: DrillRun; finished: Promise<DrillRun> }> {
    const drill = this.check(definition);
    let row = await this.drills.findOne({ where: { name: drill.name } });
    if (!row) row = await this.drills.save(this.drills.create({ name: drill.name, definition: drill as unknown as Record<string, unknown> }));
    else {
      row.definition = drill as unknown as Record<string, unknown>;
      row = await this.drills.save(row);
    }
    const keep = options.keepFabric ?? false;
    const run = await this.runs.save(this.runs.create({ drillId: row.id, state: 'running', report: null, finishedAt: null, fabricId: null, keepFabric: keep }));
    const loaded: { fabricId?: number } = {};
    const finished = this.execute(run, drill, keep, loaded).catch(async (error: unknown) => {
      this.logger.error(`drill ${drill.name}, run ${run.id}: ${error instanceof Error ? error.stack : String(error)}`);
      this.progress.delete(run.id);
      if (loaded.fabricId !== undefined) {
        this.control.chargeComputeTime(loaded.fabricId, false);
        if (!keep) await this.removeFabric(loaded.fabricId, run.id);
      }
      return this.runs.save({ ...run, state: 'aborted', report: { error: error instanceof Error ? error.message : String(error) }, finishedAt: new Date() });
    });
    return { run, finished };
  }

  /** The drill file, checked whole and against the fabric it names (DrillFileError, DrillTargetsError). */
  check(definition: unknown): DrillFile {
    const drill = validateDrillFile(definition);
    const installation = this.fabrics.readInstallation({ fixture: drill.fabric });
    const problems = [
      ...checkDrillTargets(drill, installation.physical),
      ...validateTrafficRequest(
        drillTrafficRequest(drill, NS_PER_CYCLE, installation.physical),
        FABRIC_FAMILY_MODELS[installation.physical.family].trafficShape(installation.physical.summary),
      ).map((problem) => problem.replace(/^\$\./, '$.traffic.')),
    ];
    if (problems.length > 0) throw new DrillTargetsError(problems);
    return drill;
  }

  /** A drill's fabric goes once its run has ended; a failure to delete it does not change the verdict. */
  private async removeFabric(fabricId: number, runId: number): Promise<void> {
    try {
      await this.automation.settled(fabricId);
      await this.fabrics.delete(fabricId);
    } catch (error) {
      this.logger.warn(`drill run ${runId}: its fabric #${fabricId} could not be deleted: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async execute(run: DrillRun, drill: DrillFile, keepFabric: boolean, loaded: { fabricId?: number }): Promise<DrillRun> {
    const wallStart = Date.now();
    const installation = this.fabrics.readInstallation({ fixture: drill.fabric });
    const fabric = await this.fabrics.load(installation, `${drill.name} — drill run ${run.id}`);
    const fabricId = fabric.id;
    loaded.fabricId = fabricId;
    await this.runs.update(run.id, { fabricId });
    let clock: { fabricId: number; startNs: number } | null = null;
    const report = (step: string) => this.progress.set(run.id, { step, durationNs: drill.durationNs, clock });
    report('configuring the fabric');
    await this.control.configure(fabricId, { trigger: `drill ${drill.name}` });
    if (drill.routing) {
      // The drill's routing settings over those in force (a part it leaves out stays), as an operator sets them.
      const { settings } = await this.control.routingSettings(fabricId);
      await this.control.changeRoutingSettings(fabricId, { ...(settings as object | null), ...drill.routing }, `drill ${drill.name}: its routing settings`);
    }
    const controls = this.emulator.drillControls();
    this.control.chargeComputeTime(fabricId, true);
    // The fabric's time and clock in one answer, and the traffic asked for at once after: the
    // timeline is played from `start`.
    const { emulatedNs: start, nsPerCycle } = await this.emulator.clock(fabricId);
    clock = { fabricId, startNs: start };
    const traffic = this.emulator.runTraffic(fabricId, drillTrafficRequest(drill, nsPerCycle, installation.physical));
    // Awaited once the timeline has been played; if the emulator stops before then (the service is
    // stopping), the timeline's own failure ends the run, and this rejection must not go unheard.
    traffic.catch(() => undefined);
    const timeline: { atNs: number; label: string }[] = [];
    let endNs = drill.durationNs;
    try {
      for (const step of drill.timeline) {
        const label = describe(step);
        report(label);
        await controls.pauseAt(fabricId, start + step.atNs);
        await this.apply(fabricId, step);
        await controls.mark(fabricId, label);
        timeline.push({ atNs: step.atNs, label });
        await this.events.record({
          fabricId,
          kind: FabricEventKind.DRILL_STEP,
          emulatedTimeNs: start + step.atNs,
          chip: step.chip,
          details: { drill: drill.name, run: run.id, step: label },
        });
        await controls.resume(fabricId);
      }
      report('running to the end');
      await controls.pauseAt(fabricId, start + drill.durationNs);
      // A reaction still under way at the end (the compute time charged to it can carry its push
      // past the end on a busy machine) is seen through: the traffic runs on until its generation
      // is pushed and a few intervals after, so that the fabric after healing is measured.
      await this.recorder.recorded();
      if (this.automation.busy(fabricId)) {
        report('waiting for the automation to heal the fabric');
        await controls.resume(fabricId);
        await this.automation.settled(fabricId);
        const reached = (await this.emulator.emulatedNs(fabricId)) - start;
        endNs = Math.max(drill.durationNs, reached + AFTER_LATE_HEAL_INTERVALS * drill.intervalNs);
        await controls.pauseAt(fabricId, start + endNs);
      } else {
        // A push that landed in the last few intervals leaves too little after it to measure: the
        // traffic runs on as far past it as after a late one.
        const pushed = await this.eventRows.findOne({ where: { fabricId, kind: FabricEventKind.GENERATION_PUSHED }, order: { id: 'DESC' } });
        const pushedNs = pushed?.emulatedTimeNs != null ? pushed.emulatedTimeNs - start : -Infinity;
        if (pushedNs > drill.durationNs - AFTER_LATE_HEAL_INTERVALS * drill.intervalNs) {
          report('measuring the fabric after a healing push near the end');
          endNs = pushedNs + AFTER_LATE_HEAL_INTERVALS * drill.intervalNs;
          await controls.resume(fabricId);
          await controls.pauseAt(fabricId, start + endNs);
        }
      }
      await controls.stopTraffic(fabricId, DRAIN_LIMIT);
      await controls.resume(fabricId);
    } catch (error) {
      await controls.resume(fabricId).catch(() => undefined);
      throw error;
    }
    report('draining');
    const result = (await traffic) as BackgroundReport;
    await this.recorder.recorded();
    await this.automation.settled(fabricId);
    this.control.chargeComputeTime(fabricId, false);
    const drillReport = await this.analyse(
      drill,
      installation.physical,
      fabricId,
      keepFabric,
      start,
      endNs,
      timeline,
      result,
      nsPerCycle,
      Date.now() - wallStart,
    );
    // Gone before the run says it has ended, so that whoever reads the end sees the fabric list as it stays.
    if (!keepFabric) await this.removeFabric(fabricId, run.id);
    this.progress.delete(run.id);
    return this.runs.save({
      ...run,
      state: drillReport.passed ? 'passed' : 'failed',
      report: drillReport as unknown as Record<string, unknown>,
      finishedAt: new Date(),
    });
  }

  /** Does a timeline step: to the physical fabric, or as an operator. */
  private async apply(fabricId: number, step: DrillAction): Promise<void> {
    switch (step.action) {
      case 'declare-fault':
        await this.faults.declare({ fabricId, kind: step.kind, chip: step.chip, port: step.port, note: step.note ?? 'drill' });
        return;
      case 'clear-fault': {
        const fault = (await this.faults.active(fabricId)).find((f) => f.chip === step.chip && (step.port === undefined || f.port === step.port));
        if (fault) await this.faults.clear(fault.id);
        return;
      }
      default:
        await this.emulator.injectFault(fabricId, step);
    }
  }

  /**
   * The pairs the drill's pushed generations declared cut (a BG/L image lists them per source,
   * verified: see bgl-routing-engine.ts), as `source>destination`.
   */
  private async declaredCut(fabricId: number, generations: readonly { generation: number; pushedAtNs: number | null }[]): Promise<Set<string>> {
    const cut = new Set<string>();
    for (const g of generations) {
      if (g.pushedAtNs === null) continue;
      const image = (await this.images.read(fabricId, g.generation)) as { cut?: readonly { source: string; destinations: readonly string[] }[] };
      for (const { source, destinations } of image.cut ?? []) for (const d of destinations) cut.add(`${source}>${d}`);
    }
    return cut;
  }

  private async analyse(
    drill: DrillFile,
    /** The fabric as it is cabled: what the discards are explained against. */
    physical: FabricDesign,
    fabricId: number,
    keepFabric: boolean,
    start: number,
    /** When the traffic stopped (after the drill's end if a healing push came later). */
    endNs: number,
    timeline: { atNs: number; label: string }[],
    traffic: BackgroundReport,
    nsPerCycle: number,
    wallMs: number,
  ): Promise<DrillReport> {
    const all = await this.eventRows.find({ where: { fabricId }, order: { id: 'ASC' } });
    const interrupts = all
      .filter((e) => ['LINK_DOWN', 'LINK_UP', 'LANE_DECOMMISSIONED', 'FORWARD_PROGRESS_TIMEOUT', 'SOFT_ERROR', 'CONFIGURATION_ERROR'].includes(e.kind))
      .flatMap((e) =>
        e.emulatedTimeNs === null || e.emulatedTimeNs < 0 ? [] : [{ atNs: e.emulatedTimeNs - start, kind: e.kind, chip: e.chip, port: e.port }],
      );
    const computed = all.filter((e) => e.kind === 'GENERATION_COMPUTED' && String(e.details.trigger ?? '').startsWith('automation'));
    const pushed = new Map(all.filter((e) => e.kind === 'GENERATION_PUSHED').map((e) => [Number(e.details.generation), e]));
    const generations = computed.map((e) => {
      const p = pushed.get(Number(e.details.generation));
      return {
        generation: Number(e.details.generation),
        trigger: String(e.details.trigger),
        computeMs: Number(e.details.computeMs ?? 0),
        chargedMs: Number(e.details.computeCpuMs ?? e.details.computeMs ?? 0),
        incremental: Boolean(e.details.incremental),
        pushedAtNs: p?.emulatedTimeNs != null ? p.emulatedTimeNs - start : null,
        // The latest fault it knew of: it heals the faults up to then (ConfigureOptions.knowsNs).
        knowsNs: e.details.knowsNs != null ? Number(e.details.knowsNs) - start : null,
        writes: p ? Number(p.details.writes ?? 0) : null,
      };
    });
    // A fault the control plane must route around heals at the first generation pushed that knew of it.
    const healing = new Set(['cut-link', 'kill-router', 'declare-fault', 'restore-link', 'revive-router', 'clear-fault']);
    const heal = drill.timeline
      .map((step, i) => ({ step, label: timeline[i]?.label ?? describe(step) }))
      .filter(({ step }) => healing.has(step.action))
      .map(({ step, label }) => {
        const next = generations.find((g) => g.pushedAtNs !== null && g.pushedAtNs >= step.atNs && (g.knowsNs ?? g.pushedAtNs) >= step.atNs);
        return { step: label, faultNs: step.atNs, healedNs: next?.pushedAtNs ?? null, healNs: next?.pushedAtNs != null ? next.pushedAtNs - step.atNs : null };
      });

    const expectations: ExpectationResult[] = [];
    const e = drill.expectations;
    // The drill's promise about discards, always checked: each one explained by a step.
    const stepNs = drill.timeline.map((step, i) => traffic.markers[i]?.ns ?? step.atNs);
    const drillStartNs = drill.timeline.length > 0 ? stepNs[0] - drill.timeline[0].atNs : 0;
    const drainNs = e.discardDrainNs ?? DEFAULT_DISCARD_DRAIN_NS;
    const declaredCut = await this.declaredCut(fabricId, generations);
    const discards = explainDiscards(
      physical,
      {
        timeline: drill.timeline,
        labels: drill.timeline.map((step, i) => timeline[i]?.label ?? describe(step)),
        stepNs,
        pushes: generations
          .flatMap((g) => (g.pushedAtNs === null ? [] : [{ atNs: g.pushedAtNs + drillStartNs, knowsNs: (g.knowsNs ?? g.pushedAtNs) + drillStartNs }]))
          .sort((a, b) => a.atNs - b.atNs),
        drainNs,
        drillStartNs,
        declaredCut,
      },
      traffic.discards,
    );
    expectations.push({
      name: 'discards explained by the faults',
      expected: `every discard, at the broken part until it was routed around (and ${drainNs} ns more)`,
      actual: discards.unexplained === 0 ? `all ${discards.total} explained` : `${discards.unexplained} of ${discards.total} not explained`,
      passed: discards.unexplained === 0,
    });
    if (e.maxHealNs !== undefined) {
      const worst = heal.reduce((m, h) => (h.healNs === null ? Infinity : Math.max(m, h.healNs)), 0);
      expectations.push({
        name: 'time from fault to healed configuration',
        expected: `at most ${e.maxHealNs} ns`,
        actual: heal.length === 0 ? 'no fault to heal' : worst === Infinity ? 'a fault was never healed' : `${Math.round(worst)} ns`,
        passed: worst <= e.maxHealNs,
      });
    }
    if (e.unaccounted !== undefined) {
      const b = traffic.books;
      const lost = b.injected - b.delivered - Object.values(b.discarded).reduce((x, y) => x + y, 0) - b.inFlight;
      expectations.push({ name: 'packets unaccounted for', expected: `${e.unaccounted}`, actual: `${lost}`, passed: lost <= e.unaccounted && b.balanced });
    }
    if (e.throughputAfterFraction !== undefined) {
      const firstFault = drill.timeline[0]?.atNs ?? drill.durationNs;
      const lastHeal = Math.max(firstFault, ...heal.map((h) => h.healedNs ?? endNs), ...drill.timeline.map((s) => s.atNs));
      const mean = (from: number, to: number) => {
        const points = traffic.series.filter((p) => p.cycle * nsPerCycle > from && p.cycle * nsPerCycle <= to);
        return points.length ? points.reduce((a, p) => a + p.accepted, 0) / points.length : NaN;
      };
      const before = mean(0, firstFault);
      const after = mean(lastHeal + drill.intervalNs, endNs);
      const ratio = after / before;
      expectations.push({
        name: 'throughput after healing, as a fraction of before',
        expected: `at least ${e.throughputAfterFraction}`,
        actual: Number.isFinite(ratio) ? ratio.toFixed(3) : 'not measurable (no interval before the first fault or after the last heal)',
        passed: Number.isFinite(ratio) && ratio >= e.throughputAfterFraction,
      });
    }
    for (const kind of e.events ?? []) {
      const seen = all.filter((x) => x.kind === kind).length;
      expectations.push({ name: `event ${kind}`, expected: 'at least one', actual: `${seen}`, passed: seen > 0 });
    }
    return {
      drill: drill.name,
      description: drill.description,
      fabric: { id: fabricId, fixture: drill.fabric, kept: keepFabric },
      passed: expectations.every((x) => x.passed),
      expectations,
      timeline,
      interrupts,
      generations,
      heal,
      traffic: withoutDiscards(traffic),
      discards,
      declaredCut: declaredCut.size,
      durationNs: drill.durationNs,
      nsPerCycle,
      endNs,
      wallMs,
    };
  }
}

/** A drill's background traffic as a traffic run; the interval in the fabric's cycles. */
export class DrillTargetsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
  }
}

function describe(step: DrillAction): string {
  const where = 'port' in step && step.port !== undefined ? `${step.chip}:${step.port}` : step.chip;
  switch (step.action) {
    case 'lane-bit-error-rate':
      return `lane ${step.lane} of ${where}: bit-error rate ${step.rate}`;
    case 'declare-fault':
      return `operator declares ${step.kind} fault ${where}`;
    case 'clear-fault':
      return `operator clears the fault on ${where}`;
    default:
      return `${step.action} ${where}`;
  }
}

/** The traffic report without its discard records (tens of thousands after a router death): the
 * drill report keeps their explanation instead. */
function withoutDiscards(traffic: BackgroundReport): Omit<BackgroundReport, 'discards'> {
  const { discards: _discards, ...rest } = traffic;
  return rest;
}
