/**
 * One Anton 2 ASIC's inside as numbers, from its floorplan and on-chip direction order (paper 004
 * §2.2–2.4): the emulator's chip model moves packets by these tables and the control plane's
 * arbiter-load analysis walks them, so both read the chip the same way.
 *
 * Numbering: routers 0‥15 (4U + V), six ports each. Inputs: router r's port p at 6r + p, then each
 * channel adapter's input from its router, its input from the torus, each endpoint adapter's
 * injection and its reception. Outputs carry the number of the input that feeds them (router r's
 * port p; a channel adapter's to the torus and to its router; an endpoint adapter's to its router).
 * An exit — where a packet leaves the ASIC — is a channel adapter 0‥11 (an ASIC port) or endpoint e
 * at 12 + e.
 */
import {
  ANTON2_CHANNEL_ADAPTERS,
  ANTON2_ENDPOINT_ADAPTERS,
  ANTON2_MESH_U,
  ANTON2_MESH_V,
  ANTON2_ROUTER_PORTS,
  anton2ChannelName,
  anton2ChannelPort,
} from '../chips/anton2-asic';
import type { Anton2Floorplan, Anton2RouterPort } from './anton2-floorplan';
import { ANTON2_DIRECTION_ORDER, meshRoute, type MeshDirection } from './on-chip-routes';

export const A2_ROUTERS = ANTON2_MESH_U * ANTON2_MESH_V;
export const A2_PORTS = ANTON2_ROUTER_PORTS;
export const A2_IN_CA_FROM_ROUTER = A2_ROUTERS * A2_PORTS;
export const A2_IN_CA_FROM_TORUS = A2_IN_CA_FROM_ROUTER + ANTON2_CHANNEL_ADAPTERS;
export const A2_IN_EA_INJECT = A2_IN_CA_FROM_TORUS + ANTON2_CHANNEL_ADAPTERS;
export const A2_IN_EA_RECEIVE = A2_IN_EA_INJECT + ANTON2_ENDPOINT_ADAPTERS;
export const A2_INPUTS = A2_IN_EA_RECEIVE + ANTON2_ENDPOINT_ADAPTERS;
export const A2_OUTPUTS = A2_IN_EA_RECEIVE;
export const A2_EXIT_ENDPOINT = ANTON2_CHANNEL_ADAPTERS;
export const A2_EXITS = ANTON2_CHANNEL_ADAPTERS + ANTON2_ENDPOINT_ADAPTERS;

export interface Anton2ChipWiring {
  /** Per output, the input it feeds on the same ASIC (−1 for a channel adapter's torus side, and a router's unused ports). */
  readonly downstream: Int32Array;
  /** Per router, exit and through flag (index (r × EXITS + exit) × 2 + through): the router's port towards the exit. */
  readonly routeOut: Int8Array;
}

/** A router's index from its [U, V]. */
export function anton2RouterIndex(at: readonly [number, number]): number {
  return at[0] * ANTON2_MESH_V + at[1];
}

export function anton2ChipWiring(plan: Anton2Floorplan, order: readonly MeshDirection[] = ANTON2_DIRECTION_ORDER): Anton2ChipWiring {
  const downstream = new Int32Array(A2_OUTPUTS).fill(-1);
  const portOf = (r: number, match: (p: Anton2RouterPort) => boolean) => plan.routers[r].ports.findIndex(match);
  const routerAt = (r: number): [number, number] => [plan.routers[r].u, plan.routers[r].v];
  const channelPortOf = (r: number, c: number) => portOf(r, (q) => q.kind === 'channel' && q.channel === anton2ChannelName(c));
  const endpointPortOf = (r: number, e: number) => portOf(r, (q) => q.kind === 'endpoint' && q.endpoint === e);
  for (let r = 0; r < A2_ROUTERS; r++)
    plan.routers[r].ports.forEach((port, p) => {
      if (port.kind === 'mesh' || port.kind === 'skip') {
        const far = anton2RouterIndex(port.router);
        downstream[r * A2_PORTS + p] = far * A2_PORTS + portOf(far, (q) => q.kind === port.kind && anton2RouterIndex(q.router) === r);
      } else if (port.kind === 'channel')
        downstream[r * A2_PORTS + p] =
          A2_IN_CA_FROM_ROUTER + anton2ChannelPort('XYZ'.indexOf(port.channel[0]), port.channel[2] === '-', Number(port.channel[1]));
      else if (port.kind === 'endpoint') downstream[r * A2_PORTS + p] = A2_IN_EA_RECEIVE + port.endpoint;
    });
  for (let c = 0; c < ANTON2_CHANNEL_ADAPTERS; c++) {
    const r = anton2RouterIndex(plan.channelRouter[c]);
    downstream[A2_IN_CA_FROM_TORUS + c] = r * A2_PORTS + channelPortOf(r, c);
  }
  for (let e = 0; e < ANTON2_ENDPOINT_ADAPTERS; e++) {
    const r = anton2RouterIndex(plan.endpointRouter[e]);
    downstream[A2_IN_EA_INJECT + e] = r * A2_PORTS + endpointPortOf(r, e);
  }
  const routeOut = new Int8Array(A2_ROUTERS * A2_EXITS * 2).fill(-1);
  for (let r = 0; r < A2_ROUTERS; r++)
    for (let x = 0; x < A2_EXITS; x++) {
      const atExit = x < ANTON2_CHANNEL_ADAPTERS ? plan.channelRouter[x] : plan.endpointRouter[x - A2_EXIT_ENDPOINT];
      const target = anton2RouterIndex(atExit);
      let port: number;
      if (target === r) port = x < ANTON2_CHANNEL_ADAPTERS ? channelPortOf(r, x) : endpointPortOf(r, x - A2_EXIT_ENDPOINT);
      else {
        // §2.4: local routes by the direction order; the next router is the route's second.
        const next = anton2RouterIndex(meshRoute(routerAt(r), routerAt(target), order).routers[1]);
        port = portOf(r, (q) => q.kind === 'mesh' && anton2RouterIndex(q.router) === next);
      }
      routeOut[(r * A2_EXITS + x) * 2] = port;
      routeOut[(r * A2_EXITS + x) * 2 + 1] = port;
      // §2.4: an X through route skips the two routers between the X− and the X+ edge.
      if (x < ANTON2_CHANNEL_ADAPTERS && x >> 2 === 0) {
        const skip = portOf(r, (q) => q.kind === 'skip' && anton2RouterIndex(q.router) === target);
        if (skip >= 0) routeOut[(r * A2_EXITS + x) * 2 + 1] = skip;
      }
    }
  return { downstream, routeOut };
}

/** A chip-local input's name for reports: R<u>,<v>.<port>, a channel adapter's out or in, an endpoint adapter's inject or receive. */
export function anton2BufferName(local: number): string {
  if (local < A2_IN_CA_FROM_ROUTER)
    return `R${Math.floor(local / A2_PORTS / ANTON2_MESH_V)},${Math.floor(local / A2_PORTS) % ANTON2_MESH_V}.${local % A2_PORTS}`;
  if (local < A2_IN_CA_FROM_TORUS) return `${anton2ChannelName(local - A2_IN_CA_FROM_ROUTER)} out`;
  if (local < A2_IN_EA_INJECT) return `${anton2ChannelName(local - A2_IN_CA_FROM_TORUS)} in`;
  if (local < A2_IN_EA_RECEIVE) return `EA${local - A2_IN_EA_INJECT} inject`;
  return `EA${local - A2_IN_EA_RECEIVE} receive`;
}
