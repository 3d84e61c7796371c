import { generateAnton2Design, keyedDraw, shippedAnton2Floorplan } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { Anton2Sim } from './anton2-sim';

/**
 * §4.3: on the 512-node machine, one-way latency grows linearly with hops — 80.7 ns + 39.1 ns a
 * hop. The emulator's SerDes and endpoint-software settings are calibrated to it (the floorplan
 * and those settings are weft's, so the fit is a check of the calibration, not of the paper).
 */
describe('Anton 2 latency against hops (§4.3)', () => {
  it('grows linearly with torus hops on 8×8×8, near the paper’s fit of 80.7 ns + 39.1 ns a hop', () => {
    const sim = new Anton2Sim(
      new EmulatedFabric(generateAnton2Design({ shape: [8, 8, 8], backplaneChannelNs: 2, cableChannelNs: 10 })),
      shippedAnton2Floorplan(),
      3,
    );
    sim.programDefaults();
    const hops: number[] = [];
    const ns: number[] = [];
    sim.onDeliver = (p, _t, latency) => {
      hops.push(sim.packetHops(p));
      ns.push(latency * sim.nsPerCycle);
    };
    // One packet at a time, so that nothing waits for anything.
    for (let i = 0; i < 1200; i++) {
      sim.send(Math.floor(keyedDraw(1, 1, i, 0) * 512), i % 23, Math.floor(keyedDraw(1, 2, i, 0) * 512), (7 * i) % 23);
      sim.run(500);
    }
    const n = hops.length;
    const mx = hops.reduce((a, b) => a + b) / n;
    const my = ns.reduce((a, b) => a + b) / n;
    let sxy = 0;
    let sxx = 0;
    let syy = 0;
    for (let i = 0; i < n; i++) {
      sxy += (hops[i] - mx) * (ns[i] - my);
      sxx += (hops[i] - mx) ** 2;
      syy += (ns[i] - my) ** 2;
    }
    const slope = sxy / sxx;
    const intercept = my - slope * mx;
    expect(n).toBe(1200);
    expect((sxy * sxy) / (sxx * syy)).toBeGreaterThan(0.97);
    expect(Math.abs(slope - 39.1) / 39.1).toBeLessThan(0.03);
    expect(Math.abs(intercept - 80.7) / 80.7).toBeLessThan(0.05);
  });
});
