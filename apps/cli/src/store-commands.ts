// The commands that work on the store file directly (keys, migrations). They need the service's
// modules and TypeORM, which take half a second to load: main.ts loads this file only for them.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Role } from '../../fabric-manager/src/public-api';
import { ApiKeysService, AuditService, dataSourceOptions, loadWeftConfig } from '../../fabric-manager/src/store-api';
import { CliStoreModule } from './cli-store.module';

function storeConfig(database: string | undefined) {
  return loadWeftConfig(process.env, { ...(database ? { WEFT_DATABASE: database } : {}), WEFT_LOG_LEVEL: 'silent' });
}

async function withStore<T>(
  database: string | undefined,
  action: (app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>) => Promise<T>,
): Promise<T> {
  const app = await NestFactory.createApplicationContext(CliStoreModule.forRoot(storeConfig(database)), { logger: false, abortOnError: false });
  try {
    return await action(app);
  } finally {
    await app.close();
  }
}

/** Applies pending migrations; the names of those applied. */
export async function migrateStore(database: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(storeConfig(database).WEFT_DATABASE));
  await ds.initialize();
  try {
    return (await ds.runMigrations()).map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

export function createKey(database: string, name: string, role: Role) {
  return withStore(database, async (app) => {
    const key = await app.get(ApiKeysService).create(name, role);
    await app.get(AuditService).record(null, 'keys create', { name, role }, 'ok', 'cli');
    return key;
  });
}

export function listKeys(database: string) {
  return withStore(database, (app) => app.get(ApiKeysService).list());
}

export function revokeKey(database: string, id: number): Promise<void> {
  return withStore(database, async (app) => {
    await app.get(ApiKeysService).revoke(id);
    await app.get(AuditService).record(null, 'keys revoke', { id }, 'ok', 'cli');
  });
}
