import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * What a field costs beyond its place in the query, in the points of the query cost limit
 * (WEFT_MAX_QUERY_COMPLEXITY, 20,000 by default). A plain field is 1 point; a list is its page
 * size times its items (query-complexity.plugin.ts). The fields below do work that their shape
 * does not show — a diff of two whole generations, a router's registers decoded, a report drawn —
 * so they are priced by that work, measured on the 288-processor fabric against a leaf field:
 * aliases cannot multiply them past the limit.
 */
export const OperationCost = {
  /** Two whole configuration images compared register by register. */
  generationDiff: 2_000,
  /** One router's registers decoded, with its generation's image read. */
  routerConfiguration: 200,
  /** A drill report rendered as text, or its plot drawn. */
  drillReportRendering: 500,
  /** The whole schema: every type, field and argument. */
  introspectionSchema: 5_000,
  /** One type of the schema. */
  introspectionType: 100,
  /** A channel-load or channel-dependency analysis: every flow or destination walked through the fabric. */
  channelAnalysis: 5_000,
  /** A cost report: a design's every cable laid out and costed (65,536 terminals: 92K cables), its plot drawn. */
  costReport: 2_000,
  /** A mutation that sweeps, computes, or loads a fabric: each runs to completion before the next. */
  fabricWork: 2_000,
} as const;

/** Work that holds the event loop for longer than this gives it back before going on. */
const SLICE_MS = 8;

/** When the event loop was last given back, by any heavy work. */
let sliceStart = performance.now();

/** Heavy work waiting for its turn, first come first served, and whether a unit is running. */
const waiting: (() => void)[] = [];
let busy = false;

/**
 * Runs heavy work (a resolver's decoding, a diff, a report drawn) one unit at a time, first come
 * first served, giving the event loop back between units once it has been held for SLICE_MS:
 * resolvers started together (a query's aliases, a list's items) would otherwise all run in one
 * turn of the loop, and every other request and health probe would wait for all of them.
 */
export function heavyWork<T>(work: () => Promise<T> | T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => {
      Promise.resolve().then(work).then(resolve, reject).finally(startNext);
    });
    if (!busy) startNext();
  });
}

function startNext(): void {
  const unit = waiting.shift();
  busy = unit !== undefined;
  if (!unit) return;
  if (performance.now() - sliceStart <= SLICE_MS) return unit();
  setImmediate(() => {
    sliceStart = performance.now();
    unit();
  });
}

/** Within one unit of heavy work: gives the event loop back once the slice is spent. */
export async function takeTurn(): Promise<void> {
  if (performance.now() - sliceStart <= SLICE_MS) return;
  await nextTurn();
  sliceStart = performance.now();
}

/** Maps `items` one at a time with takeTurn between them: a computation over every router of a
 * fabric delays other requests by one slice, never by the whole computation. */
export async function mapInSlices<T, R>(items: Iterable<T>, map: (item: T) => R | undefined): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) {
    await takeTurn();
    const mapped = map(item);
    if (mapped !== undefined) out.push(mapped);
  }
  return out;
}
