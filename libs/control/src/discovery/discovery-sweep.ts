/**
 * Network discovery by directed-route sweep (like OpenSM's): from the maintenance controller,
 * identify the chip at the end of each of its ports, read which of that chip's ports have live
 * lanes, identify the chip behind each, and so on, hop by hop. Many requests are outstanding at
 * once — a 32K fabric cannot be swept one read at a time. Everything learned comes through the
 * maintenance transport: chip identities (serial numbers), port states, and the port each
 * request arrived on, which gives both ends of every cable.
 */
import type { MaintenanceTransport, SourceRoute } from '../maintenance-transport';

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
  const links = new Map<string, DiscoveredLink>();
  const unanswered: UnansweredRequest[] = [];
  let requests = 0;
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<void> => {
    if (running < concurrency) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
  };
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  const read = async (route: SourceRoute, register: string) => {
    await slot();
    try {
      requests++;
      const result = await transport.read(route, register);
      if (!result.ok) unanswered.push({ route, register, reason: `${result.reason}: ${result.detail}` });
      return result.ok ? result.value : null;
    } finally {
      release();
    }
  };
  const linkKey = (x: DiscoveredEnd, y: DiscoveredEnd) => {
    const [p, q] = x.serial < y.serial || (x.serial === y.serial && x.port <= y.port) ? [x, y] : [y, x];
    return `${p.serial}:${p.port}-${q.serial}:${q.port}`;
  };

  const visit = async (route: SourceRoute, from: DiscoveredEnd | null, fromLanes: number): Promise<void> => {
    const identity = await read(route, 'identity');
    if (!identity) return;
    const [serial, model, portCount, arrival] = identity;
    if (from) {
      const here = { serial, port: arrival };
      const key = linkKey(from, here);
      if (!links.has(key)) links.set(key, { a: from, b: here, lanes: fromLanes });
    }
    if (chips.has(serial)) return;
    if (model === MODEL_PROCESSOR) {
      chips.set(serial, { serial, kind: 'endpoint', portCount, route, slice: route[0], processor: identity[4] });
      return;
    }
    const placeholder: DiscoveredChip = { serial, kind: 'router', portCount, route, slice: route[0] };
    chips.set(serial, placeholder);
    const lanes = await read(route, 'portStates');
    if (!lanes) return;
    chips.set(serial, { ...placeholder, lanes });
    const next: Promise<void>[] = [];
    for (let port = 0; port < portCount; port++) {
      // The port a request came in by leads back to a chip already known — except on the
      // controller's first hop, where it leads to the controller's own processor.
      if (lanes[port] === 0 || (port === arrival && from !== null)) continue;
      next.push(visit([...route, port], { serial, port }, lanes[port]));
    }
    await Promise.all(next);
  };

  await Promise.all(options.controllerPorts.map((port) => visit([port], null, 0)));
  return { chips: [...chips.values()], links: [...links.values()], unanswered, requests };
}
