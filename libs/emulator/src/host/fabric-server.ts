/**
 * The emulated fabrics as a process of their own (issue 40), like ibsim beside OpenSM: `weft
 * fabric serve` hosts them and answers the emulator host's protocol (protocol.ts) over a socket,
 * so that a manager can stop, restart or fail over while the fabric keeps running — its registers,
 * links and faults as they were. One manager at a time, fenced: a manager says first when it
 * claimed the store (its term); one whose term is at least the newest served takes over from the
 * manager connected before it, one with an older term — a deposed manager coming back — is
 * refused, so that two managers never write registers in turn. Interrupts raised while no manager
 * is connected are kept (the newest 10,000) and delivered to the next one.
 */
import { existsSync, unlinkSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { EmulatorHost } from './emulator-host';
import { HostCommand, HostReply } from './protocol';
import { parseFabricAddress, readFrames, sendFrame } from './socket-frames';

const KEPT_INTERRUPTS = 10_000;

export interface FabricServer {
  readonly server: Server;
  /** Where it listens, as given. */
  readonly address: string;
  close(): Promise<void>;
}

export async function serveFabric(address: string, options: { threads?: number; log?: (line: string) => void } = {}): Promise<FabricServer> {
  const where = parseFabricAddress(address);
  const log = options.log ?? (() => undefined);
  let manager: Socket | null = null;
  const kept: HostReply[] = [];
  const host = new EmulatorHost(
    (reply: HostReply) => {
      if (manager && !manager.destroyed) sendFrame(manager, reply);
      else if (reply.type === 'interrupt') {
        kept.push(reply);
        if (kept.length > KEPT_INTERRUPTS) kept.shift();
      }
    },
    undefined,
    options.threads ?? 1,
  );
  let newestTerm = -Infinity;
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    let accepted = false;
    readFrames(socket, (message) => {
      const command = message as HostCommand;
      if (accepted) return host.handle(command);
      if (command.type !== 'hello' || !Number.isFinite(command.term)) {
        sendFrame(socket, { type: 'error', message: 'a manager says hello with its term first' } satisfies HostReply);
        return void socket.end();
      }
      if (command.term < newestTerm) {
        log(`a manager with term ${command.term} refused: term ${newestTerm} has been served`);
        sendFrame(socket, {
          type: 'error',
          message: `refused: this fabric is served by a manager with a newer claim (term ${newestTerm} > ${command.term})`,
        } satisfies HostReply);
        return void socket.end();
      }
      newestTerm = command.term;
      accepted = true;
      if (manager && !manager.destroyed) {
        log('a newer manager connected: the previous one is let go');
        manager.destroy();
      }
      manager = socket;
      sendFrame(socket, { type: 'ready' } satisfies HostReply);
      for (const reply of kept.splice(0)) sendFrame(socket, reply);
      log(`a manager connected (term ${command.term})`);
    });
    socket.on('close', () => {
      if (manager !== socket) return;
      manager = null;
      log('the manager disconnected; the fabrics keep running');
    });
  });
  if ('path' in where && existsSync(where.path)) unlinkSync(where.path);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if ('path' in where) server.listen(where.path, resolve);
    else server.listen(where.port, where.host, resolve);
  });
  return {
    server,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        manager?.destroy();
        server.close(() => resolve());
      }),
  };
}
