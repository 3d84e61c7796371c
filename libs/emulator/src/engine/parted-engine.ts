/**
 * Run control of a cycle-level fabric engine (issue 35, capability 2): the fabric's numbering of
 * routers and endpoints, its independent parts and each part's own world (PartWorld), the cycle —
 * one at a time (`step`) or the parts apart in windows (`runWindowed`, `runPart`, and on threads
 * through parallel/part-threads.ts) — the books, interrupts, and the state handed between threads.
 *
 * It knows nothing of links or chips. Each cycle it fires a part's due events and evaluates its
 * awake stages through two calls a chip model makes (`fireEvents`, `evaluate`): once per part and
 * cycle, never per phit. The link layer (link-engine.ts) builds on it, and a chip model
 * (yarc/yarc-fabric-sim.ts) on that.
 */
import type { InterruptKind } from '@weft/fabric-model';
import type { EmulatedFabric } from '../emulated-fabric';
import type { DeliveryListener, InterruptListener } from './fabric-engine';
import { FabricPackets } from './fabric-packets';
import { PacketQueues, PacketStore } from './packet-store';
import { BufferQueues, MAX_PACKET_PHITS, SegmentPool } from './segment-pool';
import { shared, sharedFrom } from './shared-memory';
import { exportState, importState, SharedState, walkedState } from './shared-state';
import type { StageQueue } from './stage-queue';
import { TimingWheel } from './timing-wheel';

// Module constants, not global look-ups in the hot code (see link-engine.ts).
const { max, min } = Math;

/** Phases of a cycle: PHASE_EVENTS outside the stages' evaluation; a chip model numbers its stages' phases from 1. */
export const PHASE_EVENTS = 0;

/** Int32s per drain-record slot (see LinkEngine.drainPairs): a pair per phit. */
export const DRAIN_SLOT_INTS = 2 * MAX_PACKET_PHITS;

export abstract class PartedEngine {
  /** The packets of every part, as the rest of the emulator sees them (handles, the books). */
  readonly packets: FabricPackets;
  /**
   * Each part's own packets, buffer entries, drain records and counters (PartWorld): a part run on
   * a thread of its own allocates from nothing another part uses. `world`, `store` and `pool` are
   * the bound part's (see bind): the stages of a part touch only its own packets, so the hot code
   * reads them from fields as it would a fabric's single store.
   */
  protected readonly worlds: PartWorld[];
  protected world!: PartWorld;
  protected store!: PacketStore;
  pool!: SegmentPool;
  /** The bound part's drain records (see LinkEngine.drainPairs). */
  protected drainPairs!: Int32Array;
  /** The part bound (see bind). */
  protected bound = -1;
  cycle = 0;

  /** Dense router and endpoint numbering over the fabric's chips. */
  readonly routerChip: Int32Array;
  readonly chipRouter: Int32Array;
  readonly endpointChip: Int32Array;
  readonly chipEndpoint: Int32Array;
  /** Where in a cycle the evaluation is (PHASE_EVENTS: outside the stages), for the stage queues' wakes. */
  protected phase = PHASE_EVENTS;
  /** Each port's part (an endpoint's port goes with its router): see independentParts. */
  protected readonly linkPart: Uint8Array;

  /** Per router, its part (see independentParts). */
  protected readonly routerPart: Uint8Array;
  /** Per part: the events timed ahead (the link layer's credit returns), each part on its own wheel. */
  protected readonly wheels: TimingWheel[];
  /** Cycles ahead anything is timed: the wheels' and the stage queues' horizon. */
  protected readonly horizon: number;
  /** Every stage queue of the engine, in evaluation order (for idle and the threads' hand-over). */
  protected readonly stages: StageQueue[] = [];
  /** The queues whose entries, or packets, are the bound part's (see bind). */
  protected readonly boundQueues: BufferQueues[] = [];
  protected readonly boundSources: PacketQueues[] = [];

