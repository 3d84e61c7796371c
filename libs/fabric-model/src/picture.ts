/**
 * How each family's fabric is drawn (issue 39: the console reads it from the API, never a
 * family's shape of its own): every chip's place on a plane, from its placement coordinates, and
 * the boxes that group them — BlackWidow as ranks and slices (processors at the bottom, R1 … R3
 * above, each slice a column of its own), tori as planes of the cube (folded, one z-plane beside the
 * next, x across and y up), the flattened butterfly by dimension (dimension 1 across, 2 up, the
 * higher dimensions as blocks side by side). Units are chip pitches; the console scales them.
 */

/** What a layout reads of a chip: the store's (a discovered or unexpected chip too). */
export interface PictureChip {
  readonly name: string;
  readonly kind: string;
  readonly placement: Readonly<Record<string, number>>;
  readonly processor: number;
}

export interface PictureGroup {
  readonly label: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PictureLayout {
  /** Each chip's place, in the order given. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** Each chip's group (index in `groups`). */
  readonly group: Int32Array;
  readonly groups: readonly PictureGroup[];
}

export interface FamilyPicture {
  /** How the picture is laid out, in a sentence for the console's legend. */
  readonly description: string;
  layout(chips: readonly PictureChip[]): PictureLayout;
  /** Two endpoints of the fabric by the names a route trace takes, for the console to suggest (issue 54: it offered BlackWidow's everywhere). */
  traceExamples(chips: readonly PictureChip[]): readonly string[];
}

/** The first and the last of some names (the fabric's first and last endpoints). */
const firstAndLast = (names: readonly string[]): string[] => (names.length === 0 ? [] : [names[0], names[names.length - 1]]);

/** Chips bucketed by a key, each bucket in the order given (by processor number, then name). */
function buckets<K>(chips: readonly PictureChip[], key: (c: PictureChip) => K): Map<K, number[]> {
  const out = new Map<K, number[]>();
  chips.forEach((c, i) => {
    const k = key(c);
    const list = out.get(k);
    if (list) list.push(i);
    else out.set(k, [i]);
  });
  const byNumber = (a: number, b: number) => chips[a].processor - chips[b].processor || chips[a].name.localeCompare(chips[b].name, 'en', { numeric: true });
  for (const list of out.values()) list.sort(byNumber);
  return out;
}

function emptyLayout(n: number): { x: Float64Array; y: Float64Array; group: Int32Array; groups: PictureGroup[] } {
  return { x: new Float64Array(n), y: new Float64Array(n), group: new Int32Array(n).fill(-1), groups: [] };
}

/** Paper 000 §2: processors below, each rank of each slice a row above, slices side by side. */
export const RANKS_AND_SLICES: FamilyPicture = {
  description:
    'ranks and slices: processors along the bottom, then R1, R2 and R3 of each slice above them, one column of routers a slice; sidelinks join routers of one rank',
  layout(chips) {
    const out = emptyLayout(chips.length);
    const rows = buckets(chips, (c) => (c.kind === 'endpoint' ? 'p' : `${c.placement.slice ?? 0}:${c.placement.rank ?? 1}`));
    const slices = [...new Set(chips.filter((c) => c.kind !== 'endpoint').map((c) => c.placement.slice ?? 0))].sort((a, b) => a - b);
    const ranks = [...new Set(chips.filter((c) => c.kind !== 'endpoint').map((c) => c.placement.rank ?? 1))].sort((a, b) => a - b);
    // A slice's column is as wide as its widest rank; a rank's routers spread across it.
    const width = Math.max(1, ...[...rows.entries()].filter(([k]) => k !== 'p').map(([, list]) => list.length));
    const gap = Math.max(2, Math.ceil(width / 16));
    // Rows far enough apart that the whole is about twice as wide as it is high.
    const rowHeight = Math.max(4, Math.ceil((Math.max(1, slices.length) * (width + gap)) / (2 * (ranks.length + 1))));
    slices.forEach((slice, s) => {
      const left = s * (width + gap);
      for (const rank of ranks) {
        const list = rows.get(`${slice}:${rank}`);
        if (!list) continue;
        const g = out.groups.length;
        const y = rank * rowHeight;
        out.groups.push({ label: `slice ${slice} · R${rank}`, x: left - 0.5, y: y - 0.5, width: width, height: 1 });
        const step = width / list.length;
        list.forEach((i, j) => {
          out.x[i] = left + (j + 0.5) * step - 0.5;
          out.y[i] = y;
          out.group[i] = g;
        });
      }
    });
    const processors = rows.get('p');
    if (processors) {
      const total = Math.max(1, slices.length) * (width + gap) - gap;
      const g = out.groups.length;
      out.groups.push({ label: 'processors', x: -0.5, y: -0.5, width: total, height: 1 });
      const step = total / processors.length;
      processors.forEach((i, j) => {
        out.x[i] = (j + 0.5) * step - 0.5;
        out.y[i] = 0;
        out.group[i] = g;
      });
    }
    return out;
  },
  // Paper 000 §7.1: a route runs from processor to processor.
  traceExamples: (chips) => firstAndLast(chips.filter((c) => c.kind === 'endpoint').map((c) => c.name)),
};

/**
 * Where coordinate c of a ring of k goes when the ring is folded (0, k−1, 1, k−2, …): neighbours,
 * the wrap-around pair included, land at most two places apart — the folded torus BG/L is cabled as.
 */
export function foldedPlace(c: number, k: number): number {
  return c < Math.ceil(k / 2) ? 2 * c : 2 * (k - 1 - c) + 1;
}

/** How far the way back of a folded ring is drawn beside its way out, and every other plane above its neighbours. */
const FOLD_TRACK = 0.35;
const PLANE_TRACK = 0.5;

/**
 * A 3-D torus as planes of the cube, each ring folded (issue 54: drawn in coordinate order, the
 * wrap-around links ran as long diagonals across the planes and buried the mesh). Within a z-plane
 * x runs across and y up in folded order, so every link spans at most two places; the way back of a
 * folded ring (its odd places) is drawn a little beside the way out, so that a link two places
 * long passes beside the chip between its ends, not through it. The z ring is folded into two rows
 * of planes — z = 0, 1, … left to right along the top, and back right to left along the bottom — so
 * that every z link, the wrap-around one too, joins planes side by side or one above the other;
 * every other plane of a row sits a little higher, so that its z links do not lie along its rows.
 */
export const TORUS_PLANES: FamilyPicture = {
  description:
    'planes of the cube, each ring folded (0, k−1, 1, k−2, …: wrap-around links as short as the rest, the way back drawn beside the way out): x across and y up within a z-plane; the z-planes in two rows, z = 0 onward along the top and back along the bottom',
  layout(chips) {
    const out = emptyLayout(chips.length);
    const size = (axis: string) => 1 + Math.max(0, ...chips.map((c) => c.placement[axis] ?? 0));
    const X = size('x');
    const Z = size('z');
    const Y = size('y');
    const gap = Math.max(1, Math.ceil(X / 4));
    const perRow = Math.ceil(Z / 2);
    // The top row holds z = 0 … perRow − 1 left to right; the bottom row the rest, right to left.
    const top = Z > 1 ? 1 : 0;
    const column = (z: number) => (z < perRow ? z : Z - 1 - z);
    const left = (z: number) => column(z) * (X + gap);
    const bottom = (z: number) => (z < perRow ? top : 0) * (Y + gap) + (column(z) % 2) * PLANE_TRACK;
    for (let z = 0; z < Z; z++) out.groups.push({ label: `z = ${z}`, x: left(z) - 0.5, y: bottom(z) - 0.5, width: X, height: Y });
    chips.forEach((c, i) => {
      const z = Math.max(0, c.placement.z ?? 0);
      const fx = foldedPlace(c.placement.x ?? 0, X);
      const fy = foldedPlace(c.placement.y ?? 0, Y);
      out.x[i] = left(z) + fx + (fy % 2) * FOLD_TRACK;
      out.y[i] = bottom(z) + fy + (fx % 2) * FOLD_TRACK;
      out.group[i] = z;
    });
    return out;
  },
  // A torus node is its own endpoint: a route runs from node to node.
  traceExamples: (chips) => firstAndLast(chips.map((c) => c.name)),
};

/** The flattened butterfly by dimension: dimension 1 across, 2 up, each setting of the higher ones a block. */
export const FLAT_DIMENSIONS: FamilyPicture = {
  description:
    'by dimension: dimension 1 across and dimension 2 up within a block, one block for each setting of the higher dimensions; every router links to each router of its row and column',
  layout(chips) {
    const out = emptyLayout(chips.length);
    const dims = Math.max(1, ...chips.map((c) => Object.keys(c.placement).filter((k) => /^d\d+$/.test(k)).length));
    const size = (d: number) => 1 + Math.max(0, ...chips.map((c) => c.placement[`d${d}`] ?? 0));
    const across = size(1);
    const up = dims >= 2 ? size(2) : 1;
    const higher: number[] = [];
    for (let d = 3; d <= dims; d++) higher.push(size(d));
    const blocks = higher.reduce((a, b) => a * b, 1);
    const perRow = Math.ceil(Math.sqrt(blocks));
    const gap = Math.max(1, Math.ceil(across / 4));
    for (let b = 0; b < blocks; b++) {
      let rest = b;
      const digits = higher.map((s) => {
        const v = rest % s;
        rest = Math.floor(rest / s);
        return v;
      });
      out.groups.push({
        label: digits.length ? digits.map((v, i) => `d${i + 3} = ${v}`).join(', ') : `${across} × ${up} routers`,
        x: (b % perRow) * (across + gap) - 0.5,
        y: Math.floor(b / perRow) * (up + gap) - 0.5,
        width: across,
        height: up,
      });
    }
    chips.forEach((c, i) => {
      let b = 0;
      for (let d = higher.length - 1; d >= 0; d--) b = b * higher[d] + (c.placement[`d${d + 3}`] ?? 0);
      out.x[i] = (b % perRow) * (across + gap) + (c.placement.d1 ?? 0);
      out.y[i] = Math.floor(b / perRow) * (up + gap) + (c.placement.d2 ?? 0);
      out.group[i] = b;
    });
    return out;
  },
  // Each router's k terminals are named after it (r….t0 … t(k−1)); a route runs between terminals.
  traceExamples: (chips) => firstAndLast(chips.map((c) => c.name)).map((router) => `${router}.t0`),
};

/** Cells a picture group is cut into, at most, when a fabric is drawn aggregated. */
export const CELLS_PER_GROUP = 32;

export interface PictureCells {
  /** Each chip's cell. */
  readonly cellOf: Int32Array;
  /** Per cell: its label (group, first and last chip), place (its chips' centroid), chips and group. */
  readonly labels: readonly string[];
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly size: Int32Array;
  readonly group: Int32Array;
}

/**
 * A large fabric drawn legibly: each group of the layout (a rank of a slice, a plane of the cube,
 * a block of routers) cut into at most CELLS_PER_GROUP cells of neighbouring chips (in the
 * group's rows, bottom to top, left to right), each cell drawn as one mark at its chips' centroid.
 */
export function pictureCells(chips: readonly PictureChip[], layout: PictureLayout): PictureCells {
  const n = chips.length;
  const byGroup = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const g = layout.group[i];
    const list = byGroup.get(g);
    if (list) list.push(i);
    else byGroup.set(g, [i]);
  }
  const cellOf = new Int32Array(n);
  const labels: string[] = [];
  const xs: number[] = [];
  const ys: number[] = [];
  const sizes: number[] = [];
  const groups: number[] = [];
  for (const [g, members] of [...byGroup.entries()].sort((a, b) => a[0] - b[0])) {
    members.sort((a, b) => layout.y[a] - layout.y[b] || layout.x[a] - layout.x[b]);
    const per = Math.ceil(members.length / CELLS_PER_GROUP);
    const label = g >= 0 ? layout.groups[g].label : 'ungrouped';
    for (let start = 0; start < members.length; start += per) {
      const cell = labels.length;
      const run = members.slice(start, start + per);
      let x = 0;
      let y = 0;
      for (const i of run) {
        cellOf[i] = cell;
        x += layout.x[i];
        y += layout.y[i];
      }
      labels.push(run.length === 1 ? `${label}: ${chips[run[0]].name}` : `${label}: ${chips[run[0]].name} … ${chips[run[run.length - 1]].name}`);
      xs.push(x / run.length);
      ys.push(y / run.length);
      sizes.push(run.length);
      groups.push(g);
    }
  }
  return { cellOf, labels, x: Float64Array.from(xs), y: Float64Array.from(ys), size: Int32Array.from(sizes), group: Int32Array.from(groups) };
}

/** How bad a state is, for a cell or a bundle of cables showing its worst. */
export const STATE_SEVERITY: Readonly<Record<string, number>> = { discovered: 0, expected: 1, unexpected: 2, missing: 3, faulty: 4 };
