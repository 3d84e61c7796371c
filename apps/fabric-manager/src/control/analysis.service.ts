import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { InjectRepository } from '@nestjs/typeorm';
import {
  ChannelLoadReport,
  channelDependencies,
  channelLoad,
  ChipImages,
  DependencyReport,
  Flow,
  Forwarding,
  patternFlowBound,
  patternFlows,
  RouteTrace,
  routingEngineOf,
  traceRoute,
} from '@weft/control';
import { PATTERN_KINDS, PatternError, PatternSpec } from '@weft/fabric-model';
import { Repository } from 'typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { GenerationImages } from '../config-generations/generation-images.service';
import { FabricsService } from '../fabrics/fabrics.service';
import { HeavyWorkCancelled, heavyWork, takeTurn } from '../graphql/operation-cost';
import { ControlErrorCode, ControlException } from './control.exception';
import { ControlService } from './control.service';

/**
 * Work units (flows × planes for a channel load; destinations × sources × planes for the
 * dependency check) an analysis may take on: beyond them it is refused with the reason, rather than
 * holding a core for minutes (a uniform pattern on the 32K fabric is a billion flows).
 */
export const ANALYSIS_WORK_LIMIT = 20_000_000;

/** What an analysis was made on: the generation in force, and its endpoints' names by number. */
interface InForce {
  readonly generation: number;
  readonly nameOf: (endpoint: number) => string;
}

function nameOf(forwarding: Forwarding): (endpoint: number) => string {
  const names = new Map(forwarding.endpoints.map((e) => [e.number, e.name]));
  return (endpoint) => names.get(endpoint) ?? String(endpoint);
}

const invalid = (message: string) => new ControlException(ControlErrorCode.AnalysisInvalid, message);

/** Analyses' results kept, by fabric, generation and what was asked: asked again, they are answered at once. */
const RESULTS_KEPT = 16;
/** Analysis runs kept, finished or not, for their clients to read. */
const RUNS_KEPT = 64;

/** A channel load started off the request path: its progress (0–1) and, once done, its report. */
export interface AnalysisRun {
  readonly id: string;
  readonly kind: 'channel-load';
  /** Whose it is: only that key (or an administrator's) reads or cancels it. */
  readonly client: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  progress: number;
  error: string | null;
  result: (ChannelLoadReport & InForce & { pattern: string; flows: number }) | null;
  /** Busiest channels to list. */
  readonly top: number;
  readonly stop: AbortController;
}

/**
 * Route trace, channel load and the channel-dependency check on the configuration in force of a
 * fabric (issue 35, capability 4): the last generation pushed, read as its family's chips read it
 * (the routing engine registry's forwarding). Long analyses give the event loop back as they go.
 */
@Injectable()
export class AnalysisService {
  /** The forwarding of the last configuration analysed, by fabric and generation row. */
  private cached: { fabricId: number; generationId: number; number: number; forwarding: Forwarding } | null = null;
  /** Finished analyses of generations (a generation never changes), the latest first (issue 54 §11). */
  private readonly results: { key: string; result: unknown }[] = [];
  /** Analyses started off the request path, the latest first. */
  private readonly runs: AnalysisRun[] = [];
  private nextRun = 1;

  constructor(
    @InjectRepository(ConfigGeneration) private readonly generations: Repository<ConfigGeneration>,
    private readonly images: GenerationImages,
    private readonly fabrics: FabricsService,
    private readonly control: ControlService,
  ) {}

  /** The configuration in force: the last generation pushed, and its forwarding. */
  async inForce(fabricId: number): Promise<{ number: number; forwarding: Forwarding }> {
    const fabric = await this.fabrics.get(fabricId);
    const row = await this.generations.findOne({ where: { fabricId, state: 'pushed' }, order: { number: 'DESC' }, select: { id: true, number: true } });
    if (!row) throw new ControlException(ControlErrorCode.GenerationNotFound, `fabric ${fabricId} has no pushed generation yet: configure it first`);
    if (this.cached?.fabricId === fabricId && this.cached.generationId === row.id) return this.cached;
    const image = await this.images.read<ChipImages>(fabricId, row.number);
    const known = await this.control.knownFabric(fabricId);
    const read = routingEngineOf(fabric.family).forwarding;
    if (!read) throw new ControlException(ControlErrorCode.AnalysisInvalid, `route analyses do not read ${fabric.family} configurations yet`);
    const forwarding = read(known, image);
    this.cached = { fabricId, generationId: row.id, number: row.number, forwarding };
    return this.cached;
  }

