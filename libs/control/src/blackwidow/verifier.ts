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
import type { FaultSet } from '../faults/fault-set';
import { locationMatches } from '@weft/fabric-model/chips/yarc';
import type { ConfigurationImage, RouterImage, VirtualRouterConfig } from './blackwidow-engine';
import { isLegalModulus, PORT_DOWNLINK, PORT_SIDELINK, PORT_UPLINK, TABLE_ENTRIES } from './blackwidow-engine';
import { portGraph, usablePorts, vrLayout } from './port-graph';
import { ranges } from '../engine/ranges';
import type { CutOffProcessors } from '../engine/routing-engine';
import type { VerificationReport, Violation } from '../engine/verification';

export interface VerifierCable {
  readonly a: { chip: string; port: number };
  readonly b: { chip: string; port: number };
  readonly lanes: number;
}

export interface VerificationInput {
  readonly image: ConfigurationImage;
  /** Cables as discovered (by design names); a cable with 0 lanes is dead. */
  readonly cables: readonly VerifierCable[];
  /** Processors that should be reachable: the live ones. */
  readonly processors: readonly number[];
  readonly slices: readonly number[];
  /** Live processors known to be cut off in one slice (their R1 or its cable is gone): reported to
   * the operator, not proven reachable there. */
  readonly unreachable?: readonly CutOffProcessors[];
  /** Cable ends and routers that must not be used (declared faults). */
  readonly faults?: FaultSet;
  /** Largest number of routers a packet may cross. */
  readonly diameter: number;
  /** Prove only these destination blocks (of 32 processors); default: all. */
  readonly blocks?: readonly number[];
  /** Prove only from the sources in these slices; default: every slice. */
  readonly sourceSlices?: ReadonlySet<number>;
  /** Check table capacity and hash moduli only on these routers (the others were checked before); default: all. */
  readonly checkRouters?: ReadonlySet<string>;
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
  const routers = input.image.routers;

  // Dense virtual-router numbering; per router port: the VR it belongs to.
  const vrs: Vr[] = [];
  const routerOfVr: number[] = [];
  routers.forEach((router, ri) => {
    for (const config of router.virtualRouters) {
      vrs.push({ router, config });
      routerOfVr.push(ri);
      if (input.checkRouters && !input.checkRouters.has(router.name)) continue;
      if (config.table.length > TABLE_ENTRIES) {
        report({ kind: 'table-capacity', message: `${router.name} uses ${config.table.length} table entries; the table has ${TABLE_ENTRIES}` });
      }
      for (const entry of config.table) {
        // An entry with no ports deliberately drops what it matches (an unreachable subtree).
        if (entry.ports.length > 0 && !isLegalModulus(entry.ports.length)) {
          report({ kind: 'illegal-modulus', message: `${router.name}: an entry lists ${entry.ports.length} ports, which the hash cannot take a modulo of` });
        }
      }
    }
  });

  // Per router port, resolved once: the far end (next VR or processor) if the link is usable.
  const NONE = -1;
  const graph = portGraph(routers, input.cables);
  const usable = usablePorts(graph, input.faults);
  const farProcessor = graph.farProcessor;
  const { portVr, farVr } = vrLayout(routers, graph);
  const faultyRouter = (name: string) => input.faults?.routers.has(name) ?? false;

  // (A loop, not Math.max(...): a spread of 32K arguments overflows the stack.)
  let maxProcessor = 0;
  for (const p of input.processors) if (p > maxProcessor) maxProcessor = p;
  const blocks = (maxProcessor >> 5) + 1;
  // The destination blocks to prove (all of them unless the caller narrows it), densely numbered.
  const slotOf = new Int32Array(blocks).fill(-1);
  const proven = input.blocks ? input.blocks.filter((b) => b >= 0 && b < blocks) : Array.from({ length: blocks }, (_, b) => b);
  proven.forEach((b, i) => (slotOf[b] = i));
  const nb = proven.length;
  // memo: 0 unknown, 1 in progress, 2 ok, 3 failed; the most routers crossed alongside.
  const memo = new Uint8Array(vrs.length * nb * 2);
  const hops = new Uint8Array(vrs.length * nb * 2);
  const vrRouter = Int32Array.from(routerOfVr);
  let states = 0;
  // Live destinations per slice.
  const sliceCount = Math.max(0, ...input.slices) + 1;
  const span = maxProcessor + 1;
  const liveMask = new Uint8Array(sliceCount * span);
  for (let s = 0; s < sliceCount; s++) for (const p of input.processors) liveMask[s * span + p] = 1;
  for (const { slice, processors } of input.unreachable ?? [])
    for (const p of processors) if (slice < sliceCount && p <= maxProcessor) liveMask[slice * span + p] = 0;
  const vrSlice = Int32Array.from(vrs.map((v) => v.router.slice));

