/**
 * Reconfiguration after a fault, touching only what the fault touches (issue 4 §9: "recomputes
 * incrementally, only the affected routers"). OpenSM answers a trap by re-sweeping and
 * recomputing the whole subnet; here a cable that dies or comes back changes:
 *
 * - the registers of the two routers at its ends (recomputed from their live neighbours; if that
 *   would change the processors below one of their virtual routers, everything is recomputed);
 * - the fault entries of the routers that climb towards a block below the cable (the fault-entry
 *   compiler looks only at blocks with a broken way down, so its cost follows the fault);
 * - and the proof. The previous configuration was proven. For every destination block where each
 *   changed router's new choice of ports is a subset of its old choice (all still usable) and its
 *   down route is unchanged, every path the new registers allow is one the old registers allowed:
 *   it still arrives, never turns up after going down, and crosses no more routers than before.
 *   Only the other blocks are proven again, from every source, by the verifier itself.
 *
 * A router of rank 2 or more that dies is the cables it takes down: its neighbours are recomputed
 * without it, and it is left out of the image written; when it comes back it is recomputed with
 * them, and its slice proven again. Anything else — an R1 or a processor's link (who is reachable
 * changes), a router that died on the full path, a first configuration — takes the full path.
 * Either path keeps the proof of a configuration it has proven before (ProvenConfigurations).
 */
import { locationMatches } from '@weft/fabric-model/chips/yarc';
import { indexKnownFabric, KnownFabric, CableEnd, endKey } from '../discovery/known-fabric';
import { maintenanceRoutes } from '../discovery/maintenance-routes';
import {
  ConfigurationImage,
  DEFAULT_LINK_SETTINGS,
  LinkSettingsPolicy,
  Neighbour,
  routerImage,
  RouterImage,
  subtreeBelow,
  TableEntry,
} from './blackwidow-engine';
import { BLACKWIDOW_DIAMETER, BlackWidowConfiguration, ConfigurationStages, computeStages, FaultSet, ProofBasis, proveImage } from './configure-blackwidow';
import { applyFaultEntries } from './fault-entries';
import { diffImages } from './push-image';
import { verifyConfiguration } from './verifier';
import { VerificationReport } from '../engine/verification';

export interface Reconfiguration extends BlackWidowConfiguration {
  /** Routers whose registers differ from the previous configuration. */
  readonly changedRouters: readonly string[];
  /** Whether only the affected routers were recomputed and re-proven. */
  readonly incremental: boolean;
}

interface State extends ConfigurationStages {
  readonly faults: FaultSet;
  /** What a full proof of a configuration of this fabric is checked against. */
  readonly proofBasis: ProofBasis;
  /** Processors below each virtual router of the healthy image, by `${chip}/${virtual router}`. */
  readonly subtrees: Map<string, readonly [number, number]>;
  /** For each chip, the routers whose maintenance route leaves through it (built when first needed). */
  readonly through?: Map<string, Set<number>>;
  /** Proofs of recent configurations (see ProvenConfigurations). */
  readonly proven: ProvenConfigurations;
  /**
   * The image with maintenance routes, router for router in the order of `healthy` and `routed`:
   * a router that died since the last full configuration is still there, emptied, so that the
   * incremental path can go on comparing by position; `result.image` leaves it out.
   */
  readonly aligned: ConfigurationImage;
}

/**
 * A configuration the engine computed, not yet proven (issue 35: the driver has it verified before
 * any push; the engine does not prove its own work on the way). `adopt` makes it the one the next
 * computation starts from.
 */
export interface ComputedConfiguration {
  readonly faults: FaultSet;
  /** Only the affected routers were recomputed (and are re-proven), or all of them. */
  readonly incremental: boolean;
  /** The image to write: every configured router with its registers and maintenance route. */
  readonly image: ConfigurationImage;
  readonly changedRouters: readonly string[];
  /** @internal the state it becomes once adopted, but for its proof. */
  readonly next: Omit<State, 'result'> & { readonly result: Omit<BlackWidowConfiguration, 'verification'> };
  /** @internal the proof from the previous one, where the change allows it (null: prove in full). */
  readonly proveChange: (() => VerificationReport | null) | null;
}

