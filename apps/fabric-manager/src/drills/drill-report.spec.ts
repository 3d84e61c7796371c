import { NS_PER_CYCLE } from '@weft/emulator';
import { renderDrillPlot } from './drill-report';
import type { DrillReport } from './drill-runner.service';

/** A drill whose traffic runs at 0.3% of capacity and dips when a cable is cut at 200 µs. */
function cutCableReport(): DrillReport {
  const series = Array.from({ length: 40 }, (_, i) => ({
    cycle: ((i + 1) * 10_000) / NS_PER_CYCLE,
    injected: 100,
    delivered: 95,
    accepted: i === 19 ? 0.0025 : 0.0031,
    meanLatencyCycles: i === 19 ? 560 : 300,
  }));
  return {
    drill: 'cable-cut-under-load',
    passed: true,
    durationNs: 400_000,
    endNs: 400_000,
    timeline: [{ atNs: 200_000, label: 'cut-link s0.r1.2:40' }],
    generations: [{ generation: 2, pushedAtNs: 203_500 }],
    traffic: { series },
  } as unknown as DrillReport;
}

/** The y coordinates of the points of a line mark's path. */
function lineYs(svg: string, layer: number): number[] {
  const path = new RegExp(`class="mark-line role-mark layer_${layer}_marks"[^>]*><path [^>]*d="([^"]+)"`).exec(svg)![1];
  return [...path.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
}

describe('the drill plot', () => {
  it('draws both series inside the plot with room above them, each against its own labelled axis', async () => {
    const svg = await renderDrillPlot(cutCableReport());
    // The plot area is 280 px high: neither line runs along its top edge (y = 0).
    for (const layer of [0, 1]) {
      const ys = lineYs(svg, layer);
      expect(ys.length).toBeGreaterThan(30);
      expect(Math.min(...ys)).toBeGreaterThan(40);
      expect(Math.max(...ys)).toBeLessThan(280);
    }
    // Throughput in the upper part, latency in the lower: the two lines do not cross.
    expect(Math.max(...lineYs(svg, 0))).toBeLessThan(Math.min(...lineYs(svg, 1)));
    expect(svg).toContain(`aria-label="X-axis titled 'emulated time (µs)' for a linear scale with values from 0 to 400"`);
    expect(svg).toMatch(/aria-label="Y-axis titled 'accepted throughput \(fraction of capacity\)' for a linear scale with values from 0% to /);
    expect(svg).toMatch(/aria-label="Y-axis titled 'mean latency \(ns\)' for a linear scale with values from 0 to /);
    // Tick labels on every axis.
    for (const tick of ['>200<', '>0.3%<', '>400<']) expect(svg).toContain(tick);
  });

  it('labels every marker, on rows of its own when they are close in time', async () => {
    const svg = await renderDrillPlot(cutCableReport());
    const labels = [...svg.matchAll(/<text [^>]*transform="translate\(([\d.]+),(-?[\d.]+)\)"[^>]*>(cut-link s0\.r1\.2:40|generation 2 pushed)<\/text>/g)].map(
      (m) => ({ x: Number(m[1]), y: Number(m[2]), text: m[3] }),
    );
    expect(labels.map((l) => l.text).sort()).toEqual(['cut-link s0.r1.2:40', 'generation 2 pushed']);
    expect(labels[0].y).not.toBe(labels[1].y);
    expect(svg).toContain('>drill step<');
    expect(svg).toContain('>generation pushed<');
  });

  it('labels the throughput axis of a drill at a very light load with values, not every tick 0%', async () => {
    const report = cutCableReport();
    const light = { ...report, traffic: { series: report.traffic.series.map((p) => ({ ...p, accepted: p.accepted / 1_000 })) } } as unknown as DrillReport;
    const svg = await renderDrillPlot(light);
    const ticks = [...svg.matchAll(/>([\d.]+%)</g)].map((m) => m[1]);
    expect(ticks.length).toBeGreaterThan(2);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks).toContain('0.0003%');
  });
});
