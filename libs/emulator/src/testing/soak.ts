/**
 * The emulator's soak (`npm run soak`; a short one runs with the specs). Random traffic — 4 to 19
 * phits, both VCs, hashed, adaptive and table routes, some of it traced — on a hand-configured
 * BlackWidow fabric of 32 to 288 processors and 1 to 4 slices, through random faults and their
 * repairs: links cut and restored, routers that die and come back (configured again), endpoints
 * that stop accepting (with short forward-progress timers on every fourth seed), bit errors on
 * lanes and soft errors in routers; maintenance reads are in flight throughout. Each seed is run in
 * several ways that must agree, and every run is held to what the emulator promises whatever
 * happens to it:
 *
 * - reference: the sleeping stages against visiting every stage every cycle — every packet
 *   delivered in the same cycle, the same interrupts, retransmissions, books and maintenance
 *   answers;
 * - repeat: the same seed run again is the same run;
 * - windowed: the slices run apart a window at a time (`runWindowed`), with faults applied between
 *   windows, against all of them together cycle by cycle;
 * - invariants: the books balance after every round, and hold nothing in flight once everything is
 *   repaired and the fabric has drained; row and column buffers (sampled every 97 cycles) never
 *   hold more phits than they have room for; every traced packet arrives at its destination.
 */
import { mulberry32 } from '@weft/fabric-model';
import { FLAG_ADAPTIVE, FLAG_HASH, FLAG_TRACE } from '../engine/packet-store';
import { configureR15ByHand, handConfiguredR15 } from '../yarc/blackwidow-test-config';
import { COLUMN_BUFFER_PHITS, ROW_BUFFER_PHITS } from '../yarc/yarc-constants';
import type { YarcFabricSim } from '../yarc/yarc-fabric-sim';
import { YarcMaintenanceController } from '../yarc/yarc-maintenance';
import { differencesFromReference, digestOf, recordRun, RunRecord } from './reference-runs';

export interface SoakCase {
  readonly seed: number;
  /** Rounds of 50–2,049 cycles of traffic (100–1,599 in the windowed run), each with at most one
   * fault or repair. */
  readonly rounds: number;
  /** Whether bit errors on lanes and soft errors in routers are among the faults. */
  readonly errors: boolean;
  /** Processors (a multiple of 32, up to 288); by default 32, 64 or 96, by seed. */
  readonly processors?: number;
}

export interface SoakOutcome {
  readonly seed: number;
  readonly processors: number;
  readonly slices: number;
  /** Of the sleeping run: its books, interrupts, retransmissions, maintenance answers, cycles. */
  readonly books: RunRecord['books'];
  readonly interrupts: number;
  readonly retransmissions: number;
  readonly answers: number;
  readonly cycles: number;
  /** Every check that failed, each line naming it; empty when all held. */
  readonly problems: string[];
  /** What the sleeping run did, packet by packet (digestOf). */
  readonly digest: string;
}

/** What one run of the faulty scenario did and what it found wrong on the way. */
interface FaultyRun {
  readonly record: RunRecord;
  readonly answers: string[];
  readonly problems: string[];
  readonly cycles: number;
}

const LENGTHS = [4, 4, 5, 8, 12, 19, 19];
const BIT_ERROR_RATES = [0, 1e-4, 1e-3, 1e-2];
const BUFFER_SAMPLE_CYCLES = 97;
const DRAIN_LIMIT = 2_000_000;

/** Runs every check on one seed. */
export async function soak(c: SoakCase): Promise<SoakOutcome> {
  const processors = c.processors ?? [32, 64, 96][c.seed % 3];
  const slices = 1 + (c.seed % 2);
  const sleeping = faultyRun(c, processors, slices, false);
  const reference = faultyRun(c, processors, slices, true);
  const again = faultyRun(c, processors, slices, false);
  const windowSlices = 2 + (c.seed % 3);
  const windowProcessors = c.processors ?? [64, 96][c.seed % 2];
  const windowed = windowedRun(c, windowProcessors, windowSlices, true);
  const cycleByCycle = windowedRun(c, windowProcessors, windowSlices, false);
  // Maintenance answers come through promises: let them all settle.
  await new Promise((resolve) => setImmediate(resolve));
  const problems = [
    ...sleeping.problems.map((p) => `invariants: ${p}`),
    ...compare('reference', sleeping, reference),
    ...compare('repeat', again, sleeping),
    ...differencesFromReference(windowed, cycleByCycle).map((d) => `windowed: ${d}`),
    ...invariantsAfterDrain(windowed).map((p) => `windowed: ${p}`),
  ];
  return {
    seed: c.seed,
    processors,
    slices,
    books: sleeping.record.books,
    interrupts: sleeping.record.interrupts.length,
    retransmissions: sleeping.record.retransmissions,
    answers: sleeping.answers.length,
    cycles: sleeping.cycles,
    problems,
    digest: digestOf(sleeping.record),
  };
}

