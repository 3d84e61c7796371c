import { mulberry32 } from '@weft/fabric-model';
import { FLAG_ADAPTIVE, FLAG_HASH } from '../engine/packet-store';
import { differencesFromReference, runSleepingAndReference } from '../testing/reference-runs';
import { handConfiguredR15 } from './blackwidow-test-config';
import { YarcFabricSim } from './yarc-fabric-sim';

const r15 = (processors: number, slices = 1, portSeed = 0) => handConfiguredR15(processors, { slices, portSeed });

describe('YARC fabric, cycle by cycle', () => {
  it.each([4, 19])(
    'delivers a lone %i-phit packet with the zero-load latency of the pipeline model: 25 stages per router, serialization paid once (cut-through)',
    (length) => {
      const sim = r15(64);
      let deliveredAt = -1;
      sim.onDeliver = (_p, cycle) => (deliveredAt = cycle);
      // p0 → p40: up from subtree 0, across a sidelink to subtree 1, down: two routers.
      sim.inject(0, 0, 40, length, 0, 0, 0);
      sim.drain(10_000);
      const g0 = sim.processorPort[0];
      const side = [...Array(64).keys()]
        .map((p) => sim.routerPortGlobal[p])
        .find((g) => sim.fabric.peer[g] >= 0 && sim.globalProcessor[sim.fabric.peer[g]] < 0)!;
      const latencies = [sim.linkLatencyOf(g0), sim.linkLatencyOf(side), sim.linkLatencyOf(sim.processorPort[40 * 4])];
      // The last phit is consumed at the head's latency plus serialization; within one cycle of
      // rounding, since a 3-lane port carries 0.977 phits per core cycle.
      const expected = YarcFabricSim.zeroLoadCycles(2, latencies, length, sim.linkRateOf(g0));
      expect(Math.abs(deliveredAt - expected)).toBeLessThanOrEqual(1);
      expect(deliveredAt * 1.25).toBeGreaterThan(2 * 31.25);
      // Store-and-forward would pay the trailing phits again at each of the three links.
      if (length > 4) expect(deliveredAt).toBeLessThan(expected + 2 * (length - 1));
      expect(sim.packets.books()).toMatchObject({ created: 1, delivered: 1, inFlight: 0, balanced: true });
    },
  );

  it('delivers every packet of an all-pairs exchange on all four slices of the 288-processor R1.5 fabric, with the right hop counts', () => {
    const sim = r15(288, 4, 288);
    const hops = new Map<number, number>();
    sim.onDeliver = (p) => {
      const src = sim.globalProcessor[sim.packets.source(p)];
      const dst = sim.packets.destination(p);
      const expected = src >> 5 === dst >> 5 ? 1 : 2;
      hops.set(expected === sim.packets.hops(p) ? 0 : 1, (hops.get(expected === sim.packets.hops(p) ? 0 : 1) ?? 0) + 1);
    };
    for (let slice = 0; slice < 4; slice++) {
      for (let s = 0; s < 288; s++) for (let d = 0; d < 288; d++) if (s !== d) sim.inject(s, slice, d, 4, 0, FLAG_HASH, (s * 7 + d) & 0x7fff);
    }
    sim.drain(2_000_000);
    expect(sim.packets.books()).toEqual({ created: 4 * 288 * 287, delivered: 4 * 288 * 287, discarded: {}, inFlight: 0, balanced: true });
    expect(hops.get(1) ?? 0).toBe(0);
  });
});

