/**
 * The cost and power of a network (paper 003 §4, §5.3; spec §3.7): routers, channels by kind and
 * length, dollars and watts per node, for the flattened butterfly and — at the same number of
 * terminals, on the same routers — the folded Clos (Cray BlackWidow's topology), the conventional
 * butterfly and the hypercube, as §4.3 compares them.
 *
 * Counting (§4.3: "with N = 1K network, the folded Clos requires 2048 links while the flattened
 * butterfly requires 31 × 32 = 992"): a link is a channel one way, the ports a router spends on other
 * routers; a channel carries `signalsPerChannel` differential signals (Table 3: 3 pairs a port), each
 * costed by where it runs (Table 2) and powered by one SerDes (Table 5).
 *
 * Lengths (§4.2, Table 3): the floor's edge E = √(N/D); every cable gains 2 m of vertical run.
 * Flattened butterfly and butterfly global cables average E/3, the folded Clos's E/4 (to a central
 * router cabinet), the hypercube's (E − 1)/log₂E; a flattened butterfly's dimension 1 is backplane
 * within a cabinet and short cables between the few cabinets of its subsystem (a third of their
 * span on average, plus the overhead). Terminal links are backplane in every topology. Past 6 m a
 * cable takes repeaters (§4.1), each further 6-m segment costing the cable's overhead again.
 *
 * Power (§5.3, Table 5): 40 W a router switch; a signal on a global cable 200 mW; on a local link
 * driven by a global SerDes (the indirect networks, whose routers cannot tell) 160 mW; on a backplane
 * link with a SerDes dedicated to it (the direct networks: flattened butterfly, hypercube) 40 mW.
 *
 * What the paper leaves open is a setting printed with the report: signals a channel, the
 * repeater segment, the dimension-1 cable rule, the hypercube router's cost and power (scaled by the
 * ports it uses, footnote 10 "based on the number of pins required"), the folded Clos's levels
 * (the fewest whose 2·(radix/2)^levels reaches N).
 */
import { FlatDesignParams, flatLayout } from './flat-design';
import { flatRouterCount, sizeFlattenedButterfly } from './flat-topology';

export interface CostAssumptions {
  /** Table 3: ports a router. */
  readonly radix: number;
  /** Table 2: $90 of silicon and $300 of development a router. */
  readonly routerDollars: number;
  /** Table 2: $1.95 a backplane signal. */
  readonly backplaneDollarsPerSignal: number;
  /** Table 2: $3.72 + $0.81 a metre, a cable signal. */
  readonly cableDollarsPerSignal: number;
  readonly cableDollarsPerSignalMeter: number;
  /** §4.1, footnote 7: 6 m driven at full rate; a repeater a further segment (its cost the cable overhead, $3.72). */
  readonly repeaterSegmentMeters: number;
  /** Table 3: 3 differential pairs a port, a channel's signals (not stated per direction: weft's reading). */
  readonly signalsPerChannel: number;
  /** Table 3. */
  readonly nodesPerCabinet: number;
  readonly nodesPerSquareMeter: number;
  readonly cableOverheadMeters: number;
  readonly cabinetWidthMeters: number;
  /** Table 5. */
  readonly switchWatts: number;
  readonly globalSignalWatts: number;
  readonly localSignalWatts: number;
  readonly backplaneSignalWatts: number;
}

export const PAPER_COST_ASSUMPTIONS: CostAssumptions = {
  radix: 64,
  routerDollars: 390,
  backplaneDollarsPerSignal: 1.95,
  cableDollarsPerSignal: 3.72,
  cableDollarsPerSignalMeter: 0.81,
  repeaterSegmentMeters: 6,
  signalsPerChannel: 3,
  nodesPerCabinet: 128,
  nodesPerSquareMeter: 75,
  cableOverheadMeters: 2,
  cabinetWidthMeters: 0.57,
  switchWatts: 40,
  globalSignalWatts: 0.2,
  localSignalWatts: 0.16,
  backplaneSignalWatts: 0.04,
};

export type Topology = 'flattened butterfly' | 'folded Clos' | 'butterfly' | 'hypercube';
export const TOPOLOGIES: readonly Topology[] = ['flattened butterfly', 'folded Clos', 'butterfly', 'hypercube'];

export type LinkKind = 'terminal' | 'backplane' | 'cable';

