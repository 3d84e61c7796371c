import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import { EmulatorHost } from '../host/emulator-host';
import type { HostCommand, HostReply } from '../host/protocol';
import type { BglHostedEngine } from './bgl-hosted-engine';

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

  it('takes no link-layer traffic run, saying so', async () => {
    const { send } = host();
    const reply = await send((id) => ({
      type: 'traffic',
      id,
      fabricId: 7,
      request: { mode: 'background', pattern: { kind: 'uniform-random' }, packetPhits: 4, slices: [0], seed: 3, load: 0.05, interval: 1_000 },
    }));
    expect(reply).toEqual({ type: 'error', id: 100, message: "traffic runs are not taken by this fabric's chips (BGL-node) through the host" });
  });
});
