import { createKey, TestService, watchFabricEvents } from './support/test-service';

const PAIR = { WEFT_STANDBY: 'on', WEFT_LEASE_MS: 600 } as const;
const MANAGER = '{ manager { role leaseMs active { pid host url term } tookOverAt takeoverMs } }';

interface Manager {
  role: string;
  leaseMs: number;
  active: { pid: number; host: string; url: string | null; term: number } | null;
  tookOverAt: string | null;
  takeoverMs: number | null;
}

/**
 * Two managers on one store (issue 40): the second finds the store held and waits as the standby —
 * serving reads and the event stream, refusing writes with the active manager's address — and
 * takes over when the active manager's lease lapses, with a newer term.
 */
describe('an active/standby pair of managers', () => {
  jest.setTimeout(120_000);
  let active: TestService;
  let standby: TestService;
  let admin: string;
  let operator: string;

  beforeAll(async () => {
    active = await TestService.start({ defaultFixture: 'blackwidow/bw-r1-32', config: PAIR });
    admin = active.bootstrapKey!;
    operator = await createKey(active, admin, 'operator');
    standby = await TestService.start({ dir: active.dir, config: { ...PAIR, WEFT_DATABASE: active.databasePath } });
  });
  afterAll(async () => {
    await active?.stop({ keepFiles: true }).catch(() => undefined);
    await standby?.stop();
  });

  it('the second manager stands by: it reads, and refuses a write naming the active manager', async () => {
    const first = (await active.gql<{ manager: Manager }>(MANAGER, {}, admin)).data!.manager;
    const second = (await standby.gql<{ manager: Manager }>(MANAGER, {}, admin)).data!.manager;
    expect(first).toMatchObject({ role: 'active', leaseMs: 600, active: { pid: process.pid, url: active.url } });
    expect(second).toMatchObject({ role: 'standby', active: { url: active.url, term: first.active!.term } });

    const fabrics = await standby.gql<{ fabrics: { totalCount: number } }>('{ fabrics(first: 5) { totalCount } }', {}, admin);
    expect(fabrics.data!.fabrics.totalCount).toBe(1);
    const before = await standby.rowCounts();
    const refused = await standby.gql('mutation { declareFault(input: { fabricId: 1, kind: "link", chip: "p3", port: 0 }) { id } }', {}, operator);
    expect(refused.errors![0]).toMatchObject({
      message: expect.stringMatching(/^this manager is the standby: .+send writes to the active manager \(process \d+ on .+, http:\/\/.+\/graphql\)$/),
      extensions: { code: 'NOT_ACTIVE', reason: 'MANAGER_NOT_ACTIVE', activeUrl: active.url },
    });
    expect(await standby.rowCounts()).toEqual(before);
    // Its metrics say so: no lease, in the standby's role.
    expect(await (await fetch(`${standby.url}/metrics`)).text()).toMatch(/^weft_lease_held\{role="standby"\} 0$/m);
    const ready = await fetch(`${standby.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ error: { manager: { status: 'down', role: 'standby' } } });
  });

  it('the standby’s subscribers hear what the active manager does', async () => {
    const watch = await watchFabricEvents(standby, admin, '1');
    try {
      await active.gql('mutation { declareFault(input: { fabricId: 1, kind: "link", chip: "p3", port: 0 }) { id } }', {}, operator);
      const pushed = await watch.streamed((e) => e.kind === 'GENERATION_PUSHED' && e.details.generation === 2, 'the active manager’s push of generation 2');
      expect(pushed.details.writes).toBeGreaterThan(0);
    } finally {
      await watch.close();
    }
  });

  it('takes over once the active manager stops, with a newer term, and then writes', async () => {
    const term = (await standby.gql<{ manager: Manager }>(MANAGER, {}, admin)).data!.manager.active!.term;
    await active.stop({ keepFiles: true });
    let manager: Manager | undefined;
    for (let i = 0; i < 400 && !manager?.tookOverAt; i++) {
      await new Promise((r) => setTimeout(r, 50));
      manager = (await standby.gql<{ manager: Manager }>(MANAGER, {}, admin)).data!.manager;
    }
    expect(manager).toMatchObject({ role: 'active', active: { pid: process.pid, url: standby.url } });
    expect(manager!.active!.term).toBeGreaterThan(term);
    expect(manager!.takeoverMs).toBeGreaterThanOrEqual(0);
    // Its fabric is attached and the last generation reconciled: it is ready, and it writes.
    for (let i = 0; i < 200 && (await fetch(`${standby.url}/health/ready`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`${standby.url}/health/ready`)).status).toBe(200);
    const faults = await standby.gql<{ activeFaults: { id: string }[] }>('{ activeFaults(input: { fabricId: 1 }) { id } }', {}, admin);
    const cleared = await standby.gql('mutation($id: ID!) { clearFault(input: { id: $id }) { id } }', { id: faults.data!.activeFaults[0].id }, operator);
    expect(cleared.errors).toBeUndefined();
  });
});
