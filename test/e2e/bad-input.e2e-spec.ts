import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKey, GraphQLResponse, LOAD_FABRIC, TestService } from './support/test-service';

const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures', name), 'utf8');

/** A new user's mistakes, each answered with a clear, coded error and nothing written. */
describe('bad input', () => {
  let service: TestService;
  let operator: string;
  let baseline: Record<string, number>;

  beforeAll(async () => {
    service = await TestService.start();
    operator = await createKey(service, service.bootstrapKey!, 'operator');
  });
  afterAll(() => service.stop());

  const storeRows = async () => {
    const { fabric, chip, port, link, fabric_event } = await service.rowCounts();
    return { fabric, chip, port, link, fabric_event };
  };
  beforeEach(async () => (baseline = await storeRows()));
  afterEach(async () => expect(await storeRows()).toEqual(baseline));

  const load = (input: Record<string, unknown>) => service.gql(LOAD_FABRIC, { input }, operator);
  const firstError = (r: GraphQLResponse) => {
    expect(r.data ?? null).toBeNull();
    return r.errors![0];
  };

  it('malformed fixture JSON names the line and column', async () => {
    const error = firstError(await load({ installation: fixture('invalid/malformed-json.json') }));
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    expect(error.message).toBe('installation: invalid installation\n  $: not valid JSON: expected "," or "}", found "\\"" at line 5, column 3');
  });

  it('an unknown family lists the known ones', async () => {
    const error = firstError(await load({ installation: fixture('invalid/unknown-family.json') }));
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    expect(error.extensions.problems).toEqual([
      { path: '$.family', message: 'must be one of "blackwidow", "bgl", "anton2", "flattened-butterfly", got "dragonfly"' },
    ]);
  });

  it('negative sizes are refused with their JSON path', async () => {
    const error = firstError(await load({ installation: fixture('invalid/negative-size.json') }));
    expect(error.extensions.problems).toEqual([
      { path: '$.design.processors', message: 'must be between 1 and 288, got -288' },
      { path: '$.design.slices', message: 'must be between 1 and 4, got -1' },
    ]);
  });

  it('a cable end used twice is named with both cables', async () => {
    const error = firstError(await load({ installation: fixture('invalid/duplicate-cable-end.json') }));
    expect(error.extensions.problems).toEqual([
      { path: '$.cabling.extra[1]', message: 'duplicate cable end: s0.r1.1 port 63 is also taken by $.cabling.extra[0]' },
    ]);
  });

  it('a fixture outside fixtures/ or that does not exist is NOT_FOUND', async () => {
    expect(firstError(await load({ fixture: '../package' }))).toMatchObject({
      extensions: { code: 'NOT_FOUND' },
      message: 'no fixture "../package" among the service\'s fixtures (e.g. "blackwidow/bw-r1.5-288")',
    });
    expect(firstError(await load({ fixture: 'blackwidow/no-such-fabric' })).extensions.code).toBe('NOT_FOUND');
  });

  it('a body that is not JSON, or too large, gets a JSON error without a stack trace or a server path, key or no key', async () => {
    for (const [body, status] of [
      ['{"query": "{ fabrics { totalCount } }"', 400],
      [JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(6 * 1024 * 1024) } }), 413],
    ] as const) {
      const response = await fetch(`${service.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ statusCode: status, message: expect.any(String) });
      expect(text).not.toContain(process.cwd());
      expect(text).not.toMatch(/\bat \S+ \(|<html|node_modules/i);
    }
    const badUrl = await fetch(`${service.url}/health/%E0%A4%A`);
    expect(badUrl.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await badUrl.text()).not.toMatch(/\bat \S+ \(|<html|node_modules/i);
  });

  it("a fabric loaded from a fixture names it without the server's directories", async () => {
    await load({ fixture: 'blackwidow/bw-r1-32', name: 'named-source' });
    baseline = await storeRows();
    const fabrics = await service.gql<{ fabrics: { edges: { node: { name: string; source: string } }[] } }>(
      '{ fabrics { edges { node { name source } } } }',
      {},
      operator,
    );
    expect(fabrics.data!.fabrics.edges.map((e) => e.node).find((f) => f.name === 'named-source')).toEqual({
      name: 'named-source',
      source: 'fixture:blackwidow/bw-r1-32',
    });
  });

  it('both or neither source is a clear mistake', async () => {
    const error = firstError(await load({}));
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'SOURCE_AMBIGUOUS' });
  });

  it('wrong GraphQL types and out-of-range values are BAD_USER_INPUT', async () => {
    const wrongType = await service.gql('{ fabrics(first: "ten") { totalCount } }', {}, operator);
    expect(wrongType.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const wrongVariable = await service.gql(LOAD_FABRIC, { input: { fixture: 42 } }, operator);
    expect(wrongVariable.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const outOfRange = await service.gql('{ fabrics(first: 0) { totalCount } }', {}, operator);
    expect(outOfRange.errors![0]).toMatchObject({ message: 'invalid input: first must not be less than 1', extensions: { code: 'BAD_USER_INPUT' } });
    const badName = await load({ fixture: 'blackwidow/bw-r1-32', name: 'has spaces' });
    expect(firstError(badName).extensions.problems).toEqual(['name may hold letters, digits, ".", "_" and "-"']);
    const eventsPage = await service.gql('{ events(first: 501) { totalCount } }', {}, operator);
    expect(eventsPage.errors![0]).toMatchObject({ message: 'invalid input: first must not be greater than 500', extensions: { code: 'BAD_USER_INPUT' } });
    const badCursor = await service.gql('{ fabrics(after: "not-a-cursor") { totalCount } }', {}, operator);
    expect(badCursor.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'CURSOR_INVALID' });
    const missingFabric = await service.gql('{ fabric(id: 999) { name } }', {}, operator);
    expect(missingFabric.errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it('a query over the complexity limit is refused before it runs', async () => {
    const result = await service.gql(
      '{ fabrics(first: 100) { edges { node { chips(first: 500) { edges { node { ports(first: 64) { edges { node { id role } } } } } } } } } }',
      {},
      operator,
    );
    expect(result.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'QUERY_TOO_COMPLEX', maxComplexity: 20000 });
  });

  it('a fabric name already in use is a CONFLICT and leaves the first fabric alone', async () => {
    await load({ fixture: 'blackwidow/bw-r1-32' });
    baseline = await storeRows();
    const error = firstError(await load({ fixture: 'blackwidow/bw-r1-32' }));
    expect(error.extensions.code).toBe('CONFLICT');
  });
});
