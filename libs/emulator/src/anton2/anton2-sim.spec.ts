import {
  A2_IN_EA_INJECT,
  ANTON2_ORDERS,
  anton2ChipWiring,
  anton2TorusRoute,
  defaultDatelines,
  generateAnton2Design,
  shippedAnton2Floorplan,
} from '@weft/fabric-model';
import { EmulatedFabric } from '../emulated-fabric';
import { Anton2Sim } from './anton2-sim';
import type { Anton2Settings } from './anton2-settings';

function machine(shape: [number, number, number], settings: Partial<Anton2Settings> = {}, seed = 7): Anton2Sim {
  const sim = new Anton2Sim(
    new EmulatedFabric(generateAnton2Design({ shape, backplaneChannelNs: 2, cableChannelNs: 10 })),
    shippedAnton2Floorplan(),
    seed,
    settings,
  );
  sim.programDefaults();
  return sim;
}

function minimalHops(sim: Anton2Sim, a: number, b: number): number {
  let hops = 0;
  for (let d = 0; d < 3; d++) {
    const k = sim.torus.shape[d];
    const ahead = (((sim.coords[3 * b + d] - sim.coords[3 * a + d]) % k) + k) % k;
    hops += Math.min(ahead, k - ahead);
  }
  return hops;
}

