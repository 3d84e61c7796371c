/** Entry point of the emulator's worker thread: commands in, replies out. */
import { parentPort } from 'node:worker_threads';
import { EmulatorHost } from './emulator-host';
import { HostCommand, transferables } from './protocol';

if (!parentPort) throw new Error('emulator-worker must run in a worker thread');
const port = parentPort;
const host = new EmulatorHost((message) => port.postMessage(message, transferables(message)));
port.on('message', (command: HostCommand) => host.handle(command));
port.postMessage({ type: 'ready' });
