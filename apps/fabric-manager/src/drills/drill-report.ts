/**
 * A drill report as people read it: text for the terminal, and an SVG plot of throughput and
 * latency over emulated time with the faults and the pushes marked.
 */
import type { DrillReport } from './drill-runner.service';

const us = (ns: number | null) => (ns === null ? '—' : `${(ns / 1000).toFixed(1)} µs`);

export function renderDrillText(r: DrillReport): string {
  const lines: string[] = [];
  lines.push(
    `drill ${r.drill}: ${r.passed ? 'PASSED' : 'FAILED'}  (fabric #${r.fabric.id}, ${r.fabric.fixture}; ${(r.wallMs / 1000).toFixed(1)} s of wall time)`,
  );
  if (r.description) lines.push(`  ${r.description}`);
  lines.push('', 'expectations:');
  for (const e of r.expectations) lines.push(`  ${e.passed ? 'pass' : 'FAIL'}  ${e.name}: expected ${e.expected}, got ${e.actual}`);
  lines.push('', 'timeline (emulated time):');
  for (const t of r.timeline) lines.push(`  ${us(t.atNs).padStart(11)}  ${t.label}`);
  if (r.endNs > r.durationNs) lines.push(`  ${us(r.endNs).padStart(11)}  traffic stopped, past the end of ${us(r.durationNs)}: a healing push came after it`);
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
    `traffic: ${t.pattern}, offered ${t.offered}, accepted ${t.accepted.toFixed(3)} of capacity; latency mean ${t.latency.meanNs.toFixed(0)} ns, p99 ${t.latency.p99Ns.toFixed(0)} ns, max ${t.latency.maxNs.toFixed(0)} ns`,
    `books: ${b.injected} injected = ${b.delivered} delivered + ${discarded || '0'} discarded + ${b.inFlight} in flight — ${b.balanced ? 'balanced' : 'NOT BALANCED'}`,
    `busiest links: ${t.utilisation.busiest
      .slice(0, 4)
      .map((l) => `${l.chip}:${l.port} ${(l.utilisation * 100).toFixed(1)}%`)
      .join(', ')}`,
  );
  return lines.join('\n') + '\n';
}

/** Throughput (accepted fraction) and mean latency per interval, with markers for faults (red) and pushes (blue). */
export function renderDrillPlot(r: DrillReport): string {
  const width = 800;
  const height = 360;
  const left = 60;
  const right = 60;
  const top = 30;
  const plotHeight = 260;
  const series = r.traffic.series;
  const endNs = Math.max(1, ...series.map((p) => p.cycle * 1.25), ...r.timeline.map((t) => t.atNs));
  const x = (ns: number) => left + ((width - left - right) * ns) / endNs;
  const maxAccepted = Math.max(0.001, ...series.map((p) => p.accepted));
  const maxLatency = Math.max(1, ...series.map((p) => p.meanLatencyCycles * 1.25));
  const yThroughput = (a: number) => top + plotHeight * (1 - a / maxAccepted);
  const yLatency = (ns: number) => top + plotHeight * (1 - ns / maxLatency);
  const path = (points: [number, number][]) => points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
  const throughput = path(series.map((p) => [x(p.cycle * 1.25), yThroughput(p.accepted)]));
  const latency = path(series.filter((p) => p.delivered > 0).map((p) => [x(p.cycle * 1.25), yLatency(p.meanLatencyCycles * 1.25)]));
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const markers = [
    ...r.timeline.map((t) => ({ ns: t.atNs, label: t.label, colour: '#c0392b' })),
    ...r.generations.filter((g) => g.pushedAtNs !== null).map((g) => ({ ns: g.pushedAtNs!, label: `generation ${g.generation} pushed`, colour: '#2e86c1' })),
  ];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<title>${escape(`drill ${r.drill}: throughput and latency`)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="18" font-size="13">${escape(`drill ${r.drill} — ${r.passed ? 'passed' : 'FAILED'}`)}</text>`,
    `<line x1="${left}" y1="${top + plotHeight}" x2="${width - right}" y2="${top + plotHeight}" stroke="#333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotHeight}" stroke="#333"/>`,
    `<line x1="${width - right}" y1="${top}" x2="${width - right}" y2="${top + plotHeight}" stroke="#333"/>`,
    `<text x="${left - 6}" y="${top + 4}" text-anchor="end">${maxAccepted.toFixed(3)}</text>`,
    `<text x="${left - 6}" y="${top + plotHeight}" text-anchor="end">0</text>`,
    `<text x="${width - right + 6}" y="${top + 4}">${maxLatency.toFixed(0)} ns</text>`,
    `<text x="${width - right + 6}" y="${top + plotHeight}">0</text>`,
    `<text x="${left}" y="${top + plotHeight + 16}">0</text>`,
    `<text x="${width - right}" y="${top + plotHeight + 16}" text-anchor="end">${(endNs / 1000).toFixed(0)} µs (emulated)</text>`,
    ...markers.map(
      (m) =>
        `<g><line x1="${x(m.ns).toFixed(1)}" y1="${top}" x2="${x(m.ns).toFixed(1)}" y2="${top + plotHeight}" stroke="${m.colour}" stroke-dasharray="4 3"/><title>${escape(`${m.label} at ${(m.ns / 1000).toFixed(1)} µs`)}</title></g>`,
    ),
    `<path d="${throughput}" fill="none" stroke="#1e8449" stroke-width="1.5"/>`,
    `<path d="${latency}" fill="none" stroke="#7d3c98" stroke-width="1.5"/>`,
    `<text x="${left}" y="${height - 14}" fill="#1e8449">— accepted throughput (left axis)</text>`,
    `<text x="${left + 230}" y="${height - 14}" fill="#7d3c98">— mean latency (right axis)</text>`,
    `<text x="${left + 430}" y="${height - 14}" fill="#c0392b">┆ drill step</text>`,
    `<text x="${left + 520}" y="${height - 14}" fill="#2e86c1">┆ generation pushed</text>`,
    '</svg>',
  ];
  return parts.join('\n') + '\n';
}
