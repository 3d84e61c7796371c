import { FABRIC_FAMILY_MODELS, generateAnton2Design } from '@weft/fabric-model';
import type { BackgroundSession, TrafficSession } from '../traffic/traffic-run';
import { validateTrafficRequest } from '../traffic/traffic-request';
import { EmulatedFabric } from '../emulated-fabric';
import { Anton2HostedEngine } from './anton2-hosted-engine';

describe('an emulated Anton 2 machine in the host', () => {
  const engine = () => new Anton2HostedEngine(new EmulatedFabric(generateAnton2Design({ shape: [4, 4, 2], backplaneChannelNs: 2, cableChannelNs: 10 })), 1);

  it('takes a technician’s faults at both ends of a channel, and a replaced ASIC comes back unconfigured', () => {
    const e = engine();
    e.sim.programDefaults();
    e.applyFault({ action: 'cut-link', chip: 'x0.y0.z0', port: 0 });
    expect([e.sim.linkDown[0], e.sim.linkDown[12 + 2]]).toEqual([1, 1]); // x1.y0.z0's X0− is the far end
    e.applyFault({ action: 'restore-link', chip: 'x0.y0.z0', port: 0 });
    expect([e.sim.linkDown[0], e.sim.linkDown[12 + 2]]).toEqual([0, 0]);
    e.applyFault({ action: 'lane-bit-error-rate', chip: 'x0.y0.z0', port: 0, lane: 3, rate: 0.01 });
    expect([e.sim.bitErrorRate[0], e.sim.bitErrorRate[12 + 2]]).toEqual([0.01, 0.01]);
    // A dead ASIC: its neighbours lose link training on every channel to it; back, they train again but for one cut meanwhile.
    e.applyFault({ action: 'kill-router', chip: 'x1.y0.z0' });
    expect([e.sim.linkDown[0], e.sim.linkDown[1]]).toEqual([1, 1]);
    e.applyFault({ action: 'cut-link', chip: 'x0.y0.z0', port: 1 });
    e.applyFault({ action: 'revive-router', chip: 'x1.y0.z0' });
    expect(e.sim.dead[1]).toBe(0);
    expect([e.sim.linkDown[0], e.sim.linkDown[1], e.sim.linkDown[12 + 3]]).toEqual([0, 1, 1]);
    expect(Array.from(e.sim.sizeRegister.subarray(3, 6))).toEqual([0, 0, 0]);
  });

  it('keeps balanced books, and refuses what its chips cannot have done, saying so', () => {
    const e = engine();
    e.sim.programDefaults();
    e.sim.send(0, 0, 5, 1);
    e.sim.send(0, 0, 99 % 32, 1);
    for (let i = 0; i < 2000 && !e.idle(); i++) e.step();
    expect(e.books()).toEqual({ created: 2, delivered: 2, discarded: {}, inFlight: 0, balanced: true });
    expect(() => e.applyFault({ action: 'cut-link', chip: 'x0.y0.z0', port: 12 })).toThrow(/channel ports 0 to 11/);
    expect(() => e.applyFault({ action: 'lane-bit-error-rate', chip: 'x0.y0.z0', port: 0, lane: 8, rate: 0.1 })).toThrow(/eight SerDes lanes/);
    expect(() => e.applyFault({ action: 'stop-accepting', chip: 'x0.y0.z0', port: 0 })).toThrow(/cannot be stopped/);
  });

  const shape = FABRIC_FAMILY_MODELS.anton2.trafficShape({ shape: '4×4×2', asics: 32 });
  const finish = (run: TrafficSession) => {
    while (!run.advance(10_000));
    return run.report();
  };

  it('runs steady-state traffic from the endpoint adapters a request names: accepted as offered below saturation, books balanced, torus channels measured by VC', () => {
    const e = engine();
    e.sim.programDefaults();
    const request = {
      mode: 'steady-state',
      pattern: { kind: 'uniform-random' },
      packetPhits: 1,
      slices: [0, 7],
      seed: 3,
      load: 0.4,
      sampleCycles: 4000,
    } as const;
    expect(validateTrafficRequest(request, shape)).toEqual([]);
    const r = finish(e.startTraffic(request, shape));
    expect(r.saturated).toBe(false);
    expect(r.accepted).toBeGreaterThan(0.36);
    expect(r.accepted).toBeLessThan(0.44);
    // The run ends when its measured packets have gone, the load behind them still in flight.
    expect(r.books).toMatchObject({ balanced: true, discarded: {} });
    expect(r.utilisation.maxPort).toBeGreaterThan(0);
    expect(r.utilisation.maxPort).toBeLessThanOrEqual(1);
    expect(r.utilisation.byVc.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(r.latency.meanNs).toBeGreaterThan(80);
  });

  it('records each discard where it happened: a channel cut under background load loses packets at its end, named by ASIC and channel', () => {
    const e = engine();
    e.sim.programDefaults();
    const run = e.startTraffic(
      { mode: 'background', pattern: { kind: 'uniform-random' }, packetPhits: 2, slices: [0], seed: 5, load: 0.3 },
      shape,
    ) as BackgroundSession;
    run.advance(3000);
    run.mark('cut');
    e.applyFault({ action: 'cut-link', chip: 'x0.y0.z0', port: 0 });
    run.advance(3000);
    run.stop(50_000);
    const r = finish(run);
    expect(r.books.balanced).toBe(true);
    expect(r.books.inFlight).toBe(0);
    expect(r.books.discarded['link-down']).toBeGreaterThan(0);
    const ends = new Set(r.discards.map((d) => `${d.epoch} ${d.reason} ${d.chip}:${d.port}`));
    expect(ends).toEqual(new Set(['1 link-down x0.y0.z0:0', '1 link-down x1.y0.z0:2']));
  });

  it('sends a share of a group source’s packets to its multicast group, alternating trees, every copy delivered once', () => {
    const e = engine();
    e.sim.programDefaults();
    // Group 4 from x0.y0.z0 to endpoint 3 of x1.y0.z0 and of x0.y0.z0: one tree by X0+, the other by X1+ (the trees alternate).
    for (const [tree, channel] of [
      [0, 0],
      [1, 1],
    ]) {
      e.sim.multicastTables[0] = new Map([...(e.sim.multicastTables[0] ?? []), [8 + tree, { endpoints: [3], channels: [channel] }]]);
      e.sim.multicastTables[1] = new Map([...(e.sim.multicastTables[1] ?? []), [8 + tree, { endpoints: [3], channels: [] }]]);
    }
    const request = {
      mode: 'batch',
      pattern: { kind: 'uniform-random' },
      packetPhits: 1,
      slices: [3],
      seed: 1,
      packets: 40,
      multicast: { fraction: 1, groups: [{ group: 4, source: 0 }] },
    } as const;
    expect(validateTrafficRequest(request, shape)).toEqual([]);
    const r = finish(e.startTraffic(request, shape));
    // 32 sources × 40 packets, and one more copy of each of the source's 40.
    expect(r.books).toMatchObject({ injected: 32 * 40 + 40, delivered: 32 * 40 + 40, inFlight: 0, balanced: true });
    expect(validateTrafficRequest({ ...request, multicast: { fraction: 2, groups: [{ group: 4, source: 99 }] } }, shape)).toEqual([
      '$.multicast.fraction: must be a fraction from 0 to 1, got 2',
      '$.multicast.groups[0].source: must be a whole number from 0 to 31, got 99',
    ]);
  });
});
