/**
 * Physical designs of a flattened butterfly (paper 003 §2, §4.2, §5.1.2; spec §3.1): a k-ary n-flat
 * on routers of a given radix, given either by k and n or, as §5.1.2 sizes one, by the router's
 * radix and the terminals wanted.
 *
 * Ports (weft's numbering; the paper numbers none): 0 … k − 1 the terminals, then dimension by
 * dimension the router's peers in coordinate order (its own coordinate skipped), then the spare
 * ports. Spare ports (Fig. 14) are left unused, doubled as redundant channels, or spent on more
 * routers along each dimension — `spareUse`. A router is named by its coordinates, dimension 1
 * first (`r3.15.0`); terminals are ports of their router, not chips of their own.
 *
 * Packaging (§4.2, Fig. 8, Table 3): 128 nodes a cabinet, so ⌊128/k⌋ routers, filled in router
 * order — a dimension-1 subsystem in adjacent cabinets, the higher dimensions across the rows and
 * columns of a near-square layout (Fig. 8(c) maps dimension 2 to columns and 3 to rows of
 * subsystems; weft fills row by row, which keeps any number of dimensions within §4.2's edge E =
 * √(N/D)). Channels within a cabinet are backplane; every other one a cable whose length is the
 * Manhattan distance between the cabinets plus 2 m of vertical run (1 m at each end), cabinets 0.57
 * m wide and rows 2 × 1.44 m apart (the footprint's depth doubled for aisles, as §4.3 does). Each
 * figure is a setting. Cables past 6 m are electrical with repeaters (§4.1): links stay at full
 * rate.
 */
import { FLAT_LANE_GBPS, FLAT_LANES, FLAT_MAX_RADIX, FLAT_MAX_TERMINALS, FLAT_ROUTER_MODEL } from '../chips/flat-router';
import type { CableSpec, ChipSpec, FabricDesign, PortRole } from '../fabric-design';
import { InstallationFileError } from '../installation/installation-error';
import { JsonChecker } from '../installation/json-checker';
import { FlatGrid, flatCoordinates, flatPeer, flatRouterCount, sizeFlattenedButterfly } from './flat-topology';

/** What a router's spare ports do (Fig. 14): nothing, double channels to peers (a), or add routers along each dimension (b). */
export type FlatSpareUse = 'unused' | 'redundant' | 'extend';
export const FLAT_SPARE_USES: readonly FlatSpareUse[] = ['unused', 'redundant', 'extend'];

export interface FlatPackaging {
  /** Table 3: 128, as in Cray BlackWidow. */
  readonly nodesPerCabinet: number;
  /** Table 3's footprint: 0.57 m wide … */
  readonly cabinetWidthMeters: number;
  /** … and 1.44 m deep, doubled for the aisle between rows (§4.3): 2.88 m from row to row. */
  readonly rowPitchMeters: number;
  /** Table 3, §4.3: 2 m a cable, 1 m of vertical run at each end. */
  readonly cableOverheadMeters: number;
  /** A backplane channel's length (§4.1: "typically less than 1m"): weft's setting, 1 m. */
  readonly backplaneMeters: number;
}

export const FLAT_PACKAGING: FlatPackaging = {
  nodesPerCabinet: 128,
  cabinetWidthMeters: 0.57,
  rowPitchMeters: 2 * 1.44,
  cableOverheadMeters: 2,
  backplaneMeters: 1,
};

export interface FlatDesignParams {
  /** Terminals a router (and routers along each dimension before spare ports extend them). */
  readonly k: number;
  /** Digits of a terminal's address: n − 1 router dimensions. */
  readonly n: number;
  /** Ports on the router chip: at least n(k − 1) + 1; any beyond are spare. */
  readonly radix: number;
  readonly spareUse: FlatSpareUse;
  readonly packaging: FlatPackaging;
}

/** One channel pair between two routers, as the packaging places it. */
export interface FlatCable {
  readonly a: number;
  readonly aPort: number;
  readonly b: number;
  readonly bPort: number;
  /** The dimension it runs in (1 … n′). */
  readonly dimension: number;
  /** A second channel between the same two routers, on spare ports (Fig. 14(a)). */
  readonly redundant: boolean;
  /** Both ends in one cabinet: a backplane trace. */
  readonly backplane: boolean;
  readonly lengthMeters: number;
}

