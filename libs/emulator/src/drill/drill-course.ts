/**
 * A drill's course as the discard explanations see it (discard-explanations.ts): its steps, when
 * each happened, when the generations were pushed; and the shape of a rule that explains discards.
 */
import type { FabricDesign } from '@weft/fabric-model';
import type { DiscardRecord } from '../traffic/traffic-run';
import type { DrillAction } from './drill-file';

export interface DrillCourse {
  /** The drill's timeline, and when each step happened in the traffic run's time (its marker). */
  readonly timeline: readonly DrillAction[];
  readonly labels: readonly string[];
  readonly stepNs: readonly number[];
  /**
   * Each generation the automation pushed, in the order they landed, in the traffic run's time:
   * when it landed, and the time of the latest fault it knew of — it routes around the faults up to
   * then, not one that came while it was computed (a reaction slower than the steps' spacing).
   */
  readonly pushes: readonly { readonly atNs: number; readonly knowsNs: number }[];
  readonly drainNs: number;
  /** The traffic run's time at the drill's start (the verdict gives times from the drill's start). */
  readonly drillStartNs: number;
  /**
   * Pairs the generations pushed during the drill declared cut by the faults, as
   * `source>destination` chip names: what their verification proved no route of the family's
   * repertoire can join (a BG/L source's software refuses to send them).
   */
  readonly declaredCut?: ReadonlySet<string>;
}

/** What explains discards of some reasons at some places, from a step of the timeline until a time. */
export interface Cause {
  readonly label: string;
  /** Index of the timeline step: it explains only discards of later epochs. */
  readonly step: number;
  readonly reasons: ReadonlySet<string> | null;
  readonly place: (r: DiscardRecord) => boolean;
  readonly untilNs: number;
}

/**
 * When the first generation that knew of a fault at a time was pushed (Infinity: none was), and
 * when a later step undoes step i (Infinity: never).
 */
export function courseTimes(course: DrillCourse) {
  return {
    pushAfter: (ns: number): number => course.pushes.find((p) => p.atNs >= ns && p.knowsNs >= ns)?.atNs ?? Infinity,
    undoneAt: (i: number, undoes: (s: DrillAction) => boolean): number => {
      for (let j = i + 1; j < course.timeline.length; j++) if (undoes(course.timeline[j])) return course.stepNs[j];
      return Infinity;
    },
  };
}

/** A design's cabling as the rules read it: each end's far end (`chip:port` → chip), and each chip's neighbours. */
export function cabling(design: FabricDesign): { far: Map<string, string>; neighbours: Map<string, string[]> } {
  const far = new Map<string, string>();
  const neighbours = new Map<string, string[]>();
  for (const { a, b } of design.cables) {
    far.set(`${a.chip}:${a.port}`, b.chip);
    far.set(`${b.chip}:${b.port}`, a.chip);
    neighbours.set(a.chip, [...(neighbours.get(a.chip) ?? []), b.chip]);
    neighbours.set(b.chip, [...(neighbours.get(b.chip) ?? []), a.chip]);
  }
  return { far, neighbours };
}

/**
 * What a dead node of a torus explains from step `i` (a `kill-router`), in BG/L's and Anton 2's
 * rules: discards of `reasons` at it and its neighbours until the first generation pushed after
 * its death and the drain time; packets for it (`node`, the discards' destination number), any
 * reason, for as long as it is dead and until the generation after its replacement; and, as long,
 * packets between pairs the pushed generations declared cut, refused at their sources as
 * unreachable (`nameOf` gives a destination's chip name).
 */
export function nodeDeathCauses(
  course: DrillCourse,
  i: number,
  around: ReadonlySet<string>,
  node: number | undefined,
  nameOf: (destination: number) => string | undefined,
  reasons: ReadonlySet<string>,
): Cause[] {
  const { pushAfter, undoneAt } = courseTimes(course);
  const step = course.timeline[i];
  const label = course.labels[i];
  const cut = course.declaredCut ?? new Set<string>();
  const revived = undoneAt(i, (s) => s.action === 'revive-router' && s.chip === step.chip);
  const back = Number.isFinite(revived) ? pushAfter(revived) + course.drainNs : Infinity;
  return [
    { label, step: i, reasons, place: (r) => around.has(r.chip ?? ''), untilNs: pushAfter(course.stepNs[i]) + course.drainNs },
    { label: `${label}: packets for it`, step: i, reasons: null, place: (r) => r.destination === node, untilNs: back },
    {
      label: `${label}: pairs the pushed generations declared cut`,
      step: i,
      reasons: new Set(['unreachable']),
      place: (r: DiscardRecord) => cut.has(`${r.chip}>${nameOf(r.destination)}`),
      untilNs: back,
    },
  ];
}

/** What an operator's declared router fault at step `i` explains (BG/L's and Anton 2's rules): packets for it (`node`), any reason, until the generation after it is cleared. */
export function declaredNodeCause(course: DrillCourse, i: number, node: number | undefined): Cause {
  const { pushAfter, undoneAt } = courseTimes(course);
  const chip = course.timeline[i].chip;
  const cleared = undoneAt(i, (s) => s.action === 'clear-fault' && s.chip === chip && s.port === undefined);
  return {
    label: `${course.labels[i]}: packets for it`,
    step: i,
    reasons: null,
    place: (r) => r.destination === node,
    untilNs: Number.isFinite(cleared) ? pushAfter(cleared) + course.drainNs : Infinity,
  };
}
