/**
 * The part programs the emulator carries (part-program.ts). Uniform random traffic: every
 * endpoint's port on each plane offers `load` of its link's capacity in packets of `packetPhits`,
 * Bernoulli arrivals drawn as geometric gaps (ArrivalWheel), uniformly to every other endpoint,
 * each part drawing from its own stream — the emulator benchmark's workload, and the delivery
 * digests that hold threads to one thread. Its state is all in shared memory but the deliveries it
 * records, which each part hands back.
 */
import { RandomStreams } from '@weft/fabric-model';
import type { FabricEngine } from '../engine/fabric-engine';
import { FLAG_HASH } from '../engine/packet-store';
import type { SharedState } from '../engine/shared-state';
import { shared } from '../engine/shared-memory';
import { ArrivalWheel, ArrivalWheelState } from '../traffic/arrival-wheel';
import { PartProgram, registerPartProgram } from './part-program';

export interface UniformTrafficOptions {
  readonly load: number;
  readonly packetPhits: number;
  /** Endpoints 0 .. endpoints - 1 send and receive. */
  readonly endpoints: number;
  /** The planes (BlackWidow: slices) every endpoint sends on. */
  readonly planes: readonly number[];
  readonly vc: number;
  readonly seed: number;
  /** Record every delivery's cycle, by tag (see UniformTraffic.deliveries). */
  readonly record: boolean;
  /** No arrivals from this cycle on; a run then ends once each part's recorded packets are all in. */
  readonly stopAt?: number;
}

interface UniformTrafficArgs extends UniformTrafficOptions {
  readonly streams: Uint32Array;
  readonly wheel: ArrivalWheelState;
  /** Per part, the packets it has made (its tags: made * parts + part + 1). */
  readonly made: Float64Array;
  readonly start: number;
}

export interface UniformTraffic extends PartProgram {
  /** Recorded deliveries (`record`): per part, tag and cycle by turns. */
  readonly deliveries: readonly number[][];
}

function build(engine: FabricEngine, args: UniformTrafficArgs, fresh: boolean): UniformTraffic {
  const { load, packetPhits, endpoints, planes, vc, record, stopAt } = args;
  const parts = engine.parts;
  const streams = new RandomStreams(args.streams);
  const ports = endpoints * planes.length;
  const partOfPort = Uint8Array.from({ length: ports }, (_, k) =>
    engine.partOfPort(engine.endpointPort(Math.floor(k / planes.length), planes[k % planes.length])),
  );
  const probability = (load * engine.linkRateOf(engine.endpointPort(0, planes[0]))) / packetPhits;
  const wheel = new ArrivalWheel(probability, partOfPort, streams, args.start, fresh ? undefined : args.wheel);
  let part = 0;
  const arrive = (k: number): void => {
    const source = Math.floor(k / planes.length);
    let destination = Math.floor(streams.draw(part) * (endpoints - 1));
    if (destination >= source) destination++;
    const tag = record ? args.made[part]++ * parts + part + 1 : 0;
    engine.inject(source, planes[k % planes.length], destination, packetPhits, vc, FLAG_HASH, destination & 0x7fff, tag);
  };
  const deliveries: number[][] = Array.from({ length: parts }, () => []);
  const program: UniformTraffic = {
    spec: { name: 'uniform-traffic', args: { ...args, wheel: wheel.state } as unknown as SharedState },
    beforeCycle: (p, cycle) => {
      part = p;
      if (stopAt === undefined || cycle < stopAt) wheel.due(p, cycle, arrive);
    },
    partDone: stopAt === undefined ? undefined : (p) => engine.cycle + 1 >= stopAt && engine.packets.taggedInFlightOf(p) === 0,
    onDeliver: record
      ? (packet, cycle) => {
          const tag = engine.packets.tag(packet);
          if (tag > 0) deliveries[engine.packets.partOf(packet)].push(tag, cycle);
        }
      : undefined,
    deliveries,
    exportPart: (p) => deliveries[p].splice(0),
    adoptPart: (p, state) => {
      for (const value of state as number[]) deliveries[p].push(value);
    },
  };
  return program;
}

/** Uniform random traffic on `engine` from its current cycle (see the module's comment). */
export function uniformTraffic(engine: FabricEngine, options: UniformTrafficOptions): UniformTraffic {
  if (!(options.endpoints >= 2)) throw new RangeError(`uniform traffic needs two endpoints at least, got ${options.endpoints}`);
  const streams = RandomStreams.seeded(Array.from({ length: engine.parts }, (_, part) => options.seed + part));
  const args = {
    ...options,
    planes: [...options.planes],
    streams: streams.states,
    wheel: undefined as unknown as ArrivalWheelState,
    made: shared(Float64Array, engine.parts),
    start: engine.cycle,
  };
  return build(engine, args, true);
}

registerPartProgram('uniform-traffic', (engine, args) => build(engine, args as unknown as UniformTrafficArgs, false));
