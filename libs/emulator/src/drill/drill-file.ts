/**
 * Drill files (issue 5): a fabric fixture, background traffic, a timeline of things done to the
 * fabric at emulated times, and what must hold afterwards. Validated with every problem named by
 * its JSON path, like installation files.
 */
import type { FabricDesign } from '@weft/fabric-model';
import type { PatternSpec, SizeSpec } from '@weft/fabric-model/traffic/patterns';
import type { TrafficRequest } from '../traffic/traffic-request';

export const DRILL_FORMAT = 'weft-drill/1';

export type DrillAction =
  | { readonly atNs: number; readonly action: 'cut-link' | 'restore-link'; readonly chip: string; readonly port: number }
  | {
      readonly atNs: number;
      readonly action: 'lane-bit-error-rate';
      readonly chip: string;
      readonly port: number;
      readonly lane: number;
      readonly rate: number;
    }
  | { readonly atNs: number; readonly action: 'kill-router' | 'revive-router'; readonly chip: string }
  | { readonly atNs: number; readonly action: 'stop-accepting' | 'resume-accepting'; readonly chip: string; readonly port: number }
  | {
      readonly atNs: number;
      readonly action: 'declare-fault';
      readonly kind: 'link' | 'router';
      readonly chip: string;
      readonly port?: number;
      readonly note?: string;
    }
  | { readonly atNs: number; readonly action: 'clear-fault'; readonly chip: string; readonly port?: number };

export interface DrillTraffic {
  readonly pattern: PatternSpec;
  /** Offered load, a fraction of each injection link. */
  readonly load: number;
  readonly packetPhits: SizeSpec;
  readonly slices: readonly number[];
  readonly seed: number;
  readonly adaptive?: number;
  /** Of each multicast group source's packets, the share sent to its groups (`routing.multicastGroups`; Anton 2). */
  readonly multicast?: { readonly fraction: number };
}

/** A multicast group as a drill's routing settings name it (what the family's engine takes: anton2-routing-engine.ts). */
export interface DrillMulticastGroup {
  readonly group: number;
  readonly source: string;
  readonly destinations: readonly { readonly chip: string; readonly endpoints: readonly number[] }[];
}

export interface DrillExpectations {
  /** Longest emulated time from a fault to the healed configuration being pushed. */
  readonly maxHealNs?: number;
  /** Packets that may end neither delivered, nor discarded with a reason, nor in flight (0). */
  readonly unaccounted?: number;
  /** Accepted throughput after healing, at least this fraction of before the first fault. */
  readonly throughputAfterFraction?: number;
  /** Event kinds that must appear during the drill. */
  readonly events?: readonly string[];
  /**
   * Every drill checks that each discarded packet is explained by a step of its timeline (see
   * discard-explanations.ts); this is how long after the healing push, or after a cable broke,
   * discards there still count as explained. Default DEFAULT_DISCARD_DRAIN_NS.
   */
  readonly discardDrainNs?: number;
}

export interface DrillFile {
  readonly format: typeof DRILL_FORMAT;
  readonly name: string;
  readonly description: string;
  /** An installation fixture, e.g. "blackwidow/bw-r1.5-288". */
  readonly fabric: string;
  readonly traffic: DrillTraffic;
  /** Emulated length of the drill (the traffic stops then, and the fabric drains). */
  readonly durationNs: number;
  /** Time-series interval for the report. */
  readonly intervalNs: number;
  readonly timeline: readonly DrillAction[];
  readonly expectations: DrillExpectations;
  /**
   * The fabric's routing settings for the drill, as its family's routing engine takes them (Anton 2:
   * `arbiterPatterns`, `multicastGroups`), set through the control plane before the traffic starts;
   * the engine checks them and names what is wrong.
   */
  readonly routing?: { readonly multicastGroups?: readonly DrillMulticastGroup[] } & Readonly<Record<string, unknown>>;
}

export class DrillFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

const ACTIONS = [
  'cut-link',
  'restore-link',
  'lane-bit-error-rate',
  'kill-router',
  'revive-router',
  'stop-accepting',
  'resume-accepting',
  'declare-fault',
  'clear-fault',
];
const EVENT_KINDS = [
  'FORWARD_PROGRESS_TIMEOUT',
  'LANE_DECOMMISSIONED',
  'LINK_DOWN',
  'LINK_UP',
  'ROUTER_UNRESPONSIVE',
  'SOFT_ERROR',
  'CONFIGURATION_ERROR',
  'GENERATION_COMPUTED',
  'GENERATION_PUSHED',
  'FAULT_DECLARED',
  'FAULT_CLEARED',
  'DRILL_STEP',
];

