import { Injectable, Optional } from '@nestjs/common';
import { StoreOwnerService } from '../database/store-owner.service';
import { EventsService } from '../events/events.service';
import { InjectDataSource } from '@nestjs/typeorm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource, IsNull } from 'typeorm';
import { EmulatorService } from '../emulator/emulator.service';
import { FabricEventKind } from '../events/fabric-event-kind';
import { Fault } from '../faults/fault.entity';

/** Buckets for the control plane's work: from a millisecond (a small fabric's push) to a minute. */
const WORK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Buckets for API operations: a millisecond to ten seconds. */
const API_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * weft's metrics in Prometheus's text format at /metrics (issue 40), kept by prom-client, the
 * maintained client library: events by kind; the control plane's compute, verify and push times as
 * histograms (read from the events that report them); faults in force; each fabric's emulated
 * clock (its rate() is the emulator's speed); API latency by operation; whether this manager holds
 * the store's claim, its lease; and Node's own (process, heap, event loop).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly eventCount: Counter<'kind'>;
  private readonly compute: Histogram;
  private readonly verify: Histogram;
  private readonly push: Histogram;
  private readonly api: Histogram<'operation' | 'type' | 'outcome'>;

  constructor(@InjectDataSource() dataSource: DataSource, emulator: EmulatorService, events: EventsService, @Optional() owner?: StoreOwnerService) {
    collectDefaultMetrics({ register: this.registry, prefix: 'weft_' });
    const registers = [this.registry];
    this.eventCount = new Counter({ name: 'weft_events_total', help: 'Fabric events stored, by kind.', labelNames: ['kind'], registers });
    for (const kind of Object.values(FabricEventKind)) this.eventCount.inc({ kind }, 0);
    this.compute = new Histogram({
      name: 'weft_generation_compute_seconds',
      help: 'Computing a generation (routing engine, before its proof).',
      buckets: WORK_BUCKETS,
      registers,
    });
    this.verify = new Histogram({ name: 'weft_generation_verify_seconds', help: 'Proving a generation (the verifier).', buckets: WORK_BUCKETS, registers });
    this.push = new Histogram({
      name: 'weft_generation_push_seconds',
      help: 'Pushing a generation through the maintenance transport.',
      buckets: WORK_BUCKETS,
      registers,
    });
    this.api = new Histogram({
      name: 'weft_api_request_seconds',
      help: 'GraphQL operations, by root field and type, as the service answered them.',
      labelNames: ['operation', 'type', 'outcome'],
      buckets: API_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'weft_faults_active',
      help: 'Faults in force, over all fabrics.',
      registers,
      async collect() {
        this.set(await dataSource.getRepository(Fault).count({ where: { clearedAt: IsNull() } }));
      },
    });
    new Gauge({
      name: 'weft_emulator_emulated_seconds',
      help: "Each emulated fabric's clock, in emulated seconds: its rate() is the emulator's speed.",
      labelNames: ['fabric'],
      registers,
      async collect() {
        this.reset();
        for (const f of await emulator.fabricStatus().catch(() => [])) this.set({ fabric: String(f.fabricId) }, f.emulatedNs / 1e9);
      },
    });
    new Gauge({
      name: 'weft_lease_held',
      help: "Whether this manager holds the store's lease to write registers (1) or not (0), labelled with its role: active, standby (takes over when the lease lapses) or deposed.",
      labelNames: ['role'],
      registers,
      collect() {
        // One series, under the role it has now.
        this.reset();
        this.set({ role: owner?.role() ?? 'active' }, owner?.holdsClaim() ? 1 : 0);
      },
    });
    events.listen((e) => this.event(e.kind, e.details));
  }

  /** A stored event: counted, and the control plane's timings it reports observed. */
  event(kind: string, details: Record<string, unknown>): void {
    this.eventCount.inc({ kind });
    const seconds = (ms: unknown) => (typeof ms === 'number' && Number.isFinite(ms) ? ms / 1000 : null);
    if (kind === FabricEventKind.GENERATION_COMPUTED) {
      const verify = seconds(details.verifyMs);
      const compute = seconds(details.computeMs);
      if (compute !== null) this.compute.observe(Math.max(0, compute - (verify ?? 0)));
      if (verify !== null) this.verify.observe(verify);
    }
    if (kind === FabricEventKind.GENERATION_PUSHED) {
      const push = seconds(details.pushMs);
      if (push !== null) this.push.observe(push);
    }
  }

  /** An answered GraphQL operation. */
  request(operation: string, type: string, outcome: 'ok' | 'error', seconds: number): void {
    this.api.observe({ operation, type, outcome }, seconds);
  }
}
