import { createHash } from 'node:crypto';
import type { FabricEngine } from '../engine/fabric-engine';
import { handConfiguredR15 } from '../yarc/blackwidow-test-config';
import type { YarcFabricSim } from '../yarc/yarc-fabric-sim';
import { uniformTraffic } from './part-programs';
import { startTraffic, TrafficRequest } from '../traffic/traffic-request';
import type { TrafficReport } from '../traffic/traffic-run';
import { PartThreads } from './part-threads';

/** What a run did that threads must not change: every delivery's cycle by tag, the interrupts, the books. */
function runDigest(sim: FabricEngine, threads: PartThreads, stopAt: number): { digest: string; deliveries: number; interrupts: number; cycle: number } {
  const interrupts: string[] = [];
  sim.onInterrupt = (kind, cycle, chip, port, vc) => interrupts.push(`${kind} ${cycle} ${chip}:${port} vc${vc}`);
  const program = uniformTraffic(sim, { load: 0.6, packetPhits: 4, endpoints: 288, planes: [0, 1, 2, 3], vc: 0, seed: 11, record: true, stopAt });
  threads.runWindowed(sim, 1e6, 256, program);
  const deliveries = program.deliveries.flat();
  const pairs: string[] = [];
  for (let i = 0; i < deliveries.length; i += 2) pairs.push(`${deliveries[i]}:${deliveries[i + 1]}`);
  pairs.sort();
  const hash = createHash('sha256').update(pairs.join(';')).update(interrupts.join(';')).update(JSON.stringify(sim.packets.books()));
  return { digest: hash.digest('hex'), deliveries: pairs.length, interrupts: interrupts.length, cycle: sim.cycle };
}

/** The 288-processor R1.5 fabric on four slices, with bit errors on lanes of two slices (retries, a decommissioned lane). */
function fabric(): YarcFabricSim {
  const sim = handConfiguredR15(288, { slices: 4, portSeed: 288 });
  for (const slice of [1, 3]) {
    const port = sim.processorPort[7 * 4 + slice];
    sim.setLaneBitErrorRate(port, 0, 4e-3);
    sim.setLaneBitErrorRate(sim.fabric.peer[port], 1, 4e-3);
  }
  return sim;
}

describe('parts in parallel (issue 35, capability 6)', () => {
  const threads: PartThreads[] = [];
  afterAll(async () => Promise.all(threads.map((t) => t.close())));

  it('runs the four slices of the 288-processor fabric on two threads with the same deliveries, cycle for cycle, as on one', () => {
    const one = new PartThreads(1);
    const two = new PartThreads(2);
    threads.push(one, two);
    const a = fabric();
    const b = fabric();
    const alone = runDigest(a, one, 2_000);
    const apart = runDigest(b, two, 2_000);
    expect(alone.deliveries).toBeGreaterThan(10_000);
    expect(alone.interrupts).toBeGreaterThan(0);
    expect(apart).toEqual(alone);
    expect(b.phitHops).toBe(a.phitHops);
    expect(b.retransmissions).toBe(a.retransmissions);
    // The state the threads handed back runs on: a second run, both on one thread, still agrees.
    expect(runDigest(b, one, b.cycle + 1_000)).toEqual(runDigest(a, one, a.cycle + 1_000));
    // And a second run on two threads again (the thread has the fabric already).
    expect(runDigest(b, two, b.cycle + 1_000)).toEqual(runDigest(a, one, a.cycle + 1_000));
  });

  it.each<[string, TrafficRequest]>([
    [
      'a steady-state run of request-response traffic (the responses made on the part threads)',
      {
        mode: 'steady-state',
        pattern: { kind: 'request-response', responsePhits: 4 },
        packetPhits: 4,
        slices: [0, 1, 2, 3],
        seed: 5,
        load: 0.2,
        warmup: { min: 1_000, max: 3_000 },
        sampleCycles: 1_000,
        drainLimit: 5_000,
        interval: 500,
      },
    ],
    [
      'a batch of all-to-all traffic (a pattern that keeps a turn per source)',
      { mode: 'batch', pattern: { kind: 'all-to-all' }, packetPhits: 8, slices: [0, 1, 2, 3], seed: 9, packets: 20 },
    ],
  ])('reports %s on two threads as on one', (_name, request) => {
    const two = new PartThreads(2);
    threads.push(two);
    const shape = { endpoints: 288, slices: 4, endpointsPerRouter: 32, packetPhits: { min: 4, max: 19 } };
    const run = (runner?: PartThreads): TrafficReport => {
      const sim = handConfiguredR15(288, { slices: 4, portSeed: 288 });
      const session = startTraffic(sim, request, shape, runner);
      while (!session.advance(2_000));
      // The fabric takes a second run after it (a batch's packets are made on this thread, into every part).
      const again = startTraffic(sim, { ...request, mode: 'batch', packets: 2, pattern: { kind: 'random-permutation' } }, shape, runner);
      while (!again.advance(2_000));
      expect(again.report().books).toMatchObject({ balanced: true });
      return session.report();
    };
    const alone = run();
    expect(alone.latency.count).toBeGreaterThan(1_000);
    expect(alone.books).toMatchObject({ balanced: true });
    expect(alone.saturated).toBe(false);
    expect(run(two)).toEqual(alone);
  });
});
