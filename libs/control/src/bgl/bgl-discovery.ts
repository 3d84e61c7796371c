/**
 * Discovery of a BlueGene/L over its control network (paper 002 §1; spec §1.3 item 1): every place
 * the design's packaging has a node is asked who is there, and every answering node for its six
 * links as link training found them (the far end's serial and port). The packaging names the
 * node — the control network reaches a place, not a route through the torus — and the cabling is
 * then compared with the design: a link whose far end is not where the design puts it is miswired,
 * one the design has but that is down at both ends is missing, a place that does not answer holds
 * an unreachable node; each finding names both ends.
 */
import { bglControlAddress, designTorus, FabricDesign, MaintenanceTransport, MODEL_BGL_NODE, SourceRoute } from '@weft/fabric-model';
import type { DiscoveredChip, DiscoveredLink, DiscoveryResult, UnansweredRequest } from '../discovery/discovery-sweep';
import type { KnownFabric } from '../discovery/known-fabric';
import { matchCabling } from '../discovery/match-cabling';

/** Each design node's control-network address, in design order. */
export function controlAddresses(design: FabricDesign): SourceRoute[] {
  const torus = designTorus(design);
  return design.chips.map((c) => {
    const [x, y, z] = c.coordinates ?? [0, 0, 0];
    return bglControlAddress(torus, torus.index(x, y, z));
  });
}

export async function discoverBgl(transport: MaintenanceTransport, design: FabricDesign): Promise<KnownFabric> {
  const routes = controlAddresses(design);
  const identities = await transport.readMany(routes, 'nodeIdentity', 512);
  const chips: DiscoveredChip[] = [];
  const unanswered: UnansweredRequest[] = [];
  const answering: number[] = [];
  const serialAt = new Map<number, number>();
  identities.forEach((result, i) => {
    if (!result.ok) {
      unanswered.push({ route: routes[i], register: 'nodeIdentity', reason: result.reason });
      return;
    }
    if (result.value[0] !== MODEL_BGL_NODE) {
      unanswered.push({ route: routes[i], register: 'nodeIdentity', reason: `model ${result.value[0]} is not a BG/L node` });
      return;
    }
    answering.push(i);
    serialAt.set(i, result.value[1]);
  });
  const states = await transport.readMany(
    answering.map((i) => routes[i]),
    'linkStates',
    512,
  );
  const links: DiscoveredLink[] = [];
  const seen = new Set<string>();
  answering.forEach((i, k) => {
    const state = states[k];
    const serial = serialAt.get(i)!;
    const lanes = [0, 0, 0, 0, 0, 0];
    if (!state.ok) unanswered.push({ route: routes[i], register: 'linkStates', reason: state.reason });
    else
      for (let d = 0; d < 6; d++) {
        const [up, farSerial, farPort] = state.value.slice(3 * d, 3 * d + 3);
        if (up !== 1) continue;
        lanes[d] = 1;
        // Each cable is seen from both ends: kept once.
        const key = serial < farSerial || (serial === farSerial && d < farPort) ? `${serial}:${d}` : `${farSerial}:${farPort}`;
        if (seen.has(key)) continue;
        seen.add(key);
        links.push({ a: { serial, port: d }, b: { serial: farSerial, port: farPort }, lanes: 1 });
      }
    chips.push({ serial, kind: 'router', portCount: 6, route: routes[i], slice: 0, lanes });
  });
  const discovered: DiscoveryResult = { chips, links, unanswered, requests: routes.length + answering.length };
  const names = new Map<number, string>();
  for (const i of answering) names.set(serialAt.get(i)!, design.chips[i].name);
  return { discovered, matched: matchCabling(discovered, design, names, 'node'), design, attachment: 'jtag' };
}
