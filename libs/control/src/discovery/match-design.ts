/**
 * Compares a discovered fabric with the design the operator intends. Chips are matched to the
 * design's names by what they are connected to: processors name themselves; every other chip takes
 * the name the design gives to the chip at the far end of the cables that reach it from chips
 * already matched (a vote, so one miswired cable cannot mislead it). Then every discovered cable
 * is checked against the design: missing, extra and miswired cables and unreachable chips are
 * findings naming both cable ends by chip and physical port.
 */
import type { CableEnd, FabricDesign } from '@weft/fabric-model';
import type { DiscoveryResult } from './discovery-sweep';

export type FindingKind = 'missing-cable' | 'extra-cable' | 'miswired-cable' | 'unreachable-chip' | 'unexpected-chip' | 'degraded-link';

export interface Finding {
  readonly kind: FindingKind;
  readonly message: string;
  readonly ends: readonly { chip: string; port: number }[];
  /** The chip an unreachable-chip finding is about (design name). */
  readonly chip?: string;
}

export interface MatchedFabric {
  /** Discovered serial → design name. */
  readonly names: Map<number, string>;
  readonly findings: Finding[];
  /** Cables as discovered, by design names. */
  readonly cables: { a: { chip: string; port: number }; b: { chip: string; port: number }; lanes: number }[];
}

/**
 * Chips and cable ends are numbered densely (design chip i's port p is end portBase[i] + p;
 * discovered chips by their order), so that matching a 32K fabric's cables walks typed arrays
 * rather than hashing a string or a serial per look-up.
 */
