// The fabric picture (issue 39): sigma.js draws the graph in WebGL, which keeps a fabric of tens of
// thousands of chips and cables interactive where SVG cannot; the layout is the family's, read
// from the API (fabricPicture), and the colours are the states it reports.
import Graph from 'graphology';
import Sigma from 'sigma';
import { interpolateYlOrRd } from 'd3-scale-chromatic';
import type { FabricPicture } from './api';

const CHIP_COLOURS: Record<string, string> = {
  discovered: '#4a78b5',
  expected: '#9aa7b8',
  missing: '#d98a1f',
  unexpected: '#8d5bb5',
  faulty: '#d33a2c',
};
const CABLE_COLOURS: Record<string, string> = {
  discovered: '#b8c4d4',
  expected: '#d6dde6',
  missing: '#d98a1f',
  unexpected: '#8d5bb5',
  faulty: '#d33a2c',
};
const ROUTE_COLOUR = '#17a34a';

/** Where a load lies on a heat map's scale from `low` to `high` (0 to 1; the middle where they are equal). */
export function heatFraction(load: number, low: number, high: number): number {
  return high > low ? Math.min(1, Math.max(0, (load - low) / (high - low))) : 0.5;
}

/** The heat map's colour at a fraction of its scale. */
export const heatColour = (f: number): string => interpolateYlOrRd(0.15 + 0.85 * f);

export interface Selection {
  readonly kind: 'chip' | 'cable';
  readonly index: number;
}

/**
 * An opened cell's chips and their neighbours keep their rows, but each row is spread across the
 * same width, so that a few chips of a wide fabric do not stand in a thin column.
 */
function spreadRows(p: FabricPicture): number[] {
  const rows = new Map<number, number[]>();
  p.chipY.forEach((y, i) => rows.set(y, [...(rows.get(y) ?? []), i]));
  const widest = Math.max(...[...rows.values()].map((r) => r.length));
  const height = Math.max(1, Math.max(...p.chipY) - Math.min(...p.chipY));
  const width = Math.max(widest, 2 * height);
  const x = new Array<number>(p.chipX.length);
  for (const row of rows.values()) {
    row.sort((a, b) => p.chipX[a] - p.chipX[b]);
    row.forEach((i, k) => (x[i] = ((k + 0.5) * width) / row.length));
  }
  return x;
}

export class PictureView {
  private readonly graph = new Graph({ multi: true, type: 'undirected' });
  private readonly sigma: Sigma;
  private route = new Set<number>();
  private loaded = new Set<number>();

  constructor(
    container: HTMLElement,
    private picture: FabricPicture,
    private readonly onSelect: (s: Selection) => void,
    onFirstRender: () => void,
    onOpen: (i: number) => void = () => undefined,
  ) {
    const p = picture;
    const endpoints = p.chipKinds.filter((k) => k === 'endpoint').length;
    const small = p.chipNames.length > 4000;
    // A cell's mark and a bundle's line grow with what they stand for.
    const markSize = (i: number) => (p.aggregated ? 2 + Math.log2(p.chipSizes[i]) : p.chipKinds[i] === 'endpoint' ? (endpoints > 1000 ? 1 : 2) : small ? 2 : 4);
    const x = p.cell === null ? p.chipX : spreadRows(p);
    for (let i = 0; i < p.chipNames.length; i++)
      this.graph.addNode(String(i), { x: x[i], y: p.chipY[i], size: markSize(i), color: CHIP_COLOURS[p.chipStates[i]] ?? '#666', label: p.chipNames[i] });
    for (let j = 0; j < p.cableA.length; j++) {
      if (p.cableA[j] === p.cableB[j]) continue; // cables within one cell: the cell's mark stands for them
      const size = p.aggregated ? 0.5 + Math.log2(p.cableCounts[j]) / 2 : 1;
      this.graph.addEdgeWithKey(String(j), String(p.cableA[j]), String(p.cableB[j]), { size, color: CABLE_COLOURS[p.cableStates[j]] ?? '#ccc' });
    }
    this.sigma = new Sigma(this.graph, container, {
      enableEdgeEvents: true,
      hideEdgesOnMove: p.cableA.length > 20000,
      labelRenderedSizeThreshold: p.aggregated ? 16 : 8,
      zIndex: true,
    });
    this.sigma.once('afterRender', onFirstRender);
    this.sigma.scheduleRefresh();
    this.sigma.on('clickNode', ({ node }) => this.onSelect({ kind: 'chip', index: Number(node) }));
    // A double click opens what a mark stands for (a cell of a large fabric), in place of zooming.
    this.sigma.on('doubleClickNode', (e) => {
      if (!p.aggregated) return;
      e.preventSigmaDefault();
      onOpen(Number(e.node));
    });
    this.sigma.on('clickEdge', ({ edge }) => this.onSelect({ kind: 'cable', index: Number(edge) }));
  }

