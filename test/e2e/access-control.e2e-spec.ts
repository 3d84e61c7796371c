import { createKey, LOAD_FABRIC, TestService } from './support/test-service';

describe('API keys and roles', () => {
  let service: TestService;
  let admin: string;
  let viewer: string;

  beforeAll(async () => {
    service = await TestService.start();
    admin = service.bootstrapKey!;
    viewer = await createKey(service, admin, 'viewer');
  });
  afterAll(() => service.stop());

  it('creates exactly one admin key on the first start of an empty store, and stores only its hash', async () => {
    expect(admin).toMatch(/^weft_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect((await service.rowCounts()).api_key).toBe(2);
  });

  it('answers a request without a key with UNAUTHENTICATED', async () => {
    const result = await service.gql('{ fabrics { totalCount } }');
    expect(result.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    const forged = await service.gql('{ fabrics { totalCount } }', {}, 'weft_aaaaaaaaaaaa_' + 'x'.repeat(43));
    expect(forged.errors![0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'KEY_INVALID' });
  });

  it('lets a viewer query but not mutate (FORBIDDEN), and audits the refused attempt', async () => {
    expect((await service.gql('{ fabrics { totalCount } }', {}, viewer)).errors).toBeUndefined();
    const result = await service.gql(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1-32' } }, viewer);
    expect(result.errors![0].extensions.code).toBe('FORBIDDEN');
    expect(result.errors![0].message).toBe('loadFabric needs the operator role; this key is viewer');
    expect((await service.rowCounts()).fabric).toBe(0);
    const audit = await service.gql<{ auditEntries: { edges: { node: { actor: string; action: string; outcome: string } }[] } }>(
      '{ auditEntries(first: 50) { edges { node { actor action outcome } } } }',
      {},
      admin,
    );
    expect(audit.data!.auditEntries.edges.map((e) => e.node)).toContainEqual({ actor: 'viewer-key (viewer)', action: 'loadFabric', outcome: 'FORBIDDEN' });
  });

  it('keeps key management to admins', async () => {
    const operator = await createKey(service, admin, 'operator', 'ops');
    const result = await service.gql('mutation { createApiKey(input: { name: "x", role: admin }) { key } }', {}, operator);
    expect(result.errors![0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses a revoked key at once', async () => {
    const doomed = await createKey(service, admin, 'operator', 'doomed');
    const keys = await service.gql<{ apiKeys: { id: string; name: string }[] }>('{ apiKeys { id name } }', {}, admin);
    const id = keys.data!.apiKeys.find((k) => k.name === 'doomed')!.id;
    await service.gql('mutation($input: RevokeApiKeyInput!) { revokeApiKey(input: $input) { revokedAt } }', { input: { id } }, admin);
    const result = await service.gql('{ fabrics { totalCount } }', {}, doomed);
    expect(result.errors![0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'KEY_REVOKED' });
  });

  it('refuses a subscription socket whose key is wrong', async () => {
    const client = service.wsClient('weft_aaaaaaaaaaaa_' + 'y'.repeat(43));
    const outcome = await new Promise<string>((resolve) => {
      client.subscribe(
        { query: 'subscription { fabricEvents { kind } }' },
        { next: () => resolve('event'), error: () => resolve('refused'), complete: () => resolve('completed') },
      );
    });
    await client.dispose();
    expect(outcome).toBe('refused');
  });

  it('writes an audit entry for every mutation, successful or not', async () => {
    const operator = await createKey(service, admin, 'operator', 'auditor-test');
    const before = (await service.rowCounts()).audit_entry;
    await service.gql(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1-32' } }, operator);
    await service.gql(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1-32' } }, operator);
    const audit = await service.gql<{
      auditEntries: { edges: { node: { actor: string; action: string; outcome: string; arguments: Record<string, unknown> } }[] };
    }>('{ auditEntries(first: 500) { edges { node { actor action outcome arguments } } } }', {}, admin);
    const mine = audit.data!.auditEntries.edges.map((e) => e.node).filter((n) => n.actor === 'auditor-test (operator)');
    expect(mine).toEqual([
      { actor: 'auditor-test (operator)', action: 'loadFabric', outcome: 'ok', arguments: { input: { fixture: 'blackwidow/bw-r1-32' } } },
      { actor: 'auditor-test (operator)', action: 'loadFabric', outcome: 'CONFLICT', arguments: { input: { fixture: 'blackwidow/bw-r1-32' } } },
    ]);
    expect((await service.rowCounts()).audit_entry).toBe(before + 2);
  });
});
