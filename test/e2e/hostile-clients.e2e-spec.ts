import { connect } from 'node:net';
import { reusePortSupported } from '../../apps/fabric-manager/src/http/acceptors';
import { createKey, loadFixture, TestService, waitForAutomation } from './support/test-service';

const CONFIGURE = `mutation($input: FabricIdInput!) { configureFabric(input: $input) { generation { number } } }`;
const DIFF = (alias: string) =>
  `${alias}: generationDiff(input: { fabricId: $f, from: 1, to: 2, first: 500 }) { changedRouters routers { chip changes { register meaning } } }`;
const ROUTER = (alias: string, chip: string) => `${alias}: routerConfiguration(input: { fabricId: $f, chip: "${chip}" }) { chip raw { register value } }`;
const INTROSPECTION = (alias: string) => `${alias}: __schema { types { name fields { name args { name } type { name kind ofType { name } } } } }`;

/** What a client can send that the API must price before it runs: aliases that multiply a
 * resolver's work, and introspection that multiplies the schema. */
describe('hostile clients', () => {
  let service: TestService;
  let viewer: string;
  let fabricId: number;

  beforeAll(async () => {
    service = await TestService.start();
    const operator = await createKey(service, service.bootstrapKey!, 'operator');
    viewer = await createKey(service, service.bootstrapKey!, 'viewer');
    fabricId = Number(await loadFixture(service, operator, 'blackwidow/bw-r1.5-288'));
    await service.gql(CONFIGURE, { input: { fabricId } }, operator);
    // Generation 2: the same fabric around one cut cable, so that there is something to diff.
    await service.gql(
      'mutation($input: DeclareFaultInput!) { declareFault(input: $input) { id } }',
      { input: { fabricId, kind: 'link', chip: 's0.r1.3', port: 40, note: 'to diff' } },
      operator,
    );
    await waitForAutomation(service, fabricId);
  }, 120_000);
  afterAll(() => service.stop());

  const post = async (query: string, key?: string) => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query, variables: { f: fabricId } }),
    });
    const text = await response.text();
    return { status: response.status, bytes: text.length, body: JSON.parse(text) as { data?: unknown; errors?: { extensions: Record<string, unknown> }[] } };
  };
  const aliased = (count: number, field: (alias: string) => string) =>
    `query($f: ID!) { ${Array.from({ length: count }, (_, i) => field(`a${i}`)).join(' ')} }`;

  it('900 aliases of generationDiff are refused with a 400 before any of them runs', async () => {
    const result = await post(aliased(900, DIFF), viewer);
    expect(result.status).toBe(400);
    expect(result.body.data).toBeUndefined();
    expect(result.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'QUERY_TOO_COMPLEX' });
  });

  it('2,000 aliases of a field that costs nothing are refused with a 400 naming the field limit', async () => {
    const result = await post(aliased(2_000, (a) => `${a}: manager { role }`).replace('query($f: ID!)', 'query'), viewer);
    expect(result.status).toBe(400);
    expect(result.body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', reason: 'QUERY_TOO_LARGE', maxFields: 1_000 } });
  });

  it('a variable that does not fit its type, or an input field that does not exist, is the client’s mistake: 400', async () => {
    const send = async (query: string, variables: Record<string, unknown>) => {
      const response = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${viewer}` },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as { errors: { extensions: Record<string, unknown> }[] } };
    };
    for (const [query, variables] of [
      ['query($f: ID!) { fabric(id: $f) { id } }', { f: { x: 1 } }],
      ['query($i: FabricIdInput!) { generations(input: $i) { number } }', { i: { fabricId: 1, bogus: 2 } }],
      ['query { generations(input: { fabricId: 1, bogus: 2 }) { number } }', {}],
    ] as const) {
      const result = await send(query, variables);
      expect(result.status).toBe(400);
      expect(result.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    }
  });

  it('300 aliases of routerConfiguration are refused too', async () => {
    const result = await post(
      aliased(300, (a) => ROUTER(a, 's0.r1.3')),
      viewer,
    );
    expect(result.status).toBe(400);
    expect(result.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'QUERY_TOO_COMPLEX' });
  });

  it('introspection needs a key, and 100 aliased introspections are refused with a small answer', async () => {
    const anonymous = await post('{ __schema { queryType { name } } }');
    expect(anonymous.body.errors![0].extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(anonymous.status).toBe(401);
    const many = await post(aliased(100, INTROSPECTION).replace('query($f: ID!)', 'query'), viewer);
    expect(many.status).toBe(400);
    expect(many.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'QUERY_TOO_COMPLEX' });
    expect(many.bytes).toBeLessThan(2_000);
    const one = await post(`query { ${INTROSPECTION('schema')} }`, viewer);
    expect(one.status).toBe(200);
    expect(one.body.errors).toBeUndefined();
  });

  it('/health keeps answering while the heaviest permitted query runs', async () => {
    // As many router decodings as the cost limit lets one query hold, each of a different router
    // (so that none is answered from another's work).
    const routers = await post('query($f: ID!) { fabric(id: $f) { chips(kind: "router", first: 500) { edges { node { name } } } } }', viewer);
    const names = (routers.body.data as { fabric: { chips: { edges: { node: { name: string } }[] } } }).fabric.chips.edges.map((e) => e.node.name);
    const budget = await permittedAliases((a) => ROUTER(a, names[0]));
    expect(budget).toBeGreaterThan(10);
    const query = aliased(budget, (a) => ROUTER(a, names[Number(a.slice(1)) % names.length]));
    let finished = false;
    const started = performance.now();
    const running = post(query, viewer).then((r) => {
      finished = true;
      return { ...r, ms: performance.now() - started };
    });
    const probes: number[] = [];
    while (!finished) {
      const sent = performance.now();
      const health = await fetch(`${service.url}/health/live`);
      expect(health.status).toBe(200);
      if (!finished) probes.push(performance.now() - sent);
    }
    const result = await running;
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    // Probes came back while the query ran, each sooner than the query took: the event loop was
    // never held for the whole of it. (The latency itself is a figure of npm run bench.)
    expect(probes.length).toBeGreaterThan(1);
    expect(Math.max(...probes)).toBeLessThan(result.ms);
  });

  it('takes in a burst of new clients several at a turn of the event loop, however busy the turns', async () => {
    // Forty clients connect while the service's thread is busy (the kernel completes the
    // handshakes meanwhile). One listening socket would take one of them at the next turn, one more
    // at each turn after; the service's acceptors take one each.
    const server = service.app.getHttpServer();
    let taken = 0;
    const count = () => taken++;
    server.on('connection', count);
    const port = Number(new URL(service.url).port);
    const sockets = Array.from({ length: 40 }, () => connect(port, '127.0.0.1'));
    try {
      const busyUntil = performance.now() + 150;
      while (performance.now() < busyUntil);
      // The end of this turn, then the next: its poll phase takes connections in, then its check
      // phase runs the inner callback.
      const atFirstTurn = await new Promise<number>((resolve) => setImmediate(() => setImmediate(() => resolve(taken))));
      // Where Node cannot share the port (before 22.12) there is one acceptor: one connection a turn.
      expect(atFirstTurn).toBeGreaterThanOrEqual(reusePortSupported() ? 4 : 1);
    } finally {
      server.off('connection', count);
      for (const socket of sockets) socket.destroy();
    }
  });

  it('shares its port only among its own acceptors: a second service on the port refuses to start', async () => {
    const port = Number(new URL(service.url).port);
    await expect(TestService.start({ config: { WEFT_PORT: port, WEFT_HOST: '127.0.0.1' } })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  /** The largest number of aliases of `field` that the cost limit accepts. */
  async function permittedAliases(field: (alias: string) => string): Promise<number> {
    const one = await post(aliased(1, field), viewer);
    expect(one.body.errors).toBeUndefined();
    const probe = await post(aliased(1_000, field), viewer);
    const { complexity, maxComplexity } = probe.body.errors![0].extensions as { complexity: number; maxComplexity: number };
    return Math.floor(maxComplexity / (complexity / 1_000));
  }
});
