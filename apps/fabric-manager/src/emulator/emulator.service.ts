import { ChipNamesService } from '../chip-names/chip-names.service';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { InterruptRecord, MaintenanceTransport } from '@weft/control';
import type { InterruptKind } from '@weft/fabric-model';
import { FabricStatus, PhysicalFault, TrafficReport, TrafficRequest } from '@weft/emulator';
import { Installation, InstallationFile, buildInstallation } from '@weft/fabric-model';
import { Repository } from 'typeorm';
import { EventsService } from '../events/events.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import { Fabric } from '../fabrics/fabric.entity';
import { EmulatorClient } from './emulator-client';
import { WeftConfig } from '../config/weft-config';

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
 * Hosts the built-in emulated fabrics in a worker thread: the physical installations (with their
 * cabling faults) that the control plane has to discover through the maintenance transport.
 * Interrupts the emulated chips raise are stored as fabric events. Nothing here hands the
 * ground-truth cabling to anyone.
 */
@Injectable()
export class EmulatorService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmulatorService.name);
  private client: EmulatorClient | null = null;
  private readonly attached = new Map<number, { chips: number; ports: number }>();
  private readonly recording = new Set<Promise<void>>();
  private readonly interruptListeners = new Set<(fabricId: number, interrupt: InterruptRecord) => void>();

  constructor(
    @InjectRepository(Fabric) private readonly store: Repository<Fabric>,
    private readonly events: EventsService,
    private readonly chipNames: ChipNamesService,
    @Optional() private readonly config?: WeftConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.client = await EmulatorClient.start(this.config?.WEFT_EMULATOR_NICE ?? 0);
    this.client.onInterrupt((fabricId, interrupt) => {
      const recording = this.recordInterrupt(fabricId, interrupt).finally(() => this.recording.delete(recording));
      this.recording.add(recording);
    });
  }

  /** After a restart, every stored fabric is powered up again from its installation file. */
  async onApplicationBootstrap(): Promise<void> {
    const rows = await this.store.find({ select: { id: true, name: true, installation: true, source: true } });
    for (const row of rows) this.attach(row.id, buildInstallation(JSON.parse(row.installation) as InstallationFile, row.source));
    if (rows.length > 0) this.logger.log(`emulated fabrics powered up: ${rows.map((r) => r.name).join(', ')}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.client?.close();
    this.client = null;
  }

  attach(fabricId: number, installation: Installation): void {
    const physical = installation.physical;
    this.client?.attach(fabricId, physical, installation.file.maintenanceAttachment);
    this.attached.set(fabricId, { chips: physical.chips.length, ports: physical.chips.reduce((n, c) => n + c.portCount, 0) });
  }

  detach(fabricId: number): void {
    this.client?.detach(fabricId);
    this.attached.delete(fabricId);
  }

  /** The maintenance transport of one emulated fabric: the control plane's only way in. */
  transport(fabricId: number): MaintenanceTransport {
    if (!this.client) throw new Error('the emulator is not running');
    return this.client.transport(fabricId);
  }

  /** Fault injection on the physical installation (drills). */
  injectFault(fabricId: number, fault: PhysicalFault): Promise<void> {
    if (!this.client) throw new Error('the emulator is not running');
    return this.client.injectFault(fabricId, fault);
  }

  /** Resolves when every interrupt received so far is stored and handed to the listeners. */
  async interruptsRecorded(): Promise<void> {
    while (this.recording.size > 0) await Promise.allSettled([...this.recording]);
  }

  /** Called with every interrupt once it is stored as an event (automation listens here). */
  onInterrupt(listener: (fabricId: number, interrupt: InterruptRecord) => void): () => void {
    this.interruptListeners.add(listener);
    return () => this.interruptListeners.delete(listener);
  }

  /** Runs traffic on an emulated fabric (the request already validated); the report when it ends. */
  runTraffic(fabricId: number, request: TrafficRequest): Promise<TrafficReport> {
    if (!this.client) throw new Error('the emulator is not running');
    return this.client.runTraffic(fabricId, request);
  }

  /** The client, for drills: pause, resume, markers, embargoes, background traffic. */
  drillControls(): Pick<EmulatorClient, 'stopTraffic' | 'mark' | 'pauseAt' | 'resume' | 'embargo'> {
    if (!this.client) throw new Error('the emulator is not running');
    return this.client;
  }

  /** The fabric's current emulated time, in ns (0 if it is not hosted). */
  async emulatedNs(fabricId: number): Promise<number> {
    const status = (await this.fabricStatus()).find((f) => f.fabricId === fabricId);
    return status?.emulatedNs ?? 0;
  }

  isRunning(): boolean {
    return this.client?.running ?? false;
  }

  status(): { fabrics: number; chips: number; ports: number } {
    let chips = 0;
    let ports = 0;
    for (const f of this.attached.values()) {
      chips += f.chips;
      ports += f.ports;
    }
    return { fabrics: this.attached.size, chips, ports };
  }

  fabricStatus(): Promise<FabricStatus[]> {
    return this.client ? this.client.status() : Promise.resolve([]);
  }

  private async recordInterrupt(fabricId: number, interrupt: InterruptRecord): Promise<void> {
    const kind = INTERRUPT_EVENTS[interrupt.kind];
    const lane = interrupt.lane ?? (typeof interrupt.details?.lane === 'number' ? interrupt.details.lane : undefined);
    await this.events.record({
      fabricId,
      kind,
      emulatedTimeNs: interrupt.emulatedTimeNs,
      chip: this.chipNames.name(fabricId, interrupt.serial),
      port: interrupt.port ?? null,
      vc: interrupt.vc !== undefined && interrupt.vc >= 0 ? interrupt.vc : null,
      lane: lane ?? null,
      details: { serial: interrupt.serial, ...(interrupt.details ?? {}) },
    });
    for (const listener of this.interruptListeners) listener(fabricId, interrupt);
  }
}
