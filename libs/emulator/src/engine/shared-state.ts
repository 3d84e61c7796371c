/**
 * A fabric's state, handed from one thread to another (parallel/part-threads.ts). The typed arrays are in
 * shared memory (shared-memory.ts), so handing one over hands over a view of the same memory; what
 * is not — a count, a free-list head, a map of traces — is copied. The receiving thread has built
 * the same objects from the same design; it takes the state over field by field, in place, so that
 * the objects keep their identity (a store stays the store its queues point at).
 *
 * Objects of the classes registered here are walked field by field; each may name fields that stay
 * its thread's own (a part's binding, scratch space, callbacks are never handed over). A field
 * holding an object of any other class is an error: a new kind of state must say how it travels.
 */

/** A walked object's fields, as handed over (structured-clonable). */
export type SharedState = { readonly [field: string]: unknown };

const WALKED = new Map<object, ReadonlySet<string>>();
const NESTED = '__walked';

/** Objects of `type` are walked field by field; `own` fields stay each thread's own (with those its walked ancestors name). */
export function walkedState(type: abstract new (...args: never[]) => object, own: readonly string[] = []): void {
  WALKED.set(type.prototype as object, new Set(own));
}

/** The fields of `value` that stay its thread's own — its class's and every walked ancestor's —
 * or undefined when its class is not walked. */
function ownFields(value: object): ReadonlySet<string> | undefined {
  let proto = Object.getPrototypeOf(value) as object | null;
  const own = proto === null ? undefined : WALKED.get(proto);
  if (own === undefined) return undefined;
  const all = new Set(own);
  for (proto = Object.getPrototypeOf(proto) as object | null; proto !== null; proto = Object.getPrototypeOf(proto) as object | null)
    for (const field of WALKED.get(proto) ?? []) all.add(field);
  return all;
}

/** The state of `value` (an object of a walked class), to hand to another thread. */
export function exportState(value: object, path = value.constructor.name): SharedState {
  const own = ownFields(value);
  if (own === undefined) throw new Error(`${path}: a ${value.constructor.name} is not walked state (see walkedState)`);
  const out: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(value)) {
    if (own.has(field) || typeof v === 'function') continue;
    out[field] = exportValue(v, `${path}.${field}`);
  }
  return out;
}

function exportValue(v: unknown, path: string): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (ArrayBuffer.isView(v)) {
    // Not instanceof: memory that came from another thread may be of another realm's constructor.
    if (Object.prototype.toString.call(v.buffer) !== '[object SharedArrayBuffer]')
      throw new Error(`${path}: a typed array of a fabric's state must be in shared memory`);
    return v;
  }
  if (ownFields(v) !== undefined) return { [NESTED]: exportState(v, path) };
  if (Array.isArray(v)) return v.map((item: unknown, i) => exportValue(item, `${path}[${i}]`));
  // A map or a plain object is copied (by tag and constructor name: it may be of another realm).
  const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null;
  if (Object.prototype.toString.call(v) === '[object Map]' || proto === null || proto.constructor?.name === 'Object') return v;
  throw new Error(`${path}: a ${v.constructor.name} is not walked state (see walkedState)`);
}

/** Takes over `state` (from exportState of an object built the same way) into `value`, in place. */
export function importState(value: object, state: SharedState): void {
  const target = value as Record<string, unknown>;
  for (const [field, v] of Object.entries(state)) target[field] = importValue(target[field], v);
}

function importValue(current: unknown, v: unknown): unknown {
  if (v !== null && typeof v === 'object' && NESTED in v) {
    importState(current as object, (v as Record<string, SharedState>)[NESTED]);
    return current;
  }
  if (Array.isArray(v) && Array.isArray(current) && current.length === v.length) {
    for (let i = 0; i < v.length; i++) current[i] = importValue(current[i], v[i]);
    return current;
  }
  return v;
}
