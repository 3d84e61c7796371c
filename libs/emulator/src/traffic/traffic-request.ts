/**
 * A traffic run as plain data — what an operator asks for over GraphQL, a drill file names, and the
 * service sends to the emulator's worker — validated with every problem named by its path.
 */
import type { FabricEngine } from '../engine/fabric-engine';
import { makePattern, PATTERN_KINDS, PatternError, PatternSpec, sizeSampler, SizeSpec } from '@weft/fabric-model/traffic/patterns';
import type { TrafficShape } from '@weft/fabric-model/traffic/traffic-shape';
import {
  BackgroundTraffic,
  startBatch,
  startSteadyState,
  TRAFFIC_PROGRAM,
  trafficPartProgram,
  TrafficProgramArgs,
  TrafficSession,
  TrafficSpec,
} from './traffic-run';
import { registerPartProgram } from '../parallel/part-program';
import type { PartThreads } from '../parallel/part-threads';

export interface TrafficRequest {
  /** background: injects at `load` until stopped (a drill's traffic), then drains. */
  readonly mode: 'steady-state' | 'batch' | 'background';
  readonly pattern: PatternSpec;
  /** Phits per packet: one size, or sizes with weights. */
  readonly packetPhits: SizeSpec;
  /** Injection ports (BlackWidow slices) that carry traffic. */
  readonly slices: readonly number[];
  readonly seed: number;
  /** Fraction of packets routed adaptively; the rest hashed. */
  readonly adaptive?: number;
  /** Steady state: offered load (0, 1] of each injection link. */
  readonly load?: number;
  readonly warmup?: { readonly min: number; readonly max: number };
  readonly sampleCycles?: number;
  readonly drainLimit?: number;
  readonly interval?: number;
  /** Batch: packets per source and slice, and a cycle limit. */
  readonly packets?: number;
  readonly limit?: number;
  /** Anton 2: of each group source's packets, the share sent to its multicast groups (by id, with
   * the source ASIC the control plane built their trees from). */
  readonly multicast?: { readonly fraction: number; readonly groups: readonly { readonly group: number; readonly source: number }[] };
}

/** What a run may ask of the fabric (its family's TrafficShape). */
export type TrafficFabricShape = TrafficShape;

/** The patterns' view of a fabric of `shape`. */
export const patternContext = (shape: TrafficFabricShape) => ({ endpoints: shape.endpoints, endpointsPerRouter: shape.endpointsPerRouter, torus: shape.torus });

const MAX_CYCLES = 50_000_000;