export function matchDesign(discovered: DiscoveryResult, design: FabricDesign): MatchedFabric {
  const chipIndex = new Map(design.chips.map((c, i) => [c.name, i]));
  const portBase = new Int32Array(design.chips.length + 1);
  design.chips.forEach((c, i) => (portBase[i + 1] = portBase[i] + c.portCount));
  const endOwner = new Int32Array(portBase[design.chips.length]);
  design.chips.forEach((c, i) => endOwner.fill(i, portBase[i], portBase[i + 1]));
  /** Design end of chip index i's port p (-1 when the design has no such port). */
  const endAt = (i: number, port: number): number => (i >= 0 && port >= 0 && port < design.chips[i].portCount ? portBase[i] + port : -1);
  /** The design's cables come a chip's ports at a time: the last name looked up is remembered. */
  let lastName = '';
  let lastIndex = -1;
  const end = (chip: string, port: number): number => {
    if (chip !== lastName) {
      lastName = chip;
      lastIndex = chipIndex.get(chip) ?? -1;
    }
    return endAt(lastIndex, port);
  };
  const describe = (e: number) => `${design.chips[endOwner[e]].name}:${e - portBase[endOwner[e]]}`;
  /** The design's cable ends (looked up by name once), and the far end the design puts at each
   * end (-1: no cable). */
  const designEnds = new Int32Array(design.cables.length * 2);
  const expectedAt = new Int32Array(endOwner.length).fill(-1);
  /** The design's own { chip, port } at each end: a cable found where the design has it is
   * reported with these (a 32K fabric has 450K cables; two objects fewer each). */
  const endObject = new Array<CableEnd | undefined>(endOwner.length);
  design.cables.forEach((cable, c) => {
    const a = (designEnds[2 * c] = end(cable.a.chip, cable.a.port));
    const b = (designEnds[2 * c + 1] = end(cable.b.chip, cable.b.port));
    if (a >= 0) {
      expectedAt[a] = b;
      endObject[a] = cable.a;
    }
    if (b >= 0) {
      expectedAt[b] = a;
      endObject[b] = cable.b;
    }
  });
  const byProcessor = new Map<number, number>();
  design.chips.forEach((c, i) => {
    if (c.kind === 'endpoint' && c.processor !== undefined) byProcessor.set(c.processor, i);
  });

  const chips = discovered.chips;
  const order = new Map(chips.map((c, i) => [c.serial, i]));
  /** Design chip index of each discovered chip (-1: not matched), and which design chips are taken. */
  const matched = new Int32Array(chips.length).fill(-1);
  const taken = new Uint8Array(design.chips.length);
  chips.forEach((chip, k) => {
    if (chip.kind !== 'endpoint' || chip.processor === undefined) return;
    const index = byProcessor.get(chip.processor);
    if (index !== undefined && !taken[index]) {
      matched[k] = index;
      taken[index] = 1;
    }
  });

  // Each discovered chip's cables, compressed: for chip k, entries first[k]..first[k+1] give
  // its port, the chip at the far end and that chip's port.
  const links = discovered.links;
  /** Discovered chip at each link's a and b end: linkEnd[2l], linkEnd[2l+1]. */
  const linkEnd = new Int32Array(links.length * 2);
  const first = new Int32Array(chips.length + 1);
  links.forEach((link, l) => {
    const a = (linkEnd[2 * l] = order.get(link.a.serial) ?? -1);
    const b = (linkEnd[2 * l + 1] = order.get(link.b.serial) ?? -1);
    if (a >= 0) first[a + 1]++;
    if (b >= 0) first[b + 1]++;
  });
  for (let k = 0; k < chips.length; k++) first[k + 1] += first[k];
  const fill = first.slice(0, chips.length);
  const nPort = new Int32Array(first[chips.length]);
  const nOther = new Int32Array(first[chips.length]);
  const nOtherPort = new Int32Array(first[chips.length]);
  const addNeighbour = (x: number, xPort: number, y: number, yPort: number) => {
    if (x < 0) return;
    const j = fill[x]++;
    nPort[j] = xPort;
    nOther[j] = y;
    nOtherPort[j] = yPort;
  };
  links.forEach((link, l) => {
    addNeighbour(linkEnd[2 * l], link.a.port, linkEnd[2 * l + 1], link.b.port);
    addNeighbour(linkEnd[2 * l + 1], link.b.port, linkEnd[2 * l], link.a.port);
  });

  // Vote, a round at a time, until no unmatched chip gains a name. A chip's votes change only
  // when a neighbour is named, and its proposal only then or when it lost its name to another
  // chip, so each round looks at just those chips (in discovery order, so that ties fall as in a
  // full scan): the match is linear in the cables, not in cables × the fabric's depth.
  const hasMatchedNeighbour = (k: number) => {
    for (let j = first[k]; j < first[k + 1]; j++) if (nOther[j] >= 0 && matched[nOther[j]] >= 0) return true;
    return false;
  };
  let candidates: number[] = [];
  for (let k = 0; k < chips.length; k++) if (matched[k] < 0 && hasMatchedNeighbour(k)) candidates.push(k);
  const votes = new Map<number, number>();
  while (candidates.length > 0) {
    const proposals: { chip: number; index: number; name: string; votes: number }[] = [];
    for (const k of candidates) {
      votes.clear();
      for (let j = first[k]; j < first[k + 1]; j++) {
        const other = nOther[j] >= 0 ? matched[nOther[j]] : -1;
        if (other < 0) continue;
        const otherEnd = endAt(other, nOtherPort[j]);
        const expected = otherEnd >= 0 ? expectedAt[otherEnd] : -1;
        if (expected < 0) continue;
        const index = endOwner[expected];
        if (taken[index]) continue;
        votes.set(index, (votes.get(index) ?? 0) + (expected - portBase[index] === nPort[j] ? 2 : 1));
      }
      let best = -1;
      let bestVotes = 0;
      votes.forEach((count, index) => {
        if (count > bestVotes || (count === bestVotes && best >= 0 && design.chips[index].name < design.chips[best].name)) {
          best = index;
          bestVotes = count;
        }
      });
      if (best >= 0) proposals.push({ chip: k, index: best, name: design.chips[best].name, votes: bestVotes });
    }
    proposals.sort((p, q) => q.votes - p.votes || p.name.localeCompare(q.name));
    const next = new Set<number>();
    let progress = false;
    for (const p of proposals) {
      if (taken[p.index]) {
        next.add(p.chip);
        continue;
      }
      matched[p.chip] = p.index;
      taken[p.index] = 1;
      progress = true;
      for (let j = first[p.chip]; j < first[p.chip + 1]; j++) if (nOther[j] >= 0) next.add(nOther[j]);
    }
    if (!progress) break;
    candidates = [...next].filter((k) => matched[k] < 0).sort((a, b) => a - b);
  }

  const names = new Map<number, string>();
  chips.forEach((chip, k) => {
    if (matched[k] >= 0) names.set(chip.serial, design.chips[matched[k]].name);
  });
  const findings: Finding[] = [];
  const cables: MatchedFabric['cables'] = [];
  /** Design cable ends seen in the discovered fabric. */
  const seenEnds = new Uint8Array(endOwner.length);
  const serialName = (serial: number) => `serial ${serial.toString(16).padStart(8, '0')}`;
  const nameOf = (serial: number) => names.get(serial) ?? serialName(serial);
  const nameAt = (k: number, serial: number) => (k >= 0 && matched[k] >= 0 ? design.chips[matched[k]].name : serialName(serial));
  links.forEach((link, l) => {
    const ka = linkEnd[2 * l];
    const kb = linkEnd[2 * l + 1];
    const endA = ka >= 0 ? endAt(matched[ka], link.a.port) : -1;
    const endB = kb >= 0 ? endAt(matched[kb], link.b.port) : -1;
    const a = (endA >= 0 ? endObject[endA] : undefined) ?? { chip: nameAt(ka, link.a.serial), port: link.a.port };
    const b = (endB >= 0 ? endObject[endB] : undefined) ?? { chip: nameAt(kb, link.b.serial), port: link.b.port };
    cables.push({ a, b, lanes: link.lanes });
    if (endA >= 0) seenEnds[endA] = 1;
    if (endB >= 0) seenEnds[endB] = 1;
    const atA = endA >= 0 ? expectedAt[endA] : -1;
    const atB = endB >= 0 ? expectedAt[endB] : -1;
    if (atA >= 0 && atA === endB) {
      if (link.lanes > 0 && link.lanes < 3) {
        findings.push({ kind: 'degraded-link', message: `cable ${a.chip}:${a.port}–${b.chip}:${b.port} runs on ${link.lanes} of 3 lanes`, ends: [a, b] });
      }
      return;
    }
    if (atA < 0 && atB < 0) {
      findings.push({ kind: 'extra-cable', message: `cable ${a.chip}:${a.port}–${b.chip}:${b.port} is not in the design`, ends: [a, b] });
      return;
    }
    const designed = [atA >= 0 ? `${a.chip}:${a.port}–${describe(atA)}` : null, atB >= 0 ? `${describe(atB)}–${b.chip}:${b.port}` : null].filter(Boolean);
    findings.push({
      kind: 'miswired-cable',
      message: `cable ${a.chip}:${a.port}–${b.chip}:${b.port} is miswired; the design has ${designed.join(' and ')}`,
      ends: [a, b],
    });
  });
  const reported = new Uint8Array(endOwner.length);
  design.cables.forEach((cable, c) => {
    const ka = designEnds[2 * c];
    const kb = designEnds[2 * c + 1];
    if ((ka >= 0 && (seenEnds[ka] || reported[ka])) || (kb >= 0 && seenEnds[kb])) return;
    // Neither end was seen: the cable is absent (or dead), or its chips were not reached.
    if (!(ka >= 0 && taken[endOwner[ka]]) && !(kb >= 0 && taken[endOwner[kb]])) return;
    if (ka >= 0) reported[ka] = 1;
    const named = `${cable.a.chip}:${cable.a.port}–${cable.b.chip}:${cable.b.port}`;
    findings.push({ kind: 'missing-cable', message: `cable ${named} is missing (no live link at either end)`, ends: [cable.a, cable.b] });
  });
  design.chips.forEach((chip, i) => {
    if (!taken[i]) findings.push({ kind: 'unreachable-chip', message: `${chip.name} was not reached`, ends: [], chip: chip.name });
  });
  chips.forEach((chip, k) => {
    if (matched[k] < 0) findings.push({ kind: 'unexpected-chip', message: `a ${chip.kind} with serial ${nameOf(chip.serial)} is not in the design`, ends: [] });
  });
  return { names, findings, cables };
}
