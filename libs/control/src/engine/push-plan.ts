/**
 * A push as any family's engine plans it (issue 55: the engine layer's, not one family's): phases
 * of register writes, run phase by phase through the maintenance transport — a phase only once
 * the one before it is done — and, after a crash, what reading the fabric back found.
 */
import { writeEach } from '@weft/fabric-model';
import type { MaintenanceTransport, SourceRoute } from '../maintenance-transport';

/** One register write as the chip takes it: one value to one or more indices. */
export interface RegisterWrite {
  readonly register: string;
  readonly indices: readonly number[];
  readonly value: readonly number[];
  /** The register is written whole at index 0 (a register the chip takes only whole), not its value to each index. */
  readonly whole?: boolean;
}

export interface PlannedWrite extends RegisterWrite {
  readonly router: string;
  readonly route: SourceRoute;
}

export interface PushPhase {
  readonly name: string;
  readonly writes: readonly PlannedWrite[];
}

export interface PushPlan {
  readonly phases: readonly PushPhase[];
}

export interface PushFailure {
  readonly router: string;
  readonly register: string;
  readonly detail: string;
}

export interface PushReport {
  readonly writes: number;
  /** Phases completed, in order. */
  readonly phasesDone: number;
  readonly failures: PushFailure[];
}

export function planWrites(plan: PushPlan): number {
  return plan.phases.reduce((n, p) => n + p.writes.length, 0);
}

export interface ExecuteOptions {
  /** Phases already done (a resumed plan starts after them). */
  readonly fromPhase?: number;
  readonly concurrency?: number;
  /** Called after each phase completes, before the next starts (record progress here). */
  readonly onPhaseDone?: (phase: number) => Promise<void> | void;
}

/** Writes a push sends in one request where the transport takes batches (a phase of 8,196 writes goes as 5). */
const WRITES_PER_BATCH = 2048;

/** Runs a plan phase by phase; stops after the first phase with a failed write. */
export async function executePlan(transport: MaintenanceTransport, plan: PushPlan, options: ExecuteOptions = {}): Promise<PushReport> {
  let writes = 0;
  const failures: PushFailure[] = [];
  let phasesDone = options.fromPhase ?? 0;
  for (let i = phasesDone; i < plan.phases.length; i++) {
    const phase = plan.phases[i].writes;
    writes += phase.length;
    failures.push(...(await writeAll(transport, phase, options.concurrency ?? 256)));
    if (failures.length > 0) break;
    phasesDone = i + 1;
    await options.onPhaseDone?.(phasesDone);
  }
  return { writes, phasesDone, failures };
}

/**
 * Writes `writes` through the transport, `concurrency` in flight on the maintenance network, and
 * says which failed, in plan order: in batches where the transport takes them (issue 55: one request
 * for many chips' writes rather than one each), one batch after another; else one call each.
 */
export async function writeAll(transport: MaintenanceTransport, writes: readonly PlannedWrite[], concurrency: number): Promise<PushFailure[]> {
  const failures: PushFailure[] = [];
  const step = transport.writeBatch ? WRITES_PER_BATCH : writes.length;
  for (let from = 0; from < writes.length; from += step) {
    const part = writes.slice(from, from + step);
    const results = await (transport.writeBatch ? transport.writeBatch(part, concurrency) : writeEach(transport, part, concurrency));
    results.forEach((result, k) => {
      if (!result.ok) failures.push({ router: part[k].router, register: part[k].register, detail: `${result.reason}: ${result.detail}` });
    });
  }
  return failures;
}

/** Runs `work` on every item, at most `concurrency` at once. */
export async function runConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

export interface ReconcileReport {
  /** Registers read back. */
  readonly checked: number;
  /** Registers that differed from the image and were written again. */
  readonly rewritten: number;
  readonly failures: PushFailure[];
}
