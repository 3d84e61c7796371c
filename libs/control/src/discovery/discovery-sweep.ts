/**
 * Network discovery by directed-route sweep (like OpenSM's): from the maintenance controller,
 * identify the chip at the end of each of its ports, read which of that chip's ports have live
 * lanes, identify the chip behind each, and so on, hop by hop. Many requests are outstanding at
 * once — a 32K fabric cannot be swept one read at a time. Everything learned comes through the
 * maintenance transport: chip identities (serial numbers), port states, and the port each
 * request arrived on, which gives both ends of every cable.
 */
import type { MaintenanceResult, MaintenanceTransport, RegisterValue, SourceRoute } from '../maintenance-transport';

import { MODEL_PROCESSOR, MODEL_YARC } from '@weft/fabric-model/chips/yarc';

export { MODEL_PROCESSOR, MODEL_YARC };

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

/**
 * Requests outstanding at once, by default. The sweep's emulated time on the 32K fabric falls
 * steeply up to about this many and flattens past it (millions of cycles — 128: 2.47, 256: 1.47,
 * 320: 1.27, 384: 1.14, 448: 1.08, 512: 1.05): beyond it, added requests mostly wait in the queues
 * at the controller's links — on a live fabric, queues that data traffic shares.
 */
export const DISCOVERY_CONCURRENCY = 384;

export async function discoverFabric(transport: MaintenanceTransport, options: DiscoveryOptions): Promise<DiscoveryResult> {
  const concurrency = options.concurrency ?? DISCOVERY_CONCURRENCY;
  const chips = new Map<number, DiscoveredChip>();
  const links: DiscoveredLink[] = [];
  const unanswered: UnansweredRequest[] = [];
  let requests = 0;
  /**
   * Reads `register` of the chip at the end of each route, with at most `concurrency` requests
   * outstanding; the values in route order (null where no answer came), each handed to `onValue`
   * in that order as soon as it and every earlier one are in — across a thread boundary, the sweep
   * works on a hop's answers while the rest are in flight. One transport call for the lot: a 32K
   * sweep makes half a million reads, and a promise per read showed in its profile.
   */
  const readAll = async (
    routes: SourceRoute[],
    register: string,
    onValue?: (i: number, value: RegisterValue | null) => void,
  ): Promise<(RegisterValue | null)[]> => {
    requests += routes.length;
    const values = new Array<RegisterValue | null>(routes.length);
    let taken = 0;
    const take = (from: number, results: readonly MaintenanceResult<RegisterValue>[]) => {
      for (let k = 0; k < results.length; k++) {
        const result = results[k];
        const i = from + k;
        const value = result.ok ? result.value : null;
        if (!result.ok) unanswered.push({ route: routes[i], register, reason: `${result.reason}: ${result.detail}` });
        values[i] = value;
        onValue?.(i, value);
      }
      taken = from + results.length;
    };
    const results = await transport.readMany(routes, register, concurrency, take);
    // A transport that hands over no parts (or not all of them): the rest now.
    if (taken < results.length) take(taken, results.slice(taken));
    return values;
  };

  /**
   * Every chip answered so far gets a dense number the first time its serial is seen (one hash
   * look-up per answer; the rest are array reads): the cable ends already on a link, per port — a
   * cable read from both ends in the same hop is recorded once, and a port whose cable was read
   * from its far end is not read again — whether it is known (chosen a route), and how many
   * routes the sweep has chosen through it, to spread its traffic over parallel paths.
   */
  const numbers = new Map<number, number>();
  const ends: Uint8Array[] = [];
  const known: boolean[] = [];
  /** Routes chosen through each chip, by its number + 1 (0: the controller's own ports). */
  const through: number[] = [0];
  /** Per chip seen for the first time in the current hop: its first and last candidate (the
   * frontier items that reached it; -1: none), chained through the hop's `candidateNext`. */
  const firstCandidate: number[] = [];
  const lastCandidate: number[] = [];
  const numberOf = (serial: number, portCount: number): number => {
    let k = numbers.get(serial);
    if (k === undefined) {
      k = ends.length;
      numbers.set(serial, k);
      ends.push(new Uint8Array(portCount));
      known.push(false);
      through.push(0);
      firstCandidate.push(-1);
      lastCandidate.push(-1);
    }
    return k;
  };

  // Breadth first, one hop at a time: every port read of a hop is answered before the next hop
  // starts, so each cable is read once (from whichever end is nearer), and a chip found over
  // several cables at once is reached by the least-used of them — otherwise every deep route would
  // share the first uplink that happened to answer first, and that one link would carry the sweep.
  let frontier = new Frontier(options.controllerPorts.length);
  for (const port of options.controllerPorts) frontier.add([port], null, -1, 0);
  while (frontier.size > 0) {
    // Cables first (every answer is one, taken as it comes), then the chips seen for the first time.
    const found: number[] = [];
    const candidateNext = new Int32Array(frontier.size).fill(-1);
    const hop = frontier;
    const answers = await readAll(hop.routes, 'identity', (i, identity) => {
      if (!identity) return;
      // Indexed reads, not destructuring: the sweep does this half a million times.
      const serial = identity[0];
      const arrival = identity[3];
      const k = numberOf(serial, identity[2]);
      const from = hop.from[i];
      if (from) {
        const fromEnds = ends[hop.parent[i]];
        const hereEnds = ends[k];
        if (!fromEnds[from.port] && !hereEnds[arrival]) links.push({ a: from, b: { serial, port: arrival }, lanes: hop.lanes[i] });
        fromEnds[from.port] = 1;
        hereEnds[arrival] = 1;
      }
      if (known[k]) return;
      if (firstCandidate[k] < 0) {
        firstCandidate[k] = i;
        found.push(k);
      } else candidateNext[lastCandidate[k]] = i;
      lastCandidate[k] = i;
    });
    const routers: { chip: DiscoveredChip; number: number; arrival: number; first: boolean }[] = [];
    const routerRoutes: SourceRoute[] = [];
    for (const k of found) {
      // The candidate through the chip with the fewest routes so far (ties: the first found).
      let best = firstCandidate[k];
      for (let c = candidateNext[best]; c >= 0; c = candidateNext[c]) {
        if (through[frontier.parent[c] + 1] < through[frontier.parent[best] + 1]) best = c;
      }
      firstCandidate[k] = -1;
      const identity = answers[best]!;
      through[frontier.parent[best] + 1]++;
      known[k] = true;
      const serial = identity[0];
      const portCount = identity[2];
      const route = frontier.routes[best];
      if (identity[1] === MODEL_PROCESSOR) {
        chips.set(serial, { serial, kind: 'endpoint', portCount, route, slice: route[0], processor: identity[4] });
        continue;
      }
      const chip: DiscoveredChip = { serial, kind: 'router', portCount, route, slice: route[0] };
      chips.set(serial, chip);
      routers.push({ chip, number: k, arrival: identity[3], first: frontier.from[best] === null });
      routerRoutes.push(route);
    }
    const states = await readAll(routerRoutes, 'portStates');
    // The next hop's ports, a list per controller port (slice), taken in turn below. A port is read
    // if it has live lanes and its far end is not known yet; the port a request came in by leads
    // back to a chip already known — except on the controller's first hop, where it leads to the
    // controller's own processor. Counted first, so that each list is made at its size (a hop of
    // the 32K sweep has a quarter of a million ports).
    const toRead = (i: number, port: number): boolean => {
      const { number, arrival, first } = routers[i];
      return states[i]![port] !== 0 && (port !== arrival || first) && !ends[number][port];
    };
    const counts = new Map<number, number>();
    for (let i = 0; i < routers.length; i++) {
      if (!states[i]) continue;
      const { chip } = routers[i];
      let n = counts.get(chip.slice) ?? 0;
      for (let port = 0; port < chip.portCount; port++) if (toRead(i, port)) n++;
      counts.set(chip.slice, n);
    }
    const bySlice = new Map([...counts].map(([slice, n]) => [slice, new Frontier(n)]));
    for (let i = 0; i < routers.length; i++) {
      const lanes = states[i];
      if (!lanes) continue;
      const { chip, number } = routers[i];
      chips.set(chip.serial, { ...chip, lanes });
      const next = bySlice.get(chip.slice)!;
      for (let port = 0; port < chip.portCount; port++) {
        if (toRead(i, port)) next.add(extended(chip.route, port), { serial: chip.serial, port }, number, lanes[port]);
      }
    }
    frontier = Frontier.interleaved([...bySlice.values()]);
  }
  return { chips: [...chips.values()], links, unanswered, requests };
}

