/**
 * The emulated fabrics and their maintenance controllers, driven by commands. It advances each
 * fabric that has work in slices of emulated time, yielding between slices so commands keep
 * being served (the worker's event loop stays responsive while traffic runs).
 */
import type { FabricDesign } from '@weft/fabric-model';
import type { MaintenanceResult, MaintenanceTransport, RegisterValue } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { FABRIC_FAMILY_MODELS, writeEach } from '@weft/fabric-model';
import { chipModelOf } from '../chip-models';
import type { HostedEngine } from '../engine/fabric-engine';
import { FabricStatus, HostCommand, HostReply, packResults, unpackRoutes } from './protocol';
import { isBackgroundSession, TrafficSession } from '../traffic/traffic-run';
import { TrafficFabricShape, validateTrafficRequest } from '../traffic/traffic-request';
import { PartThreads } from '../parallel/part-threads';

interface HostedFabric {
  /** What it was attached as (installationKey): attached again as the same, it keeps running. */
  readonly installed: string;
  readonly sim: HostedEngine;
  readonly controller: MaintenanceTransport;
  readonly shape: TrafficFabricShape;
  /** The traffic run in progress (one at a time), and the command to answer when it ends. */
  traffic: { session: TrafficSession; id: number } | null;
  /** Run up to this cycle, then hold (answering the command); held until resumed. */
  pauseAt: { cycle: number; id: number } | null;
  paused: boolean;
  /** Maintenance requests wait until this cycle, in the order they came. */
  embargoUntil: number;
  held: HostCommand[];
}

/** Cycles per slice before the host yields to its event loop. */
const SLICE_CYCLES = 2_000;

/**
 * Packets in flight below which a traffic run's slice stays on the host's thread rather than
 * handing its parts to the part threads: each slice's hand-over (a window each way) costs about a
 * millisecond on a busy machine, more than a lightly loaded fabric's 2,000 cycles of work. Issue 54:
 * the router-death drill (0.2% load on a 288-processor fabric, some ten packets in flight) ran in
 * 12 s on one thread and had not finished after 5 minutes on two.
 */
const THREADS_MIN_IN_FLIGHT = 1_024;

export class EmulatorHost {
  private readonly fabrics = new Map<number, HostedFabric>();
  private scheduled = false;

  /** Threads a traffic run's parts run on (none: one thread). */
  private readonly partThreads: PartThreads | null;

  constructor(
    private readonly reply: (message: HostReply) => void,
    private readonly defer: (work: () => void) => void = (work) => setImmediate(work),
    /** Threads for a fabric's parts during traffic runs, this one included (see PartThreads). */
    threads = 1,
  ) {
    this.partThreads = threads > 1 ? new PartThreads(threads, THREADS_MIN_IN_FLIGHT) : null;
  }

