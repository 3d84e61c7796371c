import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { InterruptRecord } from '@weft/control';
import type { InterruptKind } from '@weft/fabric-model';
import { ChipNamesService } from '../chip-names/chip-names.service';
import { FabricTransports } from '../transport/fabric-transports';
import { EventsService, NewFabricEvent } from './events.service';
import { FabricEventKind } from './fabric-event-kind';

/** The event each kind of interrupt is stored as: every kind has one (a new kind does not compile until it does). */
const INTERRUPT_EVENTS: Record<InterruptKind, FabricEventKind> = {
  FORWARD_PROGRESS_TIMEOUT: FabricEventKind.FORWARD_PROGRESS_TIMEOUT,
  LANE_DECOMMISSIONED: FabricEventKind.LANE_DECOMMISSIONED,
  LINK_DOWN: FabricEventKind.LINK_DOWN,
  LINK_UP: FabricEventKind.LINK_UP,
  SOFT_ERROR: FabricEventKind.SOFT_ERROR,
  CONFIGURATION_ERROR: FabricEventKind.CONFIGURATION_ERROR,
};

/**
 * Stores every interrupt a fabric raises as a fabric event, hearing them through each fabric's
 * maintenance transport (whoever provides it: the emulator, or a hardware driver). Chips name
 * themselves by serial number; the event carries the name discovery matched to it.
 */
@Injectable()
export class InterruptRecorder implements OnModuleInit, OnModuleDestroy {
  private readonly recording = new Set<Promise<void>>();
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly transports: FabricTransports,
    private readonly events: EventsService,
    private readonly chipNames: ChipNamesService,
  ) {}

  /** Interrupts heard and not yet stored, in the order heard: stored together at the next turn of the event loop. */
  private pending: NewFabricEvent[] = [];
  private readonly logger = new Logger(InterruptRecorder.name);

  onModuleInit(): void {
    this.stopListening = this.transports.onAttached((fabricId, transport) =>
      transport.onInterrupt((interrupt) => {
        this.pending.push(this.eventOf(fabricId, interrupt));
        if (this.pending.length > 1) return;
        // Interrupts that arrive together (a dead chip's neighbours) are stored in one statement.
        const recording = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => {
            const batch = this.pending;
            this.pending = [];
            // A store that cannot take them now must not take the service down with an unhandled rejection: said, not thrown.
            return this.events
              .recordMany(batch)
              .catch((error: unknown) => this.logger.error(`${batch.length} interrupts could not be stored: ${String(error)}`));
          })
          .finally(() => this.recording.delete(recording));
        this.recording.add(recording);
      }),
    );
  }

  onModuleDestroy(): void {
    this.stopListening?.();
  }

  /** Resolves when every interrupt heard so far is stored. */
  async recorded(): Promise<void> {
    while (this.recording.size > 0) await Promise.allSettled([...this.recording]);
  }

  private eventOf(fabricId: number, interrupt: InterruptRecord): NewFabricEvent {
    const lane = interrupt.lane ?? (typeof interrupt.details?.lane === 'number' ? interrupt.details.lane : undefined);
    return {
      fabricId,
      kind: INTERRUPT_EVENTS[interrupt.kind],
      emulatedTimeNs: interrupt.emulatedTimeNs,
      chip: this.chipNames.name(fabricId, interrupt.serial),
      port: interrupt.port ?? null,
      vc: interrupt.vc !== undefined && interrupt.vc >= 0 ? interrupt.vc : null,
      lane: lane ?? null,
      details: { serial: interrupt.serial, ...(interrupt.details ?? {}) },
    };
  }
}
