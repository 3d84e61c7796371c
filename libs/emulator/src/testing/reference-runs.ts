/**
 * Holding sleeping stages to the reference evaluation (specs only): a scenario run twice, once as
 * the fabric normally runs and once visiting every stage every cycle
 * (`YarcFabricSim.everyStageEveryCycle`), and what the two did, compared.
 */
import type { YarcFabricSim } from '../yarc/yarc-fabric-sim';

export interface RunRecord {
  /** Each delivered packet's delivery cycle, by tag. */
  readonly delivered: Map<number, number>;
  /** Every interrupt, as `kind cycle chip:port`. */
  readonly interrupts: string[];
  readonly books: ReturnType<YarcFabricSim['packets']['books']>;
  readonly retransmissions: number;
}

/** Runs `scenario` (traffic, faults, the drain) on a fabric from `build`, sleeping and then visiting
 * every stage every cycle; the scenario must leave `onDeliver` and `onInterrupt` to the record. */
export function runSleepingAndReference(build: () => YarcFabricSim, scenario: (sim: YarcFabricSim) => void): [RunRecord, RunRecord] {
  const run = (everyStageEveryCycle: boolean): RunRecord => {
    const sim = build();
    sim.everyStageEveryCycle = everyStageEveryCycle;
    const delivered = new Map<number, number>();
    const interrupts: string[] = [];
    sim.onDeliver = (p, cycle) => delivered.set(sim.packets.tag[p], cycle);
    sim.onInterrupt = (kind, cycle, chip, port) => interrupts.push(`${kind} ${cycle} ${sim.fabric.chipNames[chip]}:${port}`);
    scenario(sim);
    return { delivered, interrupts, books: sim.packets.books(), retransmissions: sim.retransmissions };
  };
  return [run(false), run(true)];
}

/**
 * How the sleeping run differs from the reference (none: the same): its books, retransmissions,
 * interrupts — the same set at the same cycles, since those of one cycle come in the order its
 * stages are visited — and every packet delivered in another cycle.
 */
export function differencesFromReference(sleeping: RunRecord, reference: RunRecord): string[] {
  const differences: string[] = [];
  const books = [JSON.stringify(sleeping.books), JSON.stringify(reference.books)];
  if (books[0] !== books[1]) differences.push(`books ${books[0]} against ${books[1]}`);
  if (sleeping.retransmissions !== reference.retransmissions)
    differences.push(`retransmissions ${sleeping.retransmissions} against ${reference.retransmissions}`);
  const interrupts = [[...sleeping.interrupts].sort().join('\n'), [...reference.interrupts].sort().join('\n')];
  if (interrupts[0] !== interrupts[1]) differences.push(`interrupts:\n${interrupts[0]}\nagainst:\n${interrupts[1]}`);
  const late: string[] = [];
  for (const [tag, cycle] of sleeping.delivered)
    if (reference.delivered.get(tag) !== cycle) late.push(`packet ${tag} delivered in cycle ${cycle} against ${reference.delivered.get(tag)}`);
  for (const [tag, cycle] of reference.delivered) if (!sleeping.delivered.has(tag)) late.push(`packet ${tag} not delivered, against cycle ${cycle}`);
  // The first few say where it went wrong; the count, how far it spread.
  if (late.length > 0) differences.push(`${late.length} packets delivered otherwise`, ...late.slice(0, 10));
  return differences;
}
