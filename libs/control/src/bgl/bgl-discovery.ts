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
import type { Finding, MatchedFabric } from '../discovery/match-design';

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
  return { discovered, matched: matchBglDesign(discovered, design, names), design, attachment: 'jtag' };
}

/** The discovered cabling against the design's: cables by design names, and what differs, as findings naming both ends. */
export function matchBglDesign(discovered: DiscoveryResult, design: FabricDesign, names: Map<number, string>): MatchedFabric {
  const findings: Finding[] = [];
  const farOf = new Map<string, { chip: string; port: number }>();
  for (const cable of design.cables) {
    farOf.set(`${cable.a.chip}:${cable.a.port}`, cable.b);
    farOf.set(`${cable.b.chip}:${cable.b.port}`, cable.a);
  }
  const cables: MatchedFabric['cables'] = [];
  const found = new Set<string>();
  for (const link of discovered.links) {
    const a = { chip: names.get(link.a.serial) ?? `serial ${link.a.serial}`, port: link.a.port };
    const b = { chip: names.get(link.b.serial) ?? `serial ${link.b.serial}`, port: link.b.port };
    cables.push({ a, b, lanes: link.lanes });
    const expectedAtA = farOf.get(`${a.chip}:${a.port}`);
    const expectedAtB = farOf.get(`${b.chip}:${b.port}`);
    const asDesigned = expectedAtA?.chip === b.chip && expectedAtA.port === b.port;
    if (asDesigned) {
      found.add(`${a.chip}:${a.port}`);
      found.add(`${b.chip}:${b.port}`);
      continue;
    }
    if (!expectedAtA && !expectedAtB) {
      findings.push({ kind: 'extra-cable', message: `a cable not in the design joins ${a.chip}:${a.port} and ${b.chip}:${b.port}`, ends: [a, b] });
      continue;
    }
    const designed = [
      expectedAtA ? `the design puts ${expectedAtA.chip}:${expectedAtA.port} at ${a.chip}:${a.port}` : '',
      expectedAtB ? `${expectedAtB.chip}:${expectedAtB.port} at ${b.chip}:${b.port}` : '',
    ]
      .filter(Boolean)
      .join(', and ');
    findings.push({ kind: 'miswired-cable', message: `${a.chip}:${a.port} is cabled to ${b.chip}:${b.port}; ${designed}`, ends: [a, b] });
    found.add(`${a.chip}:${a.port}`);
    found.add(`${b.chip}:${b.port}`);
  }
  const reached = new Set(names.values());
  for (const chip of design.chips)
    if (!reached.has(chip.name))
      findings.push({ kind: 'unreachable-chip', message: `node ${chip.name} does not answer on the control network`, ends: [], chip: chip.name });
  for (const cable of design.cables) {
    const aKey = `${cable.a.chip}:${cable.a.port}`;
    const bKey = `${cable.b.chip}:${cable.b.port}`;
    if (found.has(aKey) || found.has(bKey)) continue;
    if (!reached.has(cable.a.chip) || !reached.has(cable.b.chip)) continue;
    findings.push({ kind: 'missing-cable', message: `the design's cable ${aKey}–${bKey} is down at both ends`, ends: [cable.a, cable.b] });
  }
  return { names, findings, cables };
}
