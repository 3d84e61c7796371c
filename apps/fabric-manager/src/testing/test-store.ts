import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options';
import type { StoreDialect } from '../database/dialect';

/** The PostgreSQL server the store-backed specs make their databases on (the loopback one by default). */
const POSTGRES_ADMIN_URL = process.env.WEFT_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

async function onPostgres(sql: string): Promise<void> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A real store, migrated, for store-backed integration specs: SQLite in a temporary file, or a
 * fresh PostgreSQL database of its own (dropped at close).
 */
export async function openTestStore(dialect: StoreDialect = 'sqlite'): Promise<{ dataSource: DataSource; close: () => Promise<void> }> {
  let database: string;
  let removeStore: () => Promise<void>;
  if (dialect === 'postgres') {
    const name = `weft_store_${process.pid}_${randomBytes(4).toString('hex')}`;
    await onPostgres(`CREATE DATABASE "${name}"`);
    database = POSTGRES_ADMIN_URL.replace(/\/[^/?]+(\?.*)?$/, `/${name}`);
    removeStore = () => onPostgres(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'weft-store-'));
    database = join(dir, 'test.sqlite');
    removeStore = async () => rmSync(dir, { recursive: true, force: true });
  }
  const dataSource = new DataSource(dataSourceOptions(database));
  await dataSource.initialize();
  await dataSource.runMigrations();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await removeStore();
    },
  };
}
