/**
 * The verifier: reads a configuration image as the YARC would interpret its registers (paper 000
 * §5) over the cables as discovered, and proves — before anything is pushed — that every live
 * source reaches every live destination in every slice, over live links only, never turning up
 * after going down (§7.7), within the topology's diameter, with table capacities and hash moduli
 * the hardware supports.
 *
 * It does not walk source–destination pairs: a packet's fate at a virtual router depends only on
 * the destination's R1 subtree (a block of 32 processors) and on whether it is still climbing, so
 * it decides each (virtual router, subtree block, phase) once and memoises it; the last hop checks
 * each processor of the block. That keeps the 32K fabric to a few million states.
 */
import type { ConfigurationImage, RouterImage, VirtualRouterConfig } from './blackwidow-engine';
import { LEGAL_MODULI, PORT_DOWNLINK, PORT_SIDELINK, PORT_UPLINK, TABLE_ENTRIES } from './blackwidow-engine';

export interface VerifierCable {
  readonly a: { chip: string; port: number };
  readonly b: { chip: string; port: number };
  readonly lanes: number;
}

export interface VerificationInput {
  readonly image: ConfigurationImage;
  /** Cables as discovered (by design names); a cable with 0 lanes is dead. */
  readonly cables: readonly VerifierCable[];
  /** Processors that should be reachable, per slice: the live ones. */
  readonly processors: readonly number[];
  readonly slices: readonly number[];
  /** Cable ends that must not be used (declared faults), as `chip:port`. */
  readonly faultyPorts?: ReadonlySet<string>;
  /** Routers that must not be used (declared faults). */
  readonly faultyRouters?: ReadonlySet<string>;
  /** Largest number of routers a packet may cross. */
  readonly diameter: number;
}

export interface Violation {
  readonly kind: 'unreachable' | 'uses-fault' | 'up-after-down' | 'too-many-hops' | 'table-capacity' | 'illegal-modulus' | 'bad-down-route';
  readonly message: string;
}

export interface VerificationReport {
  readonly ok: boolean;
  readonly violations: Violation[];
  /** How many (virtual router, block, phase) states were decided. */
  readonly states: number;
  /** (source R1, destination block) pairs proven, over all slices. */
  readonly pairsProven: number;
  readonly maxHops: number;
}

const ASCENDING = 0;
const DESCENDING = 1;
const MAX_REPORTED = 50;

interface Vr {
  readonly router: RouterImage;
  readonly config: VirtualRouterConfig;
}

