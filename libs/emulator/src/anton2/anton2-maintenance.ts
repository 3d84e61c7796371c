/**
 * The maintenance controller of an emulated Anton 2 machine: the MaintenanceTransport over its
 * control network, out of band like BG/L's — requests do not cross the torus, a dead ASIC does not
 * answer. An ASIC is addressed by its place in the packaging, [backplane, nodecard]
 * (anton2ControlAddress); each access takes `accessNs` of emulated time, reported as its latency.
 *
 * The registers are the datasheet's (chips/anton2-asic.ts, ANTON2_REGISTERS). A write the ASIC
 * cannot take (a value out of range, a table of the wrong length) is rejected, naming why; nothing
 * is written.
 */
import * as model from '@weft/fabric-model';
import type { MaintenanceResult, RegisterValue, SourceRoute } from '@weft/fabric-model';
import { ControlNetworkController } from '../engine/control-network';
import type { Anton2Sim } from './anton2-sim';

/** What one access over the control network takes (not in the paper: weft's setting, 2 µs). */
export const ANTON2_ACCESS_NS = 2000;

type Failure = Extract<MaintenanceResult<never>, { ok: false }>;

const ROUTER_OUTPUTS = model.A2_ROUTERS * model.A2_PORTS;
const WEIGHTS_PER_OUTPUT = model.A2_PORTS * 2;
const VC_WEIGHTS = model.A2_INPUTS * model.ANTON2_VCS_PER_CLASS * model.ANTON2_TRAFFIC_CLASSES * 2;

export class Anton2MaintenanceController extends ControlNetworkController {
  private readonly nodeAt = new Map<string, number>();

  constructor(
    readonly sim: Anton2Sim,
    readonly accessNs = ANTON2_ACCESS_NS,
  ) {
    super(sim);
    const torus = sim.torus;
    for (let node = 0; node < sim.nodes; node++) {
      const place = torus.index(sim.coords[3 * node], sim.coords[3 * node + 1], sim.coords[3 * node + 2]);
      this.nodeAt.set(model.anton2ControlAddress(torus, place).join('.'), node);
    }
  }

  /** The ASIC a route addresses, or a failure: no such place, or an ASIC that does not answer. */
  private node(route: SourceRoute): number | Failure {
    const node = route.length === 2 ? this.nodeAt.get(route.join('.')) : undefined;
    if (node === undefined || this.sim.dead[node])
      return { ok: false, reason: 'timeout', detail: `no ASIC answered at control-network address ${route.join('.')}`, latencyNs: 4 * this.accessNs };
    return node;
  }

  protected readNow(route: SourceRoute, register: string, index: number): MaintenanceResult<RegisterValue> {
    const node = this.node(route);
    if (typeof node !== 'number') return node;
    const sim = this.sim;
    const latencyNs = this.accessNs;
    const ok = (value: RegisterValue): MaintenanceResult<RegisterValue> => ({ ok: true, value, latencyNs });
    const three = (a: Int32Array) => Array.from(a.subarray(3 * node, 3 * node + 3));
    switch (register) {
      case 'asicIdentity':
        return ok([model.MODEL_ANTON2_ASIC, this.serials[node] >>> 0]);
      case 'channelStates': {
        const out: number[] = [];
        for (let c = 0; c < model.ANTON2_CHANNEL_ADAPTERS; c++) out.push(...this.channelState(node, c));
        return ok(out);
      }
      case 'linkErrors':
        return ok(Array.from(sim.linkRetransmissions.subarray(12 * node, 12 * node + 12)));
      case 'nodeCoordinates':
        return ok(three(sim.coordinateRegister));
      case 'torusSize':
        return ok(three(sim.sizeRegister));
      case 'datelines':
        return ok([...three(sim.datelinePlus), ...three(sim.datelineMinus)]);
      case 'routePolicy': {
        return ok(model.anton2RoutePolicyWords(sim.routePolicy[node]));
      }
      case 'arbiterWeights':
        return ok(Array.from(sim.weights.subarray(node * ROUTER_OUTPUTS * WEIGHTS_PER_OUTPUT, (node + 1) * ROUTER_OUTPUTS * WEIGHTS_PER_OUTPUT)));
      case 'arbiterModes':
        return ok(Array.from(sim.roundRobin.subarray(node * ROUTER_OUTPUTS, (node + 1) * ROUTER_OUTPUTS)));
      case 'vcWeights':
        return ok(Array.from(sim.vcWeights.subarray(node * VC_WEIGHTS, (node + 1) * VC_WEIGHTS)));
      case 'vcModes':
        return ok(Array.from(sim.vcRoundRobin.subarray(node * model.A2_INPUTS, (node + 1) * model.A2_INPUTS)));
      case 'multicastTable': {
        return ok(model.anton2MulticastWords(sim.multicastTables[node] ?? new Map()));
      }
      default:
        return { ok: false, reason: 'no-such-register', detail: `an Anton 2 ASIC has no register "${register}" (index ${index})`, latencyNs };
    }
  }

  /** Link training exchanges identities: a live channel knows the serial and port at its far end. */
  private channelState(node: number, c: number): number[] {
    const sim = this.sim;
    const fabric = sim.fabric;
    const peer = fabric.peer[fabric.portBase[node] + c];
    if (peer < 0 || sim.linkDown[12 * node + c]) return [0, 0, -1];
    const far = fabric.portOwner(peer);
    if (sim.dead[far]) return [0, 0, -1];
    return [1, this.serials[far] >>> 0, peer - fabric.portBase[far]];
  }

