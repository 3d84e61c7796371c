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

/** Calls `receive` with each whole message the socket delivers, however its bytes were split. */
export function readFrames(socket: Socket, receive: (message: unknown) => void): void {
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (pending.length < 4 + length) break;
      const body = pending.subarray(4, 4 + length);
      pending = pending.subarray(4 + length);
      receive(deserialize(body));
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
