import { linkDownEnds, lost, passedDrill } from './support/drills';
import { TestService } from './support/test-service';

/**
 * The shipped flattened butterfly drills through the API (issue 38): the 32-ary 2-flat under
 * background traffic, faults played at exact emulated times, the control plane reacting by itself
 * over the service network — and every packet delivered or discarded with a reason a step explains.
 */
describe('flattened butterfly drills', () => {
  jest.setTimeout(300_000);
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start();
    key = service.bootstrapKey!;
  }, 60_000);
  afterAll(() => service.stop());

  const run = (fixture: string) => passedDrill(service, key, fixture);

  it('a dead link under adversarial load: both ends report it, detours take its traffic, losses only at its two ends until the push', async () => {
    const r = await run('fb-dead-link-under-adversarial-load');
    expect(linkDownEnds(r)).toEqual(['r0:32', 'r1:32']);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
    for (const cause of r.discards.causes) expect(Object.keys(cause.byReason)).toEqual(['link-down']);
  });

  it('a dead router: its 31 neighbours report it, it is never an intermediate after the push, every loss explained', async () => {
    const r = await run('fb-dead-router');
    expect(r.interrupts.filter((i) => i.kind === 'LINK_DOWN')).toHaveLength(31);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
  });

  it('a redundant channel failing: the routers fail over to the doubled channel, nothing detours, losses only at the dead cable’s ends until the push', async () => {
    const r = await run('fb-redundant-channel-failing');
    expect(linkDownEnds(r)).toEqual(['r0:32', 'r1:32']);
    expect(r.traffic.books).toMatchObject({ balanced: true, inFlight: 0 });
    expect(r.discards).toMatchObject({ total: lost(r), explained: lost(r), unexplained: 0 });
    for (const cause of r.discards.causes) expect(Object.keys(cause.byReason)).toEqual(['link-down']);
  });
});