/** Every problem with a request, as `$.path: what is wrong`; empty when it is fine. */
export function validateTrafficRequest(request: TrafficRequest, shape: TrafficFabricShape): string[] {
  const problems: string[] = [];
  const bad = (path: string, message: string) => problems.push(`$.${path}: ${message}`);
  const int = (path: string, value: unknown, min: number, max: number) => {
    if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
      bad(path, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  };
  if (request.mode !== 'steady-state' && request.mode !== 'batch' && request.mode !== 'background') {
    bad('mode', `must be "steady-state", "batch" or "background", got ${JSON.stringify(request.mode)}`);
  }
  if (!PATTERN_KINDS.includes(request.pattern?.kind))
    bad('pattern.kind', `must be one of ${PATTERN_KINDS.join(', ')}, got ${JSON.stringify(request.pattern?.kind)}`);
  else {
    try {
      makePattern(request.pattern, patternContext(shape), request.seed);
    } catch (error) {
      if (error instanceof PatternError) bad('pattern', error.message);
      else throw error;
    }
  }
  const sizes = (path: string, spec: SizeSpec) => {
    try {
      sizeSampler(spec, shape.packetPhits);
    } catch (error) {
      if (error instanceof PatternError) bad(path, error.message);
      else throw error;
    }
  };
  sizes('packetPhits', request.packetPhits);
  if (request.pattern?.kind === 'request-response') sizes('pattern.responsePhits', request.pattern.responsePhits ?? shape.packetPhits.max);
  if (!Array.isArray(request.slices) || request.slices.length === 0) bad('slices', 'must list at least one slice');
  else
    request.slices.forEach((s, i) => {
      if (!Number.isInteger(s) || s < 0 || s >= shape.slices) bad(`slices[${i}]`, `the fabric has slices 0 to ${shape.slices - 1}, got ${JSON.stringify(s)}`);
    });
  int('seed', request.seed, 0, 2 ** 31 - 1);
  if (request.adaptive !== undefined && !(request.adaptive >= 0 && request.adaptive <= 1))
    bad('adaptive', `must be a fraction from 0 to 1, got ${request.adaptive}`);
  if (request.mode === 'background') {
    if (!(typeof request.load === 'number' && request.load > 0 && request.load <= 1))
      bad('load', `must be more than 0 and at most 1, got ${JSON.stringify(request.load)}`);
    int('interval', request.interval ?? 1_000, 10, MAX_CYCLES);
  }
  if (request.mode === 'steady-state') {
    if (!(typeof request.load === 'number' && request.load > 0 && request.load <= 1))
      bad('load', `must be more than 0 and at most 1, got ${JSON.stringify(request.load)}`);
    int('sampleCycles', request.sampleCycles ?? 10_000, 100, MAX_CYCLES);
    int('drainLimit', request.drainLimit ?? 100_000, 0, MAX_CYCLES);
    int('interval', request.interval ?? 1_000, 10, MAX_CYCLES);
    const warmup = request.warmup ?? { min: 2_000, max: 50_000 };
    int('warmup.min', warmup.min, 0, MAX_CYCLES);
    int('warmup.max', warmup.max, warmup.min, MAX_CYCLES);
  }
  if (request.multicast !== undefined) {
    if (!shape.multicast) bad('multicast', "this fabric's chips have no multicast tables");
    else {
      const m = request.multicast;
      if (!(typeof m.fraction === 'number' && m.fraction >= 0 && m.fraction <= 1))
        bad('multicast.fraction', `must be a fraction from 0 to 1, got ${JSON.stringify(m.fraction)}`);
      if (!Array.isArray(m.groups) || m.groups.length === 0) bad('multicast.groups', 'must name at least one group');
      else
        m.groups.forEach((g, i) => {
          int(`multicast.groups[${i}].group`, g.group, 0, 2 ** 30);
          int(`multicast.groups[${i}].source`, g.source, 0, shape.endpoints - 1);
        });
    }
  }
  if (request.mode === 'batch') {
    int('packets', request.packets, 1, 100_000);
    int('limit', request.limit ?? 10_000_000, 1, MAX_CYCLES);
  }
  return problems;
}

/** The spec of a validated request on a fabric of `shape`: each part of the fabric makes its own
 * pattern (TrafficSpec.patternForPart), so the run is the same on one thread or many. */
export function trafficSpecOf(request: TrafficRequest, shape: TrafficFabricShape): TrafficSpec & { readonly load?: number } {
  const responses =
    request.pattern.kind === 'request-response' ? { responses: sizeSampler(request.pattern.responsePhits ?? shape.packetPhits.max, shape.packetPhits) } : {};
  const patternForPart = () => makePattern(request.pattern, patternContext(shape), request.seed);
  return {
    ...responses,
    pattern: patternForPart(),
    patternForPart,
    size: sizeSampler(request.packetPhits, shape.packetPhits),
    slices: request.slices,
    seed: request.seed,
    adaptive: request.adaptive,
    load: request.load,
  };
}

/** Starts a validated request on a fabric; with `runner`, the fabric's parts run on its threads. */
export function startTraffic(sim: FabricEngine, request: TrafficRequest, shape: TrafficFabricShape, runner?: PartThreads): TrafficSession {
  const common = trafficSpecOf(request, shape);
  const threads = runner && runner.threads > 1 ? { runner, request, shape } : null;
  if (request.mode === 'batch') return startBatch(sim, { ...common, packets: request.packets!, limit: request.limit ?? 10_000_000 }, threads);
  if (request.mode === 'background') return new BackgroundTraffic(sim, { ...common, load: request.load!, interval: request.interval ?? 1_000 }, threads);
  return startSteadyState(
    sim,
    {
      ...common,
      load: request.load!,
      warmup: request.warmup ?? { min: 2_000, max: 50_000 },
      sampleCycles: request.sampleCycles ?? 10_000,
      drainLimit: request.drainLimit ?? 100_000,
      interval: request.interval ?? 1_000,
    },
    threads,
  );
}

registerPartProgram(TRAFFIC_PROGRAM, (engine, args) => {
  const { request, shape } = args as unknown as { request: TrafficRequest; shape: TrafficFabricShape };
  return trafficPartProgram(engine, trafficSpecOf(request, shape), args as unknown as TrafficProgramArgs);
});
