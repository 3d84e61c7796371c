/**
 * What a drill promises about discarded packets, checked exactly: every discard is explained by a
 * step of its timeline — the broken part of the fabric, for as long as it stayed broken and the
 * control plane had not yet routed around it — or it is reported as unexplained.
 *
 * A fault explains, from the moment it happens (paper 000 §7.7: the sender discards packets for a
 * dead port, the router discards packets for a port whose forward-progress timer ran out):
 *
 * - a cut cable: LinkDown discards on the chips at its two ends, until the first generation pushed
 *   after the cut, and a drain time after it (what the routers had already committed to the dead
 *   port when the new tables arrived); LinkDown at any processor's interface within the drain time
 *   of the cut (a packet whose tail was on the cable, marked bad and dropped at its destination,
 *   §4.3);
 * - a dead router: RouterDead and LinkDown discards on it and on the chips cabled to it, until the
 *   first generation pushed after its death and the drain time, and the in-flight losses as for a
 *   cut; discards of any reason of packets for the processors it served (they cannot be reached:
 *   the verifier names them as unreachable) and of what those processors try to send through it,
 *   for as long as it is dead and until the generation after its revival (and the drain time) —
 *   a revived router comes back blank, and routes nothing its processors send (NoRoute on its
 *   ports to them) until that generation configures it;
 * - a router declared faulty by an operator: discards of any reason of packets for the processors
 *   it serves, from the declaration until the generation after it is cleared;
 * - a processor that stopped accepting: ForwardProgressTimeout discards, on the router its port is
 *   cabled to, of packets for it, from then to the end of the drill (§7.7 has the router keep
 *   discarding for that port; the paper describes no way to re-enable it).
 *
 * Nothing else explains a discard: a declared cable fault and a noisy lane must lose nothing (the
 * new routes are pushed while the cable still works; the link layer replays what the lane garbles,
 * §4.3), and NoRoute, DownwardInvariant and IllegalModulus discards are configuration errors,
 * except for packets to processors a fault has cut off.
 */
import type { FabricDesign, FabricFamily } from '@weft/fabric-model';
import type { DiscardRecord } from '../traffic/traffic-run';
import { bglDiscardCauses } from '../bgl/bgl-discard-causes';
import { anton2DiscardCauses } from '../anton2/anton2-discard-causes';
import { flatDiscardCauses } from '../flattened-butterfly/flat-discard-causes';
import { Cause, courseTimes, DrillCourse } from './drill-course';

export type { DrillCourse } from './drill-course';

/**
 * How long after the push that routes around a fault packets may still be discarded there, and
 * how long after a cut a packet lost on the cable may still reach its destination, by default.
 * At the shipped drills' loads the last discard comes within a microsecond of the push; ten
 * leaves room for queues at heavier loads. A drill may set its own (`expectations.discardDrainNs`).
 */
export const DEFAULT_DISCARD_DRAIN_NS = 10_000;

export interface DiscardCause {
  /** The timeline step, as the report names it, and what it explains. */
  readonly cause: string;
  readonly count: number;
  readonly byReason: Readonly<Record<string, number>>;
  /** Emulated time of the first and last discard it explains, from the drill's start. */
  readonly firstNs: number;
  readonly lastNs: number;
  /** Until when it explains discards (from the drill's start); null: to the end. */
  readonly untilNs: number | null;
}

export interface DiscardVerdict {
  readonly total: number;
  readonly explained: number;
  readonly causes: readonly DiscardCause[];
  readonly unexplained: number;
  /** The first unexplained records (at most 20), times from the drill's start. */
  readonly unexplainedExamples: readonly DiscardRecord[];
}

/**
 * Explains each discard of a drill's traffic run by the step of its timeline that accounts for it
 * (see the file comment). `design` is the fabric as it is physically cabled; `discards` in the
 * traffic run's time, split into epochs at the steps' markers.
 */
export function explainDiscards(design: FabricDesign, course: DrillCourse, discards: readonly DiscardRecord[]): DiscardVerdict {
  const rules = DISCARD_CAUSES[design.family];
  if (!rules) throw new Error(`no rules explain the discards of a ${design.family} drill yet: its fabrics take no drills`);
  const causes = rules(design, course);
  const tally = causes.map(() => ({ count: 0, byReason: {} as Record<string, number>, firstNs: Infinity, lastNs: -Infinity }));
  let total = 0;
  let unexplained = 0;
  const examples: DiscardRecord[] = [];
  for (const record of discards) {
    total += record.count;
    // Every cause that can explain it began at or before the start of its epoch (its first
    // discard), so one that lasted past its last discard covers all of it; it is put down to the
    // first such (in timeline order, the broken part before what it cut off).
    const best = causes.findIndex(
      (c) => c.step < record.epoch && (c.reasons === null || c.reasons.has(record.reason)) && c.place(record) && c.untilNs >= record.lastNs,
    );
    if (best === -1) {
      unexplained += record.count;
      if (examples.length < 20) examples.push({ ...record, firstNs: record.firstNs - course.drillStartNs, lastNs: record.lastNs - course.drillStartNs });
      continue;
    }
    const t = tally[best];
    t.count += record.count;
    t.byReason[record.reason] = (t.byReason[record.reason] ?? 0) + record.count;
    t.firstNs = Math.min(t.firstNs, record.firstNs);
    t.lastNs = Math.max(t.lastNs, record.lastNs);
  }
  return {
    total,
    explained: total - unexplained,
    causes: causes.flatMap((c, i) =>
      tally[i].count === 0
        ? []
        : [
            {
              cause: c.label,
              count: tally[i].count,
              byReason: { ...tally[i].byReason },
              firstNs: tally[i].firstNs - course.drillStartNs,
              lastNs: tally[i].lastNs - course.drillStartNs,
              untilNs: Number.isFinite(c.untilNs) ? c.untilNs - course.drillStartNs : null,
            },
          ],
    ),
    unexplained,
    unexplainedExamples: examples,
  };
}

