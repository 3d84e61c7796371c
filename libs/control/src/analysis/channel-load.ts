/**
 * Channel load (issue 35; Dally & Towles, "Principles and Practices of Interconnection Networks"
 * §3.3): for a traffic pattern or matrix, the expected load on every channel under the configured
 * routing, where spreading (hashing, adaptive choice) counts as expected fractions. Each source
 * offers one unit per plane, split among its destinations by the pattern, so a channel's load is a
 * fraction of one injection link's rate: the busiest channel saturates when every source injects at
 * 1 / maximum. Also answers which flows cross a given channel, and with what share.
 */
import { makePattern, mulberry32, PatternContext, PatternSpec } from '@weft/fabric-model';
import { ChipPort, channelName, Forwarding } from './forwarding';

/** Traffic from one endpoint to another, in units of an injection link's rate (per plane). */
export interface Flow {
  readonly source: number;
  readonly destination: number;
  readonly rate: number;
}

export interface ChannelLoad {
  readonly channel: ChipPort;
  readonly farEnd: ChipPort;
  readonly load: number;
}

export interface ChannelLoadReport {
  /** Live channels (each direction of each cable). */
  readonly channels: number;
  readonly maximum: number;
  readonly mean: number;
  /** Channels by load, busiest first (only those that carry some). */
  readonly loads: readonly ChannelLoad[];
  /** Counts of channels by load, in `bins` equal bins from 0 to the maximum. */
  readonly histogram: readonly { readonly from: number; readonly to: number; readonly channels: number }[];
  /** Offered traffic the configuration cannot deliver (dropped on the way), in the same units. */
  readonly undeliverable: number;
  /** With `crossing`: the flows that cross that channel and the share of each that does. */
  readonly crossing: readonly { readonly source: number; readonly destination: number; readonly plane: number; readonly share: number }[];
}

/** The most flows patternFlows makes of a pattern: known before any is made, so that a pattern too
 * large to analyse (uniform random on 32K endpoints: a billion flows) is refused without building it. */
export function patternFlowBound(spec: PatternSpec, endpoints: number, draws: number): number {
  if (spec.kind === 'uniform-random' || spec.kind === 'request-response' || spec.kind === 'all-to-all') return endpoints * (endpoints - 1);
  if (spec.kind === 'matrix') return spec.weights.reduce((n, row) => n + (Array.isArray(row) ? row.length : 0), 0);
  return endpoints * draws;
}

/** Flows of a named pattern: exact expectations where the pattern is uniform, else averaged over
 * `draws` seeded draws of each source's destination (a random permutation: `draws` permutations). */
export function patternFlows(spec: PatternSpec, endpoints: readonly number[], context: Omit<PatternContext, 'endpoints'>, seed: number, draws: number): Flow[] {
  const n = endpoints.length;
  if (spec.kind === 'uniform-random' || spec.kind === 'request-response' || spec.kind === 'all-to-all') {
    const flows: Flow[] = [];
    for (let s = 0; s < n; s++) for (let d = 0; d < n; d++) if (d !== s) flows.push({ source: endpoints[s], destination: endpoints[d], rate: 1 / (n - 1) });
    return flows;
  }
  if (spec.kind === 'matrix') {
    const pattern = makePattern(spec, { ...context, endpoints: n }, seed); // validates the matrix
    void pattern;
    const flows: Flow[] = [];
    spec.weights.forEach((row, s) => {
      const total = row.reduce((a, b) => a + b, 0);
      if (total > 0) row.forEach((w, d) => w > 0 && flows.push({ source: endpoints[s], destination: endpoints[d], rate: w / total }));
    });
    return flows;
  }
  const rates = new Map<number, number>();
  for (let k = 0; k < draws; k++) {
    const pattern = makePattern(spec, { ...context, endpoints: n }, seed + k);
    const random = mulberry32(seed * 7919 + k);
    for (let s = 0; s < n; s++) {
      const d = pattern.destination(s, random);
      if (d < 0) continue;
      const key = s * n + d;
      rates.set(key, (rates.get(key) ?? 0) + 1 / draws);
    }
  }
  return [...rates].map(([key, rate]) => ({ source: endpoints[Math.floor(key / n)], destination: endpoints[key % n], rate }));
}