  handle(command: HostCommand): void {
    try {
      switch (command.type) {
        case 'hello':
          // A fabric process's fencing (fabric-server.ts); nothing for the host itself.
          break;
        case 'attach':
          this.attach(command.fabricId, command.physical, command.attachment, command.seed);
          break;
        case 'detach': {
          const traffic = this.fabrics.get(command.fabricId)?.traffic;
          if (traffic) this.reply({ type: 'error', id: traffic.id, message: `fabric ${command.fabricId} was removed during the traffic run` });
          this.fabrics.delete(command.fabricId);
          break;
        }
        case 'read':
        case 'read-many':
        case 'write':
        case 'write-many':
        case 'write-batch': {
          const hosted = this.fabrics.get(command.fabricId);
          if (!hosted) {
            const result = { ok: false as const, reason: 'rejected' as const, detail: `no emulated fabric ${command.fabricId}`, latencyNs: 0 };
            if (command.type === 'read-many') {
              this.reply({ type: 'results', id: command.id, results: packResults(Array.from({ length: command.routes.offsets.length - 1 }, () => result)) });
            } else if (command.type === 'write-batch') {
              this.reply({ type: 'results', id: command.id, results: packResults(command.writes.map(() => result)) });
            } else this.reply({ type: 'result', id: command.id, result });
            return;
          }
          if (hosted.sim.cycle < hosted.embargoUntil) {
            hosted.held.push(command);
            break;
          }
          if (command.type === 'read-many') {
            // In parts, the service works on a sweep's answers while the rest are still in flight.
            const onPart = command.parts
              ? (from: number, part: readonly MaintenanceResult<RegisterValue>[]) =>
                  this.reply({ type: 'results-part', id: command.id, from, results: packResults(part) })
              : undefined;
            hosted.controller.readMany(unpackRoutes(command.routes), command.register, command.concurrency, onPart).then(
              (results) => this.reply({ type: 'results', id: command.id, results: packResults(command.parts ? [] : results) }),
              (error: unknown) => this.fail(command.id, error),
            );
            break;
          }
          if (command.type === 'write-batch') {
            writeEach(hosted.controller, command.writes, command.concurrency).then(
              (results) => this.reply({ type: 'results', id: command.id, results: packResults(results.map((r) => (r.ok ? { ...r, value: [] } : r))) }),
              (error: unknown) => this.fail(command.id, error),
            );
            break;
          }
          const pending =
            command.type === 'read'
              ? hosted.controller.read(command.route, command.register, command.index)
              : command.type === 'write'
                ? hosted.controller.write(command.route, command.register, command.index, command.value)
                : hosted.controller.writeMany(command.route, command.register, command.indices, command.value);
          pending.then(
            (result) => this.reply({ type: 'result', id: command.id, result }),
            (error: unknown) => this.fail(command.id, error),
          );
          break;
        }
        case 'status':
          this.reply({ type: 'status', id: command.id, fabrics: [...this.fabrics.entries()].map(([id, f]) => this.status(id, f.sim)) });
          break;
        case 'traffic': {
          const hosted = this.fabrics.get(command.fabricId);
          if (!hosted) throw new Error(`no emulated fabric ${command.fabricId}`);
          if (hosted.traffic) throw new Error(`a traffic run is already running on fabric ${command.fabricId}`);
          const problems = validateTrafficRequest(command.request, hosted.shape);
          if (problems.length > 0) throw new Error(`invalid traffic request: ${problems.join('; ')}`);
          hosted.traffic = { session: hosted.sim.startTraffic(command.request, hosted.shape, this.partThreads ?? undefined), id: command.id };
          break;
        }
        case 'traffic-stop': {
          const traffic = this.hosted(command.fabricId).traffic;
          if (!traffic || !isBackgroundSession(traffic.session)) throw new Error(`no background traffic runs on fabric ${command.fabricId}`);
          traffic.session.stop(command.drainLimit);
          this.reply({ type: 'done', id: command.id });
          break;
        }
        case 'mark': {
          const traffic = this.hosted(command.fabricId).traffic;
          if (traffic && isBackgroundSession(traffic.session)) traffic.session.mark(command.label);
          this.reply({ type: 'done', id: command.id });
          break;
        }
        case 'pause-at': {
          const hosted = this.hosted(command.fabricId);
          const cycle = Math.ceil(command.atNs / hosted.sim.nsPerCycle);
          if (cycle <= hosted.sim.cycle) {
            hosted.paused = true;
            this.reply({ type: 'paused', id: command.id, emulatedNs: hosted.sim.cycle * hosted.sim.nsPerCycle });
          } else hosted.pauseAt = { cycle, id: command.id };
          break;
        }
        case 'resume':
          this.hosted(command.fabricId).paused = false;
          this.reply({ type: 'done', id: command.id });
          break;
        case 'embargo': {
          const hosted = this.hosted(command.fabricId);
          hosted.embargoUntil = Math.max(hosted.embargoUntil, Math.ceil(command.untilNs / hosted.sim.nsPerCycle));
          this.reply({ type: 'done', id: command.id });
          break;
        }
        case 'fault': {
          const hosted = this.fabrics.get(command.fabricId);
          if (!hosted) throw new Error(`no emulated fabric ${command.fabricId}`);
          hosted.sim.applyFault(command.fault);
          this.reply({ type: 'done', id: command.id });
          break;
        }
      }
    } catch (error) {
      this.fail('id' in command ? command.id : undefined, error);
    }
    this.schedule();
  }

  /**
   * A new manager's session begins (a fabric process's takeover): what the last manager's session
   * had set going ends with it (issue 54: a manager killed in the middle of a drill left its fabric
   * paused, and the next manager's read-back waited for it forever). Pauses and embargoes are
   * lifted, maintenance requests the last manager left held are dropped — a deposed manager's writes
   * never reach the fabric — and its traffic runs stop (their reports had no one to go to); packets
   * already in the fabric run on to their end.
   */
  newSession(): void {
    for (const hosted of this.fabrics.values()) {
      hosted.paused = false;
      hosted.pauseAt = null;
      hosted.embargoUntil = 0;
      hosted.held.length = 0;
      hosted.traffic = null;
    }
    this.schedule();
  }

  /** A command that could not be done is answered with why; nothing it did stops the host. */
  private fail(id: number | undefined, error: unknown): void {
    this.reply({ type: 'error', id, message: error instanceof Error ? error.message : String(error) });
  }

