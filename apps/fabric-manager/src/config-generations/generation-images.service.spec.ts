import { DataSource, Repository } from 'typeorm';
import type { FabricsService } from '../fabrics/fabrics.service';
import { Fabric } from '../fabrics/fabric.entity';
import { openTestStore } from '../testing/test-store';
import { ConfigGeneration } from './config-generation.entity';
import { DELTAS_BEFORE_WHOLE, GenerationImages } from './generation-images.service';

interface Image {
  family: string;
  routers: { name: string; table: number[] }[];
  problems: string[];
}

/** A fabric of 100 routers; generation n changes the table of router n % 100 (as a fault's entries would). */
function images(count: number): Image[] {
  const out: Image[] = [];
  let image: Image = { family: 'test', routers: Array.from({ length: 100 }, (_, i) => ({ name: `r${i}`, table: [i, 0, 0] })), problems: [] };
  for (let n = 1; n <= count; n++) {
    const k = n % 100;
    image = { ...image, routers: image.routers.map((r, i) => (i === k ? { ...r, table: [r.table[0], n, n * 2] } : r)), problems: [`step ${n}`] };
    out.push(image);
  }
  return out;
}

describe('GenerationImages (store-backed)', () => {
  let store: { dataSource: DataSource; close: () => Promise<void> };
  let rows: Repository<ConfigGeneration>;
  let fabricId: number;
  const noDeletes = { onDelete: () => () => undefined } as unknown as FabricsService;

  beforeEach(async () => {
    store = await openTestStore();
    rows = store.dataSource.getRepository(ConfigGeneration);
    const fabric = await store.dataSource
      .getRepository(Fabric)
      .save({ name: 'lab', family: 'test', installation: '{}', source: 'test', summary: {}, chipCount: 0, portCount: 0, linkCount: 0 });
    fabricId = fabric.id;
  });
  afterEach(() => store.close());

  const save = async (sut: GenerationImages, number: number, image: Image) => {
    const stored = sut.encode(fabricId, number, image);
    const row = await rows.save(rows.create({ fabricId, number, engine: 'test', ...stored, diff: '{}', state: 'pushed', pushedAt: null }));
    sut.stored(row, image);
    sut.markPushed(fabricId, number, image);
    await sut.compact(fabricId);
  };

  it('stores each generation after the first as a delta on the one before, and a restarted service reads every one back as it was', async () => {
    const sut = new GenerationImages(rows, noDeletes);
    const all = images(10);
    for (let n = 1; n <= all.length; n++) await save(sut, n, all[n - 1]);
    const stored = await rows.find({ where: { fabricId }, order: { number: 'ASC' }, select: { number: true, parentNumber: true, image: true } });
    expect(stored.map((r) => r.parentNumber)).toEqual([null, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // A delta holds the one router that changed, not the hundred.
    expect(stored[4].image.length * 10).toBeLessThan(stored[0].image.length);
    const restarted = new GenerationImages(rows, noDeletes);
    for (let n = 1; n <= all.length; n++) expect(await restarted.read(fabricId, n)).toEqual(all[n - 1]);
  });

  it('rewrites a generation whole once its chain of deltas is long, so reading one never applies more than that many', async () => {
    const sut = new GenerationImages(rows, noDeletes);
    const all = images(DELTAS_BEFORE_WHOLE + 5);
    for (let n = 1; n <= all.length; n++) await save(sut, n, all[n - 1]);
    const whole = (await rows.find({ where: { fabricId }, select: { number: true, parentNumber: true } }))
      .filter((r) => r.parentNumber === null)
      .map((r) => r.number);
    expect(whole).toEqual([1, DELTAS_BEFORE_WHOLE + 1]);
    const restarted = new GenerationImages(rows, noDeletes);
    expect(await restarted.read(fabricId, all.length)).toEqual(all[all.length - 1]);
    expect(await restarted.read(fabricId, DELTAS_BEFORE_WHOLE)).toEqual(all[DELTAS_BEFORE_WHOLE - 1]);
  });

  it('stores an image whole where most of its chips changed', async () => {
    const sut = new GenerationImages(rows, noDeletes);
    const first = images(1)[0];
    await save(sut, 1, first);
    const renumbered = { ...first, routers: first.routers.map((r) => ({ ...r, table: [r.table[0] + 1, 0, 0] })) };
    expect(sut.encode(fabricId, 2, renumbered).parentNumber).toBeNull();
  });

  it('stores a delta where every chip changed one small register of many (a route policy around a dead channel), and says which chips changed', async () => {
    const sut = new GenerationImages(rows, noDeletes);
    const wide = {
      family: 'test',
      problems: [],
      routers: Array.from({ length: 100 }, (_, i) => ({ name: `r${i}`, table: Array.from({ length: 64 }, (_, w) => i + w) })),
    };
    await save(sut, 1, wide);
    const policy = { ...wide, routers: wide.routers.map((r) => ({ ...r, table: [...r.table.slice(0, 63), -1] })) };
    const encoded = sut.encode(fabricId, 2, policy);
    expect(encoded.parentNumber).toBe(1);
    expect(encoded.delta!.patched).toHaveLength(100);
    await save(sut, 2, policy);
    expect(await new GenerationImages(rows, noDeletes).read(fabricId, 2)).toEqual(policy);
  });
});
