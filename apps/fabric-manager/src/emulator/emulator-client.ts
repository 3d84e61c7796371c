import type { InterruptRecord, MaintenanceResult, MaintenanceTransport, RegisterValue, SourceRoute } from '@weft/control';
import { packRoutes, transferables, unpackResults } from '@weft/emulator';
import type { FabricStatus, HostCommand, HostReply, PhysicalFault, TrafficReport, TrafficRequest } from '@weft/emulator';
import type { BatchedWrite, FabricDesign } from '@weft/fabric-model';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { helloProof, parseFabricAddress, readFrames, sendFrame } from '@weft/emulator';

/** Where the worker entry is: compiled JavaScript in a build, TypeScript when running from sources. */
function workerEntry(): { file: string; workerData?: { entry: string } } {
  const compiled = join(__dirname, '../../../../libs/emulator/src/host/emulator-worker.js');
  if (__filename.endsWith('.js') && existsSync(compiled)) return { file: compiled };
  return {
    file: join(__dirname, 'ts-worker-bootstrap.js'),
    workerData: { entry: join(__dirname, '../../../../libs/emulator/src/host/emulator-worker.ts') },
  };
}

/** Where the emulator host answers: its worker thread, or a fabric process over a socket. */
interface HostPort {
  postMessage(command: HostCommand, transfer?: readonly ArrayBuffer[]): void;
  on(event: 'message', listener: (reply: HostReply) => void): unknown;
  on(event: 'exit', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'message', listener: (reply: HostReply) => void): unknown;
  terminate(): Promise<unknown>;
}

/**
 * A fabric process (`weft fabric serve`) as a host port: the same messages, framed over its
 * socket, after a hello that answers its challenge with `hello` (the term and the proof of the
 * fabric key). Closing it leaves the fabrics running there.
 */
class SocketHostPort extends EventEmitter implements HostPort {
  private readonly socket;

  constructor(address: string, hello: (challenge: string) => HostCommand) {
    super();
    const where = parseFabricAddress(address);
    this.socket = 'path' in where ? connect(where.path) : connect(where.port, where.host);
    this.socket.setNoDelay(true);
    let challenged = false;
    readFrames(
      this.socket,
      (reply) => {
        const message = reply as HostReply;
        if (!challenged && message.type === 'challenge') {
          challenged = true;
          return void sendFrame(this.socket, hello(message.challenge));
        }
        this.emit('message', message);
      },
      { refuse: (reason) => this.socket.destroy(new Error(reason)) },
    );
    this.socket.on('error', (error) => this.emit('error', new Error(`the fabric process at ${address}: ${error.message}`)));
    this.socket.on('close', () => this.emit('exit'));
  }

  postMessage(command: HostCommand): void {
    sendFrame(this.socket, command);
  }

  terminate(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.end();
    });
  }
}

/**
 * The service's side of the emulator host — its worker thread, or a fabric process of its own:
 * commands out, answers and interrupts in.
 * Each fabric gets a MaintenanceTransport whose packets travel the emulated links in the worker —
 * the control plane cannot tell it from hardware.
 */
