/**
 * Network discovery by directed-route sweep (like OpenSM's): from the maintenance controller,
 * identify the chip at the end of each of its ports, read which of that chip's ports have live
 * lanes, identify the chip behind each, and so on, hop by hop. Many requests are outstanding at
 * once — a 32K fabric cannot be swept one read at a time. Everything learned comes through the
 * maintenance transport: chip identities (serial numbers), port states, and the port each
 * request arrived on, which gives both ends of every cable.
 */
import type { MaintenanceTransport, RegisterValue, SourceRoute } from '../maintenance-transport';

export const MODEL_YARC = 1;
export const MODEL_PROCESSOR = 2;

export interface DiscoveredChip {
  readonly serial: number;
  readonly kind: 'router' | 'endpoint';
  readonly portCount: number;
  /** The route by which the sweep first reached it (its first element is the controller port). */
  readonly route: SourceRoute;
  /** The controller port (on BlackWidow: the network slice) it was found through. */
  readonly slice: number;
  /** Processor number, for endpoints. */
  readonly processor?: number;
  /** Live lanes per port, for routers. */
  readonly lanes?: readonly number[];
}

export interface DiscoveredEnd {
  readonly serial: number;
  readonly port: number;
}

export interface DiscoveredLink {
  readonly a: DiscoveredEnd;
  readonly b: DiscoveredEnd;
  /** Live lanes at the a end. */
  readonly lanes: number;
}

export interface UnansweredRequest {
  readonly route: SourceRoute;
  readonly register: string;
  readonly reason: string;
}

export interface DiscoveryResult {
  readonly chips: DiscoveredChip[];
  readonly links: DiscoveredLink[];
  readonly unanswered: UnansweredRequest[];
  readonly requests: number;
}

export interface DiscoveryOptions {
  /** The controller's ports to start from (BlackWidow: one per slice). */
  readonly controllerPorts: readonly number[];
  /** Requests outstanding at once. */
  readonly concurrency?: number;
}

