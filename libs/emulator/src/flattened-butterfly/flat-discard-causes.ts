/**
 * What explains a discard in a flattened butterfly drill (drill/discard-explanations.ts). The
 * routers do not route round a fault by themselves: the control plane masks the channels and gives
 * each masked hop a detour (spec §3.6), and takes a dead router out of the intermediates. So, from
 * the moment of a step:
 *
 * - a cut cable: link-down discards at its two ends (what was routed onto it, or on the wire),
 *   until the first generation pushed after the cut and the drain time;
 * - a dead router: what it held and what reached it (router-dead), and link-down at it and its
 *   neighbours, until the first generation pushed after its death and the drain time; packets for
 *   its terminals, whatever became of them and wherever, for as long as it is dead and until the
 *   generation after its replacement (after the push they are refused where the way to it is
 *   masked: no-route);
 * - a replaced router: it comes back unconfigured (flat-sim.ts setRouterDead) and discards what it
 *   is asked to route, until the generation after it and the drain time;
 * - a router an operator declares faulty: packets for its terminals, until the generation after it
 *   is cleared.
 *
 * Nothing else explains a discard: a declared cable fault loses nothing (the masks and detours are
 * pushed while it still works).
 */
import type { FabricDesign } from '@weft/fabric-model';
import { cabling, Cause, courseTimes, DrillCourse } from '../drill/drill-course';

export function flatDiscardCauses(design: FabricDesign, course: DrillCourse): Cause[] {
  const { far, neighbours } = cabling(design);
  const k = Number(design.summary.k);
  // The emulator numbers routers in the design's order; a discard's destination is a terminal, k a router.
  const routerOf = new Map(design.chips.map((c, i) => [c.name, i]));
  const forRouter = (chip: string) => {
    const r = routerOf.get(chip) ?? -1;
    return (destination: number) => Math.floor(destination / k) === r;
  };
  const { pushAfter, undoneAt } = courseTimes(course);
  const drain = course.drainNs;
  const causes: Cause[] = [];
  course.timeline.forEach((step, i) => {
    const at = course.stepNs[i];
    const label = course.labels[i];
    const healed = pushAfter(at) + drain;
    if (step.action === 'kill-router') {
      const around = new Set([step.chip, ...(neighbours.get(step.chip) ?? [])]);
      const revived = undoneAt(i, (s) => s.action === 'revive-router' && s.chip === step.chip);
      const back = Number.isFinite(revived) ? pushAfter(revived) + drain : Infinity;
      const isFor = forRouter(step.chip);
      causes.push(
        { label, step: i, reasons: new Set(['router-dead', 'link-down']), place: (r) => around.has(r.chip ?? ''), untilNs: healed },
        { label: `${label}: packets for its terminals`, step: i, reasons: null, place: (r) => isFor(r.destination), untilNs: back },
      );
    } else if (step.action === 'revive-router') {
      const isFor = forRouter(step.chip);
      causes.push({
        label: `${label}: unconfigured until the generation after it`,
        step: i,
        reasons: new Set(['unconfigured']),
        place: (r) => r.chip === step.chip || isFor(r.destination),
        untilNs: healed,
      });
    } else if (step.action === 'cut-link') {
      const ends = new Set([step.chip, far.get(`${step.chip}:${step.port}`)]);
      causes.push({ label, step: i, reasons: new Set(['link-down']), place: (r) => ends.has(r.chip ?? ''), untilNs: healed });
    } else if (step.action === 'declare-fault' && step.kind === 'router') {
      const cleared = undoneAt(i, (s) => s.action === 'clear-fault' && s.chip === step.chip && s.port === undefined);
      const isFor = forRouter(step.chip);
      causes.push({
        label: `${label}: packets for its terminals`,
        step: i,
        reasons: null,
        place: (r) => isFor(r.destination),
        untilNs: Number.isFinite(cleared) ? pushAfter(cleared) + drain : Infinity,
      });
    }
  });
  return causes;
}
