/**
 * Anton 2's table-based multicast (paper 004 §2.3, Fig. 3; spec §2.3 item 6): a destination set —
 * nodes and, on each, endpoints ("separate copies written to each endpoint") — from one source is
 * served by trees whose every root-to-leaf path "is required to be a valid unicast route", and
 * packets alternate between trees "for different packets" so that "load balance on the torus
 * channels is improved".
 *
 * A tree here is the union of the dimension-order routes from the source in one (order, slice):
 * routes of one order from one source share each prefix and never meet again, so their union is a
 * tree and each destination gets one copy. Of the 12 combinations the route policy allows for
 * every destination, the first tree is the one with the fewest torus hops in slice 0, the second
 * the fewest in slice 1 with another order where one is as good — different channels, so that
 * alternating halves what each carries. Ties of exactly k/2 go the way the tie rule sends a
 * unicast packet from the source (+ under `random`, which may draw either).
 *
 * Each ASIC on a tree holds an entry for it (group × 2 + tree): the local endpoints that get a
 * copy and the channels copies go on by. A-V4 checks the entries: from the source, every
 * destination endpoint is reached once, by a path that is a minimal dimension-order route the
 * policy allows, and no ASIC is reached twice.
 */
import * as model from '@weft/fabric-model';
import type { Torus } from '@weft/fabric-model';

const { ANTON2_ORDERS, anton2ChannelPort } = model;

export interface MulticastDestination {
  readonly node: number;
  readonly endpoint: number;
}

export interface Anton2MulticastGroup {
  /** The source ASIC (torus index). */
  readonly source: number;
  readonly destinations: readonly MulticastDestination[];
}

export interface Anton2MulticastTree {
  readonly order: number;
  readonly slice: number;
  /** Torus channels the tree uses, as node × 12 + port. */
  readonly channels: readonly number[];
  /** Per ASIC (torus index) on the tree, its table entry. */
  readonly entries: ReadonlyMap<number, { endpoints: number[]; channels: number[] }>;
}

export interface Anton2MulticastPlan {
  readonly trees: readonly Anton2MulticastTree[];
  /** Torus hops of sending one unicast to each destination node instead (minimal routes). */
  readonly unicastHops: number;
}

export class MulticastError extends Error {}

/** Checks a group: known nodes and endpoints, at least one destination, none twice. */
export function checkMulticastGroup(torus: Torus, group: Anton2MulticastGroup, dead: ReadonlySet<number> = new Set()): string[] {
  const problems: string[] = [];
  const node = (n: number, what: string) => {
    if (!(Number.isInteger(n) && n >= 0 && n < torus.size)) problems.push(`${what}: no ASIC ${n} in a ${torus.shape.join('×')} torus`);
    else if (dead.has(n)) problems.push(`${what}: ASIC ${torus.name(n)} is dead`);
  };
  node(group.source, 'source');
  if (group.destinations.length === 0) problems.push('destinations: the set is empty');
  const seen = new Set<string>();
  group.destinations.forEach((d, i) => {
    node(d.node, `destinations[${i}].node`);
    if (!(Number.isInteger(d.endpoint) && d.endpoint >= 0 && d.endpoint < model.ANTON2_ENDPOINT_ADAPTERS))
      problems.push(`destinations[${i}].endpoint: an ASIC has endpoints 0 to ${model.ANTON2_ENDPOINT_ADAPTERS - 1}, got ${d.endpoint}`);
    const key = `${d.node}:${d.endpoint}`;
    if (seen.has(key)) problems.push(`destinations[${i}]: ${key} is in the set twice`);
    seen.add(key);
  });
  return problems;
}

/** The hops of the dimension-order route s → t in `order`, slice `slice`, as (node, port) pairs. */
function route(torus: Torus, s: number, t: number, order: readonly number[], slice: number, tieRule: string): [number, number][] {
  const hops: [number, number][] = [];
  let at = s;
  for (const d of order) {
    const k = torus.shape[d];
    const ahead = (((torus.coordinate(t, d) - torus.coordinate(at, d)) % k) + k) % k;
    if (ahead === 0) continue;
    const tiePlus = tieRule !== 'source-parity' || torus.coordinate(s, d) % 2 === 0;
    const plus = 2 * ahead < k || (2 * ahead === k && tiePlus);
    const steps = plus ? ahead : k - ahead;
    for (let h = 0; h < steps; h++) {
      hops.push([at, anton2ChannelPort(d, !plus, slice)]);
      at = torus.neighbour(at, 2 * d + (plus ? 0 : 1));
    }
  }
  return hops;
}

