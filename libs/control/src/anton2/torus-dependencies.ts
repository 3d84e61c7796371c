/**
 * The channel-dependency graph of Anton 2's torus channels, built by brute force (spec §2.4, A-V3's
 * reference): every (source, destination, dimension order, slice) route of a small torus walked
 * hop by hop with VC promotion, each packet holding one (channel, VC) while it asks for the next.
 * Its nodes are (ASIC, channel adapter, VC). Acyclic is what §2.5 proves for minimal routes with
 * each dimension's + and − datelines between the same two nodes; the verifier that scales to
 * 16×16×16 without enumerating routes is checked against this on tori of 4, 5 and 6.
 */
import * as format from '@weft/fabric-model';
import type { Anton2Datelines, TieRule, Torus } from '@weft/fabric-model';
import { findCycle } from '../analysis/channel-dependencies';

const { ANTON2_CHANNEL_ADAPTERS, ANTON2_ORDERS, ANTON2_SLICES, ANTON2_VCS_PER_CLASS, anton2TorusRoute, anton2ChannelName } = format;

export interface TorusDependencyReport {
  readonly acyclic: boolean;
  readonly dependencies: number;
  /** A cycle of (ASIC:channel/VC), the first repeated at the end; null when acyclic. */
  readonly cycle: readonly string[] | null;
  /** The highest VC any hop used (it must stay below the VCs a class has). */
  readonly maxVc: number;
}

export function torusDependencies(
  torus: Torus,
  datelines: Anton2Datelines,
  options: { readonly tie?: TieRule; readonly vcsPerClass?: number } = {},
): TorusDependencyReport {
  const tie = options.tie ?? 'plus';
  // With fewer VCs than promotion asks for, the higher ones share the top VC (a configuration to refuse).
  const top = (options.vcsPerClass ?? ANTON2_VCS_PER_CLASS) - 1;
  const id = (node: number, port: number, vc: number) => (node * ANTON2_CHANNEL_ADAPTERS + port) * ANTON2_VCS_PER_CLASS + vc;
  const edges = new Map<number, Set<number>>();
  let dependencies = 0;
  let maxVc = 0;
  for (let s = 0; s < torus.size; s++)
    for (let t = 0; t < torus.size; t++) {
      if (s === t) continue;
      for (const order of ANTON2_ORDERS)
        for (let slice = 0; slice < ANTON2_SLICES; slice++) {
          const { hops } = anton2TorusRoute(torus, s, t, order, slice, datelines, tie);
          for (let i = 0; i < hops.length; i++) {
            maxVc = Math.max(maxVc, hops[i].vc);
            if (i === 0) continue;
            const from = id(hops[i - 1].from, hops[i - 1].port, Math.min(hops[i - 1].vc, top));
            const to = id(hops[i].from, hops[i].port, Math.min(hops[i].vc, top));
            let set = edges.get(from);
            if (!set) edges.set(from, (set = new Set()));
            if (!set.has(to)) {
              set.add(to);
              dependencies++;
            }
          }
        }
    }
  const cycle = findCycle(torus.size * ANTON2_CHANNEL_ADAPTERS * ANTON2_VCS_PER_CLASS, edges);
  const name = (n: number) => {
    const vc = n % ANTON2_VCS_PER_CLASS;
    const channel = (n - vc) / ANTON2_VCS_PER_CLASS;
    const node = Math.floor(channel / ANTON2_CHANNEL_ADAPTERS);
    return `${torus.name(node)}:${anton2ChannelName(channel % ANTON2_CHANNEL_ADAPTERS)}/${vc}`;
  };
  return { acyclic: cycle === null, dependencies, cycle: cycle && cycle.map(name), maxVc };
}
