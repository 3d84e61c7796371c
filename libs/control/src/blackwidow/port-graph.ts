/**
 * The cabling between router ports as integers (STYLE.md: names become dense ids once, at the
 * boundary): for every port of every router of an image, the router port or processor at the far
 * end. Built once per discovered cabling and router list and shared by the fault-entry compiler
 * and the verifier, so that a reaction to one fault does not walk 400,000 cables by name again.
 */
import { FaultSet } from '../faults/fault-set';
import type { RouterImage } from './blackwidow-engine';

export interface GraphCable {
  readonly a: { chip: string; port: number };
  readonly b: { chip: string; port: number };
  readonly lanes: number;
}

export interface PortGraph {
  readonly routerIndex: ReadonlyMap<string, number>;
  /** `ri * 64 + p` → `rj * 64 + q` of the router port at the far end, or -1. */
  readonly farPort: Int32Array;
  /** `ri * 64 + p` → the processor at the far end, or -1. */
  readonly farProcessor: Int32Array;
  /** 1 where a cable with live lanes was discovered. */
  readonly cabled: Uint8Array;
  /** A processor's cable end (`p17:0`) → the router port facing it. */
  readonly facing: ReadonlyMap<string, number>;
}

const graphs = new WeakMap<readonly GraphCable[], { names: readonly string[]; graph: PortGraph }>();

/** Whether `routers` are, in order, the routers named `names`: a loop of string comparisons, where
 * joining 12,000 names into a signature cost each 32K reaction milliseconds. */
function sameNames(names: readonly string[], routers: readonly RouterImage[]): boolean {
  if (names.length !== routers.length) return false;
  for (let i = 0; i < names.length; i++) if (names[i] !== routers[i].name) return false;
  return true;
}

const processorOf = (chip: string) => (/^p(\d+)$/.exec(chip) ? Number(chip.slice(1)) : -1);

export function portGraph(routers: readonly RouterImage[], cables: readonly GraphCable[]): PortGraph {
  const cached = graphs.get(cables);
  if (cached && sameNames(cached.names, routers)) return cached.graph;
  const routerIndex = new Map(routers.map((r, i) => [r.name, i]));
  const farPort = new Int32Array(routers.length * 64).fill(-1);
  const farProcessor = new Int32Array(routers.length * 64).fill(-1);
  const cabled = new Uint8Array(routers.length * 64);
  const facing = new Map<string, number>();
  for (const c of cables) {
    const ra = routerIndex.get(c.a.chip);
    const rb = routerIndex.get(c.b.chip);
    if (ra !== undefined) {
      const k = ra * 64 + c.a.port;
      cabled[k] = c.lanes > 0 ? 1 : 0;
      if (rb !== undefined) farPort[k] = rb * 64 + c.b.port;
      else {
        farProcessor[k] = processorOf(c.b.chip);
        facing.set(`${c.b.chip}:${c.b.port}`, k);
      }
    }
    if (rb !== undefined) {
      const k = rb * 64 + c.b.port;
      cabled[k] = c.lanes > 0 ? 1 : 0;
      if (ra !== undefined) farPort[k] = ra * 64 + c.a.port;
      else {
        farProcessor[k] = processorOf(c.a.chip);
        facing.set(`${c.a.chip}:${c.a.port}`, k);
      }
    }
  }
  const graph = { routerIndex, farPort, farProcessor, cabled, facing };
  graphs.set(cables, { names: routers.map((r) => r.name), graph });
  return graph;
}

/**
 * Ports that may carry traffic: cabled, not faulty at either end, on routers that are not faulty.
 * Faulty ends may be on a router or on a processor.
 */
export function usablePorts(graph: PortGraph, faults: FaultSet = FaultSet.NONE): Uint8Array {
  const usable = Uint8Array.from(graph.cabled);
  const off = (k: number) => {
    usable[k] = 0;
    if (graph.farPort[k] >= 0) usable[graph.farPort[k]] = 0;
  };
  for (const name of faults.routers) {
    const ri = graph.routerIndex.get(name);
    if (ri !== undefined) for (let p = 0; p < 64; p++) off(ri * 64 + p);
  }
  for (const end of faults.ports()) {
    const ri = graph.routerIndex.get(end.chip);
    const k = ri !== undefined ? ri * 64 + end.port : graph.facing.get(`${end.chip}:${end.port}`);
    if (k !== undefined) off(k);
  }
  return usable;
}

export interface VrLayout {
  /** `ri * 64 + tile` → the virtual router (dense, in image order) the tile belongs to, or -1. */
  readonly portVr: Int32Array;
  /** `ri * 64 + p` → the virtual router at the far end of the port, or -1. */
  readonly farVr: Int32Array;
}

const layouts = new WeakMap<PortGraph, { partition: Int32Array; layout: VrLayout }>();

/** Which tiles form which virtual router, as numbers: per router its count of virtual routers and
 * the first tile of each. */
function partitionOf(routers: readonly RouterImage[]): Int32Array {
  let length = 0;
  for (const r of routers) length += 1 + r.virtualRouters.length;
  const partition = new Int32Array(length);
  let i = 0;
  for (const r of routers) {
    partition[i++] = r.virtualRouters.length;
    for (const v of r.virtualRouters) partition[i++] = v.tiles[0];
  }
  return partition;
}

function samePartition(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Dense numbering of the virtual routers of an image and the far virtual router of every port.
 * It depends only on which tiles form which virtual router — the same from one reconfiguration to
 * the next — so it is built once per port graph and partitioning.
 */
export function vrLayout(routers: readonly RouterImage[], graph: PortGraph): VrLayout {
  const partition = partitionOf(routers);
  const cached = layouts.get(graph);
  if (cached && samePartition(cached.partition, partition)) return cached.layout;
  const portVr = new Int32Array(routers.length * 64).fill(-1);
  let n = 0;
  routers.forEach((router, ri) => {
    for (const config of router.virtualRouters) {
      for (const t of config.tiles) portVr[ri * 64 + t] = n;
      n++;
    }
  });
  const farVr = new Int32Array(routers.length * 64).fill(-1);
  for (let k = 0; k < farVr.length; k++) if (graph.farPort[k] >= 0) farVr[k] = portVr[graph.farPort[k]];
  const layout = { portVr, farVr };
  layouts.set(graph, { partition, layout });
  return layout;
}