/** Checks a parsed drill file; throws DrillFileError listing every problem with its path. */
export function validateDrillFile(value: unknown): DrillFile {
  const problems: string[] = [];
  const bad = (path: string, message: string) => problems.push(`${path}: ${message}`);
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const text = (v: unknown, path: string, max = 200) => {
    if (typeof v !== 'string' || v.length === 0 || v.length > max)
      bad(path, `must be a non-empty string of at most ${max} characters, got ${JSON.stringify(v)}`);
  };
  const number = (v: unknown, path: string, min: number, max: number, integer = false) => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
      bad(path, `must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(v)}`);
    }
  };
  /** A misspelt key would otherwise be ignored, and its setting silently left at its default. */
  const onlyKnown = (v: Record<string, unknown>, path: string, keys: readonly string[]) => {
    for (const key of Object.keys(v)) if (!keys.includes(key)) bad(`${path}.${key}`, `is not a setting here (known: ${keys.join(', ')})`);
  };
  if (!isObject(value)) throw new DrillFileError(['$: a drill file is a JSON object']);
  onlyKnown(value, '$', ['format', 'name', 'description', 'fabric', 'traffic', 'durationNs', 'intervalNs', 'timeline', 'expectations', 'routing']);
  const routing = value.routing;
  if (routing !== undefined) {
    if (!isObject(routing)) bad('$.routing', "must be an object: the fabric family's routing settings");
    else if (routing.multicastGroups !== undefined) {
      if (!Array.isArray(routing.multicastGroups)) bad('$.routing.multicastGroups', 'must be a list of groups');
      else
        routing.multicastGroups.forEach((g: unknown, i) => {
          if (!isObject(g)) return bad(`$.routing.multicastGroups[${i}]`, 'must be an object (group, source, destinations)');
          number(g.group, `$.routing.multicastGroups[${i}].group`, 0, 2 ** 29 - 1, true);
          text(g.source, `$.routing.multicastGroups[${i}].source`, 64);
          if (!Array.isArray(g.destinations)) bad(`$.routing.multicastGroups[${i}].destinations`, 'must be a list of {chip, endpoints}');
          return undefined;
        });
    }
  }
  if (value.format !== DRILL_FORMAT) bad('$.format', `must be "${DRILL_FORMAT}", got ${JSON.stringify(value.format)}`);
  text(value.name, '$.name', 100);
  if (value.description !== undefined && typeof value.description !== 'string') bad('$.description', 'must be a string');
  text(value.fabric, '$.fabric');
  number(value.durationNs, '$.durationNs', 1_000, 1e10);
  number(value.intervalNs ?? 1_000, '$.intervalNs', 100, 1e8);
  const duration = typeof value.durationNs === 'number' ? value.durationNs : Infinity;

  const traffic = value.traffic;
  if (!isObject(traffic)) bad('$.traffic', 'must be an object (pattern, load, packetPhits, slices, seed)');
  else {
    onlyKnown(traffic, '$.traffic', ['pattern', 'load', 'packetPhits', 'slices', 'seed', 'adaptive', 'multicast']);
    if (traffic.multicast !== undefined) {
      if (!isObject(traffic.multicast)) bad('$.traffic.multicast', 'must be an object ({fraction})');
      else {
        onlyKnown(traffic.multicast, '$.traffic.multicast', ['fraction']);
        number(traffic.multicast.fraction, '$.traffic.multicast.fraction', 0, 1);
      }
      const groups = isObject(routing) ? routing.multicastGroups : undefined;
      if (!Array.isArray(groups) || groups.length === 0) bad('$.traffic.multicast', 'needs groups to send to: $.routing.multicastGroups');
    }
    if (!isObject(traffic.pattern) || typeof traffic.pattern.kind !== 'string') bad('$.traffic.pattern', 'must be an object with a "kind"');
    // Light loads are the rule: the control plane's reaction is charged to emulated time, and a
    // 1.5 GHz Anton 2 machine of 512 ASICs emulates some microseconds a wall second under load.
    number(traffic.load, '$.traffic.load', 1e-7, 1);
    if (typeof traffic.packetPhits !== 'number' && !Array.isArray(traffic.packetPhits))
      bad('$.traffic.packetPhits', 'must be a size in phits or a list of {phits, weight}');
    if (!Array.isArray(traffic.slices) || traffic.slices.length === 0) bad('$.traffic.slices', 'must list at least one slice');
    number(traffic.seed, '$.traffic.seed', 0, 2 ** 31 - 1, true);
    if (traffic.adaptive !== undefined) number(traffic.adaptive, '$.traffic.adaptive', 0, 1);
  }

  const timeline = value.timeline;
  if (!Array.isArray(timeline)) bad('$.timeline', 'must be a list of actions');
  else {
    let previous = -Infinity;
    timeline.forEach((step: unknown, i) => {
      const path = `$.timeline[${i}]`;
      if (!isObject(step)) return bad(path, 'must be an object');
      onlyKnown(step, path, ['atNs', 'action', 'chip', 'port', 'lane', 'rate', 'kind', 'note']);
      number(step.atNs, `${path}.atNs`, 0, duration);
      if (typeof step.atNs === 'number') {
        if (step.atNs < previous) bad(`${path}.atNs`, `must not be earlier than the step before it (${previous} ns)`);
        previous = step.atNs;
      }
      if (!ACTIONS.includes(step.action as string)) return bad(`${path}.action`, `must be one of ${ACTIONS.join(', ')}, got ${JSON.stringify(step.action)}`);
      text(step.chip, `${path}.chip`, 64);
      const needsPort = ['cut-link', 'restore-link', 'lane-bit-error-rate', 'stop-accepting', 'resume-accepting'].includes(step.action as string);
      // Any port a chip may have (a radix-127 flattened butterfly router's too): checkDrillTargets holds it to the fabric's cables.
      if (needsPort || (step.action === 'declare-fault' && step.kind === 'link')) number(step.port, `${path}.port`, 0, 255, true);
      if (step.action === 'lane-bit-error-rate') {
        number(step.lane, `${path}.lane`, 0, 2, true);
        number(step.rate, `${path}.rate`, 0, 1);
      }
      if (step.action === 'declare-fault' && step.kind !== 'link' && step.kind !== 'router')
        bad(`${path}.kind`, `must be "link" or "router", got ${JSON.stringify(step.kind)}`);
    });
  }

  const expectations = value.expectations;
  if (!isObject(expectations)) bad('$.expectations', 'must be an object');
  else {
    onlyKnown(expectations, '$.expectations', ['maxHealNs', 'unaccounted', 'throughputAfterFraction', 'events', 'discardDrainNs']);
    if (expectations.maxHealNs !== undefined) number(expectations.maxHealNs, '$.expectations.maxHealNs', 1, 1e10);
    if (expectations.unaccounted !== undefined) number(expectations.unaccounted, '$.expectations.unaccounted', 0, 0, true);
    if (expectations.throughputAfterFraction !== undefined) number(expectations.throughputAfterFraction, '$.expectations.throughputAfterFraction', 0, 1);
    if (expectations.discardDrainNs !== undefined) number(expectations.discardDrainNs, '$.expectations.discardDrainNs', 0, 1e9);
    if (expectations.events !== undefined) {
      if (!Array.isArray(expectations.events)) bad('$.expectations.events', 'must be a list of event kinds');
      else
        expectations.events.forEach((kind: unknown, i) => {
          if (!EVENT_KINDS.includes(kind as string))
            bad(`$.expectations.events[${i}]`, `must be one of ${EVENT_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
        });
    }
  }
  if (problems.length > 0) throw new DrillFileError(problems);
  return { ...(value as unknown as DrillFile), description: (value.description as string) ?? '', intervalNs: (value.intervalNs as number) ?? 1_000 };
}

/** Problems with a drill's timeline against the fabric it names: chips that do not exist, ports with no cable. */
export function checkDrillTargets(drill: DrillFile, design: FabricDesign): string[] {
  const chips = new Map(design.chips.map((c) => [c.name, c]));
  const cabled = new Set<string>();
  for (const c of design.cables) {
    cabled.add(`${c.a.chip}:${c.a.port}`);
    cabled.add(`${c.b.chip}:${c.b.port}`);
  }
  const problems: string[] = [];
  drill.timeline.forEach((step, i) => {
    const chip = chips.get(step.chip);
    if (!chip) return problems.push(`$.timeline[${i}].chip: ${drill.fabric} has no chip "${step.chip}"`);
    const routerOnly = step.action === 'kill-router' || step.action === 'revive-router' || (step.action === 'declare-fault' && step.kind === 'router');
    if (routerOnly && chip.kind !== 'router') return problems.push(`$.timeline[${i}].chip: "${step.chip}" is not a router`);
    const endpointOnly = step.action === 'stop-accepting' || step.action === 'resume-accepting';
    if (endpointOnly && chip.kind !== 'endpoint') return problems.push(`$.timeline[${i}].chip: "${step.chip}" is not a processor`);
    if ('port' in step && step.port !== undefined && !cabled.has(`${step.chip}:${step.port}`))
      problems.push(`$.timeline[${i}].port: ${step.chip} has no cable on port ${step.port}`);
    return undefined;
  });
  (drill.routing?.multicastGroups ?? []).forEach((g, i) => {
    if (!chips.has(g.source)) problems.push(`$.routing.multicastGroups[${i}].source: ${drill.fabric} has no chip "${g.source}"`);
  });
  return problems;
}

/** The drill's traffic as the emulator runs it; multicast groups by the emulator's number of their source chip (its place in `design`). */
export function drillTrafficRequest(drill: DrillFile, nsPerCycle: number, design: FabricDesign): TrafficRequest {
  const chipIndex = new Map(design.chips.map((c, i) => [c.name, i]));
  const multicast = drill.traffic.multicast && {
    fraction: drill.traffic.multicast.fraction,
    groups: (drill.routing?.multicastGroups ?? []).map((g) => ({ group: g.group, source: chipIndex.get(g.source) ?? -1 })),
  };
  return {
    ...(multicast ? { multicast } : {}),
    mode: 'background',
    pattern: drill.traffic.pattern,
    packetPhits: drill.traffic.packetPhits,
    slices: drill.traffic.slices,
    seed: drill.traffic.seed,
    adaptive: drill.traffic.adaptive,
    load: drill.traffic.load,
    interval: Math.max(10, Math.round(drill.intervalNs / nsPerCycle)),
  };
}