export function planAnton2Multicast(
  torus: Torus,
  group: Anton2MulticastGroup,
  options: { readonly tieRule: 'random' | 'plus' | 'source-parity'; readonly policy?: ReadonlyMap<number, Uint16Array> },
): Anton2MulticastPlan {
  const problems = checkMulticastGroup(torus, group);
  if (problems.length > 0) throw new MulticastError(problems.join('; '));
  const targets = [...new Set(group.destinations.map((d) => d.node))];
  const mask = options.policy?.get(group.source);
  const build = (combo: number): Anton2MulticastTree | null => {
    const order = ANTON2_ORDERS[combo >> 1];
    const slice = combo & 1;
    const entries = new Map<number, { endpoints: number[]; channels: number[] }>();
    const entry = (n: number) => entries.get(n) ?? entries.set(n, { endpoints: [], channels: [] }).get(n)!;
    const channels = new Set<number>();
    entry(group.source);
    for (const t of targets) {
      if (mask && !(mask[t] & (1 << combo)) && t !== group.source) return null;
      for (const [n, port] of route(torus, group.source, t, order, slice, options.tieRule)) {
        const e = entry(n);
        if (!e.channels.includes(port)) e.channels.push(port);
        channels.add(n * 12 + port);
      }
    }
    for (const d of group.destinations) entry(d.node).endpoints.push(d.endpoint);
    return { order: combo >> 1, slice, channels: [...channels], entries };
  };
  const candidates = Array.from({ length: 12 }, (_, combo) => build(combo)).filter((t): t is Anton2MulticastTree => t !== null);
  if (candidates.length === 0) throw new MulticastError(`no (order, slice) reaches every destination from ${torus.name(group.source)} around the faults`);
  const best = (slice: number, not?: number) =>
    candidates
      .filter((t) => t.slice === slice)
      .sort((a, b) => a.channels.length - b.channels.length || (a.order === not ? 1 : 0) - (b.order === not ? 1 : 0) || a.order - b.order)[0];
  const first = best(0) ?? best(1)!;
  const second = best(1 - first.slice, first.order) ?? first;
  let unicastHops = 0;
  for (const t of targets) unicastHops += torus.nodeDistance(group.source, t);
  return { trees: [first, second], unicastHops };
}

/**
 * A-V4: walks a tree's entries from the source — every destination endpoint reached once, every
 * path a minimal dimension-order route in one order and slice, no ASIC reached twice. Problems named.
 */
export function checkMulticastTree(torus: Torus, group: Anton2MulticastGroup, tree: Anton2MulticastTree): string[] {
  const problems: string[] = [];
  const reached = new Map<number, [number, number][]>(); // node → the hops that reached it
  const stack: [number, [number, number][]][] = [[group.source, []]];
  const copies = new Map<string, number>();
  while (stack.length > 0) {
    const [n, path] = stack.pop()!;
    if (reached.has(n)) {
      problems.push(`${torus.name(n)} is reached twice: its copies would be delivered twice`);
      continue;
    }
    reached.set(n, path);
    const entry = tree.entries.get(n);
    if (!entry) {
      problems.push(`${torus.name(n)} holds no entry for the tree: its copy would be discarded`);
      continue;
    }
    for (const e of entry.endpoints) copies.set(`${n}:${e}`, (copies.get(`${n}:${e}`) ?? 0) + 1);
    for (const port of entry.channels) stack.push([torus.neighbour(n, 2 * (port >> 2) + ((port & 2) >> 1)), [...path, [n, port]]]);
  }
  for (const d of group.destinations) {
    const key = `${d.node}:${d.endpoint}`;
    if (copies.get(key) !== 1) problems.push(`${torus.name(d.node)} endpoint ${d.endpoint} gets ${copies.get(key) ?? 0} copies, not one`);
    const path = reached.get(d.node);
    if (!path) continue;
    const expected = route(torus, group.source, d.node, ANTON2_ORDERS[tree.order], tree.slice, 'plus');
    const minimal = path.length === torus.nodeDistance(group.source, d.node);
    const dimensionOrdered = path.every(
      ([, port], i) => i === 0 || ANTON2_ORDERS[tree.order].indexOf(port >> 2) >= ANTON2_ORDERS[tree.order].indexOf(path[i - 1][1] >> 2),
    );
    const oneSlice = path.every(([, port]) => (port & 1) === tree.slice);
    if (!minimal || !dimensionOrdered || !oneSlice)
      problems.push(
        `the path to ${torus.name(d.node)} (${path.map(([n, p]) => `${torus.name(n)} ${model.anton2ChannelName(p)}`).join(', ')}) is not a unicast route` +
          ` (${expected.length} hops in order ${ANTON2_ORDERS[tree.order].map((x) => 'XYZ'[x]).join('')})`,
      );
  }
  for (const [key, count] of copies)
    if (!group.destinations.some((d) => `${d.node}:${d.endpoint}` === key) && count > 0) problems.push(`endpoint ${key} is not in the set but gets a copy`);
  return problems;
}

/**
 * Every node's table from the groups' plans (group g's tree i at key 2g + i), refusing a node
 * whose table would overflow, named with its occupancy.
 */
export function multicastTables(
  torus: Torus,
  plans: ReadonlyMap<number, Anton2MulticastPlan>,
  capacity = model.ANTON2_MULTICAST_ENTRIES,
): Map<number, Map<number, { endpoints: number[]; channels: number[] }>> {
  const tables = new Map<number, Map<number, { endpoints: number[]; channels: number[] }>>();
  for (const [group, plan] of plans)
    plan.trees.forEach((tree, i) => {
      for (const [node, entry] of tree.entries) {
        let table = tables.get(node);
        if (!table) tables.set(node, (table = new Map()));
        table.set(2 * group + i, entry);
        if (table.size > capacity)
          throw new MulticastError(`the multicast table of ${torus.name(node)} is full: ${capacity} entries, and group ${group} needs one more`);
      }
    });
  return tables;
}
