/**
 * The load a traffic pattern puts on every arbiter input inside Anton 2's ASICs (paper 004 §3.2,
 * Fig. 5; spec §2.3.5): "the expected number of packets sent from that source that would use the
 * resource per unit time", summed over sources — the frame's channel-load analysis carried inside
 * the chip. Each source core sends at rate 1; a packet's (order, slice) is drawn evenly among those
 * the route policy allows and an offset of exactly k/2 goes either way evenly under the `random`
 * tie rule; on each ASIC the packet crosses, its on-chip route (from the adapter it enters by to
 * the one it leaves by) is walked through the same tables the emulator moves packets by
 * (fabric-model anton2/chip-wiring.ts), and at each router the load is added to the SA2 arbiter of
 * the output it leaves by, at the input it came in on. γ[i] of an arbiter is then the load entering
 * input i *and* bound for that output (§3.3), from which inverse-weights.ts makes the weights.
 *
 * A pattern that looks the same from every node (uniform, tornado, reverse tornado, n-hop
 * neighbour) under a policy that does too loads every ASIC alike, so one ASIC's loads are summed
 * over destination offsets instead of over every pair: N offsets, not N² pairs.
 */
import * as model from '@weft/fabric-model';
import type { Anton2ChipWiring, Torus } from '@weft/fabric-model';

const { A2_ROUTERS, A2_PORTS, A2_IN_CA_FROM_ROUTER, A2_IN_CA_FROM_TORUS, A2_IN_EA_INJECT, A2_EXITS, A2_EXIT_ENDPOINT, ANTON2_ORDERS } = model;

/** SA2 arbiter inputs per ASIC: router × output port × input port. */
export const ARBITER_INPUTS_PER_ASIC = A2_ROUTERS * A2_PORTS * A2_PORTS;
/** Index of router r's output `out`, input `input`. */
export const arbiterInput = (r: number, out: number, input: number): number => (r * A2_PORTS + out) * A2_PORTS + input;

/**
 * §4.1–4.2's patterns: uniform random, tornado and its reverse, n-hop neighbour (a random node at
 * most n hops away along each dimension) — or a traffic matrix: row s, column t weighs what ASIC s
 * sends to ASIC t, both by torus index (x fastest), relative to the busiest row.
 */
export type Anton2Pattern =
  | { readonly name: 'uniform' }
  | { readonly name: 'tornado' }
  | { readonly name: 'reverse-tornado' }
  | { readonly name: 'neighbour'; readonly hops: number }
  | { readonly name: 'matrix'; readonly weights: readonly (readonly number[])[] };

/** Whether a pattern loads every ASIC alike (a named pattern: the same offsets from every source) or each its own (a matrix). */
export const loadsEveryAsicAlike = (pattern: Anton2Pattern): boolean => pattern.name !== 'matrix';

export interface Anton2LoadOptions {
  /** The endpoint adapters that send (each a core at rate 1) and those that receive, the same on every ASIC. */
  readonly sourceEndpoints: readonly number[];
  readonly destinationEndpoints: readonly number[];
  /** Offsets of exactly k/2: drawn evenly (`random`), always +, or by the source's parity. */
  readonly tieRule: 'random' | 'plus' | 'source-parity';
  /** The (order × 2 + slice) combinations allowed, a 12-bit mask (all by default). */
  readonly routes?: number;
}

export interface Anton2Loads {
  /** Per SA2 arbiter input (arbiterInput), the load on one ASIC: every ASIC's is the same. */
  readonly arbiters: Float64Array;
  /** Per torus channel adapter (ASIC port), the flits a unit of time it carries out of one ASIC. */
  readonly channels: Float64Array;
}

