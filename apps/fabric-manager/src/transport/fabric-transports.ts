import type { MaintenanceTransport } from '@weft/control';

/**
 * Where the service finds each fabric's maintenance transport — its only door to the fabric
 * (DESIGN.md). The built-in emulator provides them (EmulatorService); a driver for real hardware
 * would provide them the same way, and everything that listens to a fabric — the interrupt
 * recorder, the automation — listens here, through the transport, not to the emulator.
 */
export abstract class FabricTransports {
  /** The transport of one attached fabric. */
  abstract transport(fabricId: number): MaintenanceTransport;

  /**
   * Calls `attached` with every fabric attached now and each one attached from now on; what it
   * returns is called when that fabric is detached (its interrupt subscription, say). Returns the
   * way to stop listening.
   */
  abstract onAttached(attached: (fabricId: number, transport: MaintenanceTransport) => (() => void) | void): () => void;

  /** Calls `listener` each time the fabrics were out of reach and are reached again (attached
   * again, each heard through `onAttached` anew): what they hold is then to be read back. */
  abstract onReattached(listener: () => void): void;
}
