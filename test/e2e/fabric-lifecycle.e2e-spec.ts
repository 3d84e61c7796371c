import { createKey, LOAD_FABRIC, TestService } from './support/test-service';

interface LoadedFabric {
  loadFabric: { id: string; name: string; chipCount: number; portCount: number; linkCount: number; summary: Record<string, unknown> };
}

describe('an operator loads a fabric and watches its events', () => {
  let service: TestService;
  let operatorKey: string;

  beforeAll(async () => {
    service = await TestService.start();
    operatorKey = await createKey(service, service.bootstrapKey!, 'operator');
  });
  afterAll(() => service.stop());

  it('loads the R1 fixture through the API, queries it back, and hears FABRIC_LOADED on the subscription', async () => {
    const client = service.wsClient(operatorKey);
    const received: { kind: string; fabricId: string; details: Record<string, unknown>; cursor: string }[] = [];
    const subscribed = new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription { fabricEvents(kinds: [FABRIC_LOADED]) { kind fabricId details cursor } }' },
        {
          next: (message) => {
            received.push(message.data!.fabricEvents as (typeof received)[number]);
            resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    // The subscription is live once the socket has acknowledged it; give it a moment.
    await new Promise((r) => setTimeout(r, 200));

    const loaded = await service.gql<LoadedFabric>(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1-32' } }, operatorKey);
    expect(loaded.errors).toBeUndefined();
    expect(loaded.data!.loadFabric).toMatchObject({ name: 'bw-r1-32', chipCount: 36, portCount: 4 * 64 + 32 * 4, linkCount: 128 });

    await subscribed;
    expect(received[0]).toMatchObject({ kind: 'FABRIC_LOADED', fabricId: loaded.data!.loadFabric.id, details: { name: 'bw-r1-32', network: 'R1' } });
    await client.dispose();

    const queried = await service.gql<{ fabric: { chips: { totalCount: number; edges: { node: { name: string; ports: { totalCount: number } } }[] } } }>(
      `query($id: ID!) { fabric(id: $id) { chips(kind: "router", first: 10) { totalCount edges { node { name ports(first: 1) { totalCount } } } } } }`,
      { id: loaded.data!.loadFabric.id },
      operatorKey,
    );
    expect(queried.data!.fabric.chips.totalCount).toBe(4);
    expect(queried.data!.fabric.chips.edges.map((e) => e.node.name)).toEqual(['s0.r1.0', 's1.r1.0', 's2.r1.0', 's3.r1.0']);
    expect(queried.data!.fabric.chips.edges[0].node.ports.totalCount).toBe(64);

    // Each chip's place in the family's own terms, and filtered on: BlackWidow's slice and rank.
    const inSlice2 = await service.gql<{
      fabric: { chips: { totalCount: number; edges: { node: { name: string; placement: object; slice: number; rank: number } }[] } };
    }>(
      `query($id: ID!) { fabric(id: $id) { chips(slice: 2, rank: 1, first: 10) { totalCount edges { node { name placement slice rank } } } } }`,
      { id: loaded.data!.loadFabric.id },
      operatorKey,
    );
    expect(inSlice2.data!.fabric.chips).toEqual({ totalCount: 1, edges: [{ node: { name: 's2.r1.0', placement: { slice: 2, rank: 1 }, slice: 2, rank: 1 } }] });
  });

  it('pages through chips with cursors, each chip exactly once', async () => {
    const fabricId = (await service.gql<{ fabrics: { edges: { node: { id: string } }[] } }>('{ fabrics { edges { node { id } } } }', {}, operatorKey)).data!
      .fabrics.edges[0].node.id;
    const names: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page: {
        data?: { fabric: { chips: { edges: { node: { name: string } }[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } } } } | null;
      } = await service.gql(
        `query($id: ID!, $after: String) { fabric(id: $id) { chips(first: 10, after: $after) { edges { node { name } } pageInfo { endCursor hasNextPage } } } }`,
        { id: fabricId, after },
        operatorKey,
      );
      if (!page.data) throw new Error(JSON.stringify(page));
      const chips = page.data.fabric.chips;
      names.push(...chips.edges.map((e) => e.node.name));
      if (!chips.pageInfo.hasNextPage) break;
      after = chips.pageInfo.endCursor;
    }
    expect(names).toHaveLength(36);
    expect(new Set(names).size).toBe(36);
  });

  it('replays missed events to a subscriber that resumes from a cursor', async () => {
    const first = await service.gql<{ events: { edges: { node: { id: string; cursor: string } }[] } }>(
      '{ events(first: 1) { edges { node { id cursor } } } }',
      {},
      operatorKey,
    );
    const cursor = first.data!.events.edges[0].node.cursor;
    await service.gql(LOAD_FABRIC, { input: { fixture: 'blackwidow/bw-r1-32', name: 'second-r1' } }, operatorKey);

    const client = service.wsClient(operatorKey);
    const replayed = await new Promise<{ kind: string; details: { name: string } }>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($after: String) { fabricEvents(after: $after) { kind details } }', variables: { after: cursor } },
        { next: (m) => resolve(m.data!.fabricEvents as { kind: string; details: { name: string } }), error: reject, complete: () => undefined },
      );
    });
    await client.dispose();
    expect(replayed).toMatchObject({ kind: 'FABRIC_LOADED', details: { name: 'second-r1' } });
  });

  it('keeps everything across a restart on the same data file', async () => {
    const before = await service.rowCounts();
    await service.restart();
    expect(service.bootstrapKey).toBeNull();
    expect(await service.rowCounts()).toEqual(before);
    const after = await service.gql<{ fabrics: { totalCount: number } }>('{ fabrics { totalCount } }', {}, operatorKey);
    expect(after.data!.fabrics.totalCount).toBe(2);
    const health = (await (await fetch(`${service.url}/health`)).json()) as { status: string; info: { emulator: { fabrics: number } } };
    expect(health.status).toBe('ok');
    expect(health.info.emulator.fabrics).toBe(2);
  });

  it('deletes a fabric with everything stored about it', async () => {
    const list = await service.gql<{ fabrics: { edges: { node: { id: string; name: string } }[] } }>(
      '{ fabrics { edges { node { id name } } } }',
      {},
      operatorKey,
    );
    const second = list.data!.fabrics.edges.find((e) => e.node.name === 'second-r1')!.node;
    const deleted = await service.gql<{ deleteFabric: { name: string } }>(
      'mutation($input: DeleteFabricInput!) { deleteFabric(input: $input) { name } }',
      { input: { id: second.id } },
      operatorKey,
    );
    expect(deleted.data!.deleteFabric.name).toBe('second-r1');
    expect(await service.rowCounts()).toMatchObject({ fabric: 1, chip: 36, port: 384, link: 128 });
  });
});
