/**
 * Digests of the torus and flattened-butterfly families (issue 56: before a family moves onto the
 * shared engine, what it does is recorded, so that the move can be held to "nothing changed").
 *
 * Each fixture runs as the emulator's host runs it — the chip model's hosted engine and its
 * maintenance controller (chip-models.ts) — discovered, computed, proven and pushed by its family's
 * routing engine (ROUTING_ENGINES), then a seeded batch of uniform random traffic through the
 * hosted engine's traffic runner while the physical faults a drill does land at fixed cycles: a
 * noisy cable from the start (go-back-N resends), a cable cut, a router killed, the cable mended.
 * No reaction follows: what was routed through a fault is discarded where the fault is.
 *
 * The digest is of every packet's delivery (source, destination, cycle sent, cycle delivered), every
 * interrupt with its emulated time, and the run's report — the books, the discards by place and
 * reason, latencies, hops, link use.
 *
 * Anton 2 also runs its own open-loop sources on 8×8×8 (`anton2SteadyDigest`): the path on which
 * its ASICs run apart in lookahead windows (the bench's), through a dead ASIC and a cut channel.
 */
import { Anton2Sim, EmulatedFabric } from '@weft/emulator';
import type { HostedEngine, PhysicalFault, TrafficSession } from '@weft/emulator';
import { hostedFabric } from '@weft/control/testing/hosted-fabric';
import { FABRIC_FAMILY_MODELS, generateAnton2Design, keyedDraw, shippedAnton2Floorplan } from '@weft/fabric-model';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** A packet as a digest names it, through the family's own simulator (until it runs on the shared engine). */
interface PacketView {
  source(p: number): number;
  destination(p: number): number;
  sentAt(p: number): number;
}

interface Watched {
  onDeliver: (p: number, cycle: number, ...rest: never[]) => void;
}

/** How each family's simulator names a packet and hears of its delivery. */
const VIEWS: Record<string, (hosted: HostedEngine) => { sim: Watched; view: PacketView }> = {
  bgl: (hosted) => {
    const sim = (hosted as unknown as { sim: Watched & BglLike }).sim;
    return { sim, view: { source: (p) => sim.packetSource(p), destination: (p) => sim.packetFinalDestination(p), sentAt: (p) => sim.packetSentAt(p) } };
  },
  anton2: (hosted) => {
    const sim = (hosted as unknown as { sim: Watched & Anton2Like }).sim;
    return { sim, view: { source: (p) => sim.packetSource(p), destination: (p) => sim.packetDestination(p), sentAt: (p) => sim.packetSentAt(p) } };
  },
  'flattened-butterfly': (hosted) => {
    const sim = (hosted as unknown as { sim: Watched & FlatLike }).sim;
    return { sim, view: { source: (p) => sim.packetSource(p), destination: (p) => sim.packetDestination(p), sentAt: (p) => sim.packetBorn(p) } };
  },
};

interface BglLike {
  packetSource(p: number): number;
  packetFinalDestination(p: number): number;
  packetSentAt(p: number): number;
}
interface Anton2Like {
  packetSource(p: number): number;
  packetDestination(p: number): number;
  packetSentAt(p: number): number;
}
interface FlatLike {
  packetSource(p: number): number;
  packetDestination(p: number): number;
  packetBorn(p: number): number;
}

export interface FamilyFixture {
  /** Path under fixtures/. */
  readonly file: string;
  /** Packets per source in the batch. */
  readonly packets: number;
  /** Phits per packet (BG/L: bytes, a multiple of 32; Anton 2: flits; the flattened butterfly: 1). */
  readonly packetPhits: number;
  /** Whether the fabric's links have a link layer to corrupt (the flattened butterfly's idealised routers do not). */
  readonly noisy: boolean;
  /** Cycles into the batch the cable is cut, the router killed and the cable mended. */
  readonly faultsAt: readonly [number, number, number];
}

/** The faults' cycles where packets take thousands of cycles to drain. */
const SLOW: FamilyFixture['faultsAt'] = [200, 500, 1_000];
/** The flattened butterfly's single-flit packets drain in tens of cycles. */
const FAST: FamilyFixture['faultsAt'] = [10, 25, 45];

export const FAMILY_FIXTURES: readonly FamilyFixture[] = [
  { file: 'bgl/bgl-midplane-512.json', packets: 24, packetPhits: 256, noisy: true, faultsAt: SLOW },
  { file: 'bgl/bgl-4k.json', packets: 6, packetPhits: 256, noisy: true, faultsAt: SLOW },
  { file: 'bgl/bgl-8k.json', packets: 4, packetPhits: 256, noisy: true, faultsAt: SLOW },
  { file: 'bgl/bgl-32k.json', packets: 2, packetPhits: 256, noisy: true, faultsAt: SLOW },
  { file: 'anton2/anton2-4x4x1-16.json', packets: 200, packetPhits: 2, noisy: true, faultsAt: SLOW },
  { file: 'anton2/anton2-8x8x8-512.json', packets: 80, packetPhits: 2, noisy: true, faultsAt: SLOW },
  { file: 'anton2/anton2-16x16x16-4096.json', packets: 40, packetPhits: 2, noisy: true, faultsAt: SLOW },
  { file: 'flattened-butterfly/fb-32ary-2flat-1024.json', packets: 80, packetPhits: 1, noisy: false, faultsAt: FAST },
  { file: 'flattened-butterfly/fb-32ary-2flat-1024-redundant.json', packets: 80, packetPhits: 1, noisy: false, faultsAt: FAST },
  { file: 'flattened-butterfly/fb-16ary-4flat-65536.json', packets: 40, packetPhits: 1, noisy: false, faultsAt: FAST },
];

