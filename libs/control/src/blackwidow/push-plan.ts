/**
 * Push plans: from the generation the fabric holds to the next, only the registers that change,
 * in an order that never sends a packet where the fabric cannot take it (DESIGN.md, issue 4 §8).
 *
 * Up*\/down* routing cannot loop while every table lists only uplinks and sidelinks (paper 000
 * §7.7), so the danger in a transition is the dead end: a router that sends traffic to a neighbour
 * whose registers are not ready for it yet. The phases:
 *
 * 1. prepare — everything a new path needs at its far end: down routes and the logical→physical
 *    port map, root detect, hash windows, link settings, and ports that come into service.
 * 2. tables, highest rank first — a packet climbs, so a router may start relying on the routers
 *    above it only once they route by the new tables; a rank is written after every rank above it.
 *    Fault entries that steer traffic away from a fault go in here too, above before below.
 * 3. retire — ports taken out of service, once no table lists them any more.
 *
 * Every write is one maintenance packet (all tiles of a virtual router at once), and writes are
 * idempotent, so a phase interrupted by a crash can simply be run again.
 */
import { LOCATION_MASK, locationMatches } from '@weft/fabric-model/chips/yarc';
import type { MaintenanceTransport } from '../maintenance-transport';
import { PlannedWrite, PushFailure, PushPhase, PushPlan, ReconcileReport, RegisterWrite, runConcurrently, writeAll } from '../engine/push-plan';
import { ConfigurationImage, PORT_DOWNLINK, PORT_UNUSED, RouterImage, TABLE_ENTRIES, TableEntry, VirtualRouterConfig } from './blackwidow-engine';

const ALL_PORTS = Array.from({ length: 64 }, (_, p) => p);
const key = (w: RegisterWrite) => `${w.register}/${w.indices[0]}/${w.indices.length}`;
const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Every register of a router as the push writes it (a new or reset router gets all of them). */
export function routerRegisters(router: RouterImage): RegisterWrite[] {
  const writes = linkRegisters(router);
  for (const vr of router.virtualRouters) writes.push(...virtualRouterRegisters(vr));
  return writes;
}

/** The router-wide registers: port directions and link settings. */
function linkRegisters(router: RouterImage): RegisterWrite[] {
  const writes: RegisterWrite[] = [{ register: 'portDirections', indices: [0], value: [...router.portDirection], whole: true }];
  writes.push({ register: 'laneRetryThreshold', indices: ALL_PORTS, value: [router.link.laneRetryThreshold] });
  const leaf = ALL_PORTS.filter((p) => router.rank === 1 && router.portDirection[p] === PORT_DOWNLINK);
  const inner = ALL_PORTS.filter((p) => !leaf.includes(p));
  writes.push({ register: 'forwardProgressTimer', indices: inner, value: [router.link.forwardProgressTimer] });
  if (leaf.length > 0) writes.push({ register: 'forwardProgressTimer', indices: leaf, value: [router.link.leafForwardProgressTimer] });
  writes.push({ register: 'maxPacketLength', indices: [0], value: [router.link.maxPacketLength] });
  router.link.octantRates.forEach((rate, octant) => writes.push({ register: 'octantRate', indices: [octant], value: [rate] }));
  return writes;
}

/** One virtual router's registers, written to all of its tiles at once. */
function virtualRouterRegisters(vr: VirtualRouterConfig): RegisterWrite[] {
  const tiles = [...vr.tiles];
  const writes: RegisterWrite[] = [
    { register: 'rootDetect', indices: tiles, value: [...vr.rootDetect] },
    { register: 'downRoute', indices: tiles, value: [...vr.downRoute] },
    { register: 'hashSelect', indices: tiles, value: [vr.hashSelect] },
  ];
  // A slot whose child is gone keeps its old port (dead, so never chosen): there is no
  // "invalid" port number, and fault entries keep traffic away from it.
  vr.portMap.forEach((physical, logical) => {
    if (physical >= 0) writes.push(portMapWrite(tiles, logical, physical));
  });
  for (let e = 0; e < TABLE_ENTRIES; e++) writes.push(tableWrite(tiles, e, vr.table[e]));
  return writes;
}

const portMapWrite = (tiles: readonly number[], logical: number, physical: number): RegisterWrite => ({
  register: 'portMap',
  indices: tiles.map((t) => t * 64 + logical),
  value: [physical],
});