  constructor(
    readonly fabric: EmulatedFabric,
    readonly seed: number,
    horizon: number,
  ) {
    const chips = fabric.design.chips;
    const routers: number[] = [];
    const endpoints: number[] = [];
    chips.forEach((c, i) => (c.kind === 'router' ? routers : endpoints).push(i));
    this.routerChip = sharedFrom(Int32Array, routers);
    this.endpointChip = sharedFrom(Int32Array, endpoints);
    this.chipRouter = shared(Int32Array, chips.length).fill(-1);
    this.chipEndpoint = shared(Int32Array, chips.length).fill(-1);
    routers.forEach((c, r) => (this.chipRouter[c] = r));
    endpoints.forEach((c, e) => (this.chipEndpoint[c] = e));

    const { routerPart, parts } = independentParts(fabric, this.routerChip, this.chipRouter);
    this.routerPart = routerPart;
    this.worlds = Array.from({ length: parts }, () => new PartWorld());
    this.packets = new FabricPackets(this.worlds.map((w) => w.packets));
    const ports = fabric.portCount;
    this.linkPart = shared(Uint8Array, ports);
    for (let c = 0; c < chips.length; c++) {
      for (let g = fabric.portBase[c]; g < fabric.portBase[c + 1]; g++) {
        // An endpoint's port goes with the router it is cabled to.
        const peer = fabric.peer[g];
        const r = this.chipRouter[c] >= 0 ? this.chipRouter[c] : peer >= 0 ? this.chipRouter[fabric.portOwner(peer)] : -1;
        this.linkPart[g] = r >= 0 ? routerPart[r] : 0;
      }
    }
    this.horizon = horizon;
    this.wheels = Array.from({ length: parts }, () => new TimingWheel(horizon));
    this.partDoneAt = shared(Float64Array, parts);
  }

  /** Part p's events due at cycle `now`: its timed events, and its stages' wake-ups. */
  protected abstract fireEvents(p: number, now: number): void;
  /** Evaluates part p's awake stages in cycle `now`; the part is bound. */
  protected abstract evaluate(p: number, now: number): void;
  /** What acts on the whole fabric at the start of cycle `now`, after the events and before the parts. */
  protected abstract beforeParts(now: number): void;
  /** The reference evaluation (everyStageEveryCycle): wakes every stage for cycle `now`. */
  protected abstract wakeEveryStage(now: number): void;
  /** Whether something acts across the parts now (they must then run cycle by cycle, together). */
  protected abstract actsAcrossParts(): boolean;
  /** Nothing pending beyond packets, stage wake-ups and timed events. */
  protected abstract quiet(): boolean;

  /**
   * Reference mode: every stage is visited every cycle, as a plain cycle-by-cycle loop would do.
   * The event-driven evaluation skips the visits that cannot move anything; it must give the same
   * result, and a test holds it to that. Slow: for checking, not for running fabrics.
   */
  everyStageEveryCycle = false;

  /** Phits moved across links (a phit entering a router or an endpoint is one phit-hop). */
  get phitHops(): number {
    let n = 0;
    for (const world of this.worlds) n += world.phitHops;
    return n;
  }

  /** Copies replayed by go-back-N after a bad CRC. */
  get retransmissions(): number {
    let n = 0;
    for (const world of this.worlds) n += world.retransmissions;
    return n;
  }
  onInterrupt: InterruptListener = () => undefined;
  onDeliver: DeliveryListener = () => undefined;

  /** Binds part p's world: the store, pool and drain records its stages use. */
  protected bind(p: number): void {
    if (p === this.bound) return;
    const world = this.worlds[p];
    this.bound = p;
    this.world = world;
    this.store = world.packets;
    this.pool = world.pool;
    this.drainPairs = world.drainPairs;
    for (const queues of this.boundQueues) queues.pool = world.pool;
    for (const queues of this.boundSources) queues.packets = world.packets;
  }

  /** Raises an interrupt; the bound part stays bound whatever the sink does. */
  protected interrupt(kind: InterruptKind, cycle: number, chip: number, port: number, vc: number, details?: Record<string, unknown>): void {
    const part = this.bound;
    this.onInterrupt(kind, cycle, chip, port, vc, details);
    this.bind(part);
  }

  /** The handle (FabricPackets) of the bound part's packet `id`. */
  protected handleOf(id: number): number {
    return this.packets.handle(this.bound, id);
  }

