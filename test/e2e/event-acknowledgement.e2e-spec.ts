import { createKey, loadFixture, TestService } from './support/test-service';

const ACK = `mutation($input: AcknowledgeEventInput!) { acknowledgeEvent(input: $input) { id acknowledgedBy acknowledgedAt acknowledgementNote } }`;

/** Automation and operators acknowledge events: who, when, and what they did about it. */
describe('event acknowledgement', () => {
  let service: TestService;
  let operator: string;
  let viewer: string;
  let eventId: string;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator', 'cable-desk');
    viewer = await createKey(service, service.bootstrapKey!, 'viewer');
    await loadFixture(service, operator, 'blackwidow/bw-r1-32');
    const events = await service.gql<{ events: { edges: { node: { id: string } }[] } }>(
      '{ events(kinds: [FABRIC_LOADED]) { edges { node { id } } } }',
      {},
      operator,
    );
    eventId = events.data!.events.edges[0].node.id;
  });
  afterAll(() => service.stop());

  it('records the key, the time and the note, once', async () => {
    const acked = await service.gql<{ acknowledgeEvent: { acknowledgedBy: string; acknowledgedAt: string; acknowledgementNote: string } }>(
      ACK,
      { input: { id: eventId, note: 'cable replacement filed: ticket 4711' } },
      operator,
    );
    expect(acked.data!.acknowledgeEvent).toMatchObject({ acknowledgedBy: 'cable-desk', acknowledgementNote: 'cable replacement filed: ticket 4711' });
    expect(Date.now() - Date.parse(acked.data!.acknowledgeEvent.acknowledgedAt)).toBeLessThan(60_000);
    const again = await service.gql(ACK, { input: { id: eventId } }, operator);
    expect(again.errors![0]).toMatchObject({
      extensions: { code: 'CONFLICT' },
      message: expect.stringMatching(new RegExp(`^event ${eventId} was already acknowledged by cable-desk at `)),
    });
  });

  it('lists acknowledged and unacknowledged events apart', async () => {
    const pending = await service.gql<{ events: { edges: { node: { id: string } }[] } }>(
      '{ events(unacknowledged: true) { edges { node { id } } } }',
      {},
      viewer,
    );
    const done = await service.gql<{ events: { edges: { node: { id: string } }[] } }>(
      '{ events(unacknowledged: false) { edges { node { id } } } }',
      {},
      viewer,
    );
    expect(pending.data!.events.edges.map((e) => e.node.id)).not.toContain(eventId);
    expect(done.data!.events.edges.map((e) => e.node.id)).toEqual([eventId]);
    // A null filter, as clients send for "not given", lists both.
    const all = await service.gql<{ events: { totalCount: number } }>('query($u: Boolean) { events(unacknowledged: $u) { totalCount } }', { u: null }, viewer);
    expect(all.data!.events.totalCount).toBe(pending.data!.events.edges.length + 1);
  });

  it('needs an operator, and names an event that does not exist', async () => {
    expect((await service.gql(ACK, { input: { id: eventId } }, viewer)).errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await service.gql(ACK, { input: { id: '999999' } }, operator)).errors![0]).toMatchObject({
      message: 'no event with id 999999',
      extensions: { code: 'NOT_FOUND' },
    });
  });
});
