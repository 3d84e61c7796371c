import { withoutPassword } from '../database/dialect';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { sweepPointOf, sweepReportOf, TrafficReport, validateTrafficRequest } from '@weft/emulator';
import { patternFlows } from '@weft/control';
import { FABRIC_FAMILY_MODELS, FabricFamily, PatternError } from '@weft/fabric-model';
import { AnalysisService } from '../control/analysis.service';
import { ControlErrorCode, ControlException } from '../control/control.exception';
import { checkedDrill, readDrillInput } from '../drills/drill-input';
import { DrillReport, DrillRunnerService } from '../drills/drill-runner.service';
import { Queue } from 'bullmq';
import { DataSource, In, Repository } from 'typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { WeftConfig } from '../config/weft-config';
import { StoreOwnerService } from '../database/store-owner.service';
import { EmulatorClient } from '../emulator/emulator-client';
import { FabricsService } from '../fabrics/fabrics.service';
import { toRequest } from '../traffic/traffic.service';
import { StartChannelLoadStudyInput, StartDrillCampaignInput, StartSweepInput } from './dto/study.dto';
import { StudiesErrorCode, StudiesException } from './studies.exception';
import { StudyPoint } from './study-point.entity';
import { ChannelLoadStudy, StudyPointRunner } from './study-point-runner';
import type { DrillPointResult } from './drill-point';
import { pointJob, StudyJob, studyQueue } from './study-queue';
import { Study } from './study.entity';

export interface StudyView extends Study {
  points: StudyPoint[];
  pointsDone: number;
  pointsTotal: number;
  report: Record<string, unknown> | null;
}

/**
 * Studies (issue 40): a sweep's loads stored as points and put on the job queue (WEFT_REDIS), where
 * `weft worker` processes on any machine that reaches the queue and the store take them — or, with
 * no queue, done by this manager one at a time on an emulated fabric of its own (not the one it
 * manages). Progress and results are read from the store, whoever did the points.
 */
