/**
 * The maintenance controller of an emulated BlackWidow fabric: the MaintenanceTransport the
 * control plane talks to. Requests are real source-routed packets (paper 000 §4.1) injected at
 * the controller's processor, crossing the emulated links in emulated time; a request whose packet
 * is lost (dead link, dead chip, wrong route) is answered by a timeout, as on hardware.
 */
import type { InterruptRecord, MaintenanceResult, MaintenanceTransport, RegisterValue, SourceRoute } from '@weft/control';
import { ROUTE_VECTOR_HOPS } from '../engine/packet-store';
import { NS_PER_CYCLE } from './yarc-constants';
import { MaintenanceMessage, YarcFabricSim } from './yarc-fabric-sim';

/** A request waiting for its answer. Reads resolve with the value read; writes with nothing. */
interface Pending {
  readonly sentAt: number;
  readonly deadline: number;
  readonly read: boolean;
  readonly resolve: (result: MaintenanceResult<never>) => void;
}

const NO_VALUE: readonly number[] = Object.freeze([]);

export class YarcMaintenanceController implements MaintenanceTransport {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(interrupt: InterruptRecord) => void>();

  constructor(
    private readonly sim: YarcFabricSim,
    /** Processor the controller is attached to (the installation's maintenance attachment). */
    readonly attachment: number,
    /** Cycles after which an unanswered request fails (default 100 µs of emulated time). */
    readonly timeoutCycles = 80_000,
  ) {
    sim.onMaintenance = (message, _g, cycle) => {
      const waiting = this.pending.get(message.requestId);
      if (!waiting) return; // answered after its timeout: dropped, as a late reply would be
      this.pending.delete(message.requestId);
      this.settle(waiting, message, cycle);
      this.updateTick();
    };
    sim.onInterrupt = (kind, cycle, chip, port, vc, details) => {
      const record: InterruptRecord = { kind, emulatedTimeNs: cycle * NS_PER_CYCLE, serial: sim.serials[chip], port, vc, details };
      for (const listener of this.listeners) listener(record);
    };
  }

  get outstanding(): number {
    return this.pending.size;
  }

  read(route: SourceRoute, register: string, index = 0): Promise<MaintenanceResult<RegisterValue>> {
    return this.request(route, 'read', register, index, undefined, NO_VALUE);
  }

  write(route: SourceRoute, register: string, index: number, value: RegisterValue): Promise<MaintenanceResult<void>> {
    return this.request(route, 'write', register, index, undefined, value);
  }

  writeMany(route: SourceRoute, register: string, indices: readonly number[], value: RegisterValue): Promise<MaintenanceResult<void>> {
    return this.request(route, 'write', register, indices[0] ?? 0, indices, value);
  }

  onInterrupt(listener: (interrupt: InterruptRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private request<T>(
    route: SourceRoute,
    op: 'read' | 'write',
    register: string,
    index: number,
    indices: readonly number[] | undefined,
    value: RegisterValue,
  ): Promise<MaintenanceResult<T>> {
    const slice = route[0];
    const g = slice === undefined ? -1 : this.sim.processorPort[this.attachment * 4 + slice];
    if (g === undefined || g < 0)
      return Promise.resolve({ ok: false, reason: 'rejected', detail: `the controller has no port ${String(slice)}`, latencyNs: 0 });
    if (route.length - 1 > ROUTE_VECTOR_HOPS) {
      const detail = `a route of ${route.length - 1} router hops is longer than a routing vector holds (${ROUTE_VECTOR_HOPS})`;
      return Promise.resolve({ ok: false, reason: 'rejected', detail, latencyNs: 0 });
    }
    const requestId = this.nextId++;
    const sentAt = this.sim.cycle;
    const message: MaintenanceMessage = indices ? { requestId, op, register, index, indices, value } : { requestId, op, register, index, value };
    return new Promise<MaintenanceResult<T>>((resolve) => {
      this.pending.set(requestId, { sentAt, deadline: sentAt + this.timeoutCycles, read: op === 'read', resolve });
      if (this.pending.size === 1) this.nextDeadline = sentAt + this.timeoutCycles;
      this.sim.sendMaintenance(g, route, message, 1);
      this.updateTick();
    });
  }

  /** Answers a request: its value (reads), or why it failed; `message` null means no answer came. */
  private settle(waiting: Pending, message: MaintenanceMessage | null, cycle: number): void {
    const latencyNs = (cycle - waiting.sentAt) * NS_PER_CYCLE;
    if (!message) waiting.resolve({ ok: false, reason: 'timeout', detail: `no answer within ${this.timeoutCycles} cycles`, latencyNs });
    else if (message.error) waiting.resolve({ ok: false, reason: message.error, detail: message.detail ?? message.error, latencyNs });
    else waiting.resolve({ ok: true, value: (waiting.read ? message.value : undefined) as never, latencyNs });
  }

  private updateTick(): void {
    this.sim.onTick = this.pending.size > 0 ? this.checkTimeouts : null;
  }

  /** No request is due before this cycle (the oldest one pending when last looked at). */
  private nextDeadline = 0;

  /** Requests are kept in the order sent, so deadlines only grow: stop at the first one not due.
   * Called every cycle while requests are pending, so it looks only when the oldest may be due. */
  private readonly checkTimeouts = (cycle: number): void => {
    if (cycle < this.nextDeadline) return;
    let expired = false;
    this.nextDeadline = Infinity;
    for (const [id, waiting] of this.pending) {
      if (waiting.deadline > cycle) {
        this.nextDeadline = waiting.deadline;
        break;
      }
      this.pending.delete(id);
      this.settle(waiting, null, cycle);
      expired = true;
    }
    if (expired) this.updateTick();
  };
}

/** Steps the fabric until `promise` settles (or `limit` cycles pass). Between batches of cycles
 * the event loop turns once, so the caller's whole chain of continuations runs (answers handled,
 * new requests sent) before emulated time moves on. */
export async function runUntilSettled<T>(sim: YarcFabricSim, promise: Promise<T>, limit = 10_000_000, batch = 200): Promise<T> {
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
    sim.run(batch);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return tracked;
}
