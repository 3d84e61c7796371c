import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { faultsOn, indexKnownFabric, InterruptRecord, routingEngineOf, TriageDecision } from '@weft/control';
import { Repository } from 'typeorm';
import { ConfigGeneration } from '../config-generations/config-generation.entity';
import { WeftConfig } from '../config/weft-config';
import { ControlService } from '../control/control.service';
import { InterruptRecorder } from '../events/interrupt-recorder.service';
import { FabricTransports } from '../transport/fabric-transports';
import { EventsService } from '../events/events.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import type { Fault } from '../faults/fault.entity';
import { FaultsService } from '../faults/faults.service';

/** Wall time to gather the interrupts of one incident (a dead router's neighbours report together). */
const GATHER_MS = 20;

interface FabricQueue {
  pending: InterruptRecord[];
  /** Faults operators declared or cleared since the last configuration, as reasons. */
  operatorChanges: string[];
  running: Promise<void> | null;
  /** Emulated times each cable went down, for the flapping-link quarantine. */
  downHistory: Map<string, number[]>;
}

/**
 * The maintenance controller's automation (paper 000 §7.7, issue 4 capability 9): on interrupts
 * from a configured fabric it works out what broke (probing through the maintenance transport
 * where an interrupt alone cannot tell), records the faults, computes a new generation from the
 * last sweep around every active fault, verifies it and pushes the routers that changed — with no
 * operator. Interrupts that need no new routes (a lane lost on a port that stays in service,
 * back-pressure) are left as the events they already are.
 */
/** How long a stop waits for reactions under way. */
const SHUTDOWN_WAIT_MS = 5_000;

