/**
 * What the rest of the emulator — the host, traffic runs, drills, the soak — may ask of an emulated
 * fabric (issue 35, capability 2): run control (cycles, parts run apart in windows), injection and
 * delivery at the endpoints, the books, per-port counters, and fault injection. A chip model
 * (chip-models.ts) builds one for a fabric of its chips; YARC's is YarcFabricSim. Nothing outside
 * the chip model's folder names the chip.
 */
import type { EmulatedFabric } from '../emulated-fabric';
import type { FabricPackets } from './fabric-packets';

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
  onDeliver: DeliveryListener;

  step(): void;
  /** Nothing in flight, nothing pending. */
  idle(): boolean;
  /** Runs until nothing is in flight or `limit` cycles have passed; returns the cycles run. */
  drain(limit: number): number;
  /** Runs `cycles`, the parts apart `window` cycles at a time where nothing acts across them. */
  runWindowed(cycles: number, window: number, beforeCycle: (part: number, cycle: number) => void, partDone?: (part: number) => boolean): number;

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
