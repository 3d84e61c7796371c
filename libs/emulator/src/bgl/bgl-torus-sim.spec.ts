import { generateBglDesign, mulberry32, Torus } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import type { BglSettings } from './bgl-settings';
import { BglTorusSim } from './bgl-torus-sim';

// Read once: under the test runner every global look-up goes through a proxy.
const { floor } = Math;

function torusSim(shape: [number, number, number], settings: Partial<BglSettings> = {}, seed = 1): BglTorusSim {
  const fabric = new EmulatedFabric(generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 }));
  const sim = new BglTorusSim(fabric, seed, settings);
  sim.programMinimalRouting();
  return sim;
}

/** Uniform random traffic: each node sends a packet of 1–8 chunks with probability `load` per 256 cycles. */
function uniform(sim: BglTorusSim, cycles: number, load: number, seed: number, options: { routing?: 'dynamic' | 'static'; sizes?: readonly number[] } = {}) {
  const random = mulberry32(seed);
  const sizes = options.sizes ?? [1, 2, 3, 4, 5, 6, 7, 8];
  sim.run(cycles, () => {
    for (let n = 0; n < sim.nodes; n++) {
      if (random() >= load / 256) continue;
      let t = floor(random() * (sim.nodes - 1));
      if (t >= n) t++;
      sim.send(n, t, sizes[floor(random() * sizes.length)], { routing: options.routing });
    }
  });
}

