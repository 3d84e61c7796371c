/**
 * What the service needs of the BlueGene/L engine beyond computing images (its row in
 * routing-engines.ts): the push plan from what the nodes hold, reconciling by reading back, the
 * triage of interrupts, a node's registers compared and shown in the node's terms, and the image
 * as text.
 */
import { describeOverrideTable, InterruptRecord, MaintenanceTransport, Torus } from '@weft/fabric-model';
import type { TriageContext, TriageDecision } from '../automation/fault-triage';
import { executePlan, PlannedWrite, PushPlan, PushReport, ReconcileReport } from '../blackwidow/push-plan';
import type { RegisterChange, RouterDiff } from '../blackwidow/describe';
import { indexKnownFabric } from '../discovery/known-fabric';
import type { BglImage, BglNodeImage } from './bgl-routing-engine';
import { nodeWrites } from './bgl-routing-engine';

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The writes that make the nodes hold `next` from `held` (null: unknown, every register): one phase, only what differs. */
export function planBglPush(held: BglImage | null, next: BglImage): PushPlan {
  const before = new Map((held?.routers ?? []).map((r) => [r.name, r]));
  const writes: PlannedWrite[] = [];
  for (const node of next.routers) {
    const old = before.get(node.name);
    if (old === node) continue;
    const oldWrites = old ? nodeWrites(old) : null;
    nodeWrites(node).forEach((w, k) => {
      if (oldWrites && same(oldWrites[k].value, w.value)) return;
      writes.push({ router: node.name, route: node.route, register: w.register, indices: [w.index], value: w.value });
    });
  }
  // A node's registers are its own: no order among nodes keeps a packet off a fault. A packet
  // injected under a node's old table meets only elements live when it was computed, and a
  // fault's new tables are pushed after the fault, not before.
  return { phases: writes.length > 0 ? [{ name: 'node registers and route-override tables', writes }] : [] };
}

/** Pushes `next` over the control network from what the nodes hold (`held`; null: unknown): the plan above, executed; and how many nodes it wrote. */
export async function pushBglImage(transport: MaintenanceTransport, held: BglImage | null, next: BglImage): Promise<PushReport & { nodes: number }> {
  const plan = planBglPush(held, next);
  const report = await executePlan(transport, plan);
  return { ...report, nodes: new Set(plan.phases.flatMap((phase) => phase.writes.map((w) => w.router))).size };
}

/** Makes the nodes hold `image` whatever they hold: reads every register block back and rewrites what differs. */
export async function reconcileBglImage(transport: MaintenanceTransport, image: BglImage): Promise<ReconcileReport> {
  const failures: ReconcileReport['failures'][number][] = [];
  let checked = 0;
  let rewritten = 0;
  for (const node of image.routers) {
    for (const w of nodeWrites(node)) {
      checked++;
      const held = await transport.read(node.route, w.register, w.index);
      if (!held.ok) {
        failures.push({ router: node.name, register: w.register, detail: `${held.reason}: ${held.detail}` });
        continue;
      }
      if (same(held.value, w.value)) continue;
      rewritten++;
      const written = await transport.write(node.route, w.register, w.index, w.value);
      if (!written.ok) failures.push({ router: node.name, register: w.register, detail: `${written.reason}: ${written.detail}` });
    }
  }
  return { checked, rewritten, failures };
}

/**
 * What a batch of interrupts means on a torus. A link-down is probed at its far end over the
 * control network, which does not cross the torus: a far node that does not answer is dead (its
 * neighbours all report, one declaration serves), one that answers means the cable is. A link-up
 * clears what interrupts declared: a dead node that answers again, or a cable.
 */
