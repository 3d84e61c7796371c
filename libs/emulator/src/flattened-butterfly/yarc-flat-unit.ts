/**
 * The flattened butterfly on a YARC-class chip, as a deployed machine would run it (issue 38; spec
 * §3.2(c), §4.2): YARC's datapath and link layer (yarc-fabric-sim.ts — tiles, row buses,
 * subswitches, column channels, LCBs with go-back-N, 64 ports at 3 lanes) with a flattened-butterfly
 * routing unit in place of the 8-entry table lookup, which cannot express a dimension of more
 * than 9 routers (fabric-model on-yarc.ts: yarcTableFit).
 *
 * The unit routes by its registers — the grid's shape, the router's coordinates, each terminal's
 * port and, for each dimension and coordinate, the ports towards that router (two where a spare
 * port doubles the channel, Fig. 14(a)) — in dimension order (the lowest dimension in which the
 * router differs from the destination's first), on the packet's own VC: YARC's two VCs are its
 * request and response classes and a packet keeps its VC end to end, and dimension order needs one
 * a class (on-yarc.ts: yarcRoutingRefusal says which algorithms need more). A packet with the
 * adaptive bit takes the datapath's own §7.8.3 choice between a channel and its double; without it
 * the destination picks one, so a flow keeps its order.
 *
 * `programYarcFlat` writes the registers from the cabling the chips' link training found, as the
 * control plane would from discovery; `yarcFlatDesign` makes the fabric: a k-ary n-flat design
 * (flat-design.ts) on YARC routers, a processor of one injection port on each terminal port.
 */
import {
  CableSpec,
  ChipSpec,
  FabricDesign,
  FLAT_PACKAGING,
  FlatGrid,
  FlatSpareUse,
  flatGridOf,
  generateFlatDesign,
  PortRole,
  yarcPortsFit,
} from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { YarcFabricSim } from '../yarc/yarc-fabric-sim';
import { nthSetBit, popcount32, ROUTE_ADAPTIVE, ROUTE_NO_MATCH, ROUTE_PORT, RouteDecision, YarcRoutingUnit } from '../yarc/yarc-routing';
import { PORTS, PORT_DOWNLINK, PORT_SIDELINK } from '../yarc/yarc-constants';

const { floor } = Math;
const NPORTS = PORTS;

/** A processor on a YARC-class flattened butterfly: one injection port, cabled to its router's terminal port. */
export const YARC_FLAT_PROCESSOR_MODEL = 'FB-processor';

/** The k-ary n-flat on YARC routers (64 ports, the rest spare or doubling channels), processors `p0` … on the terminal ports. */
export function yarcFlatDesign(k: number, n: number, spareUse: FlatSpareUse = 'unused'): FabricDesign {
  const flat = generateFlatDesign({ k, n, radix: NPORTS, spareUse, packaging: FLAT_PACKAGING });
  const grid = flatGridOf(flat);
  const tooWide = yarcPortsFit(grid);
  if (tooWide) throw new RangeError(tooWide);
  const yarcRole = (role: PortRole): PortRole => (role === 'terminal' ? 'down' : role === 'dimension' ? 'side' : role);
  const routers: ChipSpec[] = flat.chips.map((c) => ({ ...c, model: 'YARC', portRoles: c.portRoles.map(yarcRole) }));
  const processors: ChipSpec[] = [];
  const injection: CableSpec[] = [];
  routers.forEach((router, r) => {
    for (let t = 0; t < k; t++) {
      const p = r * k + t;
      processors.push({
        name: `p${p}`,
        kind: 'endpoint',
        model: YARC_FLAT_PROCESSOR_MODEL,
        slice: -1,
        rank: 0,
        portCount: 1,
        processor: p,
        portRoles: ['injection'],
        virtualRouterOf: [0],
      });
      injection.push({
        a: { chip: `p${p}`, port: 0 },
        b: { chip: router.name, port: t },
        cableClass: 'injection',
        lengthMeters: 1,
        rateGbps: flat.cables[0]?.rateGbps ?? 6.25,
        lanes: flat.cables[0]?.lanes ?? 3,
      });
    }
  });
  return {
    family: 'flattened-butterfly',
    chips: [...routers, ...processors],
    cables: [...injection, ...flat.cables],
    summary: { ...flat.summary, chip: 'YARC', processors: processors.length },
  };
}

/** Most dimensions the unit's registers describe. */
const MAXD = 16;

export class YarcFlatUnit implements YarcRoutingUnit {
  readonly k: number;
  readonly dimensions: number;
  /** Per dimension: its size, the router-number step, where its rows start in a router's port map. */
  private readonly size = new Int32Array(MAXD);
  private readonly step = new Int32Array(MAXD);
  private readonly base = new Int32Array(MAXD);
  private readonly mapWidth: number;
  /** Per router and dimension: the router's coordinate. */
  readonly coordinates: Int32Array;
  /** Per router and terminal: the port it is cabled to (-1: none). */
  readonly terminalPort: Int16Array;
  /** Per router and (dimension, coordinate): the ports towards that router, as a 64-bit mask in two words. */
  readonly portsLo: Uint32Array;
  readonly portsHi: Uint32Array;