  // ---------------------------------------------------------------- threads (parallel/part-threads.ts)
  /** The whole fabric's state, for a thread that built the same fabric to take over. */
  sharedState(): SharedState {
    return exportState(this);
  }

  adoptSharedState(state: SharedState): void {
    importState(this, state);
    this.rebind();
  }

  /** What part p's run changed that is not in shared memory, or was moved in it (grown). */
  partState(p: number): SharedState {
    return {
      world: exportState(this.worlds[p]),
      wheel: exportState(this.wheels[p]),
      stages: this.stages.map((stages) => stages.partState(p)),
    };
  }

  adoptPartState(p: number, state: SharedState): void {
    importState(this.worlds[p], state.world as SharedState);
    importState(this.wheels[p], state.wheel as SharedState);
    const stages = state.stages as SharedState[];
    this.stages.forEach((queue, k) => queue.adoptPartState(p, stages[k]));
    this.rebind();
  }

  /** The parts have all run up to `cycle` (each on its own, see runPart). */
  advanceTo(cycle: number): void {
    this.cycle = cycle;
  }

  /** Binds the bound part afresh (its world's fields may have been replaced). */
  protected rebind(): void {
    const part = max(0, this.bound);
    this.bound = -1;
    this.bind(part);
  }

  // ---------------------------------------------------------------- the cycle
  /** Advances the fabric by `cycles` cycles. */
  run(cycles: number): void {
    for (let i = 0; i < cycles; i++) this.step();
  }

  /** How many independent parts the fabric has (see independentParts). */
  get parts(): number {
    return this.wheels.length;
  }

  /** Port g's part; 0 for no port (g < 0), whose packets are discarded as they are made. */
  partOfPort(g: number): number {
    return g >= 0 ? this.linkPart[g] : 0;
  }

  isRouter(chip: number): boolean {
    return this.chipRouter[chip] >= 0;
  }

  /**
   * Runs `cycles` cycles with the same result as cycle by cycle, but the fabric's independent
   * parts (BlackWidow's four slices) one after another, each for up to `window` cycles on end: a
   * part's state then stays in the cache while it runs, where a cycle of the whole fabric sweeps
   * more state than the cache holds. `beforeCycle(part, cycle)` is called just before a part
   * evaluates a cycle, to inject that cycle's traffic into the part's ports (injecting into another
   * part's port then is an error). Deliveries are reported part by part, so their cycles go back
   * as each part's window starts.
   *
   * With `partDone`, the run ends early, after the first cycle at whose end `partDone(part)` holds
   * for every part — the cycle a loop of `step()` that asked after each cycle would end in. A part
   * is asked after each of its cycles, and must stay done once it is (a drained sample: nothing
   * labelled in flight, and nothing labelled made any more). Returns the cycles run.
   *
   * Where something acts across the parts (see partsIndependent), it runs cycle by cycle, calling
   * beforeCycle for every part before each cycle.
   *
   * Should `beforeCycle` or `partDone` throw, the parts are left at different cycles, which no
   * later cycle can mend: the fabric then refuses to run on (see `skewed`).
   */
  runWindowed(cycles: number, window: number, beforeCycle: (part: number, cycle: number) => void, partDone?: (part: number) => boolean): number {
    if (!(Number.isInteger(window) && window >= 1)) throw new RangeError(`window must be a whole number of cycles, at least 1: got ${window}`);
    this.checkNotSkewed();
    const start = this.cycle;
    const end = start + cycles;
    const parts = this.wheels.length;
    const doneAt = this.partDoneAt;
    while (this.cycle < end) {
      const from = this.cycle;
      if (!this.partsIndependent()) {
        for (let p = 0; p < parts; p++) beforeCycle(p, from);
        this.step();
        if (partDone !== undefined && this.allParts(partDone)) break;
        continue;
      }
      const until = min(end, from + window);
      let all = partDone !== undefined;
      this.windowCycles = 0;
      try {
        for (let p = 0; p < parts; p++) {
          doneAt[p] = this.runPart(p, from, until, beforeCycle, partDone);
          if (doneAt[p] < 0) all = false;
        }
        // Every part done: the run ends with the last of them; the others catch up to it. Else
        // the parts that were done early run on to the end of the window.
        let last = from;
        if (all) for (let p = 0; p < parts; p++) last = max(last, doneAt[p]);
        for (let p = 0; p < parts; p++) if (doneAt[p] >= 0 && doneAt[p] < (all ? last : until)) this.runPart(p, doneAt[p], all ? last : until, beforeCycle);
        this.cycle = all ? last : until;
      } catch (error) {
        // Nothing has run yet if the first part's first cycle threw: the fabric is as it was.
        if (this.windowCycles > 0) this.skewed = error instanceof Error ? error.message : String(error);
        this.cycle = from;
        throw error;
      }
      if (all) break;
    }
    return this.cycle - start;
  }

