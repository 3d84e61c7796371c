/**
 * The Anton 2 ASIC's floorplan: which router of the 4×4 mesh each channel adapter, skip channel
 * and endpoint adapter hangs off (paper 004 §2.2–2.4, Fig. 1). The figure did not survive the
 * text, so the floorplan is a data file (fixtures/anton2/anton2-floorplan.json) that can be
 * corrected, checked here against every rule the text does state; the emulator's chip model and
 * the control plane's on-chip routes and dependency check read it from here. Each router's ports
 * are numbered: its mesh neighbours first (U+, U−, V+, V− where present), then its skip channel,
 * its channel adapters and its endpoint adapters in the file's order.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  ANTON2_CHANNEL_ADAPTERS,
  ANTON2_ENDPOINT_ADAPTERS,
  ANTON2_MESH_U,
  ANTON2_MESH_V,
  ANTON2_ROUTER_PORTS,
  ANTON2_SLICES,
  anton2ChannelName,
  anton2ChannelPort,
} from '../chips/anton2-asic';
import { InstallationFileError } from '../installation/installation-error';
import { JsonChecker } from '../installation/json-checker';

export const ANTON2_FLOORPLAN_FORMAT = 'weft-anton2-floorplan/1';

/** What a router port connects to: a mesh neighbour or skip-channel partner (by router), a channel adapter (by name), an endpoint adapter (by number). */
export type Anton2RouterPort =
  | { readonly kind: 'mesh' | 'skip'; readonly router: readonly [number, number] }
  | { readonly kind: 'channel'; readonly channel: string }
  | { readonly kind: 'endpoint'; readonly endpoint: number };

export interface Anton2Floorplan {
  readonly description: string;
  /** Routers by U then V (index 4U + V), each with its ports in order. */
  readonly routers: readonly { readonly u: number; readonly v: number; readonly ports: readonly Anton2RouterPort[] }[];
  /** Each channel adapter's router, by ASIC port (anton2ChannelPort). */
  readonly channelRouter: readonly (readonly [number, number])[];
  /** Each endpoint adapter's router. */
  readonly endpointRouter: readonly (readonly [number, number])[];
  /** Per slice, the two routers its skip channel joins (the X− edge's first). */
  readonly skipChannels: readonly (readonly [readonly [number, number], readonly [number, number]])[];
}

