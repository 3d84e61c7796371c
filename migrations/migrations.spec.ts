import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../apps/fabric-manager/src/database/data-source-options';
import { MIGRATIONS } from './index';

describe('migrations', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'weft-migrations-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = async (file: string, migrations = MIGRATIONS) => {
    const ds = new DataSource({ ...dataSourceOptions(join(dir, file)), migrations });
    await ds.initialize();
    return ds;
  };

  it('build from an empty file exactly the schema the entities describe', async () => {
    const ds = await open('empty.sqlite');
    await ds.runMigrations();
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    await ds.destroy();
  });

  it('upgrade a store at the previous schema and keep its rows', async () => {
    const old = await open('previous.sqlite', MIGRATIONS.slice(0, -8));
    await old.runMigrations();
    await old.query(`INSERT INTO "fabric_event" ("kind", "details") VALUES ('FABRIC_LOADED', '{}')`);
    await old.query(
      `INSERT INTO "fabric" ("name", "family", "installation", "source", "summary", "chipCount", "portCount", "linkCount") VALUES ('lab', 'blackwidow', '{}', '/srv/weft/fixtures/blackwidow/bw-r1-32.json', '{}', 0, 0, 0)`,
    );
    await old.query(
      `INSERT INTO "config_generation" ("fabricId", "number", "engine", "image", "diff", "state", "verification") VALUES (1, 1, 'blackwidow', '{}', '{}', 'pushed', ?)`,
      [JSON.stringify({ ok: true, unreachable: [{ slice: 1, processors: '96–98, 101' }] })],
    );
    await old.query(
      `INSERT INTO "chip" ("fabricId", "name", "kind", "model", "slice", "rank", "processor", "portCount") VALUES (1, 's2.r1.0', 'router', 'YARC', 2, 1, -1, 64)`,
    );
    await old.destroy();

    const ds = await open('previous.sqlite');
    const ran = await ds.runMigrations();
    expect(ran.map((m) => m.name)).toEqual(MIGRATIONS.slice(-8).map((m) => m.name));
    expect(await ds.query(`SELECT "kind", "acknowledgedBy" FROM "fabric_event"`)).toEqual([{ kind: 'FABRIC_LOADED', acknowledgedBy: null }]);
    // A generation stored before its circumstances were kept has none.
    // …and its image is whole (no parent to patch).
    expect(await ds.query(`SELECT "number", "state", "circumstances", "parentNumber" FROM "config_generation"`)).toEqual([
      { number: 1, state: 'pushed', circumstances: '', parentNumber: null },
    ]);
    // What a generation could not reach is records, not text.
    const [stored] = (await ds.query(`SELECT "verification" FROM "config_generation"`)) as { verification: string }[];
    expect(JSON.parse(stored.verification)).toEqual({ ok: true, unreachable: [{ kind: 'processors', slice: 1, processors: [96, 97, 98, 101] }] });
    // A chip's slice and rank are its BlackWidow placement now.
    expect(await ds.query(`SELECT "name", "placement" FROM "chip"`)).toEqual([{ name: 's2.r1.0', placement: '{"slice":2,"rank":1}' }]);
    // A fabric loaded from a fixture is named by the fixture, not by the server's path to it.
    expect(await ds.query(`SELECT "source" FROM "fabric"`)).toEqual([{ source: 'fixture:blackwidow/bw-r1-32' }]);
    // No fabric had routing settings: it uses its engine's defaults.
    expect(await ds.query(`SELECT count(*) AS n FROM "routing_settings"`)).toEqual([{ n: 0 }]);
    await ds.destroy();
  });

  it('can be reverted one by one down to an empty store', async () => {
    const ds = await open('revert.sqlite');
    await ds.runMigrations();
    for (let i = 0; i < MIGRATIONS.length; i++) await ds.undoLastMigration();
    const tables = await ds.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'migrations'`);
    expect(tables).toEqual([]);
    await ds.destroy();
  });
});
