/**
 * A router's registers as an operator reads them (issue 4 §10): subtrees as processor ranges, port
 * masks as port lists, timers in nanoseconds — next to the raw register writes — and the register
 * by register difference between two generations.
 */
import { ConfigurationImage, PORT_DOWNLINK, PORT_SIDELINK, PORT_UNUSED, PORT_UPLINK, RouterImage } from './blackwidow-engine';
import { ranges } from '../engine/ranges';
import { routerRegisters } from './push-plan';
import { RegisterWrite } from '../engine/push-plan';
import { RegisterChange, RouterDiff, routerPairs } from '../engine/chip-diff';

const NS_PER_CYCLE = 1.25;

export interface RouterDescription {
  readonly chip: string;
  readonly rank: number;
  readonly slice: number;
  /** Physical ports by direction, as ranges ("0–31"). */
  readonly downlinks: string;
  readonly uplinks: string;
  readonly sidelinks: string;
  readonly unused: string;
  readonly virtualRouters: readonly VirtualRouterDescription[];
  readonly link: {
    readonly laneRetryThreshold: number;
    readonly forwardProgressTimeoutNs: number;
    readonly leafForwardProgressTimeoutNs: number;
    readonly maxPacketLength: number;
    readonly octantRatesGbps: readonly number[];
  };
  /** The registers as the push writes them. */
  readonly raw: readonly RegisterWrite[];
}

export interface VirtualRouterDescription {
  readonly tiles: string;
  /** Processors below it. */
  readonly processors: string;
  readonly rootDetect: { readonly location: number; readonly mask: number; readonly meaning: string };
  readonly downRoute: { readonly shift: number; readonly mask: number; readonly meaning: string };
  readonly portMap: readonly { readonly logical: number; readonly physical: number }[];
  /** §5.1: the highest matching entry wins. */
  readonly table: readonly {
    readonly entry: number;
    readonly location: number;
    readonly mask: number;
    readonly processors: string;
    readonly ports: string;
    readonly portCount: number;
  }[];
  /** Which of the 15 optional hash bits it hashes on (§7.8.2). */
  readonly hashBits: string;
}

const span = (location: number, mask: number) => (mask === 0 ? `${location}` : `${location}–${location + mask}`);

export function describeRouter(router: RouterImage): RouterDescription {
  const byDirection = (d: number) => ranges(portsOf(router.portDirection, d));
  return {
    chip: router.name,
    rank: router.rank,
    slice: router.slice,
    downlinks: byDirection(PORT_DOWNLINK),
    uplinks: byDirection(PORT_UPLINK),
    sidelinks: byDirection(PORT_SIDELINK),
    unused: byDirection(PORT_UNUSED),
    virtualRouters: router.virtualRouters.map((vr) => {
      const [location, mask] = vr.rootDetect;
      const [shift, slots] = vr.downRoute;
      const hashBits: number[] = [];
      for (let b = 0; b < 15; b++) if (vr.hashSelect & (1 << b)) hashBits.push(b);
      return {
        tiles: ranges(vr.tiles),
        processors: span(vr.subtree[0], vr.subtree[1] - vr.subtree[0]),
        rootDetect: { location, mask, meaning: `processors ${span(location, mask)} are below: route them down` },
        downRoute: { shift, mask: slots, meaning: `logical port = (destination >> ${shift}) & ${slots}` },
        portMap: vr.portMap.flatMap((physical, logical) => (physical >= 0 ? [{ logical, physical }] : [])),
        table: vr.table.map((e, entry) => ({
          entry,
          location: e.location,
          mask: e.mask,
          processors: span(e.location, e.mask),
          ports: ranges(e.ports),
          portCount: e.ports.length,
        })),
        hashBits: ranges(hashBits),
      };
    }),
    link: {
      laneRetryThreshold: router.link.laneRetryThreshold,
      forwardProgressTimeoutNs: router.link.forwardProgressTimer * NS_PER_CYCLE,
      leafForwardProgressTimeoutNs: router.link.leafForwardProgressTimer * NS_PER_CYCLE,
      maxPacketLength: router.link.maxPacketLength,
      octantRatesGbps: router.link.octantRates,
    },
    raw: routerRegisters(router),
  };
}

/** Register by register, what differs between two images, per router (routers in `next` order, then removed ones). */
export function diffRegisters(previous: ConfigurationImage, next: ConfigurationImage): RouterDiff[] {
  const out: RouterDiff[] = [];
  for (const [chip, old, now] of routerPairs(previous, next)) {
    const diff = diffRouter(chip, old, now);
    if (diff) out.push(diff);
  }
  return out;
}

