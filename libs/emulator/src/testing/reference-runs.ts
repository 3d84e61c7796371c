/**
 * Holding sleeping stages to the reference evaluation (specs and the soak): a scenario run twice,
 * once as the fabric normally runs and once visiting every stage every cycle
 * (`PartedEngine.everyStageEveryCycle`), for any chip model, and what the two did, compared.
 */
import { createHash } from 'node:crypto';
import type { PartedEngine } from '../engine/parted-engine';

export interface RunRecord {
  /** Each delivered packet's delivery cycle, by tag. */
  readonly delivered: Map<number, number>;
  /** Every interrupt, as `kind cycle chip:port`. */
  readonly interrupts: string[];
  readonly books: ReturnType<PartedEngine['packets']['books']>;
  readonly retransmissions: number;
}

/** Runs `scenario` (traffic, faults, the drain) on `sim` and records what it did; the scenario must
 * leave `onDeliver` and `onInterrupt` to the record, or call on what they were. */
export function recordRun<E extends PartedEngine>(sim: E, scenario: (sim: E) => void): RunRecord {
  const delivered = new Map<number, number>();
  const interrupts: string[] = [];
  sim.onDeliver = (p, cycle) => delivered.set(sim.packets.tag(p), cycle);
  sim.onInterrupt = (kind, cycle, chip, port) => interrupts.push(`${kind} ${cycle} ${sim.fabric.chipNames[chip]}:${port}`);
  scenario(sim);
  return { delivered, interrupts, books: sim.packets.books(), retransmissions: sim.retransmissions };
}

/**
 * A digest of everything a run did that a change of the code must not change: every packet's
 * delivery cycle (by tag), every interrupt with its cycle, the books and the retransmissions. Two
 * runs with the same digest did the same, packet for packet (`npm run digests`).
 */
export function digestOf(record: RunRecord): string {
  const hash = createHash('sha256');
  const deliveries = [...record.delivered].sort((a, b) => a[0] - b[0]);
  for (const [tag, cycle] of deliveries) hash.update(`${tag}:${cycle};`);
  hash.update(`|${record.interrupts.join(';')}|${JSON.stringify(record.books)}|${record.retransmissions}`);
  return hash.digest('hex').slice(0, 32);
}

/** Runs `scenario` on a fabric from `build`, sleeping and then visiting every stage every cycle
 * (see recordRun). */
export function runSleepingAndReference<E extends PartedEngine>(build: () => E, scenario: (sim: E) => void): [RunRecord, RunRecord] {
  const run = (everyStageEveryCycle: boolean): RunRecord => {
    const sim = build();
    sim.everyStageEveryCycle = everyStageEveryCycle;
    return recordRun(sim, scenario);
  };
  return [run(false), run(true)];
}

/**
 * How a run differs from the reference (none: the same): its books, retransmissions,
 * interrupts — the same set at the same cycles, since those of one cycle come in the order its
 * stages are visited — and every packet delivered in another cycle.
 */
export function differencesFromReference(run: RunRecord, reference: RunRecord): string[] {
  const differences: string[] = [];
  const books = [JSON.stringify(run.books), JSON.stringify(reference.books)];
  if (books[0] !== books[1]) differences.push(`books ${books[0]} against ${books[1]}`);
  if (run.retransmissions !== reference.retransmissions) differences.push(`retransmissions ${run.retransmissions} against ${reference.retransmissions}`);
  const extra = notIn(run.interrupts, reference.interrupts);
  const missing = notIn(reference.interrupts, run.interrupts);
  if (extra.length + missing.length > 0)
    differences.push(
      `${extra.length} interrupts not in the reference, ${missing.length} of the reference's missing`,
      ...extra.slice(0, 10).map((i) => `+ ${i}`),
      ...missing.slice(0, 10).map((i) => `- ${i}`),
    );
  const late: string[] = [];
  for (const [tag, cycle] of run.delivered)
    if (reference.delivered.get(tag) !== cycle) late.push(`packet ${tag} delivered in cycle ${cycle} against ${reference.delivered.get(tag)}`);
  for (const [tag, cycle] of reference.delivered) if (!run.delivered.has(tag)) late.push(`packet ${tag} not delivered, against cycle ${cycle}`);
  // The first few say where it went wrong; the count, how far it spread.
  if (late.length > 0) differences.push(`${late.length} packets delivered otherwise`, ...late.slice(0, 10));
  return differences;
}

/** The items of `items` left over once each item of `others` has taken away one equal to it. */
function notIn(items: readonly string[], others: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const item of others) left.set(item, (left.get(item) ?? 0) + 1);
  return items.filter((item) => {
    const n = left.get(item) ?? 0;
    left.set(item, n - 1);
    return n <= 0;
  });
}
