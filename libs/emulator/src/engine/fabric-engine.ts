/**
 * What the rest of the emulator — the host, traffic runs, drills, the soak — may ask of an emulated
 * fabric (issue 35, capability 2): run control (cycles, parts run apart in windows), injection and
 * delivery at the endpoints, the books, per-port counters, and fault injection. A chip model
 * (chip-models.ts) builds one for a fabric of its chips, as a class that extends the engine's link
 * layer (link-engine.ts), itself over the run control (parted-engine.ts); YARC's is YarcFabricSim.
 * Nothing outside the chip model's folder names the chip.
 */
import type { EmulatedFabric } from '../emulated-fabric';
import type { InterruptKind } from '@weft/fabric-model';
import type { FabricPackets, PacketBooks } from './fabric-packets';
import type { PhysicalFault } from '../host/protocol';
import type { SharedState } from './shared-state';
import type { TrafficFabricShape, TrafficRequest } from '../traffic/traffic-request';
import type { TrafficSession } from '../traffic/traffic-run';
import type { PartThreads } from '../parallel/part-threads';

/** Told of each interrupt a chip raises: its kind, cycle, chip (index in the fabric), port and VC (-1: none). */
export type InterruptListener = (kind: InterruptKind, cycle: number, chip: number, port: number, vc: number, details?: Record<string, unknown>) => void;

/** Called with each delivered packet (its handle, see FabricPackets) and the cycle it arrived. */
export type DeliveryListener = (packet: number, cycle: number) => void;

export interface FabricEngine {
  readonly fabric: EmulatedFabric;
  /** The cycle about to run. */
  readonly cycle: number;
  /** The fabric's clock: emulated ns per cycle. */
  readonly nsPerCycle: number;
  /** VCs (or traffic classes) of every port, as the per-port counters are laid out. */
  readonly vcs: number;
  readonly packets: FabricPackets;
  /** Independent parts of the fabric (BlackWidow: its slices), which runWindowed runs apart. */
  readonly parts: number;
  /** The seed of the fabric's own draws (bit errors, soft errors). */
  readonly seed: number;
  onDeliver: DeliveryListener;
  onInterrupt: InterruptListener;

  step(): void;
  /** Nothing in flight, nothing pending. */
  idle(): boolean;
  /** Runs until nothing is in flight or `limit` cycles have passed; returns the cycles run. */
  drain(limit: number): number;
  /** Runs `cycles`, the parts apart `window` cycles at a time where nothing acts across them. */
  runWindowed(cycles: number, window: number, beforeCycle: (part: number, cycle: number) => void, partDone?: (part: number) => boolean): number;

  /**
   * Part p alone, from cycle `from` up to `until` (see runWindowed); with `partDone`, stops after
   * the first cycle at whose end the part is done and returns that cycle (-1: not done). For a
   * runner that runs the parts on threads (parallel/part-threads.ts), which calls advanceTo when every
   * part has reached the same cycle.
   */
  runPart(p: number, from: number, until: number, beforeCycle: (part: number, cycle: number) => void, partDone?: (part: number) => boolean): number;
  advanceTo(cycle: number): void;
  /** Whether the parts can run apart now (nothing acts across them). */
  partsIndependent(): boolean;
  /** Set when an error left the parts at different cycles: the fabric refuses to run on. */
  skewed: string | null;
  /** The fabric's state for a thread that built the same fabric (shared-state.ts), and part p's alone. */
  sharedState(): SharedState;
  adoptSharedState(state: SharedState): void;
  partState(p: number): SharedState;
  adoptPartState(p: number, state: SharedState): void;

  /** Queues a packet at endpoint `source`'s port into `plane`; returns its handle (FabricPackets). */
  inject(source: number, plane: number, destination: number, length: number, vc: number, flags: number, hashBits: number, tag?: number): number;
  /** The global port endpoint `endpoint` sends into `plane` by (-1: none). */
  endpointPort(endpoint: number, plane: number): number;
  /** The endpoint whose port global port `g` is (-1: a router's). */
  endpointAt(g: number): number;
  /** Endpoint ports, by global port: the size of the endpoint numbering's domain. */
  readonly portCount: number;
  partOfPort(g: number): number;
  /** Phits per cycle global port `g` carries. */
  linkRateOf(g: number): number;
  /** Phits sent by every port on every VC so far: index g * vcs + v. */
  portPhits(): Float64Array;

  /** Whether chip `chip` (by index in the fabric) is a router. */
  isRouter(chip: number): boolean;
  cutLink(g: number): void;
  restoreLink(g: number): void;
  killRouter(chip: number): void;
  reviveRouter(chip: number): void;
  setLaneBitErrorRate(g: number, lane: number, ber: number): void;
  setAccepting(g: number, accepting: boolean): void;
}

/**
 * What the emulator's host needs of any fabric it runs (chip-models.ts builds one per fabric):
 * time, the books, physical faults — and, where the chip model has one, the engine traffic runs
 * and drills drive (a FabricEngine).
 */
export interface HostedEngine {
  readonly fabric: EmulatedFabric;
  readonly cycle: number;
  readonly nsPerCycle: number;
  step(): void;
  idle(): boolean;
  books(): PacketBooks;
  /** Does something to the physical installation; an error names what this fabric's chips cannot have done. */
  applyFault(fault: PhysicalFault): void;
  /** The link-layer engine, where the chip model's fabrics are one (null: they run otherwise). */
  readonly traffic: FabricEngine | null;
  /**
   * Starts a validated traffic run (traffic-request.ts) on this fabric, by the chip model's own
   * runner; `threads`, where the engine can use them, run the fabric's parts.
   */
  startTraffic(request: TrafficRequest, shape: TrafficFabricShape, threads?: PartThreads): TrafficSession;
}

/**
 * Steps a fabric — any engine or hosted engine — until `promise` settles (or `limit` cycles pass).
 * Between batches of cycles the event loop turns once, so the caller's whole chain of
 * continuations runs (answers handled, new requests sent) before emulated time moves on.
 */
export async function runUntilSettled<T>(sim: { readonly cycle: number; step(): void }, promise: Promise<T>, limit = 10_000_000, batch = 200): Promise<T> {
  let settled = false;
  const tracked = promise.then(
    (v) => ((settled = true), v),
    (e) => {
      settled = true;
      throw e;
    },
  );
  const start = sim.cycle;
  while (!settled && sim.cycle - start < limit) {
    for (let i = 0; i < batch; i++) sim.step();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return tracked;
}