  /** Runs part p from cycle `from` up to `until`; with `partDone`, stops after the first cycle at
   * whose end the part is done and returns the cycle it stopped at (-1: not done). */
  runPart(p: number, from: number, until: number, beforeCycle: (part: number, cycle: number) => void, partDone?: (part: number) => boolean): number {
    this.windowPart = p;
    this.bind(p);
    try {
      for (let t = from; t < until; t++) {
        this.cycle = t;
        beforeCycle(p, t);
        this.fireEvents(p, t);
        this.evaluate(p, t);
        this.windowCycles++;
        if (partDone !== undefined && partDone(p)) return t + 1;
      }
      return -1;
    } finally {
      // Outside a part's run, a packet may be injected anywhere.
      this.windowPart = -1;
    }
  }

  protected allParts(test: (part: number) => boolean): boolean {
    for (let p = 0; p < this.wheels.length; p++) if (!test(p)) return false;
    return true;
  }

  /** Part-cycles run in runWindowed's current window. */
  protected windowCycles = 0;

  /** Per part, the cycle runWindowed found it done at (-1: not yet). */
  private readonly partDoneAt: Float64Array;

  /**
   * Set when an error in runWindowed's callbacks left the parts at different cycles: the error's
   * message. The fabric refuses to run on from such a state (it would go on with some parts ahead
   * of the others); it has to be built again.
   */
  skewed: string | null = null;

  protected checkNotSkewed(): void {
    if (this.skewed !== null)
      throw new Error(
        `the fabric's parts were left at different cycles by an error during runWindowed (${this.skewed}); it cannot run on and must be built again`,
      );
  }

  /** The part runWindowed is running on its own (-1: none). */
  protected windowPart = -1;

  /**
   * Whether the parts can run apart: nothing acts across them within a cycle — a maintenance
   * controller's per-cycle tick, maintenance packets and the chips' work on them, the reference
   * evaluation. (Bit and soft errors do not: each is drawn for its own port and cycle.)
   */
  partsIndependent(): boolean {
    return !this.everyStageEveryCycle && !this.actsAcrossParts();
  }

  /** Nothing in flight, nothing being executed, no credit or timer pending. */
  idle(): boolean {
    let wakeUps = 0;
    for (const stages of this.stages) wakeUps += stages.pending;
    for (const wheel of this.wheels) wakeUps += wheel.pending;
    return this.packets.inFlight === 0 && wakeUps === 0 && this.quiet();
  }

  /** Runs until nothing is in flight or `limit` cycles have passed; returns the cycles run. */
  drain(limit: number): number {
    const start = this.cycle;
    while (this.packets.inFlight > 0 && this.cycle - start < limit) this.step();
    return this.cycle - start;
  }

  /**
   * One cycle. Due events fire first (credit returns, wake-ups); then the stages that are awake,
   * downstream first — output links (and endpoints), column channels, row buses — so that room a
   * stage makes in its input buffer this cycle is seen by the stage feeding it this cycle, and a
   * phit moves through at most one stage per cycle. Links deliver into the future, so routers
   * never see each other's same-cycle state.
   *
   * A stage that wins arbitration moves a run: the consecutive phits of one packet that are
   * usable one per cycle from now on and fit downstream, each recorded with its own send time —
   * what the cycle-by-cycle machine would do over those cycles, since the stage is held by that
   * packet (wormhole; VCT on links) and nothing else can fill the room it reserved. The run stops
   * at the first phit that would not be there in time, leaving the stage free for the other VC.
   */
  step(): void {
    if (this.skewed !== null) this.checkNotSkewed();
    const now = this.cycle;
    this.phase = PHASE_EVENTS;
    const { wheels } = this;
    for (let p = 0; p < wheels.length; p++) {
      this.bind(p);
      this.fireEvents(p, now);
    }
    this.beforeParts(now);
    if (this.everyStageEveryCycle) this.wakeEveryStage(now);
    // The parts never act on each other within a cycle: each is evaluated on its own.
    for (let p = 0; p < wheels.length; p++) {
      this.bind(p);
      this.evaluate(p, now);
    }
    this.phase = PHASE_EVENTS;
    this.cycle = now + 1;
  }

