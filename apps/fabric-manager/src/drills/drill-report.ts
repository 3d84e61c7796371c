/**
 * A drill report as people read it: text for the terminal, and an SVG plot of throughput and
 * latency over emulated time with the faults and the pushes marked.
 */
import { renderVegaLiteSvg } from '../plots/vega-lite-svg';
import { NS_PER_CYCLE } from '@weft/emulator';
import type { DrillReport } from './drill-runner.service';

const us = (ns: number | null) => (ns === null ? '—' : `${(ns / 1000).toFixed(1)} µs`);

export function renderDrillText(r: DrillReport): string {
  const lines: string[] = [];
  lines.push(
    `drill ${r.drill}: ${r.passed ? 'PASSED' : 'FAILED'}  (fabric #${r.fabric.id}, ${r.fabric.fixture}, ${r.fabric.kept === false ? 'deleted after the run' : 'kept'}; ${(r.wallMs / 1000).toFixed(1)} s of wall time)`,
  );
  if (r.description) lines.push(`  ${r.description}`);
  lines.push('', 'expectations:');
  for (const e of r.expectations) lines.push(`  ${e.passed ? 'pass' : 'FAIL'}  ${e.name}: expected ${e.expected}, got ${e.actual}`);
  lines.push('', 'timeline (emulated time):');
  for (const t of r.timeline) lines.push(`  ${us(t.atNs).padStart(11)}  ${t.label}`);
  if (r.endNs > r.durationNs)
    lines.push(`  ${us(r.endNs).padStart(11)}  traffic stopped, past the end of ${us(r.durationNs)}: a healing push came after it or near it`);
  if (r.interrupts.length > 0) {
    lines.push('', `interrupts (${r.interrupts.length}):`);
    for (const i of r.interrupts.slice(0, 20)) lines.push(`  ${us(i.atNs).padStart(11)}  ${i.kind} ${i.chip ?? '?'}${i.port === null ? '' : `:${i.port}`}`);
    if (r.interrupts.length > 20) lines.push(`  … ${r.interrupts.length - 20} more`);
  }
  if (r.generations.length > 0) {
    lines.push('', "generations the automation computed (each computation's CPU time is charged to emulated time, not its wall time):");
    for (const g of r.generations)
      lines.push(
        `  #${g.generation}: ${g.incremental ? 'incremental' : 'full'}, ${g.chargedMs.toFixed(1)} ms of CPU to compute and verify (${g.computeMs.toFixed(1)} ms of wall time), pushed at ${us(g.pushedAtNs)} (${g.writes ?? 0} writes) — ${g.trigger}`,
      );
  }
  if (r.heal.length > 0) {
    lines.push('', 'time to heal:');
    for (const h of r.heal) lines.push(`  ${us(h.healNs).padStart(11)}  ${h.step} (at ${us(h.faultNs)})`);
  }
  const t = r.traffic;
  const b = t.books;
  const discarded = Object.entries(b.discarded)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  lines.push(
    '',
    `traffic: ${t.pattern}, offered ${t.offered}, accepted ${t.accepted.toPrecision(3)} of capacity; latency mean ${t.latency.meanNs.toFixed(0)} ns, p99 ${t.latency.p99Ns.toFixed(0)} ns, max ${t.latency.maxNs.toFixed(0)} ns`,
    `books: ${b.injected} injected = ${b.delivered} delivered + ${discarded || '0'} discarded + ${b.inFlight} in flight — ${b.balanced ? 'balanced' : 'NOT BALANCED'}`,
    ...discardLines(r),
    ...(t.retransmissions !== undefined ? [`link retransmissions: ${t.retransmissions} (packets the links sent again after a CRC error)`] : []),
    ...(r.declaredCut ? [`pairs declared cut by the faults (their verification proved no route joins them): ${r.declaredCut}`] : []),
    `busiest links: ${t.utilisation.busiest
      .slice(0, 4)
      .map((l) => `${l.chip}:${l.port} ${(l.utilisation * 100).toFixed(1)}%`)
      .join(', ')}`,
  );
  return lines.join('\n') + '\n';
}

/** Each discard's explanation: the step that accounts for it, by reason, and how long it was allowed to. */
function discardLines(r: DrillReport): string[] {
  const d = r.discards;
  if (d.total === 0) return ['discards: none'];
  const lines = [
    d.unexplained === 0
      ? `discards: ${d.total}, every one explained by a fault:`
      : `discards: ${d.total}, ${d.unexplained} NOT EXPLAINED by any fault of the timeline:`,
  ];
  for (const c of d.causes) {
    const reasons = Object.entries(c.byReason)
      .map(([reason, n]) => `${n} ${reason}`)
      .join(', ');
    lines.push(`  ${reasons} — ${c.cause} (${us(c.firstNs)} to ${us(c.lastNs)}; explained until ${c.untilNs === null ? 'the end' : us(c.untilNs)})`);
  }
  for (const x of d.unexplainedExamples.slice(0, 10))
    lines.push(`  NOT EXPLAINED: ${x.count} ${x.reason} at ${x.chip ?? '?'}:${x.port} for processor ${x.destination} (${us(x.firstNs)} to ${us(x.lastNs)})`);
  return lines;
}