export interface LinkGroup {
  /** What the channels join: terminals to routers, or routers to routers on a backplane or a cable. */
  readonly kind: LinkKind;
  /** Where in the topology (`dimension 1`, `level 1–2`, …). */
  readonly where: string;
  readonly channels: number;
  /** Average length of a cable (overhead included); 0 on a backplane. */
  readonly meters: number;
  /** Repeaters a channel's signal passes. */
  readonly repeaters: number;
  readonly dollars: number;
  readonly watts: number;
}

export interface TopologyCost {
  readonly topology: Topology;
  /** In a few words: `32-ary 2-flat`, `2-level folded Clos`. */
  readonly shape: string;
  readonly terminals: number;
  readonly routers: number;
  /** Channels between routers, one a direction. */
  readonly interRouterChannels: number;
  readonly links: readonly LinkGroup[];
  readonly routerDollars: number;
  readonly linkDollars: number;
  readonly dollarsPerNode: number;
  readonly switchWatts: number;
  readonly linkWatts: number;
  readonly wattsPerNode: number;
}

type SerdesUse = 'dedicated' | 'shared';

/** One group of channels costed: `meters` 0 for a backplane. */
function linkGroup(a: CostAssumptions, kind: LinkKind, where: string, channels: number, meters: number, serdes: SerdesUse): LinkGroup {
  const signals = channels * a.signalsPerChannel;
  if (kind !== 'cable') {
    const watts = signals * (serdes === 'dedicated' ? a.backplaneSignalWatts : a.localSignalWatts);
    return { kind, where, channels, meters: 0, repeaters: 0, dollars: signals * a.backplaneDollarsPerSignal, watts };
  }
  const repeaters = Math.max(0, Math.ceil(meters / a.repeaterSegmentMeters) - 1);
  const perSignal = a.cableDollarsPerSignal * (1 + repeaters) + a.cableDollarsPerSignalMeter * meters;
  return { kind, where, channels, meters, repeaters, dollars: signals * perSignal, watts: signals * a.globalSignalWatts };
}

function total(
  a: CostAssumptions,
  topology: Topology,
  shape: string,
  terminals: number,
  routerFraction: number,
  routers: number,
  links: LinkGroup[],
): TopologyCost {
  const routerDollars = routers * a.routerDollars * routerFraction;
  const linkDollars = links.reduce((s, l) => s + l.dollars, 0);
  const switchWatts = routers * a.switchWatts * routerFraction;
  const linkWatts = links.reduce((s, l) => s + l.watts, 0);
  return {
    topology,
    shape,
    terminals,
    routers,
    interRouterChannels: links.filter((l) => l.kind !== 'terminal').reduce((s, l) => s + l.channels, 0),
    links: links.filter((l) => l.channels > 0),
    routerDollars,
    linkDollars,
    dollarsPerNode: (routerDollars + linkDollars) / terminals,
    switchWatts,
    linkWatts,
    wattsPerNode: (switchWatts + linkWatts) / terminals,
  };
}

/** §4.2: the edge of the cabinet floor, √(N/D). */
export function floorEdgeMeters(a: CostAssumptions, terminals: number): number {
  return Math.sqrt(terminals / a.nodesPerSquareMeter);
}

/** Whether the whole network stands in one cabinet, every link a backplane one. */
const oneCabinet = (a: CostAssumptions, terminals: number): boolean => terminals <= a.nodesPerCabinet;

/** Terminal links, both ways, on the backplane of the terminals' own cabinet. */
const terminalLinks = (a: CostAssumptions, terminals: number, serdes: SerdesUse): LinkGroup => linkGroup(a, 'terminal', 'terminals', 2 * terminals, 0, serdes);

/**
 * The flattened butterfly for N terminals on radix-`radix` routers, sized as §5.1.2 does; where N
 * is below the sizing's capacity, the last dimension holds only the routers N needs.
 */
export function flattenedButterflyCost(a: CostAssumptions, terminals: number): TopologyCost {
  const { k, dimensions } = sizeFlattenedButterfly(a.radix, terminals);
  const routers = Math.ceil(terminals / k);
  const sizes: number[] = [];
  for (let d = 1, below = 1; d <= dimensions; d++) {
    const size = d < dimensions ? Math.min(k, Math.ceil(routers / below)) : Math.ceil(routers / below);
    sizes.push(size);
    below *= size;
  }
  const shape = `${k}-ary ${dimensions + 1}-flat${sizes.every((s) => s === k) ? '' : ` of ${sizes.join('×')} routers`}`;
  return flatCost(a, terminals, k, sizes, shape);
}

