/**
 * The maintenance controller of an emulated BlackWidow fabric: the MaintenanceTransport the
 * control plane talks to. Requests are real source-routed packets (paper 000 §4.1) injected at
 * the controller's processor, crossing the emulated links in emulated time; a request whose packet
 * is lost (dead link, dead chip, wrong route) is answered by a timeout, as on hardware.
 */
import type { InterruptRecord, MaintenanceResult, MaintenanceTransport, RegisterValue, SourceRoute } from '@weft/fabric-model';
import { ROUTE_VECTOR_HOPS } from '../engine/packet-store';
import { NS_PER_CYCLE } from './yarc-constants';
import type { MaintenanceMessage } from '../engine/maintenance-message';
import { YarcFabricSim } from './yarc-fabric-sim';

/** Settles a single request (read or write) with its result. */
type Resolver = (result: MaintenanceResult<never>) => void;

/** The reads of one readMany call: sent in route order, the next as each one is answered. */
interface ReadBatch {
  readonly routes: readonly SourceRoute[];
  readonly register: string;
  readonly results: MaintenanceResult<RegisterValue>[];
  next: number;
  done: number;
  readonly resolve: (results: MaintenanceResult<RegisterValue>[]) => void;
  /** Handed the results in parts, in order (see MaintenanceTransport.readMany), from `reported` on. */
  readonly onPart?: (from: number, results: readonly MaintenanceResult<RegisterValue>[]) => void;
  reported: number;
  /** Every result before it is in. */
  answered: number;
}

/** Results a readMany hands over per part, at least (the last part may be shorter). */
export const READ_PART = 8192;

const NO_VALUE: readonly number[] = Object.freeze([]);

/**
 * Requests waiting for an answer, by request id. Ids are handed out in order and answers come back
 * roughly in that order, so the requests sit in a ring indexed by id — a Map's hashing and holes
 * showed in the 32K discovery's profile — which doubles when the oldest one still waiting would be
 * overwritten. A request is its slot's fields, side by side (half a million requests in a 32K
 * sweep, no object each): when it was sent, whether it reads, and who waits for it — a batch (with
 * the read's index in it) or a single request's resolver. Deadlines grow with the id, so the
 * oldest waiting request is the first due.
 */
class PendingRequests {
  private sentAt = new Float64Array(1024);
  private reads = new Uint8Array(1024);
  private indices = new Int32Array(1024);
  private owners: (ReadBatch | Resolver | undefined)[] = new Array<ReadBatch | Resolver | undefined>(1024).fill(undefined);
  /** Every id below it is settled. */
  private oldest = 1;
  private next = 1;
  size = 0;

  /** Keeps a request; returns its id. */
  add(sentAt: number, read: boolean, owner: ReadBatch | Resolver, index: number): number {
    if (this.next - this.oldest >= this.owners.length) this.grow();
    const id = this.next++;
    const k = id & (this.owners.length - 1);
    this.sentAt[k] = sentAt;
    this.reads[k] = read ? 1 : 0;
    this.indices[k] = index;
    this.owners[k] = owner;
    this.size++;
    return id;
  }

  /** Whether request `id` is waiting (not settled, and sent). */
  has(id: number): boolean {
    return id >= this.oldest && id < this.next && this.owners[id & (this.owners.length - 1)] !== undefined;
  }

  sentAtOf(id: number): number {
    return this.sentAt[id & (this.owners.length - 1)];
  }

  readsOf(id: number): boolean {
    return this.reads[id & (this.owners.length - 1)] === 1;
  }

  indexOf(id: number): number {
    return this.indices[id & (this.owners.length - 1)];
  }

  ownerOf(id: number): ReadBatch | Resolver {
    return this.owners[id & (this.owners.length - 1)]!;
  }

  /** Request `id` (waiting) is settled; its slot may be reused by the next add. */
  remove(id: number): void {
    this.owners[id & (this.owners.length - 1)] = undefined;
    this.size--;
    while (this.oldest < this.next && this.owners[this.oldest & (this.owners.length - 1)] === undefined) this.oldest++;
  }