/**
 * The last few proven configurations, by fault set. The verdict depends only on the registers,
 * the cabling and the faults, so a configuration that comes back — a cable replaced after a cut,
 * a router back in service — keeps the proof it had instead of being proven again from every
 * source (which, as every port that returns widens some router's choice, is most of the fabric).
 */
class ProvenConfigurations {
  private static readonly KEEP = 8;
  private readonly byFaults = new Map<string, { routers: readonly RouterImage[]; verification: VerificationReport }>();

  /** The proof of `routers` under `faults`, if they are a configuration proven before. */
  find(faults: FaultSet, routers: readonly RouterImage[]): VerificationReport | null {
    const proven = this.byFaults.get(faultKey(faults));
    if (!proven || proven.routers.length !== routers.length) return null;
    for (let i = 0; i < routers.length; i++) if (!sameRegisters(proven.routers[i], routers[i])) return null;
    return proven.verification;
  }

  remember(faults: FaultSet, routers: readonly RouterImage[], verification: VerificationReport): void {
    if (!verification.ok) return;
    const key = faultKey(faults);
    this.byFaults.delete(key);
    this.byFaults.set(key, { routers, verification });
    if (this.byFaults.size > ProvenConfigurations.KEEP) this.byFaults.delete(this.byFaults.keys().next().value!);
  }
}

const faultKey = (faults: FaultSet) => faults.key;

export class BlackWidowConfigurator {
  private state: State | null = null;

  constructor(
    readonly known: KnownFabric,
    private readonly settings: LinkSettingsPolicy = DEFAULT_LINK_SETTINGS,
  ) {}

  /** Computes, proves and adopts in one (tests, benchmarks): the service's driver calls the three apart. */
  configure(faults: FaultSet): Reconfiguration {
    const computed = this.compute(faults);
    return this.adopt(computed, this.verify(computed));
  }

  /**
   * The configuration around `faults`: from the last one adopted, recomputing only the routers the
   * change touches where it can (a router that dies is routed around like the cables it takes
   * down, and one that comes back is recomputed with its neighbours), else from scratch.
   */
  compute(faults: FaultSet, options: { full?: boolean } = {}): ComputedConfiguration {
    const last = this.state;
    if (last && last.result.verification.ok && !options.full) {
      const next = this.reconfigure(last, faults);
      if (next) return next;
    }
    const stages = computeStages(this.known, faults, this.settings);
    return {
      faults,
      incremental: false,
      image: stages.result.image,
      changedRouters: diffImages(last?.result.image ?? null, stages.result.image).changed,
      next: {
        ...stages,
        faults,
        subtrees: subtreesOf(this.known, stages.healthy),
        through: routesThrough(this.known, stages.result.image.routers),
        proven: last?.proven ?? new ProvenConfigurations(),
        aligned: stages.result.image,
      },
      proveChange: null,
    };
  }

  /**
   * The proof of a computed configuration: one held for the same registers under the same faults
   * (a configuration that comes back), else from the previous proof where the change allows it,
   * else every path from every source (paper 000 §7.7).
   */
  verify(computed: ComputedConfiguration): VerificationReport {
    const { next } = computed;
    return next.proven.find(computed.faults, next.routed.routers) ?? computed.proveChange?.() ?? proveImage(next.proofBasis, computed.image, computed.faults);
  }

  /** Makes a computed configuration, with its verdict, the one the next computation starts from. */
  adopt(computed: ComputedConfiguration, verification: VerificationReport): Reconfiguration {
    const { next } = computed;
    next.proven.remember(computed.faults, next.routed.routers, verification);
    const result: BlackWidowConfiguration = { ...next.result, verification };
    this.state = { ...next, result };
    return { ...result, changedRouters: computed.changedRouters, incremental: computed.incremental };
  }