export async function triageBglInterrupts(
  interrupts: readonly InterruptRecord[],
  transport: MaintenanceTransport,
  context: TriageContext,
): Promise<TriageDecision[]> {
  const index = indexKnownFabric(context.known);
  const nameOf = new Map<number, string>();
  for (const [serial, name] of context.known.matched.names) nameOf.set(serial, name);
  const designFar = new Map<string, { chip: string; port: number }>();
  for (const cable of context.known.design.cables) {
    designFar.set(`${cable.a.chip}:${cable.a.port}`, cable.b);
    designFar.set(`${cable.b.chip}:${cable.b.port}`, cable.a);
  }
  const decisions: TriageDecision[] = [];
  const decided = new Set<string>();
  const answers = new Map<string, boolean>();
  const answering = async (chip: string): Promise<boolean> => {
    let known = answers.get(chip);
    if (known === undefined) {
      const route = index.sweptRoute.get(chip) ?? context.known.discovered.chips.find((c) => nameOf.get(c.serial) === chip)?.route;
      known = route ? (await transport.read(route, 'nodeIdentity')).ok : false;
      answers.set(chip, known);
    }
    return known;
  };
  for (const interrupt of interrupts) {
    const chip = nameOf.get(interrupt.serial) ?? null;
    const port = interrupt.port ?? null;
    if (!chip) {
      decisions.push({ action: 'none', chip: null, port, reason: `an interrupt from serial ${interrupt.serial}, which discovery did not find` });
      continue;
    }
    switch (interrupt.kind) {
      case 'LINK_DOWN': {
        const far = port !== null ? designFar.get(`${chip}:${port}`) : undefined;
        if (!far || port === null) {
          decisions.push({ action: 'none', chip, port, reason: 'a link the design does not cable went down' });
          break;
        }
        if (!(await answering(far.chip))) {
          if (!decided.has(`router:${far.chip}`) && !context.faults.routers.has(far.chip)) {
            decisions.push({
              action: 'declare',
              kind: 'router',
              chip: far.chip,
              port: null,
              reason: `${chip} lost its ${['x+', 'x-', 'y+', 'y-', 'z+', 'z-'][port]} link and ${far.chip} does not answer on the control network`,
            });
          }
          decided.add(`router:${far.chip}`);
        } else if (!decided.has(`link:${chip}:${port}`) && !decided.has(`link:${far.chip}:${far.port}`) && !context.faults.hasPort(chip, port)) {
          decisions.push({
            action: 'declare',
            kind: 'link',
            chip,
            port,
            reason: `the cable ${chip}:${port}–${far.chip}:${far.port} went down; both nodes answer`,
          });
          decided.add(`link:${chip}:${port}`);
        }
        break;
      }
      case 'LINK_UP': {
        const far = port !== null ? designFar.get(`${chip}:${port}`) : undefined;
        for (const fault of context.interruptFaults) {
          const key = `${fault.kind}:${fault.chip}:${fault.port}`;
          if (decided.has(`clear:${key}`)) continue;
          const deadFar = fault.kind === 'router' && far && fault.chip === far.chip && (await answering(far.chip));
          const cable = fault.kind === 'link' && ((fault.chip === chip && fault.port === port) || (far && fault.chip === far.chip && fault.port === far.port));
          if (deadFar || cable) {
            decisions.push({
              action: 'clear',
              kind: fault.kind as 'link' | 'router',
              chip: fault.chip,
              port: fault.port,
              reason: `${chip}:${port} is up again`,
            });
            decided.add(`clear:${key}`);
          }
        }
        break;
      }
      case 'FORWARD_PROGRESS_TIMEOUT':
        decisions.push({
          action: 'none',
          chip,
          port,
          reason: 'no packet has moved for the watchdog time: the ring waiting is in the interrupt; a configuration does not mend a deadlock',
        });
        break;
      case 'LANE_DECOMMISSIONED':
      case 'SOFT_ERROR':
      case 'CONFIGURATION_ERROR':
        decisions.push({ action: 'none', chip, port, reason: `${interrupt.kind} is reported, not routed around` });
        break;
    }
  }
  return decisions;
}

/** Register by register, in the node's terms, what differs between two images of a node. */
export function diffBglNode(chip: string, before: BglNodeImage | undefined, after: BglNodeImage | undefined): RouterDiff | undefined {
  const changes: RegisterChange[] = [];
  const was = before ? nodeWrites(before) : null;
  const now = after ? nodeWrites(after) : null;
  const registers = (now ?? was ?? []).map((w) => w.register);
  registers.forEach((register, k) => {
    const a = was?.[k]?.value ?? null;
    const b = now?.[k]?.value ?? null;
    if (a && b && same(a, b)) return;
    changes.push({ register, target: 'node', before: a, after: b, meaning: meaningOf(register, a, b) });
  });
  return changes.length > 0 ? { chip, changes } : undefined;
}

function meaningOf(register: string, before: readonly number[] | null, after: readonly number[] | null): string {
  if (register === 'routeOverrides') {
    const entries = (v: readonly number[] | null) => (v && v.length >= 2 ? v[1] : 0);
    return `route-override entries ${entries(before)} → ${entries(after)}`;
  }
  if (register === 'routingRegisters') return 'neighbour coordinates and hint cutoffs';
  return 'arbitration and bubble settings';
}

/** A node image as readable text (its golden form). */
export function dumpBglImage(image: BglImage): string {
  const torusShape = image.shape;
  const lines = [`${BGL_IMAGE_TEXT_FORMAT} ${torusShape.join('x')}`];
  for (const node of image.routers) {
    lines.push(`node ${node.name} at ${node.route.join('.')}`);
    lines.push(`  neighbours ${[0, 1, 2, 3, 4, 5].map((d) => `(${node.neighbourCoordinates.slice(3 * d, 3 * d + 3).join(',')})`).join(' ')}`);
    lines.push(`  hint cutoffs plus ${node.hintCutoffPlus.join(',')} minus ${node.hintCutoffMinus.join(',')}`);
    lines.push(`  arbitration ${node.arbitration.join(',')} bubble ${node.bubble.join(',')}`);
    if (node.routeOverrides.length > 2 && node.routeOverrides[1] > 0) {
      const torus = new Torus(torusShape);
      for (const line of describeOverrideTable(torus, node.routeOverrides)) lines.push(`  ${line}`);
    }
  }
  for (const cut of image.cut) lines.push(`cut ${cut.source} → ${cut.destinations.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

export const BGL_IMAGE_TEXT_FORMAT = 'weft-bgl-image/1';