  private endpoint(forwarding: Forwarding, name: string, role: string): number {
    const found = forwarding.endpoints.find((e) => e.name === name);
    if (!found) throw invalid(`${role} "${name}" is not an endpoint of this fabric's configuration (endpoints: ${forwarding.endpoints[0]?.name ?? 'none'} …)`);
    return found.number;
  }

  private planes(forwarding: Forwarding, asked: readonly number[] | undefined): number[] {
    for (const plane of asked ?? []) {
      if (!forwarding.planes.includes(plane)) throw invalid(`the fabric has no plane ${plane} (planes: ${forwarding.planes.join(', ')})`);
    }
    return asked && asked.length > 0 ? [...new Set(asked)] : [...forwarding.planes];
  }

  async trace(input: { fabricId: number; source: string; destination: string; plane: number; vc: number; hashBits?: number }): Promise<RouteTrace & InForce> {
    const { number, forwarding } = await this.inForce(input.fabricId);
    const source = this.endpoint(forwarding, input.source, 'source');
    const destination = this.endpoint(forwarding, input.destination, 'destination');
    if (source === destination) throw invalid('source and destination are the same endpoint');
    this.planes(forwarding, [input.plane]);
    if (!forwarding.vcs.includes(input.vc)) throw invalid(`the fabric has no VC ${input.vc} (VCs: ${forwarding.vcs.join(', ')})`);
    const trace = traceRoute(forwarding, source, destination, { plane: input.plane, vc: input.vc, hashBits: input.hashBits ?? null });
    return { generation: number, nameOf: nameOf(forwarding), ...trace };
  }

  /** A pattern (or matrix) asked to be analysed, checked against the configuration in force. */
  async checkPattern(input: {
    fabricId: number;
    pattern?: string;
    patternParameters?: Record<string, unknown>;
    matrix?: number[][];
    draws: number;
    planes?: number[];
    vc: number;
  }): Promise<{ number: number; forwarding: Forwarding; spec: PatternSpec; planes: number[] }> {
    if ((input.pattern === undefined) === (input.matrix === undefined))
      throw invalid('give exactly one of "pattern" (a named pattern) or "matrix" (a traffic matrix)');
    const { number, forwarding } = await this.inForce(input.fabricId);
    const planes = this.planes(forwarding, input.planes);
    let spec: PatternSpec;
    if (input.matrix !== undefined) spec = { kind: 'matrix', weights: input.matrix };
    else {
      const kind = input.pattern!;
      if (!(PATTERN_KINDS as readonly string[]).includes(kind) || kind === 'matrix')
        throw invalid(`unknown pattern "${kind}" (patterns: ${PATTERN_KINDS.filter((k) => k !== 'matrix').join(', ')})`);
      spec = { ...(input.patternParameters ?? {}), kind } as PatternSpec;
    }
    if (!forwarding.vcs.includes(input.vc)) throw invalid(`the fabric has no VC ${input.vc} (VCs: ${forwarding.vcs.join(', ')})`);
    const bound = patternFlowBound(spec, forwarding.endpoints.length, input.draws) * planes.length;
    if (bound > ANALYSIS_WORK_LIMIT)
      throw invalid(
        `up to ${bound} flows over ${planes.length} planes is more than one analysis takes on (${ANALYSIS_WORK_LIMIT}); ask for fewer planes or a sparser pattern (a permutation)`,
      );
    return { number, forwarding, spec, planes };
  }

  /**
   * Starts a channel load off the request path (issue 54 §11): checked at once (bad input is
   * refused here), counted as heavy work of `client`, its progress and outcome read by id
   * (`run`), given up on `cancel`. The last RUNS_KEPT runs are kept.
   */
  async startLoad(input: Parameters<AnalysisService['load']>[0], client: string): Promise<AnalysisRun> {
    await this.checkPattern(input);
    const run: AnalysisRun = {
      id: String(this.nextRun++),
      kind: 'channel-load',
      client,
      state: 'running',
      progress: 0,
      error: null,
      result: null,
      top: input.top ?? 20,
      stop: new AbortController(),
    };
    this.runs.unshift(run);
    this.runs.length = Math.min(this.runs.length, RUNS_KEPT);
    heavyWork(() => this.load(input, (done, total) => (run.progress = done / total)), { client, signal: run.stop.signal }).then(
      (result) => Object.assign(run, { state: 'done', progress: 1, result }),
      (error: unknown) =>
        Object.assign(
          run,
          error instanceof HeavyWorkCancelled ? { state: 'cancelled' } : { state: 'failed', error: error instanceof Error ? error.message : String(error) },
        ),
    );
    return run;
  }

