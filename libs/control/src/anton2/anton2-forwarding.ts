/**
 * Anton 2's reading of a configuration image for the route analyses (analysis/forwarding.ts), at
 * the level of torus hops: the source draws a dimension order among those its route-policy
 * register allows for the destination in the packet's slice — a traced packet's plane is its slice,
 * injected at port 12 + slice — and each ASIC then sends it on by the next dimension of that order
 * with an offset left, by its own coordinate and size registers, an offset of exactly k/2 either
 * way as the tie rule lets it where a dimension starts. The VC follows §2.5 with the ASIC's dateline
 * registers: up at the hop that crosses a dateline, up on turning out of a dimension it did not
 * cross. The packet carries its order, whether it crossed in the present dimension, and the
 * direction of a tie, as its state.
 */
import * as model from '@weft/fabric-model';
import type { ChipPort, Forwarding, ForwardingChoice, ForwardingDecision, PacketHeader } from '../analysis/forwarding';
import { indexKnownFabric, KnownFabric } from '../discovery/known-fabric';
import type { Anton2AsicImage } from './anton2-configuration';
import type { Anton2EngineImage } from './anton2-routing-engine';

const { ANTON2_ORDERS, anton2ChannelName, anton2ChannelPort } = model;

/** Where an ASIC's endpoints inject: port 12 + slice, beside its 12 channels. */
export const ANTON2_INJECTION_PORT = model.ANTON2_CHANNEL_ADAPTERS;

const encode = (order: number, crossed: boolean, minusTies: number) => `${order}.${crossed ? 1 : 0}.${minusTies}`;
function decode(word: string): { order: number; crossed: boolean; minusTies: number } {
  const [order, crossed, minusTies] = word.split('.').map(Number);
  return { order, crossed: crossed === 1, minusTies };
}

