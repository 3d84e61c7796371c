import { mkdtempSync, rmSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FabricServer, ManagerSession, serveFabric } from './fabric-server';
import { HostReply } from './protocol';
import { readFrames, sendFrame } from './socket-frames';

/** A manager's end of the socket: what it has been sent, and whether the fabric process closed it. */
async function manager(path: string, hello: unknown): Promise<{ socket: Socket; replies: HostReply[]; closed: Promise<void> }> {
  const socket = connect(path);
  const replies: HostReply[] = [];
  readFrames(socket, (m) => replies.push(m as HostReply));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise((resolve) => socket.once('connect', resolve));
  sendFrame(socket, hello);
  return { socket, replies, closed };
}

const until = async (test: () => boolean) => {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('the fabric process’s fencing (issue 40: never two managers writing)', () => {
  let dir: string;
  let server: FabricServer;
  let path: string;
  let sessions: ManagerSession[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-fence-'));
    path = join(dir, 'fabric.sock');
    // This server's own list: a session of the previous test's server may end after this one starts.
    const journalled: ManagerSession[] = (sessions = []);
    server = await serveFabric(`unix:${path}`, { journal: (session) => journalled.push({ ...session }) });
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets a manager with a newer claim take over, and refuses one with an older claim coming back', async () => {
    const first = await manager(path, { type: 'hello', term: 100 });
    await until(() => first.replies.length > 0);
    expect(first.replies[0]).toEqual({ type: 'ready' });
    const second = await manager(path, { type: 'hello', term: 200 });
    await until(() => second.replies.length > 0);
    expect(second.replies[0]).toEqual({ type: 'ready' });
    await first.closed;
    // The deposed manager, back with its old claim, is refused; the new one keeps the fabric.
    const stale = await manager(path, { type: 'hello', term: 100 });
    await stale.closed;
    expect(stale.replies).toEqual([{ type: 'error', message: 'refused: this fabric is served by a manager with a newer claim (term 200 > 100)' }]);
    sendFrame(second.socket, { type: 'status', id: 1 });
    await until(() => second.replies.length > 1);
    expect(second.replies[1]).toEqual({ type: 'status', id: 1, fabrics: [] });
    second.socket.destroy();
  });

  it('journals each manager’s register writes, the one let go ending before the next one’s first', async () => {
    const first = await manager(path, { type: 'hello', term: 100 });
    await until(() => first.replies.length > 0);
    const route = { hops: [] };
    sendFrame(first.socket, { type: 'write', id: 1, fabricId: 7, route, register: 'r', index: 0, value: 1 });
    sendFrame(first.socket, { type: 'write-many', id: 2, fabricId: 7, route, register: 'r', indices: [0, 1, 2], value: 1 });
    await until(() => first.replies.length > 2);
    const second = await manager(path, { type: 'hello', term: 200 });
    await first.closed;
    await until(() => second.replies.length > 0);
    sendFrame(second.socket, { type: 'write', id: 1, fabricId: 7, route, register: 'r', index: 0, value: 2 });
    await until(() => second.replies.length > 1);
    second.socket.destroy();
    await until(() => sessions.length === 2);
    const [a, b] = sessions;
    expect(a).toMatchObject({ term: 100, writes: 4, ended: 'let go', dropped: 0 });
    expect(b).toMatchObject({ term: 200, writes: 1, ended: 'disconnected' });
    expect(a.lastWriteAt!).toBeLessThanOrEqual(b.firstWriteAt!);
    expect(a.endedAt).toBeLessThanOrEqual(b.firstWriteAt!);
  });

  it('refuses a manager that does not say hello with its term first', async () => {
    const rude = await manager(path, { type: 'status', id: 1 });
    await rude.closed;
    expect(rude.replies).toEqual([{ type: 'error', message: 'a manager says hello with its term first' }]);
  });
});
