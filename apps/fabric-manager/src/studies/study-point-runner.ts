import { hostname } from 'node:os';
import { ChipImages, routingEngineNamed } from '@weft/control';
import { TrafficReport, TrafficRequest } from '@weft/emulator';
import { buildInstallation, InstallationFile } from '@weft/fabric-model';
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
 * Does one point of a study on an emulated fabric of its own: the fabric's installation powered up
 * fresh, configured with the study's generation (every register written from the stored image, as
 * after a restart), then the point's run. A fresh fabric per point, so that a point's result does
 * not depend on which worker did it or what it did before: a study split over any number of
 * workers reports the same as one. Shared by `weft worker` and a manager without a queue; plain
 * TypeORM, no Nest.
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

    const report = await this.runOnFreshFabric(study, { ...(study.parameters as unknown as TrafficRequest), ...(point.parameters as Partial<TrafficRequest>) });
    await points.save({ id: point.id, state: 'done', result: report as unknown as Record<string, unknown>, finishedAt: new Date() });
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

  private async runOnFreshFabric(study: Study, request: TrafficRequest): Promise<TrafficReport> {
    const fabric = await this.dataSource
      .getRepository(Fabric)
      .findOne({ where: { id: study.fabricId }, select: { id: true, installation: true, source: true } });
    if (!fabric) throw new Error(`fabric ${study.fabricId} is no longer in the store`);
    const generation = await this.dataSource
      .getRepository(ConfigGeneration)
      .findOne({ where: { fabricId: study.fabricId, number: study.generation }, select: { id: true, engine: true } });
    if (!generation) throw new Error(`fabric ${study.fabricId} has no generation ${study.generation}`);
    const installation = buildInstallation(JSON.parse(fabric.installation) as InstallationFile, fabric.source);
    const image = await this.images.read<ChipImages>(study.fabricId, study.generation);
    this.emulator.detach(fabric.id);
    this.emulator.attach(fabric.id, installation.physical, installation.file.maintenanceAttachment);
    try {
      const configured = await routingEngineNamed(generation.engine).reconcile(this.emulator.transport(fabric.id), image);
      if (configured.failures.length > 0) {
        throw new Error(
          `configuring the point's fabric with generation ${study.generation} failed: ${configured.failures
            .slice(0, 3)
            .map((f) => `${f.router} ${f.register}: ${f.detail}`)
            .join('; ')}`,
        );
      }
      return await this.emulator.runTraffic(fabric.id, request);
    } finally {
      this.emulator.detach(fabric.id);
    }
  }
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
