/**
 * The emulated fabrics as a process of their own (issue 40), like ibsim beside OpenSM: `weft
 * fabric serve` hosts them and answers the emulator host's protocol (protocol.ts) over a socket,
 * so that a manager can stop, restart or fail over while the fabric keeps running — its registers,
 * links and faults as they were.
 *
 * Nobody is trusted by default (issue 54). Each connection is sent a fresh challenge and must
 * answer with a hello that proves the fabric key (fabric-key.ts) before anything else it sends is
 * read; until then a frame may be at most 4 KiB, and one that has not said hello within `helloMs`
 * is closed. A unix socket is its owner's alone. A malformed or oversized frame closes only the
 * connection that sent it, and a malformed command is answered with an error: nothing a peer
 * sends can stop the process or the fabrics in it.
 *
 * One manager at a time, fenced: a manager says when it claimed the store (its term) — where the
 * process can read the store (`verifyTerm`), a term the store's lease has not issued is refused; one
 * whose term is at least the newest served takes over from the manager connected before it, one
 * with an older term — a deposed manager coming back — is refused, so that two managers never write
 * registers in turn. Interrupts raised while no manager is connected are kept (the newest 10,000)
 * and delivered to the next one.
 *
 * Each manager's session is journalled when it ends (let go or disconnected): its term, how many
 * register writes it made and when the first and last were, and how many of its commands arrived
 * after it was let go and were dropped — the record that shows no two managers wrote in turn.
 */
import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { checkHostCommand } from './command-check';
import { EmulatorHost } from './emulator-host';
import { fabricChallenge, proofMatches } from './fabric-key';
import { HostReply } from './protocol';
import { MAX_FRAME_BYTES, parseFabricAddress, readFrames, sendFrame } from './socket-frames';

const KEPT_INTERRUPTS = 10_000;

/** The largest frame a connection may send before it has proved the fabric key. */
const HELLO_FRAME_BYTES = 4096;

/** How long a refused connection is given to read why before it is closed. */
const LINGER_MS = 1_000;

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

export interface FabricServeOptions {
  /** The fabric key a manager's hello must prove (fabric-key.ts). */
  key: Buffer;
  /** Whether `term` is the claim the store's lease holds now: null if so, else why not. Without
   * it, any term from a manager that proves the key is taken (the newest still wins). */
  verifyTerm?: (term: number) => Promise<string | null>;
  threads?: number;
  log?: (line: string) => void;
  journal?: (session: ManagerSession) => void;
  /** How long a connection may take to say hello (ms). */
  helloMs?: number;
}

export async function serveFabric(address: string, options: FabricServeOptions): Promise<FabricServer> {
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
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    const challenge = fabricChallenge();
    let state: 'challenged' | 'verifying' | 'serving' = 'challenged';
    let session: ManagerSession | null = null;
    const refuse = (message: string) => {
      if (socket.destroyed || socket.writableEnded) return;
      clearTimeout(helloTimer);
      sendFrame(socket, { type: 'error', message } satisfies HostReply);
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
    const helloTimer = setTimeout(() => {
      log('a connection closed: it did not say hello in time');
      refuse('refused: no hello within the time allowed');
    }, options.helloMs ?? 10_000);
    helloTimer.unref();

    const accept = (term: number) => {
      clearTimeout(helloTimer);
      newestTerm = term;
      state = 'serving';
      session = { term, connectedAt: Date.now(), endedAt: 0, writes: 0, firstWriteAt: null, lastWriteAt: null, dropped: 0, ended: 'disconnected' };
      const previous = manager;
      manager = socket;
      if (previous && !previous.destroyed) {
        log('a newer manager connected: the previous one is let go');
        previous.emit('let-go');
        // Told why before it is cut off (issue 54: its clients got a bare internal error): it
        // stands down rather than try this fabric again. Whatever it still sends is dropped.
        sendFrame(previous, { type: 'let-go', term } satisfies HostReply);
        previous.end();
        setTimeout(() => previous.destroy(), LINGER_MS).unref();
      }
      host.newSession();
      sendFrame(socket, { type: 'ready' } satisfies HostReply);
      for (const reply of kept.splice(0)) sendFrame(socket, reply);
      log(`a manager connected (term ${term})`);
    };

    const hello = (message: unknown) => {
      const checked = checkHostCommand(message);
      if (!('command' in checked) || checked.command.type !== 'hello') return refuse('refused: a manager answers the challenge with its hello first');
      const { term, proof } = checked.command;
      if (!proofMatches(options.key, challenge, term, proof)) {
        log('a connection refused: its hello does not prove the fabric key');
        return refuse('refused: the hello does not prove the fabric key');
      }
      const stale = () => {
        if (term >= newestTerm) return false;
        log(`a manager with term ${term} refused: term ${newestTerm} has been served`);
        refuse(`refused: this fabric is served by a manager with a newer claim (term ${newestTerm} > ${term})`);
        return true;
      };
      if (stale()) return;
      if (!options.verifyTerm) return accept(term);
      state = 'verifying';
      options.verifyTerm(term).then(
        (refusal) => {
          if (socket.destroyed) return;
          if (refusal !== null) {
            log(`a manager with term ${term} refused: ${refusal}`);
            return refuse(`refused: ${refusal}`);
          }
          if (!stale()) accept(term);
        },
        (error: unknown) => refuse(`refused: the store could not be asked about term ${term} (${(error as Error).message})`),
      );
    };

    readFrames(
      socket,
      (message) => {
        if (state === 'challenged') return hello(message);
        if (state === 'verifying') return refuse('refused: a manager waits for ready after its hello');
        // A manager let go may still have commands on the wire: none of them reaches the fabric.
        if (manager !== socket) return void session!.dropped++;
        const checked = checkHostCommand(message);
        if (!('command' in checked)) return void sendFrame(socket, { type: 'error', id: checked.id, message: checked.problem } satisfies HostReply);
        const command = checked.command;
        if (command.type === 'write' || command.type === 'write-many' || command.type === 'write-batch') {
          const now = Date.now();
          session!.writes +=
            command.type === 'write'
              ? 1
              : command.type === 'write-many'
                ? command.indices.length
                : command.writes.reduce((n, w) => n + (w.whole ? 1 : w.indices.length), 0);
          session!.firstWriteAt ??= now;
          session!.lastWriteAt = now;
        }
        host.handle(command);
      },
      {
        maxBytes: () => (state === 'serving' ? MAX_FRAME_BYTES : HELLO_FRAME_BYTES),
        refuse: (reason) => {
          log(`a connection closed: ${reason}`);
          refuse(`refused: ${reason}`);
        },
      },
    );
    sendFrame(socket, { type: 'challenge', challenge } satisfies HostReply);
    // A manager let go stops serving at once, as its successor takes over (before the successor is
    // told it is ready): its session ends then, whenever its socket gets round to closing.
    socket.on('let-go', () => {
      if (!session) return;
      session.ended = 'let go';
      session.endedAt = Date.now();
    });
    // Journalled once the socket is closed, after any frames still parsed from its last chunk.
    socket.on('close', () => {
      connections.delete(socket);
      clearTimeout(helloTimer);
      if (session) {
        if (session.endedAt === 0) session.endedAt = Date.now();
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
  // Its owner's alone: the fabric key is the door, the file's mode the wall around it.
  if ('path' in where) chmodSync(where.path, 0o600);
  return {
    server,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
