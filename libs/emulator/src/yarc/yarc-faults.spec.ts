import { DiscardReason } from '../engine/packet-store';
import { mulberry32 } from '@weft/fabric-model';
import { FLAG_ADAPTIVE, FLAG_HASH, FLAG_TRACE } from '../engine/packet-store';
import { differencesFromReference, runSleepingAndReference } from '../testing/reference-runs';
import { configureR15ByHand, handConfiguredR15 } from './blackwidow-test-config';
import type { YarcFabricSim } from './yarc-fabric-sim';
import { YarcMaintenanceController } from './yarc-maintenance';
import { runUntilSettled } from '../engine/fabric-engine';

const r15 = (processors: number) => handConfiguredR15(processors, { seed: 5 });

describe('YARC faults and diagnostics', () => {
  it('traces a packet through every buffer, port and VC it occupies, with times', () => {
    const sim = r15(64);
    const id = sim.inject(2, 0, 45, 6, 1, FLAG_TRACE, 0);
    sim.drain(10_000);
    const lines = sim.describeTrace(sim.packets.trace(id)!);
    expect(lines.map((l) => l.replace(/^[\d.]+ ns \(cycle \d+\) /, ''))).toEqual([
      'link p2:0 vc1',
      'input-buffer s0.r1.0:2 vc1 — routed at the head of the input queue',
      expect.stringMatching(/^row-buffer s0\.r1\.0:2 vc1 — column \d$/),
      expect.stringMatching(/^column-buffer s0\.r1\.0:\d+ vc1 — from row 0, input \d+, \d+ phits$/),
      expect.stringMatching(/^link s0\.r1\.0:\d+ vc1$/),
      expect.stringMatching(/^input-buffer s0\.r1\.1:\d+ vc1/),
      expect.stringMatching(/^row-buffer s0\.r1\.1/),
      expect.stringMatching(/^column-buffer s0\.r1\.1:13 vc1/),
      'link s0.r1.1:13 vc1',
      'delivered p45:0 vc1',
    ]);
  });

  it('gives a traced packet its own trace when it reuses the id of an earlier traced packet', () => {
    const sim = r15(32);
    const first = sim.inject(2, 0, 9, 4, 0, FLAG_TRACE, 0);
    sim.drain(10_000);
    const second = sim.inject(3, 0, 10, 4, 1, FLAG_TRACE, 0);
    expect(second).toBe(first); // the freed id is given out again
    sim.drain(10_000);
    const lines = sim.describeTrace(sim.packets.trace(second)!);
    expect(lines[0]).toMatch(/ link p3:0 vc1$/);
    expect(lines.filter((l) => / delivered /.test(l))).toEqual([expect.stringMatching(/ delivered p10:0 vc1$/)]);
  });

  it('drops the rest of a packet whose head a dead port dropped, even if the link is back before its tail comes', () => {
    // A 19-phit packet trickles in over a one-lane link; its output link is cut, then restored,
    // while its tail is still coming: before its head reached the output (the port drops it as it
    // arrives), and while the output was sending it (the copy is dropped, the sender drops the
    // rest). Either way the packet is discarded once, and the next one goes through.
    for (const [cut, restore] of [
      [25, 35],
      [35, 45],
    ]) {
      const sim = r15(32);
      const slow = sim.processorPort[0];
      sim.fabric.activeLanes[slow] = 1;
      sim.refreshLink(slow);
      const output = sim.processorPort[9 * 4];
      sim.inject(0, 0, 9, 19, 0, 0, 0);
      for (let cycle = 0; cycle < 200; cycle++) {
        if (cycle === cut) sim.cutLink(output);
        if (cycle === restore) sim.restoreLink(output);
        sim.step();
      }
      sim.inject(0, 0, 9, 4, 0, 0, 0);
      sim.drain(20_000);
      expect(sim.packets.books()).toEqual({ created: 2, delivered: 1, discarded: { LinkDown: 1 }, inFlight: 0, balanced: true });
    }
  });

  it('clips a packet longer than the programmed maximum (§4.3) and says so', () => {
    const sim = r15(32);
    sim.inject(0, 0, 9, 24, 0, 0, 0);
    sim.inject(0, 0, 9, 19, 0, 0, 0);
    sim.drain(10_000);
    expect(sim.packets.books()).toMatchObject({ delivered: 1, discarded: { Clipped: 1 }, balanced: true });
  });

  it('marks a packet corrupted in a router, which the destination then discards (soft error)', () => {
    const sim = r15(32);
    const interrupts: string[] = [];
    sim.onInterrupt = (kind) => interrupts.push(kind);
    expect(() => sim.setSoftErrorRate(sim.routerChip[0], 1.5)).toThrow(/probability in \[0, 1\], got 1.5/);
    expect(() => sim.setSoftErrorRate(sim.endpointChip[0], 1)).toThrow(/is not a router/);
    sim.setSoftErrorRate(sim.routerChip[0], 1);
    for (let i = 0; i < 5; i++) sim.inject(i, 0, 20, 4, 0, 0, 0);
    sim.drain(10_000);
    expect(sim.packets.books()).toMatchObject({ delivered: 0, discarded: { SoftError: 5 }, balanced: true });
    expect(interrupts).toEqual(['SOFT_ERROR', 'SOFT_ERROR', 'SOFT_ERROR', 'SOFT_ERROR', 'SOFT_ERROR']);
  });

  it('a dead router: neighbours report its links down, reads of it time out, packets into it are discarded with a reason', async () => {
    const sim = r15(96);
    const controller = new YarcMaintenanceController(sim, 0, 5_000);
    const interrupts: string[] = [];
    controller.onInterrupt((i) => interrupts.push(`${i.kind} ${i.port}`));
    const dead = sim.fabric.chipId('s0.r1.1');
    for (let i = 0; i < 300; i++) sim.inject(i % 32, 0, 32 + (i % 64), 8, 0, FLAG_HASH, i);
    sim.run(60);
    sim.packets.openDiscardLedger();
    const discardedBefore = sim.packets.discarded.reduce((a, b) => a + b, 0);
    sim.killRouter(dead);
    for (let i = 0; i < 100; i++) sim.inject(i % 32, 0, 32 + (i % 32), 8, 0, FLAG_HASH, i);
    sim.drain(200_000);
    const books = sim.packets.books();
    expect(books.balanced).toBe(true);
    // The ledger has every discard since it opened, each where it happened: in the dead router or
    // on a port of a chip cabled to it, for the reason the fault gives.
    const ledger = sim.packets.takeDiscardLedger();
    expect(ledger.reduce((a, e) => a + e.count, 0)).toBe(sim.packets.discarded.reduce((a, b) => a + b, 0) - discardedBefore);
    expect(new Set(ledger.map((e) => DiscardReason[e.reason]))).toEqual(new Set(['RouterDead', 'LinkDown']));
    const cabledToDead = new Set(
      Array.from({ length: 64 }, (_, port) => sim.fabric.peer[sim.fabric.portBase[dead] + port])
        .filter((g) => g >= 0)
        .map((g) => sim.fabric.portOwner(g)),
    );
    for (const e of ledger) expect([dead, ...cabledToDead]).toContain(sim.fabric.portOwner(e.port));
    expect(books.inFlight).toBe(0);
    expect((books.discarded.RouterDead ?? 0) + (books.discarded.LinkDown ?? 0)).toBeGreaterThan(0);
    // Its 32 processors' links and 32 sidelinks go down; only the routers among its neighbours report.
    expect(interrupts.filter((i) => i.startsWith('LINK_DOWN'))).toHaveLength(32);
    // Subtree 2 (processors 64–95) is still reachable from subtree 0.
    expect(books.delivered).toBeGreaterThanOrEqual(90);
    const read = await runUntilSettled(sim, controller.read([0, 32], 'identity'));
    expect(read).toMatchObject({ ok: false, reason: 'timeout' });

    sim.reviveRouter(dead);
    const r = sim.chipRouter[dead];
    expect(sim.regs.tableEntry(r * 64 * 8)[0]).toBe(0); // back at power-on values
    expect(await runUntilSettled(sim, controller.read([0, 32], 'identity'))).toMatchObject({ ok: true });
  });

  it('through a drill of every kind of fault and its repair, sleeping stages deliver every packet in the cycle visiting every stage every cycle would, and the books balance', () => {
    // Random traffic on both VCs while, one after another: a sidelink is cut, two lanes take bit
    // errors, an endpoint stops accepting until its port times out, a router corrupts packets,
    // another dies; then each is repaired (the revived router configured again) and the fabric
    // drains. Each fault changes which packets wait, for what, and who wakes them.
    const router = (sim: YarcFabricSim, name: string) => sim.chipRouter[sim.fabric.chipId(name)];
    const build = () => {
      const sim = r15(96);
      sim.regs.forwardProgressTimer.fill(1_500);
      return sim;
    };
    const [sleeping, everyCycle] = runSleepingAndReference(build, (sim) => {
      const sidelink = sim.routerPortGlobal[router(sim, 's0.r1.0') * 64 + 40];
      const stalled = sim.processorPort[50 * 4];
      const corrupting = sim.routerChip[router(sim, 's0.r1.1')];
      const dying = sim.routerChip[router(sim, 's0.r1.2')];
      const drill = new Map<number, () => void>([
        [300, () => sim.cutLink(sidelink)],
        [
          600,
          () => [sim.processorPort[7 * 4], sim.routerPortGlobal[router(sim, 's0.r1.1') * 64 + 33]].forEach((g, lane) => sim.setLaneBitErrorRate(g, lane, 5e-4)),
        ],
        [900, () => sim.setAccepting(stalled, false)],
        [1_200, () => sim.setSoftErrorRate(corrupting, 0.01)],
        [1_800, () => sim.killRouter(dying)],
        [3_000, () => sim.restoreLink(sidelink)],
        [3_300, () => (sim.reviveRouter(dying), configureR15ByHand(sim))],
        [3_600, () => sim.setAccepting(stalled, true)],
      ]);
      const random = mulberry32(8);
      let tag = 1;
      for (let cycle = 0; cycle < 4_000; cycle++) {
        drill.get(cycle)?.();
        for (let p = 0; p < 96; p++) {
          if (random() >= 0.04) continue;
          const d = (p + 1 + Math.floor(random() * 95)) % 96;
          sim.inject(p, 0, d, random() < 0.5 ? 19 : 4, random() < 0.5 ? 0 : 1, random() < 0.3 ? FLAG_ADAPTIVE : FLAG_HASH, d, tag++);
        }
        sim.step();
      }
      sim.setSoftErrorRate(corrupting, 0);
      for (let g = 0; g < sim.laneBitErrorRate.length / 3; g++) for (let lane = 0; lane < 3; lane++) sim.setLaneBitErrorRate(g, lane, 0);
      sim.drain(100_000);
    });
    // Every fault did what it does.
    expect(sleeping.books).toMatchObject({ inFlight: 0, balanced: true });
    expect(Object.keys(sleeping.books.discarded)).toEqual(expect.arrayContaining(['LinkDown', 'ForwardProgressTimeout', 'SoftError', 'RouterDead']));
    expect(sleeping.retransmissions).toBeGreaterThan(0);
    for (const kind of ['LINK_DOWN', 'LINK_UP', 'FORWARD_PROGRESS_TIMEOUT', 'SOFT_ERROR'])
      expect(sleeping.interrupts.some((i) => i.startsWith(kind))).toBe(true);
    expect(sleeping.delivered.size).toBeGreaterThan(10_000);
    // And the sleeping stages did exactly what the reference did.
    expect(differencesFromReference(sleeping, everyCycle)).toEqual([]);
  });
});