describe('YARC fabric faults (§7.7)', () => {
  it('times out a port whose endpoint stops accepting, discards what is bound for it, and keeps the books', () => {
    const sim = r15(32);
    const interrupts: string[] = [];
    sim.onInterrupt = (kind, _cycle, chip, port) => interrupts.push(`${kind} ${sim.fabric.chipNames[chip]}:${port}`);
    const stuck = sim.processorPort[5 * 4];
    sim.accepting[stuck] = 0;
    sim.regs.forwardProgressTimer.fill(2_000);
    for (let i = 0; i < 200; i++) sim.inject(i % 32 === 5 ? 6 : i % 32, 0, 5, 4, 0, 0, 0);
    for (let i = 0; i < 50; i++) sim.inject(1, 0, 9, 4, 0, 0, 0);
    sim.drain(200_000);
    const books = sim.packets.books();
    const routerPort = sim.globalRouterPort[sim.fabric.peer[stuck]] % 64;
    expect(interrupts).toEqual([`FORWARD_PROGRESS_TIMEOUT s0.r1.0:${routerPort}`]);
    expect(books.balanced).toBe(true);
    expect(books.discarded.ForwardProgressTimeout).toBeGreaterThan(0);
    // The rest of the fabric is unaffected: p9 got all 50 of its packets.
    expect(books.delivered).toBeGreaterThanOrEqual(50);
    // Whatever sits in the stopped endpoint's own receive buffer is still in flight, not lost.
    expect(books.created).toBe(books.delivered + (books.discarded.ForwardProgressTimeout ?? 0) + books.inFlight);
  });

  it('discards a packet that arrived from a sidelink but is routed up, with a configuration-error interrupt', () => {
    const sim = r15(64);
    const interrupts: string[] = [];
    sim.onInterrupt = (kind, _c, _chip, _port, _vc, details) => interrupts.push(`${kind} ${String(details?.reason)}`);
    // Break subtree 1's root detect so it no longer owns 32–63: packets from subtree 0 arriving
    // on its sidelinks would have to go up again.
    for (let r = 0; r < sim.routerChip.length; r++) {
      if (sim.fabric.chipNames[sim.routerChip[r]] !== 's0.r1.1') continue;
      for (let t = 0; t < 64; t++) sim.regs.rootLocation[r * 64 + t] = 0x7000;
    }
    sim.inject(0, 0, 40, 4, 0, 0, 0);
    sim.drain(10_000);
    expect(sim.packets.books()).toMatchObject({ created: 1, delivered: 0, discarded: { DownwardInvariant: 1 }, balanced: true });
    expect(interrupts).toEqual(['CONFIGURATION_ERROR downward invariant']);
  });

  it('refuses a packet at a processor that is not its destination (a wrong down route), as misdelivered, and keeps the books', () => {
    const sim = r15(64);
    // s0.r1.1's down route drops the destination's lowest bit: a packet for p41 comes down to p40.
    const r = [...sim.routerChip].findIndex((chip) => sim.fabric.chipNames[chip] === 's0.r1.1');
    for (let t = 0; t < 64; t++) sim.regs.downMask[r * 64 + t] = 0x1e;
    const delivered: number[] = [];
    sim.onDeliver = (p) => delivered.push(sim.packets.destination(p));
    sim.inject(0, 0, 41, 4, 0, 0, 0);
    sim.inject(1, 0, 40, 4, 0, 0, 0);
    sim.drain(10_000);
    expect(delivered).toEqual([40]);
    expect(sim.packets.books()).toMatchObject({ created: 2, delivered: 1, discarded: { Misdelivered: 1 }, inFlight: 0, balanced: true });
  });

  it('discards packets for a port that has been shut down, naming the link as the reason', () => {
    const sim = r15(64);
    for (let g = 0; g < sim.fabric.portCount; g++) {
      if (sim.globalRouterPort[g] >= 0 && sim.fabric.peer[g] >= 0 && sim.globalProcessor[sim.fabric.peer[g]] < 0) sim.discarding[g] = 1;
    }
    for (let i = 0; i < 10; i++) sim.inject(i, 0, 40 + i, 4, 0, FLAG_HASH, i);
    sim.drain(10_000);
    expect(sim.packets.books()).toMatchObject({ created: 10, delivered: 0, discarded: { LinkDown: 10 }, inFlight: 0, balanced: true });
  });

  it('is deterministic: the same traffic gives the same cycle-by-cycle result', () => {
    const run = () => {
      const sim = r15(96, 1, 5);
      const log: number[] = [];
      sim.onDeliver = (p, cycle) => log.push(cycle, sim.packets.destination(p));
      for (let i = 0; i < 500; i++) sim.inject(i % 96, 0, (i * 37 + 11) % 96, 4 + (i % 16), i % 2, i % 3 === 0 ? 2 : FLAG_HASH, i);
      sim.drain(100_000);
      return log;
    };
    expect(run()).toEqual(run());
  });

  it.each([
    ['sleeping stages change nothing', false],
    // Each error is drawn for its own port or input and cycle, not in the order stages are visited.
    ['nor do they with bit errors on links and soft errors in routers', true],
  ])('delivers every packet in the same cycle as visiting every stage every cycle would: %s', (_case, errors) => {
    // Both VCs, short and long packets, hashed and adaptive routes, at a load that fills the
    // buffers: stages block, wait for room and credits, and wake each other.
    const build = () => {
      const sim = r15(192, 1, 3);
      if (errors) {
        for (let p = 0; p < 192; p += 7) sim.setLaneBitErrorRate(sim.processorPort[p * 4], p % 3, 5e-4);
        for (let r = 0; r < sim.routerChip.length; r += 2) sim.setSoftErrorRate(sim.routerChip[r], 0.01);
      }
      return sim;
    };
    let injected = 0;
    const [sleeping, everyCycle] = runSleepingAndReference(build, (sim) => {
      const random = mulberry32(21);
      injected = 0;
      for (let cycle = 0; cycle < 400; cycle++) {
        for (let p = 0; p < 192; p++) {
          if (random() >= 0.1) continue;
          const d = (p + 1 + Math.floor(random() * 191)) % 192;
          const flags = random() < 0.3 ? FLAG_ADAPTIVE : FLAG_HASH;
          sim.inject(p, 0, d, random() < 0.5 ? 19 : 4, random() < 0.5 ? 0 : 1, flags, d, ++injected);
        }
        sim.step();
      }
      sim.drain(50_000);
    });
    expect(sleeping.books).toMatchObject({ created: injected, inFlight: 0, balanced: true });
    if (errors) {
      expect(sleeping.books.discarded.SoftError).toBeGreaterThan(10);
      expect(sleeping.retransmissions).toBeGreaterThan(10);
    } else expect(sleeping.books.delivered).toBe(injected);
    expect(sleeping.delivered.size).toBeGreaterThan(7_000);
    expect(differencesFromReference(sleeping, everyCycle)).toEqual([]);
  });

  it('delivers every packet in the same cycle as visiting every stage every cycle would while a timed-out port drops what waits for it', () => {
    // A port whose endpoint stopped accepting times out and drops, a cycle at a time, the packets
    // waiting for it in several of its column buffers, as they arrive; every input whose queue
    // holds one of them gets its credits back only as they go, so the rest of the traffic's
    // timing depends on when each is dropped.
    const stuck = 5;
    const build = () => {
      const sim = r15(32);
      sim.regs.forwardProgressTimer.fill(1_500);
      sim.accepting[sim.processorPort[stuck * 4]] = 0;
      return sim;
    };
    const [sleeping, everyCycle] = runSleepingAndReference(build, (sim) => {
      const random = mulberry32(4);
      let tag = 1;
      for (let cycle = 0; cycle < 4_000; cycle++) {
        for (let p = 0; p < 32; p++) {
          if (p === stuck || random() >= 0.06) continue;
          const d = random() < 0.3 ? stuck : (p + 1 + Math.floor(random() * 31)) % 32;
          sim.inject(p, 0, d, random() < 0.5 ? 19 : 4, random() < 0.5 ? 0 : 1, FLAG_HASH, tag, tag++);
        }
        sim.step();
      }
      sim.drain(100_000);
    });
    expect(sleeping.interrupts).toEqual([expect.stringMatching(/^FORWARD_PROGRESS_TIMEOUT /)]);
    expect(sleeping.books.discarded.ForwardProgressTimeout).toBeGreaterThan(100);
    expect(sleeping.delivered.size).toBeGreaterThan(3_000);
    expect(differencesFromReference(sleeping, everyCycle)).toEqual([]);
  });

  it.each([
    ['the four slices run apart in windows', 'none'],
    // Each bit or soft error is drawn for its own port or input and cycle: the slices still run apart.
    ['lanes on two slices have bit errors', 'bit'],
    ['routers on two slices have soft errors', 'soft'],
  ])('delivers every packet in the same cycle as cycle by cycle when %s', (_case, errors) => {
    // Each slice draws its traffic from its own stream, so both runs offer the same packets.
    const run = (window: number) => {
      const sim = r15(288, 4, 9);
      expect(sim.parts).toBe(4);
      // On two slices, so that the order of their draws matters.
      if (errors === 'bit') for (const slice of [1, 2]) sim.setLaneBitErrorRate(sim.processorPort[5 * 4 + slice], 0, 2e-4);
      if (errors === 'soft')
        for (const part of [1, 2]) {
          const r = [...sim.routerChip.keys()].find((r) => sim.partOfPort(sim.routerPortGlobal[r * 64]) === part)!;
          sim.setSoftErrorRate(sim.routerChip[r], 0.02);
        }
      const delivered = new Map<number, number>();
      sim.onDeliver = (p, cycle) => delivered.set(sim.packets.tag(p), cycle);
      const streams = [0, 1, 2, 3].map((part) => mulberry32(40 + part));
      const parts: number[] = [];
      const beforeCycle = (part: number, cycle: number) => {
        parts.push(part);
        const random = streams[part];
        for (let p = 0; p < 288; p++)
          for (let slice = 0; slice < 4; slice++) {
            if (sim.partOfPort(sim.processorPort[p * 4 + slice]) !== part || random() >= 0.06) continue;
            const d = (p + 1 + Math.floor(random() * 287)) % 288;
            const flags = random() < 0.3 ? FLAG_ADAPTIVE : FLAG_HASH;
            sim.inject(p, slice, d, random() < 0.5 ? 19 : 4, random() < 0.5 ? 0 : 1, flags, d, cycle * 1152 + p * 4 + slice);
          }
      };
      if (window > 0) {
        sim.runWindowed(600, window, beforeCycle);
        // The slices ran apart: the first slice's whole first window before any other's.
        expect(parts.slice(0, window + 1)).toEqual([...Array(window).fill(0), 1]);
      } else
        for (let cycle = 0; cycle < 600; cycle++) {
          for (let part = 0; part < 4; part++) beforeCycle(part, sim.cycle);
          sim.step();
        }
      expect(sim.cycle).toBe(600);
      sim.drain(50_000);
      expect(sim.packets.books()).toMatchObject({ inFlight: 0, balanced: true });
      if (errors === 'bit') expect(sim.retransmissions).toBeGreaterThan(0);
      if (errors === 'soft') expect(sim.packets.books().discarded.SoftError).toBeGreaterThan(0);
      return { delivered, phitHops: sim.phitHops };
    };
    const byCycle = run(0);
    const windowed = run(64);
    expect(byCycle.delivered.size).toBeGreaterThan(10_000);
    expect(windowed.phitHops).toBe(byCycle.phitHops);
    expect(windowed.delivered.size).toBe(byCycle.delivered.size);
    expect([...windowed.delivered].filter(([tag, cycle]) => byCycle.delivered.get(tag) !== cycle)).toEqual([]);
  });

  it('refuses, while it runs the slices apart, a packet injected into a slice other than the one running, and will not run on once a slice has run ahead', () => {
    const sim = r15(64, 4);
    const other = (part: number) => [0, 1, 2, 3].find((slice) => sim.partOfPort(sim.processorPort[slice]) !== part)!;
    expect(() => sim.runWindowed(10, 8, (part) => sim.inject(0, other(part), 5, 4, 0, FLAG_HASH, 5))).toThrow(/plane \d is not in part \d/);
    expect(sim.packets.books()).toMatchObject({ created: 0 });
    // Refused before any slice ran a cycle: the fabric runs on as before.
    expect(sim.skewed).toBeNull();
    sim.run(2);
    expect(sim.cycle).toBe(2);
    // Refused once a slice has run ahead of the others: the fabric says so and refuses to run on.
    expect(() => sim.runWindowed(10, 8, (part, cycle) => part === 1 && cycle === 4 && sim.inject(0, other(part), 5, 4, 0, FLAG_HASH, 5))).toThrow(
      /not in part 1/,
    );
    expect(() => sim.step()).toThrow(/parts were left at different cycles .*not in part 1.*must be built again/);
    expect(() => sim.runWindowed(1, 1, () => undefined)).toThrow(/left at different cycles/);
    // A slice the processor has no port on belongs to no part: its packet is discarded, not refused.
    const oneSlice = r15(64, 1);
    oneSlice.runWindowed(10, 8, (_part, cycle) => cycle === 0 && oneSlice.inject(0, 2, 5, 4, 0, FLAG_HASH, 5));
    expect(oneSlice.packets.books()).toMatchObject({ created: 1, discarded: { Unreachable: 1 }, balanced: true });
  });
});

describe('YARC fabric under saturation', () => {
  it('keeps every packet through offered load 0.9 on a 288-processor slice, growing its pools between cycles', () => {
    const sim = r15(288, 1, 9);
    const random = mulberry32(11);
    const probability = (0.9 * sim.linkRateOf(sim.processorPort[0])) / 4;
    for (let c = 0; c < 400; c++) {
      for (let p = 0; p < 288; p++) {
        if (random() >= probability) continue;
        const d = (p + 1 + Math.floor(random() * 287)) % 288;
        sim.inject(p, 0, d, 4, 0, FLAG_HASH, d);
      }
      sim.step();
    }
    const created = sim.packets.created;
    sim.drain(5_000_000);
    expect(sim.packets.books()).toEqual({ created, delivered: created, discarded: {}, inFlight: 0, balanced: true });
    expect(sim.pool.inUse).toBe(0);
  });
});
