/**
 * Messages between the service and the emulator host running in a worker thread. Everything is
 * plain data (structured-clone safe). The service never receives the ground-truth cabling back:
 * only maintenance answers, interrupts and statistics.
 */
import type { FabricDesign } from '@weft/fabric-model';
import type { BatchedWrite, InterruptRecord, MaintenanceFailure, MaintenanceResult, RegisterValue, SourceRoute } from '@weft/fabric-model';
import type { BackgroundReport, TrafficReport } from '../traffic/traffic-run';
import type { TrafficRequest } from '../traffic/traffic-request';

export type HostCommand =
  /** A manager's first word to a fabric process, answering its challenge: its claim on the store,
   * as a fencing term — a manager whose claim is older than one the fabric has already served is
   * refused — and the proof that it holds the fabric key (fabric-key.ts). */
  | { type: 'hello'; term: number; proof: string }
  | { type: 'attach'; fabricId: number; physical: FabricDesign; attachment: string; seed: number }
  | { type: 'detach'; fabricId: number }
  | { type: 'read'; id: number; fabricId: number; route: SourceRoute; register: string; index: number }
  /** Reads `register[0]` at the end of each route, `concurrency` at a time; one 'results' reply. */
  | { type: 'read-many'; id: number; fabricId: number; routes: PackedRoutes; register: string; concurrency: number; parts?: boolean }
  | { type: 'write'; id: number; fabricId: number; route: SourceRoute; register: string; index: number; value: RegisterValue }
  | { type: 'write-many'; id: number; fabricId: number; route: SourceRoute; register: string; indices: readonly number[]; value: RegisterValue }
  /** Writes to any chips, each as 'write' (whole) or 'write-many' would make it, `concurrency` at a time; one 'results' reply, in order. */
  | { type: 'write-batch'; id: number; fabricId: number; writes: readonly BatchedWrite[]; concurrency: number }
  | { type: 'status'; id: number }
  | { type: 'fault'; id: number; fabricId: number; fault: PhysicalFault }
  | { type: 'traffic'; id: number; fabricId: number; request: TrafficRequest }
  /** Background traffic stops injecting; its report follows once it has drained. */
  | { type: 'traffic-stop'; id: number; fabricId: number; drainLimit: number }
  /** A marker on the running traffic's time series (a fault, a push). */
  | { type: 'mark'; id: number; fabricId: number; label: string }
  /** Runs the fabric up to an emulated time and holds it there (answered 'paused') until 'resume'. */
  | { type: 'pause-at'; id: number; fabricId: number; atNs: number }
  | { type: 'resume'; id: number; fabricId: number }
  /** Maintenance requests wait until the fabric reaches this emulated time (a drill charges the
   * control plane's compute time to emulated time this way). */
  | { type: 'embargo'; id: number; fabricId: number; untilNs: number };

/**
 * Something done to the physical installation (fault-injection drills, a technician's hands): it
 * names a cable end by chip and port as the installation file does. The control plane learns of it
 * only through interrupts and maintenance reads, like on hardware.
 */
export type PhysicalFault =
  | { action: 'cut-link' | 'restore-link'; chip: string; port: number }
  | { action: 'lane-bit-error-rate'; chip: string; port: number; lane: number; rate: number }
  | { action: 'kill-router' | 'revive-router'; chip: string }
  | { action: 'stop-accepting' | 'resume-accepting'; chip: string; port: number };

export interface FabricStatus {
  readonly fabricId: number;
  readonly chips: number;
  readonly ports: number;
  readonly cycle: number;
  /** The fabric's clock (emulated ns per cycle: its chips'). */
  readonly nsPerCycle: number;
  readonly emulatedNs: number;
  readonly books: { created: number; delivered: number; inFlight: number; balanced: boolean; discarded: Record<string, number> };
}

export type HostReply =
  /** A fabric process's first word to a connection: what a manager's hello must answer (fabric-key.ts). */
  | { type: 'challenge'; challenge: string }
  | { type: 'ready' }
  | { type: 'result'; id: number; result: MaintenanceResult<RegisterValue | void> }
  | { type: 'results'; id: number; results: PackedResults }
  /** Part of a read-many's results (when it asked for parts), the routes' from `from` on; its
   * 'results' reply then carries none. */
  | { type: 'results-part'; id: number; from: number; results: PackedResults }
  | { type: 'done'; id: number }
  | { type: 'status'; id: number; fabrics: FabricStatus[] }
  | { type: 'interrupt'; fabricId: number; interrupt: InterruptRecord }
  | { type: 'traffic-report'; id: number; report: TrafficReport | BackgroundReport }
  | { type: 'paused'; id: number; emulatedNs: number }
  | { type: 'error'; id?: number; message: string }
  /** A fabric process's last word to a manager it lets go: a manager with a newer claim (`term`) connected. */
  | { type: 'let-go'; term: number };

