/**
 * The maintenance controller of an emulated BlueGene/L: the MaintenanceTransport over the JTAG
 * control network (paper 002 §1: "a JTAG control and monitoring network"), out of band — requests
 * do not cross the torus, so a dead link costs the control plane nothing and a dead node simply
 * does not answer. A node is addressed by its place in the packaging, the route [midplane, node
 * card, compute card, ASIC] (bgl-design.ts, bglControlAddress); a route that names no node, or a
 * dead one, times out. Each access takes `jtagAccessNs` of emulated time, reported as its latency.
 *
 * The registers are the datasheet's (chips/bgl-node.ts). A write the node cannot take (a value out
 * of range, a route-override table it cannot read) is rejected, naming why; nothing is written.
 */
import * as model from '@weft/fabric-model';
import type { MaintenanceResult, RegisterValue, SourceRoute } from '@weft/fabric-model';
import { ControlNetworkController } from '../engine/control-network';
import { BglTorusSim } from './bgl-torus-sim';

/** What one access over the control network takes (not in the paper: weft's setting, 2 µs). */
export const JTAG_ACCESS_NS = 2000;

/** What a broadcast to every node takes (not in the paper: weft's setting, 5 µs — the tree network's round trip on the full machine is a few µs). */
export const TREE_BROADCAST_NS = 5000;

type Failure = Extract<MaintenanceResult<never>, { ok: false }>;

export class BglMaintenanceController extends ControlNetworkController {
  /** Node by control-network address (see addressKey). */
  private readonly nodeAt = new Map<number, number>();

  constructor(
    readonly sim: BglTorusSim,
    readonly jtagAccessNs = JTAG_ACCESS_NS,
  ) {
    super(sim);
    const torus = sim.torus;
    for (let node = 0; node < sim.nodes; node++) {
      const [m, nc, c, a] = model.bglControlAddress(torus, torus.index(sim.coords[3 * node], sim.coords[3 * node + 1], sim.coords[3 * node + 2]));
      this.nodeAt.set(addressKey(m, nc, c, a), node);
    }
  }

  /** The node a route addresses, or a failure: no such place, or a node that does not answer. */
  private node(route: SourceRoute): number | Failure {
    const node = route.length === 4 ? this.nodeAt.get(addressKey(route[0], route[1], route[2], route[3])) : undefined;
    if (node === undefined || this.sim.dead[node]) {
      return { ok: false, reason: 'timeout', detail: `no node answered at control-network address ${route.join('.')}`, latencyNs: 4 * this.jtagAccessNs };
    }
    return node;
  }

  protected readNow(route: SourceRoute, register: string, index: number): MaintenanceResult<RegisterValue> {
    const node = this.node(route);
    if (typeof node !== 'number') return node;
    const sim = this.sim;
    const latencyNs = this.jtagAccessNs;
    const ok = (value: RegisterValue): MaintenanceResult<RegisterValue> => ({ ok: true, value, latencyNs });
    const indexIn = (count: number) => Number.isInteger(index) && index >= 0 && index < count;
    const noIndex = (count: number): MaintenanceResult<RegisterValue> => ({
      ok: false,
      reason: 'no-such-register',
      detail: `${register} has indices 0 to ${count - 1}, got ${index}`,
      latencyNs,
    });
    switch (register) {
      case 'nodeIdentity':
        return ok([model.MODEL_BGL_NODE, this.serials[node] >>> 0]);
      case 'torusCoordinates':
        return ok([sim.coords[3 * node], sim.coords[3 * node + 1], sim.coords[3 * node + 2]]);
      case 'torusShape':
        return ok([...sim.torus.shape]);
      case 'linkState': {
        if (!indexIn(6)) return noIndex(6);
        return ok(this.linkState(node, index));
      }
      case 'linkStates': {
        const out: number[] = [];
        for (let d = 0; d < 6; d++) out.push(...this.linkState(node, d));
        return ok(out);
      }
      case 'neighbourCoordinates':
        if (!indexIn(6)) return noIndex(6);
        return ok(Array.from(sim.neighbourRegister.subarray(18 * node + 3 * index, 18 * node + 3 * index + 3)));
      case 'hintCutoffPlus':
      case 'hintCutoffMinus':
        if (!indexIn(3)) return noIndex(3);
        return ok([(register === 'hintCutoffPlus' ? sim.cutoffPlus : sim.cutoffMinus)[3 * node + index]]);
      case 'arbitration':
        return ok(sim.arbitrationRegister(node));
      case 'bubble':
        return ok(sim.bubbleRegister(node));
      case 'routeOverrides': {
        const table = sim.routeTables[node];
        return ok(table ? Array.from(table) : []);
      }
      case 'faultSet': {
        const set = sim.faultSets[node];
        return ok(set ? Array.from(set) : []);
      }
      case 'routingRegisters':
        return ok([
          ...sim.neighbourRegister.subarray(18 * node, 18 * node + 18),
          ...sim.cutoffPlus.subarray(3 * node, 3 * node + 3),
          ...sim.cutoffMinus.subarray(3 * node, 3 * node + 3),
        ]);
      case 'policyRegisters':
        return ok([...sim.arbitrationRegister(node), ...sim.bubbleRegister(node)]);
      case 'linkErrors':
        return ok(Array.from(sim.linkRetransmissions.subarray(6 * node, 6 * node + 6)));
      default:
        return { ok: false, reason: 'no-such-register', detail: `a BG/L node has no register "${register}"`, latencyNs };
    }
  }

