/**
 * The fabric's state lives in shared memory (SharedArrayBuffer), so that its independent parts can
 * run on threads of their own over the same arrays (parallel/part-threads.ts). A typed array over shared
 * memory reads and writes as fast as one over private memory; only what one thread keeps for itself
 * (scratch space, see StageQueue.sortReady) is private.
 */

interface TypedArrayType<T> {
  new (buffer: SharedArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
}

/** A zeroed typed array of `length` elements over shared memory. */
export function shared<T>(type: TypedArrayType<T>, length: number): T {
  return new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));
}

/** A typed array over shared memory holding `values`. */
export function sharedFrom<T extends { set(values: ArrayLike<number>): void }>(type: TypedArrayType<T>, values: ArrayLike<number>): T {
  const array = shared(type, values.length);
  array.set(values);
  return array;
}