  const decide = (v: number, block: number, phase: number): boolean => {
    const key = (v * nb + slotOf[block]) * 2 + phase;
    const m = memo[key];
    if (m === 2) return true;
    if (m === 3) return false;
    if (m === 1) {
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
    const ri = vrRouter[v];
    const [location, mask] = config.rootDetect;
    const base = block * 32;
    if (locationMatches(base, location, mask)) {
      // §5.2 down route. At an R1 the logical port is the processor itself: check each one.
      const [shift, dmask] = config.downRoute;
      let worst = 0;
      const first = shift === 0 ? base : base;
      const last = shift === 0 ? Math.min(base + 31, maxProcessor) : base;
      for (let dest = first; dest <= last; dest++) {
        if (shift === 0 && !liveMask[vrSlice[v] * span + dest]) continue;
        const physical = config.portMap[(dest >>> shift) & dmask];
        if (physical === undefined || physical < 0 || router.portDirection[physical] !== PORT_DOWNLINK) {
          report({ kind: 'bad-down-route', message: `${router.name}: the down route for processor ${dest} leads to no downlink` });
          return false;
        }
        const k = ri * 64 + physical;
        if (!usable[k]) {
          report({ kind: 'uses-fault', message: `${router.name}:${physical} (down towards ${dest}) is dead or faulty` });
          return false;
        }
        if (shift === 0) {
          if (farProcessor[k] !== dest) {
            report({ kind: 'unreachable', message: `${router.name}:${physical} should lead to p${dest} but does not` });
            return false;
          }
          if (worst < 1) worst = 1;
          continue;
        }
        const next = farVr[k];
        if (next === NONE) {
          report({ kind: 'unreachable', message: `${router.name}:${physical} leads to no configured router` });
          return false;
        }
        if (!decide(next, block, DESCENDING)) return false;
        const h = 1 + hops[(next * nb + slotOf[block]) * 2 + DESCENDING];
        if (h > worst) worst = h;
      }
      hops[key] = worst;
      return true;
    }
    if (phase === DESCENDING) {
      report({ kind: 'up-after-down', message: `${router.name} would send processors ${base}–${base + 31} up again after they came down (§7.7)` });
      return false;
    }
    // §5.1: the highest-index matching entry gives the ports; every one of them must work.
    const table = config.table;
    let entry = -1;
    for (let e = table.length - 1; e >= 0; e--) {
      if (locationMatches(base, table[e].location, table[e].mask)) {
        entry = e;
        break;
      }
    }
    if (entry < 0) {
      report({ kind: 'unreachable', message: `${router.name} has no table entry for processors ${base}–${base + 31}` });
      return false;
    }
    const ports = table[entry].ports;
    if (ports.length === 0) {
      report({ kind: 'unreachable', message: `${router.name} has no way to processors ${base}–${base + 31} (its entry lists no port)` });
      return false;
    }
    const set = entrySet(v, entry);
    if (set < 0) return false;
    if (!decideSet(set, block, router.name)) return false;
    hops[key] = setHops[set][slotOf[block]];
    return true;
  };

  // An entry's ports are checked once (they do not depend on the destination), and what they lead
  // to — the set of (next virtual router, phase) — is interned: the R1s under the same R2s share
  // their uplink sets, so each set is decided once per block instead of once per R1 and block.
  const entrySets = new Map<number, number>(); // v * 8 + entry → set id (-1: the entry is broken)
  /** Sets by a hash of their members (ids of the sets with that hash): a 32K proof meets tens of
   * thousands of entries, and joining each one's members into a string key showed in its profile. */
  const setIndex = new Map<number, number[]>();
  const setMembers: Int32Array[] = [];
  const setMemo: Uint8Array[] = [];
  const setHops: Uint8Array[] = [];
  const entrySet = (v: number, entry: number): number => {
    const cached = entrySets.get(v * TABLE_ENTRIES + entry);
    if (cached !== undefined) return cached;
    const { router, config } = vrs[v];
    const ri = vrRouter[v];
    const ports = config.table[entry].ports;
    const members: number[] = [];
    let broken = false;
    for (let i = 0; i < ports.length && !broken; i++) {
      const port = ports[i];
      const direction = router.portDirection[port];
      const k = ri * 64 + port;
      const { location, mask } = config.table[entry];
      if (!usable[k]) {
        report({ kind: 'uses-fault', message: `${router.name}:${port} is dead or faulty but routes processors ${location}–${location + mask}` });
        broken = true;
      } else if (direction !== PORT_UPLINK && direction !== PORT_SIDELINK) {
        report({ kind: 'up-after-down', message: `${router.name}:${port} is not an uplink or sidelink but carries traffic up` });
        broken = true;
      } else if (farVr[k] === NONE) {
        report({ kind: 'unreachable', message: `${router.name}:${port} leads to no configured router` });
        broken = true;
      } else {
        // Across a sidelink the packet has reached its common ancestor level: it must go down.
        members.push(farVr[k] * 2 + (direction === PORT_SIDELINK ? DESCENDING : ASCENDING));
      }
    }
    let id = -1;
    if (!broken) {
      members.sort((x, y) => x - y);
      let hash = 0x811c9dc5;
      for (const m of members) hash = Math.imul(hash ^ m, 0x01000193);
      const bucket = setIndex.get(hash) ?? [];
      id = bucket.find((candidate) => sameMembers(setMembers[candidate], members)) ?? -1;
      if (id < 0) {
        id = setMembers.length;
        bucket.push(id);
        setIndex.set(hash, bucket);
        setMembers.push(Int32Array.from(members));
        setMemo.push(new Uint8Array(nb));
        setHops.push(new Uint8Array(nb));
      }
    }
    entrySets.set(v * TABLE_ENTRIES + entry, id);
    return id;
  };

  /** Every member of the set must deliver the block (memo: 0 unknown, 1 in progress, 2 ok, 3 failed). */
  const decideSet = (set: number, block: number, via: string): boolean => {
    const memo = setMemo[set];
    const at = slotOf[block];
    const m = memo[at];
    if (m === 2) return true;
    if (m === 3) return false;
    if (m === 1) {
      report({ kind: 'up-after-down', message: `routing loop through ${via} towards processors ${block * 32}–${block * 32 + 31}` });
      memo[at] = 3;
      return false;
    }
    memo[at] = 1;
    states++;
    const members = setMembers[set];
    let worst = 0;
    let ok = true;
    for (let i = 0; i < members.length; i++) {
      const next = members[i] >> 1;
      const phase = members[i] & 1;
      if (!decide(next, block, phase)) {
        ok = false;
        break;
      }
      const h = 1 + hops[(next * nb + slotOf[block]) * 2 + phase];
      if (h > worst) worst = h;
    }
    memo[at] = ok ? 2 : 3;
    setHops[set][at] = worst;
    return ok;
  };

  let pairsProven = 0;
  let maxHops = 0;
  const liveBlocks: number[][] = [];
  for (let s = 0; s < sliceCount; s++) {
    const list = new Set<number>();
    for (const p of input.processors) if (liveMask[s * span + p] && slotOf[p >> 5] >= 0) list.add(p >> 5);
    liveBlocks.push([...list].sort((a, b) => a - b));
  }
  // Per live endpoint (slice × processor): 1 once a configured R1 takes its packets, 2 once that
  // R1 is proven to deliver them everywhere. No live endpoint may stay 0 unnoticed.
  const sourced = new Uint8Array(sliceCount * span);
  routers.forEach((router, ri) => {
    if (router.rank !== 1 || faultyRouter(router.name)) return;
    const slice = router.slice;
    if (input.sourceSlices && !input.sourceSlices.has(slice)) return;
    for (const config of router.virtualRouters) {
      // Sources: the live processors cabled to this R1.
      let sources = 0;
      for (const t of config.tiles) {
        const p = farProcessor[ri * 64 + t];
        if (usable[ri * 64 + t] && p >= 0 && liveMask[slice * span + p]) {
          sourced[slice * span + p] = 1;
          sources++;
        }
      }
      if (sources === 0) continue;
      const v = portVr[ri * 64 + config.tiles[0]];
      let delivers = true;
      for (const block of liveBlocks[slice] ?? []) {
        if (!decide(v, block, ASCENDING)) {
          report({ kind: 'unreachable', message: `processors under ${router.name} cannot reach processors ${block * 32}–${block * 32 + 31}` });
          delivers = false;
          continue;
        }
        pairsProven++;
        const h = hops[(v * nb + slotOf[block]) * 2 + ASCENDING];
        if (h > maxHops) maxHops = h;
        if (h > input.diameter)
          report({
            kind: 'too-many-hops',
            message: `${router.name} → processors ${block * 32}–${block * 32 + 31} crosses ${h} routers; the diameter is ${input.diameter}`,
          });
      }
      if (!delivers) continue;
      for (const t of config.tiles) {
        const p = farProcessor[ri * 64 + t];
        if (usable[ri * 64 + t] && p >= 0 && liveMask[slice * span + p]) sourced[slice * span + p] = 2;
      }
    }
  });
  const endpointsProven = reportLeftOut(input, sourced, liveMask, span, report);
  return { ok: violations.length === 0, violations, states, pairsProven, endpointsProven, maxHops };
}

/**
 * The proof walks from the configured R1s, so a live processor whose R1 the image does not
 * configure would be left out without a word (and an image that configures no router at all would
 * prove nothing and pass): every live endpoint the walk did not start from is named here, by its
 * router. Returns how many live endpoints were proven.
 */
function reportLeftOut(input: VerificationInput, sourced: Uint8Array, liveMask: Uint8Array, span: number, report: (v: Violation) => void): number {
  let proven = 0;
  let routerOf: Map<string, string> | undefined;
  for (const slice of input.slices) {
    if (input.sourceSlices && !input.sourceSlices.has(slice)) continue;
    const leftOut = new Map<string, number[]>();
    for (const p of input.processors) {
      const at = slice * span + p;
      if (!liveMask[at]) continue;
      if (sourced[at] === 2) proven++;
      if (sourced[at] !== 0) continue;
      // The router a processor is cabled to in this slice, as discovered (looked up only here).
      routerOf ??= processorRouters(input.cables);
      const router = routerOf.get(`${slice}:${p}`) ?? 'no router';
      const list = leftOut.get(router) ?? [];
      list.push(p);
      leftOut.set(router, list);
    }
    for (const [router, list] of leftOut) {
      report({
        kind: 'endpoint-left-out',
        message:
          router === 'no router'
            ? `processors ${ranges(list)} in slice ${slice} are live but left out of the proof: no router of this slice is cabled to them`
            : `processors ${ranges(list)} in slice ${slice} are live but left out of the proof: ${router}, their router, is not configured by this image`,
      });
    }
  }
  return proven;
}

/** `slice:processor` → the name of the router of that slice the processor is cabled to. */
function processorRouters(cables: readonly VerifierCable[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of cables) {
    for (const [end, far] of [
      [c.a, c.b],
      [c.b, c.a],
    ]) {
      const processor = /^p(\d+)$/.exec(end.chip);
      const slice = /^s(\d+)\./.exec(far.chip);
      if (processor && slice) out.set(`${slice[1]}:${processor[1]}`, far.chip);
    }
  }
  return out;
}

function sameMembers(set: Int32Array, members: readonly number[]): boolean {
  if (set.length !== members.length) return false;
  for (let i = 0; i < set.length; i++) if (set[i] !== members[i]) return false;
  return true;
}
