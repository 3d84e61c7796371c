import { createKey, loadFixture, TestService, waitForAutomation } from './support/test-service';

const CONFIGURE = `mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number state } verified violations writes } }`;
const DECLARE = `mutation($input: DeclareFaultInput!) { declareFault(input: $input) { id kind chip port source } }`;

/** Operators declare and clear faults; the next configuration routes around them. */
describe('declared faults', () => {
  let service: TestService;
  let operator: string;
  let fabricId: string;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
    fabricId = await loadFixture(service, operator, 'blackwidow/bw-r2-1024');
    await service.gql(CONFIGURE, { input: { fabricId } }, operator);
    // Starting the service and configuring a 1,024-port fabric: more than the 5 s default on a busy machine.
  }, 60_000);
  afterAll(() => service.stop());

  const lastGeneration = async () => {
    const events = await service.gql<{ events: { edges: { node: { kind: string; details: { generation: number; trigger?: string; writes?: number } } }[] } }>(
      'query($f: ID) { events(fabricId: $f, kinds: [GENERATION_COMPUTED, GENERATION_PUSHED], first: 100) { edges { node { kind details } } } }',
      { f: fabricId },
      operator,
    );
    const nodes = events.data!.events.edges.map((e) => e.node);
    const number = Math.max(...nodes.map((n) => n.details.generation));
    return {
      number,
      computed: nodes.find((n) => n.kind === 'GENERATION_COMPUTED' && n.details.generation === number)!.details,
      pushed: nodes.find((n) => n.kind === 'GENERATION_PUSHED' && n.details.generation === number)?.details,
    };
  };

  it('routes around a router taken out of service at once, and back once it is cleared', async () => {
    const declared = await service.gql<{ declareFault: { id: string; source: string } }>(
      DECLARE,
      { input: { fabricId, kind: 'router', chip: 's1.r2.0.4', note: 'fan tray swap' } },
      operator,
    );
    expect(declared.data!.declareFault).toMatchObject({ source: 'operator' });
    await waitForAutomation(service, Number(fabricId));
    const around = await lastGeneration();
    expect(around.computed).toMatchObject({ verified: true, trigger: 'automation: operator declared router fault s1.r2.0.4' });
    expect(around.pushed!.writes).toBeGreaterThan(0);
    const active = await service.gql<{ activeFaults: { chip: string }[] }>(
      'query($input: FabricIdInput!) { activeFaults(input: $input) { chip } }',
      { input: { fabricId } },
      operator,
    );
    expect(active.data!.activeFaults).toEqual([{ chip: 's1.r2.0.4' }]);

    await service.gql(
      'mutation($input: ClearFaultInput!) { clearFault(input: $input) { clearedAt } }',
      { input: { id: declared.data!.declareFault.id } },
      operator,
    );
    await waitForAutomation(service, Number(fabricId));
    const back = await lastGeneration();
    expect(back.number).toBe(around.number + 1);
    expect(back.computed).toMatchObject({ verified: true, trigger: 'automation: operator cleared router fault s1.r2.0.4' });
    expect(back.pushed!.writes).toBeGreaterThan(0);
    // An operator's full configuration agrees: nothing left to write.
    const again = (await service.gql<{ configureFabric: { verified: boolean; writes: number } }>(CONFIGURE, { input: { fabricId } }, operator)).data!
      .configureFabric;
    expect(again).toMatchObject({ verified: true, writes: 0 });
  });

  it('refuses faults that name nothing real, saying why', async () => {
    // The port is checked against the chip's own count (a YARC has 64; a processor 4).
    const badPort = await service.gql(DECLARE, { input: { fabricId, kind: 'link', chip: 's0.r1.0', port: 99 } }, operator);
    expect(badPort.errors![0]).toMatchObject({ message: 'a link fault needs a port of s0.r1.0: 0 to 63', extensions: { code: 'BAD_USER_INPUT' } });
    const badProcessorPort = await service.gql(DECLARE, { input: { fabricId, kind: 'link', chip: 'p7', port: 4 } }, operator);
    expect(badProcessorPort.errors![0].message).toBe('a link fault needs a port of p7: 0 to 3');
    const noChip = await service.gql(DECLARE, { input: { fabricId, kind: 'router', chip: 's9.r1.0' } }, operator);
    expect(noChip.errors![0]).toMatchObject({ message: `fabric ${fabricId} has no chip "s9.r1.0"`, extensions: { code: 'NOT_FOUND' } });
    const notRouter = await service.gql(DECLARE, { input: { fabricId, kind: 'router', chip: 'p7' } }, operator);
    expect(notRouter.errors![0]).toMatchObject({ message: 'p7 is not a router', extensions: { code: 'BAD_USER_INPUT' } });
    const noPort = await service.gql(DECLARE, { input: { fabricId, kind: 'link', chip: 's0.r1.0' } }, operator);
    expect(noPort.errors![0].message).toBe('a link fault needs a port of s0.r1.0: 0 to 63');
  });

  it('refuses to declare again what is already out of service, by either end of the cable, and makes no generation for it', async () => {
    const before = await lastGeneration();
    const first = await service.gql<{ declareFault: { id: string } }>(
      DECLARE,
      { input: { fabricId, kind: 'link', chip: 's0.r1.0', port: 32, note: 'reseat' } },
      operator,
    );
    expect(first.errors).toBeUndefined();
    await waitForAutomation(service, Number(fabricId));
    const around = await lastGeneration();
    expect(around.number).toBe(before.number + 1);
    const far = (
      await service.gql<{ routerConfiguration: { outOfService: { port: number; farEnd: string }[] } }>(
        'query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { outOfService { port farEnd } } }',
        { input: { fabricId, chip: 's0.r1.0' } },
        operator,
      )
    ).data!.routerConfiguration.outOfService.find((p) => p.port === 32)!.farEnd;
    const [farChip, farPort] = far.split(':');
    for (const end of [
      { chip: 's0.r1.0', port: 32 },
      { chip: farChip, port: Number(farPort) },
    ]) {
      const again = await service.gql(DECLARE, { input: { fabricId, kind: 'link', ...end } }, operator);
      expect(again.errors![0]).toMatchObject({
        extensions: { code: 'CONFLICT', reason: 'FAULT_ALREADY_ACTIVE' },
        message: expect.stringMatching(
          new RegExp(`^the link at ${end.chip}:${end.port} is already out of service: fault #${first.data!.declareFault.id} \\(operator`),
        ),
      });
    }
    await waitForAutomation(service, Number(fabricId));
    expect((await lastGeneration()).number).toBe(around.number);
  });
});
