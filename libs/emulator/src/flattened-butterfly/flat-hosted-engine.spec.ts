import { FABRIC_FAMILY_MODELS, FLAT_PACKAGING, generateFlatDesign, MODEL_FLAT_ROUTER } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { validateTrafficRequest } from '../traffic/traffic-request';
import type { TrafficSession } from '../traffic/traffic-run';
import { FlatHostedEngine } from './flat-hosted-engine';
import { FlatMaintenanceController } from './flat-maintenance';
import { idealPortMap } from './flat-sim';

/** A 4-ary 3-flat: 16 routers of radix 10, terminals on ports 0–3, dimension 1 on 4–6, dimension 2 on 7–9. */
const design = generateFlatDesign({ k: 4, n: 3, radix: 10, spareUse: 'unused', packaging: FLAT_PACKAGING });
const grid = { k: 4, sizes: [4, 4] };

function hosted() {
  const engine = new FlatHostedEngine(new EmulatedFabric(design), 1);
  return { engine, transport: new FlatMaintenanceController(engine.sim, engine.fabric) };
}

/** Every router programmed for `routing` over the service network, as a control plane would. */
async function program(transport: FlatMaintenanceController, routing: number, sequential: number): Promise<void> {
  for (const chip of design.chips) {
    const at = chip.coordinates!;
    const r = at[0] + 4 * at[1];
    for (const [register, value] of [
      ['gridShape', [4, 4, 4]],
      ['coordinates', at],
      ['portMap', idealPortMap(grid, r)],
      ['vcMap', [0, 1]],
      ['bufferSplit', [16, 16, 0, 0]],
      ['portMask', new Array<number>(10).fill(0)],
      ['routingMode', [routing, sequential]],
    ] as const) {
      const result = await transport.write(at, register, 0, [...value]);
      if (!result.ok) throw new Error(`${chip.name} ${register}: ${result.detail}`);
    }
  }
}

describe('an emulated flattened butterfly in the host, over its service network', () => {
  it('answers by coordinates: identity, channels as link training found them, registers as written; refuses what a router cannot take', async () => {
    const { transport } = hosted();
    const identity = await transport.read([2, 1], 'routerIdentity');
    expect(identity.ok && identity.value[0]).toBe(MODEL_FLAT_ROUTER);
    const channels = await transport.read([0, 0], 'channelStates');
    // r0.0's port 4 leads to r1.0's port 4 (r1.0's first dimension-1 peer is coordinate 0); terminals show nothing.
    expect(channels.ok && channels.value.slice(0, 3)).toEqual([0, 0, -1]);
    expect(channels.ok && [channels.value[12], channels.value[14]]).toEqual([1, 4]);
    const early = await transport.write([0, 0], 'routingMode', 0, [0, 0]);
    expect(early).toMatchObject({ ok: false, reason: 'rejected', detail: 'routingMode: write gridShape first: the other registers are read by it' });
    expect(await transport.write([0, 0], 'gridShape', 0, [4, 4, 4, 4])).toMatchObject({ ok: false, detail: expect.stringContaining('more than the router') });
    expect(await transport.write([0, 0], 'gridShape', 0, [4, 4, 4])).toMatchObject({ ok: true });
    expect(await transport.write([0, 0], 'coordinates', 0, [0, 7])).toMatchObject({ ok: false, detail: 'coordinates: coordinate 2 must be 0 to 3, got 7' });
    expect(await transport.read([9, 9], 'routerIdentity')).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('runs a traffic run once programmed: accepted as offered, books balanced; a cut cable raises LINK_DOWN at both ends', async () => {
    const { engine, transport } = hosted();
    await program(transport, 3, 0); // UGAL, greedy
    const interrupts: string[] = [];
    transport.onInterrupt((i) => interrupts.push(`${i.kind} ${i.port}`));
    const shape = FABRIC_FAMILY_MODELS['flattened-butterfly'].trafficShape(design.summary);
    const request = { mode: 'steady-state', pattern: { kind: 'uniform-random' }, packetPhits: 1, slices: [0], seed: 3, load: 0.5, sampleCycles: 3000 } as const;
    expect(validateTrafficRequest(request, shape)).toEqual([]);
    const run: TrafficSession = engine.startTraffic(request, shape);
    while (!run.advance(10_000));
    const report = run.report();
    expect(report.accepted).toBeGreaterThan(0.45);
    expect(report.books.balanced).toBe(true);
    expect(engine.books()).toMatchObject({ balanced: true, discarded: {} });
    engine.applyFault({ action: 'cut-link', chip: 'r0.0', port: 4 });
    expect(interrupts).toEqual(['LINK_DOWN 4', 'LINK_DOWN 4']);
    expect(() => engine.applyFault({ action: 'lane-bit-error-rate', chip: 'r0.0', port: 4, lane: 0, rate: 0.1 })).toThrow(/no link layer/);
  });

  it('discards what an unconfigured router is asked to route, and what a dead router held, keeping the books', () => {
    const { engine } = hosted();
    engine.sim.send(0, 20);
    for (let i = 0; i < 10; i++) engine.step();
    expect(engine.books()).toEqual({ created: 1, delivered: 0, discarded: { unconfigured: 1 }, inFlight: 0, balanced: true });
    engine.sim.send(5, 20);
    engine.applyFault({ action: 'kill-router', chip: 'r1.0' });
    expect(engine.books()).toEqual({ created: 2, delivered: 0, discarded: { unconfigured: 1, 'router-dead': 1 }, inFlight: 0, balanced: true });
  });
});
