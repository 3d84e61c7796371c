import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { sweepPointOf, sweepReportOf, TrafficReport, validateTrafficRequest } from '@weft/emulator';
import { FABRIC_FAMILY_MODELS, FabricFamily } from '@weft/fabric-model';
import { Queue } from 'bullmq';
import { DataSource, In, Repository } from 'typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { WeftConfig } from '../config/weft-config';
import { StoreOwnerService } from '../database/store-owner.service';
import { EmulatorClient } from '../emulator/emulator-client';
import { FabricsService } from '../fabrics/fabrics.service';
import { toRequest } from '../traffic/traffic.service';
import { StartSweepInput } from './dto/study.dto';
import { StudiesErrorCode, StudiesException } from './studies.exception';
import { StudyPoint } from './study-point.entity';
import { StudyPointRunner } from './study-point-runner';
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
    private readonly config: WeftConfig,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  /** Without a queue, points left undone by the last stop are done now (the active manager's work). */
  onApplicationBootstrap(): Promise<void> {
    if (this.config.WEFT_REDIS !== 'none') return Promise.resolve();
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

    const { study, points } = await this.dataSource.transaction(async (m) => {
      const study = await m
        .getRepository(Study)
        .save(
          m
            .getRepository(Study)
            .create({
              fabricId: fabric.id,
              kind: 'sweep',
              generation: generation.number,
              parameters: base as unknown as Record<string, unknown>,
              state: 'queued',
              finishedAt: null,
            }),
        );
      const points = await m
        .getRepository(StudyPoint)
        .save(
          [...loads]
            .sort((a, b) => a - b)
            .map((load, index) =>
              m
                .getRepository(StudyPoint)
                .create({
                  studyId: study.id,
                  index,
                  parameters: { load },
                  state: 'queued',
                  result: null,
                  worker: null,
                  attempts: 0,
                  startedAt: null,
                  finishedAt: null,
                }),
            ),
        );
      return { study, points };
    });

    if (this.config.WEFT_REDIS === 'none') this.enqueueLocally(points.map((p) => p.id));
    else {
      try {
        await this.queueOf().addBulk(points.map((p) => pointJob({ studyId: study.id, pointId: p.id }, p.index)));
      } catch (error) {
        // Nothing was started: the study goes as it came.
        await this.studies.delete(study.id);
        throw new StudiesException(
          StudiesErrorCode.QueueUnavailable,
          `the job queue at ${this.config.WEFT_REDIS} cannot be reached (${(error as Error).message}): the sweep was not started`,
        );
      }
    }
    return this.get(study.id);
  }

  async get(id: number): Promise<StudyView> {
    const study = Number.isInteger(id) && id > 0 ? await this.studies.findOne({ where: { id } }) : null;
    if (!study) throw new StudiesException(StudiesErrorCode.StudyNotFound, `no study with id ${id}`);
    return this.view(study);
  }

  async list(fabricId: number): Promise<StudyView[]> {
    await this.fabrics.get(fabricId);
    const studies = await this.studies.find({ where: { fabricId }, order: { id: 'ASC' } });
    return Promise.all(studies.map((s) => this.view(s)));
  }

  /** Resolves once this manager has done every point given to it (no queue; tests). */
  async settled(): Promise<void> {
    while (this.localRun) await this.localRun;
  }

  private async view(study: Study): Promise<StudyView> {
    const points = await this.points.find({ where: { studyId: study.id }, order: { index: 'ASC' } });
    const done = points.filter((p) => p.state === 'done');
    const pattern = String((study.parameters.pattern as { kind?: unknown } | undefined)?.kind ?? 'unknown');
    const report =
      done.length === 0
        ? null
        : (sweepReportOf(
            pattern,
            done.map((p) => sweepPointOf(Number(p.parameters.load), p.result as unknown as TrafficReport)),
          ) as unknown as Record<string, unknown>);
    return { ...study, points, pointsDone: done.length, pointsTotal: points.length, report };
  }

  private queueOf(): Queue<StudyJob> {
    this.queue ??= studyQueue({ redis: this.config.WEFT_REDIS, prefix: this.config.WEFT_QUEUE_PREFIX });
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
