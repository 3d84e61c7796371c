import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import { configureR15ByHand } from '../yarc/blackwidow-test-config';
import type { YarcFabricSim } from '../yarc/yarc-fabric-sim';
import { EmulatorHost } from './emulator-host';
import { HostCommand, HostReply, unpackResults } from './protocol';

/** The worker's host in-process: commands in, replies collected. */
function host() {
  const replies: HostReply[] = [];
  const waiting: { match: (r: HostReply) => boolean; resolve: (r: HostReply) => void }[] = [];
  const h = new EmulatorHost((reply) => {
    replies.push(reply);
    const i = waiting.findIndex((w) => w.match(reply));
    if (i >= 0) waiting.splice(i, 1)[0].resolve(reply);
  });
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow/bw-r1.5-288.json'));
  h.handle({ type: 'attach', fabricId: 1, physical: installation.physical, attachment: 'p0', seed: 1 });
  // The spec's own shortcut around a push: the YARC model's registers set by hand.
  configureR15ByHand(h.fabric(1)!.sim.traffic as YarcFabricSim);
  let id = 100;
  const send = (make: (id: number) => HostCommand) => {
    const n = id++;
    const reply = new Promise<HostReply>((resolve) => waiting.push({ match: (r) => 'id' in r && r.id === n, resolve }));
    h.handle(make(n));
    return reply;
  };
  return { h, send, replies };
}

describe('the emulator host: what a drill needs', () => {
  it('runs background traffic, holds the fabric at an exact emulated time for a fault, and drains when stopped', async () => {
    const { h, send } = host();
    const report = send((id) => ({
      type: 'traffic',
      id,
      fabricId: 1,
      request: { mode: 'background', pattern: { kind: 'uniform-random' }, packetPhits: 4, slices: [0], seed: 3, load: 0.05, interval: 1_000 },
    }));
    expect(await send((id) => ({ type: 'pause-at', id, fabricId: 1, atNs: 10_000 }))).toEqual({ type: 'paused', id: 101, emulatedNs: 10_000 });
    expect(h.fabric(1)!.sim.cycle).toBe(8_000);
    await send((id) => ({ type: 'fault', id, fabricId: 1, fault: { action: 'cut-link', chip: 's0.r1.2', port: 40 } }));
    await send((id) => ({ type: 'mark', id, fabricId: 1, label: 'cut s0.r1.2:40' }));
    await send((id) => ({ type: 'resume', id, fabricId: 1 }));
    await send((id) => ({ type: 'pause-at', id, fabricId: 1, atNs: 20_000 }));
    await send((id) => ({ type: 'traffic-stop', id, fabricId: 1, drainLimit: 100_000 }));
    await send((id) => ({ type: 'resume', id, fabricId: 1 }));
    const final = await report;
    expect(final.type).toBe('traffic-report');
    if (final.type !== 'traffic-report') return;
    expect('markers' in final.report ? final.report.markers : []).toEqual([{ cycle: 8_000, ns: 10_000, label: 'cut s0.r1.2:40' }]);
    expect(final.report.books).toMatchObject({ inFlight: 0, balanced: true });
  });

  it('holds maintenance requests under an embargo until the fabric reaches its time', async () => {
    const { h, send } = host();
    await send((id) => ({ type: 'embargo', id, fabricId: 1, untilNs: 25_000 }));
    const answer = await send((id) => ({ type: 'read', id, fabricId: 1, route: [0], register: 'identity', index: 0 }));
    expect(answer).toMatchObject({ type: 'result', result: { ok: true } });
    // Sent at 25 µs (cycle 20,000), not at 0: the answer comes after the embargo.
    expect(h.fabric(1)!.sim.cycle).toBeGreaterThanOrEqual(20_000);
  });

  it('ends what the last manager set going when a new manager’s session begins: pause, embargo, held requests, traffic', async () => {
    const { h, send, replies } = host();
    void send((id) => ({
      type: 'traffic',
      id,
      fabricId: 1,
      request: { mode: 'background', pattern: { kind: 'uniform-random' }, packetPhits: 4, slices: [0], seed: 3, load: 0.05, interval: 1_000 },
    }));
    await send((id) => ({ type: 'pause-at', id, fabricId: 1, atNs: 5_000 }));
    await send((id) => ({ type: 'embargo', id, fabricId: 1, untilNs: 1e12 }));
    // The deposed manager's write, held by its own embargo: it must never reach the fabric.
    void send((id) => ({ type: 'write', id, fabricId: 1, route: [0], register: 'identity', index: 0, value: [7] }));
    const heldId = 103;
    h.newSession();
    expect(h.fabric(1)).toMatchObject({ paused: false, pauseAt: null, embargoUntil: 0, held: [], traffic: null });
    const answer = await send((id) => ({ type: 'read', id, fabricId: 1, route: [0], register: 'identity', index: 0 }));
    expect(answer).toMatchObject({ type: 'result', result: { ok: true } });
    expect(replies.some((r) => 'id' in r && r.id === heldId)).toBe(false);
  });

  it('makes a batch of writes to several chips in one request, each outcome in order: written, refused, not answered', async () => {
    const { h, send } = host();
    // s0.r1.0's sidelink to s0.r1.1 (its port 32) is cut: a write beyond it is never answered.
    await send((id) => ({ type: 'fault', id, fabricId: 1, fault: { action: 'cut-link', chip: 's0.r1.0', port: 32 } }));
    const reply = await send((id) => ({
      type: 'write-batch',
      id,
      fabricId: 1,
      concurrency: 2,
      writes: [
        { route: [0], register: 'rootDetect', indices: [17, 18], value: [0x60, 0x1f] },
        { route: [0], register: 'hashSelect', indices: [0], value: [0b111], whole: true },
        { route: [0, 32], register: 'rootDetect', indices: [3], value: [0x20, 0x1f] },
      ],
    }));
    expect(reply.type).toBe('results');
    if (reply.type !== 'results') return;
    expect(unpackResults(reply.results).map((r) => (r.ok ? 'ok' : r.reason))).toEqual(['ok', 'rejected', 'timeout']);
    const sim = h.fabric(1)!.sim.traffic as YarcFabricSim;
    const r = sim.chipRouter[sim.fabric.chipId('s0.r1.0')];
    expect([17, 18].map((i) => [sim.regs.rootLocation[r * 64 + i], sim.regs.rootMask[r * 64 + i]])).toEqual([
      [0x60, 0x1f],
      [0x60, 0x1f],
    ]);
  });
});