/** Destination offsets of a pattern, each with its probability. */
function patternOffsets(torus: Torus, pattern: Anton2Pattern): { offset: [number, number, number]; weight: number }[] {
  const k = torus.shape;
  switch (pattern.name) {
    case 'uniform': {
      const out = [];
      for (let z = 0; z < k[2]; z++)
        for (let y = 0; y < k[1]; y++) for (let x = 0; x < k[0]; x++) out.push({ offset: [x, y, z] as [number, number, number], weight: 1 / torus.size });
      return out;
    }
    // §4.2: (x + k_X/2 − 1, …) and (x − k_X/2 + 1, …).
    case 'tornado':
      return [{ offset: [0, 1, 2].map((d) => (((k[d] >> 1) - 1 + k[d]) % k[d]) % k[d]) as [number, number, number], weight: 1 }];
    case 'reverse-tornado':
      return [{ offset: [0, 1, 2].map((d) => (((1 - (k[d] >> 1)) % k[d]) + k[d]) % k[d]) as [number, number, number], weight: 1 }];
    case 'neighbour': {
      const spans = [0, 1, 2].map((d) => {
        const set = new Set<number>();
        for (let o = -pattern.hops; o <= pattern.hops; o++) set.add(((o % k[d]) + k[d]) % k[d]);
        return [...set];
      });
      const weight = 1 / (spans[0].length * spans[1].length * spans[2].length);
      const out = [];
      for (const x of spans[0]) for (const y of spans[1]) for (const z of spans[2]) out.push({ offset: [x, y, z] as [number, number, number], weight });
      return out;
    }
    case 'matrix':
      throw new RangeError('a traffic matrix loads each ASIC its own way: its loads are per ASIC (anton2ArbiterLoadsAroundFaults)');
  }
}

/**
 * The on-chip SA2 arbiter inputs a packet uses from entry to exit on one ASIC: entry a channel
 * adapter from the torus (0‥11) or an endpoint adapter (12 + e); exit as in chip-wiring.ts.
 */
export function onChipArbiters(wiring: Anton2ChipWiring, entry: number, exit: number, through: boolean): number[] {
  const out: number[] = [];
  let input = wiring.downstream[entry < 12 ? A2_IN_CA_FROM_TORUS + entry : A2_IN_EA_INJECT + entry - 12];
  while (input >= 0 && input < A2_IN_CA_FROM_ROUTER) {
    const r = (input / A2_PORTS) | 0;
    const port = wiring.routeOut[(r * A2_EXITS + exit) * 2 + (through ? 1 : 0)];
    out.push(arbiterInput(r, port, input - r * A2_PORTS));
    input = wiring.downstream[r * A2_PORTS + port];
  }
  return out;
}

/**
 * The ways a packet goes along one dimension for an offset `ahead` (0 … k − 1): [steps, sign,
 * probability] — one way, or both evenly on a k/2 tie under `random` (and under `source-parity`
 * averaged over sources, `from` null); by the source's parity when it is known.
 */
function dimensionWays(k: number, ahead: number, tieRule: Anton2LoadOptions['tieRule'], from: number | null): [number, number, number][] {
  if (ahead === 0) return [[0, 0, 1]];
  if (2 * ahead < k) return [[ahead, 1, 1]];
  if (2 * ahead > k) return [[k - ahead, -1, 1]];
  if (tieRule === 'plus') return [[ahead, 1, 1]];
  if (tieRule === 'source-parity' && from !== null) return [[ahead, from % 2 === 0 ? 1 : -1, 1]];
  return [
    [ahead, 1, 0.5],
    [ahead, -1, 0.5],
  ];
}

/** Each route of an offset's ways and the combinations drawn evenly: its hops (ASIC ports) and its share of `rate`. */
function forEachRoute(
  ways: [number, number, number][][],
  combos: readonly number[],
  rate: number,
  visit: (hops: Int8Array, length: number, share: number) => void,
): void {
  // One buffer of hops for every route (a route is at most half of each ring).
  const hops = new Int8Array(ways.reduce((n, w) => n + Math.max(0, ...w.map((x) => x[0])), 0));
  const port = model.anton2ChannelPort;
  const orders = ANTON2_ORDERS;
  for (const wx of ways[0])
    for (const wy of ways[1])
      for (const wz of ways[2]) {
        const dims = [wx, wy, wz];
        const share = (rate * wx[2] * wy[2] * wz[2]) / combos.length;
        for (const combo of combos) {
          const slice = combo & 1;
          let length = 0;
          for (const d of orders[combo >> 1]) {
            const channel = port(d, dims[d][1] < 0, slice);
            for (let h = 0; h < dims[d][0]; h++) hops[length++] = channel;
          }
          visit(hops, length, share);
        }
      }
}

