import { generateBglDesign, mulberry32 } from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { BglTorusSim } from './bgl-torus-sim';

// Read once: under the test runner every global look-up goes through a proxy.
const { floor } = Math;

/**
 * Paper 002 §4's studies, re-run on the emulated node: what the paper's figures show, as the
 * properties a user of the emulator relies on. (Figures, not timings: the emulator's speed is in
 * npm run bench.)
 */
const fabrics = new Map<string, EmulatedFabric>();
function fabric(shape: [number, number, number]): EmulatedFabric {
  const key = shape.join('x');
  if (!fabrics.has(key)) fabrics.set(key, new EmulatedFabric(generateBglDesign({ shape, midplaneLinkCycles: 3, cableLinkCycles: 10 })));
  return fabrics.get(key)!;
}

describe('paper 002 §4 on the emulated BlueGene/L', () => {
  it('in light uniform traffic on 32K nodes, dynamic routing has lower latency than static xyz routing', () => {
    const meanLatency = (routing: 'dynamic' | 'static') => {
      const sim = new BglTorusSim(fabric([32, 32, 32]), 1);
      sim.programMinimalRouting();
      const random = mulberry32(5);
      let sum = 0;
      let count = 0;
      // 10% of the links' capacity in 256-byte packets; packets sent after the network has warmed up.
      sim.onDeliver = (p, cycle) => {
        if (sim.packetSentAt(p) < 800) return;
        sum += cycle - sim.packetSentAt(p);
        count++;
      };
      sim.run(1800, () => {
        for (let i = 0; i < sim.nodes; i++) {
          if (random() >= 0.1 / 256) continue;
          let t = floor(random() * (sim.nodes - 1));
          if (t >= i) t++;
          sim.send(i, t, 8, { routing });
        }
      });
      sim.drain(100000);
      expect(sim.inFlight).toBe(0);
      return { mean: sum / count, count };
    };
    const dynamic = meanLatency('dynamic');
    const fixed = meanLatency('static');
    expect(dynamic.count).toBe(fixed.count);
    expect(dynamic.count).toBeGreaterThan(10000);
    expect(dynamic.mean).toBeLessThan(0.9 * fixed.mean);
  });

  it('hot-region traffic on 4K nodes levels off at about the same throughput for 512 B, 1 KB and 2 KB VC buffers, falling faster with smaller ones, the links into the region nearly always busy', () => {
    // §4: a quarter of the packets go to a hot sub-cube of 12.5% of the machine, starting at (0,0,0).
    const shape: [number, number, number] = [16, 16, 16];
    const inHot = (i: number) => i % 16 < 8 && (i >> 4) % 16 < 8 && i >> 8 < 8;
    const hot = Array.from({ length: 4096 }, (_, i) => i).filter(inHot);
    const windowCycles = 1500;
    const study = (vcTokens: number) => {
      const sim = new BglTorusSim(fabric(shape), 1, { vcTokens });
      sim.programMinimalRouting();
      const random = mulberry32(5);
      let bytes = 0;
      sim.onDeliver = (p) => (bytes += sim.packetChunks(p) * 32);
      const throughput: number[] = [];
      let before: Float64Array = new Float64Array(0);
      for (let w = 0; w < 10; w++) {
        bytes = 0;
        if (w === 7) before = sim.linkBytes();
        sim.run(windowCycles, () => {
          for (let i = 0; i < sim.nodes; i++) {
            if (random() >= 1 / 256) continue;
            const t = random() < 0.25 ? hot[floor(random() * hot.length)] : floor(random() * sim.nodes);
            if (t !== i) sim.send(i, t, 8);
          }
        });
        throughput.push(bytes / windowCycles / sim.nodes);
      }
      const after = sim.linkBytes();
      let busy = 0;
      let links = 0;
      for (let i = 0; i < sim.nodes; i++) {
        if (inHot(i)) continue;
        for (let d = 0; d < 6; d++) {
          if (!inHot(sim.outNode[6 * i + d])) continue;
          busy += (after[6 * i + d] - before[6 * i + d]) / (3 * windowCycles);
          links++;
        }
      }
      const peak = Math.max(...throughput);
      const end = (throughput[7] + throughput[8] + throughput[9]) / 3;
      return { peak, end, fall: peak - end, intoHot: busy / links };
    };
    const [small, medium, large] = [16, 32, 64].map(study);
    for (const r of [small, medium, large]) {
      expect(Math.abs(r.end - medium.end) / medium.end).toBeLessThan(0.1);
      expect(r.intoHot).toBeGreaterThan(0.9);
    }
    expect(small.fall).toBeGreaterThan(large.fall);
  });

  it("the arbitration gap bug (§4 'Performance Verification') leaves the VCs fuller at about the same link utilisation", () => {
    const run = (arbitrationGapBug: boolean) => {
      const sim = new BglTorusSim(fabric([8, 8, 8]), 1, { arbitrationGapBug });
      sim.programMinimalRouting();
      const random = mulberry32(5);
      let occupancy = 0;
      let samples = 0;
      let bytesAt5000 = 0;
      sim.run(20000, (cycle) => {
        for (let i = 0; i < sim.nodes; i++) {
          if (random() >= 1 / 256) continue;
          let t = floor(random() * (sim.nodes - 1));
          if (t >= i) t++;
          sim.send(i, t, 8);
        }
        if (cycle === 5000) bytesAt5000 = sim.bytesMoved;
        if (cycle > 5000 && cycle % 100 === 0) {
          let sum = 0;
          for (let f = 0; f < sim.vcChunks.length; f++) sum += sim.vcChunks[f];
          occupancy += sum / sim.vcChunks.length;
          samples++;
        }
      });
      return { occupancy: occupancy / samples, utilisation: (sim.bytesMoved - bytesAt5000) / (15000 * 6 * sim.nodes) };
    };
    const fixed = run(false);
    const buggy = run(true);
    // "the VHDL and simulator agreed to within 2%" on link utilisation, with fuller VCs.
    expect(buggy.occupancy).toBeGreaterThan(1.03 * fixed.occupancy);
    expect(Math.abs(buggy.utilisation - fixed.utilisation) / fixed.utilisation).toBeLessThan(0.02);
  });

  it('the bypass (§2) takes the arbitration pipeline off a lightly loaded hop', () => {
    const meanLatency = (bypass: boolean) => {
      const sim = new BglTorusSim(fabric([8, 8, 8]), 1, { bypass });
      sim.programMinimalRouting();
      const random = mulberry32(9);
      let sum = 0;
      let hops = 0;
      sim.onDeliver = (p, cycle) => {
        sum += cycle - sim.packetSentAt(p);
        hops += sim.packetHops(p);
      };
      sim.run(5000, () => {
        for (let i = 0; i < sim.nodes; i++) {
          if (random() >= 0.02 / 256) continue;
          let t = floor(random() * (sim.nodes - 1));
          if (t >= i) t++;
          sim.send(i, t, 8);
        }
      });
      sim.drain(100000);
      return { latency: sum / sim.delivered, hops: hops / sim.delivered };
    };
    const stored = meanLatency(false);
    const bypassed = meanLatency(true);
    // About the pipeline's four cycles less per hop after the first.
    expect(stored.latency - bypassed.latency).toBeGreaterThan(2 * (stored.hops - 1));
  });
});
