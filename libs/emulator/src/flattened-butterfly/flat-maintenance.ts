/**
 * The maintenance controller of an emulated flattened butterfly: the MaintenanceTransport over an
 * out-of-band service network (the paper names none; weft's choice, as for Anton 2) — a router is
 * addressed by its coordinates, a dead router does not answer, each access takes `accessNs` of
 * emulated time. The registers are the datasheet's (chips/flat-router.ts); a write the router
 * cannot take is rejected, naming why, and nothing is written.
 */
import * as model from '@weft/fabric-model';
import type { MaintenanceResult, RegisterValue, SourceRoute } from '@weft/fabric-model';
import { ControlNetworkController } from '../engine/control-network';
import type { EmulatedFabric } from '../emulated-fabric';
import { FLAT_MAX_DIMENSIONS, FlatSim } from './flat-sim';

/** What one access over the service network takes (not in the paper: weft's setting, 2 µs). */
export const FLAT_ACCESS_NS = 2000;

type Failure = Extract<MaintenanceResult<never>, { ok: false }>;

export class FlatMaintenanceController extends ControlNetworkController {
  private readonly routerAt = new Map<string, number>();

  constructor(
    readonly sim: FlatSim,
    fabric: EmulatedFabric,
    readonly accessNs = FLAT_ACCESS_NS,
  ) {
    super(sim);
    fabric.design.chips.forEach((chip, r) => this.routerAt.set((chip.coordinates ?? []).join('.'), r));
  }

  /** The router a route addresses, or a failure: no such place, or a router that does not answer. */
  private router(route: SourceRoute): number | Failure {
    const r = this.routerAt.get(route.join('.'));
    if (r === undefined || this.sim.dead[r])
      return { ok: false, reason: 'timeout', detail: `no router answered at service-network address ${route.join('.')}`, latencyNs: 4 * this.accessNs };
    return r;
  }

  protected readNow(route: SourceRoute, register: string, index: number): MaintenanceResult<RegisterValue> {
    const r = this.router(route);
    if (typeof r !== 'number') return r;
    const sim = this.sim;
    const latencyNs = this.accessNs;
    const ok = (value: RegisterValue): MaintenanceResult<RegisterValue> => ({ ok: true, value, latencyNs });
    const dims = sim.regDims[r];
    const row = (a: Int32Array, width: number, length: number) => Array.from(a.subarray(r * width, r * width + length));
    switch (register) {
      case 'routerIdentity':
        return ok([model.MODEL_FLAT_ROUTER, this.serials[r] >>> 0]);
      case 'channelStates': {
        const out: number[] = [];
        for (let p = 0; p < sim.ports; p++) out.push(...this.channelState(r, p));
        return ok(out);
      }
      case 'gridShape':
        return ok(dims === 0 ? [] : [sim.regK[r], ...row(sim.regSize, FLAT_MAX_DIMENSIONS, dims)]);
      case 'coordinates':
        return ok(row(sim.regCoord, FLAT_MAX_DIMENSIONS, dims));
      case 'portMap': {
        let width = 0;
        for (let d = 0; d < dims; d++) width += sim.regSize[r * FLAT_MAX_DIMENSIONS + d];
        return ok(row(sim.portMap, sim.mapWidth, width));
      }
      case 'redundantMap': {
        let width = 0;
        for (let d = 0; d < dims; d++) width += sim.regSize[r * FLAT_MAX_DIMENSIONS + d];
        return ok(row(sim.redundantMap, sim.mapWidth, width));
      }
      case 'vcMap':
        return ok(row(sim.vcMap, model.FLAT_MAX_VCS, sim.vcMapLength[r]));
      case 'bufferSplit':
        return ok(row(sim.split, sim.vcs, sim.vcs));
      case 'portMask':
        return ok(Array.from(sim.mask.subarray(r * sim.ports, (r + 1) * sim.ports)));
      case 'detourVia': {
        let width = 0;
        for (let d = 0; d < dims; d++) width += sim.regSize[r * FLAT_MAX_DIMENSIONS + d];
        return ok(row(sim.detourVia, sim.mapWidth, width));
      }
      case 'excludedIntermediates': {
        const list = sim.excluded[r];
        const out: number[] = [];
        if (list) for (let b = 0; b < list.length; b++) if (list[b]) out.push(b);
        return ok(out);
      }
      case 'routingMode':
        return ok(sim.regMode[r] === 255 ? [] : [sim.regMode[r], sim.regSequential[r]]);
      default:
        return { ok: false, reason: 'no-such-register', detail: `a flattened butterfly router has no register "${register}" (index ${index})`, latencyNs };
    }
  }

  /** Link training exchanges identities: a live channel knows the serial and port at its far end. */
  private channelState(r: number, p: number): number[] {
    const sim = this.sim;
    const g = r * sim.ports + p;
    const peer = sim.farOf(g);
    if (peer < 0 || !sim.linkUp[g]) return [0, 0, -1];
    const far = Math.floor(peer / sim.ports);
    if (sim.dead[far]) return [0, 0, -1];
    return [1, this.serials[far] >>> 0, peer - far * sim.ports];
  }

  protected writeNow(route: SourceRoute, register: string, _indices: readonly number[], value: RegisterValue): MaintenanceResult<void> {
    const r = this.router(route);
    if (typeof r !== 'number') return r;
    const sim = this.sim;
    const latencyNs = this.accessNs;
    const rejected = (detail: string): MaintenanceResult<void> => ({ ok: false, reason: 'rejected', detail: `${register}: ${detail}`, latencyNs });
    const configured = register === 'gridShape' || sim.regDims[r] > 0;
    if (!configured) return rejected('write gridShape first: the other registers are read by it');
    try {
      switch (register) {
        case 'gridShape':
          sim.setShape(r, value);
          break;
        case 'coordinates':
          sim.setCoordinates(r, value);
          break;
        case 'portMap':
          sim.setPortMap(r, value);
          break;
        case 'redundantMap':
          sim.setRedundantMap(r, value);
          break;
        case 'vcMap':
          sim.setVcMap(r, value);
          break;
        case 'bufferSplit':
          sim.setSplit(r, value);
          break;
        case 'portMask':
          if (value.length !== sim.ports || !value.every((v) => v === 0 || v === 1)) return rejected(`one bit a port (${sim.ports}), each 0 or 1`);
          sim.mask.set(value, r * sim.ports);
          break;
        case 'detourVia':
          sim.setDetourVia(r, value);
          break;
        case 'excludedIntermediates':
          sim.setExcluded(r, value);
          break;
        case 'routingMode':
          if (value.length !== 2 || !(value[1] === 0 || value[1] === 1)) return rejected('[mode, allocator (0 greedy, 1 sequential)]');
          sim.setMode(r, value[0], value[1] === 1);
          break;
        case 'routerIdentity':
        case 'channelStates':
          return rejected('read only');
        default:
          return { ok: false, reason: 'no-such-register', detail: `a flattened butterfly router has no register "${register}"`, latencyNs };
      }
    } catch (error) {
      if (error instanceof RangeError) return rejected(error.message);
      throw error;
    }
    return { ok: true, value: undefined, latencyNs: latencyNs * Math.max(1, Math.ceil(value.length / 64)) };
  }
}