@Injectable()
export class StudiesService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(StudiesService.name);
  private queue: Queue<StudyJob> | null = null;
  /** Without a queue: points waiting for this manager, and its emulator for them (started on first use). */
  private readonly local: number[] = [];
  private localRun: Promise<void> | null = null;
  private localEmulator: Promise<EmulatorClient> | null = null;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Study) private readonly studies: Repository<Study>,
    @InjectRepository(StudyPoint) private readonly points: Repository<StudyPoint>,
    @InjectRepository(ConfigGeneration) private readonly generations: Repository<ConfigGeneration>,
    private readonly fabrics: FabricsService,
    private readonly analysis: AnalysisService,
    private readonly drills: DrillRunnerService,
    private readonly config: WeftConfig,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  /** Without a queue, points left undone by the last stop are done now (the active manager's work);
   * with one, the queue is connected. */
  onApplicationBootstrap(): Promise<void> {
    if (this.config.WEFT_REDIS !== 'none') {
      // Connected now, so that the first study does not wait for it.
      this.queueOf();
      return Promise.resolve();
    }
    const resume = async () => {
      const undone = await this.points.find({ where: { state: In(['queued', 'running']) }, select: { id: true }, order: { id: 'ASC' } });
      this.enqueueLocally(undone.map((p) => p.id));
    };
    return this.owner ? this.owner.whenActive(resume) : resume();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.local.length = 0;
    await this.queue?.close();
    await this.localRun;
    await (await this.localEmulator)?.close();
  }

  async startSweep(input: StartSweepInput): Promise<StudyView> {
    const fabric = await this.fabrics.get(input.fabricId);
    const shape = FABRIC_FAMILY_MODELS[fabric.family as FabricFamily].trafficShape(fabric.summary);
    const { loads, ...shared } = input;
    const problems: string[] = [];
    if (new Set(loads).size !== loads.length) problems.push(`loads: each load once (${loads.join(', ')})`);
    const base = toRequest({ ...shared, mode: 'steady-state' }, shape.packetPhits.min);
    for (const load of loads) problems.push(...validateTrafficRequest({ ...base, load }, shape).map((p) => `load ${load}: ${p}`));
    if (problems.length > 0) throw new StudiesException(StudiesErrorCode.RequestInvalid, `invalid sweep: ${problems.join('; ')}`, { problems });
    const generation = await this.generations.findOne({ where: { fabricId: fabric.id, state: 'pushed' }, order: { number: 'DESC' }, select: { number: true } });
    if (!generation) {
      throw new StudiesException(
        StudiesErrorCode.NotConfigured,
        `fabric ${fabric.id} holds no pushed generation: configure it first (the points run under its configuration)`,
      );
    }

    const sorted = [...loads].sort((a, b) => a - b);
    return this.create(
      { fabricId: fabric.id, kind: 'sweep', generation: generation.number, parameters: base as unknown as Record<string, unknown> },
      sorted.map((load) => ({ load })),
      // The highest loads first: near saturation a run takes longest (its sample drains slowly), and
      // the longest begun first finish soonest when the workers share the rest.
      sorted.map((_, i) => sorted.length - 1 - i),
    );
  }

  /** A channel-load study: the pattern checked against the configuration in force, a point per seed. */
  async startChannelLoadStudy(input: StartChannelLoadStudyInput): Promise<StudyView> {
    if (new Set(input.seeds).size !== input.seeds.length) throw invalid(`invalid channel-load study: seeds: each seed once (${input.seeds.join(', ')})`);
    let checked: Awaited<ReturnType<AnalysisService['checkPattern']>>;
    try {
      checked = await this.analysis.checkPattern(input);
      const endpoints = checked.forwarding.endpoints.map((e) => e.number);
      // Drawn once here, so that settings the pattern refuses are said now, not by every point.
      patternFlows(
        checked.spec,
        endpoints,
        { endpointsPerRouter: checked.forwarding.endpointsPerRouter ?? Math.min(32, endpoints.length), torus: checked.forwarding.torus },
        input.seeds[0],
        1,
      );
    } catch (error) {
      if (error instanceof ControlException && error.code === ControlErrorCode.GenerationNotFound) throw notConfigured(input.fabricId);
      if (error instanceof ControlException || error instanceof PatternError) throw invalid(`invalid channel-load study: ${error.message}`);
      throw error;
    }
    const parameters: ChannelLoadStudy = {
      pattern: checked.spec,
      draws: input.draws,
      planes: input.planes?.length ? checked.planes : null,
      vc: input.vc,
      top: input.top,
    };
    return this.create(
      { fabricId: input.fabricId, kind: 'channel-load', generation: checked.number, parameters: parameters as unknown as Record<string, unknown> },
      input.seeds.map((seed) => ({ seed })),
    );
  }

  /** A drill campaign: the drill checked as a drill run checks it, a point per seed. */
  async startDrillCampaign(input: StartDrillCampaignInput): Promise<StudyView> {
    if (new Set(input.seeds).size !== input.seeds.length) throw invalid(`invalid drill campaign: seeds: each seed once (${input.seeds.join(', ')})`);
    const drill = checkedDrill(this.drills, readDrillInput(input));
    return this.create(
      { fabricId: null, kind: 'drill-campaign', generation: null, parameters: { drill } },
      input.seeds.map((seed) => ({ seed })),
    );
  }

  /**
   * Stores the study and its points in one transaction, then queues the points (or keeps them for
   * this manager) in `order` (indices into `each`; as given by default).
   */
  private async create(
    study: Pick<Study, 'fabricId' | 'kind' | 'generation' | 'parameters'>,
    each: Record<string, unknown>[],
    order: number[] = each.map((_, i) => i),
  ): Promise<StudyView> {
    const { saved, points } = await this.dataSource.transaction(async (m) => {
      const saved = await m.getRepository(Study).save(m.getRepository(Study).create({ ...study, state: 'queued', finishedAt: null }));
      const points = await m
        .getRepository(StudyPoint)
        .save(
          each.map((parameters, index) =>
            m
              .getRepository(StudyPoint)
              .create({ studyId: saved.id, index, parameters, state: 'queued', result: null, worker: null, attempts: 0, startedAt: null, finishedAt: null }),
          ),
        );
      return { saved, points: order.map((i) => points[i]) };
    });
    if (this.config.WEFT_REDIS === 'none') this.enqueueLocally(points.map((p) => p.id));
    else {
      try {
        await withDeadline(
          this.queueOf().addBulk(points.map((p) => pointJob({ studyId: saved.id, pointId: p.id }, p.index))),
          QUEUE_DEADLINE_MS,
          `no answer in ${QUEUE_DEADLINE_MS / 1000} s`,
        );
      } catch (error) {
        // Nothing was started: the study goes as it came.
        await this.studies.delete(saved.id);
        throw new StudiesException(
          StudiesErrorCode.QueueUnavailable,
          `the job queue at ${withoutPassword(this.config.WEFT_REDIS)} cannot be reached (${(error as Error).message}): the ${study.kind} was not started`,
        );
      }
    }
    return this.get(saved.id);
  }

  async get(id: number): Promise<StudyView> {
    const study = Number.isInteger(id) && id > 0 ? await this.studies.findOne({ where: { id } }) : null;
    if (!study) throw new StudiesException(StudiesErrorCode.StudyNotFound, `no study with id ${id}`);
    return this.view(study);
  }

  async list(filter: { fabricId?: number; kind?: string; first?: number }): Promise<StudyView[]> {
    if (filter.fabricId !== undefined) await this.fabrics.get(filter.fabricId);
    const studies = await this.studies.find({
      where: { ...(filter.fabricId !== undefined ? { fabricId: filter.fabricId } : {}), ...(filter.kind ? { kind: filter.kind } : {}) },
      order: { id: 'DESC' },
      take: filter.first ?? 50,
    });
    return Promise.all(studies.map((s) => this.view(s)));
  }

  /** Resolves once this manager has done every point given to it (no queue; tests). */
  async settled(): Promise<void> {
    while (this.localRun) await this.localRun;
  }

  private async view(study: Study): Promise<StudyView> {
    const points = await this.points.find({ where: { studyId: study.id }, order: { index: 'ASC' } });
    const done = points.filter((p) => p.state === 'done');
    return { ...study, points, pointsDone: done.length, pointsTotal: points.length, report: done.length === 0 ? null : reportOf(study, done) };
  }

  private queueOf(): Queue<StudyJob> {
    if (!this.queue) {
      this.queue = studyQueue({ redis: this.config.WEFT_REDIS, prefix: this.config.WEFT_QUEUE_PREFIX });
      // It reconnects by itself; an outage is logged once, not at every attempt.
      let said = '';
      this.queue.on('error', (error) => {
        if (error.message !== said) this.logger.warn(`the job queue at ${withoutPassword(this.config.WEFT_REDIS)}: ${error.message}`);
        said = error.message;
      });
    }
    return this.queue;
  }

  private enqueueLocally(pointIds: number[]): void {
    this.local.push(...pointIds);
    this.localRun ??= this.drainLocally().finally(() => (this.localRun = null));
  }

  /** This manager's own worker: the same runner as `weft worker`, one point at a time. */
  private async drainLocally(): Promise<void> {
    this.localEmulator ??= EmulatorClient.start(this.config.WEFT_EMULATOR_NICE, 1);
    const runner = new StudyPointRunner(this.dataSource, await this.localEmulator, 'manager');
    for (let pointId = this.local.shift(); pointId !== undefined && !this.stopped; pointId = this.local.shift()) {
      try {
        await runner.run(pointId);
      } catch (error) {
        if (this.stopped) return; // left running: the next start does it again
        this.logger.error(`study point ${pointId}: ${(error as Error).message}`);
        await runner.fail(pointId, error).catch(() => undefined);
      }
    }
  }
}

