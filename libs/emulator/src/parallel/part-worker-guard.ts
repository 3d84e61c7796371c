/**
 * Imported first by the part worker: however the thread ends — a module that fails to load, an
 * error nothing caught, memory run out — the main thread, which waits on the control word without
 * an event loop (part-threads.ts), learns that it has stopped instead of waiting for ever.
 */
import { workerData } from 'node:worker_threads';

const { control } = workerData as { control: Int32Array };
process.on('exit', () => {
  Atomics.store(control, 1, 1);
  Atomics.notify(control, 0);
});