function flatCost(a: CostAssumptions, terminals: number, k: number, sizes: readonly number[], shape: string): TopologyCost {
  const routers = Math.ceil(terminals / k);
  const links: LinkGroup[] = [terminalLinks(a, terminals, 'dedicated')];
  const perCabinet = Math.max(1, Math.floor(a.nodesPerCabinet / k));
  // Dimension 1: backplane among the routers of a cabinet; between the cabinets of its subsystem,
  // cables a third of the subsystem's span long on average, plus the overhead.
  const s1 = sizes[0];
  const local = routers * (Math.min(perCabinet, s1) - 1);
  const cabinets = Math.ceil(s1 / perCabinet);
  links.push(linkGroup(a, 'backplane', 'dimension 1', local, 0, 'dedicated'));
  links.push(
    linkGroup(a, 'cable', 'dimension 1', routers * (s1 - 1) - local, ((cabinets + 1) / 3) * a.cabinetWidthMeters + a.cableOverheadMeters, 'dedicated'),
  );
  const global = routers * sizes.slice(1).reduce((s, size) => s + size - 1, 0);
  const where = sizes.length > 2 ? `dimensions 2–${sizes.length}` : 'dimension 2';
  if (oneCabinet(a, terminals)) links.push(linkGroup(a, 'backplane', where, global, 0, 'dedicated'));
  else links.push(linkGroup(a, 'cable', where, global, floorEdgeMeters(a, terminals) / 3 + a.cableOverheadMeters, 'dedicated'));
  return total(a, 'flattened butterfly', shape, terminals, 1, routers, links);
}

/**
 * The folded Clos of radix-`radix` routers (§4.3, Fig. 9(a)): the fewest levels L with (radix/2)^L
 * ≥ N — §4.3: "increasing the network size from 1K to 2K nodes with radix-64 routers requires
 * adding an additional stage" (a top level using all its ports downwards would reach 2·(radix/2)^L,
 * 2K on two levels: not the paper's Clos; issue 57); levels below the top have N/(radix/2) routers
 * (half their ports down), the top N/radix; N channels up and N down between each pair of levels,
 * cabled to a central router cabinet.
 */
export function foldedClosCost(a: CostAssumptions, terminals: number): TopologyCost {
  const half = a.radix / 2;
  let levels = 1;
  while (half ** levels < terminals) levels++;
  const routers = (levels - 1) * Math.ceil(terminals / half) + Math.ceil(terminals / a.radix);
  const links: LinkGroup[] = [terminalLinks(a, terminals, 'shared')];
  for (let l = 1; l < levels; l++) {
    const where = `levels ${l}–${l + 1}`;
    if (oneCabinet(a, terminals)) links.push(linkGroup(a, 'backplane', where, 2 * terminals, 0, 'shared'));
    else links.push(linkGroup(a, 'cable', where, 2 * terminals, floorEdgeMeters(a, terminals) / 4 + a.cableOverheadMeters, 'shared'));
  }
  return total(a, 'folded Clos', `${levels}-level folded Clos`, terminals, 1, routers, links);
}

/**
 * The conventional butterfly (§4.3): ⌈log_radix N⌉ stages of radix×radix routers (each port's two
 * directions used as one input and one output), N channels between each pair of stages, cabled as
 * the flattened butterfly's global ones (§4.2: "the same").
 */
export function butterflyCost(a: CostAssumptions, terminals: number): TopologyCost {
  let stages = 1;
  while (a.radix ** stages < terminals) stages++;
  const routers = stages * Math.ceil(terminals / a.radix);
  const links: LinkGroup[] = [terminalLinks(a, terminals, 'shared')];
  for (let s = 1; s < stages; s++) {
    const where = `stages ${s}–${s + 1}`;
    if (oneCabinet(a, terminals)) links.push(linkGroup(a, 'backplane', where, terminals, 0, 'shared'));
    else links.push(linkGroup(a, 'cable', where, terminals, floorEdgeMeters(a, terminals) / 3 + a.cableOverheadMeters, 'shared'));
  }
  return total(a, 'butterfly', `${stages}-stage butterfly`, terminals, 1, routers, links);
}

