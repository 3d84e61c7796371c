/**
 * What the control plane makes of the interrupts chips raise (paper 000 §7.7), before any
 * re-routing: which cable or router is faulty, which fault is over, and which interrupts need no
 * new routes. It learns nothing from the fabric except through the maintenance transport — a
 * router that stopped responding raises nothing itself; its neighbours report their links down,
 * and a probe along a route that avoids those links tells a dead router from a cut cable, as a
 * real manager would (OpenSM re-sweeps the whole subnet on a trap; this reads one register).
 */
import { unhandledInterrupt } from '@weft/fabric-model';
import type { InterruptRecord, MaintenanceTransport, SourceRoute } from '../maintenance-transport';
import type { FaultSet } from '../faults/fault-set';
import { CableEnd, endKey, indexKnownFabric, KnownFabric } from '../discovery/known-fabric';
import { routeTo } from '../discovery/maintenance-routes';
import { DEFAULT_LINK_POLICY, judgeLink, LinkPolicy } from '../policy/link-policy';

export type TriageDecision =
  | { readonly action: 'declare'; readonly kind: 'link' | 'router' | 'endpoint'; readonly chip: string; readonly port: number | null; readonly reason: string }
  | { readonly action: 'clear'; readonly kind: 'link' | 'router'; readonly chip: string; readonly port: number | null; readonly reason: string }
  | { readonly action: 'none'; readonly chip: string | null; readonly port: number | null; readonly reason: string };

export interface TriageContext {
  readonly known: KnownFabric;
  /** Active faults, as the configuration sees them. */
  readonly faults: FaultSet;
  /** Active faults recorded from interrupts (only those are cleared automatically). */
  readonly interruptFaults: readonly { kind: string; chip: string; port: number | null }[];
  readonly policy?: LinkPolicy;
  /** Emulated times (ns) at which each cable went down, by `chip:port` of either end; kept by the caller. */
  readonly downHistory: Map<string, number[]>;
}

type End = CableEnd;