  protected writeNow(route: SourceRoute, register: string, _indices: readonly number[], value: RegisterValue): MaintenanceResult<void> {
    const node = this.node(route);
    if (typeof node !== 'number') return node;
    const sim = this.sim;
    const latencyNs = this.accessNs;
    const done: MaintenanceResult<void> = { ok: true, value: undefined, latencyNs };
    const rejected = (detail: string): MaintenanceResult<void> => ({ ok: false, reason: 'rejected', detail: `${register}: ${detail}`, latencyNs });
    const whole = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;
    switch (register) {
      case 'nodeCoordinates':
      case 'torusSize': {
        const lo = register === 'torusSize' ? 1 : 0;
        const hi = register === 'torusSize' ? model.ANTON2_MAX_RING : model.ANTON2_MAX_RING - 1;
        if (value.length !== 3 || !value.every((v) => whole(v, lo, hi))) return rejected(`three whole numbers from ${lo} to ${hi}, got [${value.join(', ')}]`);
        (register === 'torusSize' ? sim.sizeRegister : sim.coordinateRegister).set(value, 3 * node);
        return done;
      }
      case 'datelines': {
        if (value.length !== 6 || !value.every((v) => whole(v, 0, model.ANTON2_MAX_RING - 1)))
          return rejected(`six coordinates (+x, +y, +z, −x, −y, −z) from 0 to ${model.ANTON2_MAX_RING - 1}, got [${value.join(', ')}]`);
        sim.datelinePlus.set(value.slice(0, 3), 3 * node);
        sim.datelineMinus.set(value.slice(3), 3 * node);
        return done;
      }
      case 'routePolicy': {
        const places = sim.sizeRegister[3 * node] * sim.sizeRegister[3 * node + 1] * sim.sizeRegister[3 * node + 2];
        const problem = model.anton2RoutePolicyProblem(value, places);
        if (problem) return rejected(problem);
        sim.routePolicy[node] = model.anton2RoutePolicyTable(value, places);
        return { ok: true, value: undefined, latencyNs: latencyNs * Math.max(1, Math.ceil(value.length / 64)) };
      }
      case 'arbiterWeights': {
        const top = (1 << sim.settings.weightBits) - 1;
        if (value.length !== ROUTER_OUTPUTS * WEIGHTS_PER_OUTPUT) return rejected(`${ROUTER_OUTPUTS * WEIGHTS_PER_OUTPUT} weights, got ${value.length}`);
        const bad = value.findIndex((v) => !whole(v, 0, top));
        if (bad >= 0) return rejected(`weight ${bad} must be 0 to ${top} (M = ${sim.settings.weightBits} bits), got ${value[bad]}`);
        for (let o = 0; o < ROUTER_OUTPUTS; o++) {
          const rows = Array.from({ length: model.A2_PORTS }, (_, i) => [value[o * WEIGHTS_PER_OUTPUT + 2 * i], value[o * WEIGHTS_PER_OUTPUT + 2 * i + 1]]);
          sim.setWeights(node, Math.floor(o / model.A2_PORTS), o % model.A2_PORTS, rows);
        }
        return { ok: true, value: undefined, latencyNs: latencyNs * Math.ceil(value.length / 64) };
      }
      case 'arbiterModes': {
        if (value.length !== ROUTER_OUTPUTS || !value.every((v) => v === 0 || v === 1))
          return rejected(`${ROUTER_OUTPUTS} modes, each 0 (inverse-weighted) or 1 (round robin), got ${value.length} values`);
        sim.roundRobin.set(value, node * ROUTER_OUTPUTS);
        return done;
      }
      case 'vcWeights': {
        const top = (1 << sim.settings.weightBits) - 1;
        if (value.length !== VC_WEIGHTS) return rejected(`${VC_WEIGHTS} weights (each input's 8 VCs, 2 patterns), got ${value.length}`);
        const bad = value.findIndex((v) => !whole(v, 0, top));
        if (bad >= 0) return rejected(`weight ${bad} must be 0 to ${top}, got ${value[bad]}`);
        sim.vcWeights.set(value, node * VC_WEIGHTS);
        return { ok: true, value: undefined, latencyNs: latencyNs * Math.ceil(value.length / 64) };
      }
      case 'vcModes': {
        if (value.length !== model.A2_INPUTS || !value.every((v) => v === 0 || v === 1))
          return rejected(`${model.A2_INPUTS} modes, each 0 (inverse-weighted) or 1 (round robin), got ${value.length} values`);
        sim.vcRoundRobin.set(value, node * model.A2_INPUTS);
        return done;
      }
      case 'multicastTable': {
        const parsed = model.parseAnton2MulticastWords(value);
        if (typeof parsed === 'string') return rejected(parsed);
        sim.multicastTables[node] = parsed.size > 0 ? parsed : null;
        return { ok: true, value: undefined, latencyNs: latencyNs * Math.max(1, Math.ceil(value.length / 64)) };
      }
      case 'asicIdentity':
      case 'channelStates':
      case 'linkErrors':
        return rejected('read only');
      default:
        return { ok: false, reason: 'no-such-register', detail: `an Anton 2 ASIC has no register "${register}"`, latencyNs };
    }
  }
}
