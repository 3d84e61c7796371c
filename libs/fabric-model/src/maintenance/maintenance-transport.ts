/**
 * The only door between the control plane and a fabric (DESIGN.md): source-routed maintenance
 * reads and writes of chip registers (paper 000 §4.1, the `r` bit), and interrupts out. The
 * emulator implements it; a driver for real hardware would implement it the same way. It lives
 * here, where both sides import it without importing each other: the door belongs to neither room.
 */

/**
 * A path from the maintenance controller: the controller's own port to leave by (on BlackWidow,
 * the processor's injection port, i.e. the slice), then the output port taken at each router. The
 * chip reached when the list runs out answers.
 */
export type SourceRoute = readonly number[];

export type RegisterValue = readonly number[];

export type MaintenanceFailure = 'timeout' | 'no-such-register' | 'rejected';

export type MaintenanceResult<T> = { ok: true; value: T; latencyNs: number } | { ok: false; reason: MaintenanceFailure; detail: string; latencyNs: number };

/**
 * What a chip raises to the maintenance controller (paper 000 §7.7, §4.3): a typed union, so that
 * every consumer handles every kind (`unhandledInterrupt` ends their switches) — a kind added for a
 * new chip cannot be passed over unnoticed.
 */
export const INTERRUPT_KINDS = ['FORWARD_PROGRESS_TIMEOUT', 'LANE_DECOMMISSIONED', 'LINK_DOWN', 'LINK_UP', 'SOFT_ERROR', 'CONFIGURATION_ERROR'] as const;
export type InterruptKind = (typeof INTERRUPT_KINDS)[number];

/** Closes an exhaustive switch over interrupt kinds: a kind without a case does not compile. */
export function unhandledInterrupt(kind: never): never {
  throw new Error(`an interrupt of kind ${String(kind)} has no handling`);
}

export interface InterruptRecord {
  readonly kind: InterruptKind;
  readonly emulatedTimeNs: number;
  /** The chip that raised it, by its identity register (serial number). */
  readonly serial: number;
  readonly port?: number;
  readonly vc?: number;
  readonly lane?: number;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** One write of a batch (MaintenanceTransport.writeBatch). */
export interface BatchedWrite {
  readonly route: SourceRoute;
  readonly register: string;
  readonly indices: readonly number[];
  readonly value: RegisterValue;
  /** Written whole at index 0, as `write` does, rather than to each of `indices`. */
  readonly whole?: boolean;
}

/** Makes a batch's writes one at a time through `transport`, `concurrency` outstanding (what writeBatch does where a transport has no batches). */
export async function writeEach(transport: MaintenanceTransport, writes: readonly BatchedWrite[], concurrency: number): Promise<MaintenanceResult<void>[]> {
  const results = new Array<MaintenanceResult<void>>(writes.length);
  let next = 0;
  const worker = async () => {
    while (next < writes.length) {
      const k = next++;
      const w = writes[k];
      results[k] = await (w.whole ? transport.write(w.route, w.register, 0, w.value) : transport.writeMany(w.route, w.register, w.indices, w.value));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, writes.length) }, worker));
  return results;
}

export interface MaintenanceTransport {
  /** Reads register `register[index]` of the chip at the end of `route`; times out when no chip answers. */
  read(route: SourceRoute, register: string, index?: number): Promise<MaintenanceResult<RegisterValue>>;
  /**
   * Reads register `register[0]` of the chip at the end of each route, with up to `concurrency`
   * requests outstanding (the next one is sent as each is answered), and resolves with the results
   * in route order. A sweep of a large fabric makes hundreds of thousands of reads; as one call
   * they cost the caller one promise, and a transport across a thread boundary one message each way.
   * With `onPart`, results are also handed over in parts as they come — each part the results of
   * the routes from `from` on, once they and every earlier one are answered, in order — so that
   * the caller can work on them while the rest are still in flight.
   */
  readMany(
    routes: readonly SourceRoute[],
    register: string,
    concurrency: number,
    onPart?: (from: number, results: readonly MaintenanceResult<RegisterValue>[]) => void,
  ): Promise<MaintenanceResult<RegisterValue>[]>;
  /** Writes register `register[index]` of the chip at the end of `route`. */
  write(route: SourceRoute, register: string, index: number, value: RegisterValue): Promise<MaintenanceResult<void>>;
  /** Writes one value to several indices of a register in a single packet (e.g. the same routing
   * register in every tile of a virtual router). */
  writeMany(route: SourceRoute, register: string, indices: readonly number[], value: RegisterValue): Promise<MaintenanceResult<void>>;
  /**
   * Register writes to any chips as one request (issue 55: a reaction's push writes every ASIC of a
   * 4,096-ASIC torus): each made as `write` (whole: `register[0]`) or `writeMany` would make it, up
   * to `concurrency` outstanding on the maintenance network, the results in order. Optional: where a
   * transport has none, the writes go one call each.
   */
  writeBatch?(writes: readonly BatchedWrite[], concurrency: number): Promise<MaintenanceResult<void>[]>;
  /** Delivers interrupts raised by chips to the maintenance controller. */
  onInterrupt(listener: (interrupt: InterruptRecord) => void): () => void;
}
