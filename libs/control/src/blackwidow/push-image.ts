/**
 * Writes a whole BlackWidow configuration image into the fabric through the maintenance
 * transport, in push-plan order (see push-plan.ts), and tells which routers two images differ on.
 */
import type { MaintenanceTransport } from '../maintenance-transport';
import type { ConfigurationImage, RouterImage } from './blackwidow-engine';
import { planPush } from './push-plan';
import { executePlan, PushReport } from '../engine/push-plan';

export function pushImage(transport: MaintenanceTransport, image: ConfigurationImage, concurrency = 256): Promise<PushReport> {
  return executePlan(transport, planPush(null, image), { concurrency });
}

/** Which routers' registers differ from the previous image (their source routes aside). The
 * routing engine keeps the image object of a router that did not change, so only the others are
 * compared register by register. */
export function diffImages(previous: ConfigurationImage | null, next: ConfigurationImage): { changed: string[]; removed: string[] } {
  const registers = (r: RouterImage) => JSON.stringify({ ...r, route: undefined });
  const before = new Map((previous?.routers ?? []).map((r) => [r.name, r]));
  const changed: string[] = [];
  for (const r of next.routers) {
    const old = before.get(r.name);
    if (old !== r && (!old || registers(old) !== registers(r))) changed.push(r.name);
  }
  const names = new Set(next.routers.map((r) => r.name));
  return { changed, removed: [...before.keys()].filter((n) => !names.has(n)) };
}