  private reconfigure(last: State, faults: FaultSet): ComputedConfiguration | null {
    const known = this.known;
    const index = indexKnownFabric(known);
    const added = faults.portsNotIn(last.faults);
    const removed = last.faults.portsNotIn(faults);
    if (added.length + removed.length === 0 && faults.routers.size === last.faults.routers.size) {
      const { result, ...rest } = last;
      return { faults, incremental: true, image: result.image, changedRouters: [], next: { ...rest, faults, result }, proveChange: () => result.verification };
    }

    // The routers at both ends of every cable that changed state. A router that has just died
    // (rank 2 and up: an R1's processors lose their way in, which the full path handles) keeps its
    // place, emptied, and is not written; its neighbours are recomputed without it.
    const position = new Map(last.healthy.routers.map((r, i) => [r.name, i]));
    const dying = new Set([...faults.routers].filter((name) => !last.faults.routers.has(name)));
    for (const name of dying) if (!position.has(name)) return null;
    // A router back in service is recomputed like any router at a cable that came back — if it
    // died on this path and so still has its place (the full path leaves a dead router out).
    const reviving = new Set([...last.faults.routers].filter((name) => !faults.routers.has(name)));
    for (const name of reviving) if (!position.has(name)) return null;
    const touched = new Set<string>();
    for (const end of [...added, ...removed]) {
      const ends = [end.chip, index.peer.get(endKey(end))?.chip];
      for (const name of ends) {
        if (name === undefined) continue;
        const spec = index.chips.get(name);
        if (spec?.kind === 'endpoint') return null; // who is reachable changes: the full path says so
        if (spec?.kind !== 'router' || faults.routers.has(name)) continue;
        if (!position.has(name)) return null;
        touched.add(name);
      }
    }

    // Their registers from their live neighbours. When the processors below one of their virtual
    // routers change (a cut at the edge of a subtree narrows its range), the routers above it and
    // its sidelink peers are recomputed too, rank by rank, until nothing moves.
    const neighbours = (name: string) => {
      const chip = index.chips.get(name)!;
      const list: (Neighbour | undefined)[] = new Array<Neighbour | undefined>(chip.portCount);
      for (let p = 0; p < chip.portCount; p++) {
        const here = { chip: name, port: p };
        const far = index.peer.get(endKey(here));
        if (!far || !usableEnd(here, faults) || !usableEnd(far, faults)) continue;
        const spec = index.chips.get(far.chip);
        if (spec) list[p] = { chip: spec, port: far.port };
      }
      return list;
    };
    const subtrees = new Map(last.subtrees);
    const recompute = new Set<string>(touched);
    const byRank = new Map<number, Set<string>>();
    const enqueue = (name: string) => {
      const rank = index.chips.get(name)!.rank;
      const set = byRank.get(rank) ?? new Set<string>();
      set.add(name);
      byRank.set(rank, set);
    };
    for (const name of touched) enqueue(name);
    for (let rank = 1; rank <= 4; rank++) {
      for (const name of byRank.get(rank) ?? []) {
        const chip = index.chips.get(name)!;
        const list = neighbours(name);
        for (const vr of new Set(chip.virtualRouterOf)) {
          const key = `${name}/${vr}`;
          const before = subtrees.get(key);
          const now = subtreeBelow(chip, vr, list, subtrees);
          if ((before === undefined) !== (now === null)) return null; // a virtual router appears or vanishes
          if (!before || !now || (before[0] === now[0] && before[1] === now[1])) continue;
          subtrees.set(key, now);
          for (let p = 0; p < chip.portCount; p++) {
            const n = list[p];
            if (chip.virtualRouterOf[p] !== vr || !n || n.chip.kind !== 'router' || n.chip.rank < rank) continue;
            recompute.add(n.chip.name);
            if (n.chip.rank > rank) enqueue(n.chip.name);
          }
        }
      }
    }
    const about = (p: string, name: string) => p.startsWith(`${name}:`) || p.startsWith(`${name} `);
    const problems = last.healthy.problems.filter((p) => ![...recompute, ...dying].some((name) => about(p, name)));
    const replaced = new Map<string, RouterImage>();
    for (const name of recompute) {
      const at = position.get(name);
      if (at === undefined) return null;
      const old = last.healthy.routers[at];
      replaced.set(
        name,
        routerImage(index.chips.get(name)!, neighbours(name), subtrees, problems, { serial: old.serial, route: old.route, slice: old.slice, link: old.link }),
      );
    }
    const healthy: ConfigurationImage = {
      ...last.healthy,
      routers: last.healthy.routers.map((r) => replaced.get(r.name) ?? (dying.has(r.name) ? { ...r, virtualRouters: [] } : r)),
      problems,
    };
    const routed = applyFaultEntries(healthy, known.matched.cables, last.blocks, faults);

    // What changed: routers recomputed or refined (the same object means the same registers).
    const changed: number[] = [];
    for (let i = 0; i < routed.routers.length; i++) {
      const before = last.routed.routers[i];
      const now = routed.routers[i];
      if (before === now || faults.routers.has(now.name)) continue;
      if (!sameRegisters(before, now)) changed.push(i);
    }
    const changedNames = changed.map((i) => routed.routers[i].name);
    // Maintenance routes: a router whose route crosses a cable that just died gets a new one; every
    // router must stay reachable (the full path leaves out one that is not, and says so).
    if (last.aligned.routers.length !== routed.routers.length) return null;
    // The ends that just died, both ends of each cable.
    const deadEnds: CableEnd[] = [...added];
    for (const end of added) {
      const far = index.peer.get(endKey(end));
      if (far) deadEnds.push(far);
    }
    const dead = new Set(deadEnds.map(endKey));
    const previous = last.aligned.routers;
    const through = last.through ?? routesThrough(known, previous);
    const candidates = new Set<number>();
    for (const end of deadEnds) for (const i of through.get(end.chip) ?? []) candidates.add(i);
    // Whether a route from the controller takes a cable `bad` says no to (or one not there).
    const crosses = (route: readonly number[], bad: (here: CableEnd, far: CableEnd) => boolean) => {
      let at = known.attachment;
      for (const port of route) {
        const here = { chip: at, port };
        const far = index.peer.get(endKey(here));
        if (!far || bad(here, far)) return true;
        at = far.chip;
      }
      return false;
    };
    const reroute = [
      ...[...candidates]
        .filter((i) => !faults.routers.has(previous[i].name) && crosses(previous[i].route, (here) => dead.has(endKey(here))))
        .map((i) => previous[i].name),
      // A router coming back kept the route it had when it died; faults since may cross it.
      ...[...reviving].filter((name) => crosses(previous[position.get(name)!].route, (here, far) => !usableEnd(here, faults) || !usableEnd(far, faults))),
    ];
    const rerouted = maintenanceRoutes(known, faults, reroute);
    if (rerouted.size !== reroute.length) return null;
    // Routers whose registers and route are unchanged keep their image objects.
    const image: ConfigurationImage = {
      ...routed,
      routers: routed.routers.map((r, i) => {
        const route = rerouted.get(r.name);
        if (!route && r === last.routed.routers[i]) return previous[i];
        return { ...r, route: route ?? previous[i].route };
      }),
    };
    for (const [name, route] of rerouted) {
      const i = position.get(name)!;
      forEachHop(known, previous[i].route, (chip) => through.get(chip)?.delete(i));
      forEachHop(known, route, (chip) => {
        const set = through.get(chip) ?? new Set<number>();
        set.add(i);
        through.set(chip, set);
      });
    }

    const written = faults.routers.size === 0 ? image : { ...image, routers: image.routers.filter((r) => !faults.routers.has(r.name)) };
    return {
      faults,
      incremental: true,
      image: written,
      changedRouters: changedNames,
      next: {
        healthy,
        routed,
        blocks: last.blocks,
        proofBasis: last.proofBasis,
        result: { image: written, processors: last.result.processors, unreachable: last.result.unreachable },
        faults,
        subtrees,
        through,
        proven: last.proven,
        aligned: image,
      },
      proveChange: () => this.verifyChange(last, routed, changed, faults, added),
    };
  }