  /** Bytes held in typed arrays by the fabric's state (registers, buffers, pools, links). */
  arrayBytes(): number {
    const seen = new Set<unknown>();
    const sum = (value: unknown, depth: number): number => {
      if (value === null || typeof value !== 'object' || seen.has(value)) return 0;
      seen.add(value);
      if (ArrayBuffer.isView(value)) {
        // Records are read through two views of one buffer: count the buffer once.
        if (seen.has(value.buffer)) return 0;
        seen.add(value.buffer);
        return value.byteLength;
      }
      if (depth > 2) return 0;
      let total = 0;
      for (const field of Object.values(value)) total += sum(field, depth + 1);
      return total;
    };
    return sum(this, 0);
  }
}

/** Parts beyond this many share the last: a part may hold several independent networks. */
const MAX_PARTS = 64;

/**
 * The fabric's independent networks: routers joined by cables, whatever the cables' state, are in
 * one part (BlackWidow's four network slices are four parts, paper 000 §2.2). Nothing in one part
 * can act on another, so each can be evaluated on its own. The endpoints' ports join no parts
 * together: each goes with the router it is cabled to.
 */
function independentParts(fabric: EmulatedFabric, routerChip: Int32Array, chipRouter: Int32Array): { routerPart: Uint8Array; parts: number } {
  const routers = routerChip.length;
  const root = Int32Array.from({ length: routers }, (_, r) => r);
  const find = (r: number): number => {
    while (root[r] !== r) r = root[r] = root[root[r]];
    return r;
  };
  for (let r = 0; r < routers; r++) {
    const c = routerChip[r];
    for (let g = fabric.portBase[c]; g < fabric.portBase[c + 1]; g++) {
      const peer = fabric.peer[g];
      const other = peer >= 0 ? chipRouter[fabric.portOwner(peer)] : -1;
      if (other >= 0) root[find(other)] = find(r);
    }
  }
  const routerPart = shared(Uint8Array, routers);
  const partOfRoot = new Map<number, number>();
  for (let r = 0; r < routers; r++) {
    const top = find(r);
    if (!partOfRoot.has(top)) partOfRoot.set(top, min(partOfRoot.size, MAX_PARTS - 1));
    routerPart[r] = partOfRoot.get(top)!;
  }
  return { routerPart, parts: max(1, min(partOfRoot.size, MAX_PARTS)) };
}

/**
 * What one independent part of the fabric allocates and counts on its own: its packets, its buffer
 * entries, its links' drain records (see LinkEngine.drainPairs) and its counters. Nothing of one
 * part's world is touched while another part runs, so the parts can run apart — in windows, or on
 * threads.
 */
export class PartWorld {
  readonly packets = new PacketStore(4096);
  readonly pool = new SegmentPool(8192, this.packets);
  drainPairs = shared(Int32Array, 4 * DRAIN_SLOT_INTS);
  drainOwner = shared(Int32Array, 4).fill(-1);
  drainNext = 0;
  phitHops = 0;
  retransmissions = 0;
  /** Why a packet routed to a discard port is discarded (a chip's routing errors), by packet id. */
  readonly routeErrors = new Map<number, number>();
}

walkedState(PartWorld);
walkedState(PartedEngine, [
  // The part bound, and what the binding put in fields (see bind).
  'bound',
  'world',
  'store',
  'pool',
  'drainPairs',
  // The thread's own run: where in a cycle and a window it is.
  'phase',
  'windowPart',
  'windowCycles',
  'skewed',
  // The handles' view, and lists of queues held in fields of their own as well.
  'packets',
  'stages',
  'boundQueues',
  'boundSources',
]);