  /** A fault set's words as a node takes them, or what is wrong with them. */
  private faultSetWords(value: RegisterValue): Int32Array | null | string {
    if (value.length === 0) return null;
    const parsed = model.parseBglFaultSet(this.sim.torus, value);
    return 'problem' in parsed ? parsed.problem : Int32Array.from(value);
  }

  /**
   * A write to the broadcast address (chips/bgl-node.ts BGL_BROADCAST_ROUTE): every live node takes
   * it at once — BG/L's tree network reaches every node in one pass (§1); weft's setting for what
   * it takes, TREE_BROADCAST_NS. Only the fault set is broadcast.
   */
  private broadcast(register: string, value: RegisterValue): MaintenanceResult<void> {
    const latencyNs = TREE_BROADCAST_NS;
    if (register !== 'faultSet')
      return { ok: false, reason: 'rejected', detail: `${register}: only the fault set is written to every node at once (the broadcast address)`, latencyNs };
    const words = this.faultSetWords(value);
    if (typeof words === 'string') return { ok: false, reason: 'rejected', detail: `faultSet: ${words}`, latencyNs };
    const sim = this.sim;
    for (let node = 0; node < sim.nodes; node++) if (!sim.dead[node]) sim.setFaultSet(node, words);
    return { ok: true, value: undefined, latencyNs };
  }

  /** Link training exchanges identities: a live link knows the serial and port at its far end. */
  private linkState(node: number, direction: number): number[] {
    const sim = this.sim;
    const g = 6 * node + direction;
    const far = sim.outNode[g];
    if (far < 0 || sim.linkDown[g] || sim.dead[far]) return [0, 0, -1];
    return [1, this.serials[far] >>> 0, sim.outPort[g]];
  }

