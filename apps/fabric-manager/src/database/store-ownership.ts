import { randomUUID } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Database } from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { StartupError } from '../config/weft-config';
import { dialectOf, storeName } from './dialect';

/** How often the owner renews its claim, and how long a silent owner is still believed to run. */
export const HEARTBEAT_MS = 5_000;
export const OWNER_SILENT_AFTER_MS = 4 * HEARTBEAT_MS;

/** A store with less free disk than this is reported as full before SQLite runs into it. */
const LOW_DISK_BYTES = 1 << 20;

export interface StoreClaim {
  ownerId: string;
  databasePath: string;
  /** When it was claimed (ms since the epoch): a later claim is a newer term, the fencing token a fabric process checks. */
  term: number;
}

interface OwnerRow {
  ownerId: string;
  pid: number;
  host: string;
  startedAt: string;
  heartbeatAt: string;
}

const claims = new WeakMap<DataSource, StoreClaim>();

/** The claim a data source was opened under (see openOwnedStore). */
export function claimOf(dataSource: DataSource): StoreClaim | undefined {
  return claims.get(dataSource);
}

/** The raw SQLite handle under TypeORM's better-sqlite3 driver. */
export function sqliteOf(dataSource: DataSource): Database {
  return (dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection;
}

/**
 * Opens the store (migrations included) and claims it for this process: one service per store,
 * as two would each run their own emulators, automation and event stream over the same rows.
 * A store whose owner has stopped — it released its claim, its process is gone from this host, or
 * it has not renewed the claim for OWNER_SILENT_AFTER_MS — is taken over; one whose owner still
 * runs is refused, naming that owner. A disk too full to open the store is said as such.
 */
export async function openOwnedStore(dataSource: DataSource, databasePath: string): Promise<DataSource> {
  try {
    await dataSource.initialize();
  } catch (error) {
    throw storeError(error, databasePath, 'open') ?? error;
  }
  const ownerId = randomUUID();
  const term = Date.now();
  let owner: OwnerRow | null;
  try {
    owner = dialectOf(dataSource) === 'postgres' ? await claimPostgres(dataSource, ownerId, term) : claimSqlite(dataSource, ownerId, term);
  } catch (error) {
    await dataSource.destroy();
    throw storeError(error, databasePath, 'claim') ?? error;
  }
  if (owner) {
    await dataSource.destroy();
    throw new StartupError(
      `the store ${storeName(databasePath)} is in use by another weft service (process ${owner.pid} on ${owner.host}, started ${owner.startedAt}, ` +
        `last seen ${owner.heartbeatAt}); stop that service first, or give this one its own store with WEFT_DATABASE`,
    );
  }
  claims.set(dataSource, { ownerId, databasePath, term });
  return dataSource;
}

const UPSERT_OWNER = (p: (i: number) => string) =>
  `INSERT INTO "store_owner" ("id", "ownerId", "pid", "host", "startedAt", "heartbeatAt") VALUES (1, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})
   ON CONFLICT ("id") DO UPDATE SET "ownerId" = excluded."ownerId", "pid" = excluded."pid", "host" = excluded."host", "startedAt" = excluded."startedAt", "heartbeatAt" = excluded."heartbeatAt"`;

/** The claim on SQLite: read and taken in one immediate transaction. The owner still running, if one is. */
function claimSqlite(dataSource: DataSource, ownerId: string, term: number): OwnerRow | null {
  const db = sqliteOf(dataSource);
  return db
    .transaction((): OwnerRow | null => {
      const current = db.prepare(`SELECT "ownerId", "pid", "host", "startedAt", "heartbeatAt" FROM "store_owner" WHERE "id" = 1`).get() as OwnerRow | undefined;
      if (current && ownerStillRuns(current)) return current;
      const now = new Date(term).toISOString();
      db.prepare(UPSERT_OWNER(() => '?')).run(ownerId, process.pid, hostname(), now, now);
      return null;
    })
    .immediate();
}

/**
 * The claim on PostgreSQL: the owner row read under a row lock (or, the first time, the table
 * locked so that two services starting at once cannot both insert it), then taken.
 */
async function claimPostgres(dataSource: DataSource, ownerId: string, term: number): Promise<OwnerRow | null> {
  return dataSource.transaction(async (m) => {
    await m.query(`LOCK TABLE "store_owner" IN SHARE ROW EXCLUSIVE MODE`);
    const [current] = (await m.query(
      `SELECT "ownerId", "pid", "host", to_char("startedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt", to_char("heartbeatAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "heartbeatAt" FROM "store_owner" WHERE "id" = 1`,
    )) as OwnerRow[];
    if (current && ownerStillRuns(current)) return current;
    const now = new Date(term).toISOString();
    await m.query(
      UPSERT_OWNER((i) => `$${i}`),
      [ownerId, process.pid, hostname(), now, now],
    );
    return null;
  });
}

function ownerStillRuns(owner: OwnerRow): boolean {
  if (Date.now() - Date.parse(owner.heartbeatAt) > OWNER_SILENT_AFTER_MS) return false;
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true; // another service in this very process
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Renews the claim; false when another service has taken the store over since. */
export async function renewClaim(dataSource: DataSource, claim: StoreClaim): Promise<boolean> {
  const now = new Date().toISOString();
  if (dialectOf(dataSource) === 'postgres') {
    const [, changed] = (await dataSource.query(`UPDATE "store_owner" SET "heartbeatAt" = $1 WHERE "id" = 1 AND "ownerId" = $2`, [now, claim.ownerId])) as [
      unknown,
      number,
    ];
    return changed === 1;
  }
  return sqliteOf(dataSource).prepare(`UPDATE "store_owner" SET "heartbeatAt" = ? WHERE "id" = 1 AND "ownerId" = ?`).run(now, claim.ownerId).changes === 1;
}

/** Gives the store up on a clean stop, so that the next service takes it at once. */
export async function releaseClaim(dataSource: DataSource, claim: StoreClaim): Promise<void> {
  if (dialectOf(dataSource) === 'postgres') await dataSource.query(`DELETE FROM "store_owner" WHERE "id" = 1 AND "ownerId" = $1`, [claim.ownerId]);
  else sqliteOf(dataSource).prepare(`DELETE FROM "store_owner" WHERE "id" = 1 AND "ownerId" = ?`).run(claim.ownerId);
}

/** Whether the store reports itself (or its disk) as full: SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100). */
export function isStoreFull(error: unknown): boolean {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.driverError?.code ?? (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === '53100';
}

/** Free bytes on the disk holding the store, or null where that cannot be asked. */
export function freeDiskBytes(databasePath: string): number | null {
  try {
    const stats = statfsSync(dirname(resolve(databasePath)));
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** Whether the disk holding the store is (nearly) out of space. */
export function diskNearlyFull(databasePath: string): boolean {
  const free = freeDiskBytes(databasePath);
  return free !== null && free < LOW_DISK_BYTES;
}

/** A startup failure said in an operator's terms: a full store or disk, instead of SQLite's code. */
function storeError(error: unknown, databasePath: string, doing: 'open' | 'claim'): StartupError | null {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (!isStoreFull(error) && !(code.startsWith('SQLITE_IOERR') && diskNearlyFull(databasePath))) return null;
  const free = freeDiskBytes(databasePath);
  return new StartupError(
    `cannot ${doing} the store ${databasePath}: it is full (${free === null ? 'free space unknown' : `${free} bytes free on its disk`}); ` +
      `free some space (or raise WEFT_STORE_MAX_MB) and start again`,
  );
}
