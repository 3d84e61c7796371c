import { EmulatedFabric, FLAG_ADAPTIVE, FLAG_HASH, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile, mulberry32 } from '@weft/fabric-model';
import { join } from 'node:path';
import { discoverFabric } from '../discovery/discovery-sweep';
import { matchDesign } from '../discovery/match-design';
import { computeBlackWidowImage } from './blackwidow-engine';
import { pushImage } from './push-image';

/** Discover, compute and push, through the maintenance transport only; then run traffic. */
async function configure(name: string) {
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow', `${name}.json`));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const controller = new YarcMaintenanceController(sim, 0);
  const discovered = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
  const matched = matchDesign(discovered, installation.expected);
  const image = computeBlackWidowImage(discovered, matched, installation.expected);
  const report = await runUntilSettled(sim, pushImage(controller, image), 1e9, 2_000);
  return { installation, sim, image, report };
}

describe('BlackWidow routing engine: discover → compute → push → traffic', () => {
  it("computes the paper's registers for the 288-processor R1.5 fabric (§5.1, §5.2)", async () => {
    const { image, report } = await configure('bw-r1.5-288');
    expect(image.problems).toEqual([]);
    expect(report.failures).toEqual([]);
    const r13 = image.routers.find((r) => r.name === 's0.r1.3')!;
    const vr = r13.virtualRouters[0];
    // A rank-1 router over processors 96–127: root detect 0x0060/0x001F, down route s=0, m=0x1F.
    expect(vr.rootDetect).toEqual([0x60, 0x1f]);
    expect(vr.downRoute).toEqual([0, 0x1f]);
    // One table entry per peer subtree, each with its four sidelinks.
    expect(vr.table.map((e) => [e.location, e.mask, e.ports.length])).toEqual([0, 1, 2, 4, 5, 6, 7, 8].map((t) => [t * 32, 0x1f, 4]));
  });

  it('delivers all-pairs traffic in every slice of the R1.5 fabric with the topology hop counts', async () => {
    const { sim } = await configure('bw-r1.5-288');
    let wrongHops = 0;
    sim.onDeliver = (p) => {
      const src = sim.globalProcessor[sim.packets.source(p)];
      const dst = sim.packets.destination(p);
      if (sim.packets.hops(p) !== (src >> 5 === dst >> 5 ? 1 : 2)) wrongHops++;
    };
    const before = sim.packets.delivered;
    for (let slice = 0; slice < 4; slice++) {
      for (let s = 0; s < 288; s++)
        for (let d = 0; d < 288; d++) if (s !== d) sim.inject(s, slice, d, 4, slice & 1, (s + d) % 3 === 0 ? FLAG_ADAPTIVE : FLAG_HASH, (s * 31 + d) & 0x7fff);
    }
    sim.drain(5_000_000);
    expect(sim.packets.delivered - before).toBe(4 * 288 * 287);
    expect(sim.packets.books()).toMatchObject({ inFlight: 0, discarded: {}, balanced: true });
    expect(wrongHops).toBe(0);
  });

  it('configures the 1024-processor R2 fabric with its radix-32 virtual routers; sampled pairs arrive in three hops', async () => {
    const { sim, image, report } = await configure('bw-r2-1024');
    expect(image.problems).toEqual([]);
    expect(report.failures).toEqual([]);
    const r2 = image.routers.find((r) => r.name === 's1.r2.0.3')!;
    expect(r2.virtualRouters.map((v) => [v.tiles.length, v.rootDetect, v.downRoute])).toEqual([
      [32, [0, 0x3ff], [5, 31]],
      [32, [0, 0x3ff], [5, 31]],
    ]);
    let wrongHops = 0;
    sim.onDeliver = (p) => {
      const src = sim.globalProcessor[sim.packets.source(p)];
      const dst = sim.packets.destination(p);
      if (sim.packets.hops(p) !== (src >> 5 === dst >> 5 ? 1 : 3)) wrongHops++;
    };
    const random = mulberry32(3);
    const before = sim.packets.delivered;
    let sent = 0;
    for (let slice = 0; slice < 4; slice++) {
      for (let s = 0; s < 1024; s++) {
        for (let k = 0; k < 24; k++) {
          const d = (s + 1 + Math.floor(random() * 1023)) % 1024;
          sim.inject(s, slice, d, 4, 0, FLAG_HASH, d);
          sent++;
        }
      }
    }
    sim.drain(5_000_000);
    expect(sim.packets.delivered - before).toBe(sent);
    expect(sim.packets.books()).toMatchObject({ inFlight: 0, discarded: {}, balanced: true });
    expect(wrongHops).toBe(0);
  });
});