  /**
   * Proves the new configuration from the previous proof: the blocks where some changed router's
   * choice is not a subset of its old one (or its down route moved) are proven again from every
   * source; the others keep their proof (see the file comment). Null: prove everything.
   */
  private verifyChange(
    last: State,
    routed: ConfigurationImage,
    changed: readonly number[],
    faults: FaultSet,
    added: readonly CableEnd[],
  ): VerificationReport | null {
    const blocks = last.blocks;
    const index = indexKnownFabric(this.known);
    // The newly dead ports (both ends of each cable) by router, so that checking a router's 64
    // slots builds no strings.
    const deadPorts = new Map<string, Set<number>>();
    const markDead = (end: CableEnd) => {
      const set = deadPorts.get(end.chip) ?? new Set<number>();
      set.add(end.port);
      deadPorts.set(end.chip, set);
    };
    for (const end of added) {
      markDead(end);
      const far = index.peer.get(endKey(end));
      if (far) markDead(far);
    }
    const affected = new Uint8Array(blocks);
    const slicesTouched = new Set<number>();
    for (const i of changed) {
      const before = last.routed.routers[i];
      const now = routed.routers[i];
      const dead = deadPorts.get(now.name);
      if (before.virtualRouters.length === 0 && now.virtualRouters.length > 0) {
        // A router back in service: every block may now go through it; its slice is proven again.
        affected.fill(1);
        slicesTouched.add(now.slice);
        continue;
      }
      if (before.virtualRouters.length !== now.virtualRouters.length) return null;
      // Slices are separate networks: a change proves again only from the sources of its slice.
      slicesTouched.add(now.slice);
      for (let v = 0; v < now.virtualRouters.length; v++) {
        const o = before.virtualRouters[v];
        const n = now.virtualRouters[v];
        if (!sameNumbers(o.tiles, n.tiles) || !sameNumbers(o.rootDetect, n.rootDetect) || !sameNumbers(o.downRoute, n.downRoute)) return null;
        const [location, mask] = n.rootDetect;
        const [shift] = n.downRoute;
        const slotBlocks = (l: number) => {
          const from = (location + (l << shift)) >> 5;
          const to = Math.max(from + 1, (location + ((l + 1) << shift)) >> 5);
          for (let b = from; b < Math.min(to, blocks); b++) affected[b] = 1;
        };
        // Down routes: a slot that moved, or whose port changed direction or died.
        for (let l = 0; l < 64; l++) {
          const port = n.portMap[l];
          if (o.portMap[l] !== port) slotBlocks(l);
          else if (port >= 0 && (before.portDirection[port] !== now.portDirection[port] || dead?.has(port))) slotBlocks(l);
        }
        // Up and side routes: per block outside the subtree, the new choice within the old one.
        // Entries below the first one that differs match exactly as before, so only the blocks
        // under the differing entries (in either table) can have a different choice.
        const stable = n.table.every((e) => e.ports.every((q) => before.portDirection[q] === now.portDirection[q] && !dead?.has(q)));
        let d = 0;
        if (stable) while (d < o.table.length && d < n.table.length && sameEntry(o.table[d], n.table[d])) d++;
        if (stable && d === o.table.length && d === n.table.length) continue;
        const verdicts = new Map<number, boolean>();
        for (const entry of [...o.table.slice(d), ...n.table.slice(d)]) {
          const first = entry.location >> 5;
          const count = Math.max(1, (entry.mask + 1) >> 5);
          for (let b = first; b < Math.min(first + count, blocks); b++) {
            if (affected[b] || locationMatches(b * 32, location, mask)) continue;
            const e0 = matching(o.table, b);
            const e1 = matching(n.table, b);
            const pair = (e0 + 1) * 16 + e1 + 1;
            let within = verdicts.get(pair);
            if (within === undefined) {
              within = e0 >= 0 && e1 >= 0 && narrower(o.table[e0], n.table[e1], before, now, dead);
              verdicts.set(pair, within);
            }
            if (!within) affected[b] = 1;
          }
        }
      }
    }
    const reprove: number[] = [];
    for (let b = 0; b < blocks; b++) if (affected[b]) reprove.push(b);
    const { known } = this;
    const slices = [...new Set(known.discovered.chips.map((c) => c.slice))].sort((x, y) => x - y);
    const report = verifyConfiguration({
      // A dead router kept in place is emptied (no virtual router, every port faulty): nothing
      // routes through it, and keeping the list whole keeps the port graph cached.
      image: routed,
      faults,
      cables: known.matched.cables,
      processors: last.result.processors,
      slices,
      unreachable: last.result.unreachable,
      diameter: BLACKWIDOW_DIAMETER[String(known.design.summary.network)] ?? 7,
      blocks: reprove,
      sourceSlices: slicesTouched,
      checkRouters: new Set(changed.map((i) => routed.routers[i].name)),
    });
    const previous = last.result.verification;
    // The blocks not proven again keep their proof: same pairs, no more hops than before. So do the
    // endpoints of the slices not proven again: on this path no endpoint's cable changed, so every
    // live one there that the faults do not cut off is proven as it was.
    let endpointsProven = report.endpointsProven;
    for (const slice of slices) {
      if (slicesTouched.has(slice)) continue;
      const cut = last.result.unreachable.filter((u) => u.slice === slice).reduce((n, u) => n + u.processors.length, 0);
      endpointsProven += last.result.processors.length - cut;
    }
    return { ...report, pairsProven: previous.pairsProven, endpointsProven, maxHops: Math.max(previous.maxHops, report.maxHops) };
  }
}

