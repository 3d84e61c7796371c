import { linkDownEnds, lost, passedDrill } from './support/drills';
import { TestService } from './support/test-service';

/**
 * The shipped Anton 2 drills through the API (issue 37): the 512-node machine under background
 * traffic from its endpoint adapters, faults played at exact emulated times, the control plane
 * reacting by itself over the control network — and every packet delivered or discarded with a
 * reason a step explains.
 */
describe('Anton 2 drills', () => {
  jest.setTimeout(300_000);
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start();
    key = service.bootstrapKey!;
  }, 60_000);
  afterAll(() => service.stop());

  const run = (fixture: string) => passedDrill(service, key, fixture);

  it('a dead torus channel under load: both ends report it, every pair keeps a route, losses only at its two ends until the push', async () => {
    const r = await run('anton2-dead-channel-under-load');
    expect(linkDownEnds(r)).toEqual(['x2.y3.z4:4', 'x2.y4.z4:6']);
    // Every pair keeps at least one (order, slice) that avoids the channel: none is declared cut.
    expect(r.declaredCut).toBe(0);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    // What reached the channel before the push is lost there, and each loss is explained. How much
    // does depends on how long the reaction's CPU took (charged to emulated time): at this light
    // load an idle machine's quick reaction may lose none (the dead ASIC's drill always loses some).
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
    for (const cause of r.discards.causes) expect(Object.keys(cause.byReason)).toEqual(['link-down']);
  });

  it('a dead ASIC under load: its neighbours’ 12 channels report it, the pairs declared cut are those on its lines, every loss explained', async () => {
    const r = await run('anton2-dead-asic-under-load');
    expect(new Set(r.interrupts.filter((i) => i.kind === 'LINK_DOWN').map((i) => i.chip))).toEqual(
      new Set(['x4.y2.z6', 'x6.y2.z6', 'x5.y1.z6', 'x5.y3.z6', 'x5.y2.z5', 'x5.y2.z7']),
    );
    expect(r.interrupts.filter((i) => i.kind === 'LINK_DOWN')).toHaveLength(12);
    expect(r.declaredCut).toBeGreaterThan(0);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(lost(r)).toBeGreaterThan(0);
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
  });

  it('a noisy channel: go-back-N resends what arrives corrupted, nothing is lost or re-routed', async () => {
    const r = await run('anton2-noisy-channel');
    expect(r.traffic.retransmissions).toBeGreaterThan(0);
    expect(lost(r)).toBe(0);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(r.generations).toEqual([]);
  });

  it('a multicast-heavy workload with a fault: the trees are rebuilt in the generation that routes around it, every copy delivered once or its loss explained', async () => {
    const r = await run('anton2-multicast-with-fault');
    // Generation 2 took the drill's groups; the automation's, after the cut, rebuilt their trees.
    expect(r.generations.map((g) => g.generation)).toEqual([3]);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
  });
});