/** Checks a floorplan as the data file gives it, every broken rule named by its path. */
export function checkAnton2Floorplan(value: unknown): Anton2Floorplan {
  const c = new JsonChecker();
  const root = c.object(value, '$', ['format', 'description', 'channelAdapters', 'skipChannels', 'endpointAdapters']);
  if (!root) throw new InstallationFileError('floorplan', c.issues);
  if (root.format !== ANTON2_FLOORPLAN_FORMAT) c.fail('$.format', `must be "${ANTON2_FLOORPLAN_FORMAT}", got ${JSON.stringify(root.format)}`);
  const router = (v: unknown, path: string): [number, number] | undefined => {
    const pair = c.array(v, path, 2);
    if (!pair) return undefined;
    if (pair.length !== 2) return c.fail(path, `must be a router [U, V], got ${JSON.stringify(v)}`);
    const u = c.integer(pair[0], `${path}[0]`, 0, ANTON2_MESH_U - 1);
    const w = c.integer(pair[1], `${path}[1]`, 0, ANTON2_MESH_V - 1);
    return u === undefined || w === undefined ? undefined : [u, w];
  };
  const ioEdges = [0, ANTON2_MESH_U - 1];
  const channelRouter: ([number, number] | undefined)[] = new Array(ANTON2_CHANNEL_ADAPTERS).fill(undefined);
  const adapters = c.object(
    root.channelAdapters,
    '$.channelAdapters',
    Array.from({ length: ANTON2_CHANNEL_ADAPTERS }, (_, p) => anton2ChannelName(p)),
  );
  if (adapters) {
    for (let port = 0; port < ANTON2_CHANNEL_ADAPTERS; port++) {
      const name = anton2ChannelName(port);
      const path = `$.channelAdapters["${name}"]`;
      if (adapters[name] === undefined) c.fail(path, 'is missing: every one of the 12 channel adapters has a router');
      else channelRouter[port] = router(adapters[name], path);
      const at = channelRouter[port];
      // §2.2: "I/O ... on two opposite edges of the ASIC".
      if (at && !ioEdges.includes(at[0])) c.fail(path, `must be on an I/O edge (U = ${ioEdges.join(' or U = ')}), got R${at.join(',')}`);
    }
  }
  const same = (a?: [number, number], b?: [number, number]) => a !== undefined && b !== undefined && a[0] === b[0] && a[1] === b[1];
  for (let s = 0; s < ANTON2_SLICES; s++) {
    for (const d of [1, 2]) {
      // §2.4: a Y or Z through-route traverses only a single router.
      const plus = channelRouter[anton2ChannelPort(d, false, s)];
      const minus = channelRouter[anton2ChannelPort(d, true, s)];
      if (plus && minus && !same(plus, minus))
        c.fail(
          `$.channelAdapters["${'XYZ'[d]}${s}-"]`,
          `must be on the router of ${'XYZ'[d]}${s}+ (R${plus.join(',')}): a ${'XYZ'[d]} through-route crosses one router`,
        );
    }
    // §2.2: the Y and Z channels of a slice on the same side of the ASIC.
    const y = channelRouter[anton2ChannelPort(1, false, s)];
    const z = channelRouter[anton2ChannelPort(2, false, s)];
    if (y && z && y[0] !== z[0])
      c.fail(`$.channelAdapters["Z${s}+"]`, `must be on the same edge as Y${s} (U = ${y[0]}): the Y and Z channels of a slice share a side`);
    // §2.2: the two X directions split across the two edges.
    const xp = channelRouter[anton2ChannelPort(0, false, s)];
    const xm = channelRouter[anton2ChannelPort(0, true, s)];
    if (xp && xm && xp[0] === xm[0])
      c.fail(`$.channelAdapters["X${s}-"]`, `must be on the edge opposite X${s}+ (U = ${xp[0]}): the two X directions are split across the two edges`);
  }
  const skipChannels: ([[number, number], [number, number]] | undefined)[] = new Array(ANTON2_SLICES).fill(undefined);
  const skips = c.array(root.skipChannels, '$.skipChannels', 8);
  skips?.forEach((entry, i) => {
    const path = `$.skipChannels[${i}]`;
    const o = c.object(entry, path, ['slice', 'routers']);
    if (!o) return;
    const slice = c.integer(o.slice, `${path}.slice`, 0, ANTON2_SLICES - 1);
    const ends = c.array(o.routers, `${path}.routers`, 2);
    if (slice === undefined || !ends) return;
    if (ends.length !== 2) return c.fail(`${path}.routers`, 'must name the two routers it joins');
    const a = router(ends[0], `${path}.routers[0]`);
    const b = router(ends[1], `${path}.routers[1]`);
    if (!a || !b) return;
    if (skipChannels[slice]) return c.fail(`${path}.slice`, `slice ${slice} already has a skip channel`);
    // §2.4: X through-routes skip the two intermediate routers of a column: X− edge to X+ edge.
    const xm = channelRouter[anton2ChannelPort(0, true, slice)];
    const xp = channelRouter[anton2ChannelPort(0, false, slice)];
    if (xm && xp && !(same(a, xm) && same(b, xp)))
      return c.fail(
        `${path}.routers`,
        `must join X${slice}-'s router R${xm.join(',')} to X${slice}+'s R${xp.join(',')}, got R${a.join(',')} and R${b.join(',')}`,
      );
    if (a[1] !== b[1] || Math.abs(a[0] - b[0]) !== ANTON2_MESH_U - 1)
      return c.fail(`${path}.routers`, `must run along a column from edge to edge, past two routers; got R${a.join(',')} and R${b.join(',')}`);
    skipChannels[slice] = [a, b];
    return undefined;
  });
  if (skips) for (let s = 0; s < ANTON2_SLICES; s++) if (!skipChannels[s]) c.fail('$.skipChannels', `slice ${s} has no skip channel for its X through-routes`);
  const endpointRouter: [number, number][] = [];
  const endpoints = c.array(root.endpointAdapters, '$.endpointAdapters', 64);
  if (endpoints) {
    if (endpoints.length !== ANTON2_ENDPOINT_ADAPTERS)
      c.fail('$.endpointAdapters', `must place the ${ANTON2_ENDPOINT_ADAPTERS} endpoint adapters, got ${endpoints.length}`);
    endpoints.forEach((e, i) => {
      const at = router(e, `$.endpointAdapters[${i}]`);
      if (at) endpointRouter.push(at);
    });
  }
  if (c.issues.length > 0) throw new InstallationFileError('floorplan', c.issues);
  // Each router's ports, in order; six at most.
  const routers = [];
  for (let u = 0; u < ANTON2_MESH_U; u++)
    for (let v = 0; v < ANTON2_MESH_V; v++) {
      const ports: Anton2RouterPort[] = [];
      if (u + 1 < ANTON2_MESH_U) ports.push({ kind: 'mesh', router: [u + 1, v] });
      if (u > 0) ports.push({ kind: 'mesh', router: [u - 1, v] });
      if (v + 1 < ANTON2_MESH_V) ports.push({ kind: 'mesh', router: [u, v + 1] });
      if (v > 0) ports.push({ kind: 'mesh', router: [u, v - 1] });
      for (const [a, b] of skipChannels as [[number, number], [number, number]][]) {
        if (a[0] === u && a[1] === v) ports.push({ kind: 'skip', router: b });
        if (b[0] === u && b[1] === v) ports.push({ kind: 'skip', router: a });
      }
      channelRouter.forEach((at, port) => at![0] === u && at![1] === v && ports.push({ kind: 'channel', channel: anton2ChannelName(port) }));
      endpointRouter.forEach((at, endpoint) => at[0] === u && at[1] === v && ports.push({ kind: 'endpoint', endpoint }));
      if (ports.length > ANTON2_ROUTER_PORTS) c.fail('$', `router R${u},${v} would need ${ports.length} ports; a router has ${ANTON2_ROUTER_PORTS}`);
      routers.push({ u, v, ports });
    }
  if (c.issues.length > 0) throw new InstallationFileError('floorplan', c.issues);
  return {
    description: typeof root.description === 'string' ? root.description : '',
    routers,
    channelRouter: channelRouter as [number, number][],
    endpointRouter,
    skipChannels: skipChannels as [[number, number], [number, number]][],
  };
}

/** Reads and checks a floorplan file. */
export function loadAnton2Floorplan(path: string): Anton2Floorplan {
  return checkAnton2Floorplan(JSON.parse(readFileSync(path, 'utf8')));
}

/** The floorplan weft ships (fixtures/anton2/anton2-floorplan.json), found from the source tree or the built one. */
export const ANTON2_FLOORPLAN_FILE = resolve(__dirname, '../../../../fixtures/anton2/anton2-floorplan.json').replace(/dist[\\/]fixtures/, 'fixtures');

let shipped: Anton2Floorplan | undefined;
/** The shipped floorplan, read once. */
export function shippedAnton2Floorplan(): Anton2Floorplan {
  return (shipped ??= loadAnton2Floorplan(ANTON2_FLOORPLAN_FILE));
}