export async function discoverFabric(transport: MaintenanceTransport, options: DiscoveryOptions): Promise<DiscoveryResult> {
  const concurrency = options.concurrency ?? 512;
  const chips = new Map<number, DiscoveredChip>();
  const links: DiscoveredLink[] = [];
  const unanswered: UnansweredRequest[] = [];
  let requests = 0;
  /**
   * Reads `register` of the chip at the end of each item's route, with at most `concurrency`
   * requests outstanding; the values in item order (null where no answer came). One transport call
   * for the lot: a 32K sweep makes half a million reads, and a promise per read showed in its
   * profile.
   */
  const readAll = async <T>(items: readonly T[], routeOf: (item: T) => SourceRoute, register: string): Promise<(RegisterValue | null)[]> => {
    const routes = items.map(routeOf);
    requests += routes.length;
    const results = await transport.readMany(routes, register, concurrency);
    return results.map((result, i) => {
      if (result.ok) return result.value;
      unanswered.push({ route: routes[i], register, reason: `${result.reason}: ${result.detail}` });
      return null;
    });
  };
  /**
   * Cable ends already on a link, per chip (by serial) and port: a cable read from both ends in
   * the same hop is recorded once, and a port whose cable was read from its far end is not read
   * again. One small array per chip rather than a set of every end: the sweep makes a look-up per
   * port of a 32K fabric, and hashing half a million ends showed in its profile.
   */
  const linked = new Map<number, Uint8Array>();
  const endsOf = (serial: number, portCount: number) => {
    let ends = linked.get(serial);
    if (!ends) linked.set(serial, (ends = new Uint8Array(portCount)));
    return ends;
  };
  /** Routes chosen so far through each router, to spread the sweep's traffic over parallel paths. */
  const through = new Map<number, number>();

  // Breadth first, one hop at a time: every port read of a hop is answered before the next hop
  // starts, so each cable is read once (from whichever end is nearer), and a chip found over
  // several cables at once is reached by the least-used of them — otherwise every deep route would
  // share the first uplink that happened to answer first, and that one link would carry the sweep.
  let frontier: { route: SourceRoute; from: DiscoveredEnd | null; lanes: number; parents: number }[] = options.controllerPorts.map((port) => ({
    route: [port],
    from: null,
    lanes: 0,
    parents: 0,
  }));
  while (frontier.length > 0) {
    const answers = await readAll(frontier, (item) => item.route, 'identity');
    // Cables first (every answer is one), then the chips seen for the first time.
    /** Per chip seen for the first time: the frontier items (indices) that reached it. */
    const found = new Map<number, number[]>();
    frontier.forEach((item, i) => {
      const identity = answers[i];
      if (!identity) return;
      // Indexed reads, not destructuring: the sweep does this half a million times.
      const serial = identity[0];
      const portCount = identity[2];
      const arrival = identity[3];
      if (item.from) {
        const fromEnds = linked.get(item.from.serial)!;
        const hereEnds = endsOf(serial, portCount);
        if (!fromEnds[item.from.port] && !hereEnds[arrival]) links.push({ a: item.from, b: { serial, port: arrival }, lanes: item.lanes });
        fromEnds[item.from.port] = 1;
        hereEnds[arrival] = 1;
      }
      if (chips.has(serial)) return;
      const list = found.get(serial);
      if (list) list.push(i);
      else found.set(serial, [i]);
    });
    const routers: { chip: DiscoveredChip; arrival: number; first: boolean }[] = [];
    found.forEach((candidates, serial) => {
      // The candidate through the router with the fewest routes so far (ties: the first found).
      let best = candidates[0];
      for (let c = 1; c < candidates.length; c++) {
        if ((through.get(frontier[candidates[c]].parents) ?? 0) < (through.get(frontier[best].parents) ?? 0)) best = candidates[c];
      }
      const item = frontier[best];
      const identity = answers[best]!;
      through.set(item.parents, (through.get(item.parents) ?? 0) + 1);
      const model = identity[1];
      const portCount = identity[2];
      const route = item.route;
      if (model === MODEL_PROCESSOR) {
        chips.set(serial, { serial, kind: 'endpoint', portCount, route, slice: route[0], processor: identity[4] });
        return;
      }
      const chip: DiscoveredChip = { serial, kind: 'router', portCount, route, slice: route[0] };
      chips.set(serial, chip);
      routers.push({ chip, arrival: identity[3], first: item.from === null });
    });
    const states = await readAll(routers, (item) => item.chip.route, 'portStates');
    const next: typeof frontier = [];
    routers.forEach(({ chip, arrival, first }, i) => {
      const lanes = states[i];
      if (!lanes) return;
      chips.set(chip.serial, { ...chip, lanes });
      const ends = endsOf(chip.serial, chip.portCount);
      for (let port = 0; port < chip.portCount; port++) {
        // The port a request came in by leads back to a chip already known — except on the
        // controller's first hop, where it leads to the controller's own processor.
        if (lanes[port] === 0 || (port === arrival && !first) || ends[port]) continue;
        next.push({ route: extended(chip.route, port), from: { serial: chip.serial, port }, lanes: lanes[port], parents: chip.serial });
      }
    });
    frontier = interleaveBySlice(next);
  }
  return { chips: [...chips.values()], links, unanswered, requests };
}

/** `route` and then `port`: a copy made by a plain loop (half a million of them in a 32K sweep). */
function extended(route: SourceRoute, port: number): number[] {
  const out = new Array<number>(route.length + 1);
  for (let k = 0; k < route.length; k++) out[k] = route[k];
  out[route.length] = port;
  return out;
}

/** Takes the controller's ports in turn, so that requests in flight are spread over all of its
 * links instead of filling one slice's link while the others idle. */
function interleaveBySlice<T extends { route: SourceRoute }>(items: readonly T[]): T[] {
  const bySlice = new Map<number, T[]>();
  for (const item of items) {
    const list = bySlice.get(item.route[0]) ?? [];
    list.push(item);
    bySlice.set(item.route[0], list);
  }
  const lists = [...bySlice.values()];
  const out: T[] = [];
  for (let i = 0; out.length < items.length; i++) for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}
