import { join } from 'node:path';
import { BglMaintenanceController, BglTorusSim, EmulatedFabric } from '@weft/emulator';
import { keyedDraw, loadInstallationFile } from '@weft/fabric-model';
import { channelLoad, patternFlows } from '../analysis/channel-load';
import { traceRoute } from '../analysis/route-trace';
import { driveEngine } from '../engine/driver';
import { FaultSet } from '../faults/fault-set';
import { quickAgainstWalked } from '../testing/quick-loads';
import { discoverBgl } from './bgl-discovery';
import { bglForwarding } from './bgl-forwarding';
import { pushBglImage } from './bgl-registry';
import { BglImage, BglRoutingEngine } from './bgl-routing-engine';

/** A midplane configured around dead nodes and pushed over JTAG into the emulator, and the forwarding read from the same image. */
async function configured(dead: string[]) {
  const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/bgl/bgl-midplane-512.json'));
  const fabric = new EmulatedFabric(installation.physical);
  const sim = new BglTorusSim(fabric, 1);
  for (const node of dead) sim.killNode(fabric.chipId(node));
  const jtag = new BglMaintenanceController(sim);
  const known = await discoverBgl(jtag, installation.expected);
  const outcome = driveEngine(new BglRoutingEngine(known), FaultSet.NONE);
  const image = outcome.computed.image as BglImage;
  await pushBglImage(jtag, null, image);
  return { sim, fabric, forwarding: bglForwarding(known, image) };
}

/** A pattern's channel loads over a whole healthy midplane, every flow delivered. */
async function midplaneLoad(kind: 'tornado' | 'all-to-all') {
  const { forwarding } = await configured([]);
  const endpoints = forwarding.endpoints.map((e) => e.number);
  const report = await channelLoad(forwarding, patternFlows({ kind }, endpoints, { torus: forwarding.torus }, 1, 1), { planes: [0], vc: 0 });
  expect(report.undeliverable).toBe(0);
  return report;
}

describe('BlueGene/L route analyses: the image read as the nodes read it', () => {
  it('a traced route is the path the emulated node takes: around the dead nodes, as many hops, relays included', async () => {
    const dead = ['x3.y4.z5', 'x3.y4.z6', 'x5.y1.z2'];
    const { sim, fabric, forwarding } = await configured(dead);
    const deadIds = new Set(dead.map((d) => fabric.chipId(d)));
    const hops = new Map<number, number>();
    sim.onDeliver = (p) => hops.set(sim.packetSerial(p) * 512 + sim.packetSource(p), sim.packetHops(p));
    const pairs: [number, number][] = [];
    for (let k = 0; pairs.length < 400; k++) {
      const s = (keyedDraw(7, 1, k, 0) * 512) | 0;
      const t = (keyedDraw(7, 2, k, 0) * 512) | 0;
      if (s !== t && !deadIds.has(s) && !deadIds.has(t)) pairs.push([s, t]);
    }
    // Plus the pairs whose minimal boxes hold a dead node: routed around in software.
    pairs.push([fabric.chipId('x3.y4.z4'), fabric.chipId('x3.y4.z7')], [fabric.chipId('x3.y3.z5'), fabric.chipId('x3.y5.z6')]);
    const serial = new Map<string, number>();
    let relayed = 0;
    for (const [s, t] of pairs) {
      const trace = traceRoute(forwarding, s, t, { plane: 0, vc: 0, hashBits: null });
      expect({ pair: `${s}>${t}`, outcome: trace.outcome, reason: trace.reason }).toEqual({ pair: `${s}>${t}`, outcome: 'delivered', reason: '' });
      for (const hop of trace.hops) expect(dead).not.toContain(hop.farEnd.chip);
      if (trace.hops.some((h) => h.how.includes('relay'))) relayed++;
      serial.set(`${s}>${t}`, sim.packetSerial(sim.send(s, t, 1)));
      sim.drain(100_000);
      expect(hops.get(serial.get(`${s}>${t}`)! * 512 + s)).toBe(trace.hops.length);
    }
    expect(relayed).toBeGreaterThan(0);
    expect(sim.discarded.size).toBe(0);
  });

  it('channel load of tornado traffic on a whole midplane: dynamic routes spread over their boxes, every channel of the moving directions equal', async () => {
    const report = await midplaneLoad('tornado');
    expect(report.channels).toBe(3072);
    // Tornado on 8×8×8: every node sends 3 hops + in each dimension, over its whole 4×4×4 box; by
    // symmetry every x+, y+ and z+ channel carries the same, 512 flows × 9 hops over 1536 channels.
    expect(report.loads).toHaveLength(1536);
    expect(report.loads.every((l) => [0, 2, 4].includes(l.channel.port) && Math.abs(l.load - 3) < 1e-9)).toBe(true);
  });

  it('channel load of all-to-all traffic on a whole midplane: the default tie rule splits half-way destinations between d+ and d−, so every channel carries the same', async () => {
    const report = await midplaneLoad('all-to-all');
    // Every node sends a 1/511 share to each other node, 6 × 512/511 hops on average, over 3,072
    // channels: 512/511 each. Sending every half-way destination d+ would load the d+ channels
    // 640/511 and the d− ones 384/511, capping uniform traffic at 80 % (issue 57, item 4).
    const loads = report.loads.map((l) => Math.round(l.load * 511 * 1e6) / 1e6);
    expect(report.loads).toHaveLength(3072);
    expect({ least: Math.min(...loads), most: Math.max(...loads) }).toEqual({ least: 512, most: 512 });
  });

  it('counts a channel load quickly (issue 54 §11) and exactly as the walk through the nodes’ decisions does, around dead nodes and their override entries too', async () => {
    const { forwarding } = await configured(['x3.y4.z5', 'x3.y4.z6', 'x5.y1.z2']);
    expect(forwarding.quickLoad).toBeDefined();
    // Every eighth node to every node, the dead ones included (undeliverable), and to itself.
    const flows = forwarding.endpoints
      .filter((_, i) => i % 8 === 0)
      .flatMap((s) => Array.from({ length: 512 }, (_, t) => ({ source: s.number, destination: t, rate: 1 / 512 })));
    const { quick, differences } = await quickAgainstWalked(forwarding, flows, [0]);
    expect(differences).toEqual([]);
    expect(quick.undeliverable).toBeGreaterThan(0);
  });
});