const tableWrite = (tiles: readonly number[], e: number, entry: TableEntry | undefined): RegisterWrite => ({
  register: 'routingTable',
  indices: tiles.map((t) => t * TABLE_ENTRIES + e),
  value: tableWord(entry),
});

/** A table entry as the chip holds it: [valid, location, mask, ports 0–31, ports 32–63]. */
function tableWord(entry: TableEntry | undefined): readonly number[] {
  if (!entry) return EMPTY_ENTRY;
  let lo = 0;
  let hi = 0;
  for (const p of entry.ports) {
    if (p < 32) lo |= 1 << p;
    else hi |= 1 << (p - 32);
  }
  return [1, entry.location, entry.mask, lo >>> 0, hi >>> 0];
}

/** A write the next image needs, and what the router holds at its place (undefined: nothing known). */
interface Change {
  readonly write: RegisterWrite;
  readonly was: RegisterWrite | undefined;
}

/** The writes in which `router` differs from `old` (every write when nothing is known of it), in
 * routerRegisters order, and the table words it holds for each virtual router. */
interface RouterChanges {
  readonly changes: Change[];
  heldTable(tiles: readonly number[]): (readonly number[])[];
}

function routerChanges(old: RouterImage | undefined, router: RouterImage): RouterChanges {
  return old && sameShape(old, router) ? shapedChanges(old, router) : keyedChanges(old, router);
}

/** The general comparison: every held register by its place, looked up for each next write. */
export function keyedChanges(old: RouterImage | undefined, router: RouterImage): RouterChanges {
  const held = new Map(old ? routerRegisters(old).map((w) => [key(w), w]) : []);
  const changes: Change[] = [];
  for (const write of routerRegisters(router)) {
    const was = held.get(key(write));
    if (!was || !same(was.value, write.value) || !same(was.indices, write.indices)) changes.push({ write, was });
  }
  return { changes, heldTable: (tiles) => Array.from({ length: TABLE_ENTRIES }, (_, e) => held.get(tableKey(tiles, e))?.value ?? EMPTY_ENTRY) };
}

/** Same rank and the same virtual routers on the same tiles: registers compare field by field. */
export function sameShape(old: RouterImage, router: RouterImage): boolean {
  if (old.rank !== router.rank || old.virtualRouters.length !== router.virtualRouters.length) return false;
  for (let v = 0; v < router.virtualRouters.length; v++) {
    const a = old.virtualRouters[v].tiles;
    const b = router.virtualRouters[v].tiles;
    if (a !== b && !same(a, b)) return false;
  }
  return true;
}

/**
 * The comparison of two routers of the same shape, the same writes as keyedChanges: a part of the
 * image that is the same object (the routing engine keeps what it did not recompute, and a fault
 * entry changes a table and nothing else) is skipped without building its writes.
 */
export function shapedChanges(old: RouterImage, router: RouterImage): RouterChanges {
  const changes: Change[] = [];
  if (old.link !== router.link || old.portDirection !== router.portDirection) {
    const held = new Map(linkRegisters(old).map((w) => [key(w), w]));
    for (const write of linkRegisters(router)) {
      const was = held.get(key(write));
      if (!was || !same(was.value, write.value) || !same(was.indices, write.indices)) changes.push({ write, was });
    }
  }
  for (let v = 0; v < router.virtualRouters.length; v++) {
    const a = old.virtualRouters[v];
    const b = router.virtualRouters[v];
    if (a === b) continue;
    const tiles = [...b.tiles];
    const pair = (register: string, was: readonly number[], value: readonly number[]) => {
      if (!same(was, value)) changes.push({ write: { register, indices: tiles, value: [...value] }, was: { register, indices: tiles, value: [...was] } });
    };
    pair('rootDetect', a.rootDetect, b.rootDetect);
    pair('downRoute', a.downRoute, b.downRoute);
    pair('hashSelect', [a.hashSelect], [b.hashSelect]);
    if (a.portMap !== b.portMap) {
      b.portMap.forEach((physical, logical) => {
        if (physical < 0) return;
        const before = a.portMap[logical];
        if (before !== physical)
          changes.push({ write: portMapWrite(tiles, logical, physical), was: before >= 0 ? portMapWrite(tiles, logical, before) : undefined });
      });
    }
    if (a.table !== b.table) {
      for (let e = 0; e < TABLE_ENTRIES; e++) {
        if (a.table[e] === b.table[e]) continue;
        const was = tableWrite(tiles, e, a.table[e]);
        const write = tableWrite(tiles, e, b.table[e]);
        if (!same(was.value, write.value)) changes.push({ write, was });
      }
    }
  }
  const byFirstTile = new Map(old.virtualRouters.map((vr) => [vr.tiles[0], vr]));
  return { changes, heldTable: (tiles) => Array.from({ length: TABLE_ENTRIES }, (_, e) => tableWord(byFirstTile.get(tiles[0])?.table[e])) };
}

