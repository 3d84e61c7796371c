import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../apps/fabric-manager/src/database/data-source-options';
import { POSTGRES_MIGRATIONS } from './index';

const ADMIN = process.env.WEFT_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The PostgreSQL store's migrations (issue 40), on the loopback server. */
describe('migrations on PostgreSQL', () => {
  let name: string;
  let ds: DataSource;
  beforeEach(async () => {
    name = `weft_migrations_${randomBytes(4).toString('hex')}`;
    await admin(`CREATE DATABASE "${name}"`);
    ds = new DataSource(dataSourceOptions(ADMIN.replace(/\/[^/?]+(\?.*)?$/, `/${name}`)));
    await ds.initialize();
  });
  afterEach(async () => {
    await ds.destroy();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('build from an empty database the schema the entities describe, its floats in double precision', async () => {
    await ds.runMigrations();
    const pending = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    // The entities say REAL, SQLite's 8-byte float; on PostgreSQL that is double precision, and
    // the schema builder would narrow the three columns to 4 bytes: all it finds to change.
    const narrowing = /^ALTER TABLE "(fabric_event|link)" (DROP COLUMN|ADD) "(emulatedTimeNs|lengthMeters|rateGbps)"/;
    expect(pending.filter((q) => !narrowing.test(q))).toEqual([]);
    const [{ type }] = (await ds.query(
      `SELECT data_type AS type FROM information_schema.columns WHERE table_name = 'fabric_event' AND column_name = 'emulatedTimeNs'`,
    )) as { type: string }[];
    expect(type).toBe('double precision');
  });

  it('can be reverted down to an empty database', async () => {
    await ds.runMigrations();
    for (let i = 0; i < POSTGRES_MIGRATIONS.length; i++) await ds.undoLastMigration();
    const tables = (await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    )) as unknown[];
    expect(tables).toEqual([]);
  });
});
