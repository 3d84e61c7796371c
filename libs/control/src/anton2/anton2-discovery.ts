/**
 * Discovery of an Anton 2 machine over its control network (spec §2.3 item 1): every place the
 * design's packaging has an ASIC ([backplane, nodecard], anton2ControlAddress) is asked who is
 * there, and every answering ASIC for its 12 torus channels as link training found them (the far
 * end's serial and port). The place gives the ASIC's coordinates — the control network reaches a
 * nodecard, not a route through the torus — and the channels are compared with the design's
 * cabling: miswired, missing and unreachable, each finding naming both ends (match-cabling.ts).
 */
import * as model from '@weft/fabric-model';
import type { FabricDesign, MaintenanceTransport, SourceRoute } from '@weft/fabric-model';
import type { DiscoveredChip, DiscoveredLink, DiscoveryResult, UnansweredRequest } from '../discovery/discovery-sweep';
import type { KnownFabric } from '../discovery/known-fabric';
import { matchCabling } from '../discovery/match-cabling';

const CHANNELS = model.ANTON2_CHANNEL_ADAPTERS;

/** Each design ASIC's control-network address, in design order. */
export function anton2ControlAddresses(design: FabricDesign): SourceRoute[] {
  const torus = model.designTorus(design);
  return design.chips.map((c) => {
    const [x, y, z] = c.coordinates ?? [0, 0, 0];
    return model.anton2ControlAddress(torus, torus.index(x, y, z));
  });
}

export async function discoverAnton2(transport: MaintenanceTransport, design: FabricDesign): Promise<KnownFabric> {
  const routes = anton2ControlAddresses(design);
  const identities = await transport.readMany(routes, 'asicIdentity', 512);
  const unanswered: UnansweredRequest[] = [];
  const answering: number[] = [];
  const serialAt = new Map<number, number>();
  identities.forEach((result, i) => {
    if (!result.ok) unanswered.push({ route: routes[i], register: 'asicIdentity', reason: result.reason });
    else if (result.value[0] !== model.MODEL_ANTON2_ASIC)
      unanswered.push({ route: routes[i], register: 'asicIdentity', reason: `model ${result.value[0]} is not an Anton 2 ASIC` });
    else {
      answering.push(i);
      serialAt.set(i, result.value[1]);
    }
  });
  const states = await transport.readMany(
    answering.map((i) => routes[i]),
    'channelStates',
    512,
  );
  const chips: DiscoveredChip[] = [];
  const links: DiscoveredLink[] = [];
  const seen = new Set<string>();
  answering.forEach((i, k) => {
    const state = states[k];
    const serial = serialAt.get(i)!;
    const lanes = new Array<number>(CHANNELS).fill(0);
    if (!state.ok) unanswered.push({ route: routes[i], register: 'channelStates', reason: state.reason });
    else
      for (let c = 0; c < CHANNELS; c++) {
        const [up, farSerial, farPort] = state.value.slice(3 * c, 3 * c + 3);
        if (up !== 1) continue;
        lanes[c] = 1;
        // Each channel is seen from both ends: kept once.
        const key = serial < farSerial || (serial === farSerial && c < farPort) ? `${serial}:${c}` : `${farSerial}:${farPort}`;
        if (seen.has(key)) continue;
        seen.add(key);
        links.push({ a: { serial, port: c }, b: { serial: farSerial, port: farPort }, lanes: 1 });
      }
    chips.push({ serial, kind: 'router', portCount: CHANNELS, route: routes[i], slice: 0, lanes });
  });
  const discovered: DiscoveryResult = { chips, links, unanswered, requests: routes.length + answering.length };
  const names = new Map<number, string>();
  for (const i of answering) names.set(serialAt.get(i)!, design.chips[i].name);
  return { discovered, matched: matchCabling(discovered, design, names, 'ASIC'), design, attachment: 'jtag' };
}