/**
 * The writes that take the fabric from `previous` (what it holds; null: nothing known) to `next`.
 * A router missing from `previous` (new, or back from the dead with its registers reset) gets
 * every register. Only routers whose image objects differ from the held ones are compared, so a
 * plan after a fault costs what the fault changed, not what the fabric holds.
 */
export function planPush(previous: ConfigurationImage | null, next: ConfigurationImage): PushPlan {
  const held = previous?.routers ?? [];
  /** The held routers by name, made only if some router is not where it was. */
  let before: Map<string, RouterImage> | null = null;
  const prepare: PlannedWrite[] = [];
  /** Per rank, each virtual router's table writes in the steps they must go in. */
  const tablesByRank = new Map<number, PlannedWrite[][][]>();
  const retire: PlannedWrite[] = [];
  for (let i = 0; i < next.routers.length; i++) {
    const router = next.routers[i];
    // The routing engine keeps the image object of a router that did not change: nothing to write.
    if (held[i] === router) continue;
    before ??= new Map(held.map((r) => [r.name, r]));
    const old = before.get(router.name);
    if (old === router) continue;
    const { changes, heldTable } = routerChanges(old, router);
    /** This router's changed table entries, by the virtual router (its tiles) they belong to. */
    const tables = new Map<string, { tiles: readonly number[]; entries: Map<number, PlannedWrite> }>();
    for (const { write, was } of changes) {
      const planned = { ...write, router: router.name, route: router.route };
      if (write.register === 'routingTable') {
        const tiles = write.indices.map((i) => Math.floor(i / TABLE_ENTRIES));
        const vr = tiles.join(',');
        if (!tables.has(vr)) tables.set(vr, { tiles, entries: new Map() });
        tables.get(vr)!.entries.set(write.indices[0] % TABLE_ENTRIES, planned);
      } else if (write.register === 'portDirections' && was) {
        // Ports coming into service now; ports leaving it only after the tables stop using them.
        const staged = write.value.map((d, p) => (d === PORT_UNUSED && was.value[p] !== PORT_UNUSED ? was.value[p] : d));
        if (!same(staged, was.value)) prepare.push({ ...planned, value: staged });
        if (!same(staged, write.value)) retire.push(planned);
      } else prepare.push(planned);
    }
    for (const { tiles, entries } of tables.values()) {
      const heldWords = heldTable(tiles);
      const nextWords = heldWords.map((w, e) => entries.get(e)?.value ?? w);
      const { steps } = tableWriteOrder(
        heldWords,
        nextWords,
        [...entries.keys()].sort((a, b) => a - b),
      );
      const list = tablesByRank.get(router.rank) ?? [];
      list.push(steps.map((step) => step.map((e) => entries.get(e)!)));
      tablesByRank.set(router.rank, list);
    }
  }
  const phases: PushPhase[] = [];
  if (prepare.length > 0) phases.push({ name: 'prepare', writes: prepare });
  for (const rank of [...tablesByRank.keys()].sort((a, b) => b - a)) {
    // One round per step: every virtual router's first step, then every second…
    const perRouter = tablesByRank.get(rank)!;
    const rounds = Math.max(...perRouter.map((steps) => steps.length));
    for (let round = 0; round < rounds; round++) {
      phases.push({
        name: rounds === 1 ? `tables of rank ${rank}` : `tables of rank ${rank} (${round + 1} of ${rounds})`,
        writes: perRouter.flatMap((steps) => steps[round] ?? []),
      });
    }
  }
  if (retire.length > 0) phases.push({ name: 'retire', writes: retire });
  return { phases };
}

/** An empty table entry as written: [valid, location, mask, ports 0–31, ports 32–63]. */
const EMPTY_ENTRY: readonly number[] = [0, 0, 0, 0, 0];
const BLOCK = 32;

