/**
 * A fabric found over an out-of-band control network (BG/L's JTAG, Anton 2's) against its design:
 * each place answered for, each live link by design names, and what differs — a link whose far end
 * is not where the design puts it is miswired, one the design has but that is down at both ends is
 * missing, a place that does not answer holds an unreachable chip (`what` names the kind: node,
 * ASIC); each finding names both ends.
 */
import type { FabricDesign } from '@weft/fabric-model';
import type { DiscoveryResult } from './discovery-sweep';
import type { Finding, MatchedFabric } from './match-design';

/** The discovered cabling against the design's: cables by design names, and what differs, as findings naming both ends. */
export function matchCabling(discovered: DiscoveryResult, design: FabricDesign, names: Map<number, string>, what: string): MatchedFabric {
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
      findings.push({ kind: 'unreachable-chip', message: `${what} ${chip.name} does not answer on the control network`, ends: [], chip: chip.name });
  for (const cable of design.cables) {
    const aKey = `${cable.a.chip}:${cable.a.port}`;
    const bKey = `${cable.b.chip}:${cable.b.port}`;
    if (found.has(aKey) || found.has(bKey)) continue;
    if (!reached.has(cable.a.chip) || !reached.has(cable.b.chip)) continue;
    findings.push({ kind: 'missing-cable', message: `the design's cable ${aKey}–${bKey} is down at both ends`, ends: [cable.a, cable.b] });
  }
  return { names, findings, cables };
}