/** One hop's ports to read the far end of, side by side, in lists made at their size: the route
 * there, the cable's near end (null: a controller port), the near chip's number (-1: the
 * controller) and the port's live lanes. */
class Frontier {
  readonly routes: SourceRoute[];
  readonly from: (DiscoveredEnd | null)[];
  readonly parent: Int32Array;
  readonly lanes: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.routes = new Array<SourceRoute>(capacity);
    this.from = new Array<DiscoveredEnd | null>(capacity);
    this.parent = new Int32Array(capacity);
    this.lanes = new Int32Array(capacity);
  }

  add(route: SourceRoute, from: DiscoveredEnd | null, parent: number, lanes: number): void {
    const i = this.size++;
    this.routes[i] = route;
    this.from[i] = from;
    this.parent[i] = parent;
    this.lanes[i] = lanes;
  }

  /** The lists' ports taken in turn (one list per controller port), so that requests in flight are
   * spread over all of the controller's links instead of filling one slice's link while the others
   * idle. */
  static interleaved(lists: readonly Frontier[]): Frontier {
    const out = new Frontier(lists.reduce((n, list) => n + list.size, 0));
    const longest = lists.reduce((n, list) => Math.max(n, list.size), 0);
    for (let i = 0; i < longest; i++) {
      for (const list of lists) if (i < list.size) out.add(list.routes[i], list.from[i], list.parent[i], list.lanes[i]);
    }
    return out;
  }
}

/** `route` and then `port`: a copy made by a plain loop (half a million of them in a 32K sweep). */
function extended(route: SourceRoute, port: number): number[] {
  const out = new Array<number>(route.length + 1);
  for (let k = 0; k < route.length; k++) out[k] = route[k];
  out[route.length] = port;
  return out;
}
