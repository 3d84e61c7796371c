import { Injectable } from '@nestjs/common';

/**
 * Chip names by serial number, per fabric, as discovery matched them to the design. Chips say who
 * they are by serial (their identity register); people and the store name them. The control plane
 * learns the names when it discovers a fabric, and whatever needs them — the emulator service
 * naming the chip of each interrupt it stores — asks here, instead of the control plane installing
 * a lookup into the emulator service from above.
 */
@Injectable()
export class ChipNamesService {
  private readonly byFabric = new Map<number, ReadonlyMap<number, string>>();

  /** The names the last discovery of `fabricId` matched, by serial. */
  learn(fabricId: number, names: ReadonlyMap<number, string>): void {
    this.byFabric.set(fabricId, names);
  }

  forget(fabricId: number): void {
    this.byFabric.delete(fabricId);
  }

  /** The chip's name, or null where no discovery of the fabric has found a chip with that serial. */
  name(fabricId: number, serial: number): string | null {
    return this.byFabric.get(fabricId)?.get(serial) ?? null;
  }
}