  /** The oldest request still waiting (-1 when none is). */
  get firstId(): number {
    return this.oldest < this.next ? this.oldest : -1;
  }

  private grow(): void {
    const size = 2 * this.owners.length;
    const sentAt = new Float64Array(size);
    const reads = new Uint8Array(size);
    const indices = new Int32Array(size);
    const owners = new Array<ReadBatch | Resolver | undefined>(size).fill(undefined);
    for (let id = this.oldest; id < this.next; id++) {
      const from = id & (this.owners.length - 1);
      const to = id & (size - 1);
      sentAt[to] = this.sentAt[from];
      reads[to] = this.reads[from];
      indices[to] = this.indices[from];
      owners[to] = this.owners[from];
    }
    this.sentAt = sentAt;
    this.reads = reads;
    this.indices = indices;
    this.owners = owners;
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
      // One answered after its timeout is dropped, as a late reply would be.
      if (!this.pending.has(message.requestId)) return;
      this.settle(message.requestId, message, cycle);
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
  readMany(
    routes: readonly SourceRoute[],
    register: string,
    concurrency: number,
    onPart?: (from: number, results: readonly MaintenanceResult<RegisterValue>[]) => void,
  ): Promise<MaintenanceResult<RegisterValue>[]> {
    if (routes.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      const results = new Array<MaintenanceResult<RegisterValue>>(routes.length);
      const batch: ReadBatch = { routes, register, results, next: 0, done: 0, resolve, onPart, reported: 0, answered: 0 };
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
      const requestId = this.pending.add(sentAt, true, batch, index);
      if (this.pending.size === 1) this.nextDeadline = sentAt + this.timeoutCycles;
      this.sim.sendMaintenance(this.portFor(route), route, { requestId, op: 'read', register: batch.register, index: 0, value: NO_VALUE }, 1);
      this.updateTick();
      return;
    }
  }

  private fill(batch: ReadBatch, index: number, result: MaintenanceResult<RegisterValue>): void {
    batch.results[index] = result;
    const complete = ++batch.done === batch.routes.length;
    if (batch.onPart) {
      while (batch.answered < batch.routes.length && batch.results[batch.answered] !== undefined) batch.answered++;
      if (batch.answered - batch.reported >= READ_PART || (complete && batch.answered > batch.reported)) {
        const from = batch.reported;
        batch.reported = batch.answered;
        batch.onPart(from, batch.results.slice(from, batch.answered));
      }
    }
    if (complete) batch.resolve(batch.results);
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
      const requestId = this.pending.add(sentAt, op === 'read', resolve as Resolver, -1);
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

  /** Answers waiting request `id`: its value (reads), or why it failed; `message` null means no
   * answer came. */
  private settle(id: number, message: MaintenanceMessage | null, cycle: number): void {
    const latencyNs = (cycle - this.pending.sentAtOf(id)) * NS_PER_CYCLE;
    const read = this.pending.readsOf(id);
    const index = this.pending.indexOf(id);
    const owner = this.pending.ownerOf(id);
    this.pending.remove(id);
    let result: MaintenanceResult<never>;
    if (!message) result = { ok: false, reason: 'timeout', detail: `no answer within ${this.timeoutCycles} cycles`, latencyNs };
    else if (message.error) result = { ok: false, reason: message.error, detail: message.detail ?? message.error, latencyNs };
    else result = { ok: true, value: (read ? message.value : undefined) as never, latencyNs };
    if (typeof owner === 'function') owner(result);
    else {
      this.fill(owner, index, result);
      this.sendNext(owner);
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
    for (let id = this.pending.firstId; id >= 0; id = this.pending.firstId) {
      const deadline = this.pending.sentAtOf(id) + this.timeoutCycles;
      if (deadline > cycle) {
        this.nextDeadline = deadline;
        break;
      }
      this.settle(id, null, cycle);
      expired = true;
    }
    if (expired) this.updateTick();
  };
}