function compare(check: string, run: FaultyRun, reference: FaultyRun): string[] {
  const differences = differencesFromReference(run.record, reference.record);
  if (run.answers.length !== reference.answers.length) differences.push(`${run.answers.length} maintenance answers against ${reference.answers.length}`);
  const answer = run.answers.findIndex((a, i) => a !== reference.answers[i]);
  if (answer >= 0) differences.push(`maintenance answer ${answer} is '${run.answers[answer]}' against '${reference.answers[answer]}'`);
  if (run.cycles !== reference.cycles) differences.push(`drained in cycle ${run.cycles} against ${reference.cycles}`);
  return differences.map((d) => `${check}: ${d}`);
}

function invariantsAfterDrain(record: RunRecord): string[] {
  const { books } = record;
  return books.balanced && books.inFlight === 0 ? [] : [`after repair and drain the books are ${JSON.stringify(books)}`];
}

/** Random traffic through random faults, cycle by cycle, with maintenance reads in flight; then
 * everything repaired and the fabric drained. */
function faultyRun(c: SoakCase, processors: number, slices: number, everyStageEveryCycle: boolean): FaultyRun {
  const sim = handConfiguredR15(processors, { seed: c.seed, slices });
  sim.everyStageEveryCycle = everyStageEveryCycle;
  if (c.seed % 4 === 0) sim.regs.forwardProgressTimer.fill(1_500);
  const random = mulberry32(c.seed * 7919 + 13);
  const pick = (n: number) => Math.floor(random() * n);
  const sampling = mulberry32(c.seed * 7919 + 14);
  const faults = new RandomFaults(sim, random, processors, slices, c.errors);
  const answers: string[] = [];
  const problems: string[] = [];
  const record = recordRun(sim, () => {
    const recordDelivery = sim.onDeliver;
    const recordInterrupt = sim.onInterrupt;
    const controller = new YarcMaintenanceController(sim, 0, 3_000);
    const controllerSink = sim.onInterrupt;
    sim.onInterrupt = (...interrupt) => {
      recordInterrupt(...interrupt);
      controllerSink(...interrupt);
    };
    sim.onDeliver = (p, cycle) => {
      if (sim.packets.flags(p) & FLAG_TRACE) problems.push(...wrongDestination(sim, p));
      recordDelivery(p, cycle);
    };
    // A router port that leads to processor p (slice 0): a route [0, port] reads p's interface.
    const portTo = (p: number) => sim.globalRouterPort[sim.fabric.peer[sim.endpointPort(p, 0)]] % 64;
    let tag = 1;
    for (let round = 0; round < c.rounds; round++) {
      const cycles = 50 + pick(2_000);
      const rate = random() * 0.15;
      const faultAt = pick(cycles);
      for (let cycle = 0; cycle < cycles; cycle++) {
        for (let p = 0; p < processors; p++) {
          if (random() >= rate) continue;
          const d = (p + 1 + pick(processors - 1)) % processors;
          const length = LENGTHS[pick(LENGTHS.length)];
          const f = random();
          const flags = (f < 0.5 ? FLAG_HASH : f < 0.8 ? FLAG_ADAPTIVE : 0) | (random() < 0.02 ? FLAG_TRACE : 0);
          sim.inject(p, pick(slices), d, length, pick(2), flags, pick(0x8000), tag++);
        }
        if (random() < 0.01) {
          const to = pick(4);
          const route = to === 0 ? [pick(slices)] : to === 1 ? [0, 32] : [0, portTo(pick(processors))];
          const i = answers.push('') - 1;
          void controller.read(route, random() < 0.5 ? 'identity' : 'portStates').then((r) => (answers[i] = `${r.ok} ${r.ok ? '' : r.reason} ${r.latencyNs}`));
        }
        if (cycle === faultAt) faults.next();
        sim.step();
        if (sim.cycle % BUFFER_SAMPLE_CYCLES === 0) problems.push(...overfullBuffers(sim, sampling));
      }
      const books = sim.packets.books();
      if (!books.balanced) problems.push(`after round ${round} (cycle ${sim.cycle}) the books do not balance: ${JSON.stringify(books)}`);
    }
    faults.repairAll();
    sim.drain(DRAIN_LIMIT);
  });
  problems.push(...invariantsAfterDrain(record));
  return { record, answers, problems, cycles: sim.cycle };
}

/** Traffic injected slice by slice before each cycle, from a random stream per part, with a fault
 * or repair after each round: run apart a window at a time, or cycle by cycle. */
