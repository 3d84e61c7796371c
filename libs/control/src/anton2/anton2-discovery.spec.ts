import { generateAnton2Design, shippedAnton2Floorplan } from '@weft/fabric-model';
import { Anton2MaintenanceController, Anton2Sim, EmulatedFabric } from '@weft/emulator';
import { discoverAnton2 } from './anton2-discovery';

describe('Anton 2 discovery over the control network', () => {
  const design = generateAnton2Design({ shape: [4, 4, 2], backplaneChannelNs: 2, cableChannelNs: 10 });

  it('finds every ASIC at its place and every channel as designed, with nothing to report', async () => {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 1);
    const known = await discoverAnton2(new Anton2MaintenanceController(sim), design);
    expect(known.discovered.chips).toHaveLength(32);
    // 4×4×2: X and Y rings of 4 and a Z ring of 2, two slices: 32 × 3 dimensions × 2 slices channels.
    expect(known.discovered.links).toHaveLength(32 * 3 * 2);
    expect(known.matched.findings).toEqual([]);
  });

  it('names a dead channel by both ends and a dead ASIC by its place', async () => {
    const sim = new Anton2Sim(new EmulatedFabric(design), shippedAnton2Floorplan(), 1);
    sim.setChannelDown(0, 1, true); // x0.y0.z0's X1+
    sim.killNode(5);
    const known = await discoverAnton2(new Anton2MaintenanceController(sim), design);
    const messages = known.matched.findings.map((f) => f.message);
    expect(messages).toContain('ASIC x1.y1.z0 does not answer on the control network');
    expect(messages).toContain("the design's cable x0.y0.z0:1–x1.y0.z0:3 is down at both ends");
    expect(messages).toHaveLength(2);
  });
});
