import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../../migrations';
import { POSTGRES_MIGRATIONS } from '../../../../migrations/postgres';
import { isPostgresUrl } from './dialect';
import { ENTITIES } from './entities';

/**
 * The store: SQLite through better-sqlite3 by default (TypeORM 1 dropped the `sqlite3` driver, and
 * better-sqlite3's synchronous API is markedly faster), in WAL mode so readers never wait for the
 * writer; or PostgreSQL where WEFT_DATABASE is a postgres:// URL. Schema changes come only from the
 * migrations (one list a store), which run on start; `synchronize` is off.
 */
export function dataSourceOptions(databasePath: string, maxMegabytes = 0): DataSourceOptions {
  // PostgreSQL, for a store shared between managers: the same entities, its own migrations.
  if (isPostgresUrl(databasePath))
    return {
      type: 'postgres',
      url: databasePath,
      entities: ENTITIES,
      migrations: POSTGRES_MIGRATIONS,
      migrationsRun: false,
      migrationsTransactionMode: 'each',
      synchronize: false,
      // A connection pool: the API, the control plane and the event stream ask at once.
      extra: { max: 10 },
    };
  if (databasePath !== ':memory:') mkdirSync(dirname(databasePath), { recursive: true });
  return {
    type: 'better-sqlite3',
    database: databasePath,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    synchronize: false,
    enableWAL: true,
    prepareDatabase: (db: { pragma(source: string, options?: { simple: boolean }): unknown }) => {
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
      if (maxMegabytes > 0) {
        const pageSize = db.pragma('page_size', { simple: true }) as number;
        db.pragma(`max_page_count = ${Math.max(1, Math.floor((maxMegabytes * 1024 * 1024) / pageSize))}`);
      }
    },
  };
}
