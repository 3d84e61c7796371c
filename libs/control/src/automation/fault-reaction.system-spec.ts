import { EmulatedFabric, FLAG_ADAPTIVE, FLAG_HASH, runUntilSettled, YarcFabricSim, YarcMaintenanceController } from '@weft/emulator';
import { loadInstallationFile } from '@weft/fabric-model';
import { join } from 'node:path';
import type { InterruptRecord } from '../maintenance-transport';
import { discoverFabric } from '../discovery/discovery-sweep';
import { matchDesign } from '../discovery/match-design';
import type { KnownFabric } from '../discovery/known-fabric';
import { BlackWidowConfiguration, configureBlackWidow, faultSet } from '../blackwidow/configure-blackwidow';
import { diffImages, pushImage } from '../blackwidow/push-image';
import { planPush } from '../blackwidow/push-plan';
import { executePlan } from '../engine/push-plan';
import { triageInterrupts, TriageDecision } from './fault-triage';

/** Cycles between the permutations of an all-pairs run. */
const PERMUTATION_GAP = 20;

interface Fault {
  kind: string;
  chip: string;
  port: number | null;
}

/**
 * The automation loop in-process, on the real emulator behind the maintenance transport: the
 * fabric is discovered, configured and pushed once; afterwards only interrupts drive it — triage,
 * record faults, recompute, verify, push the routers that changed.
 */
class AutomatedFabric {
  readonly interrupts: InterruptRecord[] = [];
  readonly faults: Fault[] = [];
  readonly decisions: TriageDecision[] = [];
  readonly generations: BlackWidowConfiguration[] = [];
  private readonly downHistory = new Map<string, number[]>();

  private constructor(
    readonly sim: YarcFabricSim,
    readonly controller: YarcMaintenanceController,
    readonly known: KnownFabric,
  ) {
    controller.onInterrupt((i) => this.interrupts.push(i));
  }

  static async start(fixture: string): Promise<AutomatedFabric> {
    const installation = loadInstallationFile(join(__dirname, '../../../../fixtures/blackwidow', `${fixture}.json`));
    const sim = new YarcFabricSim(new EmulatedFabric(installation.physical));
    const controller = new YarcMaintenanceController(sim, 0);
    const discovered = await runUntilSettled(sim, discoverFabric(controller, { controllerPorts: [0, 1, 2, 3] }), 1e9, 2_000);
    const fabric = new AutomatedFabric(sim, controller, {
      discovered,
      matched: matchDesign(discovered, installation.expected),
      design: installation.expected,
      attachment: 'p0',
    });
    const first = configureBlackWidow(fabric.known);
    expect(first.verification.ok).toBe(true);
    const report = await runUntilSettled(sim, pushImage(controller, first.image), 1e9, 2_000);
    expect(report.failures).toEqual([]);
    fabric.generations.push(first);
    return fabric;
  }

  get current(): BlackWidowConfiguration {
    return this.generations[this.generations.length - 1];
  }

  /** Lets the fabric run, then handles every interrupt raised so far; returns the routers pushed. */
  async react(cycles = 20_000): Promise<string[]> {
    this.sim.run(cycles);
    const batch = this.interrupts.splice(0);
    const decisions = await runUntilSettled(
      this.sim,
      triageInterrupts(batch, this.controller, {
        known: this.known,
        faults: faultSet(this.faults),
        interruptFaults: this.faults,
        downHistory: this.downHistory,
      }),
      1e9,
      2_000,
    );
    this.decisions.push(...decisions);
    let changed = false;
    for (const d of decisions) {
      if (d.action === 'declare') {
        this.faults.push({ kind: d.kind, chip: d.chip, port: d.port });
        changed ||= d.kind !== 'endpoint';
      } else if (d.action === 'clear') {
        const i = this.faults.findIndex((f) => f.kind === d.kind && f.chip === d.chip && f.port === d.port);
        if (i >= 0) this.faults.splice(i, 1);
        changed = true;
      }
    }
    if (!changed) return [];
    const next = configureBlackWidow(this.known, faultSet(this.faults));
    expect(next.verification.violations).toEqual([]);
    // Only the registers that change, phase by phase (push-plan.ts), while traffic keeps flowing.
    const plan = planPush(this.current.image, next.image);
    const report = await runUntilSettled(this.sim, executePlan(this.controller, plan), 1e9, 2_000);
    expect(report.failures).toEqual([]);
    const diff = diffImages(this.current.image, next.image);
    this.generations.push(next);
    return diff.changed;
  }