  constructor(
    readonly grid: FlatGrid,
    routers: number,
  ) {
    this.k = grid.k;
    this.dimensions = grid.sizes.length;
    if (this.dimensions > MAXD) throw new RangeError(`the routing unit describes at most ${MAXD} dimensions`);
    let step = 1;
    let base = 0;
    grid.sizes.forEach((s, d) => {
      this.size[d] = s;
      this.step[d] = step;
      this.base[d] = base;
      step *= s;
      base += s;
    });
    this.mapWidth = base;
    this.coordinates = new Int32Array(routers * MAXD);
    this.terminalPort = new Int16Array(routers * grid.k).fill(-1);
    this.portsLo = new Uint32Array(routers * base);
    this.portsHi = new Uint32Array(routers * base);
  }

  /** Router r's registers: its coordinates, its terminals' ports, and each (dimension, coordinate)'s ports. */
  program(r: number, coordinates: readonly number[], terminalPorts: readonly number[], towards: readonly (readonly number[])[]): void {
    coordinates.forEach((c, d) => (this.coordinates[r * MAXD + d] = c));
    terminalPorts.forEach((p, t) => (this.terminalPort[r * this.k + t] = p));
    towards.forEach((ports, slot) => {
      let lo = 0;
      let hi = 0;
      for (const p of ports) {
        if (p < 32) lo |= 1 << p;
        else hi |= 1 << (p - 32);
      }
      this.portsLo[r * this.mapWidth + slot] = lo >>> 0;
      this.portsHi[r * this.mapWidth + slot] = hi >>> 0;
    });
  }

  route(r: number, _inPort: number, destination: number, adaptive: boolean, out: RouteDecision): void {
    const k = this.k;
    const dr = floor(destination / k);
    out.entry = -1;
    out.goingDown = false;
    if (dr === r) {
      const port = this.terminalPort[r * k + destination - dr * k];
      out.kind = port < 0 ? ROUTE_NO_MATCH : ROUTE_PORT;
      out.port = port;
      out.portCount = port < 0 ? 0 : 1;
      out.goingDown = true;
      return;
    }
    // Dimension order: the lowest dimension in which this router's coordinate differs.
    for (let d = 0; d < this.dimensions; d++) {
      const c = floor(dr / this.step[d]) % this.size[d];
      if (c === this.coordinates[r * MAXD + d]) continue;
      const slot = r * this.mapWidth + this.base[d] + c;
      const lo = this.portsLo[slot];
      const hi = this.portsHi[slot];
      const count = popcount32(lo) + popcount32(hi);
      out.portsLo = lo;
      out.portsHi = hi;
      out.portCount = count;
      if (count === 0) out.kind = ROUTE_NO_MATCH;
      else if (adaptive && count > 1) out.kind = ROUTE_ADAPTIVE;
      else {
        out.kind = ROUTE_PORT;
        out.port = nthSetBit(lo, hi, destination % count);
      }
      return;
    }
    out.kind = ROUTE_NO_MATCH;
  }
}

/**
 * The unit's registers for every router of `sim`, from the cabling its link training found (each
 * port's far end), as the control plane writes them from discovery; the ports' directions for the
 * datapath's own bookkeeping (terminal ports down, dimension ports side). Sets the sim's routing unit.
 */
export function programYarcFlat(sim: YarcFabricSim, grid: FlatGrid): YarcFlatUnit {
  const fabric = sim.fabric;
  const chips = fabric.design.chips;
  const R = sim.routerChip.length;
  const unit = new YarcFlatUnit(grid, R);
  const width = grid.sizes.reduce((a, b) => a + b, 0);
  for (let r = 0; r < R; r++) {
    const chip = sim.routerChip[r];
    const own = chips[chip].coordinates;
    if (!own) throw new Error(`router ${fabric.chipNames[chip]} has no coordinates in the design`);
    const terminals = new Array<number>(grid.k).fill(-1);
    const towards: number[][] = Array.from({ length: width }, () => []);
    for (let p = 0; p < NPORTS; p++) {
      const peer = fabric.peer[fabric.portBase[chip] + p];
      if (peer < 0) continue;
      const processor = sim.globalProcessor[peer];
      if (processor >= 0) {
        terminals[processor - r * grid.k] = p;
        sim.regs.portDirection[r * NPORTS + p] = PORT_DOWNLINK;
        continue;
      }
      const far = chips[sim.routerChip[floor(sim.globalRouterPort[peer] / NPORTS)]].coordinates!;
      const differing = own.map((c, d) => (c === far[d] ? -1 : d)).filter((d) => d >= 0);
      if (differing.length !== 1) continue; // not a flattened butterfly channel: never routed to
      const d = differing[0];
      towards[grid.sizes.slice(0, d).reduce((a, b) => a + b, 0) + far[d]].push(p);
      sim.regs.portDirection[r * NPORTS + p] = PORT_SIDELINK;
    }
    unit.program(r, own, terminals, towards);
  }
  sim.routingUnit = unit;
  return unit;
}

/** A YARC-class k-ary n-flat, emulated and its routing unit programmed. */
export function yarcFlatFabric(k: number, n: number, options: { readonly spareUse?: FlatSpareUse; readonly seed?: number } = {}): YarcFabricSim {
  const design = yarcFlatDesign(k, n, options.spareUse);
  const sim = new YarcFabricSim(new EmulatedFabric(design), options.seed ?? 1);
  programYarcFlat(sim, flatGridOf(design));
  return sim;
}
