import fc from 'fast-check';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { FabricServer, ManagerSession, serveFabric } from './fabric-server';
import { helloProof } from './fabric-key';
import { HostReply } from './protocol';
import { readFrames, sendFrame } from './socket-frames';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);

interface Peer {
  socket: Socket;
  /** What the fabric process said after its challenge. */
  replies: HostReply[];
  closed: Promise<void>;
}

/** A peer of the fabric process: it reads the challenge, then sends what `answer` makes of it. */
async function peer(path: string, answer: (challenge: string) => unknown): Promise<Peer> {
  const socket = connect(path);
  const replies: HostReply[] = [];
  readFrames(socket, (m) => {
    const reply = m as HostReply;
    if (reply.type === 'challenge') sendFrame(socket, answer(reply.challenge));
    else replies.push(reply);
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, replies, closed };
}

/** A manager holding `key`, saying hello with `term`. */
const manager = (path: string, term: number, key = KEY) => peer(path, (challenge) => ({ type: 'hello', term, proof: helloProof(key, challenge, term) }));

const until = async (test: () => boolean) => {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('the fabric process', () => {
  let dir: string;
  let server: FabricServer;
  let path: string;
  let sessions: ManagerSession[];
  let issued: number | null;
  const start = async (options: { verify?: boolean; helloMs?: number } = {}) => {
    // This server's own list: a session of the previous test's server may end after this one starts.
    const journalled: ManagerSession[] = (sessions = []);
    server = await serveFabric(`unix:${path}`, {
      key: KEY,
      journal: (session) => journalled.push({ ...session }),
      verifyTerm: options.verify ? async (term) => (term === issued ? null : `term ${term} is not the store's lease (its term is ${issued})`) : undefined,
      helloMs: options.helloMs,
    });
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'weft-fence-'));
    path = join(dir, 'fabric.sock');
    issued = null;
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('fencing (issue 40: never two managers writing)', () => {
    beforeEach(() => start());

    it('lets a manager with a newer claim take over, and refuses one with an older claim coming back', async () => {
      const first = await manager(path, 100);
      await until(() => first.replies.length > 0);
      expect(first.replies[0]).toEqual({ type: 'ready' });
      const second = await manager(path, 200);
      await until(() => second.replies.length > 0);
      expect(second.replies[0]).toEqual({ type: 'ready' });
      await first.closed;
      // Told why it was cut off (issue 54): it stands down rather than answer its clients with an internal error.
      expect(first.replies).toEqual([{ type: 'ready' }, { type: 'let-go', term: 200 }]);
      // The deposed manager, back with its old claim, is refused; the new one keeps the fabric.
      const stale = await manager(path, 100);
      await stale.closed;
      expect(stale.replies).toEqual([{ type: 'error', message: 'refused: this fabric is served by a manager with a newer claim (term 200 > 100)' }]);
      sendFrame(second.socket, { type: 'status', id: 1 });
      await until(() => second.replies.length > 1);
      expect(second.replies[1]).toEqual({ type: 'status', id: 1, fabrics: [] });
      second.socket.destroy();
    });

    it('journals each manager’s register writes, the one let go ending before the next one’s first', async () => {
      const first = await manager(path, 100);
      await until(() => first.replies.length > 0);
      const route: number[] = [];
      sendFrame(first.socket, { type: 'write', id: 1, fabricId: 7, route, register: 'r', index: 0, value: [1] });
      sendFrame(first.socket, { type: 'write-many', id: 2, fabricId: 7, route, register: 'r', indices: [0, 1, 2], value: [1] });
      await until(() => first.replies.length > 2);
      const second = await manager(path, 200);
      await first.closed;
      await until(() => second.replies.length > 0);
      sendFrame(second.socket, { type: 'write', id: 1, fabricId: 7, route, register: 'r', index: 0, value: [2] });
      await until(() => second.replies.length > 1);
      second.socket.destroy();
      await until(() => sessions.length === 2);
      const [a, b] = sessions;
      expect(a).toMatchObject({ term: 100, writes: 4, ended: 'let go', dropped: 0 });
      expect(b).toMatchObject({ term: 200, writes: 1, ended: 'disconnected' });
      expect(a.lastWriteAt!).toBeLessThanOrEqual(b.firstWriteAt!);
      expect(a.endedAt).toBeLessThanOrEqual(b.firstWriteAt!);
    });
  });

  describe('nobody trusted by default (issue 54)', () => {
    it('refuses a hello that does not prove the fabric key, and the manager it would have deposed keeps the fabric', async () => {
      await start();
      const active = await manager(path, 100);
      await until(() => active.replies.length > 0);
      const intruder = await manager(path, 9e15, OTHER_KEY);
      await intruder.closed;
      expect(intruder.replies).toEqual([{ type: 'error', message: 'refused: the hello does not prove the fabric key' }]);
      // Nor may a proof made for another challenge or another term be replayed.
      const replayed = await peer(path, () => ({ type: 'hello', term: 9e15, proof: helloProof(KEY, 'another challenge', 9e15) }));
      await replayed.closed;
      expect(replayed.replies).toEqual([{ type: 'error', message: 'refused: the hello does not prove the fabric key' }]);
      sendFrame(active.socket, { type: 'status', id: 5 });
      await until(() => active.replies.length > 1);
      expect(active.replies[1]).toEqual({ type: 'status', id: 5, fabrics: [] });
      active.socket.destroy();
    });

    it('refuses anything before a hello, and a connection that never says hello', async () => {
      await start({ helloMs: 200 });
      const rude = await peer(path, () => ({ type: 'write', id: 1, fabricId: 1, route: [], register: 'r', index: 0, value: [1] }));
      await rude.closed;
      expect(rude.replies).toEqual([{ type: 'error', message: 'refused: a manager answers the challenge with its hello first' }]);
      const silent = await peer(path, () => undefined);
      silent.socket.removeAllListeners('data');
      const silentReplies: HostReply[] = [];
      readFrames(silent.socket, (m) => silentReplies.push(m as HostReply));
      await silent.closed;
      expect(silentReplies.at(-1)).toEqual({ type: 'error', message: 'refused: no hello within the time allowed' });
    });

    it('takes only the term the store’s lease issued, where it can read the store', async () => {
      await start({ verify: true });
      issued = 1_700_000_000_000;
      const forged = await manager(path, 9e15);
      await forged.closed;
      expect(forged.replies).toEqual([{ type: 'error', message: `refused: term 9000000000000000 is not the store's lease (its term is ${issued})` }]);
      const real = await manager(path, issued);
      await until(() => real.replies.length > 0);
      expect(real.replies[0]).toEqual({ type: 'ready' });
      real.socket.destroy();
    });

    it('keeps its unix socket to its owner', async () => {
      await start();
      expect(statSync(path).mode & 0o777).toBe(0o600);
    });

    it('survives any frame, however malformed or large, before and after a hello, and still serves its manager and fabrics', async () => {
      await start();
      const active = await manager(path, 100);
      await until(() => active.replies.length > 0);
      sendFrame(active.socket, { type: 'attach', fabricId: 1, physical: { nonsense: true }, attachment: 'x', seed: 1 });
      await until(() => active.replies.length > 1);
      expect(active.replies[1]).toMatchObject({ type: 'error' });

      /** Raw bytes from a fresh connection: read its challenge, send the bytes, wait for it to close or 50 ms. */
      const raw = async (bytes: Buffer) => {
        const socket = connect(path);
        socket.on('error', () => undefined);
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(bytes);
        await Promise.race([new Promise((r) => socket.once('close', r)), new Promise((r) => setTimeout(r, 50))]);
        socket.destroy();
      };
      const frame = (body: Buffer, length = body.length) => {
        const head = Buffer.alloc(4);
        head.writeUInt32BE(length >>> 0, 0);
        return Buffer.concat([head, body]);
      };
      // The ten bytes that crashed it, a frame that claims 4 GiB, and V8's own format cut short.
      await raw(Buffer.from([0, 0, 0, 6, 0xff, 0x0f, 0x6f, 0x22, 0x01, 0x61]));
      await raw(frame(Buffer.alloc(8), 0xffffffff));
      await raw(frame(serialize({ type: 'hello', term: 1, proof: 'x' }).subarray(0, 9)));
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.boolean(), async (bytes, framed) => {
          await raw(framed ? frame(Buffer.from(bytes)) : Buffer.from(bytes));
        }),
        { numRuns: 60, seed: 54 },
      );
      // Commands of the wrong shape from the manager itself: each answered, none fatal.
      const commands = fc.record({
        type: fc.constantFrom(
          'read',
          'read-many',
          'write',
          'write-many',
          'write-batch',
          'status',
          'fault',
          'traffic',
          'pause-at',
          'embargo',
          'attach',
          'detach',
          'bogus',
        ),
        id: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(undefined)),
        fabricId: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.string()),
        route: fc.oneof(fc.array(fc.integer()), fc.string(), fc.constant(null)),
        routes: fc.record({ ports: fc.constant(new Float64Array([1, 2])), offsets: fc.constant(new Uint32Array([0, 5])) }),
        register: fc.oneof(fc.string(), fc.integer()),
        value: fc.oneof(fc.array(fc.double()), fc.constant('x')),
        writes: fc.oneof(fc.array(fc.object(), { maxLength: 3 }), fc.constant('x')),
        concurrency: fc.oneof(fc.integer(), fc.constant(0)),
        request: fc.object(),
        fault: fc.object(),
        atNs: fc.oneof(fc.double(), fc.constant(-1)),
      });
      await fc.assert(
        fc.asyncProperty(commands, async (command) => {
          const before = active.replies.length;
          sendFrame(active.socket, command);
          sendFrame(active.socket, { type: 'status', id: 424242 });
          await until(() => active.replies.slice(before).some((r) => r.type === 'status' && r.id === 424242));
          expect(active.replies.slice(before).some((r) => r.type === 'status' && r.id === 424242)).toBe(true);
        }),
        { numRuns: 80, seed: 54 },
      );
      // Still serving: the manager's status is answered and a newer manager can take over.
      const next = await manager(path, 200);
      await until(() => next.replies.length > 0);
      expect(next.replies[0]).toEqual({ type: 'ready' });
      sendFrame(next.socket, { type: 'status', id: 9 });
      await until(() => next.replies.length > 1);
      expect(next.replies.at(-1)).toMatchObject({ type: 'status', id: 9 });
      next.socket.destroy();
    });
  });
});
