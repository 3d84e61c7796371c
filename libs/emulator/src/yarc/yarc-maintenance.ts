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

/** A request waiting for its answer. Reads resolve with the value read; writes with nothing. A
 * read of a batch (readMany) fills its slot of the batch's results instead of a promise. */
interface Pending {
  readonly sentAt: number;
  readonly deadline: number;
  readonly read: boolean;
  readonly resolve: ((result: MaintenanceResult<never>) => void) | null;
  readonly batch: ReadBatch | null;
  readonly index: number;
}

/** The reads of one readMany call: sent in route order, the next as each one is answered. */
interface ReadBatch {
  readonly routes: readonly SourceRoute[];
  readonly register: string;
  readonly results: MaintenanceResult<RegisterValue>[];
  next: number;
  done: number;
  readonly resolve: (results: MaintenanceResult<RegisterValue>[]) => void;
}

const NO_VALUE: readonly number[] = Object.freeze([]);

/**
 * Requests waiting for an answer, by request id. Ids are handed out in order and answers come back
 * roughly in that order, so the requests sit in a ring indexed by id — a Map's hashing and holes
 * showed in the 32K discovery's profile — which doubles when the oldest one still waiting would be
 * overwritten. Deadlines grow with the id, so the oldest waiting request is the first due.
 */
class PendingRequests {
  private slots: (Pending | undefined)[] = new Array<Pending | undefined>(1024).fill(undefined);
  /** Every id below it is settled. */
  private oldest = 1;
  private next = 1;
  size = 0;

  /** Keeps a request; returns its id. */
  add(request: Pending): number {
    if (this.next - this.oldest >= this.slots.length) this.grow();
    const id = this.next++;
    this.slots[id & (this.slots.length - 1)] = request;
    this.size++;
    return id;
  }

  /** Removes and returns request `id` (undefined when it is not waiting: settled, or never sent). */
  take(id: number): Pending | undefined {
    if (id < this.oldest || id >= this.next) return undefined;
    const k = id & (this.slots.length - 1);
    const request = this.slots[k];
    if (request === undefined) return undefined;
    this.slots[k] = undefined;
    this.size--;
    while (this.oldest < this.next && this.slots[this.oldest & (this.slots.length - 1)] === undefined) this.oldest++;
    return request;
  }

  /** The oldest request still waiting (undefined when none is); its id is firstId. */
  first(): Pending | undefined {
    return this.oldest < this.next ? this.slots[this.oldest & (this.slots.length - 1)] : undefined;
  }

  get firstId(): number {
    return this.oldest;
  }

  private grow(): void {
    const slots = new Array<Pending | undefined>(2 * this.slots.length).fill(undefined);
    for (let id = this.oldest; id < this.next; id++) slots[id & (slots.length - 1)] = this.slots[id & (this.slots.length - 1)];
    this.slots = slots;
  }
}

export class YarcMaintenanceController implements MaintenanceTransport {
  private readonly pending = new PendingRequests();
  private readonly listeners = new Set<(interrupt: InterruptRecord) => void>();

