/**
 * The only door between the control plane and a fabric (DESIGN.md): source-routed maintenance
 * reads and writes of chip registers (paper 000 §4.1, the `r` bit), and interrupts out. The
 * emulator implements it; a driver for real hardware would implement it the same way.
 */

/** A path from the maintenance controller's attachment point: the output port taken at each hop. */
export type SourceRoute = readonly number[];

export type MaintenanceResult<T> = { ok: true; value: T } | { ok: false; reason: 'timeout' | 'no-such-register' | 'rejected'; detail: string };

export interface InterruptRecord {
  readonly kind: string;
  readonly emulatedTimeNs: number;
  /** Route to the chip that raised it. */
  readonly route: SourceRoute;
  readonly port?: number;
  readonly vc?: number;
  readonly lane?: number;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface MaintenanceTransport {
  /** Reads a register of the chip at the end of `route`; times out when no chip answers. */
  read(route: SourceRoute, register: string): Promise<MaintenanceResult<number | readonly number[]>>;
  /** Writes a register of the chip at the end of `route`. */
  write(route: SourceRoute, register: string, value: number | readonly number[]): Promise<MaintenanceResult<void>>;
  /** Delivers interrupts raised by chips to the maintenance controller. */
  onInterrupt(listener: (interrupt: InterruptRecord) => void): () => void;
}
