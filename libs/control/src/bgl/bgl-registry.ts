/**
 * What the service needs of the BlueGene/L engine beyond computing images (its row in
 * routing-engines.ts): the push plan from what the nodes hold, reconciling by reading back, the
 * triage of interrupts, a node's registers compared and shown in the node's terms, and the image
 * as text.
 */
import { BGL_BROADCAST_ROUTE, describeOverrideTable, InterruptRecord, MaintenanceTransport, Torus } from '@weft/fabric-model';
import type { TriageContext, TriageDecision } from '../automation/fault-triage';
import { executePlan, PushPlan, PushReport, ReconcileReport } from '../engine/push-plan';
import type { RouterDiff } from '../engine/chip-diff';
import { diffRegisterImage, planRegisterPush, reconcileRegisterImage, sameWords, triageControlNetworkInterrupts } from '../engine/register-images';
import type { BglImage, BglNodeImage } from './bgl-routing-engine';
import { nodeWrites } from './bgl-routing-engine';

/** The writes that make the nodes hold `next` from `held` (null: unknown, every register): one phase, only what differs. */
export function planBglPush(held: BglImage | null, next: BglImage): PushPlan {
  // A node's registers are its own: no order among nodes keeps a packet off a fault. A packet
  // injected under a node's old table meets only elements live when it was computed, and a
  // fault's new tables are pushed after the fault, not before.
  const plan = planRegisterPush(held, next, nodeWrites, 'node registers and route-override tables');
  // The fault set: one write to every node at once (issue 55), after their registers.
  const faultSet = next.faultSet ?? [];
  if (held && sameWords(held.faultSet ?? [], faultSet)) return plan;
  if (!held && faultSet.length === 0) return plan;
  const broadcast = { router: '(every node)', route: BGL_BROADCAST_ROUTE, register: 'faultSet', indices: [0], value: faultSet, whole: true };
  return { phases: [...plan.phases, { name: 'the fault set, broadcast to every node', writes: [broadcast] }] };
}

/** Pushes `next` over the control network from what the nodes hold (`held`; null: unknown): the plan above, executed; and how many nodes it wrote one by one. */
export async function pushBglImage(transport: MaintenanceTransport, held: BglImage | null, next: BglImage): Promise<PushReport & { nodes: number }> {
  const plan = planBglPush(held, next);
  const report = await executePlan(transport, plan);
  // Nodes written one by one (a broadcast reaches every node, and is not counted among them).
  const nodes = new Set(plan.phases.flatMap((phase) => phase.writes.filter((w) => w.route.length > 0).map((w) => w.router)));
  return { ...report, nodes: nodes.size };
}

/** Makes the nodes hold `image` whatever they hold: reads every register block back and rewrites what differs. */
export function reconcileBglImage(transport: MaintenanceTransport, image: BglImage): Promise<ReconcileReport> {
  // Each node's copy of the fault set is read back with its registers (and written to it alone where it differs).
  const faultSet = image.faultSet ?? [];
  return reconcileRegisterImage(transport, image, (node) => [...nodeWrites(node), { register: 'faultSet', index: 0, value: faultSet }]);
}

/** What a batch of interrupts means on BG/L's torus (engine/register-images.ts: the far end probed over JTAG). */
export function triageBglInterrupts(
  interrupts: readonly InterruptRecord[],
  transport: MaintenanceTransport,
  context: TriageContext,
): Promise<TriageDecision[]> {
  return triageControlNetworkInterrupts(interrupts, transport, context, {
    identityRegister: 'nodeIdentity',
    linkStatesRegister: 'linkStates',
    called: 'node',
    portName: (port) => `${['x+', 'x-', 'y+', 'y-', 'z+', 'z-'][port]}`,
  });
}

/** Register by register, in the node's terms, what differs between two images of a node. */
export function diffBglNode(chip: string, before: BglNodeImage | undefined, after: BglNodeImage | undefined): RouterDiff | undefined {
  return diffRegisterImage(chip, before, after, nodeWrites, meaningOf);
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
  if (image.faultSet && image.faultSet.length > 0) lines.push(`fault set broadcast ${image.faultSet.join(',')}`);
  for (const cut of image.cut) lines.push(`cut ${cut.source} → ${cut.destinations.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

export const BGL_IMAGE_TEXT_FORMAT = 'weft-bgl-image/1';
