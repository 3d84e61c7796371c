/**
 * Operator policy for links, as the better fabric managers have it: how narrow a port may run
 * before it is taken out of service and routed around (a 1-lane YARC port carries a third of the
 * bandwidth and becomes the bottleneck of every path through it, paper 000 §4.4, §7.7), and the
 * quarantine of a flapping link — one that went down and up more than `flapLimit` times within
 * `flapWindowNs` stays out of service until an operator clears it, instead of making the fabric
 * re-route on every bounce.
 */
export interface LinkPolicy {
  /** Fewest live lanes (of 3) a link may have and stay in service. */
  readonly minLanes: number;
  /** Down/up transitions tolerated inside the window before quarantine. */
  readonly flapLimit: number;
  readonly flapWindowNs: number;
}

export const DEFAULT_LINK_POLICY: LinkPolicy = { minLanes: 2, flapLimit: 3, flapWindowNs: 60e9 };

export type LinkVerdict = 'in-service' | 'narrow' | 'down' | 'quarantined';

export interface LinkObservation {
  /** Live lanes now. */
  readonly lanes: number;
  /** Times (ns) at which the link went down, oldest first. */
  readonly downAtNs: readonly number[];
  /** Set when an operator has cleared a quarantine, at that time. */
  readonly clearedAtNs?: number;
}

export function validateLinkPolicy(policy: LinkPolicy): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(policy.minLanes) || policy.minLanes < 1 || policy.minLanes > 3) problems.push(`minLanes must be 1, 2 or 3, got ${policy.minLanes}`);
  if (!Number.isInteger(policy.flapLimit) || policy.flapLimit < 1) problems.push(`flapLimit must be a positive whole number, got ${policy.flapLimit}`);
  if (!(policy.flapWindowNs > 0)) problems.push(`flapWindowNs must be positive, got ${policy.flapWindowNs}`);
  return problems;
}

/** Whether the control plane should route over the link now. */
export function judgeLink(observation: LinkObservation, nowNs: number, policy: LinkPolicy = DEFAULT_LINK_POLICY): LinkVerdict {
  const since = Math.max(nowNs - policy.flapWindowNs, observation.clearedAtNs ?? -Infinity);
  const recentDowns = observation.downAtNs.filter((t) => t > since).length;
  if (recentDowns > policy.flapLimit) return 'quarantined';
  if (observation.lanes === 0) return 'down';
  if (observation.lanes < policy.minLanes) return 'narrow';
  return 'in-service';
}

/** Only links judged in service carry traffic. */
export function routable(verdict: LinkVerdict): boolean {
  return verdict === 'in-service';
}