export async function triageInterrupts(
  interrupts: readonly InterruptRecord[],
  transport: MaintenanceTransport,
  context: TriageContext,
): Promise<TriageDecision[]> {
  const { known } = context;
  const policy = context.policy ?? DEFAULT_LINK_POLICY;
  const { chips: kinds, serialOf, peer } = indexKnownFabric(known);
  const decisions: TriageDecision[] = [];
  const none = (chip: string | null, port: number | null, reason: string) => decisions.push({ action: 'none', chip, port, reason });

  // Links reported down in this batch, and which chips showed signs of life by raising anything.
  const downNow = new Set<string>();
  const alive = new Set<string>();
  const located: { interrupt: InterruptRecord; chip: string; port: number }[] = [];
  for (const interrupt of interrupts) {
    const chip = known.matched.names.get(interrupt.serial);
    if (chip === undefined) {
      none(null, interrupt.port ?? null, `${interrupt.kind} from serial ${interrupt.serial}, which the last sweep did not find: rediscover the fabric`);
      continue;
    }
    alive.add(chip);
    located.push({ interrupt, chip, port: interrupt.port ?? -1 });
    if (interrupt.kind === 'LINK_DOWN') {
      downNow.add(`${chip}:${interrupt.port}`);
      const far = peer.get(`${chip}:${interrupt.port}`);
      if (far) downNow.add(`${far.chip}:${far.port}`);
    }
  }

  const probed = new Map<string, Promise<boolean>>();
  const probe = (chip: string) => {
    let answer = probed.get(chip);
    if (!answer) {
      // A router under a fault is probed to see whether it is back: the route may end at it.
      const avoid = context.faults.routers.has(chip) ? context.faults.without(chip) : context.faults;
      answer = answers(transport, routeTo(known, avoid, chip, downNow), serialOf.get(chip));
      probed.set(chip, answer);
    }
    return answer;
  };
  const activeRouterFault = (chip: string) => context.interruptFaults.some((f) => f.kind === 'router' && f.chip === chip);
  const activeLinkFault = (end: End) =>
    context.interruptFaults.find(
      (f) => f.kind === 'link' && ((f.chip === end.chip && f.port === end.port) || `${f.chip}:${f.port}` === peerKey(peer.get(endKey(end)))),
    );
  const declaredLinks = new Set<string>();
  const declaredRouters = new Set<string>();
  const cleared = new Set<string>();

  for (const { interrupt, chip, port } of located) {
    const end = { chip, port };
    const far = peer.get(endKey(end));
    const farIsRouter = far !== undefined && kinds.get(far.chip)?.kind === 'router';
    switch (interrupt.kind) {
      case 'LINK_DOWN': {
        const cable = cableKey(end, far);
        const history = context.downHistory.get(cable) ?? [];
        history.push(interrupt.emulatedTimeNs);
        context.downHistory.set(cable, history);
        if (context.faults.has(end) || declaredLinks.has(cable)) break;
        if (far && farIsRouter && !alive.has(far.chip)) {
          if (context.faults.routers.has(far.chip) || declaredRouters.has(far.chip)) break;
          if (!(await probe(far.chip))) {
            declaredRouters.add(far.chip);
            decisions.push({
              action: 'declare',
              kind: 'router',
              chip: far.chip,
              port: null,
              reason: `${chip}:${port} lost its link to ${far.chip}, which no longer answers maintenance reads`,
            });
            break;
          }
        }
        declaredLinks.add(cable);
        decisions.push({
          action: 'declare',
          kind: 'link',
          chip,
          port,
          reason: `link down at ${chip}:${port}${far ? ` (cable to ${far.chip}:${far.port})` : ''}`,
        });
        break;
      }
      case 'LINK_UP': {
        if (far && farIsRouter && activeRouterFault(far.chip) && !declaredRouters.has(far.chip)) {
          if (await probe(far.chip)) {
            declaredRouters.add(far.chip);
            decisions.push({ action: 'clear', kind: 'router', chip: far.chip, port: null, reason: `${far.chip} answers again (link up at ${chip}:${port})` });
          }
          break;
        }
        const fault = activeLinkFault(end);
        if (!fault || cleared.has(`${fault.chip}:${fault.port}`)) break;
        const verdict = judgeLink({ lanes: 3, downAtNs: context.downHistory.get(cableKey(end, far)) ?? [] }, interrupt.emulatedTimeNs, policy);
        if (verdict === 'quarantined') {
          none(chip, port, `link at ${chip}:${port} is up again but went down more than ${policy.flapLimit} times: quarantined until an operator clears it`);
          break;
        }
        cleared.add(`${fault.chip}:${fault.port}`);
        decisions.push({ action: 'clear', kind: 'link', chip: fault.chip, port: fault.port, reason: `link up at ${chip}:${port}` });
        break;
      }
      case 'LANE_DECOMMISSIONED': {
        if (context.faults.has(end)) break;
        const lanes = await laneCount(transport, context, chip, port, downNow);
        if (lanes === null) {
          none(chip, port, `lane decommissioned at ${chip}:${port}, but its lane count could not be read`);
          break;
        }
        const verdict = judgeLink({ lanes, downAtNs: [] }, interrupt.emulatedTimeNs, policy);
        if (verdict === 'narrow') {
          declaredLinks.add(cableKey(end, far));
          decisions.push({
            action: 'declare',
            kind: 'link',
            chip,
            port,
            reason: `${chip}:${port} runs on ${lanes} of 3 lanes, fewer than the policy's ${policy.minLanes}: taken out of service`,
          });
        } else if (verdict === 'in-service') {
          none(chip, port, `${chip}:${port} keeps working on ${lanes} of 3 lanes (slower serialisation, §4.4); no re-route needed`);
        }
        break;
      }
      case 'FORWARD_PROGRESS_TIMEOUT': {
        if (far && !farIsRouter) {
          if (context.faults.has(end) || declaredLinks.has(`endpoint ${endKey(end)}`)) break;
          declaredLinks.add(`endpoint ${endKey(end)}`);
          decisions.push({
            action: 'declare',
            kind: 'endpoint',
            chip,
            port,
            reason: `${far.chip} stopped accepting at ${chip}:${port}: packets for it are discarded by the forward-progress timer (§7.7); routing cannot avoid a destination, nothing else is affected`,
          });
        } else {
          // Behind a stalled endpoint the back-pressure stops router-to-router ports too, and the
          // timers there clear it (§7.7); a router that died shows as links down, not as this.
          none(chip, port, `no progress at ${chip}:${port} for the forward-progress period (back-pressure); its timer discards what was stuck`);
        }
        break;
      }
      case 'SOFT_ERROR':
        // §4.3: the destination's interface discarded the corrupted packet; nothing to route around.
        none(chip, port, `soft error in ${chip} at port ${port}: the packet was marked and discarded by its destination; counted, no reroute`);
        break;
      case 'CONFIGURATION_ERROR':
        // §7.7 caught what the verifier should have: the generation in force is wrong, not the fabric.
        none(
          chip,
          port,
          `configuration error at ${chip}:${port} (${String(interrupt.details?.reason ?? 'unknown')}): the generation in force broke an invariant; recorded for the operator, no fault declared`,
        );
        break;
      default:
        unhandledInterrupt(interrupt.kind);
    }
  }
  return decisions;
}

const peerKey = (end: End | undefined) => (end ? endKey(end) : '');

/** One key per cable, whichever end reports it. */
function cableKey(end: End, far: End | undefined): string {
  const a = endKey(end);
  if (!far) return a;
  const b = endKey(far);
  return a < b ? a : b;
}

/** Whether the chip at the end of `route` is the one expected. A request can be held up behind
 * congestion until the forward-progress timers clear it, so a silent chip is asked twice. */
async function answers(transport: MaintenanceTransport, route: SourceRoute | null, serial: number | undefined): Promise<boolean> {
  if (!route || serial === undefined) return false;
  for (let attempt = 0; attempt < 2; attempt++) {
    const reply = await transport.read(route, 'identity');
    if (reply.ok) return reply.value[0] === serial;
  }
  return false;
}

async function laneCount(
  transport: MaintenanceTransport,
  context: TriageContext,
  chip: string,
  port: number,
  avoid: ReadonlySet<string>,
): Promise<number | null> {
  const route = routeTo(context.known, context.faults, chip, avoid);
  if (!route) return null;
  const reply = await transport.read(route, 'portStates');
  return reply.ok ? (reply.value[port] ?? null) : null;
}