/** Where each router, port and cable of a design is: the generator's and the cost report's one reading of the parameters. */
export interface FlatLayout {
  readonly grid: FlatGrid;
  /** Ports a router uses for terminals and peers: k + Σ (size − 1). */
  readonly usedPorts: number;
  /** Router r's cabinet, numbered along the rows. */
  readonly cabinetOf: Int32Array;
  readonly cabinets: number;
  readonly cables: readonly FlatCable[];
}

/** Port of router i (coordinate `own` in dimension d) toward coordinate m of that dimension. */
export function flatPeerPort(grid: FlatGrid, d: number, own: number, m: number): number {
  let port = grid.k;
  for (let e = 1; e < d; e++) port += grid.sizes[e - 1] - 1;
  return port + (m < own ? m : m - 1);
}

/** A design's router grid, from its summary (k and the routers along each dimension). */
export function flatGridOf(design: { readonly summary: Readonly<Record<string, string | number>> }): FlatGrid {
  return { k: Number(design.summary.k), sizes: String(design.summary.sizes).split('×').map(Number) };
}

/** The router grid the parameters give: k along each dimension, plus what `extend` adds. */
export function flatDesignGrid(p: FlatDesignParams): FlatGrid {
  const dimensions = p.n - 1;
  const spare = p.radix - (p.n * (p.k - 1) + 1);
  const extra = p.spareUse === 'extend' ? Math.floor(spare / dimensions) : 0;
  return { k: p.k, sizes: new Array<number>(dimensions).fill(p.k + extra) };
}

export function flatLayout(p: FlatDesignParams): FlatLayout {
  const grid = flatDesignGrid(p);
  const dimensions = grid.sizes.length;
  const routers = flatRouterCount(grid);
  const usedPorts = grid.k + grid.sizes.reduce((s, size) => s + size - 1, 0);
  const pk = p.packaging;
  // §4.2: a cabinet holds ⌊128/k⌋ routers with their terminals, filled in router order (dimension 1
  // fastest, so a dimension-1 subsystem fills adjacent cabinets); the cabinets stand row by row in
  // a layout as near square as the footprint allows, the square whose edge is §4.2's E = √(N/D).
  const routersPerCabinet = Math.max(1, Math.floor(pk.nodesPerCabinet / grid.k));
  const cabinets = Math.ceil(routers / routersPerCabinet);
  const square = Math.min(cabinets, Math.max(1, Math.round(Math.sqrt((cabinets * pk.rowPitchMeters) / pk.cabinetWidthMeters))));
  // A row holds whole dimension-1 subsystems, or a subsystem takes whole rows of equal length.
  const subsystem = Math.ceil(grid.sizes[0] / routersPerCabinet);
  const columns = subsystem <= square ? Math.round(square / subsystem) * subsystem : Math.ceil(subsystem / Math.ceil(subsystem / square));
  const cabinetOf = new Int32Array(routers);
  const x = new Float64Array(routers);
  const y = new Float64Array(routers);
  for (let r = 0; r < routers; r++) {
    const cabinet = Math.floor(r / routersPerCabinet);
    cabinetOf[r] = cabinet;
    x[r] = (cabinet % columns) * pk.cabinetWidthMeters;
    y[r] = Math.floor(cabinet / columns) * pk.rowPitchMeters;
  }
  const cables: FlatCable[] = [];
  const place = (a: number, b: number): { backplane: boolean; lengthMeters: number } => {
    if (cabinetOf[a] === cabinetOf[b]) return { backplane: true, lengthMeters: pk.backplaneMeters };
    const run = Math.abs(x[a] - x[b]) + Math.abs(y[a] - y[b]);
    return { backplane: false, lengthMeters: Math.round((run + pk.cableOverheadMeters) * 100) / 100 };
  };
  for (let a = 0; a < routers; a++) {
    const c = flatCoordinates(grid, a);
    for (let d = 1; d <= dimensions; d++) {
      for (let m = c[d - 1] + 1; m < grid.sizes[d - 1]; m++) {
        const b = flatPeer(grid, a, d, m);
        cables.push({
          a,
          aPort: flatPeerPort(grid, d, c[d - 1], m),
          b,
          bPort: flatPeerPort(grid, d, m, c[d - 1]),
          dimension: d,
          redundant: false,
          ...place(a, b),
        });
      }
    }
    // Fig. 14(a): the r-th spare port doubles the channel in dimension 1 + (r mod n′) to the
    // router whose coordinate there is this one's XOR (1 + ⌊r/n′⌋) — a pairing, so both ends spend
    // the same spare port; where the partner would lie outside the dimension the port stays unused.
    if (p.spareUse === 'redundant') {
      for (let r = 0; usedPorts + r < p.radix; r++) {
        const d = 1 + (r % dimensions);
        const m = c[d - 1] ^ (1 + Math.floor(r / dimensions));
        if (m >= grid.sizes[d - 1] || m < c[d - 1]) continue;
        const b = flatPeer(grid, a, d, m);
        cables.push({ a, aPort: usedPorts + r, b, bPort: usedPorts + r, dimension: d, redundant: true, ...place(a, b) });
      }
    }
  }
  return { grid, usedPorts, cabinetOf, cabinets, cables };
}

