import type { Server } from 'node:http';
import { createServer, Server as NetServer } from 'node:net';

/**
 * More than one listening socket for the HTTP server, so that a burst of new clients is accepted
 * while the service is busy.
 *
 * libuv takes one new connection per turn of the event loop from a listening socket (libuv
 * #3696). A turn under load answers a request on every open connection, so it lasts tens of
 * milliseconds, and fifty clients connecting at once waited in the kernel's accept queue — the
 * last for 0.6 s on an idle service and up to 1.3 s during a drill — while the clients already
 * connected were answered in 30 ms. With `acceptors` sockets on the same port (SO_REUSEPORT; the
 * kernel spreads new connections over them), each takes one per turn and hands it to the one HTTP
 * server, which serves it as its own (HTTP and the graphql-ws upgrade alike).
 *
 * SO_REUSEPORT would also let a second process share the port unnoticed; a plain bind first makes
 * a port already in use an error, as it is for a single listener.
 */
export async function listenWithAcceptors(
  server: Server,
  /** Makes `server` listen (Nest's app.listen, which also records that it does). */
  listenMain: (options: ListenOptions) => Promise<unknown>,
  port: number,
  host: string,
  acceptors: number,
): Promise<number> {
  // Node shares a port between listening sockets from 22.12 (and 23.1) on: before, `reusePort` is
  // ignored and the second socket would fail as if the port were taken (issue 54) — one it is.
  if (acceptors <= 1 || !reusePortSupported()) {
    await listenMain({ port, host });
    return 1;
  }
  if (port !== 0) await probe(port, host);
  await listenMain({ port, host, reusePort: true });
  const bound = (server.address() as { port: number }).port;
  const extra: NetServer[] = [];
  for (let i = 1; i < acceptors; i++) {
    const acceptor = createServer((socket) => server.emit('connection', socket));
    await listen(acceptor, { port: bound, host, reusePort: true });
    extra.push(acceptor);
  }
  // Closing the HTTP server stops every acceptor with it: no new connection once shutdown begins.
  const close = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    for (const acceptor of extra) acceptor.close();
    return close(callback);
  }) as Server['close'];
  return acceptors;
}

/** Whether this Node honours `reusePort` when listening (22.12+, 23.1+). */
export function reusePortSupported(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

export interface ListenOptions {
  readonly port: number;
  readonly host: string;
  readonly reusePort?: boolean;
}

function listen(server: NetServer, options: ListenOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Fails as a plain listener would where the port is taken. */
async function probe(port: number, host: string): Promise<void> {
  const plain = createServer();
  await listen(plain, { port, host });
  await new Promise((resolve) => plain.close(resolve));
}