export class EmulatorClient {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: HostReply) => void>();
  /** Read-manys that asked for their results in parts: what to hand each part to, by command id. */
  private readonly parts = new Map<number, (from: number, results: MaintenanceResult<RegisterValue>[]) => void>();
  private readonly interruptListeners = new Set<(fabricId: number, interrupt: InterruptRecord) => void>();
  private alive = false;
  private closing = false;
  private readonly lostListeners = new Set<(letGoFor?: number) => void>();
  /** The newer manager's term, when the fabric process let this client go for it. */
  private letGoFor: number | undefined;

  private constructor(private readonly worker: HostPort) {
    worker.on('message', (reply: HostReply) => this.receive(reply));
    worker.on('exit', () => {
      const wasAlive = this.alive;
      this.alive = false;
      const message =
        this.letGoFor === undefined
          ? 'the emulator worker stopped'
          : `the fabric process serves a manager with a newer claim on the store (term ${this.letGoFor}): this one has been taken over`;
      for (const settle of this.pending.values()) settle({ type: 'error', message });
      this.pending.clear();
      if (wasAlive && !this.closing) for (const listener of this.lostListeners) listener(this.letGoFor);
    });
  }

  /**
   * Calls `listener` once if the host goes away without this client closing it (a fabric process
   * stopped or restarted) — with the newer manager's term where it let this one go for it.
   */
  onLost(listener: (letGoFor?: number) => void): void {
    this.lostListeners.add(listener);
  }

  /** `nice`: the worker thread's niceness (Linux schedules threads apart; see emulator-worker.ts);
   * `threads`: how many threads a traffic run's parts use, the worker's own included. */
  static start(nice = 0, threads = 1): Promise<EmulatorClient> {
    const entry = workerEntry();
    return EmulatorClient.over(new Worker(entry.file, { workerData: { ...entry.workerData, nice, threads } }) as unknown as HostPort);
  }

  /** The fabrics of a fabric process (`weft fabric serve`) at `address` (unix:/path or tcp:host:port),
   * as the manager whose claim on the store is `term` (the fabric refuses an older one), proving
   * that it holds the fabric `key`. */
  static connect(address: string, term: number, key: Buffer): Promise<EmulatorClient> {
    return EmulatorClient.over(new SocketHostPort(address, (challenge) => ({ type: 'hello', term, proof: helloProof(key, challenge, term) })));
  }

  private static over(worker: HostPort): Promise<EmulatorClient> {
    const client = new EmulatorClient(worker);
    return new Promise((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (reply: HostReply) => {
        if (reply.type === 'error') return reject(new Error(`the emulator host refused: ${reply.message}`));
        if (reply.type !== 'ready') return reject(new Error(`emulator worker said ${reply.type} before ready`));
        client.alive = true;
        resolve(client);
      });
    });
  }

  get running(): boolean {
    return this.alive;
  }

  attach(fabricId: number, physical: FabricDesign, attachment: string, seed = 1): void {
    this.send({ type: 'attach', fabricId, physical, attachment, seed });
  }

  detach(fabricId: number): void {
    this.send({ type: 'detach', fabricId });
  }

  async status(): Promise<FabricStatus[]> {
    const reply = await this.request((id) => ({ type: 'status', id }));
    if (reply.type !== 'status') throw new Error(reply.type === 'error' ? reply.message : 'unexpected reply');
    return reply.fabrics;
  }

  /** Does something to the physical installation (drills); resolves once it has happened. */
  async injectFault(fabricId: number, fault: PhysicalFault): Promise<void> {
    const reply = await this.request((id) => ({ type: 'fault', id, fabricId, fault }));
    if (reply.type === 'error') throw new Error(reply.message);
  }

  /** Runs traffic on an emulated fabric; resolves with the report when the run has finished. */
  async runTraffic(fabricId: number, request: TrafficRequest): Promise<TrafficReport> {
    const reply = await this.request((id) => ({ type: 'traffic', id, fabricId, request }));
    if (reply.type === 'traffic-report') return reply.report;
    throw new Error(reply.type === 'error' ? reply.message : `unexpected reply ${reply.type}`);
  }

  /** Background traffic stops injecting (its report follows from runTraffic once drained). */
  async stopTraffic(fabricId: number, drainLimit: number): Promise<void> {
    const reply = await this.request((id) => ({ type: 'traffic-stop', id, fabricId, drainLimit }));
    if (reply.type === 'error') throw new Error(reply.message);
  }

  async mark(fabricId: number, label: string): Promise<void> {
    await this.request((id) => ({ type: 'mark', id, fabricId, label }));
  }

  /** Runs the fabric to an emulated time and holds it there; resolves with the time reached. */
  async pauseAt(fabricId: number, atNs: number): Promise<number> {
    const reply = await this.request((id) => ({ type: 'pause-at', id, fabricId, atNs }));
    if (reply.type === 'paused') return reply.emulatedNs;
    throw new Error(reply.type === 'error' ? reply.message : `unexpected reply ${reply.type}`);
  }

  async resume(fabricId: number): Promise<void> {
    await this.request((id) => ({ type: 'resume', id, fabricId }));
  }

  /** Maintenance requests to the fabric wait until it reaches `untilNs` of emulated time. */
  async embargo(fabricId: number, untilNs: number): Promise<void> {
    await this.request((id) => ({ type: 'embargo', id, fabricId, untilNs }));
  }

  transport(fabricId: number): MaintenanceTransport {
    const call = async <T>(command: (id: number) => HostCommand): Promise<MaintenanceResult<T>> => {
      const reply = await this.request(command);
      if (reply.type === 'result') return reply.result as MaintenanceResult<T>;
      return { ok: false, reason: 'rejected', detail: reply.type === 'error' ? reply.message : 'unexpected reply', latencyNs: 0 };
    };
    return {
      read: (route: SourceRoute, register: string, index = 0) => call<RegisterValue>((id) => ({ type: 'read', id, fabricId, route, register, index })),
      readMany: async (
        routes: readonly SourceRoute[],
        register: string,
        concurrency: number,
        onPart?: (from: number, results: readonly MaintenanceResult<RegisterValue>[]) => void,
      ) => {
        // Asked for in parts or not, the parts come back together as the whole result as well.
        const all = new Array<MaintenanceResult<RegisterValue>>(routes.length);
        const reply = await this.request(
          (id) => ({ type: 'read-many', id, fabricId, routes: packRoutes(routes), register, concurrency, parts: true }),
          (id) =>
            this.parts.set(id, (from, results) => {
              for (let k = 0; k < results.length; k++) all[from + k] = results[k];
              onPart?.(from, results);
            }),
        );
        // A read-many the worker could not start comes back whole, not in parts.
        if (reply.type === 'results') return reply.results.outcomes.length > 0 ? unpackResults(reply.results) : all;
        const detail = reply.type === 'error' ? reply.message : 'unexpected reply';
        return routes.map(() => ({ ok: false as const, reason: 'rejected' as const, detail, latencyNs: 0 }));
      },
      write: (route: SourceRoute, register: string, index: number, value: RegisterValue) =>
        call<void>((id) => ({ type: 'write', id, fabricId, route, register, index, value })),
      writeMany: (route: SourceRoute, register: string, indices: readonly number[], value: RegisterValue) =>
        call<void>((id) => ({ type: 'write-many', id, fabricId, route, register, indices, value })),
      writeBatch: async (writes: readonly BatchedWrite[], concurrency: number) => {
        const reply = await this.request((id) => ({ type: 'write-batch', id, fabricId, writes, concurrency }));
        if (reply.type === 'results')
          return unpackResults(reply.results).map((r) => (r.ok ? { ok: true as const, value: undefined, latencyNs: r.latencyNs } : r));
        const detail = reply.type === 'error' ? reply.message : 'unexpected reply';
        return writes.map(() => ({ ok: false as const, reason: 'rejected' as const, detail, latencyNs: 0 }));
      },
      onInterrupt: (listener) => this.onInterrupt((id, interrupt) => id === fabricId && listener(interrupt)),
    };
  }

  onInterrupt(listener: (fabricId: number, interrupt: InterruptRecord) => void): () => void {
    this.interruptListeners.add(listener);
    return () => this.interruptListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }

  private send(command: HostCommand): void {
    this.worker.postMessage(command, transferables(command));
  }

  private request(make: (id: number) => HostCommand, before?: (id: number) => void): Promise<HostReply> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (!this.alive) return resolve({ type: 'error', message: 'the emulator worker is not running' });
      before?.(id);
      this.pending.set(id, (reply) => {
        this.parts.delete(id);
        resolve(reply);
      });
      this.send(make(id));
    });
  }

  private receive(reply: HostReply): void {
    if (reply.type === 'interrupt') {
      for (const listener of this.interruptListeners) listener(reply.fabricId, reply.interrupt);
      return;
    }
    if (reply.type === 'let-go') {
      this.letGoFor = reply.term;
      return;
    }
    if (reply.type === 'results-part') {
      this.parts.get(reply.id)?.(reply.from, unpackResults(reply.results));
      return;
    }
    // Every other reply answers one command, by its id.
    if ('id' in reply && reply.id !== undefined) {
      const settle = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      settle?.(reply);
    }
  }
}
