/**
 * What the service needs of the Anton 2 engine beyond computing images (its row in
 * routing-engines.ts): the push plan, reconciling by reading back, the triage of link interrupts
 * (the far end probed over the control network), an ASIC's registers compared in its terms, and
 * the image as text — the register-image parts (engine/register-images.ts) with Anton 2's words.
 */
import * as model from '@weft/fabric-model';
import type { InterruptRecord, MaintenanceTransport } from '@weft/fabric-model';
import type { TriageContext, TriageDecision } from '../automation/fault-triage';
import type { RouterDiff } from '../engine/chip-diff';
import type { PushPlan, ReconcileReport } from '../engine/push-plan';
import { diffRegisterImage, planRegisterPush, reconcileRegisterImage, triageControlNetworkInterrupts } from '../engine/register-images';
import { Anton2AsicImage, anton2WriteList } from './anton2-configuration';
import type { Anton2EngineImage } from './anton2-routing-engine';

export const ANTON2_IMAGE_TEXT_FORMAT = 'weft-anton2-image/1';

/** The writes that make the ASICs hold `next` from `held` (null: unknown): one phase, only what differs — an ASIC's registers are its own, and a route policy only narrows routes that stay minimal. */
export function planAnton2Push(held: Anton2EngineImage | null, next: Anton2EngineImage): PushPlan {
  return planRegisterPush(held, next, anton2WriteList, 'ASIC registers, route policies, arbiter weights and multicast tables');
}

export function reconcileAnton2Image(transport: MaintenanceTransport, image: Anton2EngineImage): Promise<ReconcileReport> {
  return reconcileRegisterImage(transport, image, anton2WriteList);
}

export function triageAnton2Interrupts(
  interrupts: readonly InterruptRecord[],
  transport: MaintenanceTransport,
  context: TriageContext,
): Promise<TriageDecision[]> {
  return triageControlNetworkInterrupts(interrupts, transport, context, {
    identityRegister: 'asicIdentity',
    linkStatesRegister: 'channelStates',
    called: 'ASIC',
    portName: (port) => model.anton2ChannelName(port),
  });
}

export function diffAnton2Asic(chip: string, before: Anton2AsicImage | undefined, after: Anton2AsicImage | undefined): RouterDiff | undefined {
  return diffRegisterImage(chip, before, after, anton2WriteList, meaningOf);
}

function meaningOf(register: string, before: readonly number[] | null, after: readonly number[] | null): string {
  const restricted = (v: readonly number[] | null) => (v ? v.length / 2 : 0);
  switch (register) {
    case 'routePolicy':
      return `destinations with fewer than all 12 (order, slice) combinations ${restricted(before)} → ${restricted(after)}`;
    case 'multicastTable':
      return `multicast table words ${before?.length ?? 0} → ${after?.length ?? 0}`;
    case 'arbiterWeights':
      return 'SA2 inverse weights';
    case 'datelines':
      return `datelines (+x +y +z −x −y −z) ${before?.join(',') ?? '-'} → ${after?.join(',') ?? '-'}`;
    default:
      return `${register} ${before?.join(',') ?? '-'} → ${after?.join(',') ?? '-'}`;
  }
}

/** An image as readable text (its golden form): each ASIC's registers, weights as a digest of their values. */
export function dumpAnton2Image(image: Anton2EngineImage): string {
  const lines = [`${ANTON2_IMAGE_TEXT_FORMAT} ${image.shape.join('x')}`];
  for (const asic of image.routers) {
    lines.push(`asic ${asic.name} at ${asic.route.join('.')}`);
    lines.push(`  coordinates ${asic.nodeCoordinates.join(',')} size ${asic.torusSize.join(',')} datelines ${asic.datelines.join(',')}`);
    const restricted: string[] = [];
    for (let i = 0; i < asic.routePolicy.length; i += 2) restricted.push(`${asic.routePolicy[i]}:${asic.routePolicy[i + 1].toString(16).padStart(3, '0')}`);
    if (restricted.length > 0) lines.push(`  route policy ${restricted.join(' ')}`);
    const counts = new Map<number, number>();
    for (const w of asic.arbiterWeights) counts.set(w, (counts.get(w) ?? 0) + 1);
    lines.push(
      `  weights ${[...counts]
        .sort((a, b) => a[0] - b[0])
        .map(([w, n]) => `${w}×${n}`)
        .join(' ')} modes ${asic.arbiterModes.some((m) => m === 1) ? 'round-robin' : 'inverse-weighted'}`,
    );
    if (asic.multicastTable.length > 0) lines.push(`  multicast ${asic.multicastTable.join(',')}`);
  }
  for (const cut of image.cut) lines.push(`cut ${cut.source} → ${cut.destinations.join(' ')}`);
  return `${lines.join('\n')}\n`;
}
