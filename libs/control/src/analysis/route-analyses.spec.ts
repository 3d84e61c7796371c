import { EmulatedFabric, FLAG_HASH, FLAG_TRACE, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile, makePattern, mulberry32 } from '@weft/fabric-model';
import { join } from 'node:path';
import { configureBlackWidow } from '../blackwidow/configure-blackwidow';
import { blackWidowForwarding } from '../blackwidow/blackwidow-forwarding';
import { planPush } from '../blackwidow/push-plan';
import { executePlan } from '../engine/push-plan';
import { discoverFabric } from '../discovery/discovery-sweep';
import type { KnownFabric } from '../discovery/known-fabric';
import { matchDesign } from '../discovery/match-design';
import { channelDependencies } from './channel-dependencies';
import { channelLoad, patternFlowBound, patternFlows } from './channel-load';
import { ChipPort, channelName, Forwarding } from './forwarding';
import { traceRoute } from './route-trace';

/** An emulated fabric discovered, configured and pushed through its maintenance transport, as the service does it. */
async function configured(fixture: string) {
  const installation = loadInstallationFile(join(__dirname, `../../../../fixtures/blackwidow/${fixture}.json`));
  const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
  const controller = new YarcMaintenanceController(sim, 0);
  const discovered = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
  const known: KnownFabric = { discovered, matched: matchDesign(discovered, installation.expected), design: installation.expected, attachment: 'p0' };
  const { image, verification } = configureBlackWidow(known);
  expect(verification.ok).toBe(true);
  const pushed = await runUntilSettled(sim, executePlan(controller, planPush(null, image)), 1e9, 2_000);
  expect(pushed.failures).toEqual([]);
  return { sim, forwarding: blackWidowForwarding(known, image) };
}