  /**
   * Every live processor to every other in one slice (alternating hashed and adaptive), as 1023
   * shift permutations injected a few cycles apart so the fabric runs loaded but not saturated.
   */
  allPairs(slice: number, live: (p: number) => boolean = () => true): { sent: number; delivered: number; discarded: Record<string, number> } {
    const n = this.known.design.chips.filter((c) => c.kind === 'endpoint').length;
    const before = this.sim.packets.books();
    let sent = 0;
    for (let shift = 1; shift < n; shift++) {
      for (let s = 0; s < n; s++) {
        const d = (s + shift) % n;
        if (!live(s) || !live(d)) continue;
        this.sim.inject(s, slice, d, 4, 0, shift & 1 ? FLAG_ADAPTIVE : FLAG_HASH, (s * 131 + d) & 0x7fff);
        sent++;
      }
      this.sim.run(PERMUTATION_GAP);
    }
    this.settle(before.inFlight);
    const after = this.sim.packets.books();
    const discarded: Record<string, number> = {};
    for (const [reason, n] of Object.entries(after.discarded))
      if (n !== (before.discarded[reason] ?? 0)) discarded[reason] = n - (before.discarded[reason] ?? 0);
    expect(after).toMatchObject({ inFlight: before.inFlight, balanced: true });
    return { sent, delivered: after.delivered - before.delivered, discarded };
  }

  /** Runs until no more than `held` packets are in flight (those a stopped processor holds). */
  settle(held = 0): void {
    for (let i = 0; i < 5_000 && this.sim.packets.inFlight > held; i++) this.sim.run(1_000);
  }

  /** Random traffic already in flight when something breaks, so that the fault hits packets. */
  background(slice: number, packets: number): void {
    for (let i = 0; i < packets; i++) {
      const s = (i * 97) % 1024;
      this.sim.inject(s, slice, (s + 1 + ((i * 389) % 1023)) % 1024, 4, 0, FLAG_HASH, i & 0x7fff);
    }
  }

  port(chip: string, port: number): number {
    return this.sim.fabric.portIndex(chip, port);
  }

  /** The port of `chip` whose cable leads to `to` (ground truth: only tests may look). */
  cableTo(chip: string, to: string): number {
    const f = this.sim.fabric;
    const c = f.chipId(chip);
    for (let g = f.portBase[c]; g < f.portBase[c + 1]; g++) if (f.peer[g] >= 0 && f.chipNames[f.portOwner(f.peer[g])] === to) return g - f.portBase[c];
    throw new Error(`${chip} has no cable to ${to}`);
  }

  uplinkPeer(chip: string, uplink = 0): string {
    const f = this.sim.fabric;
    const g = f.portIndex(chip, 32 + uplink);
    return f.chipNames[f.portOwner(f.peer[g])];
  }
}

/** Fault scenarios of issue 4 on the 1024-processor R2 fabric: each is noticed through interrupts
 * alone, routed around without an operator, proven by the verifier and by all-pairs traffic. */
