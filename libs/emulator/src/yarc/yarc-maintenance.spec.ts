import { defaultCableLengths, generateBlackWidowDesign } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { configureR15ByHand } from './blackwidow-test-config';
import { chipSerial } from '../engine/maintenance-message';
import { maintenancePacketPhits, YarcFabricSim } from './yarc-fabric-sim';
import type { MaintenanceResult, RegisterValue } from '@weft/fabric-model';
import { READ_PART, YarcMaintenanceController } from './yarc-maintenance';
import { runUntilSettled } from '../engine/fabric-engine';
import { MODEL_PROCESSOR, MODEL_YARC } from './yarc-register-map';

function fabric(portSeed = 3) {
  const design = generateBlackWidowDesign({ network: 'R1.5', processors: 64, slices: 2, r1Uplinks: 32, portSeed, cableLengths: defaultCableLengths(64) });
  const sim = new YarcFabricSim(new EmulatedFabric(design));
  return { sim, controller: new YarcMaintenanceController(sim, 0, 20_000) };
}

describe('maintenance packets (source routed, §4.1)', () => {
  it('reads the identity of the first router of each slice, and of a processor two hops away', async () => {
    const { sim, controller } = fabric();
    const first = await runUntilSettled(sim, controller.read([1], 'identity'));
    expect(first).toMatchObject({ ok: true, value: [chipSerial('s1.r1.0'), MODEL_YARC, 64, sim.globalRouterPort[sim.fabric.peer[sim.processorPort[1]]] % 64] });
    // From s0.r1.0, leave by the port p5 is cabled to: the processor answers with its number.
    const g = sim.processorPort[5 * 4 + 0];
    const routerPort = sim.globalRouterPort[sim.fabric.peer[g]] % 64;
    const processor = await runUntilSettled(sim, controller.read([0, routerPort], 'identity'));
    expect(processor).toMatchObject({ ok: true, value: [chipSerial('p5'), MODEL_PROCESSOR, 4, 0, 5] });
    expect(processor.latencyNs).toBeGreaterThan(2 * 31.25);
  });

  it('sizes maintenance packets by their packed fields: an identity in 7 phits, 64 lane counts in 10, a table entry in words', () => {
    const answer = (register: string, value: number[]) => maintenancePacketPhits({ requestId: 1, op: 'response', register, index: 0, value });
    expect(answer('identity', [0xdeadbeef, MODEL_YARC, 64, 12])).toBe(7);
    expect(answer('identity', [0xdeadbeef, MODEL_PROCESSOR, 4, 0, 4095])).toBe(7);
    expect(answer('portStates', new Array(64).fill(3))).toBe(10);
    expect(answer('routingTable', [1, 0x60, 0x1f, 0xffff, 0])).toBe(4 + 7);
    expect(answer('maxPacketLength', [])).toBe(4);
    // Requests are sized the same way: a read carries nothing, a write its value and indices.
    const request = (register: string, value: number[], indices?: number[]) =>
      maintenancePacketPhits({ requestId: 1, op: value.length > 0 ? 'write' : 'read', register, index: indices?.[0] ?? 0, indices, value });
    expect(request('identity', [])).toBe(4);
    expect(request('portDirections', new Array(64).fill(2))).toBe(10);
    expect(request('rootDetect', [0x60, 0x1f], [0, 1, 2, 3, 4, 5, 6, 7])).toBe(4 + 6);
  });

  it('refuses a route longer than a routing vector holds, without sending anything', async () => {
    const { sim, controller } = fabric();
    const result = await controller.read([0, ...new Array(17).fill(32)], 'identity');
    expect(result).toMatchObject({ ok: false, reason: 'rejected', detail: expect.stringContaining('longer than a routing vector holds (16)') });
    expect(sim.packets.created).toBe(0);
  });

  it('reads many chips in one call, a few outstanding at a time, answering each route in order — refused and lost ones included', async () => {
    const { sim, controller } = fabric(0);
    // Port 32 of s0.r1.0 is its sidelink to s0.r1.1 (design order); cut it, so that read times out.
    const cut = sim.routerPortGlobal[sim.chipRouter[sim.fabric.chipId('s0.r1.0')] * 64 + 32];
    sim.fabric.activeLanes[cut] = 0;
    sim.discarding[cut] = 1;
    const processorPort = (p: number) => sim.globalRouterPort[sim.fabric.peer[sim.processorPort[p * 4]]] % 64;
    const routes = [[0, processorPort(5)], [1], [0, ...new Array(17).fill(32)], [0, 32], [0, processorPort(9)], [0]];
    // Requests outstanding when each one is sent (the new one not yet counted).
    const outstanding: number[] = [];
    const send = sim.sendMaintenance.bind(sim);
    sim.sendMaintenance = (...args) => (outstanding.push(controller.outstanding - 1), send(...args));
    const results = await runUntilSettled(sim, controller.readMany(routes, 'identity', 2), 1_000_000, 50);
    expect(outstanding).toEqual([0, 1, 1, 1, 1]);
    expect(results.map((r) => (r.ok ? r.value[0] : r.reason))).toEqual([
      chipSerial('p5'),
      chipSerial('s1.r1.0'),
      'rejected',
      'timeout',
      chipSerial('p9'),
      chipSerial('s0.r1.0'),
    ]);
    expect(sim.packets.books()).toMatchObject({ discarded: { LinkDown: 1 }, balanced: true });
  });

  it('keeps a request waiting for its timeout while thousands of later ones are answered', async () => {
    const { sim, controller } = fabric(0);
    const cut = sim.routerPortGlobal[sim.chipRouter[sim.fabric.chipId('s0.r1.0')] * 64 + 32];
    sim.fabric.activeLanes[cut] = 0;
    sim.discarding[cut] = 1;
    const lost = controller.read([0, 32], 'identity');
    const results = await runUntilSettled(sim, controller.readMany(new Array<number[]>(2000).fill([1]), 'identity', 32), 1_000_000, 50);
    expect(results.every((r) => r.ok && r.value[0] === chipSerial('s1.r1.0'))).toBe(true);
    expect(controller.outstanding).toBe(1);
    expect(await runUntilSettled(sim, lost)).toMatchObject({ ok: false, reason: 'timeout' });
    expect(controller.outstanding).toBe(0);
  });

  it("hands a readMany's results over in parts, in route order, while later reads are still in flight", async () => {
    const { sim, controller } = fabric(0);
    // A timeout early on holds every later part back until it comes: parts are in order.
    const cut = sim.routerPortGlobal[sim.chipRouter[sim.fabric.chipId('s0.r1.0')] * 64 + 32];
    sim.fabric.activeLanes[cut] = 0;
    sim.discarding[cut] = 1;
    const routes = [[0, 32], ...new Array<number[]>(READ_PART + 1000).fill([1])];
    const parts: { from: number; size: number; outstanding: number; firstFailed: boolean }[] = [];
    const received: MaintenanceResult<RegisterValue>[] = [];
    const results = await runUntilSettled(
      sim,
      controller.readMany(routes, 'identity', 64, (from, part) => {
        parts.push({ from, size: part.length, outstanding: controller.outstanding, firstFailed: !part[0].ok });
        received.push(...part);
      }),
      1_000_000,
      50,
    );
    // One after another from the first route, none shorter than READ_PART but the last, the first
    // sent before the reads after it were all answered.
    expect(parts.length).toBeGreaterThan(1);
    parts.forEach((part, i) => {
      expect(part.from).toBe(i === 0 ? 0 : parts[i - 1].from + parts[i - 1].size);
      if (i < parts.length - 1) expect(part.size).toBeGreaterThanOrEqual(READ_PART);
    });
    expect(parts[0]).toMatchObject({ firstFailed: true });
    expect(parts[0].outstanding).toBeGreaterThan(0);
    expect(received).toEqual(results);
  });

  it('writes a routing register in emulated time and reads it back', async () => {
    const { sim, controller } = fabric();
    const wrote = await runUntilSettled(sim, controller.write([0], 'rootDetect', 17, [0x0060, 0x001f]));
    expect(wrote.ok).toBe(true);
    const r = sim.chipRouter[sim.fabric.chipId('s0.r1.0')];
    expect([sim.regs.rootLocation[r * 64 + 17], sim.regs.rootMask[r * 64 + 17]]).toEqual([0x60, 0x1f]);
    expect(await runUntilSettled(sim, controller.read([0], 'rootDetect', 17))).toMatchObject({ ok: true, value: [0x60, 0x1f] });
  });

  it('reports a register the chip does not have, and refuses an illegal value', async () => {
    const { sim, controller } = fabric();
    expect(await runUntilSettled(sim, controller.read([0], 'coffee'))).toMatchObject({ ok: false, reason: 'no-such-register' });
    expect(await runUntilSettled(sim, controller.write([0], 'hashSelect', 0, [0b111]))).toMatchObject({
      ok: false,
      reason: 'rejected',
      detail: 'hash select must choose exactly 8 of the 15 hash bits, got 3',
    });
  });

  it('times out a read of a chip behind a dead link, and the lost packet is in the books', async () => {
    const { sim, controller } = fabric(0);
    // Sidelink from s0.r1.0 to s0.r1.1 leaves by port 32 in design order; cut it.
    const g = sim.routerPortGlobal[sim.chipRouter[sim.fabric.chipId('s0.r1.0')] * 64 + 32];
    sim.fabric.activeLanes[g] = 0;
    sim.discarding[g] = 1;
    const result = await runUntilSettled(sim, controller.read([0, 32], 'identity'));
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(sim.packets.books()).toMatchObject({ discarded: { LinkDown: 1 }, balanced: true });
  });

  it('keeps configured traffic flowing while the controller reads registers', async () => {
    const { sim, controller } = fabric();
    configureR15ByHand(sim);
    for (let i = 0; i < 200; i++) sim.inject(i % 64, i % 2, (i * 7 + 3) % 64, 4, 0, 1, i);
    const reads = await Promise.all([0, 1].map((slice) => runUntilSettled(sim, controller.read([slice], 'maxPacketLength'))));
    expect(reads.map((r) => r.ok && r.value[0])).toEqual([19, 19]);
    sim.drain(100_000);
    expect(sim.packets.books()).toMatchObject({ inFlight: 0, balanced: true, discarded: {} });
  });

  it('sets an octant data rate (§4.4): the eight links of the octant slow down at both ends', async () => {
    const { sim, controller } = fabric(0);
    const r = sim.chipRouter[sim.fabric.chipId('s0.r1.0')];
    const sidelink = sim.routerPortGlobal[r * 64 + 33];
    const full = sim.linkRateOf(sidelink);
    expect(await runUntilSettled(sim, controller.write([0], 'octantRate', 4, [3.125]))).toMatchObject({ ok: true });
    expect(sim.linkRateOf(sidelink)).toBeCloseTo(full / 2, 6);
    expect(sim.linkRateOf(sim.fabric.peer[sidelink])).toBeCloseTo(full / 2, 6);
    expect(sim.linkRateOf(sim.routerPortGlobal[r * 64 + 40])).toBeCloseTo(full, 6);
    expect(await runUntilSettled(sim, controller.write([0], 'octantRate', 4, [4]))).toMatchObject({ ok: false, reason: 'rejected' });
  });
});
