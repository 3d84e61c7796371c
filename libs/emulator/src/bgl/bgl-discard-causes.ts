/**
 * What explains a discard in a BlueGene/L drill (drill/discard-explanations.ts): every node is both
 * an endpoint and a router, and the hardware cannot route around a dead node — its node software
 * does, by the route-override tables the control plane pushes (paper 002 §3). So, from the moment
 * of a step:
 *
 * - a dead node: what it held and what reached it (node-died), and packets its neighbours could
 *   send no way but to it (link-down: a static leg, or the last dimension of a dynamic one, ran into
 *   it), at it and its six neighbours, until the first generation pushed after its death and the
 *   drain time; packets for it, whatever became of them and wherever (a source's software refuses
 *   them as unreachable once the tables say so), for as long as it is dead and until the generation
 *   after its replacement;
 * - any node death: packets between a pair the pushed generations declared cut (their verification
 *   proved no route of the repertoire joins them: co-linear dead nodes), refused by the source's
 *   software as unreachable, until the generation after the death is undone;
 * - a cut cable: link-down discards at its two ends until the generation after it and the drain time;
 * - a node an operator declares faulty: packets for it, from then until the generation after the
 *   fault is cleared.
 *
 * Nothing else explains a discard: a noisy cable loses nothing (§2: the link retransmits what its
 * CRC rejects), nor a node whose software stops reading (back-pressure), nor a declared cable fault.
 */
import type { FabricDesign } from '@weft/fabric-model';
import { cabling, Cause, courseTimes, declaredNodeCause, DrillCourse, nodeDeathCauses } from '../drill/drill-course';

export function bglDiscardCauses(design: FabricDesign, course: DrillCourse): Cause[] {
  const { far, neighbours } = cabling(design);
  const nodeNumber = new Map(design.chips.map((c) => [c.name, c.processor]));
  const nameOf = new Map(design.chips.map((c) => [c.processor, c.name]));
  const { pushAfter } = courseTimes(course);
  const drain = course.drainNs;
  const causes: Cause[] = [];
  course.timeline.forEach((step, i) => {
    const at = course.stepNs[i];
    const label = course.labels[i];
    const healed = pushAfter(at) + drain;
    if (step.action === 'kill-router') {
      const around = new Set([step.chip, ...(neighbours.get(step.chip) ?? [])]);
      causes.push(...nodeDeathCauses(course, i, around, nodeNumber.get(step.chip), (d) => nameOf.get(d), new Set(['node-died', 'link-down'])));
    } else if (step.action === 'cut-link') {
      const ends = new Set([step.chip, far.get(`${step.chip}:${step.port}`)]);
      causes.push({ label, step: i, reasons: new Set(['link-down']), place: (r) => ends.has(r.chip ?? ''), untilNs: healed });
    } else if (step.action === 'declare-fault' && step.kind === 'router') causes.push(declaredNodeCause(course, i, nodeNumber.get(step.chip)));
  });
  return causes;
}