/** Calls `visit` with every chip a route leaves through, from the controller on. */
function forEachHop(known: KnownFabric, route: readonly number[], visit: (chip: string) => void): void {
  const { peer } = indexKnownFabric(known);
  let at = known.attachment;
  for (const port of route) {
    visit(at);
    const next = peer.get(`${at}:${port}`);
    if (!next) return;
    at = next.chip;
  }
}

function routesThrough(known: KnownFabric, routers: readonly RouterImage[]): Map<string, Set<number>> {
  const through = new Map<string, Set<number>>();
  routers.forEach((r, i) =>
    forEachHop(known, r.route, (chip) => {
      const set = through.get(chip) ?? new Set<number>();
      set.add(i);
      through.set(chip, set);
    }),
  );
  return through;
}

function usableEnd(end: CableEnd, faults: FaultSet): boolean {
  return !faults.has(end) && !faults.routers.has(end.chip);
}

function subtreesOf(known: KnownFabric, image: ConfigurationImage): Map<string, readonly [number, number]> {
  const { chips } = indexKnownFabric(known);
  const subtrees = new Map<string, readonly [number, number]>();
  for (const router of image.routers) {
    const chip = chips.get(router.name)!;
    for (const vr of router.virtualRouters) subtrees.set(`${router.name}/${chip.virtualRouterOf[vr.tiles[0]]}`, vr.subtree);
  }
  return subtrees;
}

