import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source-options';

/** A real SQLite store in a temporary file, migrated, for store-backed integration specs. */
export async function openTestStore(): Promise<{ dataSource: DataSource; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-store-'));
  const dataSource = new DataSource(dataSourceOptions(join(dir, 'test.sqlite')));
  await dataSource.initialize();
  await dataSource.runMigrations();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