/** onChipArbiters, each (entry, exit, through) walked once. */
function onChipCache(wiring: Anton2ChipWiring): (entry: number, exit: number, through: boolean) => number[] {
  const paths = new Map<number, number[]>();
  return (entry, exit, through) => {
    const key = (entry * A2_EXITS + exit) * 2 + (through ? 1 : 0);
    let list = paths.get(key);
    if (!list) paths.set(key, (list = onChipArbiters(wiring, entry, exit, through)));
    return list;
  };
}

export function anton2ArbiterLoads(torus: Torus, wiring: Anton2ChipWiring, pattern: Anton2Pattern, options: Anton2LoadOptions): Anton2Loads {
  const arbiters = new Float64Array(ARBITER_INPUTS_PER_ASIC);
  const channels = new Float64Array(12);
  const path = onChipCache(wiring);
  const add = (list: number[], w: number) => {
    for (const a of list) arbiters[a] += w;
  };
  const sources = options.sourceEndpoints;
  const sinks = options.destinationEndpoints;
  const cores = sources.length;
  const allowed = options.routes ?? 0xfff;
  const combos: number[] = [];
  for (let r = 0; r < 12; r++) if (allowed & (1 << r)) combos.push(r);
  if (combos.length === 0) throw new RangeError('the route policy allows no (order, slice) combination');
  const k = torus.shape;
  for (const { offset, weight } of patternOffsets(torus, pattern)) {
    const ways = [0, 1, 2].map((d) => dimensionWays(k[d], offset[d], options.tieRule, null));
    forEachRoute(ways, combos, weight * cores, (hops, length, p) => {
      if (length === 0) {
        for (const e of sources) for (const f of sinks) add(path(12 + e, A2_EXIT_ENDPOINT + f, false), p / cores / sinks.length);
        return;
      }
      for (const e of sources) add(path(12 + e, hops[0], false), p / cores);
      for (let h = 0; h < length; h++) {
        channels[hops[h]] += p;
        const entry = hops[h] ^ 2;
        if (h + 1 < length) add(path(entry, hops[h + 1], hops[h + 1] === hops[h]), p);
        else for (const f of sinks) add(path(entry, A2_EXIT_ENDPOINT + f, false), p / sinks.length);
      }
    });
  }
  return { arbiters, channels };
}

/**
 * Every SA2 arbiter's inverse weights on one ASIC from up to two patterns' loads (§3.3): for router
 * r's output o, m[i][n] from the loads on its inputs i; returned as the emulator's and the registers'
 * layout, (arbiterInput × 2 + pattern). A second pattern left out repeats the first.
 */
export function anton2WeightTable(
  loads: readonly Float64Array[],
  bits: number,
  weigh: (rows: number[][], bits: number) => { weights: readonly (readonly number[])[] },
): Uint16Array {
  if (loads.length < 1 || loads.length > 2) throw new RangeError(`inverse weights are for one or two traffic patterns (§3.3: N = 2), got ${loads.length}`);
  const table = new Uint16Array(ARBITER_INPUTS_PER_ASIC * 2);
  for (let r = 0; r < A2_ROUTERS; r++)
    for (let o = 0; o < A2_PORTS; o++) {
      const rows = Array.from({ length: A2_PORTS }, (_, i) => [0, 1].map((n) => (loads[n] ?? loads[0])[arbiterInput(r, o, i)]));
      const { weights } = weigh(rows, bits);
      for (let i = 0; i < A2_PORTS; i++) for (let n = 0; n < 2; n++) table[arbiterInput(r, o, i) * 2 + n] = weights[i][n];
    }
  return table;
}

/**
 * Every ASIC's arbiter loads under a route policy that faults restrict (anton2-route-policy.ts):
 * the pattern's loads with every combination, and for each pair the policy restricts, its routes'
 * share moved from the 12 combinations to those left (none left: its traffic cannot be carried,
 * and loads nothing). Per ASIC, ARBITER_INPUTS_PER_ASIC each; only the restricted pairs are walked.
 */
