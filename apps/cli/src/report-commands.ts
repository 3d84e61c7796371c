// `weft report cost` and `weft report topologies`: paper 003's cost and power report (§4.3, §5.3) and its
// topology comparison (§3.3), offline. Loaded only for those commands.
import { writeFileSync } from 'node:fs';
import {
  CostReport,
  costPlotSpec,
  costReport,
  FABRIC_FAMILY_MODELS,
  FlatDesignParams,
  InstallationFileError,
  loadInstallationFile,
  PAPER_COST_ASSUMPTIONS,
  TopologyCost,
} from '@weft/fabric-model';
import { compareTopologies, COMPARED_NETWORKS, TopologyComparison, topologyComparisonPlotSpec } from '@weft/emulator';
import { renderVegaLiteSvg } from '../../fabric-manager/src/public-api';
import { CliError } from './graphql-client';

export interface CostReportOptions {
  readonly terminals?: number;
  readonly fixture?: string;
  readonly radix: number;
  readonly plot?: string;
  readonly json?: boolean;
}

/** The report as the command prints it (or as JSON), with the plot written where asked. */
export async function costReportCommand(o: CostReportOptions): Promise<string> {
  if ((o.terminals === undefined) === (o.fixture === undefined))
    throw new CliError('give either --terminals <n> or --fixture <file> (a flattened butterfly installation file)');
  const assumptions = { ...PAPER_COST_ASSUMPTIONS, radix: o.radix };
  let report: CostReport;
  let designName: string | undefined;
  if (o.fixture !== undefined) {
    let installation;
    try {
      installation = loadInstallationFile(o.fixture);
    } catch (error) {
      if (error instanceof InstallationFileError) throw new CliError(error.message);
      throw error;
    }
    if (installation.file.family !== 'flattened-butterfly')
      throw new CliError(`${o.fixture} is of the ${installation.file.family} family; the cost report costs flattened butterfly designs (or give --terminals)`);
    const design = installation.file.design as FlatDesignParams;
    designName = `${installation.file.name} (${FABRIC_FAMILY_MODELS['flattened-butterfly'].designName(design)})`;
    report = costReport({ design }, assumptions);
  } else {
    try {
      report = costReport({ terminals: o.terminals! }, assumptions);
    } catch (error) {
      throw new CliError(`--terminals: ${(error as Error).message}`);
    }
  }
  if (o.plot) writeFileSync(o.plot, await renderVegaLiteSvg(costPlotSpec(report)));
  if (o.json) return JSON.stringify(report, null, 2);
  return formatCostReport(report, designName) + (o.plot ? `\nplot of cost and power per node against N: ${o.plot}` : '');
}

const money = (v: number) => v.toFixed(2);

function row(t: TopologyCost): string {
  return [
    t.topology.padEnd(20),
    t.shape.padEnd(32),
    String(t.routers).padStart(7),
    String(t.interRouterChannels).padStart(13),
    money(t.dollarsPerNode).padStart(9),
    t.wattsPerNode.toFixed(2).padStart(8),
  ].join('  ');
}

function linkLines(t: TopologyCost): string[] {
  return t.links.map((l) => {
    const where = `    ${l.where}: ${l.channels} channels`;
    if (l.kind !== 'cable') return `${where} on the backplane, $${money(l.dollars)}, ${l.watts.toFixed(1)} W`;
    const repeaters = l.repeaters > 0 ? `, ${l.repeaters.toFixed(2)} repeaters a channel on average` : '';
    return `${where} on cables averaging ${l.meters.toFixed(2)} m${repeaters}, $${money(l.dollars)}, ${l.watts.toFixed(1)} W`;
  });
}

export function formatCostReport(r: CostReport, designName?: string): string {
  const [flat, clos] = r.topologies;
  const header = [
    'topology'.padEnd(20),
    'shape'.padEnd(32),
    'routers'.padStart(7),
    'router links'.padStart(13),
    '$ / node'.padStart(9),
    'W / node'.padStart(8),
  ].join('  ');
  const lines = [`Network cost and power at ${r.terminals} terminals on radix-${r.assumptions.radix} routers (paper 003 §4.3, §5.3)`, '', header];
  for (const t of r.topologies) lines.push(row(t), ...linkLines(t));
  if (r.design) lines.push('', `The design ${designName ?? ''}, cable by cable from its packaging:`, row(r.design), ...linkLines(r.design));
  const ours = r.design ?? flat;
  lines.push(
    '',
    `Flattened butterfly against folded Clos: ${ours.interRouterChannels} router links against ${clos.interRouterChannels}; ` +
      `${Math.round(100 * (1 - ours.dollarsPerNode / clos.dollarsPerNode))}% less cost and ${Math.round(100 * (1 - ours.wattsPerNode / clos.wattsPerNode))}% less power per node.`,
    '(router links: channels between routers, one a direction, as §4.3 counts them)',
    '',
    'Assumptions:',
    ...r.notes.map((n) => `  - ${n}`),
  );
  return lines.join('\n');
}

export interface TopologyReportOptions {
  readonly pattern: string;
  readonly loads: readonly number[];
  readonly warmup: number;
  readonly window: number;
  readonly seed: number;
  readonly plot?: string;
  readonly json?: boolean;
}

/** Fig. 6 run in the emulator: a table of accepted throughput and latency a pattern, with the plot written where asked. */
export async function topologyReportCommand(o: TopologyReportOptions): Promise<string> {
  const patterns = o.pattern === 'both' ? (['uniform-random', 'adversarial'] as const) : [o.pattern as 'uniform-random' | 'adversarial'];
  const comparison = compareTopologies({ patterns, loads: o.loads, warmupCycles: o.warmup, windowCycles: o.window, seed: o.seed });
  if (o.plot) writeFileSync(o.plot, await renderVegaLiteSvg(topologyComparisonPlotSpec(comparison)));
  if (o.json) return JSON.stringify(comparison, null, 2);
  return formatTopologyComparison(comparison) + (o.plot ? `\nplot of latency against offered load: ${o.plot}` : '');
}

export function formatTopologyComparison(c: TopologyComparison): string {
  const lines = ['Topologies at equal bisection, 1,024 terminals (paper 003 §3.3, Table 1, Fig. 6)', ''];
  for (const n of c.networks) lines.push(`  ${n.network.padEnd(20)} ${n.shape.padEnd(52)} ${n.routing}, ${n.vcs} VC${n.vcs > 1 ? 's' : ''}`);
  const loads = [...new Set(c.points.map((p) => p.offered))];
  for (const pattern of [...new Set(c.points.map((p) => p.pattern))]) {
    lines.push('', `${pattern}: accepted throughput (fraction of capacity) / mean latency (cycles) at each offered load`);
    lines.push(['offered'.padEnd(20), ...loads.map((l) => l.toFixed(2).padStart(17))].join(''));
    for (const network of COMPARED_NETWORKS) {
      const cells = loads.map((offered) => {
        const p = c.points.find((q) => q.pattern === pattern && q.network === network && q.offered === offered)!;
        return `${p.accepted.toFixed(3)} / ${p.meanLatency === null ? '—' : p.meanLatency.toFixed(1)}`.padStart(17);
      });
      lines.push([network.padEnd(20), ...cells].join(''));
    }
  }
  lines.push('', 'Assumptions:', ...c.notes.map((n) => `  - ${n}`));
  return lines.join('\n');
}