/**
 * The hypercube (§4.3, Fig. 9(b)): a router a node, ⌈log₂N⌉ dimensions, no concentration; the
 * dimensions within a cabinet on its backplane, the rest cables averaging (E − 1)/log₂E. A router
 * costs and draws in proportion to the ports it uses (footnote 10).
 */
export function hypercubeCost(a: CostAssumptions, terminals: number): TopologyCost {
  const dimensions = Math.ceil(Math.log2(terminals));
  const inCabinet = Math.min(dimensions, Math.floor(Math.log2(a.nodesPerCabinet)));
  const edge = floorEdgeMeters(a, terminals);
  const links: LinkGroup[] = [terminalLinks(a, terminals, 'dedicated')];
  links.push(linkGroup(a, 'backplane', `dimensions 1–${inCabinet}`, terminals * inCabinet, 0, 'dedicated'));
  const global = dimensions - inCabinet;
  const meters = edge > 1 ? (edge - 1) / Math.log2(edge) : 0;
  links.push(linkGroup(a, 'cable', `dimensions ${inCabinet + 1}–${dimensions}`, terminals * global, meters + a.cableOverheadMeters, 'dedicated'));
  return total(a, 'hypercube', `${dimensions}-cube`, terminals, (dimensions + 1) / a.radix, terminals, links);
}

/** The four topologies at N terminals, side by side (§4.3, Fig. 11, Fig. 15). */
export function compareNetworkCosts(terminals: number, a: CostAssumptions = PAPER_COST_ASSUMPTIONS): TopologyCost[] {
  if (!(Number.isInteger(terminals) && terminals >= 2 && terminals <= 1 << 20))
    throw new RangeError(`a cost report is for 2 to ${1 << 20} terminals, got ${terminals}`);
  return [flattenedButterflyCost(a, terminals), foldedClosCost(a, terminals), butterflyCost(a, terminals), hypercubeCost(a, terminals)];
}

/**
 * A flattened butterfly design costed cable by cable from its own packaging (flat-design.ts):
 * every channel at its length, with the repeaters it needs, rather than the floor-edge averages.
 */
export function flatDesignCost(p: FlatDesignParams, a: CostAssumptions = PAPER_COST_ASSUMPTIONS): TopologyCost {
  const layout = flatLayout(p);
  const routers = flatRouterCount(layout.grid);
  const terminals = routers * p.k;
  const groups = new Map<string, { kind: LinkKind; where: string; channels: number; meters: number; repeaters: number; dollars: number; watts: number }>();
  const add = (g: LinkGroup): void => {
    const key = `${g.kind} ${g.where}`;
    const sum = groups.get(key) ?? { kind: g.kind, where: g.where, channels: 0, meters: 0, repeaters: 0, dollars: 0, watts: 0 };
    sum.meters = (sum.meters * sum.channels + g.meters * g.channels) / (sum.channels + g.channels);
    sum.repeaters = (sum.repeaters * sum.channels + g.repeaters * g.channels) / (sum.channels + g.channels);
    sum.channels += g.channels;
    sum.dollars += g.dollars;
    sum.watts += g.watts;
    groups.set(key, sum);
  };
  add(terminalLinks(a, terminals, 'dedicated'));
  for (const cable of layout.cables) {
    const where = `dimension ${cable.dimension}${cable.redundant ? ' (redundant)' : ''}`;
    add(linkGroup(a, cable.backplane ? 'backplane' : 'cable', where, 2, cable.backplane ? 0 : cable.lengthMeters, 'dedicated'));
  }
  const shape = `${p.k}-ary ${p.n}-flat${layout.grid.sizes.some((s) => s !== p.k) ? ` (${layout.grid.sizes.join('×')} routers)` : ''}`;
  return total(a, 'flattened butterfly', shape, terminals, 1, routers, [...groups.values()]);
}