describe('the emulated Anton 2 network', () => {
  it('delivers a packet between every pair of ASICs on a minimal route, on VCs 0 to 3, whatever order and slice it drew', () => {
    const sim = machine([4, 4, 2]);
    const wrong: string[] = [];
    let delivered = 0;
    sim.onDeliver = (p) => {
      delivered++;
      const s = sim.packetSource(p);
      const d = sim.packetDestination(p);
      if (sim.packetHops(p) !== minimalHops(sim, s, d)) wrong.push(`${s}→${d}: ${sim.packetHops(p)} hops`);
      if (sim.packetVc(p) > 3) wrong.push(`${s}→${d}: VC ${sim.packetVc(p)}`);
    };
    for (let s = 0; s < sim.nodes; s++) for (let d = 0; d < sim.nodes; d++) sim.send(s, (s + d) % 23, d, (3 * s + d) % 23, 1 + ((s + d) & 1));
    sim.run(100_000);
    expect(wrong).toEqual([]);
    expect(delivered).toBe(sim.nodes * sim.nodes);
    expect(sim.inFlight).toBe(0);
    expect([...sim.discarded]).toEqual([]);
  });

  it('promotes a packet VC by VC as §2.5 says: at each dateline it crosses, and at the end of each dimension it did not cross one in', () => {
    const sim = machine([5, 4, 6], { tieRule: 'plus' });
    const torus = sim.torus;
    const datelines = defaultDatelines(torus);
    const mismatches: string[] = [];
    const expected = new Map<number, number>();
    sim.onDeliver = (p) => {
      if (sim.packetVc(p) !== expected.get(p)) mismatches.push(`packet ${p}: VC ${sim.packetVc(p)}, expected ${expected.get(p)}`);
    };
    for (let i = 0; i < 400; i++) {
      const s = (i * 37) % sim.nodes;
      const d = (i * 53 + 11) % sim.nodes;
      const order = i % 6;
      const slice = (i >> 3) & 1;
      const p = sim.send(s, i % 23, d, 0, 1, { order, slice });
      const route = anton2TorusRoute(torus, s, d, ANTON2_ORDERS[order], slice, datelines, 'plus');
      expected.set(p, route.hops.length === 0 ? 0 : route.exitVc);
      sim.run(200);
    }
    sim.run(50_000);
    expect(mismatches).toEqual([]);
    expect(sim.delivered).toBe(400);
  });

  it('draws each packet’s order and slice only among those its source’s route policy allows, and refuses a destination the policy leaves none for', () => {
    const sim = machine([4, 4, 1]);
    const policy = new Uint16Array(sim.nodes).fill(0xfff);
    policy[5] = (1 << 2) | (1 << 7); // XZY slice 0, YZX slice 1
    policy[6] = 0;
    sim.routePolicy[0] = policy;
    const routes = new Set<number>();
    sim.onDeliver = (p) => sim.packetDestination(p) === 5 && routes.add(sim.packetRoute(p));
    for (let i = 0; i < 60; i++) sim.send(0, i % 23, 5, 0);
    expect(sim.send(0, 0, 6, 0)).toBe(-1);
    sim.run(20_000);
    expect([...routes].sort((a, b) => a - b)).toEqual([2, 7]);
    expect(sim.discarded.get('unreachable')).toBe(1);
    expect(sim.delivered).toBe(60);
  });

  it('discards what a dead torus channel or a dead ASIC would carry, with the reason, and delivers all the rest', () => {
    const sim = machine([4, 4, 4]);
    sim.setChannelDown(0, 0, true); // node 0's X0+
    for (let s = 0; s < sim.nodes; s++) for (let d = 0; d < sim.nodes; d += 3) sim.send(s, 0, d, 1);
    sim.run(300);
    sim.killNode(21);
    sim.run(50_000);
    expect(sim.discarded.get('link-down')).toBeGreaterThan(0);
    expect(sim.discarded.get('node-died')).toBeGreaterThan(0);
    const discarded = [...sim.discarded.values()].reduce((a, b) => a + b, 0);
    expect(sim.inFlight).toBe(0);
    expect(sim.delivered + discarded).toBe(sim.injected);
  });

  it('passes over cycles in which nothing happens, and delivers the same packets at the same cycles as when it steps through them', () => {
    // Sends at sparse cycles (a lightly loaded run's arrivals), told where the next one is.
    const sends = [3, 40, 41, 900, 2500, 2501, 7000, 20000, 20003];
    const play = (skipping: boolean) => {
      const sim = machine([4, 4, 2]);
      const seen: string[] = [];
      sim.onDeliver = (p, t) => seen.push(`${sim.packetSource(p)}>${sim.packetDestination(p)}@${t}`);
      let i = 0;
      let calls = 0;
      const before = (t: number) => {
        calls++;
        while (i < sends.length && sends[i] === t) {
          sim.send(i % 32, i % 23, (7 * i + 5) % 32, (3 * i) % 23);
          i++;
        }
      };
      const next = (from: number, until: number) => {
        const at = sends.find((c) => c >= from);
        return at === undefined || at > until ? until : at;
      };
      while (sim.now < 30000) sim.run(1000, before, skipping ? next : undefined);
      return { seen, delivered: sim.delivered, calls };
    };
    const stepped = play(false);
    const skipped = play(true);
    expect(stepped.delivered).toBe(sends.length);
    expect(skipped.seen).toEqual(stepped.seen);
    // Stepping looks at every cycle; passing over, only at those with something to do.
    expect(stepped.calls).toBe(30000);
    expect(skipped.calls).toBeLessThan(3000);
  });

  it('runs its ASICs apart a window at a time (issue 56) with every packet delivered in the same cycle as cycle by cycle, dead ASICs and cut channels, watchdog and all', () => {
    const play = (cycleByCycle: boolean) => {
      // 128 ASICs: two blocks of 64, which the windows run apart.
      const sim = machine([8, 4, 4], { watchdogCycles: 400 }, 5);
      const seen: string[] = [];
      const interrupts: string[] = [];
      sim.onDeliver = (p, t) => seen.push(`${sim.packetSource(p)}.${sim.packetSourceEndpoint(p)}>${sim.packetDestination(p)}@${sim.packetSentAt(p)}:${t}`);
      sim.onDiscard = (p, reason, node) => seen.push(`${sim.packetSource(p)}>${sim.packetDestination(p)}@${sim.packetSentAt(p)} ${reason} at ${node}`);
      sim.onInterrupt = (kind, t, node, port, vc) => interrupts.push(`${kind} ${t} ${node}:${port}:${vc}`);
      // Near saturation, sources on every ASIC: every window has traffic crossing between blocks.
      sim.startSteady(
        Array.from({ length: sim.nodes * 4 }, (_, i) => [i >> 2, (i & 3) * 5] as const),
        0.05,
        1_500,
        (node, e, key) => (key % sim.nodes) * 23 + ((key >> 6) % 23),
      );
      const run = (cycles: number) => (cycleByCycle ? sim.run(cycles, () => undefined) : sim.run(cycles));
      run(500);
      sim.killNode(70);
      sim.setChannelDown(12, 3, true);
      run(600);
      sim.setChannelDown(12, 3, false);
      run(1_500);
      return { seen: seen.sort(), interrupts, inFlight: sim.inFlight, lookahead: sim.lookahead };
    };
    const windowed = play(false);
    const stepped = play(true);
    // Windows as long as the fastest torus channel's latency: 2 ns of backplane and 13.2 of SerDes.
    expect(windowed.lookahead).toBe(22);
    expect(windowed.seen.length).toBeGreaterThan(10_000);
    expect(windowed.seen.some((s) => s.includes('node-died'))).toBe(true);
    expect(windowed).toEqual(stepped);
  });

  it('runs the same from the same seed', () => {
    const run = () => {
      const sim = machine([4, 4, 2], {}, 3);
      const log: number[] = [];
      sim.onDeliver = (p, t) => log.push(sim.packetSource(p), sim.packetRoute(p), t);
      sim.startSteady(
        Array.from({ length: sim.nodes * 4 }, (_, i) => [i >> 2, i & 3] as const),
        0.02,
        2000,
        (node, e, serial) => ((node * 7 + serial) % sim.nodes) * 23 + (serial % 23),
      );
      sim.run(4000);
      return log;
    };
    const first = run();
    expect(first.length).toBeGreaterThan(3 * 500);
    expect(run()).toEqual(first);
  });
});