  /**
   * Powers a fabric up from its physical installation — unless it already runs as the same one (a
   * manager that restarted beside a fabric process attaches its fabrics again): then it keeps
   * running as it is, registers, links and faults, and the manager reconciles by reading it back.
   */
  private attach(fabricId: number, physical: FabricDesign, attachment: string, seed: number): void {
    const installed = installationKey(physical, attachment, seed);
    if (this.fabrics.get(fabricId)?.installed === installed) return;
    const fabric = new EmulatedFabric(physical);
    const model = chipModelOf(fabric);
    const sim = model.build(fabric, seed);
    const controller = model.controller(sim, attachment);
    controller.onInterrupt((interrupt) => this.reply({ type: 'interrupt', fabricId, interrupt }));
    this.fabrics.set(fabricId, {
      installed,
      sim,
      controller,
      shape: FABRIC_FAMILY_MODELS[physical.family].trafficShape(physical.summary),
      traffic: null,
      pauseAt: null,
      paused: false,
      embargoUntil: 0,
      held: [],
    });
  }

  private status(fabricId: number, sim: HostedEngine): FabricStatus {
    return {
      fabricId,
      chips: sim.fabric.chipCount,
      ports: sim.fabric.portCount,
      cycle: sim.cycle,
      nsPerCycle: sim.nsPerCycle,
      emulatedNs: sim.cycle * sim.nsPerCycle,
      books: sim.books(),
    };
  }

  /** Direct access for in-process use (tests, benchmarks). */
  fabric(fabricId: number): HostedFabric | undefined {
    return this.fabrics.get(fabricId);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.defer(() => this.slice());
  }

  /** Runs every busy fabric for one slice, then yields; stops when all are idle. */
  private hosted(fabricId: number): HostedFabric {
    const hosted = this.fabrics.get(fabricId);
    if (!hosted) throw new Error(`no emulated fabric ${fabricId}`);
    return hosted;
  }

  private slice(): void {
    this.scheduled = false;
    let busy = false;
    for (const [fabricId, hosted] of this.fabrics) {
      try {
        if (this.advance(hosted)) busy = true;
      } catch (error) {
        // One fabric gone wrong stops alone: the others, and the host, run on.
        this.fabrics.delete(fabricId);
        const message = `emulated fabric ${fabricId} stopped: ${error instanceof Error ? error.message : String(error)}`;
        for (const id of [hosted.traffic?.id, hosted.pauseAt?.id]) if (id !== undefined) this.fail(id, new Error(message));
        this.fail(undefined, new Error(message));
      }
    }
    if (busy) this.schedule();
  }

  /** One slice of one fabric: whether it has more to do. */
  private advance(hosted: HostedFabric): boolean {
    let busy = false;
    const { sim, traffic } = hosted;
    if (hosted.paused) return false;
    // A pause or the end of an embargo is reached exactly, not somewhere within a slice.
    let budget = SLICE_CYCLES;
    if (hosted.pauseAt) budget = Math.min(budget, hosted.pauseAt.cycle - sim.cycle);
    if (sim.cycle < hosted.embargoUntil) budget = Math.min(budget, hosted.embargoUntil - sim.cycle);
    if (traffic) {
      // Traffic steps the fabric itself, injecting as it goes; maintenance rides along.
      if (traffic.session.advance(budget)) {
        hosted.traffic = null;
        this.reply({ type: 'traffic-report', id: traffic.id, report: traffic.session.report() });
      }
      busy = true;
    } else if (!sim.idle() || hosted.pauseAt || sim.cycle < hosted.embargoUntil) {
      // A fabric waiting for a time (a pause, an embargo) moves on even when idle.
      for (let i = 0; i < budget; i++) sim.step();
      busy = true;
    }
    if (hosted.pauseAt && sim.cycle >= hosted.pauseAt.cycle) {
      hosted.paused = true;
      this.reply({ type: 'paused', id: hosted.pauseAt.id, emulatedNs: sim.cycle * sim.nsPerCycle });
      hosted.pauseAt = null;
    }
    if (hosted.held.length > 0 && sim.cycle >= hosted.embargoUntil) {
      const held = hosted.held.splice(0);
      for (const command of held) this.handle(command);
    }
    return busy;
  }
}

/** A physical installation in a few words and a checksum of its cabling: the same one attached again is known. */
function installationKey(physical: FabricDesign, attachment: string, seed: number): string {
  let sum = 0;
  for (const c of physical.cables) sum = (Math.imul(sum, 31) + c.a.port * 257 + c.b.port + c.a.chip.length * 7 + c.b.chip.length) | 0;
  const chips = physical.chips;
  return [physical.family, chips.length, chips[0]?.name, chips[chips.length - 1]?.name, physical.cables.length, sum, attachment, seed].join('|');
}