/**
 * A read-many's routes as they cross between threads: route k is `ports[offsets[k]]` up to
 * `ports[offsets[k + 1]]`. A sweep hop of the 32K fabric reads a quarter of a million routes; as
 * arrays they were cloned one by one on both sides, as two typed arrays they are moved whole.
 */
export interface PackedRoutes {
  readonly ports: Float64Array;
  readonly offsets: Uint32Array;
}

/** A read-many's results, packed the same way: per result its outcome (0: answered, else the
 * failure's index in MAINTENANCE_FAILURES + 1), its latency and its value (empty if it failed);
 * the failures' details in order. */
export interface PackedResults {
  readonly outcomes: Uint8Array;
  readonly latencyNs: Float64Array;
  readonly offsets: Uint32Array;
  readonly values: Float64Array;
  readonly details: readonly string[];
}

const MAINTENANCE_FAILURES: readonly MaintenanceFailure[] = ['timeout', 'no-such-register', 'rejected'];

export function packRoutes(routes: readonly SourceRoute[]): PackedRoutes {
  const offsets = new Uint32Array(routes.length + 1);
  for (let k = 0; k < routes.length; k++) offsets[k + 1] = offsets[k] + routes[k].length;
  const ports = new Float64Array(offsets[routes.length]);
  for (let k = 0; k < routes.length; k++) {
    const route = routes[k];
    for (let j = 0, at = offsets[k]; j < route.length; j++) ports[at + j] = route[j];
  }
  return { ports, offsets };
}

export function unpackRoutes(packed: PackedRoutes): SourceRoute[] {
  const routes = new Array<SourceRoute>(packed.offsets.length - 1);
  for (let k = 0; k < routes.length; k++) routes[k] = slice(packed.ports, packed.offsets[k], packed.offsets[k + 1]);
  return routes;
}

export function packResults(results: readonly MaintenanceResult<RegisterValue>[]): PackedResults {
  const outcomes = new Uint8Array(results.length);
  const latencyNs = new Float64Array(results.length);
  const offsets = new Uint32Array(results.length + 1);
  const details: string[] = [];
  for (let k = 0; k < results.length; k++) {
    const result = results[k];
    latencyNs[k] = result.latencyNs;
    if (result.ok) offsets[k + 1] = offsets[k] + result.value.length;
    else {
      offsets[k + 1] = offsets[k];
      outcomes[k] = MAINTENANCE_FAILURES.indexOf(result.reason) + 1;
      details.push(result.detail);
    }
  }
  const values = new Float64Array(offsets[results.length]);
  for (let k = 0; k < results.length; k++) {
    const result = results[k];
    if (result.ok) values.set(result.value, offsets[k]);
  }
  return { outcomes, latencyNs, offsets, values, details };
}

export function unpackResults(packed: PackedResults): MaintenanceResult<RegisterValue>[] {
  const results = new Array<MaintenanceResult<RegisterValue>>(packed.outcomes.length);
  let failure = 0;
  for (let k = 0; k < results.length; k++) {
    const latencyNs = packed.latencyNs[k];
    const outcome = packed.outcomes[k];
    if (outcome === 0) results[k] = { ok: true, value: slice(packed.values, packed.offsets[k], packed.offsets[k + 1]), latencyNs };
    else results[k] = { ok: false, reason: MAINTENANCE_FAILURES[outcome - 1], detail: packed.details[failure++], latencyNs };
  }
  return results;
}

/** numbers[from..to) as a plain array (a loop: half a million of them per sweep hop). */
function slice(numbers: Float64Array, from: number, to: number): number[] {
  const out = new Array<number>(to - from);
  for (let j = from; j < to; j++) out[j - from] = numbers[j];
  return out;
}

/** The buffers a message can hand over instead of copying. */
export function transferables(message: HostCommand | HostReply): ArrayBuffer[] {
  if (message.type === 'read-many') return [message.routes.ports.buffer as ArrayBuffer, message.routes.offsets.buffer as ArrayBuffer];
  if (message.type === 'results' || message.type === 'results-part') {
    const r = message.results;
    return [r.outcomes.buffer, r.latencyNs.buffer, r.offsets.buffer, r.values.buffer] as ArrayBuffer[];
  }
  return [];
}
