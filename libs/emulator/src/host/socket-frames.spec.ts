import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { parseFabricAddress, readFrames, sendFrame } from './socket-frames';

describe('the fabric process’s frames', () => {
  it('carries messages whole, typed arrays included, however the socket splits their bytes', () => {
    const written: Buffer[] = [];
    const writer = { write: (b: Buffer) => written.push(b) } as unknown as Socket;
    const messages = [{ type: 'ready' }, { type: 'results', id: 7, results: { values: new Float64Array([1.5, 2.5]) } }, { type: 'done', id: 8 }];
    for (const m of messages) sendFrame(writer, m);
    const bytes = Buffer.concat(written);
    const socket = new EventEmitter() as unknown as Socket;
    const received: unknown[] = [];
    readFrames(socket, (m) => received.push(m));
    // Three bytes at a time: lengths and bodies cut anywhere.
    for (let i = 0; i < bytes.length; i += 3) socket.emit('data', bytes.subarray(i, i + 3));
    expect(received).toEqual(messages);
  });

  it('reads unix and tcp addresses, and refuses anything else, naming it', () => {
    expect(parseFabricAddress('unix:/tmp/f.sock')).toEqual({ path: '/tmp/f.sock' });
    expect(parseFabricAddress('tcp:4100')).toEqual({ host: '127.0.0.1', port: 4100 });
    expect(parseFabricAddress('tcp:10.0.0.2:4100')).toEqual({ host: '10.0.0.2', port: 4100 });
    expect(() => parseFabricAddress('http://x')).toThrow('"http://x" is not a fabric address: give unix:/path/to.sock or tcp:host:port');
  });
});
