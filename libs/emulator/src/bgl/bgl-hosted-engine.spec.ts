import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import { EmulatorHost } from '../host/emulator-host';
import type { HostCommand, HostReply } from '../host/protocol';
import type { BglHostedEngine } from './bgl-hosted-engine';
import type { BackgroundReport } from '../traffic/traffic-run';

function host() {
  const replies: HostReply[] = [];
  const waiting: { match: (r: HostReply) => boolean; resolve: (r: HostReply) => void }[] = [];
  const h = new EmulatorHost((reply) => {
    replies.push(reply);
    const i = waiting.findIndex((w) => w.match(reply));
    if (i >= 0) waiting.splice(i, 1)[0].resolve(reply);
  });
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/bgl/bgl-midplane-512.json'));
  h.handle({ type: 'attach', fabricId: 7, physical: installation.physical, attachment: installation.file.maintenanceAttachment, seed: 1 });
  let id = 100;
  const send = (make: (id: number) => HostCommand) => {
    const n = id++;
    const reply = new Promise<HostReply>((resolve) => waiting.push({ match: (r) => 'id' in r && r.id === n, resolve }));
    h.handle(make(n));
    return reply;
  };
  return { h, send, replies };
}

describe('a BlueGene/L midplane in the emulator host', () => {
  it('is reached over its control network, takes faults a node and a cable at a time, and reports them as interrupts', async () => {
    const { h, send, replies } = host();
    expect(await send((id) => ({ type: 'read', id, fabricId: 7, route: [0, 0, 0, 1], register: 'torusCoordinates', index: 0 }))).toMatchObject({
      result: { ok: true, value: [1, 0, 0] },
    });
    await send((id) => ({ type: 'fault', id, fabricId: 7, fault: { action: 'kill-router', chip: 'x1.y0.z0' } }));
    expect(await send((id) => ({ type: 'read', id, fabricId: 7, route: [0, 0, 0, 1], register: 'nodeIdentity', index: 0 }))).toMatchObject({
      result: { ok: false, reason: 'timeout' },
    });
    expect(replies.filter((r) => r.type === 'interrupt' && r.interrupt.kind === 'LINK_DOWN')).toHaveLength(6);
    await send((id) => ({ type: 'fault', id, fabricId: 7, fault: { action: 'revive-router', chip: 'x1.y0.z0' } }));
    expect(replies.filter((r) => r.type === 'interrupt' && r.interrupt.kind === 'LINK_UP')).toHaveLength(12);
    // Replaced, the node answers unconfigured.
    expect(await send((id) => ({ type: 'read', id, fabricId: 7, route: [0, 0, 0, 1], register: 'hintCutoffPlus', index: 0 }))).toMatchObject({
      result: { ok: true, value: [-1] },
    });
    await send((id) => ({ type: 'fault', id, fabricId: 7, fault: { action: 'lane-bit-error-rate', chip: 'x0.y0.z0', port: 0, lane: 0, rate: 1e-5 } }));
    expect(
      await send((id) => ({ type: 'fault', id, fabricId: 7, fault: { action: 'lane-bit-error-rate', chip: 'x0.y0.z0', port: 0, lane: 2, rate: 1e-5 } })),
    ).toMatchObject({
      type: 'error',
      message: 'a BG/L link is one bit-serial lane (§2): lane 0, got 2',
    });
    expect((h.fabric(7)!.sim as BglHostedEngine).books()).toEqual({ created: 0, delivered: 0, discarded: {}, inFlight: 0, balanced: true });
  });

  it('takes traffic runs by its own runner: sizes in 32-byte chunks, each packet delivered or discarded with its place and reason', async () => {
    const { h, send } = host();
    const sim = (h.fabric(7)!.sim as BglHostedEngine).sim;
    sim.programMinimalRouting();
    const request = { pattern: { kind: 'uniform-random' as const }, slices: [0], seed: 3 };
    expect(await send((id) => ({ type: 'traffic', id, fabricId: 7, request: { ...request, mode: 'batch', packetPhits: 40, packets: 2 } }))).toMatchObject({
      type: 'error',
      message: expect.stringContaining('$.packetPhits: packet size must be a multiple of 32 phits'),
    });
    expect(
      await send((id) => ({ type: 'traffic', id, fabricId: 7, request: { ...request, mode: 'batch', packetPhits: 64, packets: 2, slices: [1] } })),
    ).toMatchObject({
      type: 'error',
      message: expect.stringContaining('$.slices[0]: the fabric has slices 0 to 0'),
    });
    const steady = await send((id) => ({
      type: 'traffic',
      id,
      fabricId: 7,
      request: {
        ...request,
        mode: 'steady-state',
        packetPhits: [
          { phits: 32, weight: 1 },
          { phits: 256, weight: 1 },
        ],
        load: 0.3,
        sampleCycles: 4_000,
      },
    }));
    if (steady.type !== 'traffic-report') throw new Error(JSON.stringify(steady));
    const report = steady.report;
    expect(report.books).toMatchObject({ balanced: true, discarded: {} });
    expect(report.accepted).toBeGreaterThan(0.25);
    expect(report.accepted).toBeLessThan(0.35);
    // Minimal routes on 8×8×8: 1 to 12 hops, 6 on average.
    const hops = Object.entries(report.hops).map(([k, n]) => [Number(k), n]);
    expect(Math.min(...hops.map(([k]) => k))).toBeGreaterThanOrEqual(1);
    expect(Math.max(...hops.map(([k]) => k))).toBeLessThanOrEqual(12);
    expect(report.utilisation.byVc.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1);

    // Background traffic; a node dies: what it held and what was sent to it go, at named places, in the epoch after the marker.
    const background = send((id) => ({
      type: 'traffic',
      id,
      fabricId: 7,
      request: { ...request, mode: 'background', packetPhits: 256, load: 0.2, interval: 500 },
    }));
    await send((id) => ({ type: 'pause-at', id, fabricId: 7, atNs: (sim.cycle + 3_000) * sim.nsPerCycle }));
    await send((id) => ({ type: 'fault', id, fabricId: 7, fault: { action: 'kill-router', chip: 'x3.y3.z3' } }));
    await send((id) => ({ type: 'mark', id, fabricId: 7, label: 'kill x3.y3.z3' }));
    await send((id) => ({ type: 'resume', id, fabricId: 7 }));
    await send((id) => ({ type: 'pause-at', id, fabricId: 7, atNs: (sim.cycle + 3_000) * sim.nsPerCycle }));
    await send((id) => ({ type: 'traffic-stop', id, fabricId: 7, drainLimit: 50_000 }));
    await send((id) => ({ type: 'resume', id, fabricId: 7 }));
    const ended = await background;
    if (ended.type !== 'traffic-report') throw new Error(JSON.stringify(ended));
    const b = ended.report as BackgroundReport;
    expect(b.books.balanced).toBe(true);
    expect(b.books.inFlight).toBe(0);
    expect(b.markers.map((m) => m.label)).toEqual(['kill x3.y3.z3']);
    const dead = sim.fabric.chipId('x3.y3.z3');
    const lost = b.discards.reduce((n, r) => n + r.count, 0);
    expect(lost).toBe(Object.values(b.books.discarded).reduce((x, y) => x + y, 0));
    expect(lost).toBeGreaterThan(0);
    const neighbours = new Set([0, 1, 2, 3, 4, 5].map((port) => sim.fabric.chipNames[sim.outNode[6 * dead + port]]));
    for (const r of b.discards) {
      expect(r.epoch).toBe(1);
      // At the dead node or beside it, or for it.
      expect(r.chip === 'x3.y3.z3' || neighbours.has(r.chip!) || r.destination === dead).toBe(true);
    }
  });
});