/** A router's name: its coordinates, dimension 1 first. */
export function flatRouterName(coordinates: readonly number[]): string {
  return `r${coordinates.join('.')}`;
}

export function generateFlatDesign(params: FlatDesignParams): FabricDesign {
  const checker = new JsonChecker();
  const p = checkFlatDesign(params, checker);
  if (!p) throw new InstallationFileError('design', checker.issues);
  const layout = flatLayout(p);
  const { grid, usedPorts } = layout;
  const routers = flatRouterCount(grid);
  const redundantPorts = new Set(layout.cables.filter((c) => c.redundant).flatMap((c) => [`${c.a}:${c.aPort}`, `${c.b}:${c.bPort}`]));
  const zeros: number[] = new Array<number>(p.radix).fill(0);
  const chips: ChipSpec[] = [];
  for (let r = 0; r < routers; r++) {
    const coordinates = flatCoordinates(grid, r);
    const roles: PortRole[] = [];
    for (let port = 0; port < p.radix; port++)
      roles.push(port < grid.k ? 'terminal' : port < usedPorts || redundantPorts.has(`${r}:${port}`) ? 'dimension' : 'unused');
    chips.push({
      name: flatRouterName(coordinates),
      kind: 'router',
      model: FLAT_ROUTER_MODEL,
      slice: -1,
      rank: 0,
      portCount: p.radix,
      processor: -1,
      portRoles: roles,
      virtualRouterOf: zeros,
      coordinates,
    });
  }
  const cables: CableSpec[] = layout.cables.map((c) => ({
    a: { chip: chips[c.a].name, port: c.aPort },
    b: { chip: chips[c.b].name, port: c.bPort },
    cableClass: 'dimension',
    lengthMeters: c.lengthMeters,
    rateGbps: FLAT_LANE_GBPS,
    lanes: FLAT_LANES,
  }));
  const backplaneChannels = layout.cables.filter((c) => c.backplane).length;
  return {
    family: 'flattened-butterfly',
    chips,
    cables,
    summary: {
      network: `${p.k}-ary ${p.n}-flat`,
      k: p.k,
      dimensions: grid.sizes.length,
      sizes: grid.sizes.join('×'),
      terminals: routers * grid.k,
      routers,
      radix: p.radix,
      spareUse: p.spareUse,
      cabinets: layout.cabinets,
      cables: cables.length - backplaneChannels,
      backplaneChannels,
    },
  };
}

const FIELDS = ['k', 'n', 'radix', 'terminals', 'spareUse', 'packaging'];
const PACKAGING_FIELDS = Object.keys(FLAT_PACKAGING);

/**
 * Checks a design's parameters as an installation file gives them (`$.design`), naming each problem
 * by its JSON path; fills in the defaults. Either `k` and `n` (the radix then defaults to n(k − 1) +
 * 1), or `radix` and `terminals`, which §5.1.2 sizes into the smallest k-ary n-flat reaching them.
 */