/** Runs a session up to emulated cycle `until` (or its end). */
function advanceTo(hosted: HostedEngine, session: TrafficSession, until: number): void {
  while (!session.finished && hosted.cycle < until) session.advance(Math.min(1_000, until - hosted.cycle));
}

export async function familyFixtureDigest(root: string, fixture: FamilyFixture): Promise<{ digest: string; packets: number; cycles: number }> {
  const { installation, family, fabric, hosted, interrupts } = await hostedFabric(join(root, 'fixtures', fixture.file), 1);
  const shape = FABRIC_FAMILY_MODELS[family].trafficShape(installation.physical.summary);
  const session = hosted.startTraffic(
    { mode: 'batch', pattern: { kind: 'uniform-random' }, packetPhits: fixture.packetPhits, slices: [0], seed: 56, packets: fixture.packets, limit: 5_000_000 },
    shape,
  );
  const { sim, view } = VIEWS[family](hosted);
  const deliveries: string[] = [];
  const inner = sim.onDeliver;
  sim.onDeliver = (p, cycle, ...rest) => {
    deliveries.push(`${view.source(p)}>${view.destination(p)}@${view.sentAt(p)}:${cycle}`);
    inner(p, cycle, ...rest);
  };

  // The faults: routers of the design in the middle of its numbering, away from the attachment.
  const routers = fabric.design.chips.filter((c) => c.kind === 'router').map((c) => c.name);
  const cutChip = fabric.chipId(routers[Math.floor(routers.length / 3)]);
  let cutPort = fabric.portBase[cutChip];
  while (!(fabric.peer[cutPort] >= 0 && fabric.design.chips[fabric.portOwner(fabric.peer[cutPort])].kind === 'router')) cutPort++;
  const cutAt = { chip: fabric.chipNames[cutChip], port: cutPort - fabric.portBase[cutChip] };
  const victim = routers[Math.floor(routers.length / 2)];
  const start = hosted.cycle;
  const timeline: { at: number; fault: PhysicalFault }[] = [
    ...(fixture.noisy ? [{ at: 0, fault: { action: 'lane-bit-error-rate', chip: routers[1], port: 1, lane: 0, rate: 2e-4 } as PhysicalFault }] : []),
    { at: fixture.faultsAt[0], fault: { action: 'cut-link', ...cutAt } },
    { at: fixture.faultsAt[1], fault: { action: 'kill-router', chip: victim } },
    { at: fixture.faultsAt[2], fault: { action: 'restore-link', ...cutAt } },
  ];
  for (const { at, fault } of timeline) {
    advanceTo(hosted, session, start + at);
    if (session.finished) throw new Error(`${fixture.file}: the batch ended at cycle ${hosted.cycle - start}, before its faults (more packets)`);
    hosted.applyFault(fault);
  }
  while (!session.finished) session.advance(10_000);
  const report = session.report();
  const books = hosted.books();
  if (!books.balanced || books.inFlight !== 0) throw new Error(`${fixture.file}: the books after the batch are ${JSON.stringify(books)}`);

  const hash = createHash('sha256');
  for (const d of deliveries.sort()) hash.update(`${d};`);
  hash.update(`|${interrupts.join(';')}|${JSON.stringify(report)}|${JSON.stringify(books)}`);
  return { digest: hash.digest('hex').slice(0, 32), packets: deliveries.length, cycles: hosted.cycle };
}

/** Anton 2 8×8×8 under its own sources (the windowed path), through a dead ASIC and a cut channel; drained. */
export function anton2SteadyDigest(): { digest: string; packets: number; cycles: number } {
  const sim = new Anton2Sim(
    new EmulatedFabric(generateAnton2Design({ shape: [8, 8, 8], backplaneChannelNs: 2, cableChannelNs: 10 })),
    shippedAnton2Floorplan(),
    5,
  );
  sim.programDefaults();
  const deliveries: string[] = [];
  const interrupts: string[] = [];
  sim.onDeliver = (p, t) => deliveries.push(`${sim.packetSource(p)}.${sim.packetSourceEndpoint(p)}>${sim.packetDestination(p)}@${sim.packetSentAt(p)}:${t}`);
  sim.onDiscard = (p, reason, node, port) =>
    deliveries.push(`${sim.packetSource(p)}>${sim.packetDestination(p)}@${sim.packetSentAt(p)} ${reason} at ${node}:${port}`);
  sim.onInterrupt = (kind, t, node, port, vc) => interrupts.push(`${kind} ${t} ${node}:${port}:${vc}`);
  const cores = [0, 2, 3, 4, 6, 9, 11, 13];
  const sources = Array.from({ length: sim.nodes * cores.length }, (_, i) => [Math.floor(i / cores.length), cores[i % cores.length]] as const);
  sim.startSteady(sources, 0.01, 2_500, (_node, _e, key) => Math.floor(keyedDraw(11, 1, key, 0) * sim.nodes) * 23 + cores[key % cores.length]);
  sim.run(800);
  sim.killNode(300);
  sim.setChannelDown(77, 5, true);
  sim.run(1_200);
  sim.setChannelDown(77, 5, false);
  sim.run(30_000);
  if (sim.inFlight !== 0) throw new Error(`anton2 steady: ${sim.inFlight} packets still in flight after the drain`);
  const hash = createHash('sha256');
  for (const d of deliveries.sort()) hash.update(`${d};`);
  hash.update(`|${interrupts.join(';')}|${sim.injected}|${sim.delivered}|${JSON.stringify([...sim.discarded].sort())}`);
  return { digest: hash.digest('hex').slice(0, 32), packets: deliveries.length, cycles: sim.now };
}