export function anton2Forwarding(known: KnownFabric, image: Anton2EngineImage, tieRule: 'random' | 'plus' | 'source-parity' = 'random'): Forwarding {
  const torus = model.designTorus(known.design);
  const index = indexKnownFabric(known);
  const asics = new Map<string, Anton2AsicImage>(image.routers.map((r) => [r.name, r]));
  const nameAt = new Map<number, string>();
  const placeOf = new Map<string, number>();
  for (const chip of known.design.chips) {
    if (!chip.coordinates) continue;
    const p = torus.index(chip.coordinates[0], chip.coordinates[1], chip.coordinates[2]);
    nameAt.set(p, chip.name);
    placeOf.set(chip.name, p);
  }
  const peer = (end: ChipPort): ChipPort | null => {
    if (!asics.has(end.chip)) return null;
    if (end.port >= ANTON2_INJECTION_PORT) return end;
    const far = index.peer.get(`${end.chip}:${end.port}`);
    return far && asics.has(far.chip) ? far : null;
  };

  /** The ways on from `asic` toward `destination` in `order` and `slice`, from dimension index `from` on: none (arrived), or the next dimension's port(s). */
  /**
   * The next hop's dimension from `asic` toward coordinates `goal` in `order`, and its direction:
   * `(d << 3) | how` — how 0 plus, 1 minus (as the offset or a tie already chosen says), 2 plus and
   * 3 minus a tie the rule chooses now, 4 a tie spread half each way — or -1 where no offset is left.
   * Without objects: the quick count calls it at every hop of every flow.
   */
  const step = (asic: Anton2AsicImage, goal: ArrayLike<number>, order: number, minusTies: number): number => {
    for (const d of ANTON2_ORDERS[order]) {
      const k = asic.torusSize[d];
      const ahead = (((goal[d] - asic.nodeCoordinates[d]) % k) + k) % k;
      if (ahead === 0) continue;
      if (2 * ahead !== k) return (d << 3) | (2 * ahead > k ? 1 : 0);
      // A tie: as the packet's state says once chosen, else as the tie rule lets it.
      if (minusTies & (1 << (d + 3))) return (d << 3) | (minusTies & (1 << d) ? 1 : 0);
      if (tieRule === 'random') return (d << 3) | 4;
      return (d << 3) | (tieRule === 'source-parity' && asic.nodeCoordinates[d] % 2 === 1 ? 3 : 2);
    }
    return -1;
  };
  /** The ties chosen once a tie in dimension d is taken `minus` or not. */
  const chosen = (minusTies: number, d: number, minus: boolean) => minusTies | (1 << (d + 3)) | (minus ? 1 << d : 0);
  const coordinates = (p: number) => [torus.coordinate(p, 0), torus.coordinate(p, 1), torus.coordinate(p, 2)];

  /** The ways on from `asic` toward `destination` in `order`: none (arrived), or the next dimension's port(s) with their shares. */
  const next = (asic: Anton2AsicImage, destination: number, order: number, _slice: number, minusTies: number) => {
    const way = step(asic, coordinates(destination), order, minusTies);
    if (way < 0) return null;
    const d = way >> 3;
    const how = way & 7;
    if (how < 2) return { d, ways: [{ minus: how === 1, share: 1, minusTies }] };
    if (how < 4) return { d, ways: [{ minus: how === 3, share: 1, minusTies: chosen(minusTies, d, how === 3) }] };
    return {
      d,
      ways: [
        { minus: false, share: 0.5, minusTies: chosen(minusTies, d, false) },
        { minus: true, share: 0.5, minusTies: chosen(minusTies, d, true) },
      ],
    };
  };
  const crosses = (asic: Anton2AsicImage, d: number, minus: boolean) => {
    const at = asic.nodeCoordinates[d];
    return minus ? at === (asic.datelines[3 + d] + 1) % asic.torusSize[d] : at === asic.datelines[d];
  };

  /**
   * The quick count of a flow (issue 54 §11): the same walk as `decide` — the orders the route
   * policy allows, each ASIC's next dimension by its own registers, ties as the rule lets them —
   * over ASIC numbers and the path's state as a number (order, slice, ties chosen); the VC and the
   * datelines crossed, which move no packet to another channel, are left out.
   */
  const PORTS = ANTON2_INJECTION_PORT + 2;
  const asicAt: (Anton2AsicImage | undefined)[] = new Array<Anton2AsicImage | undefined>(torus.size);
  for (const r of image.routers) asicAt[placeOf.get(r.name)!] = r;
  const farAsic = new Int32Array(torus.size * ANTON2_INJECTION_PORT).fill(-1);
  const farPort = new Int32Array(torus.size * ANTON2_INJECTION_PORT).fill(-1);
  for (const r of image.routers) {
    const i = placeOf.get(r.name)!;
    for (let port = 0; port < ANTON2_INJECTION_PORT; port++) {
      const far = peer({ chip: r.name, port });
      if (!far) continue;
      farAsic[i * ANTON2_INJECTION_PORT + port] = placeOf.get(far.chip)!;
      farPort[i * ANTON2_INJECTION_PORT + port] = far.port;
    }
  }
  const quickChannels = Array.from({ length: torus.size * PORTS }, (_, k) => `${nameAt.get(Math.floor(k / PORTS))}:${k % PORTS}`);
  const countQuickly = (s: number, t: number, plane: number, rate: number, load: Float64Array): number | undefined => {
    const source = asicAt[s];
    if (!source || !asicAt[t] || (plane !== 0 && plane !== 1)) return undefined;
    const mask = s === t ? 0 : model.anton2RouteMask(source.routePolicy, t);
    const orders = [0, 1, 2, 3, 4, 5].filter((o) => mask & (1 << (2 * o + plane)));
    if (s !== t && orders.length === 0) return undefined;
    load[s * PORTS + ANTON2_INJECTION_PORT + plane] += rate;
    if (s === t) return 0;
    let lost = 0;
    const goal = coordinates(t);
    // One order's path, a tie the rule spreads walked both ways (half each): deterministic between
    // ties, so walked without a frontier.
    const walk = (at: number, slice: number, order: number, ties: number, share: number): void => {
      for (let hop = 0; ; hop++) {
        if (hop > 64) throw new Error(`the flow ${s} → ${t} is still travelling after 64 ASICs: the routing loops`);
        const way = step(asicAt[at]!, goal, order, ties);
        if (way < 0) {
          if (at !== t) lost += share;
          return;
        }
        const d = way >> 3;
        const how = way & 7;
        if (how === 4) {
          walk(at, slice, order, chosen(ties, d, true), share / 2);
          share /= 2;
        }
        const minus = how === 1 || how === 3;
        if (how >= 2) ties = chosen(ties, d, minus);
        const port = anton2ChannelPort(d, minus, slice);
        load[at * PORTS + port] += share * rate;
        const far = farAsic[at * ANTON2_INJECTION_PORT + port];
        if (far < 0) {
          lost += share;
          return;
        }
        slice = farPort[at * ANTON2_INJECTION_PORT + port] & 1;
        at = far;
      }
    };
    for (const order of orders) walk(s, plane, order, 0, 1 / orders.length);
    return lost;
  };

  return {
    family: 'anton2',
    quickLoad: { channels: quickChannels, count: countQuickly },
    planes: [0, 1],
    vcs: [0],
    torus: image.routers.length === torus.size ? [...torus.shape] : undefined,
    endpoints: image.routers.map((r) => ({ number: placeOf.get(r.name)!, name: r.name })).sort((a, b) => a.number - b.number),
    channels: image.routers.flatMap((r) =>
      Array.from({ length: model.ANTON2_CHANNEL_ADAPTERS }, (_, port) => port)
        .filter((port) => peer({ chip: r.name, port }))
        .map((port) => ({ chip: r.name, port })),
    ),
    injection: (endpoint, plane) => {
      const name = nameAt.get(endpoint);
      return name && asics.has(name) && (plane === 0 || plane === 1) ? { chip: name, port: ANTON2_INJECTION_PORT + plane } : null;
    },
    peer,
    endpointOf: () => null,
    decide: (at: ChipPort, header: PacketHeader): ForwardingDecision => {
      const asic = asics.get(at.chip);
      const here = placeOf.get(at.chip);
      if (!asic || here === undefined) return { kind: 'drop', reason: `${at.chip} is not a live ASIC of this configuration` };
      const destination = header.destination;
      if (at.port >= ANTON2_INJECTION_PORT && header.state === undefined) {
        if (here === destination) return { kind: 'deliver', how: 'sent to an endpoint of its own ASIC' };
        const slice = at.port - ANTON2_INJECTION_PORT;
        const mask = model.anton2RouteMask(asic.routePolicy, destination);
        const orders = [0, 1, 2, 3, 4, 5].filter((o) => mask & (1 << (2 * o + slice)));
        if (orders.length === 0)
          return { kind: 'drop', reason: `the route policy of ${at.chip} allows no dimension order to ${nameAt.get(destination)} in slice ${slice}` };
        const choices: ForwardingChoice[] = [];
        for (const order of orders) {
          const way = next(asic, destination, order, slice, 0)!;
          for (const w of way.ways)
            choices.push({
              port: anton2ChannelPort(way.d, w.minus, slice),
              share: w.share / orders.length,
              state: encode(order, crosses(asic, way.d, w.minus), w.minusTies),
            });
        }
        const first = decode(choices[0].state!);
        return {
          kind: 'forward',
          choices,
          chosen: choices[0].port,
          vc: first.crossed ? 1 : 0,
          how: `order ${ANTON2_ORDERS[first.order].map((d) => 'XYZ'[d]).join('')} of the ${orders.length} the route policy allows in slice ${slice}`,
        };
      }
      const state = decode(header.state ?? '0.0.0');
      const arrivedBy = at.port;
      const slice = arrivedBy & 1;
      const d = arrivedBy >> 2;
      const way = next(asic, destination, state.order, slice, state.minusTies);
      if (!way) {
        if (here !== destination) return { kind: 'drop', reason: `its offsets end at ${at.chip}, not at ${nameAt.get(destination)}: misrouted` };
        return { kind: 'deliver', how: `received by ${at.chip}` };
      }
      const w = way.ways[0];
      const port = anton2ChannelPort(way.d, w.minus, slice);
      const through = way.d === d && port === (arrivedBy ^ 2);
      // §2.5: through — up only at a dateline not crossed yet; a turn — up if the dimension left was not crossed, and again at a dateline.
      const turnRise = through ? 0 : state.crossed ? 0 : 1;
      const cross = (through ? !state.crossed : true) && crosses(asic, way.d, w.minus);
      const vc = Math.min(model.ANTON2_VCS_PER_CLASS - 1, header.vc + turnRise + (cross ? 1 : 0));
      const crossed = through ? state.crossed || cross : cross;
      const choices = way.ways.map((v) => ({
        port: anton2ChannelPort(way.d, v.minus, slice),
        share: v.share,
        state: encode(state.order, through ? crossed : crosses(asic, way.d, v.minus), v.minusTies),
      }));
      return {
        kind: 'forward',
        choices,
        chosen: port,
        vc,
        how: through
          ? `through on ${anton2ChannelName(port)}`
          : `turns to ${anton2ChannelName(port)} (order ${ANTON2_ORDERS[state.order].map((x) => 'XYZ'[x]).join('')})`,
      };
    },
  };
}