const sameNumbers = (a: readonly number[], b: readonly number[]) => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

/** Whether two images of a router set the same registers (unchanged parts are usually shared objects). */
function sameRegisters(a: RouterImage, b: RouterImage): boolean {
  if (a === b) return true;
  if (!sameNumbers(a.portDirection, b.portDirection) || a.virtualRouters.length !== b.virtualRouters.length) return false;
  return a.virtualRouters.every((x, i) => {
    const y = b.virtualRouters[i];
    return (
      x === y ||
      (sameNumbers(x.tiles, y.tiles) &&
        sameNumbers(x.subtree, y.subtree) &&
        sameNumbers(x.rootDetect, y.rootDetect) &&
        sameNumbers(x.downRoute, y.downRoute) &&
        sameNumbers(x.portMap, y.portMap) &&
        x.hashSelect === y.hashSelect &&
        x.table.length === y.table.length &&
        x.table.every((e, k) => sameEntry(e, y.table[k])))
    );
  });
}

/** The highest-index entry matching a block (-1: none), as the chip decides (§5.1). */
function matching(table: readonly TableEntry[], block: number): number {
  for (let e = table.length - 1; e >= 0; e--) if (locationMatches(block * 32, table[e].location, table[e].mask)) return e;
  return -1;
}

function sameEntry(a: TableEntry, b: TableEntry): boolean {
  return a === b || (a.location === b.location && a.mask === b.mask && a.ports.length === b.ports.length && a.ports.every((p, i) => p === b.ports[i]));
}

/** The new entry's ports are some of the old entry's, none of them changed direction or died. */
function narrower(old: TableEntry, now: TableEntry, before: RouterImage, after: RouterImage, dead: ReadonlySet<number> | undefined): boolean {
  if (now.ports.length === 0) return false;
  const had = new Set(old.ports);
  return now.ports.every((p) => had.has(p) && before.portDirection[p] === after.portDirection[p] && !dead?.has(p));
}
