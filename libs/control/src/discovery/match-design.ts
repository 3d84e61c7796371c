/**
 * Compares a discovered fabric with the design the operator intends. Chips are matched to the
 * design's names by what they are connected to: processors name themselves; every other chip takes
 * the name the design gives to the chip at the far end of the cables that reach it from chips
 * already matched (a vote, so one miswired cable cannot mislead it). Then every discovered cable
 * is checked against the design: missing, extra and miswired cables and unreachable chips are
 * findings naming both cable ends by chip and physical port.
 */
import type { FabricDesign } from '@weft/fabric-model';
import type { DiscoveryResult } from './discovery-sweep';

export type FindingKind = 'missing-cable' | 'extra-cable' | 'miswired-cable' | 'unreachable-chip' | 'unexpected-chip' | 'degraded-link';

export interface Finding {
  readonly kind: FindingKind;
  readonly message: string;
  readonly ends: readonly { chip: string; port: number }[];
}

export interface MatchedFabric {
  /** Discovered serial → design name. */
  readonly names: Map<number, string>;
  readonly findings: Finding[];
  /** Cables as discovered, by design names. */
  readonly cables: { a: { chip: string; port: number }; b: { chip: string; port: number }; lanes: number }[];
}

const key = (chip: string, port: number) => `${chip}:${port}`;

export function matchDesign(discovered: DiscoveryResult, design: FabricDesign): MatchedFabric {
  const expectedAt = new Map<string, { chip: string; port: number }>();
  for (const cable of design.cables) {
    expectedAt.set(key(cable.a.chip, cable.a.port), cable.b);
    expectedAt.set(key(cable.b.chip, cable.b.port), cable.a);
  }
  const designChips = new Map(design.chips.map((c) => [c.name, c]));
  const byProcessor = new Map(design.chips.filter((c) => c.kind === 'endpoint').map((c) => [c.processor, c.name]));

  const names = new Map<number, string>();
  const taken = new Set<string>();
  for (const chip of discovered.chips) {
    if (chip.kind !== 'endpoint' || chip.processor === undefined) continue;
    const name = byProcessor.get(chip.processor);
    if (name && !taken.has(name)) {
      names.set(chip.serial, name);
      taken.add(name);
    }
  }

  const neighbours = new Map<number, { port: number; other: number; otherPort: number }[]>();
  for (const link of discovered.links) {
    for (const [x, y] of [
      [link.a, link.b],
      [link.b, link.a],
    ]) {
      const list = neighbours.get(x.serial) ?? [];
      list.push({ port: x.port, other: y.serial, otherPort: y.port });
      neighbours.set(x.serial, list);
    }
  }

  // Vote, a round at a time, until no unmatched chip gains a name.
  for (;;) {
    const proposals: { serial: number; name: string; votes: number }[] = [];
    for (const chip of discovered.chips) {
      if (names.has(chip.serial)) continue;
      const votes = new Map<string, number>();
      for (const n of neighbours.get(chip.serial) ?? []) {
        const otherName = names.get(n.other);
        if (!otherName) continue;
        const expected = expectedAt.get(key(otherName, n.otherPort));
        if (!expected || taken.has(expected.chip)) continue;
        votes.set(expected.chip, (votes.get(expected.chip) ?? 0) + (expected.port === n.port ? 2 : 1));
      }
      let best: string | null = null;
      let bestVotes = 0;
      for (const [name, count] of votes) {
        if (count > bestVotes || (count === bestVotes && best !== null && name < best)) {
          best = name;
          bestVotes = count;
        }
      }
      if (best) proposals.push({ serial: chip.serial, name: best, votes: bestVotes });
    }
    if (proposals.length === 0) break;
    proposals.sort((p, q) => q.votes - p.votes || p.name.localeCompare(q.name));
    let progress = false;
    for (const p of proposals) {
      if (taken.has(p.name) || names.has(p.serial)) continue;
      names.set(p.serial, p.name);
      taken.add(p.name);
      progress = true;
    }
    if (!progress) break;
  }

  const findings: Finding[] = [];
  const cables: MatchedFabric['cables'] = [];
  const seenEnds = new Set<string>();
  const nameOf = (serial: number) => names.get(serial) ?? `serial ${serial.toString(16).padStart(8, '0')}`;
  for (const link of discovered.links) {
    const a = { chip: nameOf(link.a.serial), port: link.a.port };
    const b = { chip: nameOf(link.b.serial), port: link.b.port };
    cables.push({ a, b, lanes: link.lanes });
    seenEnds.add(key(a.chip, a.port));
    seenEnds.add(key(b.chip, b.port));
    const atA = expectedAt.get(key(a.chip, a.port));
    const atB = expectedAt.get(key(b.chip, b.port));
    if (atA && atA.chip === b.chip && atA.port === b.port) {
      if (link.lanes > 0 && link.lanes < 3) {
        findings.push({ kind: 'degraded-link', message: `cable ${a.chip}:${a.port}–${b.chip}:${b.port} runs on ${link.lanes} of 3 lanes`, ends: [a, b] });
      }
      continue;
    }
    if (!atA && !atB) {
      findings.push({ kind: 'extra-cable', message: `cable ${a.chip}:${a.port}–${b.chip}:${b.port} is not in the design`, ends: [a, b] });
      continue;
    }
    const designed = [atA ? `${a.chip}:${a.port}–${atA.chip}:${atA.port}` : null, atB ? `${atB.chip}:${atB.port}–${b.chip}:${b.port}` : null].filter(Boolean);
    findings.push({
      kind: 'miswired-cable',
      message: `cable ${a.chip}:${a.port}–${b.chip}:${b.port} is miswired; the design has ${designed.join(' and ')}`,
      ends: [a, b],
    });
  }
  const reported = new Set<string>();
  for (const cable of design.cables) {
    const ka = key(cable.a.chip, cable.a.port);
    const kb = key(cable.b.chip, cable.b.port);
    if (seenEnds.has(ka) || seenEnds.has(kb) || reported.has(ka)) continue;
    // Neither end was seen: the cable is absent (or dead), or its chips were not reached.
    const aReached = taken.has(cable.a.chip);
    const bReached = taken.has(cable.b.chip);
    if (!aReached && !bReached) continue;
    reported.add(ka);
    findings.push({ kind: 'missing-cable', message: `cable ${ka}–${kb} is missing (no live link at either end)`, ends: [cable.a, cable.b] });
  }
  for (const name of designChips.keys()) {
    if (!taken.has(name)) findings.push({ kind: 'unreachable-chip', message: `${name} was not reached`, ends: [] });
  }
  for (const chip of discovered.chips) {
    if (!names.has(chip.serial))
      findings.push({ kind: 'unexpected-chip', message: `a ${chip.kind} with serial ${nameOf(chip.serial)} is not in the design`, ends: [] });
  }
  return { names, findings, cables };
}
