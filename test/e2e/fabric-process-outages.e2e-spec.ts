import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helloProof, HostReply, readFrames, sendFrame } from '@weft/emulator';
import { ManagerProcess, query, startFabricProcess, startManager, until, WeftProcess } from './support/weft-processes';

const PUSHES = '{ events(kinds: [GENERATION_PUSHED], first: 500) { edges { node { details } } } }';

/**
 * What an operator killing things does to a manager beside a fabric process (issue 54): a fabric
 * process restarted under a running manager, and a manager killed with a fabric left paused or in
 * the middle of a drill — the manager (or the next one) is ready again, its fabric read back.
 */
describe('a manager beside a fabric process that is killed and restarted', () => {
  jest.setTimeout(180_000);
  let dir: string;
  let fabric: { process: WeftProcess; address: string };
  const managers: ManagerProcess[] = [];
  const env = () => ({ WEFT_DATABASE: join(dir, 'weft.sqlite'), WEFT_FABRIC: fabric.address });
  const adminKey = () => readFileSync(join(dir, 'admin-key'), 'utf8').trim();
  const ready = (m: ManagerProcess) => until(`${m.url} to be ready`, async () => (await fetch(`${m.url}/health/ready`)).status === 200, 60_000);
  const pushes = async (m: ManagerProcess) =>
    (
      await query<{ events: { edges: { node: { details: { recovered?: boolean; writes: number; checked?: number } } }[] } }>(m.url, adminKey(), PUSHES)
    ).data!.events.edges.map((e) => e.node.details);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-outages-'));
    fabric = await startFabricProcess(dir);
  });
  afterEach(async () => {
    for (const m of managers.splice(0)) m.process.child.kill('SIGKILL');
    fabric.process.child.kill('SIGKILL');
    await fabric.process.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reconnects to a fabric process restarted under it, writes the blank fabric again and is ready', async () => {
    const manager = await startManager(dir, { ...env(), WEFT_DEFAULT_FIXTURE: 'blackwidow/bw-r1-32' });
    managers.push(manager);
    await ready(manager);
    const before = await pushes(manager);
    fabric.process.child.kill('SIGKILL');
    await fabric.process.exited;
    await until('the manager to say it lost the fabric', async () => (await fetch(`${manager.url}/health/ready`)).status === 503);
    fabric = await startFabricProcess(dir);
    await ready(manager);
    const after = await pushes(manager);
    expect(after).toHaveLength(before.length + 1);
    // The new fabric process powered the fabric up blank: every register read back, and written.
    expect(after.at(-1)).toMatchObject({ recovered: true });
    expect(after.at(-1)!.writes).toBeGreaterThan(100);
    expect(manager.process.child.exitCode).toBeNull();
  });

  it('a manager taking over from one killed with its fabric paused and embargoed is ready, the fabric running again', async () => {
    const first = await startManager(dir, { ...env(), WEFT_DEFAULT_FIXTURE: 'blackwidow/bw-r1-32' });
    await ready(first);
    first.process.child.kill('SIGKILL');
    await first.process.exited;
    // What a manager killed in the middle of a drill leaves: its fabric held at a time, its
    // maintenance requests embargoed (said here by a session with the fabric key, as it would).
    const socket = connect(join(dir, 'fabric.sock'));
    const replies: HostReply[] = [];
    const term = Date.now(); // newer than the killed manager’s claim, older than the next one’s
    readFrames(socket, (m) => {
      const reply = m as HostReply;
      if (reply.type === 'challenge')
        sendFrame(socket, {
          type: 'hello',
          term,
          proof: helloProof(Buffer.from(readFileSync(join(dir, 'data/fabric-key'), 'utf8').trim(), 'hex'), reply.challenge, term),
        });
      else replies.push(reply);
    });
    await until('the session to be ready', async () => replies.some((r) => r.type === 'ready'));
    sendFrame(socket, { type: 'pause-at', id: 1, fabricId: 1, atNs: 0 });
    sendFrame(socket, { type: 'embargo', id: 2, fabricId: 1, untilNs: 1e15 });
    await until('the fabric to be paused', async () => replies.some((r) => r.type === 'paused'));
    socket.destroy();

    const next = await startManager(dir, env());
    managers.push(next);
    await ready(next);
    // Read back in its own queue once the manager is ready (no push was cut off), the fabric running.
    const recovered = await until('the kept fabric to be read back', async () => {
      const last = (await pushes(next)).at(-1);
      return last?.recovered ? last : null;
    });
    expect(recovered).toMatchObject({ recovered: true, writes: 0 });
  });

  it('a manager started after one killed mid-drill is ready; the drill is aborted and its fabric gone', async () => {
    const first = await startManager(dir, env());
    await ready(first);
    const started = await query<{ startDrill: { id: string } }>(first.url, adminKey(), 'mutation { startDrill(input: { fixture: "bgl-cable-cut" }) { id } }');
    const runId = started.data!.startDrill.id;
    const RUN = 'query($id: ID!) { drillRun(id: $id) { state progress { step } } }';
    await until('the drill to play its timeline', async () => {
      const run = (await query<{ drillRun: { state: string; progress: { step: string } | null } }>(first.url, adminKey(), RUN, { id: runId })).data!.drillRun;
      return run.progress !== null && run.progress.step !== 'configuring the fabric';
    });
    first.process.child.kill('SIGKILL');
    await first.process.exited;

    const next = await startManager(dir, env());
    managers.push(next);
    await ready(next);
    const run = (await query<{ drillRun: { state: string } }>(next.url, adminKey(), RUN, { id: runId })).data!.drillRun;
    expect(run.state).toBe('aborted');
    const fabrics = await until('the drill’s fabric to be deleted', async () => {
      const listed = (await query<{ fabrics: { edges: { node: { name: string } }[] } }>(next.url, adminKey(), '{ fabrics { edges { node { name } } } }')).data!
        .fabrics;
      return listed.edges.length === 0 ? listed : null;
    });
    expect(fabrics.edges).toEqual([]);
  });
});