export function diffRouter(chip: string, old: RouterImage | undefined, now: RouterImage | undefined): RouterDiff | undefined {
  const key = (w: RegisterWrite) => `${w.register}/${w.indices.join(',')}`;
  const was = new Map((old ? routerRegisters(old) : []).map((w) => [key(w), w]));
  const changes: RegisterChange[] = [];
  for (const w of now ? routerRegisters(now) : []) {
    const prior = was.get(key(w));
    was.delete(key(w));
    if (prior && prior.value.length === w.value.length && prior.value.every((v, i) => v === w.value[i])) continue;
    const before = prior ? [...prior.value] : null;
    changes.push({ register: w.register, target: target(w), before, after: [...w.value], meaning: meaningOfChange(w.register, before, w.value) });
  }
  for (const w of was.values())
    changes.push({ register: w.register, target: target(w), before: [...w.value], after: null, meaning: meaningOfChange(w.register, w.value, null) });
  return changes.length > 0 ? { chip, changes } : undefined;
}

/** What a write's indices address, in the chip's terms. */
export function target(w: RegisterWrite): string {
  switch (w.register) {
    case 'portMap':
      return `tiles ${ranges(w.indices.map((i) => i >> 6))}, logical port ${w.indices[0] & 63}`;
    case 'routingTable':
      return `tiles ${ranges(w.indices.map((i) => i >> 3))}, entry ${w.indices[0] & 7}`;
    case 'rootDetect':
    case 'downRoute':
    case 'hashSelect':
      return `tiles ${ranges(w.indices)}`;
    case 'octantRate':
      return `octant ${w.indices[0]}`;
    case 'portDirections':
      return 'ports 0–63';
    case 'maxPacketLength':
      return 'chip';
    default:
      return `ports ${ranges(w.indices)}`;
  }
}

/** The ports whose direction (PORT_DOWNLINK …) is `direction`, ascending. */
function portsOf(directions: readonly number[], direction: number): number[] {
  return directions.flatMap((x, p) => (x === direction ? [p] : []));
}

const DIRECTION_NAMES: Record<number, string> = {
  [PORT_DOWNLINK]: 'downlink',
  [PORT_UPLINK]: 'uplink',
  [PORT_SIDELINK]: 'sidelink',
  [PORT_UNUSED]: 'unused',
};

/** The ports of a table entry's value [valid, location, mask, ports 0–31, ports 32–63]. */
function tablePorts(value: readonly number[]): number[] {
  const ports: number[] = [];
  for (let p = 0; p < 64; p++) if ((value[p < 32 ? 3 : 4] >>> (p & 31)) & 1) ports.push(p);
  return ports;
}

/** One register's value as an operator reads it (`routes show` spells them the same way). */
function decoded(register: string, value: readonly number[]): string {
  switch (register) {
    case 'routingTable': {
      if (value[0] === 0) return 'empty';
      const ports = tablePorts(value);
      return `processors ${span(value[1], value[2])} via ${ports.length === 0 ? 'no port' : `${ports.length === 1 ? 'port' : 'ports'} ${ranges(ports)}`}`;
    }
    case 'portDirections':
      return Object.entries(DIRECTION_NAMES)
        .flatMap(([d, name]) => {
          const ports = portsOf(value, Number(d));
          return ports.length === 0 ? [] : [`${name} ${ranges(ports)}`];
        })
        .join(', ');
    case 'rootDetect':
      return `processors ${span(value[0], value[1])} below`;
    case 'downRoute':
      return `logical port = (destination >> ${value[0]}) & ${value[1]}`;
    case 'portMap':
      return `physical port ${value[0]}`;
    case 'hashSelect': {
      const bits: number[] = [];
      for (let b = 0; b < 15; b++) if (value[0] & (1 << b)) bits.push(b);
      return bits.length === 0 ? 'no hash bits' : `hash bits ${ranges(bits)}`;
    }
    case 'forwardProgressTimer':
      return `${value[0] * NS_PER_CYCLE} ns`;
    case 'maxPacketLength':
      return `${value[0]} phits`;
    case 'octantRate':
      return `${value[0]} Gb/s`;
    default:
      return value.join(', ');
  }
}

/**
 * What a change of one register means (issue 4 §10: an operator reads a diff in the chip's
 * terms, not as raw words). Port directions name only the ports that changed, grouped by what
 * they went from and to; a table entry over the same processors names its ports before and after.
 */
export function meaningOfChange(register: string, before: readonly number[] | null, after: readonly number[] | null): string {
  if (before === null) return `set: ${decoded(register, after!)}`;
  if (after === null) return `no longer written (was ${decoded(register, before)})`;
  if (register === 'portDirections') {
    const moves = new Map<string, number[]>();
    after.forEach((d, p) => {
      if (d === before[p]) return;
      const move = `${DIRECTION_NAMES[before[p]] ?? before[p]} → ${DIRECTION_NAMES[d] ?? d}`;
      moves.set(move, [...(moves.get(move) ?? []), p]);
    });
    return [...moves].map(([move, ports]) => `${ports.length === 1 ? 'port' : 'ports'} ${ranges(ports)}: ${move}`).join('; ');
  }
  if (register === 'routingTable' && before[0] === 1 && after[0] === 1 && before[1] === after[1] && before[2] === after[2])
    return `processors ${span(after[1], after[2])}: ports ${ranges(tablePorts(before)) || 'none'} → ${ranges(tablePorts(after)) || 'none'}`;
  return `${decoded(register, before)} → ${decoded(register, after)}`;
}
