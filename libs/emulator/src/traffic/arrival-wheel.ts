import type { RandomStreams } from '@weft/fabric-model';
import { shared } from '../engine/shared-memory';

// Read once: a global looked up per packet is slow under the test runner's proxied global object (random.ts).
const { floor, log, min } = Math;

export interface ArrivalWheelState {
  readonly first: Int32Array;
  readonly last: Int32Array;
  readonly nextPort: Int32Array;
  readonly next: Float64Array;
}

/** Slots of an arrival wheel: a port whose next packet is further ahead waits in the last slot
 * and is put back when it comes round. */
const SLOTS = 4096;
const MASK = SLOTS - 1;

/**
 * Bernoulli arrivals, drawn as geometric gaps: each injection port draws the cycle of its next
 * packet and waits on a wheel, so that a lightly loaded fabric does not pay a random draw per
 * port per cycle (a fabric of 288 processors has 1152 of them). Ports belong to parts — a
 * fabric's independent networks (PartedEngine.runWindowed) — and each part has its own wheel and
 * its own stream, so that a part's arrivals can be made while it runs apart from the others and
 * are the same whichever way the parts are run.
 */
export class ArrivalWheel {
  /** Per part and slot (part * SLOTS + slot), the first and last port due there (-1: none): each
   * slot is a list threaded through `nextPort`, in the order the ports were scheduled. A port waits
   * in one slot at a time, so the lists need no storage of their own. */
  private readonly first: Int32Array;
  private readonly last: Int32Array;
  private readonly nextPort: Int32Array;
  /** Each port's next arrival. */
  private readonly next: Float64Array;
  /** log(1 - probability): the geometric gap's divisor, the same for every draw. */
  private readonly logMiss: number;

  constructor(
    /** The chance that a port sends a packet in any one cycle: in (0, 1]. */
    private readonly probability: number,
    /** Each port's part. */
    private readonly partOfPort: Uint8Array,
    /** Each part's random stream (stream p for part p). */
    private readonly streams: RandomStreams,
    now: number,
    /** The state of a wheel made before (the same probability, ports and streams), taken over as
     * it stands: another thread's view of the same wheel, over the same shared memory. */
    state?: ArrivalWheelState,
  ) {
    if (!(probability > 0 && probability <= 1)) throw new RangeError(`the chance of an arrival per cycle must be in (0, 1], got ${probability}`);
    for (let k = 0; k < partOfPort.length; k++)
      if (partOfPort[k] >= streams.count)
        throw new RangeError(`port ${k} is in part ${partOfPort[k]}, but there are random streams for ${streams.count} parts`);
    this.logMiss = log(1 - probability);
    if (state) {
      ({ first: this.first, last: this.last, nextPort: this.nextPort, next: this.next } = state);
      return;
    }
    this.first = shared(Int32Array, streams.count * SLOTS).fill(-1);
    this.last = shared(Int32Array, streams.count * SLOTS).fill(-1);
    this.nextPort = shared(Int32Array, partOfPort.length).fill(-1);
    this.next = shared(Float64Array, partOfPort.length);
    for (let k = 0; k < partOfPort.length; k++) this.schedule(k, now, now + this.gap(partOfPort[k]) - 1);
  }

  /** The wheel's state, in shared memory (see the constructor's `state`). */
  get state(): ArrivalWheelState {
    return { first: this.first, last: this.last, nextPort: this.nextPort, next: this.next };
  }

  /**
   * Calls `arrive(port)` for each port of part `part` whose packet is due at cycle `now`, in the
   * order they were scheduled; each then draws the gap to its next (after `arrive`, which may draw
   * on the same stream). Called once per part and cycle, in cycle order.
   */
  due(part: number, now: number, arrive: (port: number) => void): void {
    const slot = part * SLOTS + (now & MASK);
    let k = this.first[slot];
    if (k < 0) return;
    this.first[slot] = -1;
    this.last[slot] = -1;
    // A port is put back into a later slot (never this one: its next arrival is at least a cycle
    // away, and one beyond the wheel waits in the slot before this), so the list is read as it goes.
    while (k >= 0) {
      const following = this.nextPort[k];
      this.nextPort[k] = -1;
      if (this.next[k] > now) this.schedule(k, now, this.next[k]);
      else {
        arrive(k);
        this.schedule(k, now, now + this.gap(part));
      }
      k = following;
    }
  }

  /**
   * The first cycle from `from` (before `until`) at which part `part` has a port to look at (due
   * would find one in its slot), or `until`: a fabric with nothing else to do may skip to it.
   */
  nextBusy(part: number, from: number, until: number): number {
    const base = part * SLOTS;
    for (let c = from; c < until; c++) if (this.first[base + (c & MASK)] >= 0) return c;
    return until;
  }

  /** Cycles until a port of part `part` sends its next packet: geometric, at least 1. */
  private gap(part: number): number {
    if (this.probability >= 1) return 1;
    return 1 + floor(log(1 - this.streams.draw(part)) / this.logMiss);
  }

  private schedule(port: number, now: number, at: number): void {
    this.next[port] = at;
    const slot = this.partOfPort[port] * SLOTS + (min(at, now + SLOTS - 1) & MASK);
    const tail = this.last[slot];
    if (tail < 0) this.first[slot] = port;
    else this.nextPort[tail] = port;
    this.last[slot] = port;
  }
}