/** What the paper leaves open, as the report prints it beside the figures. */
export function costAssumptionNotes(a: CostAssumptions): string[] {
  return [
    `routers of radix ${a.radix} at $${a.routerDollars} ($90 of silicon + $300 of development, Table 2), ${a.switchWatts} W each (Table 5)`,
    `a channel (one direction of a link, as §4.3 counts them) carries ${a.signalsPerChannel} differential signals (Table 3's pairs a port), each on its own SerDes`,
    `signals: backplane $${a.backplaneDollarsPerSignal}; cable $${a.cableDollarsPerSignal} + $${a.cableDollarsPerSignalMeter}/m, a repeater every ${a.repeaterSegmentMeters} m beyond the first segment costing the $${a.cableDollarsPerSignal} overhead again (Table 2, Fig. 7); no optical links (§4.1)`,
    `packaging: ${a.nodesPerCabinet} nodes a cabinet, ${a.nodesPerSquareMeter} nodes/m², floor edge E = √(N/D), every cable +${a.cableOverheadMeters} m (Table 3)`,
    "backplane: every terminal link; a flattened butterfly's dimension-1 channels within a cabinet; the hypercube's dimensions within a cabinet; everything in a one-cabinet network",
    `cable lengths: flattened butterfly and butterfly global E/3, folded Clos E/4, hypercube (E − 1)/log₂E (§4.2); a flattened butterfly's dimension-1 cables a third of its subsystem's run of ${a.cabinetWidthMeters}-m cabinets`,
    `power a signal: ${a.globalSignalWatts * 1000} mW on a cable, ${a.localSignalWatts * 1000} mW on a local link of an indirect network, ${a.backplaneSignalWatts * 1000} mW on a backplane link with a dedicated SerDes (direct networks; Table 5)`,
    'the folded Clos has the fewest levels whose (radix/2)^levels reaches N (§4.3: a third stage from 1K to 2K); the butterfly ⌈log_radix N⌉ stages; the hypercube one router a node, its cost and switch power scaled by the ports it uses (footnote 10)',
  ];
}

export interface CostCurvePoint {
  readonly terminals: number;
  readonly topology: Topology;
  readonly dollarsPerNode: number;
  readonly wattsPerNode: number;
}

export interface CostReport {
  readonly terminals: number;
  /** A flattened butterfly design costed cable by cable, where the report is for one. */
  readonly design?: TopologyCost;
  /** The paper's model at this N: the four topologies. */
  readonly topologies: readonly TopologyCost[];
  /** Cost and power per node of the four from 128 to 64K terminals (Fig. 11, Fig. 15). */
  readonly curve: readonly CostCurvePoint[];
  readonly assumptions: CostAssumptions;
  readonly notes: readonly string[];
}

/** The report for N terminals, or for a flattened butterfly design (at its N). */
export function costReport(
  of: { readonly terminals: number } | { readonly design: FlatDesignParams },
  a: CostAssumptions = PAPER_COST_ASSUMPTIONS,
): CostReport {
  const design = 'design' in of ? flatDesignCost(of.design, a) : undefined;
  const terminals = design ? design.terminals : (of as { terminals: number }).terminals;
  const curve: CostCurvePoint[] = [];
  for (let n = 128; n <= 65_536; n *= 2)
    for (const t of compareNetworkCosts(n, a))
      curve.push({ terminals: n, topology: t.topology, dollarsPerNode: t.dollarsPerNode, wattsPerNode: t.wattsPerNode });
  return { terminals, design, topologies: compareNetworkCosts(terminals, a), curve, assumptions: a, notes: costAssumptionNotes(a) };
}

/** Fig. 11 and Fig. 15 as one Vega-Lite specification: cost and power per node against N, a line per topology, the report's N marked. */
export function costPlotSpec(r: CostReport): Record<string, unknown> {
  const x = {
    field: 'terminals',
    type: 'quantitative',
    title: 'terminals (N)',
    scale: { type: 'log', base: 2 },
    axis: { values: r.curve.filter((p, i) => i % 8 === 0).map((p) => p.terminals) },
  };
  const color = { field: 'topology', type: 'nominal', scale: { domain: [...TOPOLOGIES] }, legend: { orient: 'bottom', title: null } };
  const panel = (field: string, title: string) => ({
    width: 360,
    height: 240,
    layer: [
      { mark: { type: 'line', point: true }, encoding: { x, y: { field, type: 'quantitative', title }, color } },
      {
        data: { values: [{ terminals: r.terminals }] },
        mark: { type: 'rule', strokeDash: [4, 3], color: '#555' },
        encoding: { x: { field: 'terminals', type: 'quantitative' } },
      },
    ],
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    background: 'white',
    padding: 8,
    title: { text: `network cost and power per node (paper 003 §4.3, §5.3), N = ${r.terminals} marked`, anchor: 'start' },
    data: { values: r.curve.map((p) => ({ ...p })) },
    hconcat: [panel('dollarsPerNode', 'cost per node ($)'), panel('wattsPerNode', 'power per node (W)')],
  };
}
