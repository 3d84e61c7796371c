/** Entry point of the emulator's worker thread: commands in, replies out. */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { EmulatorHost } from './emulator-host';
import { HostCommand, transferables } from './protocol';

if (!parentPort) throw new Error('emulator-worker must run in a worker thread');
const port = parentPort;
// The emulated fabric is background work beside the control plane and its API: on Linux a thread
// has a niceness of its own, and this one yields the processor to the service's main thread when
// both want it (an operator's query during a drill is answered first).
const nice = (workerData as { nice?: number } | null)?.nice;
if (nice !== undefined && nice !== 0) {
  try {
    setPriority(nice);
  } catch {
    // Not permitted here (a lower niceness needs privileges): the worker runs at the service's.
  }
}
const threads = (workerData as { threads?: number } | null)?.threads ?? 1;
const host = new EmulatorHost((message) => port.postMessage(message, transferables(message)), undefined, threads);
port.on('message', (command: HostCommand) => host.handle(command));
port.postMessage({ type: 'ready' });
