import { AsyncLocalStorage } from 'node:async_hooks';
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

/**
 * Units of heavy work under way at once, taking turns slice by slice, and of them at most one a
 * client's: a client's own requests wait for each other, never for another client's (issue 54: a
 * 6 ms generationDiff waited 158.7 s behind another client's channel load, first come first served).
 */
export const HEAVY_WORK_AT_ONCE = 4;
const HEAVY_WORK_PER_CLIENT = 1;

/** When the event loop was last given back, by any heavy work. */
let sliceStart = performance.now();

/** Heavy work given up because its client went away (the HTTP request was closed before its answer). */
export class HeavyWorkCancelled extends Error {}

interface Unit {
  readonly start: () => void;
}

/** Each client's units waiting, first come first served, and the clients in the order they take turns. */
const waiting = new Map<string, Unit[]>();
const turns: string[] = [];
const runningFor = new Map<string, number>();
let running = 0;
/** The unit whose code runs now (takeTurn reads its cancellation). */
const current = new AsyncLocalStorage<{ signal?: AbortSignal }>();

export interface HeavyWorkOptions {
  /** Whose work it is (an API key's id): clients take turns, one unit each at a time. */
  readonly client?: string;
  /** Aborted when the client no longer waits for the answer: the work stops at its next turn. */
  readonly signal?: AbortSignal;
}

/**
 * Runs heavy work (a resolver's decoding, a diff, an analysis, a report drawn) fairly: up to
 * HEAVY_WORK_AT_ONCE units at once, one a client's, the clients taking turns round robin, each unit
 * giving the event loop back once it has held it for SLICE_MS (takeTurn) — so that resolvers started
 * together (a query's aliases, a list's items) do not all run in one turn of the loop, every other
 * request and health probe waits a slice at most, and one client's long analysis does not hold up
 * another's short one. Work whose client went away stops at its next turn (HeavyWorkCancelled).
 */
export function heavyWork<T>(work: () => Promise<T> | T, options: HeavyWorkOptions = {}): Promise<T> {
  const client = options.client ?? '';
  return new Promise<T>((resolve, reject) => {
    const start = () => {
      if (options.signal?.aborted) {
        reject(new HeavyWorkCancelled('the client went away before its turn'));
        return void setImmediate(dispatch);
      }
      running++;
      runningFor.set(client, (runningFor.get(client) ?? 0) + 1);
      current
        .run({ signal: options.signal }, () => Promise.resolve().then(work))
        .then(resolve, reject)
        .finally(() => {
          running--;
          runningFor.set(client, runningFor.get(client)! - 1);
          dispatch();
        });
    };
    const queue = waiting.get(client);
    if (queue) queue.push({ start });
    else {
      waiting.set(client, [{ start }]);
      turns.push(client);
    }
    dispatch();
  });
}

/** Starts waiting units while there is room, the next client in turn first. */
function dispatch(): void {
  for (let looked = 0; running < HEAVY_WORK_AT_ONCE && looked < turns.length;) {
    const client = turns.shift()!;
    const queue = waiting.get(client)!;
    if ((runningFor.get(client) ?? 0) >= HEAVY_WORK_PER_CLIENT) {
      turns.push(client);
      looked++;
      continue;
    }
    const unit = queue.shift()!;
    if (queue.length > 0) turns.push(client);
    else waiting.delete(client);
    looked = 0;
    // Started in a turn of its own once the slice is spent (a unit that finished may have held it).
    if (performance.now() - sliceStart <= SLICE_MS) unit.start();
    else {
      running++;
      runningFor.set(client, (runningFor.get(client) ?? 0) + 1);
      setImmediate(() => {
        running--;
        runningFor.set(client, runningFor.get(client)! - 1);
        sliceStart = performance.now();
        unit.start();
      });
    }
  }
}

/** Within one unit of heavy work: gives the event loop back once the slice is spent, and stops the unit if its client went away. */
export async function takeTurn(): Promise<void> {
  if (performance.now() - sliceStart > SLICE_MS) {
    await nextTurn();
    sliceStart = performance.now();
  }
  if (current.getStore()?.signal?.aborted) throw new HeavyWorkCancelled('the client went away: the work was given up');
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
