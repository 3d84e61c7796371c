import { DataSource } from 'typeorm';
import { openTestStore } from '../testing/test-store';
import { encodeCursor } from '../graphql/pagination';
import { FabricEvent } from './fabric-event.entity';
import { FabricEventKind } from './fabric-event-kind';
import { EventsService } from './events.service';

describe('EventsService (store-backed)', () => {
  let store: { dataSource: DataSource; close: () => Promise<void> };
  let sut: EventsService;

  beforeEach(async () => {
    store = await openTestStore();
    sut = new EventsService(store.dataSource.getRepository(FabricEvent));
    await sut.onModuleInit();
  });
  afterEach(async () => {
    sut.onModuleDestroy();
    await store.close();
  });

  const record = (fabricId: number, n: number) => sut.record({ fabricId, kind: FabricEventKind.LINK_DOWN, chip: `s0.r1.${n}`, details: { n } });

  it('replays stored events after the cursor, then continues live, each event once and in order', async () => {
    const first = await record(1, 0);
    for (let n = 1; n <= 5; n++) await record(1, n);
    const stream = sut.subscribe({ fabricId: 1 }, encodeCursor(first.id));
    const seen: number[] = [];
    // Two events land while the replay is still going.
    seen.push(((await stream.next()).value as FabricEvent).details.n as number);
    await record(1, 6);
    await record(2, 99);
    await record(1, 7);
    for (let i = 0; i < 6; i++) seen.push(((await stream.next()).value as FabricEvent).details.n as number);
    await stream.return!();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('stores events that arrived together in one go, in their order, with their details, and publishes each once', async () => {
    const stream = sut.subscribe({ fabricId: 1 });
    await sut.recordMany(
      [0, 1, 2].map((n) => ({ fabricId: 1, kind: FabricEventKind.LINK_DOWN, chip: `s0.r1.${n}`, port: n, details: { n, serial: 100 + n } })),
    );
    const seen: FabricEvent[] = [];
    for (let i = 0; i < 3; i++) seen.push((await stream.next()).value as FabricEvent);
    await stream.return!();
    expect(seen.map((e) => [e.chip, e.port, e.details])).toEqual([0, 1, 2].map((n) => [`s0.r1.${n}`, n, { n, serial: 100 + n }]));
    expect(seen[0].id).toBeLessThan(seen[1].id);
    expect((await sut.page({ fabricId: 1 }, 10)).totalCount).toBe(3);
  });

  it('filters by kind and chip', async () => {
    await sut.record({ fabricId: 1, kind: FabricEventKind.LANE_DECOMMISSIONED, chip: 's1.r1.0', lane: 2 });
    await record(1, 0);
    const page = await sut.page({ kinds: [FabricEventKind.LANE_DECOMMISSIONED], chips: ['s1.r1.0'] }, 10);
    expect(page.totalCount).toBe(1);
    expect(page.edges[0].node).toMatchObject({ kind: 'LANE_DECOMMISSIONED', chip: 's1.r1.0', lane: 2 });
  });

  describe('retention', () => {
    const fill = async (n: number) => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) ids.push((await sut.record({ fabricId: 1, kind: FabricEventKind.SOFT_ERROR, details: { i } })).id);
      return ids;
    };
    const kept = async () => (await store.dataSource.query(`SELECT "id" FROM "fabric_event" ORDER BY "id"`)).map((r: { id: number }) => r.id);
    const day = 24 * 3600 * 1000;

    it('keeps the newest events up to the limit, deleting the rest in batches', async () => {
      const ids = await fill(25);
      expect(await sut.prune({ maxAgeMs: day, maxEvents: 10 }, Date.now(), 4)).toBe(15);
      expect(await kept()).toEqual(ids.slice(15));
      expect(await sut.prune({ maxAgeMs: day, maxEvents: 10 })).toBe(0);
    });

    it('deletes events older than the age limit', async () => {
      const ids = await fill(5);
      await store.dataSource.query(`UPDATE "fabric_event" SET "wallTime" = datetime('now', '-3 days') WHERE "id" <= ?`, [ids[2]]);
      expect(await sut.prune({ maxAgeMs: 2 * day, maxEvents: 1_000 })).toBe(3);
      expect(await kept()).toEqual(ids.slice(3));
    });

    it('never deletes what a replaying subscriber has not been given yet', async () => {
      const ids = await fill(20);
      const stream = sut.subscribe({ fabricId: 1 }, encodeCursor(ids[1]));
      expect(((await stream.next()).value as FabricEvent).id).toBe(ids[2]);
      expect(await sut.prune({ maxAgeMs: day, maxEvents: 5 })).toBe(3); // only up to what it has seen
      for (let i = 3; i < 20; i++) expect(((await stream.next()).value as FabricEvent).id).toBe(ids[i]);
      await stream.return!();
      expect(await sut.prune({ maxAgeMs: day, maxEvents: 5 })).toBe(12);
    });

    it('tells a subscriber resuming from a pruned cursor that it missed events, instead of skipping them', async () => {
      const ids = await fill(10);
      await sut.prune({ maxAgeMs: day, maxEvents: 4 });
      const stream = sut.subscribe({}, encodeCursor(ids[2]));
      await expect(stream.next()).rejects.toThrow(
        `the events after cursor ${encodeCursor(ids[2])} were pruned by the retention policy; the oldest kept event is id ${ids[6]}`,
      );
      const fine = sut.subscribe({}, encodeCursor(ids[5]));
      expect(((await fine.next()).value as FabricEvent).id).toBe(ids[6]);
      await fine.return!();
    });
  });
});

