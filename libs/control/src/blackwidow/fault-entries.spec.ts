import { EmulatedFabric, FLAG_HASH, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { defaultCableLengths, generateBlackWidowDesign, loadInstallationFile, mulberry32 } from '@weft/fabric-model';
import { designAsDiscovered } from '../discovery/known-fabric';
import { configureBlackWidow, faultSet } from './configure-blackwidow';
import { join } from 'node:path';
import { discoverFabric } from '../discovery/discovery-sweep';
import { matchDesign } from '../discovery/match-design';
import { computeBlackWidowImage } from './blackwidow-engine';
import { applyFaultEntries } from './fault-entries';
import { pushImage } from './push-image';
import { verifyConfiguration } from './verifier';

/** A 1024-processor R2 fabric with something broken before the control plane looks at it. */
async function brokenR2(breakIt: (sim: YarcFabricSim) => void) {
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow/bw-r2-1024.json'));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  breakIt(sim);
  const controller = new YarcMaintenanceController(sim, 0);
  const discovered = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
  const matched = matchDesign(discovered, installation.expected);
  const image = applyFaultEntries(computeBlackWidowImage(discovered, matched, installation.expected), matched.cables, 32);
  const processors = Array.from({ length: 1024 }, (_, i) => i);
  const verdict = verifyConfiguration({ image, cables: matched.cables, processors, slices: [0, 1, 2, 3], diameter: 3 });
  const report = await runUntilSettled(sim, pushImage(controller, image), 1e9, 2_000);
  return { sim, image, verdict, report, matched };
}

function sampledTraffic(sim: YarcFabricSim, exclude: (p: number) => boolean = () => false) {
  const random = mulberry32(5);
  let sent = 0;
  for (let slice = 0; slice < 4; slice++) {
    for (let s = 0; s < 1024; s++) {
      if (exclude(s)) continue;
      for (let k = 0; k < 8; k++) {
        const d = (s + 1 + Math.floor(random() * 1023)) % 1024;
        if (exclude(d)) continue;
        sim.inject(s, slice, d, 4, 0, FLAG_HASH, (s * 7 + k) & 0x7fff);
        sent++;
      }
    }
  }
  const before = sim.packets.delivered;
  sim.drain(5_000_000);
  return { sent, delivered: sim.packets.delivered - before };
}

describe('fault entries (§5.1, §7.7)', () => {
  it('routes around a cut R1–R2 cable: entries for the shadowed subtree avoid the R2 router that lost it', async () => {
    const { sim, image, verdict, report, matched } = await brokenR2((s) => {
      // Cable from s0.r1.5's uplink to an R2 virtual router is cut.
      const r = s.chipRouter[s.fabric.chipId('s0.r1.5')];
      const uplink = [...Array(32).keys()].map((k) => s.routerPortGlobal[r * 64 + 32 + k]).find((g) => s.fabric.peer[g] >= 0)!;
      s.cutLink(uplink);
    });
    expect(matched.findings.map((f) => f.kind)).toEqual(['missing-cable']);
    expect(verdict).toMatchObject({ ok: true });
    expect(report.failures).toEqual([]);
    // Every other slice-0 R1 has an entry for processors 160–191 (subtree 5) that avoids one uplink.
    const other = image.routers.find((r) => r.name === 's0.r1.9')!.virtualRouters[0];
    expect(other.table.map((e) => [e.location, e.mask, e.ports.length])).toEqual([
      [0, 0x7fff, 32],
      [160, 31, 28],
    ]);
    expect(image.problems.filter((p) => !p.includes('not a legal modulus'))).toEqual([]);
    const traffic = sampledTraffic(sim);
    expect(traffic.delivered).toBe(traffic.sent);
    expect(sim.packets.books()).toMatchObject({ inFlight: 0, balanced: true, discarded: {} });
  });

  it('routes around a dead R2 router: no R1 sends to it, everyone still reaches everyone', async () => {
    const { sim, verdict, report } = await brokenR2((s) => s.killRouter(s.fabric.chipId('s2.r2.0.7')));
    expect(verdict).toMatchObject({ ok: true });
    expect(report.failures).toEqual([]);
    const traffic = sampledTraffic(sim);
    expect(traffic.delivered).toBe(traffic.sent);
    expect(sim.packets.books()).toMatchObject({ inFlight: 0, balanced: true, discarded: {} });
  });

  it('a dead R1 router: its processors are unreachable, everyone else still reaches everyone', async () => {
    const { sim, verdict } = await brokenR2((s) => s.killRouter(s.fabric.chipId('s3.r1.12')));
    // The verifier, asked about every processor, says exactly which cannot be reached in slice 3.
    expect(verdict.ok).toBe(false);
    expect(verdict.violations.map((v) => v.message).filter((m) => !m.includes('384–415'))).toEqual([]);
    const traffic = sampledTraffic(sim, (p) => p >> 5 === 12);
    expect(traffic.delivered).toBe(traffic.sent);
  });
});

describe('fault entries with sidelinks at the top (R2.5)', () => {
  it('a cut R1–R2 cable under a full sidelink table: routers that cannot help are avoided, not given an entry that does not fit', () => {
    const design = generateBlackWidowDesign({
      network: 'R2.5',
      processors: 4608,
      slices: 1,
      r1Uplinks: 32,
      portSeed: 7,
      cableLengths: defaultCableLengths(4608),
    });
    const known = designAsDiscovered(design, 'p0');
    const cut = design.cables.find((c) => c.a.chip === 's0.r1.0' && c.b.chip.startsWith('s0.r2.'))!;
    const { image, verification } = configureBlackWidow(known, faultSet([{ kind: 'link', chip: cut.a.chip, port: cut.a.port }]));
    expect(verification).toMatchObject({ ok: true, violations: [] });
    // Each R2 holds one entry per peer subtree: eight, a full table, and no more.
    const r2 = image.routers.filter((r) => r.rank === 2);
    expect(r2.every((r) => r.virtualRouters.every((v) => v.table.length === 8))).toBe(true);
    expect(image.problems.filter((p) => p.includes('table entries'))).toEqual([]);
  });
});
