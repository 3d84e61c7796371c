/**
 * The emulated fabrics as a process of their own (issue 40), like ibsim beside OpenSM: `weft
 * fabric serve` hosts them and answers the emulator host's protocol (protocol.ts) over a socket,
 * so that a manager can stop, restart or fail over while the fabric keeps running — its registers,
 * links and faults as they were. One manager at a time, fenced: a manager says first when it
 * claimed the store (its term); one whose term is at least the newest served takes over from the
 * manager connected before it, one with an older term — a deposed manager coming back — is
 * refused, so that two managers never write registers in turn. Interrupts raised while no manager
 * is connected are kept (the newest 10,000) and delivered to the next one.
 *
 * Each manager's session is journalled when it ends (let go or disconnected): its term, how many
 * register writes it made and when the first and last were, and how many of its commands arrived
 * after it was let go and were dropped — the record that shows no two managers wrote in turn.
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

/** One manager's session, as journalled when it ends. Times are ms since the epoch. */
export interface ManagerSession {
  term: number;
  connectedAt: number;
  endedAt: number;
  /** Register writes it made (a write-many counts each register). */
  writes: number;
  firstWriteAt: number | null;
  lastWriteAt: number | null;
  /** Commands that arrived after a newer manager took over, dropped unanswered. */
  dropped: number;
  ended: 'let go' | 'disconnected';
}

export async function serveFabric(
  address: string,
  options: { threads?: number; log?: (line: string) => void; journal?: (session: ManagerSession) => void } = {},
): Promise<FabricServer> {
  const where = parseFabricAddress(address);
  const log = options.log ?? (() => undefined);
  const journal = options.journal ?? (() => undefined);
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
    let session: ManagerSession | null = null;
    readFrames(socket, (message) => {
      const command = message as HostCommand;
      if (session) {
        // A manager let go may still have commands on the wire: none of them reaches the fabric.
        if (manager !== socket) return void session.dropped++;
        if (command.type === 'write' || command.type === 'write-many') {
          const now = Date.now();
          session.writes += command.type === 'write' ? 1 : command.indices.length;
          session.firstWriteAt ??= now;
          session.lastWriteAt = now;
        }
        return host.handle(command);
      }
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
      session = { term: command.term, connectedAt: Date.now(), endedAt: 0, writes: 0, firstWriteAt: null, lastWriteAt: null, dropped: 0, ended: 'disconnected' };
      const previous = manager;
      manager = socket;
      if (previous && !previous.destroyed) {
        log('a newer manager connected: the previous one is let go');
        previous.emit('let-go');
        previous.destroy();
      }
      sendFrame(socket, { type: 'ready' } satisfies HostReply);
      for (const reply of kept.splice(0)) sendFrame(socket, reply);
      log(`a manager connected (term ${command.term})`);
    });
    socket.on('let-go', () => session && (session.ended = 'let go'));
    // Journalled once the socket is closed, after any frames still parsed from its last chunk.
    socket.on('close', () => {
      if (session) {
        session.endedAt = Date.now();
        journal(session);
      }
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
