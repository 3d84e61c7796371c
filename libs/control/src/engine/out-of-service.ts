/**
 * Why a chip's cabled port carries no traffic in a generation, or a chip has no image: the fault or
 * discovery finding behind it, from what the generation was computed from (its circumstances) —
 * any family's (issue 55: the engine layer's, not one family's).
 */
import type { FabricDesign, PortRole } from '@weft/fabric-model';
import type { Finding } from '../discovery/match-design';

/** A fault as it stood when a generation was computed. */
export interface RecordedFault {
  readonly id: number;
  /** link, router, lane or endpoint. */
  readonly kind: string;
  readonly chip: string;
  readonly port: number | null;
  /** interrupt or operator. */
  readonly source: string;
  /** ISO 8601. */
  readonly declaredAt: string;
  readonly note: string;
}

/** What a generation was computed from, besides the fabric's design. */
export interface GenerationCircumstances {
  /** Faults in force. */
  readonly faults: readonly RecordedFault[];
  /** What the sweep found against the design. */
  readonly findings: readonly Finding[];
}

export interface PortOutOfService {
  readonly port: number;
  /** What the design cables it as (down, up, side). */
  readonly designedAs: PortRole;
  /** The design's far end of its cable, "s0.r1.5:44". */
  readonly farEnd: string;
  readonly reason: string;
  /** The fault that retired it, if a fault did. */
  readonly faultId: number | null;
  /** The discovery finding that explains it, if one does (missing-cable, …). */
  readonly finding: string | null;
}

/** The reason given for a port no fault or finding names. */
export const NO_CAUSE = 'no fault or finding names it: the routing found no use for it';

/** Why the port `chip`:`port` (its cable's far end `end`) is out of service: the fault or finding that names it, or that none does. */
/** A torus chip's cabled ports that a fault or finding names, each with why (BG/L's links, Anton 2's channels). */
export function cabledPortsOutOfService(
  chip: string,
  design: FabricDesign,
  circumstances: GenerationCircumstances | null,
  designedAs: PortRole,
): PortOutOfService[] {
  if (!circumstances) return [];
  const out: PortOutOfService[] = [];
  for (const cable of design.cables) {
    const [mine, far] = cable.a.chip === chip ? [cable.a, cable.b] : cable.b.chip === chip ? [cable.b, cable.a] : [null, null];
    if (!mine || !far) continue;
    const why = whyOutOfService(chip, mine.port, far, circumstances);
    if (why.reason !== NO_CAUSE) out.push({ port: mine.port, designedAs, farEnd: `${far.chip}:${far.port}`, ...why });
  }
  return out.sort((a, b) => a.port - b.port);
}

export function whyOutOfService(
  chip: string,
  port: number,
  end: { chip: string; port: number },
  { faults, findings }: GenerationCircumstances,
): Pick<PortOutOfService, 'reason' | 'faultId' | 'finding'> {
  const byFault = (f: RecordedFault, what: string) => ({ reason: `${what} (fault #${f.id}, ${provenance(f)})`, faultId: f.id, finding: null });
  const cable = faults.find((f) => f.kind === 'link' && ((f.chip === chip && f.port === port) || (f.chip === end.chip && f.port === end.port)));
  if (cable) return byFault(cable, `cable fault on ${cable.chip}:${cable.port}${cable.chip === chip ? '' : ', the far end'}`);
  const farRouter = faults.find((f) => f.kind === 'router' && f.chip === end.chip);
  if (farRouter) return byFault(farRouter, `the far router ${end.chip} is out of service`);
  const found = findings.find(
    (f) =>
      f.ends.some((e) => (e.chip === chip && e.port === port) || (e.chip === end.chip && e.port === end.port)) ||
      (f.kind === 'unreachable-chip' && f.chip === end.chip),
  );
  if (found) return { reason: `discovery: ${found.message}`, faultId: null, finding: found.kind };
  return { reason: NO_CAUSE, faultId: null, finding: null };
}

/**
 * Why a router the design names has no image in a generation: a router fault on it, or the sweep
 * not reaching it (null: neither is recorded, or the generation kept no circumstances).
 */
export function whyNotConfigured(chip: string, circumstances: GenerationCircumstances | null): string | null {
  if (!circumstances) return null;
  const fault = circumstances.faults.find((f) => f.kind === 'router' && f.chip === chip);
  if (fault) return `it is out of service (fault #${fault.id}, ${provenance(fault)})`;
  const found = circumstances.findings.find((f) => f.kind === 'unreachable-chip' && f.chip === chip);
  return found ? `discovery: ${found.message}` : null;
}

/** "recorded from an interrupt at 2026-11-22 14:02:11 UTC", "declared by an operator at …: note". */
function provenance(f: RecordedFault): string {
  const at = f.declaredAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  const who = f.source === 'interrupt' ? 'recorded from an interrupt' : `declared by ${f.source === 'operator' ? 'an operator' : f.source}`;
  return `${who} at ${at}${f.note ? `: ${f.note}` : ''}`;
}