  constructor(
    private readonly sim: YarcFabricSim,
    /** Processor the controller is attached to (the installation's maintenance attachment). */
    readonly attachment: number,
    /** Cycles after which an unanswered request fails (default 100 µs of emulated time). */
    readonly timeoutCycles = 80_000,
  ) {
    sim.onMaintenance = (message, _g, cycle) => {
      const waiting = this.pending.take(message.requestId);
      if (!waiting) return; // answered after its timeout: dropped, as a late reply would be
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

  /** Many reads with at most `concurrency` outstanding: each answer sends the next request at
   * once, in the same emulated cycle, as a controller's firmware would. */
  readMany(routes: readonly SourceRoute[], register: string, concurrency: number): Promise<MaintenanceResult<RegisterValue>[]> {
    if (routes.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      const batch: ReadBatch = { routes, register, results: new Array<MaintenanceResult<RegisterValue>>(routes.length), next: 0, done: 0, resolve };
      for (let k = 0; k < Math.max(1, concurrency) && batch.next < routes.length; k++) this.sendNext(batch);
    });
  }

  /** Sends the batch's next read; one that cannot be sent is answered with why at once, and the
   * one after it is tried instead. */
  private sendNext(batch: ReadBatch): void {
    while (batch.next < batch.routes.length) {
      const index = batch.next++;
      const route = batch.routes[index];
      const refusal = this.refusal(route);
      if (refusal) {
        this.fill(batch, index, { ok: false, reason: 'rejected', detail: refusal, latencyNs: 0 });
        continue;
      }
      const sentAt = this.sim.cycle;
      const requestId = this.pending.add({ sentAt, deadline: sentAt + this.timeoutCycles, read: true, resolve: null, batch, index });
      if (this.pending.size === 1) this.nextDeadline = sentAt + this.timeoutCycles;
      this.sim.sendMaintenance(this.portFor(route), route, { requestId, op: 'read', register: batch.register, index: 0, value: NO_VALUE }, 1);
      this.updateTick();
      return;
    }
  }

  private fill(batch: ReadBatch, index: number, result: MaintenanceResult<RegisterValue>): void {
    batch.results[index] = result;
    if (++batch.done === batch.routes.length) batch.resolve(batch.results);
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
    const refusal = this.refusal(route);
    if (refusal) return Promise.resolve({ ok: false, reason: 'rejected', detail: refusal, latencyNs: 0 });
    const sentAt = this.sim.cycle;
    return new Promise<MaintenanceResult<T>>((resolve) => {
      const requestId = this.pending.add({ sentAt, deadline: sentAt + this.timeoutCycles, read: op === 'read', resolve, batch: null, index: 0 });
      if (this.pending.size === 1) this.nextDeadline = sentAt + this.timeoutCycles;
      const message: MaintenanceMessage = indices ? { requestId, op, register, index, indices, value } : { requestId, op, register, index, value };
      this.sim.sendMaintenance(this.portFor(route), route, message, 1);
      this.updateTick();
    });
  }

  /** Why a request along `route` cannot be sent (null: it can). */
  private refusal(route: SourceRoute): string | null {
    const slice = route[0];
    const g = slice === undefined ? -1 : this.sim.processorPort[this.attachment * 4 + slice];
    if (g === undefined || g < 0) return `the controller has no port ${String(slice)}`;
    if (route.length - 1 > ROUTE_VECTOR_HOPS) return `a route of ${route.length - 1} router hops is longer than a routing vector holds (${ROUTE_VECTOR_HOPS})`;
    return null;
  }

  /** The controller's endpoint port a route leaves by (its first element: the slice). */
  private portFor(route: SourceRoute): number {
    return this.sim.processorPort[this.attachment * 4 + route[0]];
  }

  /** Answers a request: its value (reads), or why it failed; `message` null means no answer came. */
  private settle(waiting: Pending, message: MaintenanceMessage | null, cycle: number): void {
    const latencyNs = (cycle - waiting.sentAt) * NS_PER_CYCLE;
    let result: MaintenanceResult<never>;
    if (!message) result = { ok: false, reason: 'timeout', detail: `no answer within ${this.timeoutCycles} cycles`, latencyNs };
    else if (message.error) result = { ok: false, reason: message.error, detail: message.detail ?? message.error, latencyNs };
    else result = { ok: true, value: (waiting.read ? message.value : undefined) as never, latencyNs };
    if (waiting.resolve) waiting.resolve(result);
    else if (waiting.batch) {
      this.fill(waiting.batch, waiting.index, result);
      this.sendNext(waiting.batch);
    }
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
    // Settling one may send another (a batch's next read), with a later deadline.
    for (let waiting = this.pending.first(); waiting !== undefined; waiting = this.pending.first()) {
      if (waiting.deadline > cycle) {
        this.nextDeadline = waiting.deadline;
        break;
      }
      this.pending.take(this.pending.firstId);
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
