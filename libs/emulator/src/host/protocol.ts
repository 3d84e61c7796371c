/**
 * Messages between the service and the emulator host running in a worker thread. Everything is
 * plain data (structured-clone safe). The service never receives the ground-truth cabling back:
 * only maintenance answers, interrupts and statistics.
 */
import type { FabricDesign } from '@weft/fabric-model';
import type { InterruptRecord, MaintenanceResult, RegisterValue, SourceRoute } from '@weft/control';
import type { BackgroundReport, TrafficReport } from '../traffic/traffic-run';
import type { TrafficRequest } from '../traffic/traffic-request';

export type HostCommand =
  | { type: 'attach'; fabricId: number; physical: FabricDesign; attachment: string; seed: number }
  | { type: 'detach'; fabricId: number }
  | { type: 'read'; id: number; fabricId: number; route: SourceRoute; register: string; index: number }
  /** Reads `register[0]` at the end of each route, `concurrency` at a time; one 'results' reply. */
  | { type: 'read-many'; id: number; fabricId: number; routes: readonly SourceRoute[]; register: string; concurrency: number }
  | { type: 'write'; id: number; fabricId: number; route: SourceRoute; register: string; index: number; value: RegisterValue }
  | { type: 'write-many'; id: number; fabricId: number; route: SourceRoute; register: string; indices: readonly number[]; value: RegisterValue }
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
  readonly emulatedNs: number;
  readonly books: { created: number; delivered: number; inFlight: number; balanced: boolean; discarded: Record<string, number> };
}

export type HostReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: MaintenanceResult<RegisterValue | void> }
  | { type: 'results'; id: number; results: MaintenanceResult<RegisterValue>[] }
  | { type: 'done'; id: number }
  | { type: 'status'; id: number; fabrics: FabricStatus[] }
  | { type: 'interrupt'; fabricId: number; interrupt: InterruptRecord }
  | { type: 'traffic-report'; id: number; report: TrafficReport | BackgroundReport }
  | { type: 'paused'; id: number; emulatedNs: number }
  | { type: 'error'; id?: number; message: string };