  /** New states (after a fault, a push): recolours in place. */
  update(picture: FabricPicture): void {
    this.picture = picture;
    picture.chipStates.forEach((s, i) => this.graph.setNodeAttribute(String(i), 'color', CHIP_COLOURS[s] ?? '#666'));
    picture.cableStates.forEach((s, j) => {
      if (this.graph.hasEdge(String(j))) this.graph.setEdgeAttribute(String(j), 'color', this.route.has(j) ? ROUTE_COLOUR : (CABLE_COLOURS[s] ?? '#ccc'));
    });
  }

  /**
   * A heat map: each cable with a load coloured from pale yellow to dark red and thicker, the scale
   * spanning the loads shown (`low` to `high`; issue 54: on a torus under uniform traffic every load
   * lay between 1.0 and 1.46 of an injection link, and a scale from zero coloured them all red).
   */
  showLoads(loads: ReadonlyMap<number, number>, low: number, high: number): void {
    this.clearLoads();
    this.loaded = new Set(loads.keys());
    for (const [j, load] of loads) {
      if (!this.graph.hasEdge(String(j))) continue;
      const f = heatFraction(load, low, high);
      this.graph.mergeEdgeAttributes(String(j), { color: heatColour(f), size: 1 + 3 * f });
    }
  }

  clearLoads(): void {
    for (const j of this.loaded)
      if (this.graph.hasEdge(String(j))) this.graph.mergeEdgeAttributes(String(j), { color: CABLE_COLOURS[this.picture.cableStates[j]] ?? '#ccc', size: 1 });
    this.loaded = new Set();
  }

  /** Draws a route: its cables green and thick. */
  showRoute(cables: readonly number[]): void {
    for (const j of this.route) this.graph.mergeEdgeAttributes(String(j), { color: CABLE_COLOURS[this.picture.cableStates[j]] ?? '#ccc', size: 1 });
    this.route = new Set(cables);
    for (const j of cables) this.graph.mergeEdgeAttributes(String(j), { color: ROUTE_COLOUR, size: 4 });
  }

  loadedCables(): number[] {
    return [...this.loaded];
  }

  routeCables(): number[] {
    return [...this.route];
  }

  /** Cable j's ends on the screen, relative to the picture's container. */
  private cableEnds(j: number): [{ x: number; y: number }, { x: number; y: number }] {
    const a = this.graph.getNodeAttributes(String(this.picture.cableA[j]));
    const b = this.graph.getNodeAttributes(String(this.picture.cableB[j]));
    return [this.sigma.graphToViewport({ x: a.x, y: a.y }), this.sigma.graphToViewport({ x: b.x, y: b.y })];
  }

  /**
   * The point of cable j on the screen (relative to the picture's container) farthest from every
   * other cable and chip, where a click picks it and nothing else (for automation and tests).
   */
  clearPoint(j: number): { x: number; y: number } {
    const [a, b] = this.cableEnds(j);
    const others: [number, number, number, number][] = [];
    for (let k = 0; k < this.picture.cableA.length; k++) {
      if (k === j) continue;
      const [c, d] = this.cableEnds(k);
      others.push([c.x, c.y, d.x, d.y]);
    }
    const distance = (px: number, py: number, [x1, y1, x2, y2]: [number, number, number, number]) => {
      const dx = x2 - x1;
      const dy = y2 - y1;
      const t = Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy || 1)));
      return Math.hypot(px - x1 - t * dx, py - y1 - t * dy);
    };
    let best = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    let bestClear = -1;
    for (let t = 0.05; t < 0.96; t += 0.01) {
      const x = a.x + (b.x - a.x) * t;
      const y = a.y + (b.y - a.y) * t;
      let clear = Math.min(Math.hypot(x - a.x, y - a.y), Math.hypot(x - b.x, y - b.y));
      for (const o of others) clear = Math.min(clear, distance(x, y, o));
      if (clear > bestClear) {
        bestClear = clear;
        best = { x, y };
      }
    }
    return best;
  }

  chipPoint(i: number): { x: number; y: number } {
    const a = this.graph.getNodeAttributes(String(i));
    return this.sigma.graphToViewport({ x: a.x, y: a.y });
  }

  /** Zooms in by `factor` at once; resolves with the milliseconds until the picture is drawn again. */
  zoom(factor: number): Promise<number> {
    const began = performance.now();
    const drawn = new Promise<number>((resolve) => this.sigma.once('afterRender', () => resolve(performance.now() - began)));
    const camera = this.sigma.getCamera();
    camera.setState({ ratio: camera.ratio / factor });
    return drawn;
  }

  kill(): void {
    this.sigma.kill();
  }
}