function windowedRun(c: SoakCase, processors: number, slices: number, windowed: boolean): RunRecord {
  const sim = handConfiguredR15(processors, { seed: c.seed, slices });
  if (c.seed % 3 === 0) sim.regs.forwardProgressTimer.fill(1_200);
  const random = mulberry32(c.seed * 31 + 7);
  const faults = new RandomFaults(sim, random, processors, slices, c.errors);
  const streams = Array.from({ length: sim.parts }, (_, part) => mulberry32(c.seed * 100 + part));
  const tags = new Array<number>(sim.parts).fill(0);
  let rate = 0;
  const beforeCycle = (part: number, _cycle: number) => {
    const draw = streams[part];
    for (let p = 0; p < processors; p++)
      for (let s = 0; s < slices; s++) {
        if (sim.partOfPort(sim.endpointPort(p, s)) !== part || draw() >= rate) continue;
        const d = (p + 1 + Math.floor(draw() * (processors - 1))) % processors;
        const f = draw();
        const flags = f < 0.5 ? FLAG_HASH : f < 0.8 ? FLAG_ADAPTIVE : 0;
        const length = LENGTHS[Math.floor(draw() * LENGTHS.length)];
        sim.inject(p, s, d, length, draw() < 0.5 ? 0 : 1, flags, d, ++tags[part] * sim.parts + part);
      }
  };
  return recordRun(sim, () => {
    for (let round = 0; round < c.rounds; round++) {
      const cycles = 100 + Math.floor(random() * 1_500);
      rate = random() * 0.1;
      if (windowed) sim.runWindowed(cycles, 64, beforeCycle);
      else
        for (let cycle = 0; cycle < cycles; cycle++) {
          for (let part = 0; part < sim.parts; part++) beforeCycle(part, sim.cycle);
          sim.step();
        }
      faults.next();
    }
    faults.repairAll();
    sim.drain(DRAIN_LIMIT);
  });
}

/** Where traced packet p was delivered, if not at its destination processor. */
function wrongDestination(sim: YarcFabricSim, p: number): string[] {
  const events = sim.packets.trace(p) ?? [];
  const last = events[events.length - 1];
  const at = last?.stage === 'delivered' ? sim.globalProcessor[sim.fabric.portBase[last.chip] + last.port] : -1;
  const destination = sim.packets.destination(p);
  return at === destination ? [] : [`traced packet ${sim.packets.tag(p)} for processor ${destination} was delivered at ${at}`];
}

/** Row and column buffers of randomly chosen tiles holding more phits than they have room for. */
function overfullBuffers(sim: YarcFabricSim, random: () => number): string[] {
  const found: string[] = [];
  const tiles = sim.routerChip.length * 64;
  for (let k = 0; k < 20; k++) {
    const b = (Math.floor(random() * tiles) * 8 + Math.floor(random() * 8)) * 2;
    const end = sim.cycle - 1;
    const row = sim.bufferPhits('row', b, end) + sim.bufferPhits('row', b + 1, end);
    const column = sim.bufferPhits('column', b, end) + sim.bufferPhits('column', b + 1, end);
    if (row < 0 || row > ROW_BUFFER_PHITS || column < 0 || column > COLUMN_BUFFER_PHITS)
      found.push(`in cycle ${end} buffers ${b >> 1} hold ${row} phits (row) and ${column} (column)`);
  }
  return found;
}

/** Faults and repairs drawn at random, each from the same draws whichever it is, so that a seed's
 * stream does not depend on which fault came up. */
class RandomFaults {
  private readonly linked: number[] = [];

  constructor(
    private readonly sim: YarcFabricSim,
    private readonly random: () => number,
    private readonly processors: number,
    private readonly slices: number,
    private readonly errors: boolean,
  ) {
    for (let g = 0; g < sim.fabric.peer.length; g++) if (sim.fabric.peer[g] >= 0) this.linked.push(g);
  }

  /** One fault or repair — or, one time in three, none. */
  next(): void {
    const { sim, random } = this;
    const pick = (n: number) => Math.floor(random() * n);
    const kind = random();
    const g = this.linked[pick(this.linked.length)];
    const lane = pick(3);
    const bitErrorRate = BIT_ERROR_RATES[pick(BIT_ERROR_RATES.length)];
    const router = sim.routerChip[pick(sim.routerChip.length)];
    const endpoint = sim.endpointPort(pick(this.processors), pick(this.slices));
    const on = random() < 0.4;
    if (kind < 0.15) {
      if (this.errors) sim.setLaneBitErrorRate(g, lane, bitErrorRate);
    } else if (kind < 0.25) sim.cutLink(g);
    else if (kind < 0.37) sim.restoreLink(g);
    else if (kind < 0.42) sim.killRouter(router);
    else if (kind < 0.48) this.reviveRouters();
    else if (kind < 0.58) sim.setAccepting(endpoint, on);
    else if (kind < 0.65 && this.errors) sim.setSoftErrorRate(router, on ? 0.01 : 0);
  }

  /** Every router alive and configured again, every link up without errors, every endpoint accepting. */
  repairAll(): void {
    const { sim } = this;
    for (const chip of sim.routerChip) sim.setSoftErrorRate(chip, 0);
    this.reviveRouters();
    for (const g of this.linked) {
      for (let lane = 0; lane < 3; lane++) sim.setLaneBitErrorRate(g, lane, 0);
      sim.restoreLink(g);
    }
    for (let p = 0; p < this.processors; p++) for (let s = 0; s < this.slices; s++) sim.setAccepting(sim.endpointPort(p, s), true);
  }

  private reviveRouters(): void {
    for (const chip of this.sim.routerChip) this.sim.reviveRouter(chip);
    configureR15ByHand(this.sim);
  }
}