/** The rules of the file comment, for fabrics whose processors are cabled to routers. */
function routerFabricCauses(design: FabricDesign, course: DrillCourse): Cause[] {
  const far = new Map<string, { chip: string; port: number }>();
  const neighbours = new Map<string, { port: number; far: { chip: string; port: number } }[]>();
  for (const cable of design.cables) {
    far.set(`${cable.a.chip}:${cable.a.port}`, cable.b);
    far.set(`${cable.b.chip}:${cable.b.port}`, cable.a);
    for (const [end, other] of [
      [cable.a, cable.b],
      [cable.b, cable.a],
    ] as const) {
      if (!neighbours.has(end.chip)) neighbours.set(end.chip, []);
      neighbours.get(end.chip)!.push({ port: end.port, far: other });
    }
  }
  const chips = new Map(design.chips.map((c) => [c.name, c]));
  const isProcessor = (chip: string | null) => chip !== null && chips.get(chip)?.kind === 'endpoint';
  const { pushAfter, undoneAt } = courseTimes(course);
  const drain = course.drainNs;
  const linkDown = new Set(['LinkDown']);
  const causes: Cause[] = [];
  course.timeline.forEach((step, i) => {
    const at = course.stepNs[i];
    const label = course.labels[i];
    const healed = pushAfter(at) + drain;
    const inFlightLoss: Cause = {
      label: `${label}: packets on the cable when it broke`,
      step: i,
      reasons: linkDown,
      place: (r) => isProcessor(r.chip),
      untilNs: at + drain,
    };
    if (step.action === 'cut-link') {
      const other = far.get(`${step.chip}:${step.port}`);
      const ends = new Set([step.chip, other?.chip]);
      causes.push({ label, step: i, reasons: linkDown, place: (r) => ends.has(r.chip ?? ''), untilNs: healed }, inFlightLoss);
    } else if (step.action === 'kill-router') {
      const cabled = neighbours.get(step.chip) ?? [];
      const around = new Set([step.chip, ...cabled.map((n) => n.far.chip)]);
      const served = new Set(cabled.filter((n) => isProcessor(n.far.chip)).map((n) => chips.get(n.far.chip)!.processor));
      // Both ends of each processor's cable to it: the processor cannot send while it is dead,
      // and a revived router comes up unconfigured, as every router does, routing nothing of what
      // its processors send until the generation after its revival configures it.
      const injecting = new Set(cabled.filter((n) => isProcessor(n.far.chip)).flatMap((n) => [`${n.far.chip}:${n.far.port}`, `${step.chip}:${n.port}`]));
      const revived = undoneAt(i, (s) => s.action === 'revive-router' && s.chip === step.chip);
      const back = Number.isFinite(revived) ? pushAfter(revived) + drain : Infinity;
      causes.push(
        { label, step: i, reasons: new Set(['RouterDead', 'LinkDown']), place: (r) => around.has(r.chip ?? ''), untilNs: healed },
        inFlightLoss,
        { label: `${label}: packets for the processors it served`, step: i, reasons: null, place: (r) => served.has(r.destination), untilNs: back },
        {
          label: `${label}: what the processors it served sent through it`,
          step: i,
          reasons: new Set(['Unreachable', 'LinkDown', 'NoRoute']),
          place: (r) => injecting.has(`${r.chip}:${r.port}`),
          untilNs: back,
        },
      );
    } else if (step.action === 'declare-fault' && step.kind === 'router') {
      const served = new Set((neighbours.get(step.chip) ?? []).filter((n) => isProcessor(n.far.chip)).map((n) => chips.get(n.far.chip)!.processor));
      const cleared = undoneAt(i, (s) => s.action === 'clear-fault' && s.chip === step.chip && s.port === undefined);
      causes.push({
        label: `${label}: packets for the processors it serves`,
        step: i,
        reasons: null,
        place: (r) => served.has(r.destination),
        untilNs: Number.isFinite(cleared) ? pushAfter(cleared) + drain : Infinity,
      });
    } else if (step.action === 'stop-accepting') {
      const router = far.get(`${step.chip}:${step.port}`)?.chip;
      const processor = chips.get(step.chip)?.processor;
      causes.push({
        label,
        step: i,
        reasons: new Set(['ForwardProgressTimeout']),
        place: (r) => r.chip === router && r.destination === processor,
        untilNs: Infinity,
      });
    }
  });
  return causes;
}

/** Each family's rules for what explains a discard. */
const DISCARD_CAUSES: Readonly<Partial<Record<FabricFamily, (design: FabricDesign, course: DrillCourse) => Cause[]>>> = {
  blackwidow: routerFabricCauses,
  bgl: bglDiscardCauses,
  anton2: anton2DiscardCauses,
  'flattened-butterfly': flatDiscardCauses,
};
