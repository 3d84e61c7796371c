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

  it('filters by kind and chip', async () => {
    await sut.record({ fabricId: 1, kind: FabricEventKind.LANE_DECOMMISSIONED, chip: 's1.r1.0', lane: 2 });
    await record(1, 0);
    const page = await sut.page({ kinds: [FabricEventKind.LANE_DECOMMISSIONED], chips: ['s1.r1.0'] }, 10);
    expect(page.totalCount).toBe(1);
    expect(page.edges[0].node).toMatchObject({ kind: 'LANE_DECOMMISSIONED', chip: 's1.r1.0', lane: 2 });
  });
});