export async function channelLoad(
  forwarding: Forwarding,
  flows: readonly Flow[],
  options: {
    planes: readonly number[];
    vc: number;
    bins?: number;
    crossing?: ChipPort;
    /** Awaited between flows: a service gives its event loop back here. */
    pace?: () => Promise<void>;
    /** Told every 1,024 flows (of every plane) how many are counted, of how many. */
    progress?: (done: number, total: number) => void;
  },
): Promise<ChannelLoadReport> {
  const load = new Map<string, number>();
  const watched = options.crossing ? channelName(options.crossing) : null;
  const crossing: { source: number; destination: number; plane: number; share: number }[] = [];
  let undeliverable = 0;
  // The family's quick count where it has one (not while watching a channel: that needs the walk).
  const quick = watched === null ? forwarding.quickLoad : undefined;
  const quickLoad = quick ? new Float64Array(quick.channels.length) : null;
  const total = flows.length * options.planes.length;
  let counted = 0;
  for (const plane of options.planes) {
    for (const flow of flows) {
      if (options.pace) await options.pace();
      if (options.progress && (++counted & 1023) === 0) options.progress(counted, total);
      if (quick) {
        const lost = quick.count(flow.source, flow.destination, plane, flow.rate, quickLoad!);
        if (lost !== undefined) {
          undeliverable += lost * flow.rate;
          continue;
        }
      }
      const injection = forwarding.injection(flow.source, plane);
      if (!injection) {
        undeliverable += flow.rate;
        continue;
      }
      let watchedShare = 0;
      const add = (channel: ChipPort, share: number) => {
        const name = channelName(channel);
        load.set(name, (load.get(name) ?? 0) + share * flow.rate);
        if (name === watched) watchedShare += share;
      };
      add(injection, 1);
      // The packets of the flow, spread over the routers they may be at, hop by hop.
      let frontier = new Map<string, { at: ChipPort; vc: number; state: string | undefined; share: number }>();
      const arrive = (map: typeof frontier, at: ChipPort | null, vc: number, state: string | undefined, share: number) => {
        if (!at) {
          undeliverable += share * flow.rate;
          return;
        }
        const reached = forwarding.endpointOf(at.chip);
        if (reached !== null) {
          if (reached !== flow.destination) undeliverable += share * flow.rate;
          return;
        }
        const key = `${channelName(at)}/${vc}/${state ?? ''}`;
        const held = map.get(key);
        if (held) held.share += share;
        else map.set(key, { at, vc, state, share });
      };
      arrive(frontier, forwarding.peer(injection), options.vc, undefined, 1);
      for (let hop = 0; frontier.size > 0; hop++) {
        if (hop > 64) throw new Error(`the flow ${flow.source} → ${flow.destination} is still travelling after 64 routers: the routing loops`);
        const next = new Map<string, { at: ChipPort; vc: number; state: string | undefined; share: number }>();
        for (const { at, vc, state, share } of frontier.values()) {
          const decision = forwarding.decide(at, { destination: flow.destination, vc, hashBits: null, state });
          if (decision.kind === 'drop') {
            undeliverable += share * flow.rate;
            continue;
          }
          if (decision.kind === 'deliver') continue;
          for (const choice of decision.choices) {
            if (choice.share === 0) continue;
            const out = { chip: at.chip, port: choice.port };
            add(out, share * choice.share);
            arrive(next, forwarding.peer(out), decision.vc, choice.state, share * choice.share);
          }
        }
        frontier = next;
      }
      if (watchedShare > 0) crossing.push({ source: flow.source, destination: flow.destination, plane, share: watchedShare });
    }
  }
  if (quick) quick.channels.forEach((name, i) => quickLoad![i] > 0 && load.set(name, (load.get(name) ?? 0) + quickLoad![i]));
  const all = forwarding.channels
    .map((channel) => ({ channel, farEnd: forwarding.peer(channel)!, load: load.get(channelName(channel)) ?? 0 }))
    .filter((c) => c.farEnd);
  const maximum = all.reduce((m, c) => Math.max(m, c.load), 0);
  const mean = all.length === 0 ? 0 : all.reduce((sum, c) => sum + c.load, 0) / all.length;
  const bins = options.bins ?? 10;
  const histogram = Array.from({ length: bins }, (_, i) => ({ from: (maximum * i) / bins, to: (maximum * (i + 1)) / bins, channels: 0 }));
  for (const c of all) histogram[Math.min(bins - 1, maximum === 0 ? 0 : Math.floor((c.load / maximum) * bins))].channels++;
  return {
    channels: all.length,
    maximum,
    mean,
    loads: all.filter((c) => c.load > 0).sort((a, b) => b.load - a.load || channelName(a.channel).localeCompare(channelName(b.channel))),
    histogram,
    undeliverable,
    crossing: crossing.sort((a, b) => b.share - a.share || a.source - b.source || a.destination - b.destination),
  };
}