/** What a marker on the plot stands for, and its colour. */
const MARKER_KINDS = { 'drill step': '#c0392b', 'generation pushed': '#2e86c1' } as const;

const PLOT_WIDTH = 720;
const PLOT_HEIGHT = 280;
/** Label rows above the plot (the first nearest) for markers close together in time, and the height of each. */
const LABEL_ROWS = 4;
const LABEL_ROW_PX = 13;

/**
 * Throughput (accepted fraction of capacity) and mean latency per interval over emulated time,
 * each against its own axis with ticks, and a labelled rule for each drill step and each pushed
 * generation. Drawn by Vega-Lite (compiled to Vega, rendered to SVG without a browser).
 */
export async function renderDrillPlot(r: DrillReport): Promise<string> {
  // A report stored before the fabric's clock was recorded: the only clock there was then.
  const nsPerCycle = r.nsPerCycle ?? NS_PER_CYCLE;
  const points = r.traffic.series.map((p) => ({
    us: (p.cycle * nsPerCycle) / 1000,
    throughput: p.accepted,
    latencyNs: p.delivered > 0 ? p.meanLatencyCycles * nsPerCycle : null,
  }));
  const endUs = Math.max(r.endNs / 1000, ...points.map((p) => p.us), ...r.timeline.map((t) => t.atNs / 1000));
  const markers = [
    ...r.timeline.map((t) => ({ us: t.atNs / 1000, label: t.label, kind: 'drill step' })),
    ...r.generations
      .filter((g) => g.pushedAtNs !== null)
      .map((g) => ({ us: g.pushedAtNs! / 1000, label: `generation ${g.generation} pushed`, kind: 'generation pushed' })),
  ].sort((a, b) => a.us - b.us);
  const labelled = staggerLabels(markers, endUs);
  const x = { field: 'us', type: 'quantitative', title: 'emulated time (µs)', scale: { domain: [0, endUs], nice: false } } as const;
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: PLOT_WIDTH,
    height: PLOT_HEIGHT,
    padding: 8,
    background: 'white',
    title: { text: `drill ${r.drill} — ${r.passed ? 'passed' : 'FAILED'}`, anchor: 'start', offset: 6 },
    layer: [
      {
        data: { values: points },
        mark: { type: 'line', color: '#1e8449', strokeWidth: 1.5 },
        encoding: {
          x,
          y: {
            field: 'throughput',
            type: 'quantitative',
            title: 'accepted throughput (fraction of capacity)',
            // Two significant digits, not two decimals: a drill at a load of 2e-6 labelled every tick "0%" (issue 54).
            axis: { titleColor: '#1e8449', format: '.2~p' },
            // The throughput in the upper part of the plot, the latency in the lower: apart, whatever their values.
            scale: { zero: true, domainMax: Math.max(1e-6, ...points.map((p) => p.throughput)) * 1.25 },
          },
        },
      },
      {
        data: { values: points.filter((p) => p.latencyNs !== null) },
        mark: { type: 'line', color: '#7d3c98', strokeWidth: 1.5 },
        encoding: {
          x,
          y: {
            field: 'latencyNs',
            type: 'quantitative',
            title: 'mean latency (ns)',
            axis: { orient: 'right', titleColor: '#7d3c98' },
            scale: { zero: true, domainMax: Math.max(1, ...points.map((p) => p.latencyNs ?? 0)) * 2.2 },
          },
        },
      },
      {
        data: { values: labelled },
        layer: [
          {
            mark: { type: 'rule', strokeDash: [4, 3] },
            encoding: {
              x,
              color: {
                field: 'kind',
                type: 'nominal',
                scale: { domain: Object.keys(MARKER_KINDS), range: Object.values(MARKER_KINDS) },
                legend: { title: null, orient: 'bottom', direction: 'horizontal', symbolType: 'stroke', symbolDash: [4, 3], symbolStrokeWidth: 1.5 },
              },
            },
          },
          {
            mark: { type: 'text', align: 'left', dx: 3, fontSize: 10 },
            encoding: {
              x,
              y: { field: 'labelY', type: 'quantitative', scale: null },
              text: { field: 'label' },
              color: { field: 'kind', type: 'nominal' },
            },
          },
        ],
      },
    ],
    resolve: { scale: { y: 'independent' } },
  };
  return renderVegaLiteSvg(spec);
}

/**
 * Gives each marker's label a row above the plot, the first row where it does not run into the
 * label before it (labels are about 5.5 px per character at 10 px), so that a fault and the push
 * that heals it a few microseconds later can both be read.
 */
function staggerLabels<T extends { us: number; label: string }>(markers: readonly T[], endUs: number): (T & { row: number; labelY: number })[] {
  const rowEnds: number[] = new Array<number>(LABEL_ROWS).fill(-Infinity);
  return markers.map((m) => {
    const px = (m.us / endUs) * PLOT_WIDTH;
    let row = rowEnds.findIndex((end) => end < px);
    if (row === -1) row = rowEnds.indexOf(Math.min(...rowEnds));
    rowEnds[row] = px + 6 + m.label.length * 5.5;
    return { ...m, row, labelY: -row * LABEL_ROW_PX - 5 };
  });
}
