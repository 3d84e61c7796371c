/**
 * Run control of a fabric cut into spatial blocks (issue 56): the torus families' engines (BG/L's
 * nodes, Anton 2's ASICs) keep their events here rather than in a calendar of their own.
 *
 * Each unit (a node, an ASIC) belongs to a block; each block has its own calendar of events
 * (EventWheel), so that a block can run a window of cycles on its own while nothing it does
 * reaches another block within the window (the lookahead: the fastest link between blocks, as
 * BlueGene/L's own simulator cut its torus — paper 002 §3). An instance runs the blocks it owns;
 * an event for a block another thread owns is refused (`add` returns false) and the engine sends it
 * by its outbox with whatever record travels with it (parallel/block-threads.ts).
 *
 * Per slot of the horizon a bit per block says which blocks have events then, so that a run cycle by
 * cycle visits only the busy blocks (`takeDue`) and finds the next busy cycle in one look
 * (`nextBusy`). The engine dispatches the events itself, reading each block's buckets (`wheels`):
 * the calendar is called per event added and per block and cycle run, never per flit.
 */
import { EventWheel, EVENT_INTS } from './event-wheel';

const { clz32 } = Math;
const NONE = -1;

export class BlockCalendar {
  /** The block of each unit. */
  readonly blockOf: Int32Array;
  blocks = 1;
  /** Each block's calendar (an engine reads its buckets: bucket, count). */
  wheels: EventWheel[];
  /** Per block, whether this instance runs it. */
  owned: Uint8Array = new Uint8Array(1).fill(1);
  /** Events added to owned blocks and not yet handled. */
  scheduled = 0;
  /** No far event (beyond the horizon when added) of any block is due before this cycle. */
  farFloor = Infinity;
  /** The present, as events are added: the cycle being run, or the start of the window being run. */
  now = 0;
  /** The block a window is being run for (NONE: none), and the window's end: an event for another block must not fall within it. */
  runningBlock = NONE;
  windowUntil = 0;
  /** The blocks takeDue found busy. */
  readonly due: Int32Array;
  private busy: Uint32Array;
  private words = 1;
  private readonly mask: number;

  constructor(
    units: number,
    readonly horizon: number,
    blocks = 1,
    blockOfUnit: (unit: number) => number = () => 0,
  ) {
    if (horizon < 2 || (horizon & (horizon - 1)) !== 0) throw new RangeError(`the calendar's horizon must be a power of two, got ${horizon}`);
    this.mask = horizon - 1;
    this.blockOf = new Int32Array(units);
    this.due = new Int32Array(Math.max(1, units));
    this.wheels = [];
    this.busy = new Uint32Array(0);
    this.cut(blocks, blockOfUnit);
  }

  /** Cuts the units into `blocks` blocks (`blockOfUnit` of each), of which this instance runs `owned` (all by default). Nothing may be pending. */
  cut(blocks: number, blockOfUnit: (unit: number) => number, owned?: readonly number[]): void {
    if (!(Number.isInteger(blocks) && blocks >= 1 && blocks <= Math.max(1, this.blockOf.length)))
      throw new RangeError(`${this.blockOf.length} units are cut into 1 to ${this.blockOf.length} blocks, got ${blocks}`);
    if (this.scheduled !== 0) throw new Error('a calendar with events pending cannot be cut again');
    for (let unit = 0; unit < this.blockOf.length; unit++) {
      const b = blockOfUnit(unit);
      if (!(Number.isInteger(b) && b >= 0 && b < blocks)) throw new RangeError(`unit ${unit}'s block ${b} is not one of the ${blocks}`);
      this.blockOf[unit] = b;
    }
    this.blocks = blocks;
    this.wheels = Array.from({ length: blocks }, () => new EventWheel(this.horizon));
    this.words = Math.ceil(blocks / 32);
    this.busy = new Uint32Array(this.horizon * this.words);
    this.owned = new Uint8Array(blocks).fill(owned ? 0 : 1);
    for (const b of owned ?? []) {
      if (!(Number.isInteger(b) && b >= 0 && b < blocks)) throw new RangeError(`owned block ${b} is not one of the ${blocks}`);
      this.owned[b] = 1;
    }
    this.farFloor = Infinity;
  }

