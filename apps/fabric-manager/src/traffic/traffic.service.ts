import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { StoreOwnerService } from '../database/store-owner.service';
import { InjectRepository } from '@nestjs/typeorm';
import { TrafficRequest, validateTrafficRequest } from '@weft/emulator';
import { FABRIC_FAMILY_MODELS, FabricFamily, PatternSpec } from '@weft/fabric-model';
import { Repository } from 'typeorm';
import { EmulatorService } from '../emulator/emulator.service';
import { FabricsService } from '../fabrics/fabrics.service';
import { StartTrafficRunInput } from './dto/traffic-run.dto';
import { TrafficRun } from './traffic-run.entity';
import { TrafficErrorCode, TrafficException } from './traffic.exception';

/**
 * Traffic runs on the emulated fabrics: validated, stored as they start, run in the emulator's
 * worker (interleaved with maintenance, so the control plane keeps working), and stored with
 * their report when they end.
 */
@Injectable()
export class TrafficService implements OnApplicationBootstrap {
  private readonly logger = new Logger(TrafficService.name);
  private readonly running = new Map<number, Promise<void>>();

  constructor(
    @InjectRepository(TrafficRun) private readonly runs: Repository<TrafficRun>,
    private readonly fabrics: FabricsService,
    private readonly emulator: EmulatorService,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {}

  /** A run the service was doing when it stopped cannot be resumed: it is marked failed. */
  onApplicationBootstrap(): Promise<void> {
    return this.owner ? this.owner.whenActive(() => this.failInterrupted()) : this.failInterrupted();
  }

  /** Runs the last (active) manager was running when it stopped have ended with it. */
  private async failInterrupted(): Promise<void> {
    const interrupted = await this.runs.find({ where: { state: 'running' } });
    for (const run of interrupted)
      await this.runs.save({ ...run, state: 'failed', results: { error: 'the service stopped during the run' }, finishedAt: new Date() });
  }

  async start(input: StartTrafficRunInput): Promise<TrafficRun> {
    const fabric = await this.fabrics.get(input.fabricId);
    const shape = FABRIC_FAMILY_MODELS[fabric.family as FabricFamily].trafficShape(fabric.summary);
    const request = toRequest(input, shape.packetPhits.min);
    const problems = validateTrafficRequest(request, shape);
    if (problems.length > 0) throw new TrafficException(TrafficErrorCode.RequestInvalid, `invalid traffic run: ${problems.join('; ')}`, { problems });
    // Claimed before the first await, so two starts that arrive together cannot both pass the check.
    if (this.running.has(fabric.id)) throw inProgress(fabric.id);
    let claimed!: () => void;
    this.running.set(fabric.id, new Promise<void>((resolve) => (claimed = resolve)));
    let run: TrafficRun;
    try {
      // A run another instance of the service is doing on the same store.
      if (await this.runs.exists({ where: { fabricId: fabric.id, state: 'running' } })) throw inProgress(fabric.id);
      run = await this.runs.save(
        this.runs.create({
          fabricId: fabric.id,
          pattern: request.pattern.kind,
          parameters: request as unknown as Record<string, unknown>,
          state: 'running',
          results: null,
          finishedAt: null,
        }),
      );
    } catch (error) {
      this.running.delete(fabric.id);
      claimed();
      throw error;
    }
    const work = this.emulator
      .runTraffic(fabric.id, request)
      .then(
        (report) => this.runs.save({ id: run.id, state: 'finished', results: report as unknown as Record<string, unknown>, finishedAt: new Date() }),
        (error: unknown) =>
          this.runs.save({ id: run.id, state: 'failed', results: { error: error instanceof Error ? error.message : String(error) }, finishedAt: new Date() }),
      )
      .then(() => undefined)
      .catch((error: unknown) => this.logger.error(`traffic run ${run.id}: ${String(error)}`))
      .finally(() => this.running.delete(fabric.id));
    this.running.set(fabric.id, work);
    claimed();
    return run;
  }

  /** Resolves when the fabric's current run (if any) has been stored with its result (tests, drills). */
  async finished(fabricId: number): Promise<void> {
    for (let current = this.running.get(fabricId); current; current = this.running.get(fabricId)) await current;
  }

  async get(id: number): Promise<TrafficRun> {
    const run = Number.isInteger(id) && id > 0 ? await this.runs.findOne({ where: { id } }) : null;
    if (!run) throw new TrafficException(TrafficErrorCode.RunNotFound, `no traffic run with id ${id}`);
    return run;
  }

  list(fabricId: number): Promise<TrafficRun[]> {
    return this.runs.find({ where: { fabricId }, order: { id: 'ASC' } });
  }
}

function inProgress(fabricId: number): TrafficException {
  return new TrafficException(TrafficErrorCode.RunInProgress, `a traffic run is already running on fabric ${fabricId}`);
}

/** The request an input asks for; packets of `smallest` phits unless it names sizes (the fabric's smallest: BlackWidow's 4 phits, BG/L's 32 bytes, Anton 2's one flit). */
export function toRequest(input: StartTrafficRunInput, smallest: number): TrafficRequest {
  const warmup =
    input.warmupMinCycles !== undefined || input.warmupMaxCycles !== undefined
      ? { min: input.warmupMinCycles ?? 2_000, max: input.warmupMaxCycles ?? 50_000 }
      : undefined;
  return {
    mode: input.mode,
    pattern: { kind: input.pattern, ...(input.patternParameters ?? {}) } as unknown as PatternSpec,
    packetPhits: input.packetSizes?.length ? input.packetSizes.map((s) => ({ phits: s.phits, weight: s.weight })) : (input.packetPhits ?? smallest),
    slices: input.slices ?? [0],
    seed: input.seed ?? 1,
    ...(input.adaptive !== undefined ? { adaptive: input.adaptive } : {}),
    ...(input.load !== undefined ? { load: input.load } : {}),
    ...(warmup ? { warmup } : {}),
    ...(input.sampleCycles !== undefined ? { sampleCycles: input.sampleCycles } : {}),
    ...(input.drainLimit !== undefined ? { drainLimit: input.drainLimit } : {}),
    ...(input.interval !== undefined ? { interval: input.interval } : {}),
    ...(input.packets !== undefined ? { packets: input.packets } : {}),
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
  };
}
