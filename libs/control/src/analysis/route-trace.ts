/**
 * Route trace (issue 35; InfiniBand's ibtracert does this for a subnet): the path a packet takes
 * from one endpoint to another under a configuration, hop by hop — the chip, the port it came in
 * on, the port it leaves by, its VC — and at each hop every port the registers allow, with the
 * share of packets that take it where routing spreads.
 */
import { ChipPort, channelName, Forwarding, ForwardingChoice } from './forwarding';

export interface TraceHop {
  readonly chip: string;
  readonly inPort: number;
  readonly outPort: number;
  readonly vc: number;
  /** The chip and port at the far end of the cable it leaves by. */
  readonly farEnd: ChipPort;
  readonly choices: readonly ForwardingChoice[];
  readonly how: string;
}

export interface RouteTrace {
  readonly source: number;
  readonly destination: number;
  readonly plane: number;
  /** The endpoint's own port it leaves by, then each router crossed. */
  readonly injection: ChipPort | null;
  readonly hops: readonly TraceHop[];
  readonly outcome: 'delivered' | 'dropped';
  /** Why it was dropped (or, delivered, '' ). */
  readonly reason: string;
}

/** More routers than any configured path crosses: a longer walk is a loop. */
const HOP_LIMIT = 64;

export function traceRoute(
  forwarding: Forwarding,
  source: number,
  destination: number,
  options: { plane: number; vc: number; hashBits: number | null },
): RouteTrace {
  const { plane, vc, hashBits } = options;
  const base = { source, destination, plane };
  const injection = forwarding.injection(source, plane);
  const dropped = (hops: TraceHop[], reason: string): RouteTrace => ({ ...base, injection, hops, outcome: 'dropped', reason });
  if (!injection) return dropped([], `endpoint ${source} has no live link into plane ${plane}`);
  const hops: TraceHop[] = [];
  let at = forwarding.peer(injection);
  let currentVc = vc;
  let state: string | undefined;
  while (at) {
    const reached = forwarding.endpointOf(at.chip);
    if (reached !== null) {
      if (reached === destination) return { ...base, injection, hops, outcome: 'delivered', reason: '' };
      return dropped(hops, `delivered to endpoint ${reached}, not ${destination}`);
    }
    if (hops.length >= HOP_LIMIT) return dropped(hops, `still travelling after ${HOP_LIMIT} routers: a loop through ${channelName(at)}`);
    const decision = forwarding.decide(at, { destination, vc: currentVc, hashBits, state });
    if (decision.kind === 'drop') return dropped(hops, decision.reason);
    if (decision.kind === 'deliver') return { ...base, injection, hops, outcome: 'delivered', reason: '' };
    const out = { chip: at.chip, port: decision.chosen };
    const far = forwarding.peer(out);
    if (!far) return dropped(hops, `${channelName(out)} has no live cable`);
    hops.push({ chip: at.chip, inPort: at.port, outPort: decision.chosen, vc: decision.vc, farEnd: far, choices: decision.choices, how: decision.how });
    currentVc = decision.vc;
    state = decision.choices.find((c) => c.port === decision.chosen)?.state;
    at = far;
  }
  return dropped(hops, 'the path ends at a port with no live cable');
}