export function checkFlatDesign(value: unknown, c: JsonChecker): FlatDesignParams | undefined {
  const d = c.object(value, '$.design', FIELDS);
  if (!d) return undefined;
  const spareUse = d.spareUse === undefined ? 'unused' : c.oneOf(d.spareUse, '$.design.spareUse', FLAT_SPARE_USES);
  const packaging = checkPackaging(d.packaging, c);
  let k: number | undefined;
  let n: number | undefined;
  let radix: number | undefined;
  if (d.k !== undefined || d.n !== undefined) {
    if (d.terminals !== undefined)
      return c.fail('$.design.terminals', 'give either k and n, or radix and terminals (§5.1.2 sizes the network from them), not both');
    k = c.integer(d.k, '$.design.k', 2, FLAT_MAX_RADIX);
    n = c.integer(d.n, '$.design.n', 2, 17);
    if (k === undefined || n === undefined) return undefined;
    const used = n * (k - 1) + 1;
    if (used > FLAT_MAX_RADIX)
      return c.fail('$.design', `a ${k}-ary ${n}-flat needs routers of radix ${used}; weft builds routers of at most ${FLAT_MAX_RADIX} ports`);
    radix = d.radix === undefined ? used : c.integer(d.radix, '$.design.radix', 3, FLAT_MAX_RADIX);
    if (radix !== undefined && radix < used)
      return c.fail('$.design.radix', `a ${k}-ary ${n}-flat needs routers of radix n(k − 1) + 1 = ${used} (eq. (1)), got ${radix}`);
  } else {
    radix = c.integer(d.radix, '$.design.radix', 3, FLAT_MAX_RADIX);
    const terminals = c.integer(d.terminals, '$.design.terminals', 2, FLAT_MAX_TERMINALS);
    if (radix === undefined || terminals === undefined) return undefined;
    try {
      const sized = sizeFlattenedButterfly(radix, terminals);
      k = sized.k;
      n = sized.dimensions + 1;
    } catch (e) {
      return c.fail('$.design', (e as Error).message);
    }
  }
  if (k === undefined || n === undefined || radix === undefined || !spareUse || !packaging) return undefined;
  const p: FlatDesignParams = { k, n, radix, spareUse, packaging };
  const grid = flatDesignGrid(p);
  const terminals = flatRouterCount(grid) * k;
  if (terminals > FLAT_MAX_TERMINALS)
    return c.fail('$.design', `at most ${FLAT_MAX_TERMINALS} terminals (§4.2's 16-ary 4-flat), got ${grid.sizes.join('×')} routers of ${k} = ${terminals}`);
  return p;
}

function checkPackaging(value: unknown, c: JsonChecker): FlatPackaging | undefined {
  if (value === undefined) return FLAT_PACKAGING;
  const o = c.object(value, '$.design.packaging', PACKAGING_FIELDS);
  if (!o) return undefined;
  const field = (key: keyof FlatPackaging, min: number, max: number): number | undefined =>
    o[key] === undefined ? FLAT_PACKAGING[key] : c.number(o[key], `$.design.packaging.${key}`, min, max);
  const nodesPerCabinet =
    o.nodesPerCabinet === undefined ? FLAT_PACKAGING.nodesPerCabinet : c.integer(o.nodesPerCabinet, '$.design.packaging.nodesPerCabinet', 1, 4096);
  const cabinetWidthMeters = field('cabinetWidthMeters', 0.1, 10);
  const rowPitchMeters = field('rowPitchMeters', 0.1, 20);
  const cableOverheadMeters = field('cableOverheadMeters', 0, 20);
  const backplaneMeters = field('backplaneMeters', 0.01, 5);
  if (nodesPerCabinet === undefined || cabinetWidthMeters === undefined || rowPitchMeters === undefined) return undefined;
  if (cableOverheadMeters === undefined || backplaneMeters === undefined) return undefined;
  return { nodesPerCabinet, cabinetWidthMeters, rowPitchMeters, cableOverheadMeters, backplaneMeters };
}

/** A design named in a few words: `32-ary 2-flat` (with `, 5×5 routers` where spare ports extend it). */
export function flatDesignName(p: FlatDesignParams): string {
  const grid = flatDesignGrid(p);
  return grid.sizes.every((s) => s === p.k) ? `${p.k}-ary ${p.n}-flat` : `${p.k}-ary ${p.n}-flat extended to ${grid.sizes.join('×')} routers`;
}