describe('automatic reaction to faults (paper 000 §7.7)', () => {
  jest.setTimeout(120_000);

  it('every kind of interrupt a chip raises gets a decision that says why: none is passed over', async () => {
    const fabric = await AutomatedFabric.start('bw-r1.5-288');
    const serial = [...fabric.known.matched.names].find(([, name]) => name === 's0.r1.2')![0];
    const decisions = await triageInterrupts(
      [
        { kind: 'SOFT_ERROR', emulatedTimeNs: 1, serial, port: 5, vc: 0, details: { destination: 40 } },
        { kind: 'CONFIGURATION_ERROR', emulatedTimeNs: 2, serial, port: 33, vc: 0, details: { reason: 'downward invariant', destination: 7 } },
      ],
      fabric.controller,
      { known: fabric.known, faults: faultSet([]), interruptFaults: [], downHistory: new Map() },
    );
    expect(decisions.map((d) => [d.action, d.chip, d.port])).toEqual([
      ['none', 's0.r1.2', 5],
      ['none', 's0.r1.2', 33],
    ]);
    expect(decisions[0].reason).toContain('soft error in s0.r1.2 at port 5');
    expect(decisions[1].reason).toContain('configuration error at s0.r1.2:33 (downward invariant)');
  });

  it('a cut R1–R2 cable: the link fault is declared from the interrupts and every pair still delivers; replaced, the paths come back', async () => {
    const fabric = await AutomatedFabric.start('bw-r2-1024');
    fabric.background(0, 20_000);
    fabric.sim.run(300);
    const r2 = fabric.uplinkPeer('s0.r1.5', 3);
    fabric.sim.cutLink(fabric.port('s0.r1.5', 35));
    const pushed = await fabric.react();
    expect(fabric.decisions).toEqual([expect.objectContaining({ action: 'declare', kind: 'link', chip: expect.stringMatching(/^s0\.r(1\.5|2\.)/) })]);
    expect(fabric.faults).toHaveLength(1);
    // Only slice 0 changes: every R1 that climbs through the R2 that lost its cable, and the two ends.
    expect(pushed.length).toBeGreaterThan(2);
    expect(pushed.every((r) => r.startsWith('s0.'))).toBe(true);
    expect(pushed).toContain(r2);
    fabric.sim.drain(5_000_000);
    // Packets already committed to the cable when it was cut are lost with that reason; the push
    // itself (with traffic flowing) sends nothing into a dead end of another kind.
    const books = fabric.sim.packets.books();
    expect(books).toMatchObject({ inFlight: 0, balanced: true });
    expect(Object.keys(books.discarded).filter((r) => r !== 'LinkDown')).toEqual([]);
    expect(fabric.allPairs(0)).toEqual({ sent: 1024 * 1023, delivered: 1024 * 1023, discarded: {} });

    // The cable is replaced: the fault clears and the paths come back, losing nothing on the way.
    const before = fabric.sim.packets.books();
    fabric.background(0, 20_000);
    fabric.sim.restoreLink(fabric.port('s0.r1.5', 35));
    expect(await fabric.react(50)).toContain(r2);
    expect(fabric.faults).toEqual([]);
    fabric.settle();
    expect(fabric.sim.packets.books().discarded).toEqual(before.discarded);
    expect(fabric.allPairs(0)).toEqual({ sent: 1024 * 1023, delivered: 1024 * 1023, discarded: {} });
  });

  it('a dead R2 router: its neighbours report their links down, a probe finds it silent, and it is routed around', async () => {
    const fabric = await AutomatedFabric.start('bw-r2-1024');
    const r2 = fabric.uplinkPeer('s2.r1.0', 7);
    const before = fabric.sim.packets.books();
    fabric.background(2, 20_000);
    fabric.sim.run(300);
    fabric.sim.killRouter(fabric.sim.fabric.chipId(r2));
    await fabric.react();
    expect(fabric.faults).toEqual([{ kind: 'router', chip: r2, port: null }]);
    expect(fabric.current.verification.ok).toBe(true);
    fabric.sim.drain(5_000_000);
    const books = fabric.sim.packets.books();
    expect(books).toMatchObject({ inFlight: 0, balanced: true });
    // The packets inside it or on their way to it are discarded with a reason; the rest arrive.
    const lost = (books.discarded.RouterDead ?? 0) + (books.discarded.LinkDown ?? 0);
    expect(Object.keys(books.discarded).every((r) => r === 'RouterDead' || r === 'LinkDown')).toBe(true);
    expect(books.delivered - before.delivered + lost).toBe(books.created - before.created);
    expect(fabric.allPairs(2)).toEqual({ sent: 1024 * 1023, delivered: 1024 * 1023, discarded: {} });

    // Revived (registers back at reset), it is probed, cleared and configured again.
    fabric.sim.reviveRouter(fabric.sim.fabric.chipId(r2));
    const pushed = await fabric.react();
    expect(fabric.faults).toEqual([]);
    expect(pushed).toContain(r2);
    expect(fabric.allPairs(2)).toEqual({ sent: 1024 * 1023, delivered: 1024 * 1023, discarded: {} });
  });

  it('a dead R1 router: its processors are reported unreachable in that slice, everyone else reaches everyone', async () => {
    const fabric = await AutomatedFabric.start('bw-r2-1024');
    fabric.sim.killRouter(fabric.sim.fabric.chipId('s1.r1.3'));
    await fabric.react();
    expect(fabric.faults).toEqual([{ kind: 'router', chip: 's1.r1.3', port: null }]);
    expect(fabric.current.unreachable).toEqual([{ kind: 'processors', slice: 1, processors: Array.from({ length: 32 }, (_, i) => 96 + i) }]);
    expect(fabric.current.verification.ok).toBe(true);
    const cutOff = (p: number) => p >= 96 && p < 128;
    expect(fabric.allPairs(1, (p) => !cutOff(p))).toEqual({ sent: 992 * 991, delivered: 992 * 991, discarded: {} });
    // Other slices still serve processors 96–127.
    fabric.sim.inject(100, 3, 900, 4, 0, FLAG_HASH, 1);
    fabric.sim.inject(900, 3, 100, 4, 0, FLAG_HASH, 1);
    fabric.sim.drain(100_000);
    expect(fabric.sim.packets.books().discarded).toEqual({});
  });

  it('a noisy lane is decommissioned: the port keeps working narrower and nothing is re-routed', async () => {
    const fabric = await AutomatedFabric.start('bw-r2-1024');
    const uplink = fabric.port('s3.r1.2', 40);
    fabric.sim.setLaneBitErrorRate(uplink, 2, 5e-2);
    const before = fabric.sim.packets.books();
    // Traffic from under s3.r1.2 to everywhere keeps the noisy uplink busy.
    for (let i = 0; i < 4000; i++) fabric.sim.inject(64 + (i % 32), 3, (i * 37) % 1024, 8, 0, FLAG_HASH, i & 0x7fff);
    fabric.sim.drain(5_000_000);
    const after = fabric.sim.packets.books();
    expect(fabric.interrupts.map((i) => i.kind)).toContain('LANE_DECOMMISSIONED');
    const pushed = await fabric.react();
    expect(pushed).toEqual([]);
    expect(fabric.faults).toEqual([]);
    expect(fabric.decisions).toContainEqual(
      expect.objectContaining({ action: 'none', chip: 's3.r1.2', port: 40, reason: expect.stringContaining('2 of 3 lanes') }),
    );
    expect(fabric.generations).toHaveLength(1);
    expect([after.created - before.created, after.delivered - before.delivered, after.discarded]).toEqual([4000, 4000, {}]);
  });

  it('an endpoint that stops accepting: a forward-progress timeout, its packets discarded with that reason, the rest unaffected', async () => {
    const fabric = await AutomatedFabric.start('bw-r2-1024');
    const stuck = fabric.sim.processorPort[17 * 4 + 0];
    fabric.sim.setAccepting(stuck, false);
    let toStuck = 0;
    for (let i = 0; i < 3000; i++) {
      const d = i % 10 === 0 ? 17 : (i * 53) % 1024;
      const s = (i * 7 + 1) % 1024;
      if (s === d) continue;
      if (d === 17) toStuck++;
      fabric.sim.inject(s, 0, d, 19, 0, FLAG_HASH, i & 0x7fff);
    }
    fabric.settle(13);
    const pushed = await fabric.react();
    expect(pushed).toEqual([]);
    expect(fabric.faults).toEqual([{ kind: 'endpoint', chip: 's0.r1.0', port: fabric.cableTo('s0.r1.0', 'p17') }]);
    // ⌊256/19⌋ = 13 packets sit in p17's receive buffer until it drains again: in flight, not lost.
    const books = fabric.sim.packets.books();
    expect(books).toMatchObject({ inFlight: 13, balanced: true });
    expect(Object.keys(books.discarded)).toEqual(['ForwardProgressTimeout']);
    // Some packets for p17 fit its receive buffer before it stopped draining; none of the rest is lost.
    expect(books.discarded.ForwardProgressTimeout).toBeLessThanOrEqual(toStuck);
    expect(books.delivered).toBe(books.created - books.discarded.ForwardProgressTimeout - 13);
    expect(fabric.allPairs(0, (p) => p !== 17)).toEqual({ sent: 1023 * 1022, delivered: 1023 * 1022, discarded: {} });
  });

  it('eight simultaneous cable cuts in different subtrees: tables overflow, entries are merged and reported, every pair delivers', async () => {
    const fabric = await AutomatedFabric.start('bw-r2-1024');
    for (let k = 0; k < 8; k++) fabric.sim.cutLink(fabric.port(`s0.r1.${k * 4}`, 32 + k));
    await fabric.react();
    expect(fabric.faults).toHaveLength(8);
    expect(fabric.current.verification.ok).toBe(true);
    expect(fabric.current.image.problems.some((p) => p.includes('merged'))).toBe(true);
    expect(fabric.current.image.routers.every((r) => r.virtualRouters.every((v) => v.table.length <= 8))).toBe(true);
    expect(fabric.allPairs(0)).toEqual({ sent: 1024 * 1023, delivered: 1024 * 1023, discarded: {} });
  });
});
