import { FLAG_ADAPTIVE, FLAG_HASH, FLAG_TRACE, TraceEvent } from '../engine/packet-store';
import { mulberry32 } from '@weft/fabric-model';
import { handConfiguredR15 } from './blackwidow-test-config';
import { YarcFabricSim } from './yarc-fabric-sim';

/** Global ports of s0.r1.0 whose cable leads to s0.r1.1 (the sidelinks between the two subtrees). */
function sidelinks(sim: YarcFabricSim): number[] {
  const r0 = sim.fabric.chipId('s0.r1.0');
  const r1 = sim.fabric.chipId('s0.r1.1');
  const ports: number[] = [];
  for (let p = 0; p < 64; p++) {
    const g = sim.fabric.portBase[r0] + p;
    const peer = sim.fabric.peer[g];
    if (peer >= 0 && sim.fabric.portOwner(peer) === r1) ports.push(g);
  }
  return ports;
}

/** Keeps the trace of every packet delivered from now on (a trace lasts until its id is reused). */
function keepTraces(sim: YarcFabricSim, onDeliver: (cycle: number) => void = () => undefined): TraceEvent[][] {
  const traces: TraceEvent[][] = [];
  sim.onDeliver = (p, cycle) => {
    traces.push(sim.packets.trace(p)!);
    onDeliver(cycle);
  };
  return traces;
}

/** How many of the traced packets left s0.r1.0 by each of `ports`. */
function departures(sim: YarcFabricSim, traces: TraceEvent[][], ports: number[]): number[] {
  const r0 = sim.fabric.chipId('s0.r1.0');
  const counts = ports.map(() => 0);
  for (const events of traces) {
    for (const e of events) {
      if (e.stage !== 'link' || e.chip !== r0) continue;
      const index = ports.indexOf(sim.fabric.portBase[r0] + e.port);
      if (index >= 0) counts[index]++;
    }
  }
  return counts;
}

describe('YARC flow control (§4.2)', () => {
  it('sends a packet only when its whole length fits downstream (VCT credits), and resumes as the receiver drains', () => {
    const sim = handConfiguredR15(32);
    sim.regs.forwardProgressTimer.fill(1e9);
    const stopped = sim.processorPort[9 * 4];
    sim.setAccepting(stopped, false);
    for (let i = 0; i < 40; i++) sim.inject(i % 8, 0, 9, 19, 0, FLAG_TRACE, 0);
    sim.run(20_000);
    // The processor's receive buffer holds 256 phits per VC: 13 whole 19-phit packets, never a
    // 14th in part.
    const router = sim.fabric.chipId('s0.r1.0');
    const toStopped = sim.globalRouterPort[sim.fabric.peer[stopped]] % 64;
    const started = () =>
      sim.packets.stores
        .flatMap((store) => [...store.traces.values()])
        .filter((events) => events.some((e) => e.stage === 'link' && e.chip === router && e.port === toStopped)).length;
    expect(started()).toBe(Math.floor(256 / 19));
    expect(sim.packets.books()).toMatchObject({ delivered: 0, inFlight: 40, balanced: true });
    sim.setAccepting(stopped, true);
    sim.drain(100_000);
    expect(sim.packets.books()).toMatchObject({ created: 40, delivered: 40, inFlight: 0, discarded: {}, balanced: true });
  });
});

describe('YARC row and column buffers (§3, §7.5)', () => {
  it('never hold more phits than they have, with cache-line packets longer than either buffer at saturating load', () => {
    const sim = handConfiguredR15(288);
    const random = mulberry32(11);
    const channels = sim.routerChip.length * 64 * 8;
    let row = 0;
    let rowVc = 0;
    let column = 0;
    let columnVc = 0;
    for (let cycle = 0; cycle < 1_200; cycle++) {
      for (let p = 0; p < 288; p++) {
        if (random() >= 0.9 / 19) continue;
        const d = (p + 1 + Math.floor(random() * 287)) % 288;
        sim.inject(p, 0, d, 19, 0, FLAG_HASH, d);
      }
      sim.step();
      if (cycle % 5 !== 0) continue;
      for (let c = 0; c < channels; c++) {
        const [r0, r1] = [sim.bufferPhits('row', 2 * c, cycle), sim.bufferPhits('row', 2 * c + 1, cycle)];
        const [c0, c1] = [sim.bufferPhits('column', 2 * c, cycle), sim.bufferPhits('column', 2 * c + 1, cycle)];
        row = Math.max(row, r0 + r1);
        rowVc = Math.max(rowVc, r0, r1);
        column = Math.max(column, c0 + c1);
        columnVc = Math.max(columnVc, c0, c1);
      }
    }
    // 16-phit row buffers and 10-phit column buffers, each VC leaving the other two phits.
    expect({ row, rowVc, column, columnVc }).toEqual({ row: 14, rowVc: 14, column: 8, columnVc: 8 });
    sim.drain(100_000);
    expect(sim.packets.books()).toMatchObject({ inFlight: 0, discarded: {}, balanced: true });
  });
});

