/**
 * Writes a BlackWidow configuration image into the fabric through the maintenance transport:
 * each register once per virtual router, broadcast to all its tiles in one packet.
 */
import type { MaintenanceTransport } from '../maintenance-transport';
import { ConfigurationImage, PORT_DOWNLINK, RouterImage, TABLE_ENTRIES } from './blackwidow-engine';

export interface PushReport {
  readonly writes: number;
  readonly failures: { router: string; register: string; detail: string }[];
}

export async function pushImage(transport: MaintenanceTransport, image: ConfigurationImage, concurrency = 256): Promise<PushReport> {
  let writes = 0;
  const failures: PushReport['failures'] = [];
  const queue: (() => Promise<void>)[] = [];
  for (const router of image.routers) queue.push(...routerWrites(transport, router, failures, () => writes++));
  let next = 0;
  const worker = async () => {
    while (next < queue.length) await queue[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  return { writes, failures };
}

function routerWrites(transport: MaintenanceTransport, router: RouterImage, failures: PushReport['failures'], count: () => void): (() => Promise<void>)[] {
  const writes: (() => Promise<void>)[] = [];
  const write = (register: string, indices: number[], value: number[]) =>
    writes.push(async () => {
      count();
      const result = await transport.writeMany(router.route, register, indices, value);
      if (!result.ok) failures.push({ router: router.name, register, detail: `${result.reason}: ${result.detail}` });
    });
  writes.push(async () => {
    count();
    const result = await transport.write(router.route, 'portDirections', 0, router.portDirection);
    if (!result.ok) failures.push({ router: router.name, register: 'portDirections', detail: `${result.reason}: ${result.detail}` });
  });
  const allPorts = Array.from({ length: 64 }, (_, p) => p);
  write('laneRetryThreshold', allPorts, [router.link.laneRetryThreshold]);
  const leaf = allPorts.filter((p) => router.rank === 1 && router.portDirection[p] === PORT_DOWNLINK);
  const inner = allPorts.filter((p) => !leaf.includes(p));
  write('forwardProgressTimer', inner, [router.link.forwardProgressTimer]);
  if (leaf.length > 0) write('forwardProgressTimer', leaf, [router.link.leafForwardProgressTimer]);
  write('maxPacketLength', [0], [router.link.maxPacketLength]);
  router.link.octantRates.forEach((rate, octant) => write('octantRate', [octant], [rate]));
  for (const vr of router.virtualRouters) {
    const tiles = [...vr.tiles];
    write('rootDetect', tiles, [...vr.rootDetect]);
    write('downRoute', tiles, [...vr.downRoute]);
    write('hashSelect', tiles, [vr.hashSelect]);
    vr.portMap.forEach((physical, logical) => {
      if (physical >= 0)
        write(
          'portMap',
          tiles.map((t) => t * 64 + logical),
          [physical],
        );
    });
    for (let e = 0; e < TABLE_ENTRIES; e++) {
      const entry = vr.table[e];
      let lo = 0;
      let hi = 0;
      for (const p of entry?.ports ?? []) {
        if (p < 32) lo |= 1 << p;
        else hi |= 1 << (p - 32);
      }
      write(
        'routingTable',
        tiles.map((t) => t * TABLE_ENTRIES + e),
        entry ? [1, entry.location, entry.mask, lo >>> 0, hi >>> 0] : [0, 0, 0, 0, 0],
      );
    }
  }
  return writes;
}

/** Which routers' registers differ from the previous image (their source routes aside). */
export function diffImages(previous: ConfigurationImage | null, next: ConfigurationImage): { changed: string[]; removed: string[] } {
  const registers = (r: RouterImage) => JSON.stringify({ ...r, route: undefined });
  const before = new Map((previous?.routers ?? []).map((r) => [r.name, registers(r)]));
  const changed: string[] = [];
  for (const r of next.routers) if (before.get(r.name) !== registers(r)) changed.push(r.name);
  const names = new Set(next.routers.map((r) => r.name));
  return { changed, removed: [...before.keys()].filter((n) => !names.has(n)) };
}