export function anton2ArbiterLoadsAroundFaults(
  torus: Torus,
  wiring: Anton2ChipWiring,
  pattern: Anton2Pattern,
  options: Anton2LoadOptions,
  masks: ReadonlyMap<number, Uint16Array>,
): Float64Array {
  const loads = new Float64Array(torus.size * ARBITER_INPUTS_PER_ASIC);
  const matrix = pattern.name === 'matrix' ? pattern.weights : null;
  if (!matrix) {
    const base = anton2ArbiterLoads(torus, wiring, pattern, options).arbiters;
    for (let n = 0; n < torus.size; n++) loads.set(base, n * ARBITER_INPUTS_PER_ASIC);
    if (masks.size === 0) return loads;
  }
  const k = torus.shape;
  const offsetWeight = new Map<number, number>();
  if (!matrix) for (const { offset, weight } of patternOffsets(torus, pattern)) offsetWeight.set(torus.index(offset[0], offset[1], offset[2]), weight);
  const sources = options.sourceEndpoints;
  const sinks = options.destinationEndpoints;
  const cores = sources.length;
  const onChip = onChipCache(wiring);
  // What the restricted pairs move, gathered per ASIC by the way a route crosses it — entering by
  // an endpoint (the source's, per its share of the cores) or a channel, leaving by a channel
  // (through or turning) or to the endpoints — and spread over the arbiters once at the end.
  const C = model.ANTON2_CHANNEL_ADAPTERS;
  const injected = new Float64Array(torus.size * C);
  const crossing = new Float64Array(torus.size * C * C);
  const received = new Float64Array(torus.size * C);
  /** Adds `rate` of s → t traffic spread evenly over the combinations in `mask` (as the source draws them). */
  const pair = (s: number, t: number, mask: number, rate: number) => {
    const combos: number[] = [];
    for (let r = 0; r < 12; r++) if (mask & (1 << r)) combos.push(r);
    if (combos.length === 0) return;
    const ways = [0, 1, 2].map((d) =>
      dimensionWays(k[d], (((torus.coordinate(t, d) - torus.coordinate(s, d)) % k[d]) + k[d]) % k[d], options.tieRule, torus.coordinate(s, d)),
    );
    forEachRoute(ways, combos, rate, (hops, length, p) => {
      let chip = s;
      injected[chip * C + hops[0]] += p;
      for (let h = 0; h < length; h++) {
        chip = torus.neighbour(chip, 2 * (hops[h] >> 2) + ((hops[h] & 2) >> 1));
        const entry = hops[h] ^ 2;
        if (h + 1 < length) crossing[(chip * C + entry) * C + hops[h + 1]] += p;
        else received[chip * C + entry] += p;
      }
    });
  };
  if (matrix) {
    // Every pair the matrix weighs, over the combinations its source's policy allows.
    const busiest = Math.max(...matrix.map((row) => row.reduce((a, w) => a + w, 0)));
    for (let s = 0; s < torus.size; s++)
      for (let t = 0; t < torus.size; t++) {
        const w = matrix[s][t];
        if (t === s || !(w > 0)) continue;
        pair(s, t, masks.get(s)?.[t] ?? 0xfff, (w / busiest) * cores);
      }
  } else
    for (const [s, table] of masks)
      for (let t = 0; t < torus.size; t++) {
        if (t === s || table[t] === 0xfff) continue;
        const offset = torus.index(
          ...([0, 1, 2].map((d) => (((torus.coordinate(t, d) - torus.coordinate(s, d)) % k[d]) + k[d]) % k[d]) as [number, number, number]),
        );
        const weight = offsetWeight.get(offset);
        if (!weight) continue;
        pair(s, t, 0xfff, -weight * cores);
        pair(s, t, table[t], weight * cores);
      }
  const add = (chip: number, list: number[], w: number) => {
    const base = chip * ARBITER_INPUTS_PER_ASIC;
    for (const a of list) loads[base + a] += w;
  };
  for (let chip = 0; chip < torus.size; chip++)
    for (let c = 0; c < C; c++) {
      const w = injected[chip * C + c];
      if (w !== 0) for (const e of sources) add(chip, onChip(12 + e, c, false), w / cores);
      const r = received[chip * C + c];
      if (r !== 0) for (const f of sinks) add(chip, onChip(c, A2_EXIT_ENDPOINT + f, false), r / sinks.length);
      for (let o = 0; o < C; o++) {
        const x = crossing[(chip * C + c) * C + o];
        if (x !== 0) add(chip, onChip(c, o, o === (c ^ 2)), x);
      }
    }
  // Rounding leaves dust where a share was taken away: no load is below zero.
  for (let i = 0; i < loads.length; i++) if (loads[i] < 1e-12) loads[i] = 0;
  return loads;
}
