import { linkDownEnds, lost, passedDrill } from './support/drills';
import { TestService } from './support/test-service';

/**
 * The shipped BlueGene/L drills through the API (issue 36): a midplane under background traffic
 * sent by each node's software, faults played at exact emulated times, the control plane reacting
 * by itself over JTAG — and every packet delivered or discarded with a reason a step explains.
 */
describe('BlueGene/L drills', () => {
  jest.setTimeout(300_000);
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start();
    key = service.bootstrapKey!;
  });
  afterAll(() => service.stop());

  const run = (fixture: string) => passedDrill(service, key, fixture);

  it('one dead node under load: routed around by the automation, every loss explained by it', async () => {
    const r = await run('bgl-node-death-under-load');
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(lost(r)).toBeGreaterThan(0);
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
    // Its six neighbours said their links went down.
    expect(new Set(r.interrupts.filter((i) => i.kind === 'LINK_DOWN').map((i) => i.chip))).toEqual(
      new Set(['x2.y4.z5', 'x4.y4.z5', 'x3.y3.z5', 'x3.y5.z5', 'x3.y4.z4', 'x3.y4.z6']),
    );
    expect(r.generations[0].pushedAtNs).not.toBeNull();
    // Nothing was declared cut: the only refusals at a source are of packets for the dead node.
    expect(r.discards.causes.map((c) => c.cause)).not.toContain('kill-router x3.y4.z5: pairs the pushed generations declared cut');
  });

  it('three dead nodes not on one line, one after another: every live pair stays connected, nothing is declared cut', async () => {
    const r = await run('bgl-three-dead-nodes');
    expect(r.heal.map((h) => h.healNs !== null)).toEqual([true, true, true]);
    expect(r.declaredCut).toBe(0);
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
    // Refused at a source: only packets for the dead.
    const refused = r.discards.causes.filter((c) => c.byReason.unreachable);
    expect(refused.every((c) => c.cause.endsWith(': packets for it'))).toBe(true);
  });

  it('three co-linear dead nodes: the pairs declared cut are exactly those no route joins — none on rings of 8 — and every loss is explained', async () => {
    const r = await run('bgl-three-co-linear-dead-nodes');
    // A relay through the next y or z ring joins every live pair on a midplane (on rings of 4 the
    // compiler's cut list, equal to a brute-force search, is not empty: route-overrides.spec.ts).
    expect(r.declaredCut).toBe(0);
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
  });

  it('a cut cable: both ends report it, losses only at its two ends until the push, then none', async () => {
    const r = await run('bgl-cable-cut');
    expect(linkDownEnds(r)).toEqual(['x0.y0.z0:1', 'x7.y0.z0:0']);
    expect(r.discards.unexplained).toBe(0);
    for (const cause of r.discards.causes) expect(Object.keys(cause.byReason)).toEqual(['link-down']);
  });

  it('a noisy cable: the links send again what the CRC rejects, nothing is lost or re-routed', async () => {
    const r = await run('bgl-noisy-cable');
    expect(r.traffic.retransmissions).toBeGreaterThan(0);
    expect(lost(r)).toBe(0);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(r.generations).toEqual([]);
  });
});
