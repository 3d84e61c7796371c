/**
 * What the control plane knows of a fabric: the last sweep, matched against the operator's design.
 * Automation consults it on every interrupt, so its look-ups are indexed once per sweep.
 */
import type { ChipSpec, FabricDesign } from '@weft/fabric-model';
import type { DiscoveryResult } from './discovery-sweep';
import type { MatchedFabric } from './match-design';

export interface KnownFabric {
  readonly discovered: DiscoveryResult;
  readonly matched: MatchedFabric;
  readonly design: FabricDesign;
  /** The maintenance controller's processor, where every source route starts. */
  readonly attachment: string;
}

export interface CableEnd {
  readonly chip: string;
  readonly port: number;
}

export interface KnownFabricIndex {
  /** Design chips by name. */
  readonly chips: ReadonlyMap<string, ChipSpec>;
  /** The far end of every discovered live cable, by `chip:port`. */
  readonly peer: ReadonlyMap<string, CableEnd>;
  /** Serial numbers by design name. */
  readonly serialOf: ReadonlyMap<string, number>;
  /** The sweep's route to each chip, by design name. */
  readonly sweptRoute: ReadonlyMap<string, readonly number[]>;
}

const indexes = new WeakMap<KnownFabric, KnownFabricIndex>();

export const endKey = (end: CableEnd) => `${end.chip}:${end.port}`;

export function indexKnownFabric(known: KnownFabric): KnownFabricIndex {
  let index = indexes.get(known);
  if (index) return index;
  const peer = new Map<string, CableEnd>();
  for (const c of known.matched.cables) {
    if (c.lanes === 0) continue;
    peer.set(endKey(c.a), c.b);
    peer.set(endKey(c.b), c.a);
  }
  const serialOf = new Map<string, number>();
  for (const [serial, name] of known.matched.names) serialOf.set(name, serial);
  const sweptRoute = new Map<string, readonly number[]>();
  for (const chip of known.discovered.chips) {
    const name = known.matched.names.get(chip.serial);
    if (name !== undefined) sweptRoute.set(name, chip.route);
  }
  index = { chips: new Map(known.design.chips.map((c) => [c.name, c])), peer, serialOf, sweptRoute };
  indexes.set(known, index);
  return index;
}

/**
 * The design's cables that discovery did not find live as designed — missing, miswired (either
 * end landing elsewhere), or displaced by a cable the design does not have — each by both its
 * ends: no route may cross them, whatever the findings call them (issue 54: BG/L's proof passed
 * over a missing cable because it took only the findings it knew by kind). Every family's engine
 * routes around these and proves against the cabling found, not the cabling designed.
 */
export function cablesNotFoundAsDesigned(known: KnownFabric): readonly (readonly [CableEnd, CableEnd])[] {
  // Found once per fabric as known (issue 55: every reaction asked, and BG/L's 64K has 196,608 cables).
  let out = notFound.get(known);
  if (out) return out;
  const { peer } = indexKnownFabric(known);
  out = [];
  for (const cable of known.design.cables) {
    const far = peer.get(endKey(cable.a));
    if (far && far.chip === cable.b.chip && far.port === cable.b.port) continue;
    out.push([cable.a, cable.b]);
  }
  notFound.set(known, out);
  return out;
}

const notFound = new WeakMap<KnownFabric, (readonly [CableEnd, CableEnd])[]>();

/**
 * The fabric as if a sweep had found exactly the design (serial numbers in design order, each chip
 * reached by the breadth-first route a sweep from `attachment` would take): for tests and
 * benchmarks of the pure computations, which need no emulator.
 */
export function designAsDiscovered(design: FabricDesign, attachment: string): KnownFabric {
  const out = new Map<string, { port: number; to: string }[]>();
  for (const c of design.cables) {
    for (const [x, y] of [
      [c.a, c.b],
      [c.b, c.a],
    ]) {
      const list = out.get(x.chip) ?? [];
      list.push({ port: x.port, to: y.chip });
      out.set(x.chip, list);
    }
  }
  const kinds = new Map(design.chips.map((c) => [c.name, c.kind]));
  const routes = new Map<string, number[]>([[attachment, []]]);
  const queue = [attachment];
  for (let i = 0; i < queue.length; i++) {
    if (i > 0 && kinds.get(queue[i]) !== 'router') continue;
    for (const { port, to } of out.get(queue[i]) ?? []) {
      if (routes.has(to)) continue;
      routes.set(to, [...routes.get(queue[i])!, port]);
      queue.push(to);
    }
  }
  return {
    design,
    attachment,
    discovered: {
      chips: design.chips.map((c, i) => ({
        serial: i + 1,
        kind: c.kind,
        portCount: c.portCount,
        route: routes.get(c.name) ?? [],
        slice: Math.max(c.slice, 0),
        processor: c.kind === 'endpoint' ? c.processor : undefined,
      })),
      links: [],
      unanswered: [],
      requests: 0,
    },
    matched: { names: new Map(design.chips.map((c, i) => [i + 1, c.name])), findings: [], cables: design.cables.map((c) => ({ a: c.a, b: c.b, lanes: 3 })) },
  };
}

/**
 * Whether two sweeps of a fabric found the same thing: the same chips under the same names (with
 * their live lanes), the same cables and the same findings. An operator's rediscovery that finds
 * nothing new keeps what the control plane computed from the last one (the routing engine's
 * incremental state), rather than making the next fault take the full path. The routes by which
 * the sweep reached each chip may differ between sweeps; either still reaches it.
 */
export function sameSweep(a: KnownFabric, b: KnownFabric): boolean {
  if (a.design !== b.design || a.attachment !== b.attachment) return false;
  const chips = (k: KnownFabric) =>
    k.discovered.chips
      .map((c) => `${c.serial}=${k.matched.names.get(c.serial) ?? '?'}/${c.kind}/${c.slice}/${c.processor ?? ''}/${(c.lanes ?? []).join(',')}`)
      .sort();
  const cables = (k: KnownFabric) =>
    k.matched.cables
      .map((c) => {
        const [x, y] = [endKey(c.a), endKey(c.b)].sort();
        return `${x}-${y}/${c.lanes}`;
      })
      .sort();
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.discovered.unanswered.length === b.discovered.unanswered.length &&
    JSON.stringify(a.matched.findings) === JSON.stringify(b.matched.findings) &&
    same(chips(a), chips(b)) &&
    same(cables(a), cables(b))
  );
}
