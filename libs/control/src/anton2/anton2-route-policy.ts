/**
 * Anton 2's route policy around faults (spec §2.6; the paper says nothing of dead links or nodes):
 * a source may draw any of the 12 (dimension order, slice) combinations for a destination (§2.3),
 * each a minimal dimension-order route; a dead torus channel removes from each source–destination
 * pair the combinations whose route uses it, so the routes left stay minimal and the VC-promotion
 * argument (§2.5) holds. A dead ASIC is every channel into and out of it. A pair left with none is
 * unreachable by hardware routing.
 *
 * Only the pairs whose route can cross a dead channel are looked at, not every pair: a route in
 * order o crosses dimension d's channel at node n only if the dimensions before d in o are already
 * at the destination's coordinates and those after still at the source's — both n's — and its d
 * segment passes n's hop; so the pairs are enumerated from n outwards, k⁴ of them a channel and
 * order at most on a cube of side k.
 */
import * as model from '@weft/fabric-model';
import type { Torus } from '@weft/fabric-model';

const { ANTON2_ORDERS, anton2ChannelPort } = model;

/** A torus channel by the node (torus index) it leaves and its ASIC port. */
export interface DeadChannel {
  readonly node: number;
  readonly port: number;
}

export interface Anton2RoutePolicy {
  /** Per source node (torus index) with a restriction, its masks per destination (torus index); others allow all 12. */
  readonly masks: ReadonlyMap<number, Uint16Array>;
  /** Source–destination pairs left with no combination, between live nodes. */
  readonly unreachable: readonly (readonly [number, number])[];
}

/** Offsets of a pair along a ring as the hardware routes them: minimal, a k/2 tie either way (any tie rule may draw it). */
function ringPairsThrough(k: number, at: number, sign: number): [number, number][] {
  // Pairs (s, t) whose minimal route in direction `sign` crosses the hop from `at` to at + sign.
  const pairs: [number, number][] = [];
  for (let s = 0; s < k; s++)
    for (let t = 0; t < k; t++) {
      const ahead = (((sign > 0 ? t - s : s - t) % k) + k) % k;
      if (ahead === 0 || 2 * ahead > k) continue;
      // The hops go from s through s + sign·(ahead − 1); `at` is among them.
      const from = (((sign > 0 ? at - s : s - at) % k) + k) % k;
      if (from < ahead) pairs.push([s, t]);
    }
  return pairs;
}

export function anton2RoutePolicy(
  torus: Torus,
  deadChannels: readonly DeadChannel[],
  deadNodes: readonly number[],
  tieRule: 'random' | 'plus' | 'source-parity',
): Anton2RoutePolicy {
  // Per source, its combinations per destination (made where a fault first restricts it), by torus index.
  const tables: (Uint16Array | undefined)[] = new Array(torus.size);
  const dead = new Set(deadNodes);
  const channels = new Map<string, DeadChannel>();
  const addChannel = (c: DeadChannel) => channels.set(`${c.node}:${c.port}`, c);
  for (const c of deadChannels) addChannel(c);
  // A dead ASIC: every channel out of it and, from each neighbour, into it.
  for (const n of dead)
    for (let d = 0; d < 3; d++) {
      if (torus.shape[d] === 1) continue;
      for (const minus of [false, true])
        for (let slice = 0; slice < 2; slice++) {
          addChannel({ node: n, port: anton2ChannelPort(d, minus, slice) });
          addChannel({ node: torus.neighbour(n, 2 * d + (minus ? 1 : 0)), port: anton2ChannelPort(d, !minus, slice) });
        }
    }
  const size = torus.size;
  // A torus index is x + X·(y + Y·z): each dimension's stride.
  const stride = [1, torus.shape[0], torus.shape[0] * torus.shape[1]];
  for (const { node, port } of channels.values()) {
    const d = port >> 2;
    const sign = port & 2 ? -1 : 1;
    const slice = port & 1;
    const k = torus.shape[d];
    const at = torus.coordinate(node, d);
    let along = ringPairsThrough(k, at, sign);
    // A k/2 tie the rule always sends + (or by parity) never goes the other way.
    along = along.filter(([s, t]) => {
      const ahead = (((t - s) % k) + k) % k;
      if (2 * ahead !== k) return true;
      if (tieRule === 'random') return true;
      const goesPlus = tieRule === 'plus' || s % 2 === 0;
      return goesPlus === sign > 0;
    });
    const here = torus.coordinates(node);
    ANTON2_ORDERS.forEach((order, o) => {
      const position = order.indexOf(d);
      const before = order.slice(0, position);
      const after = order.slice(position + 1);
      // Free coordinates: the source's in the dimensions before d, the destination's in those after.
      const freeS = before.map((e) => torus.shape[e]);
      const freeT = after.map((e) => torus.shape[e]);
      const countS = freeS.reduce((a, b) => a * b, 1);
      const countT = freeT.reduce((a, b) => a * b, 1);
      const keep = ~(1 << (2 * o + slice));
      // The source's index but for dimension d (its free dimensions and n's), and the destination's likewise.
      let hereBase = 0;
      for (let e = 0; e < 3; e++) if (e !== d) hereBase += here[e] * stride[e];
      for (let i = 0; i < countS; i++) {
        let sBase = hereBase;
        let rest = i;
        for (const e of before) {
          sBase += ((rest % torus.shape[e]) - here[e]) * stride[e];
          rest = Math.floor(rest / torus.shape[e]);
        }
        for (let j = 0; j < countT; j++) {
          let tBase = hereBase;
          rest = j;
          for (const e of after) {
            tBase += ((rest % torus.shape[e]) - here[e]) * stride[e];
            rest = Math.floor(rest / torus.shape[e]);
          }
          for (let p = 0; p < along.length; p++) {
            const source = sBase + along[p][0] * stride[d];
            let table = tables[source];
            if (!table) tables[source] = table = new Uint16Array(size).fill(0xfff);
            table[tBase + along[p][1] * stride[d]] &= keep;
          }
        }
      }
    });
  }
  const masks = new Map<number, Uint16Array>();
  for (let s = 0; s < size; s++) if (tables[s]) masks.set(s, tables[s]!);
  const unreachable: [number, number][] = [];
  for (const [s, table] of masks) {
    if (dead.has(s)) continue;
    for (let t = 0; t < size; t++) if (table[t] === 0 && t !== s && !dead.has(t)) unreachable.push([s, t]);
  }
  unreachable.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { masks, unreachable };
}