describe('the BlueGene/L node in the emulator (paper 002 §2)', () => {
  it('uniform traffic on a 4×4×4 torus: every packet is delivered, each by a minimal number of hops', () => {
    const sim = torusSim([4, 4, 4]);
    const torus = new Torus([4, 4, 4]);
    let minimal = 0;
    sim.onDeliver = (p) => {
      if (sim.packetHops(p) === torus.nodeDistance(sim.packetSource(p), sim.packetDestination(p))) minimal++;
    };
    uniform(sim, 20000, 0.3, 7);
    sim.drain(100000);
    expect(sim.injected).toBeGreaterThan(1000);
    expect({ inFlight: sim.inFlight, discarded: [...sim.discarded] }).toEqual({ inFlight: 0, discarded: [] });
    expect(sim.delivered).toBe(sim.injected);
    expect(minimal).toBe(sim.delivered);
    expect(sim.deadlock).toBeNull();
  });

  it('the same seed gives the same run; another seed another', () => {
    const run = (seed: number) => {
      const sim = torusSim([4, 4, 2], {}, seed);
      let sum = 0;
      sim.onDeliver = (p, cycle) => (sum = (sum * 31 + cycle * 7 + p) % 1_000_000_007);
      uniform(sim, 10000, 0.5, 3);
      sim.drain(100000);
      return sum;
    };
    expect(run(1)).toBe(run(1));
    expect(run(1)).not.toBe(run(2));
  });

  it("counts a link's bytes as they cross, a byte a cycle, so that no window reads more than the link carries (issue 57)", () => {
    const sim = torusSim([4, 4, 2]);
    const window = 40;
    let before = sim.linkBytes();
    let most = 0;
    let carried = 0;
    const random = mulberry32(11);
    for (let w = 0; w < 150; w++) {
      // Heavy uniform traffic of full-size packets (264 bytes on the wire, more than a window).
      sim.run(window, () => {
        for (let n = 0; n < sim.nodes; n++) {
          if (random() >= 0.9 / 256) continue;
          let t = floor(random() * (sim.nodes - 1));
          if (t >= n) t++;
          sim.send(n, t, 8);
        }
      });
      const after = sim.linkBytes();
      for (let g = 0; g < after.length; g++) {
        most = Math.max(most, after[g] - before[g]);
        carried += after[g] - before[g];
      }
      before = after;
    }
    expect(most).toBe(window);
    sim.drain(100000);
    // Drained, every byte granted has crossed.
    expect(sim.linkBytes().reduce((a, b) => a + b, 0)).toBe(sim.bytesMoved);
    expect(carried).toBeLessThan(sim.bytesMoved);
  });

  describe('the bubble rules with packets of two sizes (§2: "our simulator deadlocked using this rule")', () => {
    // An 8-node ring (x, on an 8×2×2 torus) under static routing — every packet on the bubble VC —
    // each node sending half way round, four of five packets one chunk and the rest eight, with
    // injection going before packets in the network (a study setting) so that insertions keep
    // the ring's buffers full. Under BG/L's own setting — packets in the network ahead of new ones
    // (inNetworkPriorityFraction 1) — the by-size rule does not deadlock here (issue 57: the
    // deadlock the paper reports needs the insertions; docs/fidelity.md).
    const ringRun = (accounting: 'by-size' | 'full-size', seed: number, inNetworkPriorityFraction = 0) => {
      const sim = torusSim([8, 2, 2], { bubbleAccounting: accounting, inNetworkPriorityFraction, arbitrationLatency: 0, watchdogCycles: 3000 }, seed);
      const random = mulberry32(seed);
      const sent = new Int32Array(sim.nodes);
      sim.run(30000, () => {
        for (let n = 0; n < sim.nodes; n++) {
          if (sent[n] >= 300 || random() >= 2 / 64) continue;
          sent[n]++;
          const x = n % 8;
          sim.send(n, n - x + ((x + 4) % 8), random() < 0.8 ? 1 : 8, { routing: 'static' });
        }
      });
      sim.drain(400000);
      return sim;
    };

    it('accounted by size, the ring deadlocks: the watchdog reports it, every buffer short of a full packet though the ring has room for one', () => {
      let sim: BglTorusSim | undefined;
      for (let seed = 1; seed <= 8 && !sim?.deadlock; seed++) sim = ringRun('by-size', seed);
      const ring = sim!.deadlock!;
      expect(ring).not.toBeNull();
      // One x ring of bubble VCs, each waiting on the next.
      expect(ring.length).toBe(8);
      expect(new Set(ring.map((w) => w.node.split('.').slice(1).join('.'))).size).toBe(1);
      expect(ring.every((w) => w.vc === 2)).toBe(true);
      // Fragmented: no sender holds tokens for a full-sized packet, yet together they hold more.
      expect(ring.every((w) => w.upstreamTokens < 8)).toBe(true);
      expect(ring.reduce((sum, w) => sum + w.upstreamTokens, 0)).toBeGreaterThanOrEqual(8);
      expect(sim!.inFlight).toBeGreaterThan(0);
    });

    it("accounted by size under BG/L's own arbitration (packets in the network first), the same workloads drain", () => {
      for (let seed = 1; seed <= 8; seed++) {
        const sim = ringRun('by-size', seed, 1);
        expect({ seed, deadlock: sim.deadlock, inFlight: sim.inFlight }).toEqual({ seed, deadlock: null, inFlight: 0 });
      }
    });

    it("with a dateline pair of escape VCs instead of the bubble (§4's study), the same workloads never deadlock either", () => {
      for (let seed = 1; seed <= 3; seed++) {
        const sim = torusSim([8, 2, 2], { escapeChannels: 'dateline-pair', inNetworkPriorityFraction: 0, arbitrationLatency: 0, watchdogCycles: 3000 }, seed);
        const random = mulberry32(seed);
        const sent = new Int32Array(sim.nodes);
        let vc3 = 0;
        sim.run(30000, () => {
          for (let n = 0; n < sim.nodes; n++) {
            if (sent[n] >= 300 || random() >= 2 / 64) continue;
            sent[n]++;
            const x = n % 8;
            sim.send(n, n - x + ((x + 4) % 8), random() < 0.8 ? 1 : 8, { routing: 'static' });
          }
          for (let f = 3; f < sim.vcChunks.length; f += 4) vc3 += sim.vcChunks[f];
        });
        sim.drain(400000);
        expect({ seed, deadlock: sim.deadlock, inFlight: sim.inFlight, delivered: sim.delivered }).toEqual({
          seed,
          deadlock: null,
          inFlight: 0,
          delivered: 32 * 300,
        });
        // Packets past the wrap-around link travel on the pair's higher VC.
        expect(vc3).toBeGreaterThan(0);
        expect(() => sim.send(0, 1, 1, { priority: true })).toThrow('no priority class');
      }
    });

    it("accounted full-size (BG/L's correction), the same workloads never deadlock and every packet is delivered", () => {
      for (let seed = 1; seed <= 6; seed++) {
        const sim = ringRun('full-size', seed);
        expect({ seed, deadlock: sim.deadlock, inFlight: sim.inFlight, discarded: sim.discarded.size, delivered: sim.delivered }).toEqual({
          seed,
          deadlock: null,
          inFlight: 0,
          discarded: 0,
          delivered: 32 * 300,
        });
      }
    });
  });

  it('a noisy link (§2: CRC and timeout retransmission): packets are sent again, none is lost and none arrives twice', () => {
    const sim = torusSim([4, 4, 4]);
    // Every link noisy: a full-sized packet fails its CRC on about one hop in ten.
    for (let n = 0; n < sim.nodes; n++) for (let port = 0; port < 6; port++) sim.setBitErrorRate(n, port, 5e-5);
    const seen = new Set<number>();
    let twice = 0;
    sim.onDeliver = (p) => {
      const key = sim.packetSource(p) * 1_000_000 + sim.packetSerial(p);
      if (seen.has(key)) twice++;
      seen.add(key);
    };
    uniform(sim, 20000, 0.6, 11);
    sim.drain(200000);
    expect(sim.retransmissions).toBeGreaterThan(200);
    expect(sim.linkRetransmissions.reduce((a, b) => a + b, 0)).toBe(sim.retransmissions);
    expect({ inFlight: sim.inFlight, discarded: [...sim.discarded], twice, delivered: seen.size }).toEqual({
      inFlight: 0,
      discarded: [],
      twice: 0,
      delivered: sim.injected,
    });
  });

  it('a link so noisy that a packet is resent for longer than the calendar looks ahead: it gets through in the end, nothing is lost', () => {
    // Issue 56's soak: at 1e-3 a bit seven 256-byte packets in eight fail, and a run of 30 failures
    // (8,000 cycles of resending) threw the engine out of its run; at 2e-3 most packets see one.
    const sim = torusSim([4, 2, 2]);
    sim.setBitErrorRate(0, 0, 2e-3);
    for (let k = 0; k < 40; k++) sim.send(0, 1, 8, { routing: 'static' });
    sim.run(2_000_000);
    expect(sim.retransmissions).toBeGreaterThan(100);
    expect({ delivered: sim.delivered, inFlight: sim.inFlight, discarded: [...sim.discarded] }).toEqual({ delivered: 40, inFlight: 0, discarded: [] });
  });

  it('a static packet whose dimension-order link is down — its neighbour dead — is discarded where it stands, and the packets behind it go on', () => {
    // Issue 56's soak: static packets waited for ever at the head of a FIFO behind a dead
    // neighbour, and every packet queued behind them with them.
    const sim = torusSim([4, 4, 2]);
    const node = (x: number, y: number) => x + 4 * y;
    sim.killNode(node(1, 0));
    const outcome = new Map<number, string>();
    sim.onDeliver = (p) => outcome.set(sim.packetSerial(p), 'delivered');
    sim.onDiscard = (p, reason, at) => outcome.set(sim.packetSerial(p), `${reason} at ${sim.fabric.chipNames[at]}`);
    // x first: (0,0) → (2,1) goes x+ into the dead node; (0,0) → (0,1) goes y+, past it.
    const blocked = sim.packetSerial(sim.send(node(0, 0), node(2, 1), 8, { routing: 'static' }));
    const behind = sim.packetSerial(sim.send(node(0, 0), node(0, 1), 8, { routing: 'static' }));
    sim.run(20_000);
    expect(outcome.get(blocked)).toBe('link-down at x0.y0.z0');
    expect(outcome.get(behind)).toBe('delivered');
    expect(sim.inFlight).toBe(0);
  });

  it('a broadcast down a dimension (§2: the broadcast bit) leaves a copy at every node it passes and ends at the last', () => {
    const sim = torusSim([8, 4, 4]);
    const torus = new Torus([8, 4, 4]);
    const reached: string[] = [];
    sim.onDeliver = (p) => reached.push(torus.name(sim.packetDestination(p)));
    sim.send(torus.index(0, 1, 1), torus.index(7, 1, 1), 4, { broadcast: { direction: 'plus' } });
    // The other way round the ring, minimal: one hop, one node.
    sim.send(torus.index(0, 2, 2), torus.index(7, 2, 2), 2, { broadcast: {} });
    sim.drain(100000);
    expect(reached.sort()).toEqual(['(1,1,1)', '(2,1,1)', '(3,1,1)', '(4,1,1)', '(5,1,1)', '(6,1,1)', '(7,1,1)', '(7,2,2)'].sort());
    expect({ copies: sim.copiesMade, inFlight: sim.inFlight, discarded: sim.discarded.size }).toEqual({ copies: 6, inFlight: 0, discarded: 0 });
    expect(() => sim.send(0, torus.index(1, 1, 0), 1, { broadcast: {} })).toThrow('a broadcast runs down one dimension: x0.y0.z0 and x1.y1.z0 differ in 2');
  });

  it('in virtual node mode (§1) each core sends from and reads its own set of FIFOs', () => {
    const sim = torusSim([4, 4, 4], { virtualNodeMode: true });
    const byCore = [0, 0];
    sim.onDeliver = (p) => byCore[sim.packetCore(p)]++;
    const random = mulberry32(3);
    sim.run(5000, () => {
      for (let n = 0; n < sim.nodes; n++) {
        if (random() >= 0.2 / 256) continue;
        let t = floor(random() * (sim.nodes - 1));
        if (t >= n) t++;
        sim.send(n, t, 4, { core: n % 2, toCore: t % 2 });
      }
    });
    sim.drain(100000);
    expect(byCore[0]).toBeGreaterThan(100);
    expect(byCore[1]).toBeGreaterThan(100);
    expect({ inFlight: sim.inFlight, delivered: sim.delivered }).toEqual({ inFlight: 0, delivered: sim.injected });
    expect(() => torusSim([4, 4, 4]).send(0, 1, 1, { toCore: 1 })).toThrow('a core is 0 (one set of FIFOs: not in virtual node mode), got 1');
  });
});
