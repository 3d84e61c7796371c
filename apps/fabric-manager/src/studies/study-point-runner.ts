import { hostname } from 'node:os';
import { channelLoad, ChipImages, Forwarding, KnownFabric, patternFlows, routingEngineNamed, routingEngineOf } from '@weft/control';
import type { DrillFile, TrafficRequest } from '@weft/emulator';
import { buildInstallation, InstallationFile, PatternSpec } from '@weft/fabric-model';
import { DataSource } from 'typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { GenerationImages } from '../config-generations/generation-images.service';
import type { EmulatorClient } from '../emulator/emulator-client';
import { Fabric } from '../fabrics/fabric.entity';
import { StudyPoint } from './study-point.entity';
import { Study } from './study.entity';

/** Who does a point: a worker process (`host:pid`), or the manager itself. */
export function workerName(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * Does one point of a study: a sweep's load or a channel-load study's seed on an emulated fabric of
 * its own — the study's fabric powered up fresh and configured with the study's generation — and a
 * drill campaign's seed in a manager of its own (drill-point.ts). Fresh every point, so that a
 * point's result does not depend on which worker did it or what it did before: a study split over
 * any number of workers reports the same as one. Shared by `weft worker` and a manager without a
 * queue; plain TypeORM (Nest only inside a drill's own manager).
 */
export class StudyPointRunner {
  private readonly images: GenerationImages;

  constructor(
    private readonly dataSource: DataSource,
    private readonly emulator: Pick<EmulatorClient, 'attach' | 'detach' | 'transport' | 'runTraffic'>,
    private readonly worker: string,
  ) {
    this.images = new GenerationImages(dataSource.getRepository(ConfigGeneration), { onDelete: () => () => undefined });
  }

  /** Runs the point unless it is done already (a job given back after its worker stored it). */
  async run(pointId: number): Promise<'done' | 'already done' | 'gone'> {
    const points = this.dataSource.getRepository(StudyPoint);
    const point = await points.findOne({ where: { id: pointId } });
    if (!point) return 'gone';
    if (point.state === 'done') return 'already done';
    const study = await this.dataSource.getRepository(Study).findOne({ where: { id: point.studyId } });
    if (!study) return 'gone';
    await points.save({ id: point.id, state: 'running', worker: this.worker, attempts: point.attempts + 1, startedAt: new Date(), result: null });
    await this.dataSource.getRepository(Study).update({ id: study.id, state: 'queued' }, { state: 'running' });

    const result = await this.point(study, point);
    await points.save({ id: point.id, state: 'done', result, finishedAt: new Date() });
    await finishIfComplete(this.dataSource, study.id);
    return 'done';
  }

  /** Marks the point failed (its last attempt failed), and its study with it. */
  async fail(pointId: number, error: unknown): Promise<void> {
    const points = this.dataSource.getRepository(StudyPoint);
    const point = await points.findOne({ where: { id: pointId }, select: { id: true, studyId: true } });
    if (!point) return;
    await points.save({ id: point.id, state: 'failed', result: { error: error instanceof Error ? error.message : String(error) }, finishedAt: new Date() });
    await this.dataSource.getRepository(Study).update(point.studyId, { state: 'failed', finishedAt: new Date() });
  }

  /** What the point finds, by the study's kind. */
  private async point(study: Study, point: StudyPoint): Promise<Record<string, unknown>> {
    switch (study.kind) {
      case 'sweep': {
        const request = { ...(study.parameters as unknown as TrafficRequest), ...(point.parameters as Partial<TrafficRequest>) };
        return (await this.onFreshFabric(study, (fabric) => this.emulator.runTraffic(fabric.id, request))) as unknown as Record<string, unknown>;
      }
      case 'channel-load':
        return this.onFreshFabric(study, (fabric) => channelLoadPoint(fabric, study.parameters as unknown as ChannelLoadStudy, Number(point.parameters.seed)));
      case 'drill-campaign': {
        const { runDrillPoint } = await import('./drill-point');
        return (await runDrillPoint(study.parameters.drill as DrillFile, Number(point.parameters.seed))) as unknown as Record<string, unknown>;
      }
      default:
        throw new Error(`study ${study.id} is of a kind this worker does not do: ${study.kind}`);
    }
  }

  /**
   * `work` on a fabric of the point's own: the study's fabric powered up fresh in this emulator and
   * configured with the study's generation (every register written from the stored image, as after
   * a restart), then discovered through its maintenance transport, as the manager knows its own.
   */
  private async onFreshFabric<T>(study: Study, work: (fabric: PointFabric) => Promise<T>): Promise<T> {
    const fabricId = study.fabricId!;
    const number = study.generation!;
    const fabric = await this.dataSource
      .getRepository(Fabric)
      .findOne({ where: { id: fabricId }, select: { id: true, family: true, installation: true, source: true } });
    if (!fabric) throw new Error(`fabric ${fabricId} is no longer in the store`);
    const generation = await this.dataSource.getRepository(ConfigGeneration).findOne({ where: { fabricId, number }, select: { id: true, engine: true } });
    if (!generation) throw new Error(`fabric ${fabricId} has no generation ${number}`);
    const installation = buildInstallation(JSON.parse(fabric.installation) as InstallationFile, fabric.source);
    const image = await this.images.read<ChipImages>(fabricId, number);
    this.emulator.detach(fabricId);
    this.emulator.attach(fabricId, installation.physical, installation.file.maintenanceAttachment);
    try {
      const transport = this.emulator.transport(fabricId);
      const configured = await routingEngineNamed(generation.engine).reconcile(transport, image);
      if (configured.failures.length > 0) {
        throw new Error(
          `configuring the point's fabric with generation ${number} failed: ${configured.failures
            .slice(0, 3)
            .map((f) => `${f.router} ${f.register}: ${f.detail}`)
            .join('; ')}`,
        );
      }
      const engine = routingEngineOf(fabric.family);
      return await work({
        id: fabricId,
        image,
        known: () => engine.discover(transport, installation.expected, installation.file.maintenanceAttachment),
        forwarding: engine.forwarding,
      });
    } finally {
      this.emulator.detach(fabricId);
    }
  }
}

/** A point's own fabric, configured: its id in the worker's emulator, its image, and how to know it. */
interface PointFabric {
  id: number;
  image: ChipImages;
  known(): Promise<KnownFabric>;
  forwarding?: (known: KnownFabric, image: ChipImages) => Forwarding;
}

/** What a channel-load study's points share: the pattern, and how each point reads the loads. */
export interface ChannelLoadStudy {
  pattern: PatternSpec;
  draws: number;
  planes: number[] | null;
  vc: number;
  top: number;
}

/** One seed of a channel-load study: the pattern's flows drawn with it, and the channel loads they make. */
async function channelLoadPoint(fabric: PointFabric, study: ChannelLoadStudy, seed: number): Promise<Record<string, unknown>> {
  if (!fabric.forwarding) throw new Error("route analyses do not read this family's configurations");
  const forwarding = fabric.forwarding(await fabric.known(), fabric.image);
  const planes = study.planes ?? [...forwarding.planes];
  const endpoints = forwarding.endpoints.map((e) => e.number);
  const flows = patternFlows(
    study.pattern,
    endpoints,
    { endpointsPerRouter: forwarding.endpointsPerRouter ?? Math.min(32, endpoints.length), torus: forwarding.torus },
    seed,
    study.draws,
  );
  const report = await channelLoad(forwarding, flows, { planes, vc: study.vc });
  return {
    seed,
    flows: flows.length,
    channels: report.channels,
    maximum: report.maximum,
    mean: report.mean,
    undeliverable: report.undeliverable,
    busiest: report.loads.slice(0, study.top).map((l) => ({ ...l })),
  };
}

/** Once every point of the study is done, the study is finished (whichever worker did the last). */
export async function finishIfComplete(dataSource: DataSource, studyId: number): Promise<void> {
  const open = await dataSource.getRepository(StudyPoint).count({
    where: [
      { studyId, state: 'queued' },
      { studyId, state: 'running' },
      { studyId, state: 'failed' },
    ],
  });
  if (open > 0) return;
  await dataSource
    .createQueryBuilder()
    .update(Study)
    .set({ state: 'finished', finishedAt: new Date() })
    .where('id = :id AND state IN (:...states)', { id: studyId, states: ['queued', 'running'] })
    .execute();
}