  /**
   * Schedules an event at cycle `at` on unit `unit`'s block. Returns false, adding nothing, when
   * that block is another instance's: the engine sends the event by its outbox. Throws when a window
   * being run for one block would see an event of another land inside it (the window is longer than
   * the lookahead).
   */
  add(unit: number, at: number, kind: number, a: number, b: number, c: number): boolean {
    const block = this.blockOf[unit];
    if (this.runningBlock !== NONE && block !== this.runningBlock && at < this.windowUntil)
      throw new Error(
        `an event for block ${block} at cycle ${at} falls inside the window ending at ${this.windowUntil}: the window is longer than the lookahead`,
      );
    if (this.owned[block] === 0) return false;
    this.addTo(block, at, kind, a, b, c);
    return true;
  }

  /** Schedules an event on owned block `block` (see add). */
  addTo(block: number, at: number, kind: number, a: number, b: number, c: number): void {
    this.wheels[block].add(this.now, at, kind, a, b, c);
    this.scheduled++;
    // Beyond the horizon it waits among the wheel's far events (see farFloor).
    if (at - this.now < this.horizon) this.busy[(at & this.mask) * this.words + (block >> 5)] |= 1 << (block & 31);
    else if (at < this.farFloor) this.farFloor = at;
  }

  /**
   * The blocks with events at cycle t, in block order, into `due` (returns how many); their bits for
   * t go. Far events due at t join their buckets first. Run cycle by cycle: every block is at t.
   */
  takeDue(t: number): number {
    const wheels = this.wheels;
    const words = this.words;
    if (this.farFloor <= t) {
      let floor = Infinity;
      for (let b = 0; b < wheels.length; b++) {
        if (wheels[b].firstFar <= t && wheels[b].count(t) > 0) this.busy[(t & this.mask) * words + (b >> 5)] |= 1 << (b & 31);
        if (wheels[b].firstFar < floor) floor = wheels[b].firstFar;
      }
      this.farFloor = floor;
    }
    const base = (t & this.mask) * words;
    const due = this.due;
    let n = 0;
    for (let w = 0; w < words; w++) {
      for (let bits = this.busy[base + w]; bits !== 0; bits &= bits - 1) due[n++] = (w << 5) | (31 - clz32(bits & -bits));
      this.busy[base + w] = 0;
    }
    return n;
  }

  /** Block b's events of cycle t are handled: its bucket empties, its bit for t goes. */
  finish(b: number, t: number): void {
    const wheel = this.wheels[b];
    this.scheduled -= wheel.count(t) / EVENT_INTS;
    wheel.clear(t);
    this.busy[(t & this.mask) * this.words + (b >> 5)] &= ~(1 << (b & 31));
  }

  /** A window's runs are over: far events may have come and gone, so the floor is looked up again. */
  windowDone(): void {
    this.runningBlock = NONE;
    this.windowUntil = 0;
    this.farFloor = this.firstFar();
  }

  /** Nothing is left to happen in any block this instance runs. */
  get quiet(): boolean {
    return this.scheduled === 0;
  }

  /** Whether some block has bucketed events at cycle t's slot (every block's calendar at t). */
  private busyAt(t: number): boolean {
    const base = (t & this.mask) * this.words;
    for (let w = 0; w < this.words; w++) if (this.busy[base + w] !== 0) return true;
    return false;
  }

  /** Whether no block has anything at cycle t. */
  nothingAt(t: number): boolean {
    return !this.busyAt(t) && this.farFloor > t;
  }

  /** The first cycle from `from` before `until` at which some block has an event, or `until`. */
  nextBusy(from: number, until: number): number {
    const far = this.farFloor;
    const end = until < far ? until : far < from ? from : far;
    const last = end < from + this.horizon ? end : from + this.horizon;
    for (let c = from; c < last; c++) if (this.busyAt(c)) return c;
    return end;
  }

  /** The first far event of any block (Infinity: none). */
  firstFar(): number {
    let far = Infinity;
    for (const wheel of this.wheels) if (wheel.firstFar < far) far = wheel.firstFar;
    return far;
  }
}
