/**
 * Source routes for maintenance packets (paper 000 §4.1, the `r` bit) from the controller to any
 * chip, over cables still believed good: the route the sweep found while it avoids every faulty
 * end and router, otherwise a breadth-first route around them. A write to a chip must not be
 * sent through the dead link or router it is meant to route around.
 */
import type { SourceRoute } from '../maintenance-transport';
import { CableEnd, endKey, indexKnownFabric, KnownFabric } from './known-fabric';

/** Cable ends and routers a route must not cross (a FaultSet is one). */
export interface Avoid {
  has(end: CableEnd): boolean;
  readonly routers: ReadonlySet<string>;
}

const NOTHING: ReadonlySet<string> = new Set();

/** Each chip's cables (its port, the far end), built once per known fabric: the breadth-first
 * fallback used to rebuild it from every cable end on each call, a large part of a 32K
 * router death's reaction. */
const cablesOf = new WeakMap<KnownFabric, Map<string, { port: number; to: CableEnd }[]>>();

function cablesByChip(known: KnownFabric): Map<string, { port: number; to: CableEnd }[]> {
  let out = cablesOf.get(known);
  if (out) return out;
  out = new Map();
  const add = (here: CableEnd, to: CableEnd) => {
    const list = out!.get(here.chip) ?? [];
    list.push({ port: here.port, to });
    out!.set(here.chip, list);
  };
  // In the order of the index's peers (a cable's two ends, cable by cable): the breadth-first
  // fallback takes the first usable cable it finds.
  for (const cable of known.matched.cables) {
    if (cable.lanes === 0) continue;
    add(cable.a, cable.b);
    add(cable.b, cable.a);
  }
  cablesOf.set(known, out);
  return out;
}

/** Routes to each of `targets`; a chip no good route reaches is left out. */
export function maintenanceRoutes(
  known: KnownFabric,
  avoid: Avoid,
  targets: readonly string[],
  alsoAvoid: ReadonlySet<string> = NOTHING,
): Map<string, SourceRoute> {
  const { peer, sweptRoute, chips } = indexKnownFabric(known);
  const usable = (end: CableEnd) => !avoid.has(end) && !alsoAvoid.has(endKey(end)) && !avoid.routers.has(end.chip);
  const routes = new Map<string, SourceRoute>();
  const missing: string[] = [];
  for (const target of targets) {
    const swept = sweptRoute.get(target);
    if (swept && walks(known.attachment, swept, target)) routes.set(target, swept);
    else missing.push(target);
  }
  if (missing.length === 0) return routes;

  // Around a fault, most chips are one hop from a router whose swept route is still good: go
  // there, then across (a fat tree has many such neighbours).
  // Nearest first, so that a chip further down can detour through one already rerouted.
  missing.sort((x, y) => (sweptRoute.get(x)?.length ?? Infinity) - (sweptRoute.get(y)?.length ?? Infinity));
  const good = new Map<string, SourceRoute | null>();
  const goodRoute = (chip: string): SourceRoute | null => {
    if (routes.has(chip)) return routes.get(chip)!;
    if (!good.has(chip)) {
      const via = sweptRoute.get(chip);
      good.set(chip, via && walks(known.attachment, via, chip) ? via : null);
    }
    return good.get(chip)!;
  };
  const still: string[] = [];
  for (const target of missing) {
    const spec = chips.get(target);
    let detour: SourceRoute | null = null;
    for (let p = 0; p < (spec?.portCount ?? 0) && !detour; p++) {
      const here = { chip: target, port: p };
      const there = peer.get(endKey(here));
      if (!there || chips.get(there.chip)?.kind !== 'router' || !usable(here) || !usable(there)) continue;
      const via = goodRoute(there.chip);
      if (via) detour = [...via, there.port];
    }
    if (detour) routes.set(target, detour);
    else still.push(target);
  }
  if (still.length === 0) return routes;

  // Breadth first from the controller over usable cables; processors do not forward.
  const out = cablesByChip(known);
  const found = new Map<string, SourceRoute>([[known.attachment, []]]);
  const queue = [known.attachment];
  for (let i = 0; i < queue.length; i++) {
    const chip = queue[i];
    if (i > 0 && chips.get(chip)?.kind !== 'router') continue;
    for (const { port, to } of out.get(chip) ?? []) {
      if (found.has(to.chip) || !usable({ chip, port }) || !usable(to)) continue;
      found.set(to.chip, [...found.get(chip)!, port]);
      queue.push(to.chip);
    }
  }
  for (const target of still) {
    const route = found.get(target);
    if (route && route.length > 0) routes.set(target, route);
  }
  return routes;

  function walks(from: string, route: SourceRoute, target: string): boolean {
    let at = from;
    for (const port of route) {
      const here = { chip: at, port };
      const there = peer.get(endKey(here));
      if (!there || !usable(here) || !usable(there)) return false;
      at = there.chip;
    }
    return at === target;
  }
}

/** The route to one chip, or null when no good route reaches it. */
export function routeTo(known: KnownFabric, avoid: Avoid, target: string, alsoAvoid: ReadonlySet<string> = NOTHING): SourceRoute | null {
  return maintenanceRoutes(known, avoid, [target], alsoAvoid).get(target) ?? null;
}