  /** A run started by `client` (an administrator's key sees every run); NOT_FOUND for anyone else's. */
  run(id: string, client: string, admin: boolean): AnalysisRun {
    const run = this.runs.find((r) => r.id === id && (admin || r.client === client));
    if (!run) throw new ControlException(ControlErrorCode.AnalysisNotFound, `no analysis run ${id} of this key's (runs are kept for the last ${RUNS_KEPT})`);
    return run;
  }

  /** Gives a run up: it stops at its next turn. */
  cancel(id: string, client: string, admin: boolean): AnalysisRun {
    const run = this.run(id, client, admin);
    if (run.state === 'running') run.stop.abort();
    return run;
  }

  async load(
    input: {
      fabricId: number;
      pattern?: string;
      patternParameters?: Record<string, unknown>;
      matrix?: number[][];
      seed: number;
      draws: number;
      planes?: number[];
      vc: number;
      crossing?: { chip: string; port: number };
      top?: number;
    },
    progress?: (done: number, total: number) => void,
  ): Promise<ChannelLoadReport & InForce & { pattern: string; flows: number }> {
    const { number, forwarding, spec, planes } = await this.checkPattern(input);
    const { top: _top, ...asked } = input;
    void _top;
    return this.kept(`load ${input.fabricId}/${number}`, asked, async () => {
      const endpoints = forwarding.endpoints.map((e) => e.number);
      let flows: Flow[];
      try {
        flows = patternFlows(
          spec,
          endpoints,
          { endpointsPerRouter: forwarding.endpointsPerRouter ?? Math.min(32, endpoints.length), torus: forwarding.torus },
          input.seed,
          input.draws,
        );
      } catch (error) {
        if (error instanceof PatternError) throw invalid(error.message);
        throw error;
      }
      if (input.crossing && !forwarding.peer(input.crossing))
        throw invalid(`${input.crossing.chip}:${input.crossing.port} is not a live channel of this fabric`);
      const report = await channelLoad(forwarding, flows, { planes, vc: input.vc, crossing: input.crossing, pace: takeTurn, progress });
      return { generation: number, nameOf: nameOf(forwarding), pattern: spec.kind, flows: flows.length, ...report };
    });
  }

  /** The result of `work` for this generation and what was asked, kept once it is finished (never a cancelled or failed one). */
  private async kept<T>(of: string, asked: unknown, work: () => Promise<T>): Promise<T> {
    const key = `${of} ${createHash('sha256').update(JSON.stringify(asked)).digest('base64url')}`;
    const found = this.results.findIndex((r) => r.key === key);
    if (found >= 0) {
      const [hit] = this.results.splice(found, 1);
      this.results.unshift(hit);
      return hit.result as T;
    }
    const result = await work();
    this.results.unshift({ key, result });
    this.results.length = Math.min(this.results.length, RESULTS_KEPT);
    return result;
  }

  async dependencies(input: { fabricId: number; vcs?: number[] }): Promise<DependencyReport & { generation: number }> {
    const { number, forwarding } = await this.inForce(input.fabricId);
    for (const vc of input.vcs ?? []) if (!forwarding.vcs.includes(vc)) throw invalid(`the fabric has no VC ${vc} (VCs: ${forwarding.vcs.join(', ')})`);
    const n = forwarding.endpoints.length;
    const work = n * n * forwarding.planes.length * (input.vcs?.length ?? forwarding.vcs.length);
    if (work > ANALYSIS_WORK_LIMIT) throw invalid(`the check would take on ${work} paths, more than one analysis takes on (${ANALYSIS_WORK_LIMIT})`);
    return this.kept(`dependencies ${input.fabricId}/${number}`, input, async () => ({
      generation: number,
      ...(await channelDependencies(forwarding, { vcs: input.vcs, pace: takeTurn })),
    }));
  }
}