describe('YARC subswitch (§3)', () => {
  it('takes one phit per cycle from a row buffer, whichever of its VCs and column channels it goes to', () => {
    const sim = handConfiguredR15(288, { seed: 5 });
    const traces = keepTraces(sim);
    const random = mulberry32(13);
    for (let cycle = 0; cycle < 400; cycle++) {
      for (let p = 0; p < 288; p++) {
        // Both VCs, short and long packets, at saturating load: row buffers hold several packets.
        if (random() >= 0.12) continue;
        const d = (p + 1 + Math.floor(random() * 287)) % 288;
        const long = random() < 0.5;
        sim.inject(p, 0, d, long ? 19 : 4, random() < 0.5 ? 0 : 1, FLAG_HASH | FLAG_TRACE, d);
      }
      sim.step();
    }
    sim.drain(100_000);
    expect(sim.packets.books()).toMatchObject({ inFlight: 0, discarded: {}, balanced: true });
    // Every run into a column buffer names the input whose row buffer it drains and its length;
    // the cycles each row buffer (router, input, column) sends in must never coincide.
    const busy = new Map<string, Set<number>>();
    let runs = 0;
    let shared = 0;
    for (const events of traces) {
      for (const e of events) {
        if (e.stage !== 'column-buffer') continue;
        const [, input, phits] = /input (\d+), (\d+) phits/.exec(e.detail!)!.map(Number);
        const key = `${e.chip}:${input}:${e.port & 7}`;
        const cycles = busy.get(key) ?? new Set<number>();
        busy.set(key, cycles);
        for (let k = 0; k < phits; k++) {
          if (cycles.has(e.cycle + k)) shared++;
          cycles.add(e.cycle + k);
        }
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(5_000);
    expect(shared).toBe(0);
  });
});

describe('YARC adaptive routing (§7.8.3)', () => {
  /** 3,840 packets from subtree 0 to subtree 1 with one of the 32 sidelinks down to a single lane
   * (a third of the rate): when the last one arrives, and how many took the slow link. */
  const crossWithASlowLink = (flags: number) => {
    const sim = handConfiguredR15(64, { seed: 3 });
    const ports = sidelinks(sim);
    const slow = ports[0];
    sim.fabric.activeLanes[slow] = 1;
    sim.refreshLink(slow);
    let last = 0;
    const traces = keepTraces(sim, (cycle) => (last = Math.max(last, cycle)));
    for (let round = 0; round < 120; round++) {
      for (let s = 0; s < 32; s++) sim.inject(s, 0, 32 + ((s + round) % 32), 8, 0, flags | FLAG_TRACE, (s * 31 + round * 7) & 0x7fff);
      sim.run(10);
    }
    sim.drain(200_000);
    expect(sim.packets.books()).toMatchObject({ created: 3840, delivered: 3840, balanced: true });
    return { last, slow: departures(sim, traces, ports)[0] };
  };

  it('routes around a degraded sidelink by column-buffer depth, finishing sooner than deterministic hashing', () => {
    const hashed = crossWithASlowLink(FLAG_HASH);
    const adaptive = crossWithASlowLink(FLAG_ADAPTIVE);
    // Hashing sends the slow link its full share (1/32) and waits for it.
    expect(hashed.slow).toBe(120);
    expect(adaptive.slow).toBeLessThan(hashed.slow);
    expect(adaptive.last).toBeLessThan(0.9 * hashed.last);
  });
});
