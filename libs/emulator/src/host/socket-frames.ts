/**
 * The emulator host's messages over a socket (issue 40: the fabric as a process of its own): each
 * message serialized by V8 (the structured clone a worker thread's messages get, typed arrays
 * included) behind a 4-byte length. Both ends of `weft fabric serve` use it.
 */
import type { Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';

export function sendFrame(socket: Socket, message: unknown): boolean {
  const body = serialize(message);
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length, 0);
  return socket.write(Buffer.concat([head, body]));
}

/** How large a frame may be unless the reader says otherwise: an attach of the largest fixture is tens of MiB. */
export const MAX_FRAME_BYTES = 512 * 1024 * 1024;

/**
 * Calls `receive` with each whole message the socket delivers, however its bytes were split. A
 * frame longer than `maxBytes()` (asked afresh for each frame: a fabric process lets a peer send
 * large frames only once it has authenticated) or one that does not deserialize is not delivered:
 * `refuse` is told why, and no more is read from the socket.
 */
export function readFrames(
  socket: Socket,
  receive: (message: unknown) => void,
  options: { maxBytes?: () => number; refuse?: (reason: string) => void } = {},
): void {
  const maxBytes = options.maxBytes ?? (() => MAX_FRAME_BYTES);
  const refuse = options.refuse ?? ((reason: string) => socket.destroy(new Error(reason)));
  let pending: Buffer = Buffer.alloc(0);
  let refused = false;
  const stop = (reason: string) => {
    refused = true;
    pending = Buffer.alloc(0);
    refuse(reason);
  };
  socket.on('data', (chunk: Buffer) => {
    if (refused) return;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      const limit = maxBytes();
      if (length > limit) return stop(`a frame of ${length} bytes is over the ${limit}-byte limit`);
      if (pending.length < 4 + length) break;
      const body = pending.subarray(4, 4 + length);
      pending = pending.subarray(4 + length);
      let message: unknown;
      try {
        message = deserialize(body);
      } catch (error) {
        return stop(`a frame that does not deserialize (${(error as Error).message})`);
      }
      receive(message);
      if (refused || socket.destroyed) return;
    }
  });
}

/** A listening or connecting address: `unix:/path/to.sock` or `tcp:host:port` (host defaults to 127.0.0.1). */
export type FabricAddress = { readonly path: string } | { readonly host: string; readonly port: number };

export function parseFabricAddress(address: string): FabricAddress {
  const unix = /^unix:(.+)$/.exec(address);
  if (unix) return { path: unix[1] };
  const tcp = /^tcp:(?:([^:]+):)?(\d{1,5})$/.exec(address);
  if (tcp && Number(tcp[2]) <= 65535) return { host: tcp[1] ?? '127.0.0.1', port: Number(tcp[2]) };
  throw new RangeError(`"${address}" is not a fabric address: give unix:/path/to.sock or tcp:host:port`);
}