  protected writeNow(route: SourceRoute, register: string, indices: readonly number[], value: RegisterValue): MaintenanceResult<void> {
    if (route.length === 0) return this.broadcast(register, value);
    const node = this.node(route);
    if (typeof node !== 'number') return node;
    const sim = this.sim;
    const latencyNs = this.jtagAccessNs * indices.length;
    const rejected = (detail: string): MaintenanceResult<void> => ({ ok: false, reason: 'rejected', detail: `${register}: ${detail}`, latencyNs });
    const badIndex = (count: number) => indices.find((i) => !(Number.isInteger(i) && i >= 0 && i < count));
    const whole = (v: unknown) => Number.isInteger(v);
    switch (register) {
      case 'neighbourCoordinates': {
        if (badIndex(6) !== undefined)
          return { ok: false, reason: 'no-such-register', detail: `${register} has indices 0 to 5, got ${badIndex(6)}`, latencyNs };
        if (value.length !== 3 || !value.every((c, d) => whole(c) && c >= 0 && c < sim.torus.shape[d]))
          return rejected(`three coordinates within ${sim.torus.shape.join('×')}, got [${value.join(', ')}]`);
        for (const i of indices) sim.neighbourRegister.set(value, 18 * node + 3 * i);
        return { ok: true, value: undefined, latencyNs };
      }
      case 'hintCutoffPlus':
      case 'hintCutoffMinus': {
        if (badIndex(3) !== undefined)
          return { ok: false, reason: 'no-such-register', detail: `${register} has indices 0 to 2, got ${badIndex(3)}`, latencyNs };
        for (const d of indices)
          if (value.length !== 1 || !whole(value[0]) || value[0] < 0 || value[0] >= sim.torus.shape[d])
            return rejected(`one coordinate of the ${'xyz'[d]} ring (0 to ${sim.torus.shape[d] - 1}), got [${value.join(', ')}]`);
        for (const d of indices) (register === 'hintCutoffPlus' ? sim.cutoffPlus : sim.cutoffMinus)[3 * node + d] = value[0];
        return { ok: true, value: undefined, latencyNs };
      }
      case 'arbitration': {
        const problem = sim.checkArbitrationRegister(value);
        if (problem) return rejected(problem);
        sim.setArbitrationRegister(node, value);
        return { ok: true, value: undefined, latencyNs };
      }
      case 'bubble': {
        const problem = sim.checkBubbleRegister(value);
        if (problem) return rejected(problem);
        sim.setBubbleRegister(node, value);
        return { ok: true, value: undefined, latencyNs };
      }
      case 'routeOverrides': {
        const problem = model.checkOverrideTable(sim.torus, value);
        if (problem) return rejected(problem);
        sim.routeTables[node] = value.length === 0 ? null : Int32Array.from(value);
        return { ok: true, value: undefined, latencyNs: this.jtagAccessNs * Math.max(1, Math.ceil(value.length / 64)) };
      }
      case 'faultSet': {
        const words = this.faultSetWords(value);
        if (typeof words === 'string') return rejected(words);
        sim.setFaultSet(node, words);
        return { ok: true, value: undefined, latencyNs: this.jtagAccessNs * Math.max(1, Math.ceil(value.length / 64)) };
      }
      case 'routingRegisters': {
        const shape = sim.torus.shape;
        const within = (v: number, k: number) => Number.isInteger(v) && v >= 0 && v < k;
        if (value.length !== 24) return rejected(`24 words (six neighbour coordinate triples, three plus and three minus cutoffs), got ${value.length}`);
        for (let i = 0; i < 18; i++)
          if (!within(value[i], shape[i % 3])) return rejected(`neighbour coordinate ${i} (${'xyz'[i % 3]}) must be 0 to ${shape[i % 3] - 1}, got ${value[i]}`);
        for (let i = 18; i < 24; i++)
          if (!within(value[i], shape[(i - 18) % 3]))
            return rejected(`cutoff ${i - 18} must be a coordinate of the ${'xyz'[(i - 18) % 3]} ring, got ${value[i]}`);
        sim.neighbourRegister.set(value.slice(0, 18), 18 * node);
        sim.cutoffPlus.set(value.slice(18, 21), 3 * node);
        sim.cutoffMinus.set(value.slice(21, 24), 3 * node);
        return { ok: true, value: undefined, latencyNs };
      }
      case 'policyRegisters': {
        const problem =
          value.length !== 5
            ? `5 words (arbitration, then bubble), got ${value.length}`
            : (sim.checkArbitrationRegister(value.slice(0, 3)) ?? sim.checkBubbleRegister(value.slice(3)));
        if (problem) return rejected(problem);
        sim.setArbitrationRegister(node, value.slice(0, 3));
        sim.setBubbleRegister(node, value.slice(3));
        return { ok: true, value: undefined, latencyNs };
      }
      case 'nodeIdentity':
      case 'torusCoordinates':
      case 'torusShape':
      case 'linkState':
      case 'linkStates':
      case 'linkErrors':
        return rejected('read only');
      default:
        return { ok: false, reason: 'no-such-register', detail: `a BG/L node has no register "${register}"`, latencyNs };
    }
  }
}

function addressKey(midplane: number, nodeCard: number, card: number, asic: number): number {
  if (![midplane, nodeCard, card, asic].every((v) => Number.isInteger(v) && v >= 0)) return -1;
  return ((midplane * 16 + nodeCard) * 16 + card) * 2 + asic;
}