@Injectable()
export class AutomationService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AutomationService.name);
  private readonly queues = new Map<number, FabricQueue>();
  private readonly unsubscribe: (() => void)[] = [];
  private stopped = false;

  constructor(
    private readonly config: WeftConfig,
    private readonly transports: FabricTransports,
    private readonly recorder: InterruptRecorder,
    private readonly control: ControlService,
    private readonly faults: FaultsService,
    private readonly events: EventsService,
    @InjectRepository(ConfigGeneration) private readonly generations: Repository<ConfigGeneration>,
  ) {}

  onModuleInit(): void {
    if (this.config.WEFT_AUTOMATION !== 'on') return;
    // Interrupts come through each fabric's maintenance transport, whoever provides it.
    this.unsubscribe.push(this.transports.onAttached((fabricId, transport) => transport.onInterrupt((interrupt) => this.enqueue(fabricId, interrupt))));
    // An operator's declaration (a cable to be replaced) or clearance (a router back in service)
    // takes effect at once: the fabric is re-routed as for an interrupt.
    this.unsubscribe.push(
      this.faults.onChange(({ fault, change, by }) => {
        if (by !== 'operator') return;
        this.queueOf(fault.fabricId).operatorChanges.push(`operator ${change} ${fault.kind} fault ${fault.chip}${fault.port === null ? '' : `:${fault.port}`}`);
        this.kick(fault.fabricId);
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    // A reaction under way is given a few seconds to finish; one that needs longer (its push
    // waits on a drill's paused fabric, say) must not keep the service from stopping: the next
    // start finishes an interrupted push by reading the fabric back.
    let waited: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => (waited = setTimeout(() => resolve('late'), SHUTDOWN_WAIT_MS)));
    const outcome = await Promise.race([Promise.all([...this.queues.values()].map((q) => q.running)), deadline]);
    clearTimeout(waited);
    if (outcome === 'late') this.logger.warn(`stopping with a reaction still under way after ${SHUTDOWN_WAIT_MS} ms; the next start finishes its push`);
  }

  /** Whether interrupts or operator changes on the fabric are being handled or wait to be. */
  busy(fabricId: number): boolean {
    const queue = this.queues.get(fabricId);
    return !!queue && (queue.running !== null || queue.pending.length > 0 || queue.operatorChanges.length > 0);
  }

  /** Resolves once every interrupt received so far has been handled (tests, drills). */
  async settled(fabricId: number): Promise<void> {
    const queue = this.queues.get(fabricId);
    while (queue?.running) await queue.running;
  }

  private queueOf(fabricId: number): FabricQueue {
    let queue = this.queues.get(fabricId);
    if (!queue) {
      queue = { pending: [], operatorChanges: [], running: null, downHistory: new Map() };
      this.queues.set(fabricId, queue);
    }
    return queue;
  }

  private enqueue(fabricId: number, interrupt: InterruptRecord): void {
    this.queueOf(fabricId).pending.push(interrupt);
    this.kick(fabricId);
  }

  private kick(fabricId: number): void {
    const queue = this.queueOf(fabricId);
    if (!this.stopped && !queue.running) queue.running = this.drain(fabricId, queue);
  }

  private async drain(fabricId: number, queue: FabricQueue): Promise<void> {
    try {
      while ((queue.pending.length > 0 || queue.operatorChanges.length > 0) && !this.stopped) {
        await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
        // The interrupts are stored as events before anything is done about them (the stream
        // shows the cause first).
        await this.recorder.recorded();
        const batch = queue.pending.splice(0);
        const operatorChanges = queue.operatorChanges.splice(0);
        try {
          await this.react(fabricId, batch, queue, operatorChanges);
        } catch (error) {
          this.logger.error(`automation on fabric ${fabricId} failed: ${error instanceof Error ? error.stack : String(error)}`);
        }
      }
    } finally {
      queue.running = null;
    }
  }

  private async react(fabricId: number, batch: InterruptRecord[], queue: FabricQueue, operatorChanges: string[]): Promise<void> {
    // Nothing to re-route on a fabric that was never configured: its interrupts stay events.
    const configured = await this.generations.exists({ where: { fabricId, state: 'pushed' } });
    if (!configured) return;
    const known = await this.control.knownFabric(fabricId);
    const active = await this.faults.active(fabricId);
    // The family's own triage (the engine registry's row for the fabric's family).
    const decisions = await routingEngineOf(known.design.family).triage(batch, this.transports.transport(fabricId), {
      known,
      faults: faultsOn(indexKnownFabric(known).chips, active),
      interruptFaults: active.filter((f) => f.source === 'interrupt'),
      downHistory: queue.downHistory,
    });
    const reasons: string[] = [...operatorChanges];
    // The faults in force as triage leaves them, stored and handed to the configuration as they are (issue 55: not read back).
    let inForce = [...active];
    for (const decision of decisions) {
      if (decision.action === 'none') continue;
      if (decision.action === 'declare') inForce.push(await this.declare(fabricId, decision));
      else {
        const fault = active.find((f) => f.kind === decision.kind && f.chip === decision.chip && f.port === decision.port);
        if (fault) {
          await this.faults.clear(fault.id, 'automation');
          inForce = inForce.filter((f) => f.id !== fault.id);
        }
      }
      if (decision.kind !== 'endpoint') reasons.push(decision.reason);
    }
    if (reasons.length === 0) return;
    const interruptNs = batch.length > 0 ? Math.min(...batch.map((i) => i.emulatedTimeNs)) : undefined;
    const knowsNs = batch.length > 0 ? Math.max(...batch.map((i) => i.emulatedTimeNs)) : undefined;
    const outcome = await this.control.configure(fabricId, {
      rediscover: false,
      trigger: `automation: ${reasons.join('; ')}`,
      chargeFromNs: interruptNs,
      knowsNs,
      faults: inForce,
    });
    if (!outcome.verification.ok) this.logger.warn(`fabric ${fabricId}: generation ${outcome.generation.number} failed verification and was not pushed`);
  }

  private async declare(fabricId: number, decision: Extract<TriageDecision, { action: 'declare' }>): Promise<Fault> {
    const fault = await this.faults.declare(
      { fabricId, kind: decision.kind, chip: decision.chip, port: decision.port ?? undefined, note: decision.reason },
      'interrupt',
    );
    if (decision.kind === 'router') {
      await this.events.record({ fabricId, kind: FabricEventKind.ROUTER_UNRESPONSIVE, chip: decision.chip, details: { reason: decision.reason } });
    }
    return fault;
  }
}
