import { generateAnton2Design } from '@weft/fabric-model';
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
    e.applyFault({ action: 'kill-router', chip: 'x1.y0.z0' });
    e.applyFault({ action: 'revive-router', chip: 'x1.y0.z0' });
    expect(e.sim.dead[1]).toBe(0);
    expect(Array.from(e.sim.sizeRegister.subarray(3, 6))).toEqual([0, 0, 0]);
  });

  it('keeps balanced books, and refuses what its chips cannot have done or its runner cannot run yet, saying so', () => {
    const e = engine();
    e.sim.programDefaults();
    e.sim.send(0, 0, 5, 1);
    e.sim.send(0, 0, 99 % 32, 1);
    for (let i = 0; i < 2000 && !e.idle(); i++) e.step();
    expect(e.books()).toEqual({ created: 2, delivered: 2, discarded: {}, inFlight: 0, balanced: true });
    expect(() => e.applyFault({ action: 'cut-link', chip: 'x0.y0.z0', port: 12 })).toThrow(/channel ports 0 to 11/);
    expect(() => e.applyFault({ action: 'lane-bit-error-rate', chip: 'x0.y0.z0', port: 0, lane: 8, rate: 0.1 })).toThrow(/eight SerDes lanes/);
    expect(() => e.applyFault({ action: 'stop-accepting', chip: 'x0.y0.z0', port: 0 })).toThrow(/cannot be stopped/);
    expect(() => e.startTraffic()).toThrow(/has not landed yet/);
  });
});