/** How long a study's start waits for the queue to take its points before it is refused. */
const QUEUE_DEADLINE_MS = 5_000;

/** `work`, or an error saying `late` once `ms` have passed (the work itself is not stopped). */
async function withDeadline<T>(work: Promise<T>, ms: number, late: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(late)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const invalid = (message: string, problems: string[] = [message]) => new StudiesException(StudiesErrorCode.RequestInvalid, message, { problems });

const notConfigured = (fabricId: number) =>
  new StudiesException(
    StudiesErrorCode.NotConfigured,
    `fabric ${fabricId} holds no pushed generation: configure it first (the points run under its configuration)`,
  );

/** A study's report over the points done, by its kind. */
function reportOf(study: Study, done: StudyPoint[]): Record<string, unknown> {
  switch (study.kind) {
    case 'sweep': {
      const pattern = String((study.parameters.pattern as { kind?: unknown } | undefined)?.kind ?? 'unknown');
      return sweepReportOf(
        pattern,
        done.map((p) => sweepPointOf(Number(p.parameters.load), p.result as unknown as TrafficReport)),
      ) as unknown as Record<string, unknown>;
    }
    case 'channel-load': {
      const results = done.map((p) => p.result as unknown as ChannelLoadPoint);
      const maxima = results.map((r) => r.maximum);
      // How many seeds put each channel among their busiest: the channels a pattern loads whatever the draw.
      const hot = new Map<string, { chip: string; port: number; seeds: number }>();
      for (const r of results)
        for (const l of r.busiest) {
          const key = `${l.channel.chip}:${l.channel.port}`;
          const entry = hot.get(key) ?? { chip: l.channel.chip, port: l.channel.port, seeds: 0 };
          entry.seeds++;
          hot.set(key, entry);
        }
      return {
        pattern: (study.parameters as unknown as ChannelLoadStudy).pattern.kind,
        seeds: results.length,
        maximum: { min: Math.min(...maxima), mean: maxima.reduce((a, b) => a + b, 0) / maxima.length, max: Math.max(...maxima) },
        points: results.map((r) => ({ seed: r.seed, maximum: r.maximum, mean: r.mean, undeliverable: r.undeliverable })),
        hottest: [...hot.values()].sort((a, b) => b.seeds - a.seeds || a.chip.localeCompare(b.chip) || a.port - b.port).slice(0, 20),
      };
    }
    case 'drill-campaign': {
      const runs = done.map((p) => p.result as unknown as DrillPointResult);
      const perRun = runs.map((r) => {
        const report = r.report as unknown as DrillReport | null;
        const heals = (report?.heal ?? []).map((h) => h.healNs).filter((n): n is number => n !== null);
        const lost = report?.expectations.find((e) => e.name === 'packets unaccounted for');
        return { seed: r.seed, state: r.state, healNs: heals.length ? Math.max(...heals) : null, unaccounted: lost ? Number(lost.actual) : null };
      });
      const heals = perRun.map((r) => r.healNs).filter((n): n is number => n !== null);
      return {
        drill: (study.parameters.drill as { name?: string } | undefined)?.name ?? 'unknown',
        runs: runs.length,
        passed: runs.filter((r) => r.state === 'passed').length,
        failed: runs.filter((r) => r.state === 'failed').length,
        aborted: runs.filter((r) => r.state === 'aborted').length,
        healNs: heals.length === 0 ? null : { median: median(heals), max: Math.max(...heals) },
        points: perRun,
      };
    }
    default:
      return {};
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

interface ChannelLoadPoint {
  seed: number;
  maximum: number;
  mean: number;
  undeliverable: number;
  busiest: { channel: { chip: string; port: number }; load: number }[];
}
