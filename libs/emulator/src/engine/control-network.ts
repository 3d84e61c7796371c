/**
 * What an out-of-band control network's maintenance controller (BG/L's JTAG, Anton 2's) has in
 * common, whatever the chip: each chip's serial number (its identity register), the chip model's
 * interrupts passed on to the control plane's listeners with the serial of the chip that raised
 * them, and the transport's calls, answered at once from the emulated chips — a family's
 * controller says only how an address finds a chip and what its registers are.
 */
import type { InterruptKind, InterruptRecord, MaintenanceResult, MaintenanceTransport, RegisterValue, SourceRoute } from '@weft/fabric-model';
import { chipSerial } from './maintenance-message';

/** What the controller needs of a chip model: its chips' names, its clock, and its interrupt hook. */
export interface InterruptingModel {
  readonly fabric: { readonly chipNames: readonly string[] };
  readonly nsPerCycle: number;
  onInterrupt: (kind: InterruptKind, cycle: number, node: number, port: number, vc: number, details?: Record<string, unknown>) => void;
}

export abstract class ControlNetworkController implements MaintenanceTransport {
  protected readonly serials: Int32Array;
  private readonly listeners = new Set<(interrupt: InterruptRecord) => void>();

  constructor(chips: InterruptingModel) {
    this.serials = Int32Array.from(chips.fabric.chipNames, (name) => chipSerial(name) | 0);
    const previous = chips.onInterrupt;
    chips.onInterrupt = (kind, cycle, node, port, vc, details) => {
      previous(kind, cycle, node, port, vc, details);
      const record: InterruptRecord = {
        kind,
        emulatedTimeNs: cycle * chips.nsPerCycle,
        serial: node >= 0 ? this.serials[node] >>> 0 : 0,
        port,
        vc,
        ...(details ? { details } : {}),
      };
      for (const listener of this.listeners) listener(record);
    };
  }

  /** One register read of the chip a route addresses. */
  protected abstract readNow(route: SourceRoute, register: string, index: number): MaintenanceResult<RegisterValue>;
  /** One register write at the given indices (a whole register ignores them). */
  protected abstract writeNow(route: SourceRoute, register: string, indices: readonly number[], value: RegisterValue): MaintenanceResult<void>;

  onInterrupt(listener: (interrupt: InterruptRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async read(route: SourceRoute, register: string, index = 0): Promise<MaintenanceResult<RegisterValue>> {
    return this.readNow(route, register, index);
  }

  async readMany(
    routes: readonly SourceRoute[],
    register: string,
    _concurrency: number,
    onPart?: (from: number, results: readonly MaintenanceResult<RegisterValue>[]) => void,
  ): Promise<MaintenanceResult<RegisterValue>[]> {
    const results = routes.map((route) => this.readNow(route, register, 0));
    onPart?.(0, results);
    return results;
  }

  async write(route: SourceRoute, register: string, index: number, value: RegisterValue): Promise<MaintenanceResult<void>> {
    return this.writeNow(route, register, [index], value);
  }

  async writeMany(route: SourceRoute, register: string, indices: readonly number[], value: RegisterValue): Promise<MaintenanceResult<void>> {
    return this.writeNow(route, register, indices, value);
  }
}
