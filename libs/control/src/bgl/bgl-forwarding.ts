/**
 * BlueGene/L's reading of its configuration image for the route analyses (analysis/forwarding.ts):
 * what a node does with a packet, from its registers as the node interprets them (paper 002 §2).
 *
 * Every node is both an endpoint and a router. A packet starts in its source's software, which
 * consults its route-override table (route-override-table.ts: the first entry holding the
 * destination, or the hardware's dynamic route where none does), sets the hint bits from the hint
 * registers — or the directions the entry chose — and injects it; each hop moves it one link the
 * hints allow, and a dimension's hint clears as the packet leaves towards a node whose coordinate
 * there, by the sender's neighbour register, is the target's. With no hint left it is received;
 * a relay's software sends it on by the entry's second leg. What travels with it (`state`) is what
 * the hardware and software know: its target, its hint bits, whether the leg is static, and the
 * second leg and final destination of a relayed route.
 *
 * Dynamic legs are counted as the expected spread over the hint box: at each node the packet takes
 * each way its hints allow (and whose link is up) with an equal share — JSQ picks by free tokens,
 * which an unloaded analysis has no reason to prefer. A trace follows x, then y, then z among them,
 * listing every way with its share. Static legs go x, then y, then z.
 */
import * as format from '@weft/fabric-model';
import { designTorus } from '@weft/fabric-model';
import type { ChipPort, Forwarding, ForwardingChoice, ForwardingDecision, PacketHeader } from '../analysis/forwarding';
import { indexKnownFabric, KnownFabric } from '../discovery/known-fabric';
import type { BglImage, BglNodeImage } from './bgl-routing-engine';

const { chooseRoute, HARDWARE_LEG, hardwareHintSign, legDirectionChoice, legKind, relayNode } = format;
const { DIRECTION_MINUS, DIRECTION_PLUS, LEG_STATIC, NO_SECOND_LEG, ROUTE_HARDWARE, ROUTE_UNREACHABLE, BGL_VC_BUBBLE, BGL_VC_DYNAMIC_0 } = format;

/** The port a node's software injects by (its injection FIFOs), beside its six links. */
export const BGL_INJECTION_PORT = 6;
const DIRECTIONS = ['x+', 'x−', 'y+', 'y−', 'z+', 'z−'];

interface PacketState {
  readonly target: number;
  readonly hints: number;
  readonly statik: boolean;
  readonly second: number;
  readonly final: number;
}

const encode = (s: PacketState) => `${s.target}.${s.hints}.${s.statik ? 1 : 0}.${s.second}.${s.final}`;
function decode(word: string): PacketState {
  const [target, hints, statik, second, final] = word.split('.').map(Number);
  return { target, hints, statik: statik === 1, second, final };
}

/** Hint bit of direction `dir` (x+ is the highest of six, as §2's header has them). */
const hintBit = (dir: number) => 1 << (5 - dir);