/**
 * The steps to write one virtual router's changed table entries in, so that no block of 32
 * processors that both the old and the new table route is left without a route in between (§5.1:
 * the highest-index matching entry gives the ports; none, or one with no ports, and the packet is
 * dropped). A fixed order cannot do it — ascending leaves a hole where an entry moves up the table,
 * descending where one moves down — so each next write is the first (by index) that keeps every
 * such block routed, one write a step; where none does (two entries swapping places), the first is
 * taken and the blocks left without a route meanwhile are counted in `holes`. A table that routes
 * nothing yet (a new or reset router) is written in one step.
 */
export function tableWriteOrder(
  held: readonly (readonly number[])[],
  next: readonly (readonly number[])[],
  changed: readonly number[],
): { steps: number[][]; holes: number } {
  const table = held.map((w) => [...w]);
  const routable = (t: readonly (readonly number[])[], block: number) => {
    for (let e = t.length - 1; e >= 0; e--) if (t[e][0] && matches(t[e], block)) return (t[e][3] | t[e][4]) !== 0;
    return false;
  };
  const keptOf = (words: readonly (readonly number[])[]) => {
    const blocks = new Set<number>();
    for (const word of words) for (const b of blocksMatched(word)) blocks.add(b);
    return [...blocks].filter((b) => routable(held, b) && routable(next, b));
  };
  // Only blocks a changed entry matches before or after can change their route: the others are
  // never at risk. (A fault entry matches one block; the whole table matches up to 1,024.)
  const kept = keptOf(changed.flatMap((e) => [held[e], next[e]]));
  // A table that routes nothing in both (a new or reset router) is written in one step.
  if (kept.length === 0 && keptOf([...held, ...next]).length === 0) return { steps: changed.length > 0 ? [[...changed]] : [], holes: 0 };
  const pending = [...changed];
  const steps: number[][] = [];
  let holes = 0;
  while (pending.length > 0) {
    // Only blocks the entry matched before or matches after can change their route.
    const broken = (e: number) => {
      const trial = table.map((w, i) => (i === e ? next[e] : w));
      return kept.filter((b) => (matches(held[e], b) || matches(next[e], b)) && !routable(trial, b)).length;
    };
    let pick = pending.findIndex((e) => broken(e) === 0);
    if (pick === -1) {
      pick = 0;
      holes += broken(pending[0]);
    }
    const [e] = pending.splice(pick, 1);
    table[e] = [...next[e]];
    steps.push([e]);
  }
  return { steps, holes };
}

function matches(word: readonly number[], base: number): boolean {
  return word[0] !== 0 && locationMatches(base, word[1], word[2]);
}

/** The bases of the 32-processor blocks an entry matches (at most 1,024). */
function blocksMatched(word: readonly number[]): number[] {
  if (!word[0]) return [];
  const free = word[2] & LOCATION_MASK & ~(BLOCK - 1);
  const fixed = word[1] & ~word[2] & LOCATION_MASK & ~(BLOCK - 1);
  const out: number[] = [];
  // Every subset of the free bits, from the empty one up.
  let subset = 0;
  do {
    out.push(fixed | subset);
    subset = (subset - free) & free;
  } while (subset !== 0);
  return out;
}

const tableKey = (tiles: readonly number[], e: number) => `routingTable/${tiles[0] * TABLE_ENTRIES + e}/${tiles.length}`;

/**
 * Makes the fabric hold `image`, whatever it holds now: reads back every register the image
 * defines (one index per write: a write is one packet, all or nothing) and writes the ones that
 * differ, in plan order. After a crash mid-push — or an emulated fabric powered up blank — this is
 * how store and fabric come to agree again.
 */
export async function reconcileImage(transport: MaintenanceTransport, image: ConfigurationImage, concurrency = 256): Promise<ReconcileReport> {
  const plan = planPush(null, image);
  const failures: PushFailure[] = [];
  let checked = 0;
  let rewritten = 0;
  for (const phase of plan.phases) {
    const stale: PlannedWrite[] = [];
    await runConcurrently(phase.writes, concurrency, async (w) => {
      checked++;
      const held = await transport.read(w.route, w.register, w.indices[0]);
      if (!held.ok) failures.push({ router: w.router, register: w.register, detail: `${held.reason}: ${held.detail}` });
      else if (!same(held.value, w.value)) stale.push(w);
    });
    rewritten += stale.length;
    failures.push(...(await writeAll(transport, stale, concurrency)));
  }
  return { checked, rewritten, failures };
}
