import { EmulatedFabric, FLAG_ADAPTIVE, FLAG_HASH, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { defaultCableLengths, generateBlackWidowDesign, loadInstallationFile, mulberry32 } from '@weft/fabric-model';
import { join } from 'node:path';
import { traceRoute } from '../analysis/route-trace';
import { discoverFabric } from '../discovery/discovery-sweep';
import { designAsDiscovered } from '../discovery/known-fabric';
import { matchDesign } from '../discovery/match-design';
import { blackWidowForwarding } from './blackwidow-forwarding';
import { computeBlackWidowImage } from './blackwidow-engine';
import { configureBlackWidow } from './configure-blackwidow';
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

describe('BlackWidow hash windows (paper 000 §7.8.2)', () => {
  it("spread a block transfer's cachelines over every rank-1 uplink, and beyond the 32nd over every rank-1 and rank-2 uplink pair of an R3 slice", () => {
    const design = generateBlackWidowDesign({
      network: 'R3',
      processors: 1024,
      slices: 1,
      r1Uplinks: 32,
      portSeed: 3,
      cableLengths: defaultCableLengths(1024),
    });
    const known = designAsDiscovered(design, 'p0');
    const forwarding = blackWidowForwarding(known, configureBlackWidow(known).image);
    // Processor 5 (R2 subtree 0) to 1000 (subtree 1): the path climbs to rank 3.
    const uplinks = (line: number) => {
      const trace = traceRoute(forwarding, 5, 1000, { plane: 0, vc: 0, hashBits: line });
      expect(trace.outcome).toBe('delivered');
      return [trace.hops[0].outPort, trace.hops[1].outPort];
    };
    const lines = (count: number) => Array.from({ length: count }, (_, line) => uplinks(line));
    // 32 consecutive cachelines use up hash bits 0–4 at rank 1: one line a rank-1 uplink.
    expect(new Set(lines(32).map(([r1]) => r1)).size).toBe(32);
    // Rank 2 hashes bits 5–12, which rank 1 left unused: 512 lines reach all 32 × 16 pairs.
    expect(new Set(lines(512).map(([r1, r2]) => `${r1}/${r2}`)).size).toBe(32 * 16);
  });
});
