import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { StoreOwnerService } from '../database/store-owner.service';
import type { MaintenanceTransport } from '@weft/control';
import { DEFAULT_FABRIC_KEY_FILE, FabricStatus, PhysicalFault, readFabricKey, TrafficReport, TrafficRequest } from '@weft/emulator';
import { Installation, InstallationFile, buildInstallation } from '@weft/fabric-model';
import { Repository } from 'typeorm';
import { Fabric } from '../fabrics/fabric.entity';
import { FabricTransports } from '../transport/fabric-transports';
import { EmulatorClient } from './emulator-client';
import { WeftConfig } from '../config/weft-config';
import { availableParallelism } from 'node:os';

type AttachListener = (fabricId: number, transport: MaintenanceTransport) => (() => void) | void;

/**
 * Hosts the built-in emulated fabrics in a worker thread: the physical installations (with their
 * cabling faults) that the control plane has to discover through the maintenance transport, which
 * this service provides for each (FabricTransports). Nothing here hands the ground-truth cabling
 * to anyone.
 */
@Injectable()
export class EmulatorService extends FabricTransports implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmulatorService.name);
  private client: EmulatorClient | null = null;
  private readonly attached = new Map<number, { chips: number; ports: number }>();
  private readonly attachListeners = new Set<AttachListener>();
  /** What each listener asked to be called when a fabric is detached, by fabric. */
  private readonly onDetach = new Map<number, (() => void)[]>();
  private readonly reattachListeners = new Set<() => void>();
  /** Why the fabric cannot be reached now (a fabric process gone), or null. */
  private unreachable: string | null = null;
  private stopping = false;
  /** Without a store owner (unit use), the term said to a fabric process. */
  private term: number | undefined;

  constructor(
    @InjectRepository(Fabric) private readonly store: Repository<Fabric>,
    @Optional() private readonly config?: WeftConfig,
    @Optional() private readonly owner?: StoreOwnerService,
  ) {
    super();
  }

  /** The active manager connects; a standby only once it takes the store over (StoreOwnerService). */
  onModuleInit(): Promise<void> {
    return this.owner ? this.owner.whenActive(() => this.connect()) : this.connect();
  }

  private async connect(): Promise<void> {
    const fabric = this.config?.WEFT_FABRIC ?? 'embedded';
    if (fabric !== 'embedded') {
      // A fabric process of its own (`weft fabric serve`): it outlives this manager.
      this.client = await this.connectTo(fabric);
      this.logger.log(`the emulated fabrics are the fabric process at ${fabric}`);
      return;
    }
    const threads = this.config?.WEFT_EMULATOR_THREADS || availableParallelism();
    this.client = await EmulatorClient.start(this.config?.WEFT_EMULATOR_NICE ?? 0, threads);
  }

  /** Connects to the fabric process at `address`, proving the fabric key, with this manager's term. */
  private async connectTo(address: string): Promise<EmulatorClient> {
    // Its fencing term: when this manager claimed the store (a fabric process refuses an older claim).
    const term = this.owner?.term() ?? (this.term ??= Date.now());
    let key: Buffer;
    try {
      key = readFabricKey(this.config?.WEFT_FABRIC_KEY_FILE ?? DEFAULT_FABRIC_KEY_FILE);
    } catch (error) {
      throw new Error(
        `${(error as Error).message} — the fabric process at ${address} makes its key at its first start; WEFT_FABRIC_KEY_FILE names where it is`,
        { cause: error },
      );
    }
    const client = await EmulatorClient.connect(address, term, key);
    client.onLost((letGoFor) => {
      // Let go for a manager with a newer claim: this one has been taken over and stands down.
      if (letGoFor === undefined || !this.owner) return void this.reconnect(address);
      this.client = null;
      this.unreachable = `the fabric process at ${address} serves a manager with a newer claim (term ${letGoFor})`;
      this.owner.takenOver(this.unreachable);
    });
    return client;
  }

  /**
   * The fabric process went away (stopped, restarted, its connection cut): the manager keeps its
   * lease and connects again as soon as it answers (issue 54: it never did, and stayed unready while
   * holding the lease, so that no standby could step in). Reached again, every stored fabric is
   * attached again — a restarted fabric process powers them up blank — and the reattach listeners
   * (the control plane) read each fabric back and write what differs.
   */
  private async reconnect(address: string): Promise<void> {
    if (this.stopping) return;
    this.client = null;
    this.unreachable = `the fabric process at ${address} went away at ${new Date().toISOString()}; connecting again`;
    this.logger.warn(this.unreachable);
    for (const fabricId of this.attached.keys()) {
      for (const detached of this.onDetach.get(fabricId) ?? []) detached();
      this.onDetach.delete(fabricId);
    }
    let said = '';
    for (let delayMs = 100; !this.client; delayMs = Math.min(delayMs * 2, 2_000)) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (this.stopping) return;
      try {
        this.client = await this.connectTo(address);
      } catch (error) {
        const message = (error as Error).message;
        if (message !== said) this.logger.warn(`the fabric process at ${address}: ${message}; trying again`);
        said = message;
      }
    }
    if (this.stopping) return void this.client.close();
    this.unreachable = null;
    this.logger.log(`the fabric process at ${address} answers again: attaching the fabrics and reading them back`);
    this.attached.clear();
    await this.powerUp();
    for (const listener of this.reattachListeners) listener();
  }

  onAttached(listener: AttachListener): () => void {
    this.attachListeners.add(listener);
    if (this.client) for (const fabricId of this.attached.keys()) this.tell(listener, fabricId);
    return () => this.attachListeners.delete(listener);
  }

  private tell(listener: AttachListener, fabricId: number): void {
    const detach = listener(fabricId, this.transport(fabricId));
    if (detach) this.onDetach.set(fabricId, [...(this.onDetach.get(fabricId) ?? []), detach]);
  }

  /** After a restart, every stored fabric is powered up again from its installation file. */
  onApplicationBootstrap(): Promise<void> {
    return this.owner ? this.owner.whenActive(() => this.powerUp()) : this.powerUp();
  }

  private async powerUp(): Promise<void> {
    const rows = await this.store.find({ select: { id: true, name: true, installation: true, source: true } });
    for (const row of rows) this.attach(row.id, buildInstallation(JSON.parse(row.installation) as InstallationFile, row.source));
    if (rows.length > 0) this.logger.log(`emulated fabrics powered up: ${rows.map((r) => r.name).join(', ')}`);
  }

  /** Calls `listener` each time the fabric was lost and is reached again, its fabrics attached again. */
  onReattached(listener: () => void): void {
    this.reattachListeners.add(listener);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.client?.close();
    this.client = null;
  }

  attach(fabricId: number, installation: Installation): void {
    const physical = installation.physical;
    this.client?.attach(fabricId, physical, installation.file.maintenanceAttachment);
    this.attached.set(fabricId, { chips: physical.chips.length, ports: physical.chips.reduce((n, c) => n + c.portCount, 0) });
    if (this.client) for (const listener of this.attachListeners) this.tell(listener, fabricId);
  }

  detach(fabricId: number): void {
    for (const detached of this.onDetach.get(fabricId) ?? []) detached();
    this.onDetach.delete(fabricId);
    this.client?.detach(fabricId);
    this.attached.delete(fabricId);
  }

  /** The maintenance transport of one emulated fabric: the control plane's only way in. */
  transport(fabricId: number): MaintenanceTransport {
    if (!this.client) throw new Error(this.unreachable ?? this.owner?.refusal() ?? 'the emulator is not running');
    return this.client.transport(fabricId);
  }

  /** Fault injection on the physical installation (drills). */
  injectFault(fabricId: number, fault: PhysicalFault): Promise<void> {
    if (!this.client) throw new Error('the emulator is not running');
    return this.client.injectFault(fabricId, fault);
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

  /** The fabric's current emulated time and its clock (emulated ns per cycle: its chips'). */
  async clock(fabricId: number): Promise<{ emulatedNs: number; nsPerCycle: number }> {
    const status = (await this.fabricStatus()).find((f) => f.fabricId === fabricId);
    if (!status) throw new Error(`fabric ${fabricId} is not in the emulator`);
    return { emulatedNs: status.emulatedNs, nsPerCycle: status.nsPerCycle };
  }

  /** Whether the fabrics live in a fabric process of their own, which keeps them (with their registers) across this manager's restarts. */
  keepsFabrics(): boolean {
    return (this.config?.WEFT_FABRIC ?? 'embedded') !== 'embedded';
  }

  isRunning(): boolean {
    return this.client?.running ?? false;
  }

  /** Why the emulated fabric is not running, where it is not. */
  notRunningReason(): string {
    return this.unreachable ?? 'the emulated fabric has not started';
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
}
