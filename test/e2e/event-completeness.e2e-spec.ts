import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { runDrill } from './support/drills';
import { createKey, loadFixture, TestService, waitForAutomation } from './support/test-service';

const DECLARE = `mutation($input: DeclareFaultInput!) { declareFault(input: $input) { id } }`;
const EVENTS = `query($after: String) { events(after: $after, first: 500) { edges { node { id } } pageInfo { endCursor } } }`;

/**
 * Nothing lost on the event stream (issue 54): fifty live subscribers, while a drill runs (the
 * `router-death` drill of its own fabric: interrupts, reactions, pushes), a router dies on another
 * fabric (its neighbours' interrupts recorded at once) and operators declare faults from four
 * clients at the same moment, each get every stored event exactly once, in id order — on SQLite and
 * PostgreSQL.
 */
describe('event stream completeness', () => {
  jest.setTimeout(120_000);
  let service: TestService;
  let operator: string;
  let fabricId: string;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = await loadFixture(service, operator, 'blackwidow/bw-r1.5-288');
    await service.gql('mutation($input: FabricIdInput!) { configureFabric(input: $input) { verified } }', { input: { fabricId } }, operator);
  }, 60_000);
  afterAll(() => service.stop());

  it('fifty live subscribers get every event of a drill, a router death and concurrent declarations exactly once, in order', async () => {
    const stored = async (from: string | null) => {
      const ids: string[] = [];
      for (let cursor = from; ;) {
        const page = (
          await service.gql<{ events: { edges: { node: { id: string } }[]; pageInfo: { endCursor: string | null } } }>(EVENTS, { after: cursor }, operator)
        ).data!.events;
        ids.push(...page.edges.map((e) => e.node.id));
        if (page.edges.length < 500) return ids;
        cursor = page.pageInfo.endCursor;
      }
    };
    const before = await service.gql<{ events: { pageInfo: { endCursor: string | null } } }>('{ events(first: 500) { pageInfo { endCursor } } }', {}, operator);
    const after = before.data!.events.pageInfo.endCursor;

    const subscribers = Array.from({ length: 50 }, () => ({ ids: [] as string[], client: service.wsClient(operator) }));
    await Promise.all(
      subscribers.map(
        (s) =>
          new Promise<void>((resolve, reject) => {
            s.client.subscribe(
              { query: 'subscription($after: String) { fabricEvents(after: $after) { id } }', variables: { after } },
              { next: (m) => s.ids.push((m.data!.fabricEvents as { id: string }).id), error: reject, complete: () => undefined },
            );
            s.client.on('connected', () => resolve());
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200));

    const drill = runDrill(service, operator, 'router-death');
    await Promise.all([
      service.app.get(EmulatorService).injectFault(Number(fabricId), { action: 'kill-router', chip: 's1.r1.5' }),
      ...['s0.r1.0', 's0.r1.1', 's2.r1.2', 's3.r1.3'].map((chip) =>
        service.gql(DECLARE, { input: { fabricId, kind: 'router', chip, note: 'concurrent writers' } }, operator),
      ),
    ]);
    await waitForAutomation(service, Number(fabricId));
    expect((await drill).state).toBe('passed');

    const expected = await stored(after);
    expect(expected.length).toBeGreaterThan(20);
    for (let waited = 0; waited < 10_000 && subscribers.some((s) => s.ids.length < expected.length); waited += 50) await new Promise((r) => setTimeout(r, 50));
    await Promise.all(subscribers.map((s) => s.client.dispose()));
    for (const s of subscribers) expect(s.ids).toEqual(expected);
  });
});
