import { ChipNamesService } from '../chip-names/chip-names.service';
import { DataSource, EntityManager } from 'typeorm';
import { EmulatorService } from '../emulator/emulator.service';
import { EventsService } from '../events/events.service';
import { FabricEvent } from '../events/fabric-event.entity';
import { openTestStore } from '../testing/test-store';
import { Chip } from './chip.entity';
import { Fabric } from './fabric.entity';
import { FabricsErrorCode } from './fabrics.exception';
import { FabricsService } from './fabrics.service';
import { Link } from './link.entity';
import { Port } from './port.entity';

describe('FabricsService (store-backed)', () => {
  let store: { dataSource: DataSource; close: () => Promise<void> };
  let emulator: EmulatorService;
  let sut: FabricsService;

  beforeEach(async () => {
    store = await openTestStore();
    const ds = store.dataSource;
    const events = new EventsService(ds.getRepository(FabricEvent));
    const chipNames = new ChipNamesService();
    emulator = new EmulatorService(ds.getRepository(Fabric));
    sut = new FabricsService(ds, ds.getRepository(Fabric), ds.getRepository(Chip), ds.getRepository(Port), ds.getRepository(Link), emulator, events, chipNames);
  });
  afterEach(() => store.close());

  const counts = async () => ({
    fabric: await store.dataSource.getRepository(Fabric).count(),
    chip: await store.dataSource.getRepository(Chip).count(),
    port: await store.dataSource.getRepository(Port).count(),
    link: await store.dataSource.getRepository(Link).count(),
    event: await store.dataSource.getRepository(FabricEvent).count(),
  });

  it('stores the expected design of the 288-processor R1.5 fixture in one go', async () => {
    const fabric = await sut.load(sut.readInstallation({ fixture: 'blackwidow/bw-r1.5-288' }));
    expect(await counts()).toEqual({ fabric: 1, chip: 288 + 36, port: 288 * 4 + 36 * 64, link: 1728, event: 1 });
    expect(emulator.status()).toEqual({ fabrics: 1, chips: 324, ports: 3456 });
    expect(fabric.summary).toMatchObject({ network: 'R1.5', processors: 288 });
  });

  it('records the expected design, not the physical cabling, for a fixture with a missing cable', async () => {
    await sut.load(sut.readInstallation({ fixture: 'blackwidow/bw-r1.5-288-missing-cable' }));
    expect((await counts()).link).toBe(1728);
  });

  it('leaves the store and the emulator as they were when the write fails midway', async () => {
    const original = EntityManager.prototype.query;
    const spy = jest.spyOn(EntityManager.prototype, 'query').mockImplementation(function (
      this: EntityManager,
      sql: string,
      params?: Parameters<EntityManager['query']>[1],
    ) {
      if (sql.startsWith('INSERT INTO "link"')) return Promise.reject(new Error('disk full'));
      return original.call(this, sql, params);
    });
    try {
      await expect(sut.load(sut.readInstallation({ fixture: 'blackwidow/bw-r1-32' }))).rejects.toThrow('disk full');
    } finally {
      spy.mockRestore();
    }
    expect(await counts()).toEqual({ fabric: 0, chip: 0, port: 0, link: 0, event: 0 });
    expect(emulator.status().fabrics).toBe(0);
  });

  it('refuses a second fabric of the same name before writing anything', async () => {
    await sut.load(sut.readInstallation({ fixture: 'blackwidow/bw-r1-32' }));
    const before = await counts();
    await expect(sut.load(sut.readInstallation({ fixture: 'blackwidow/bw-r1-32' }))).rejects.toMatchObject({ code: FabricsErrorCode.FabricNameTaken });
    expect(await counts()).toEqual(before);
  });
});
