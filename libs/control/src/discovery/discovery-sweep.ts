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
  const numberOf = (serial: number, portCount: number): number => {
    let k = numbers.get(serial);
    if (k === undefined) {
      k = ends.length;
      numbers.set(serial, k);
      ends.push(new Uint8Array(portCount));
      known.push(false);
      through.push(0);
    }
    return k;
  };

  // Breadth first, one hop at a time: every port read of a hop is answered before the next hop
  // starts, so each cable is read once (from whichever end is nearer), and a chip found over
  // several cables at once is reached by the least-used of them — otherwise every deep route would
  // share the first uplink that happened to answer first, and that one link would carry the sweep.
  /** A port to read the far end of: the route there, the cable's near end (null: a controller
   * port), the near chip's number (-1: the controller) and the port's live lanes. */
  type Port = { route: SourceRoute; from: DiscoveredEnd | null; parent: number; lanes: number };
  let frontier: Port[] = options.controllerPorts.map((port) => ({ route: [port], from: null, parent: -1, lanes: 0 }));
  while (frontier.length > 0) {
    const answers = await readAll(frontier, (item) => item.route, 'identity');
    // Cables first (every answer is one), then the chips seen for the first time.
    /** Per chip (number) seen for the first time: the frontier items (indices) that reached it. */
    const found = new Map<number, number[]>();
    frontier.forEach((item, i) => {
      const identity = answers[i];
      if (!identity) return;
      // Indexed reads, not destructuring: the sweep does this half a million times.
      const serial = identity[0];
      const arrival = identity[3];
      const k = numberOf(serial, identity[2]);
      if (item.from) {
        const fromEnds = ends[item.parent];
        const hereEnds = ends[k];
        if (!fromEnds[item.from.port] && !hereEnds[arrival]) links.push({ a: item.from, b: { serial, port: arrival }, lanes: item.lanes });
        fromEnds[item.from.port] = 1;
        hereEnds[arrival] = 1;
      }
      if (known[k]) return;
      const list = found.get(k);
      if (list) list.push(i);
      else found.set(k, [i]);
    });
    const routers: { chip: DiscoveredChip; number: number; arrival: number; first: boolean }[] = [];
    found.forEach((candidates, k) => {
      // The candidate through the chip with the fewest routes so far (ties: the first found).
      let best = candidates[0];
      for (let c = 1; c < candidates.length; c++) {
        if (through[frontier[candidates[c]].parent + 1] < through[frontier[best].parent + 1]) best = candidates[c];
      }
      const item = frontier[best];
      const identity = answers[best]!;
      through[item.parent + 1]++;
      known[k] = true;
      const serial = identity[0];
      const portCount = identity[2];
      const route = item.route;
      if (identity[1] === MODEL_PROCESSOR) {
        chips.set(serial, { serial, kind: 'endpoint', portCount, route, slice: route[0], processor: identity[4] });
        return;
      }
      const chip: DiscoveredChip = { serial, kind: 'router', portCount, route, slice: route[0] };
      chips.set(serial, chip);
      routers.push({ chip, number: k, arrival: identity[3], first: item.from === null });
    });
    const states = await readAll(routers, (item) => item.chip.route, 'portStates');
    const next: Port[] = [];
    routers.forEach(({ chip, number, arrival, first }, i) => {
      const lanes = states[i];
      if (!lanes) return;
      chips.set(chip.serial, { ...chip, lanes });
      const linked = ends[number];
      for (let port = 0; port < chip.portCount; port++) {
        // The port a request came in by leads back to a chip already known — except on the
        // controller's first hop, where it leads to the controller's own processor.
        if (lanes[port] === 0 || (port === arrival && !first) || linked[port]) continue;
        next.push({ route: extended(chip.route, port), from: { serial: chip.serial, port }, parent: number, lanes: lanes[port] });
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