describe('route analyses on the configuration in force', () => {
  it.each(['bw-r1.5-288', 'bw-r2-1024'])('trace the path the emulated packets take, hop by hop with their VC, for sampled pairs (%s)', async (fixture) => {
    const { sim, forwarding } = await configured(fixture);
    const random = mulberry32(35);
    const n = forwarding.endpoints.length;
    const samples = Array.from({ length: 48 }, () => {
      const source = Math.floor(random() * n);
      const destination = (source + 1 + Math.floor(random() * (n - 1))) % n;
      return { source, destination, slice: Math.floor(random() * 4), vc: random() < 0.5 ? 0 : 1, hashBits: Math.floor(random() * 0x8000) };
    });
    const ids = samples.map((s) => sim.inject(s.source, s.slice, s.destination, 4, s.vc, FLAG_HASH | FLAG_TRACE, s.hashBits));
    sim.drain(1e6);
    let hops = 0;
    samples.forEach((s, i) => {
      const emulated = (sim.packets.trace(ids[i]) ?? []).filter((e) => e.stage === 'link').map((e) => `${sim.fabric.chipNames[e.chip]}:${e.port} vc ${e.vc}`);
      const trace = traceRoute(forwarding, s.source, s.destination, { plane: s.slice, vc: s.vc, hashBits: s.hashBits });
      expect(trace.outcome).toBe('delivered');
      const traced = [trace.injection!, ...trace.hops.map((h) => ({ chip: h.chip, port: h.outPort }))].map((c) => `${channelName(c)} vc ${s.vc}`);
      expect(traced).toEqual(emulated);
      hops += trace.hops.length;
      // Each hop lists every port the registers allow, the one taken among them.
      for (const hop of trace.hops) expect(hop.choices.map((c) => c.port)).toContain(hop.outPort);
    });
    expect(hops).toBeGreaterThan(samples.length * 1.5);
  });

  it('compute per-channel loads of a seeded random permutation that agree with the phits an emulator run carries at low load (bw-r1.5-288)', async () => {
    const { sim, forwarding } = await configured('bw-r1.5-288');
    const endpoints = forwarding.endpoints.map((e) => e.number);
    const flows = patternFlows({ kind: 'random-permutation' }, endpoints, { endpointsPerRouter: 32 }, 7, 1);
    const predicted = await channelLoad(forwarding, flows, { planes: [0], vc: 0 });
    // The emulated run: every flow sends `packets` 4-phit packets with random hash bits, spaced out.
    const packets = 96;
    const pattern = makePattern({ kind: 'random-permutation' }, { endpoints: endpoints.length, endpointsPerRouter: 32 }, 7);
    const before = sim.portPhits();
    const random = mulberry32(11);
    for (let k = 0; k < packets; k++) {
      for (const source of endpoints) {
        const destination = pattern.destination(source, random);
        if (destination >= 0) sim.inject(source, 0, destination, 4, 0, FLAG_HASH, Math.floor(random() * 0x8000));
      }
      for (let c = 0; c < 150; c++) sim.step();
    }
    sim.drain(1e6);
    const after = sim.portPhits();
    const vcsPerPort = after.length / sim.fabric.portCount;
    const carried = (channel: ChipPort) => {
      const at = sim.fabric.portIndex(channel.chip, channel.port) * vcsPerPort; // VC 0
      return (after[at] - before[at]) / 4 / packets;
    };
    const loadOf = (report: typeof predicted, channel: ChipPort) => report.loads.find((l) => channelName(l.channel) === channelName(channel))?.load ?? 0;
    let compared = 0;
    let error = 0;
    for (const channel of forwarding.channels) {
      const expected = loadOf(predicted, channel);
      const observed = carried(channel);
      // A flow's packets split over the ports of an entry binomially: within a few standard deviations.
      const sd = Math.sqrt(expected / packets) + 1e-9;
      expect(Math.abs(observed - expected)).toBeLessThanOrEqual(4 * sd);
      error += Math.abs(observed - expected);
      if (expected > 0) compared++;
    }
    expect(compared).toBeGreaterThan(500);
    expect(predicted.undeliverable).toBe(0);
    expect(predicted.maximum).toBeGreaterThan(predicted.mean);
    // The agreement is the routing's, not the tolerance's: another permutation's loads are far off.
    const other = await channelLoad(forwarding, patternFlows({ kind: 'random-permutation' }, endpoints, { endpointsPerRouter: 32 }, 8, 1), {
      planes: [0],
      vc: 0,
    });
    const otherError = forwarding.channels.reduce((sum, channel) => sum + Math.abs(carried(channel) - loadOf(other, channel)), 0);
    expect(error * 4).toBeLessThan(otherError);
  });

  it('know how many flows a pattern makes before making them, so that one too large to analyse is refused unbuilt', () => {
    const endpoints = Array.from({ length: 288 }, (_, i) => i);
    const context = { endpointsPerRouter: 32 };
    expect(patternFlows({ kind: 'uniform-random' }, endpoints, context, 1, 1)).toHaveLength(patternFlowBound({ kind: 'uniform-random' }, 288, 1));
    expect(patternFlows({ kind: 'random-permutation' }, endpoints, context, 1, 3).length).toBeLessThanOrEqual(
      patternFlowBound({ kind: 'random-permutation' }, 288, 3),
    );
    // Uniform random traffic on the 32K fabric: a billion flows, known without building one.
    expect(patternFlowBound({ kind: 'uniform-random' }, 32_768, 1)).toBe(32_768 * 32_767);
  });

  it('prove the configured BlackWidow routing free of channel-dependency cycles (bw-r1.5-288)', async () => {
    const { forwarding } = await configured('bw-r1.5-288');
    const report = await channelDependencies(forwarding);
    expect(report).toMatchObject({ acyclic: true, cycle: null });
    expect(report.dependencies).toBeGreaterThan(report.channels);
  });

  it('report a cycle of a hand-made routing, named by chips, ports and VCs', async () => {
    // Four routers in a ring, each with an endpoint on port 2; every router sends what is not its
    // own endpoint's clockwise (port 1 to the next router's port 0): the ring's channels wait on each other.
    const ring: Forwarding = {
      family: 'test',
      planes: [0],
      vcs: [0],
      endpoints: [0, 1, 2, 3].map((number) => ({ number, name: `e${number}` })),
      channels: [0, 1, 2, 3].flatMap((r) => [
        { chip: `r${r}`, port: 1 },
        { chip: `r${r}`, port: 2 },
        { chip: `e${r}`, port: 0 },
      ]),
      injection: (endpoint) => ({ chip: `e${endpoint}`, port: 0 }),
      peer: (end) => {
        if (end.chip.startsWith('e')) return { chip: `r${end.chip.slice(1)}`, port: 2 };
        const r = Number(end.chip.slice(1));
        if (end.port === 1) return { chip: `r${(r + 1) % 4}`, port: 0 };
        if (end.port === 0) return { chip: `r${(r + 3) % 4}`, port: 1 };
        return { chip: `e${r}`, port: 0 };
      },
      endpointOf: (chip) => (chip.startsWith('e') ? Number(chip.slice(1)) : null),
      decide: (at, header) => {
        const port = Number(at.chip.slice(1)) === header.destination ? 2 : 1;
        return { kind: 'forward', choices: [{ port, share: 1 }], chosen: port, vc: header.vc, how: 'clockwise' };
      },
    };
    const report = await channelDependencies(ring);
    expect(report.acyclic).toBe(false);
    const cycle = report.cycle!;
    expect(cycle[cycle.length - 1]).toBe(cycle[0]);
    expect([...cycle.slice(1)].sort()).toEqual(['r0:1 vc 0', 'r1:1 vc 0', 'r2:1 vc 0', 'r3:1 vc 0']);
    expect(traceRoute(ring, 0, 3, { plane: 0, vc: 0, hashBits: null }).hops.map((h) => h.chip)).toEqual(['r0', 'r1', 'r2', 'r3']);
  });
});
