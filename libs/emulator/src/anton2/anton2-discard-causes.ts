/**
 * What explains a discard in an Anton 2 drill (drill/discard-explanations.ts). The hardware does
 * not route around a fault by itself: each source draws a packet's order and slice under its
 * route-policy register (paper 004 §2.3), and the control plane removes from it the combinations
 * that would cross a dead channel or ASIC. So, from the moment of a step:
 *
 * - a cut channel: link-down discards at its two ends (a packet whose route reached the channel),
 *   until the first generation pushed after the cut and the drain time;
 * - a dead ASIC: what it held and what reached it (node-died), and link-down at it and its
 *   neighbours, until the first generation pushed after its death and the drain time; packets for
 *   it, whatever became of them and wherever (a source refuses them as unreachable once its policy
 *   leaves no combination), for as long as it is dead and until the generation after its
 *   replacement; packets between a pair the pushed generations declared cut (every one of the 12
 *   combinations crosses the dead ASIC: both on one line of the torus), refused at the source;
 * - a replaced ASIC: it comes back unconfigured (anton2-sim.ts reviveNode) and discards what it is
 *   sent or sends (unconfigured) until the generation after it and the drain time;
 * - any of these: a multicast copy that reaches an ASIC whose table no longer holds its tree (the
 *   trees are rebuilt around the fault, §2.3), until the generation after it and the drain time;
 * - an ASIC an operator declares faulty: packets for it, until the generation after it is cleared.
 *
 * Nothing else explains a discard: a noisy channel loses nothing (§2.2: go-back-N resends what
 * arrives corrupted), nor a declared channel fault (the new policy is pushed while it still works).
 */
import type { FabricDesign } from '@weft/fabric-model';
import { cabling, Cause, courseTimes, declaredNodeCause, DrillCourse, nodeDeathCauses } from '../drill/drill-course';

export function anton2DiscardCauses(design: FabricDesign, course: DrillCourse): Cause[] {
  const { far, neighbours } = cabling(design);
  // The emulator numbers ASICs in the design's order (a discard's destination).
  const nodeNumber = new Map(design.chips.map((c, i) => [c.name, i]));
  const nameOf = design.chips.map((c) => c.name);
  const { pushAfter } = courseTimes(course);
  const drain = course.drainNs;
  const causes: Cause[] = [];
  const treesRebuilt = (i: number, label: string, healed: number): Cause => ({
    label: `${label}: multicast copies on trees rebuilt around it`,
    step: i,
    reasons: new Set(['no-multicast-entry']),
    place: () => true,
    untilNs: healed,
  });
  course.timeline.forEach((step, i) => {
    const at = course.stepNs[i];
    const label = course.labels[i];
    const healed = pushAfter(at) + drain;
    if (step.action === 'kill-router') {
      const around = new Set([step.chip, ...(neighbours.get(step.chip) ?? [])]);
      causes.push(
        ...nodeDeathCauses(course, i, around, nodeNumber.get(step.chip), (d) => nameOf[d], new Set(['node-died', 'link-down'])),
        treesRebuilt(i, label, healed),
      );
    } else if (step.action === 'revive-router') {
      const node = nodeNumber.get(step.chip);
      causes.push({
        label: `${label}: unconfigured until the generation after it`,
        step: i,
        reasons: new Set(['unconfigured', 'no-multicast-entry']),
        place: (r) => r.chip === step.chip || r.destination === node,
        untilNs: healed,
      });
    } else if (step.action === 'cut-link') {
      const ends = new Set([step.chip, far.get(`${step.chip}:${step.port}`)]);
      causes.push({ label, step: i, reasons: new Set(['link-down']), place: (r) => ends.has(r.chip ?? ''), untilNs: healed }, treesRebuilt(i, label, healed));
    } else if (step.action === 'declare-fault' && step.kind === 'router') causes.push(declaredNodeCause(course, i, nodeNumber.get(step.chip)));
  });
  return causes;
}