describe('the emulated Anton 2 network’s interrupts', () => {
  it('raises the forward-progress watchdog per VC, naming the ASIC, the input and the VC, once for each head that waits too long', () => {
    const run = (watchdogCycles: number) => {
      const sim = machine([4, 4, 1], { watchdogCycles });
      // No datelines: the rings are left to congest.
      sim.datelinePlus.fill(99);
      sim.datelineMinus.fill(99);
      const stalls: string[] = [];
      sim.onInterrupt = (kind, _t, node, port, vc, details) =>
        kind === 'FORWARD_PROGRESS_TIMEOUT' && stalls.push(`${node}/${port}/${vc}/${String(details?.input)}`);
      const sources = Array.from({ length: 16 * 16 }, (_, i) => [i >> 4, i & 15] as const);
      sim.startBatch(sources, 100, (node, _e, serial) => ((node + 2 + (serial % 2)) % 16) * 23 + (serial % 16));
      sim.run(30_000);
      expect(sim.delivered).toBe(16 * 16 * 100);
      return stalls;
    };
    const stalls = run(1000);
    expect(stalls.length).toBeGreaterThan(0);
    expect(new Set(stalls).size).toBe(stalls.length);
    for (const s of stalls) expect(s).toMatch(/^([0-9]|1[0-5])\/\d+\/[0-7]\/(R\d,\d\.\d|[XYZ][01][+-] (in|out)|EA\d+ (inject|receive))$/);
    expect(run(20_000)).toEqual([]);
  });

  it('reports a channel going down and up at both ends, and a dead ASIC’s channels at each neighbour', () => {
    const sim = machine([4, 4, 2]);
    const seen: string[] = [];
    sim.onInterrupt = (kind, _t, node, port) => seen.push(`${kind} ${node}:${port}`);
    sim.setChannelDown(0, 0, true);
    sim.setChannelDown(0, 0, false);
    expect(seen).toEqual(['LINK_DOWN 0:0', 'LINK_DOWN 1:2', 'LINK_UP 0:0', 'LINK_UP 1:2']);
    seen.length = 0;
    sim.killNode(5);
    expect(seen).toHaveLength(12);
    expect(seen.every((s) => s.startsWith('LINK_DOWN'))).toBe(true);
  });
});

describe('SA1, the input’s choice among its VCs', () => {
  it('is round robin by default, and grants in inverse proportion to the weights once an input’s are set (§3.3 at every arbitration point)', () => {
    const shares = (weights?: [number, number], weightBits = 5) => {
      // Buffers deep enough that credits never hold a VC back: a VC that cannot ask loses its count (§3.3's underflow).
      const sim = machine([4, 4, 1], { routerBufferFlits: 16, weightBits });
      const input = A2_IN_EA_INJECT; // node 0's endpoint adapter 0, injecting
      // Both its VCs, and those of the router input it feeds (whose drain sets what it can send), weighted alike.
      if (weights)
        for (const at of [input, anton2ChipWiring(shippedAnton2Floorplan()).downstream[input]]) {
          sim.vcRoundRobin[at] = 0;
          sim.vcWeights[(at * 8 + 0) * 2] = weights[0]; // request class, VC 0
          sim.vcWeights[(at * 8 + 4) * 2] = weights[1]; // reply class, VC 0
        }
      for (let i = 0; i < 300; i++) {
        sim.send(0, 0, 0, 1, 1, { trafficClass: 0 });
        sim.send(0, 0, 0, 1, 1, { trafficClass: 1 });
      }
      sim.run(150);
      return [sim.vcFlits[input * 8], sim.vcFlits[input * 8 + 4]];
    };
    const [a, b] = shares();
    expect(Math.abs(a - b)).toBeLessThanOrEqual(1);
    const [c, d] = shares([4, 8]);
    expect(c / d).toBeGreaterThan(1.8);
    expect(c / d).toBeLessThan(2.2);
    // M up to 16 bits: weights above a byte are kept whole (they were cut to 8 bits, 1000 and 2000 becoming 232 and 208).
    const [e, f] = shares([1000, 2000], 12);
    expect(e / f).toBeGreaterThan(1.8);
    expect(e / f).toBeLessThan(2.2);
  });
});
