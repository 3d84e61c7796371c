import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadInstallationFile, makePattern, sizeSampler } from '@weft/fabric-model';
import { configureR15ByHand, EmulatedFabric, NS_PER_CYCLE, runSweep, SweepReport, YarcFabricSim } from '@weft/emulator';
import { Benchmark } from './harness';

const LOADS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];

/** Mean and p99 latency against offered load, with the saturation load marked: SVG. */
export function renderSweepPlot(sweep: SweepReport, title: string): string {
  const width = 640;
  const height = 380;
  const left = 64;
  const top = 36;
  const w = width - left - 24;
  const h = 280;
  const maxLatency = Math.max(...sweep.points.map((p) => p.p99LatencyCycles * NS_PER_CYCLE));
  const x = (load: number) => left + w * load;
  const y = (ns: number) => top + h * (1 - ns / maxLatency);
  const line = (pick: (p: SweepReport['points'][number]) => number) =>
    sweep.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.load).toFixed(1)},${y(pick(p) * NS_PER_CYCLE).toFixed(1)}`).join(' ');
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="20" font-size="13">${title}</text>`,
    `<line x1="${left}" y1="${top + h}" x2="${left + w}" y2="${top + h}" stroke="#333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + h}" stroke="#333"/>`,
    ...ticks.map((t) => `<text x="${x(t)}" y="${top + h + 16}" text-anchor="middle">${t}</text>`),
    `<text x="${left + w / 2}" y="${top + h + 34}" text-anchor="middle">offered load (fraction of injection capacity)</text>`,
    `<text x="${left - 6}" y="${top + 4}" text-anchor="end">${maxLatency.toFixed(0)} ns</text>`,
    `<text x="${left - 6}" y="${top + h}" text-anchor="end">0</text>`,
    sweep.saturationLoad === null
      ? ''
      : `<line x1="${x(sweep.saturationLoad)}" y1="${top}" x2="${x(sweep.saturationLoad)}" y2="${top + h}" stroke="#c0392b" stroke-dasharray="4 3"/><text x="${x(sweep.saturationLoad) - 4}" y="${top + 12}" text-anchor="end" fill="#c0392b">saturated at ${sweep.saturationLoad}</text>`,
    `<path d="${line((p) => p.meanLatencyCycles)}" fill="none" stroke="#1f618d" stroke-width="2"/>`,
    `<path d="${line((p) => p.p99LatencyCycles)}" fill="none" stroke="#7d3c98" stroke-width="1.5" stroke-dasharray="5 3"/>`,
    ...sweep.points.map((p) => `<circle cx="${x(p.load).toFixed(1)}" cy="${y(p.meanLatencyCycles * NS_PER_CYCLE).toFixed(1)}" r="3" fill="#1f618d"/>`),
    `<text x="${left + 8}" y="${height - 8}" fill="#1f618d">— mean latency</text>`,
    `<text x="${left + 120}" y="${height - 8}" fill="#7d3c98">- - p99 latency</text>`,
    `<text x="${left + 230}" y="${height - 8}">peak accepted: ${sweep.peakAccepted.toFixed(2)} of capacity</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/**
 * Issue 5: latency against offered load on the 288-processor fabric (one slice, uniform random,
 * 4-phit packets) — flat, then a knee near saturation. Writes the plot to data/bench/.
 */
const sweep288: Benchmark = {
  name: 'traffic: latency–load sweep, bw-r1.5-288, uniform random',
  parameters: { fixture: 'bw-r1.5-288', slices: 1, loads: LOADS.join(' ') },
  warmup: 0,
  runs: 1,
  run: async () => {
    const installation = loadInstallationFile(join(__dirname, '../../../fixtures/blackwidow/bw-r1.5-288.json'));
    const started = Date.now();
    const sweep = runSweep(
      () => {
        const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
        configureR15ByHand(sim);
        return sim;
      },
      {
        pattern: makePattern({ kind: 'uniform-random' }, { endpoints: 288 }),
        size: sizeSampler(4, { min: 4, max: 19 }),
        slices: [0],
        seed: 21,
        warmup: { min: 3_000, max: 20_000 },
        sampleCycles: 4_000,
        drainLimit: 20_000,
        interval: 500,
      },
      LOADS,
    );
    const out = join(__dirname, '../../../data/bench');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'sweep-288.svg'), renderSweepPlot(sweep, 'bw-r1.5-288, uniform random, one slice: latency against offered load'));
    writeFileSync(join(out, 'sweep-288.json'), JSON.stringify(sweep, null, 2));
    return { ms: Date.now() - started, saturationLoad: sweep.saturationLoad ?? 0, peakAccepted: sweep.peakAccepted, points: sweep.points.length };
  },
};

export const benchmarks: Benchmark[] = [sweep288];