export function verifyConfiguration(input: VerificationInput): VerificationReport {
  const violations: Violation[] = [];
  const report = (v: Violation) => {
    if (violations.length < MAX_REPORTED) violations.push(v);
  };
  const routers = new Map(input.image.routers.map((r) => [r.name, r]));
  const peer = new Map<string, { chip: string; port: number; lanes: number }>();
  for (const c of input.cables) {
    peer.set(`${c.a.chip}:${c.a.port}`, { ...c.b, lanes: c.lanes });
    peer.set(`${c.b.chip}:${c.b.port}`, { ...c.a, lanes: c.lanes });
  }
  const processorOf = (chip: string) => (/^p(\d+)$/.exec(chip) ? Number(chip.slice(1)) : -1);

  // Dense numbering of virtual routers; the VR of a port is the one whose tiles include it.
  const vrs: Vr[] = [];
  const vrOfPort = new Map<string, number>();
  for (const router of input.image.routers) {
    for (const config of router.virtualRouters) {
      for (const t of config.tiles) vrOfPort.set(`${router.name}:${t}`, vrs.length);
      vrs.push({ router, config });
      if (config.table.length > TABLE_ENTRIES) {
        report({ kind: 'table-capacity', message: `${router.name} uses ${config.table.length} table entries; the table has ${TABLE_ENTRIES}` });
      }
      for (const entry of config.table) {
        if (!LEGAL_MODULI.has(entry.ports.length)) {
          report({ kind: 'illegal-modulus', message: `${router.name}: an entry lists ${entry.ports.length} ports, which the hash cannot take a modulo of` });
        }
      }
    }
  }

  const maxProcessor = Math.max(0, ...input.processors);
  const blocks = (maxProcessor >> 5) + 1;
  // memo: 0 unknown, 1 in progress, 2 ok, 3 failed; hops stored alongside.
  const memo = new Uint8Array(vrs.length * blocks * 2);
  const hops = new Uint8Array(vrs.length * blocks * 2);
  let states = 0;
  const live = new Set(input.processors);
  const liveInBlock = (block: number) => {
    const out: number[] = [];
    for (let p = block * 32; p < block * 32 + 32; p++) if (live.has(p)) out.push(p);
    return out;
  };

  const usable = (router: string, port: number): { chip: string; port: number } | null => {
    if (input.faultyRouters?.has(router) || input.faultyPorts?.has(`${router}:${port}`)) return null;
    const far = peer.get(`${router}:${port}`);
    if (!far || far.lanes === 0) return null;
    if (input.faultyPorts?.has(`${far.chip}:${far.port}`) || input.faultyRouters?.has(far.chip)) return null;
    return far;
  };

  /** Can a packet at virtual router `v`, in `phase`, reach every live processor of `block`? */
  const decide = (v: number, block: number, phase: number): boolean => {
    const key = (v * blocks + block) * 2 + phase;
    if (memo[key] === 2) return true;
    if (memo[key] === 3) return false;
    if (memo[key] === 1) {
      report({ kind: 'up-after-down', message: `routing loop through ${vrs[v].router.name} towards processors ${block * 32}–${block * 32 + 31}` });
      memo[key] = 3;
      return false;
    }
    memo[key] = 1;
    states++;
    const ok = evaluate(v, block, phase, key);
    memo[key] = ok ? 2 : 3;
    return ok;
  };

  const evaluate = (v: number, block: number, phase: number, key: number): boolean => {
    const { router, config } = vrs[v];
    const [location, mask] = config.rootDetect;
    const base = block * 32;
    const inSubtree = ((base ^ location) & ~mask & 0x7fff) === 0;
    if (inSubtree) {
      // §5.2 down route. At an R1 the logical port is the processor itself: check each one.
      const [shift, dmask] = config.downRoute;
      const targets = shift === 0 ? liveInBlock(block) : [base];
      let worst = 0;
      for (const dest of targets) {
        const physical = config.portMap[(dest >>> shift) & dmask];
        if (physical === undefined || physical < 0 || router.portDirection[physical] !== PORT_DOWNLINK) {
          report({ kind: 'bad-down-route', message: `${router.name}: the down route for processor ${dest} leads to no downlink` });
          return false;
        }
        const far = usable(router.name, physical);
        if (!far) {
          report({ kind: 'uses-fault', message: `${router.name}:${physical} (down towards ${dest}) is dead or faulty` });
          return false;
        }
        if (shift === 0) {
          if (processorOf(far.chip) !== dest) {
            report({ kind: 'unreachable', message: `${router.name}:${physical} should lead to p${dest} but leads to ${far.chip}` });
            return false;
          }
          worst = Math.max(worst, 1);
          continue;
        }
        const next = vrOfPort.get(`${far.chip}:${far.port}`);
        if (next === undefined || !decide(next, block, DESCENDING)) {
          if (next === undefined) report({ kind: 'unreachable', message: `${router.name}:${physical} leads to ${far.chip}, which is not configured` });
          return false;
        }
        worst = Math.max(worst, 1 + hops[(next * blocks + block) * 2 + DESCENDING]);
      }
      hops[key] = worst;
      return true;
    }
    if (phase === DESCENDING) {
      report({ kind: 'up-after-down', message: `${router.name} would send processors ${base}–${base + 31} up again after they came down (§7.7)` });
      return false;
    }
    // §5.1: the highest-index matching entry gives the ports; every one of them must work.
    let entry = -1;
    for (let e = config.table.length - 1; e >= 0; e--) {
      const t = config.table[e];
      if (((base ^ t.location) & ~t.mask & 0x7fff) === 0) {
        entry = e;
        break;
      }
    }
    if (entry < 0) {
      report({ kind: 'unreachable', message: `${router.name} has no table entry for processors ${base}–${base + 31}` });
      return false;
    }
    let worst = 0;
    for (const port of config.table[entry].ports) {
      const direction = router.portDirection[port];
      const far = usable(router.name, port);
      if (!far) {
        report({ kind: 'uses-fault', message: `${router.name}:${port} is dead or faulty but routes processors ${base}–${base + 31}` });
        return false;
      }
      if (direction !== PORT_UPLINK && direction !== PORT_SIDELINK) {
        report({ kind: 'up-after-down', message: `${router.name}:${port} is not an uplink or sidelink but carries traffic up` });
        return false;
      }
      const next = vrOfPort.get(`${far.chip}:${far.port}`);
      if (next === undefined) {
        report({ kind: 'unreachable', message: `${router.name}:${port} leads to ${far.chip}, which is not configured` });
        return false;
      }
      // Across a sidelink the packet has reached its common ancestor level: it must go down.
      if (!decide(next, block, direction === PORT_SIDELINK ? DESCENDING : ASCENDING)) return false;
      worst = Math.max(worst, 1 + hops[(next * blocks + block) * 2 + (direction === PORT_SIDELINK ? DESCENDING : ASCENDING)]);
    }
    hops[key] = worst;
    return true;
  };

  let pairsProven = 0;
  let maxHops = 0;
  const liveBlocks = [...new Set(input.processors.map((p) => p >> 5))].sort((a, b) => a - b);
  for (const router of input.image.routers) {
    if (router.rank !== 1 || input.faultyRouters?.has(router.name)) continue;
    for (const config of router.virtualRouters) {
      // Sources: the live processors cabled to this R1.
      const sources = config.tiles.filter((t) => {
        const far = usable(router.name, t);
        return far !== null && live.has(processorOf(far.chip));
      });
      if (sources.length === 0) continue;
      const v = vrOfPort.get(`${router.name}:${config.tiles[0]}`)!;
      for (const block of liveBlocks) {
        if (!decide(v, block, ASCENDING)) {
          report({ kind: 'unreachable', message: `processors under ${router.name} cannot reach processors ${block * 32}–${block * 32 + 31}` });
          continue;
        }
        pairsProven++;
        const h = hops[(v * blocks + block) * 2 + ASCENDING];
        maxHops = Math.max(maxHops, h);
        if (h > input.diameter) report({ kind: 'too-many-hops', message: `${router.name} → processors ${block * 32}–${block * 32 + 31} crosses ${h} routers; the diameter is ${input.diameter}` });
      }
    }
  }
  return { ok: violations.length === 0, violations, states, pairsProven, maxHops };
}