export function bglForwarding(known: KnownFabric, image: BglImage): Forwarding {
  const torus = designTorus(known.design);
  const index = indexKnownFabric(known);
  const nodes = new Map<string, BglNodeImage>(image.routers.map((r) => [r.name, r]));
  // The table a node's software routes by: its own where it holds entries, else the one it builds
  // from the fault set broadcast to it (the route-override rule, built here as the node does: lazily).
  const broadcast = image.faultSet && image.faultSet.length > 0 ? format.parseBglFaultSet(torus, image.faultSet) : null;
  const rule =
    broadcast && !('problem' in broadcast)
      ? new format.RouteOverrideCompiler(broadcast.faults.torus, broadcast.faults, { relayPenaltyHops: broadcast.relayPenaltyHops })
      : null;
  const built = new Map<number, readonly number[]>();
  const tableOf = (node: BglNodeImage, at: number): readonly number[] => {
    if (!rule || (node.routeOverrides.length > 1 && node.routeOverrides[1] > 0)) return node.routeOverrides;
    let table = built.get(at);
    if (!table) built.set(at, (table = rule.table(at)));
    return table;
  };
  const nameAt = new Map<number, string>();
  const indexOf = new Map<string, number>();
  for (const chip of known.design.chips) {
    if (!chip.coordinates) continue;
    const i = torus.index(chip.coordinates[0], chip.coordinates[1], chip.coordinates[2]);
    nameAt.set(i, chip.name);
    indexOf.set(chip.name, i);
  }
  const coordinate = (i: number, d: number) => torus.coordinate(i, d);
  const peer = (end: ChipPort): ChipPort | null => {
    if (!nodes.has(end.chip)) return null;
    if (end.port === BGL_INJECTION_PORT) return end;
    const far = index.peer.get(`${end.chip}:${end.port}`);
    return far && nodes.has(far.chip) ? far : null;
  };

  /** A leg's hint bits from node `from` to `to`, set as the node's software and hint registers would (the emulator's address()). */
  const legHints = (node: BglNodeImage, from: number, to: number, leg: number): number | string => {
    let hints = 0;
    for (let d = 0; d < 3; d++) {
      const s = coordinate(from, d);
      const t = coordinate(to, d);
      if (s === t) continue;
      const choice = legDirectionChoice(leg, d);
      const sign =
        choice === DIRECTION_PLUS
          ? 1
          : choice === DIRECTION_MINUS
            ? -1
            : hardwareHintSign(s, t, node.hintCutoffPlus[d], node.hintCutoffMinus[d], torus.shape[d]);
      if (sign !== 0) hints |= hintBit(2 * d + (sign > 0 ? 0 : 1));
    }
    return hints === 0 ? `the hint registers of ${node.name} hint nothing towards ${nameAt.get(to)}` : hints;
  };

  /** The packet at `node` (state as it arrived), moving on: every way its hints allow, with the state each leaves with. */
  const move = (node: BglNodeImage, state: PacketState, how: string): ForwardingDecision => {
    const dirs: number[] = [];
    for (let dir = 0; dir < 6; dir++) {
      if (!(state.hints & hintBit(dir))) continue;
      dirs.push(dir);
      if (state.statik) break; // x, then y, then z
    }
    const live = dirs.filter((dir) => peer({ chip: node.name, port: dir }) !== null);
    if (live.length === 0)
      return { kind: 'drop', reason: `every way the hints of the packet allow from ${node.name} (${dirs.map((d) => DIRECTIONS[d]).join(' ')}) is down` };
    const choices: ForwardingChoice[] = live.map((dir) => {
      const d = dir >> 1;
      // The hint of dimension d clears as the packet leaves towards the target's coordinate there (the neighbour register).
      const next = node.neighbourCoordinates[3 * dir + d];
      const hints = next === coordinate(state.target, d) ? state.hints & ~(hintBit(2 * d) | hintBit(2 * d + 1)) : state.hints;
      return { port: dir, share: 1 / live.length, state: encode({ ...state, hints }) };
    });
    return { kind: 'forward', choices, chosen: choices[0].port, vc: state.statik ? BGL_VC_BUBBLE : BGL_VC_DYNAMIC_0, how };
  };

  /** A node's software sends a packet from `at` towards `final` by its table (its source), or by a relayed route's second leg. */
  const send = (node: BglNodeImage, at: number, final: number): ForwardingDecision => {
    const words = tableOf(node, at);
    const entry = chooseRoute(torus, words, at, final);
    if (entry === ROUTE_UNREACHABLE) return { kind: 'drop', reason: `the route-override table of ${node.name} declares ${nameAt.get(final)} cut off` };
    let leg = HARDWARE_LEG;
    let target = final;
    let second = NO_SECOND_LEG;
    let how = `no entry holds ${nameAt.get(final)}: the hardware's dynamic minimal route`;
    if (entry !== ROUTE_HARDWARE) {
      leg = words[entry];
      second = words[entry + 1];
      if (second !== NO_SECOND_LEG) {
        target = relayNode(torus, words, entry, at, final);
        how = `route-override entry at word ${entry}: ${legKind(leg) === LEG_STATIC ? 'static' : 'dynamic'} leg to the relay ${nameAt.get(target)}, then on`;
      } else how = `route-override entry at word ${entry}: one ${legKind(leg) === LEG_STATIC ? 'static' : 'dynamic'} leg`;
    }
    return start(node, at, target, leg, second, final, how);
  };

  const start = (node: BglNodeImage, at: number, target: number, leg: number, second: number, final: number, how: string): ForwardingDecision => {
    if (!nodes.has(nameAt.get(target) ?? '')) return { kind: 'drop', reason: `${node.name} would send to the dead node ${nameAt.get(target)}` };
    const hints = legHints(node, at, target, leg);
    if (typeof hints === 'string') return { kind: 'drop', reason: hints };
    const state = { target, hints, statik: legKind(leg) === LEG_STATIC, second, final };
    return move(node, state, `${how} (hints ${DIRECTIONS.filter((_, dir) => hints & hintBit(dir)).join(' ')})`);
  };

  /**
   * The quick count of a flow whose source's table leaves it to the hardware's dynamic minimal route
   * (no override entry holds the destination): the same walk as `send` and `move` — each hop every
   * live way the hints allow, an equal share each, a dimension's hints cleared by the sender's
   * neighbour register — over node numbers and hint words instead of names and state strings.
   */
  const nodeAt: (BglNodeImage | undefined)[] = new Array<BglNodeImage | undefined>(torus.size);
  for (const r of image.routers) nodeAt[indexOf.get(r.name)!] = r;
  const farNode = new Int32Array(torus.size * 6).fill(-1);
  for (const r of image.routers) {
    const i = indexOf.get(r.name)!;
    for (let dir = 0; dir < 6; dir++) {
      const far = peer({ chip: r.name, port: dir });
      if (far) farNode[i * 6 + dir] = indexOf.get(far.chip)!;
    }
  }
  const quickChannels = Array.from({ length: torus.size * 7 }, (_, k) => `${nameAt.get(Math.floor(k / 7))}:${k % 7}`);
  let held: Float64Array | null = null;
  let mark: Int32Array | null = null;
  let stamp = 0;
  const countQuickly = (s: number, t: number, _plane: number, rate: number, load: Float64Array): number | undefined => {
    const node = nodeAt[s];
    if (!node || !nodeAt[t]) return undefined;
    if (s !== t && chooseRoute(torus, tableOf(node, s), s, t) !== ROUTE_HARDWARE) return undefined;
    const first = s === t ? 0 : legHints(node, s, t, HARDWARE_LEG);
    if (typeof first === 'string') return undefined;
    load[s * 7 + BGL_INJECTION_PORT] += rate;
    if (s === t) return 0;
    let lost = 0;
    // Shares by where the packets are and the hints they carry (node × 64 + hints), a hop at a time:
    // `held` is zero again once the flow is counted; `mark` says which keys the next hop has listed.
    held ??= new Float64Array(torus.size * 64);
    mark ??= new Int32Array(torus.size * 64);
    const goal = [coordinate(t, 0), coordinate(t, 1), coordinate(t, 2)];
    let here = [s * 64 + first];
    held[s * 64 + first] = 1;
    for (let hop = 0; here.length > 0; hop++) {
      if (hop > 64) {
        held.fill(0);
        throw new Error(`the flow ${s} → ${t} is still travelling after 64 nodes: the routing loops`);
      }
      const onward: number[] = [];
      const listed = ++stamp;
      for (const key of here) {
        const share = held[key];
        held[key] = 0;
        const at = key >> 6;
        const hints = key & 63;
        if (hints === 0) {
          if (at !== t) lost += share;
          continue;
        }
        let ways = 0;
        for (let dir = 0; dir < 6; dir++) if (hints & hintBit(dir) && farNode[at * 6 + dir] >= 0) ways++;
        if (ways === 0) {
          lost += share;
          continue;
        }
        const part = share / ways;
        const neighbours = nodeAt[at]!.neighbourCoordinates;
        for (let dir = 0; dir < 6; dir++) {
          const far = farNode[at * 6 + dir];
          if (!(hints & hintBit(dir)) || far < 0) continue;
          load[at * 7 + dir] += part * rate;
          const d = dir >> 1;
          const left = neighbours[3 * dir + d] === goal[d] ? hints & ~(hintBit(2 * d) | hintBit(2 * d + 1)) : hints;
          const next = far * 64 + left;
          if (mark[next] !== listed) {
            mark[next] = listed;
            onward.push(next);
          }
          held[next] += part;
        }
      }
      here = onward;
    }
    return lost;
  };

  return {
    family: 'bgl',
    quickLoad: { channels: quickChannels, count: countQuickly },
    planes: [0],
    // The software sends on the normal class; the hardware picks the dynamic VCs or the bubble escape (§2).
    vcs: [BGL_VC_DYNAMIC_0],
    torus: image.routers.length === torus.size ? [...torus.shape] : undefined,
    endpoints: image.routers.map((r) => ({ number: indexOf.get(r.name)!, name: r.name })).sort((a, b) => a.number - b.number),
    channels: image.routers.flatMap((r) => [0, 1, 2, 3, 4, 5].filter((port) => peer({ chip: r.name, port })).map((port) => ({ chip: r.name, port }))),
    injection: (endpoint) => {
      const name = nameAt.get(endpoint);
      return name && nodes.has(name) ? { chip: name, port: BGL_INJECTION_PORT } : null;
    },
    peer,
    endpointOf: () => null,
    decide: (at: ChipPort, header: PacketHeader): ForwardingDecision => {
      const node = nodes.get(at.chip);
      const here = indexOf.get(at.chip);
      if (!node || here === undefined) return { kind: 'drop', reason: `${at.chip} is not a live node of this configuration` };
      if (at.port === BGL_INJECTION_PORT && header.state === undefined) {
        if (here === header.destination) return { kind: 'deliver', how: 'sent to itself' };
        return send(node, here, header.destination);
      }
      const state = decode(header.state ?? '');
      if (state.hints !== 0) return move(node, state, `${state.statik ? 'static' : 'dynamic'} leg to ${nameAt.get(state.target)}`);
      // No hint left: received here.
      if (here !== state.target) return { kind: 'drop', reason: `its hints cleared at ${at.chip}, not at ${nameAt.get(state.target)}: misrouted` };
      if (state.second !== NO_SECOND_LEG && state.final !== here) {
        return start(
          node,
          here,
          state.final,
          state.second,
          NO_SECOND_LEG,
          state.final,
          `received by the relay ${at.chip}, whose software sends it on by the second leg`,
        );
      }
      return { kind: 'deliver', how: `received by ${at.chip}` };
    },
  };
}
