/**
 * What the service needs of the flattened butterfly engine beyond computing images (its row in
 * routing-engines.ts): the push plan, reconciling by reading back, the triage of link interrupts
 * (the far end probed over the service network), a router's registers compared in its terms, and
 * the image as text — the register-image parts (engine/register-images.ts) with its words.
 */
import type { InterruptRecord, MaintenanceTransport } from '@weft/fabric-model';
import { FLAT_ROUTINGS } from '@weft/fabric-model';
import type { TriageContext, TriageDecision } from '../automation/fault-triage';
import type { RouterDiff } from '../engine/chip-diff';
import type { PushPlan, ReconcileReport } from '../engine/push-plan';
import { diffRegisterImage, planRegisterPush, reconcileRegisterImage, triageControlNetworkInterrupts } from '../engine/register-images';
import { FlatImage, FlatRouterImage, flatWriteList } from './flat-configuration';

export const FLAT_IMAGE_TEXT_FORMAT = 'weft-flattened-butterfly-image/1';

/** The writes that make the routers hold `next` from `held` (null: unknown): one phase, only what differs. */
export function planFlatPush(held: FlatImage | null, next: FlatImage): PushPlan {
  return planRegisterPush(held, next, flatWriteList, 'router shapes, port maps, VC maps, masks and routing modes');
}

export function reconcileFlatImage(transport: MaintenanceTransport, image: FlatImage): Promise<ReconcileReport> {
  return reconcileRegisterImage(transport, image, flatWriteList);
}

export function triageFlatInterrupts(
  interrupts: readonly InterruptRecord[],
  transport: MaintenanceTransport,
  context: TriageContext,
): Promise<TriageDecision[]> {
  return triageControlNetworkInterrupts(interrupts, transport, context, {
    identityRegister: 'routerIdentity',
    linkStatesRegister: 'channelStates',
    called: 'router',
    portName: (port) => `port ${port}`,
  });
}

export function diffFlatRouter(chip: string, before: FlatRouterImage | undefined, after: FlatRouterImage | undefined): RouterDiff | undefined {
  return diffRegisterImage(chip, before, after, flatWriteList, (register, was, is) => {
    if (register === 'routingMode') {
      const mode = (v: readonly number[] | null) => (v && v.length === 2 ? `${FLAT_ROUTINGS[v[0]]} (${v[1] ? 'sequential' : 'greedy'})` : '-');
      return `routing mode ${mode(was)} → ${mode(is)}`;
    }
    if (register === 'portMask') {
      const masked = (v: readonly number[] | null) => (v ? v.map((m, p) => (m ? p : -1)).filter((p) => p >= 0) : []);
      return `masked ports ${masked(was).join(',') || 'none'} → ${masked(is).join(',') || 'none'}`;
    }
    return `${register} ${was?.join(',') ?? '-'} → ${is?.join(',') ?? '-'}`;
  });
}

/** An image as readable text (its golden form). */
export function dumpFlatImage(image: FlatImage): string {
  const lines = [`${FLAT_IMAGE_TEXT_FORMAT} ${image.grid.k}:${image.grid.sizes.join('x')} ${image.routing} ${image.allocator}`];
  for (const r of image.routers) {
    const masked = r.portMask.map((m, p) => (m ? p : -1)).filter((p) => p >= 0);
    lines.push(
      `router ${r.name} at ${r.route.join('.')} map ${r.portMap.join(',')} vcs ${r.vcMap.join(',')} split ${r.bufferSplit.join(',')}${masked.length ? ` masked ${masked.join(',')}` : ''}`,
    );
  }
  for (const d of image.deadRouters) lines.push(`dead ${d}`);
  for (const m of image.masked) lines.push(`masked ${m}`);
  for (const cut of image.cut) lines.push(`cut ${cut.source} → ${cut.destinations.join(' ')}`);
  return `${lines.join('\n')}\n`;
}