/**
 * Events reach live subscribers in commit order (issue 54): a subscriber drops what is at or below
 * its cursor, so an event published after a later one would be lost to it, live or resuming.
 */
describe.each(['sqlite', 'postgres'] as const)('EventsService on %s: commit order', (dialect) => {
  let store: { dataSource: DataSource; close: () => Promise<void> };
  let sut: EventsService;

  beforeEach(async () => {
    store = await openTestStore(dialect);
    sut = new EventsService(store.dataSource.getRepository(FabricEvent));
    await sut.onModuleInit();
  });
  afterEach(async () => {
    sut.onModuleDestroy();
    await store.close();
  });

  /** Reads a subscription until `count` events have come (or `ms` pass): their ids. */
  const collect = async (stream: AsyncIterableIterator<FabricEvent>, count: number, ms = 5_000): Promise<number[]> => {
    const ids: number[] = [];
    const deadline = Date.now() + ms;
    while (ids.length < count && Date.now() < deadline) {
      const next = await Promise.race([stream.next(), new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()))]);
      if (next === null || next.done) break;
      ids.push(next.value.id);
    }
    await stream.return!();
    return ids;
  };
  const event = (n: number) => ({ fabricId: 1, kind: FabricEventKind.LINK_DOWN, chip: `s0.r1.${n}`, details: { n } });
  const storedIds = async () =>
    ((await store.dataSource.query(`SELECT "id" FROM "fabric_event" ORDER BY "id"`)) as { id: number | string }[]).map((r) => Number(r.id));

  it('a transaction that stored an event commits after a later event was recorded: live and resuming subscribers get both, in order', async () => {
    const before = await sut.record(event(0));
    // Both are reading before anything below is stored: what they get comes live.
    const live = collect(sut.subscribe({}), 3, 2_000);
    const resuming = collect(sut.subscribe({}, encodeCursor(before.id)), 2, 2_000);
    await new Promise((r) => setTimeout(r, 50));
    const transaction = store.dataSource.createQueryRunner();
    await transaction.connect();
    await transaction.startTransaction();
    await sut.store(event(1), transaction.manager);
    const later = sut.record(event(2)); // recorded while the first is not yet committed
    await new Promise((r) => setTimeout(r, 100));
    await transaction.commitTransaction();
    await transaction.release();
    await sut.committed();
    await later;
    const all = await storedIds();
    expect(all).toHaveLength(3);
    expect(await live).toEqual(all);
    expect(await resuming).toEqual(all.slice(1));
  });

  it('fifty events recorded at once reach fifty live subscribers, every one exactly once and in id order', async () => {
    const subscribers = Array.from({ length: 50 }, () => sut.subscribe({}));
    const reading = subscribers.map((s) => collect(s, 50));
    await Promise.all(Array.from({ length: 50 }, (_, n) => sut.record(event(n))));
    const all = await storedIds();
    for (const ids of await Promise.all(reading)) expect(ids).toEqual(all);
  });
});
