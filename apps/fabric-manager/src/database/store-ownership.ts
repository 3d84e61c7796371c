import { randomUUID } from 'node:crypto';
import { statfsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { Database } from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { StartupError } from '../config/weft-config';
import { dialectOf, storeName } from './dialect';

/** The lease an owner holds the store on: renewed every third of `leaseMs`; `standby`: a start
 * that finds the store held waits as the owner's standby instead of refusing. */
export interface LeaseSettings {
  leaseMs: number;
  standby: boolean;
}

export const DEFAULT_LEASE: LeaseSettings = { leaseMs: 3_000, standby: false };

/** A released store's heartbeat: long lapsed, so that the next start takes it at once. */
const RELEASED_AT = new Date(0).toISOString();

/** A store with less free disk than this is reported as full before SQLite runs into it. */
const LOW_DISK_BYTES = 1 << 20;

export interface StoreClaim {
  ownerId: string;
  databasePath: string;
  /** When it was claimed (ms since the epoch), and above every term before it: the fencing token
   * a fabric process checks (a manager with an older term is refused). */
  term: number;
}

/** The owner's row as a start or a standby finds it. */
export interface OwnerRow {
  ownerId: string;
  pid: number;
  host: string;
  startedAt: string;
  heartbeatAt: string;
  /** How long ago it last renewed, by the store's clock (PostgreSQL) or this machine's (SQLite). */
  silentMs: number;
  term: number;
  url: string | null;
}

/** How a store was opened: claimed, or (a standby) held by another owner; and on what lease. */
export interface Opened {
  claim?: StoreClaim;
  heldBy?: OwnerRow;
  lease: LeaseSettings;
}

const opened = new WeakMap<DataSource, Opened>();

/** How a data source was opened (see openOwnedStore). */
export function openedAs(dataSource: DataSource): Opened | undefined {
  return opened.get(dataSource);
}

/** The claim a data source was opened under (see openOwnedStore). */
export function claimOf(dataSource: DataSource): StoreClaim | undefined {
  return opened.get(dataSource)?.claim;
}

/** The raw SQLite handle under TypeORM's better-sqlite3 driver. */
export function sqliteOf(dataSource: DataSource): Database {
  return (dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection;
}

/**
 * Opens the store (migrations included) and claims it for this process: one active manager per
 * store, as two would each run their own automation and event stream over the same rows and write
 * the same fabric's registers. A store whose owner has stopped — it released its claim, its
 * process is gone from this host, or it has not renewed its lease for `leaseMs` — is taken over.
 * One whose owner still runs is refused, naming that owner — or, with `standby`, opened without a
 * claim: this manager is the owner's standby (StoreOwnerService takes over when the lease lapses).
 * A disk too full to open the store is said as such.
 */
export async function openOwnedStore(dataSource: DataSource, databasePath: string, lease: LeaseSettings = DEFAULT_LEASE): Promise<DataSource> {
  try {
    await dataSource.initialize();
  } catch (error) {
    throw storeError(error, databasePath, 'open') ?? error;
  }
  let outcome: StoreClaim | OwnerRow;
  try {
    outcome = await claimStore(dataSource, databasePath, lease, 'at start');
  } catch (error) {
    await dataSource.destroy();
    throw storeError(error, databasePath, 'claim') ?? error;
  }
  if ('databasePath' in outcome) {
    opened.set(dataSource, { claim: outcome, lease });
    return dataSource;
  }
  if (lease.standby) {
    opened.set(dataSource, { heldBy: outcome, lease });
    return dataSource;
  }
  await dataSource.destroy();
  throw new StartupError(
    `the store ${storeName(databasePath)} is in use by another weft service (process ${outcome.pid} on ${outcome.host}, started ${outcome.startedAt}, ` +
      `last seen ${outcome.heartbeatAt}); stop that service first, or give this one its own store with WEFT_DATABASE, or start it as the standby with WEFT_STANDBY=on`,
  );
}

/**
 * Claims the store if its owner has gone; else the owner found. At start, an owner whose process is
 * gone from this host has gone; a standby goes by the lease alone (the owner may run on another
 * machine, where its process cannot be seen, and one that runs but stopped renewing must be
 * replaced: the fabric process fences it off by its older term).
 */
export async function claimStore(
  dataSource: DataSource,
  databasePath: string,
  lease: LeaseSettings,
  when: 'at start' | 'as standby',
): Promise<StoreClaim | OwnerRow> {
  const ownerId = randomUUID();
  const gone = (owner: OwnerRow) => owner.silentMs > lease.leaseMs || (when === 'at start' && processGone(owner));
  const take = (current: OwnerRow | undefined): StoreClaim => ({ ownerId, databasePath, term: Math.max(Date.now(), (current?.term ?? 0) + 1) });
  if (dialectOf(dataSource) === 'postgres') {
    return dataSource.transaction(async (m) => {
      // Locked, so that two managers starting (or taking over) at once cannot both claim it.
      await m.query(`LOCK TABLE "store_owner" IN SHARE ROW EXCLUSIVE MODE`);
      const [current] = ((await m.query(`${SELECT_OWNER_POSTGRES} FOR UPDATE`)) as RawOwner[]).map(ownerRow);
      if (current && !gone(current)) return current;
      const claim = take(current);
      await m.query(UPSERT_OWNER_POSTGRES, [claim.ownerId, process.pid, hostname(), claim.term]);
      return claim;
    });
  }
  const db = sqliteOf(dataSource);
  return db
    .transaction((): StoreClaim | OwnerRow => {
      const raw = db.prepare(`SELECT "ownerId", "pid", "host", "startedAt", "heartbeatAt", "term", "url" FROM "store_owner" WHERE "id" = 1`).get() as
        RawOwner | undefined;
      const current = raw && ownerRow({ ...raw, silentMs: Date.now() - Date.parse(String(raw.heartbeatAt)) });
      if (current && !gone(current)) return current;
      const claim = take(current);
      const now = new Date().toISOString();
      db.prepare(
        `INSERT INTO "store_owner" ("id", "ownerId", "pid", "host", "startedAt", "heartbeatAt", "term", "url") VALUES (1, ?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT ("id") DO UPDATE SET "ownerId" = excluded."ownerId", "pid" = excluded."pid", "host" = excluded."host", "startedAt" = excluded."startedAt", "heartbeatAt" = excluded."heartbeatAt", "term" = excluded."term", "url" = NULL`,
      ).run(claim.ownerId, process.pid, hostname(), now, now, claim.term);
      return claim;
    })
    .immediate();
}

type RawOwner = Omit<OwnerRow, 'term' | 'silentMs'> & { term: string | number; silentMs: string | number };

function ownerRow(raw: RawOwner): OwnerRow {
  return { ...raw, pid: Number(raw.pid), term: Number(raw.term), silentMs: Number(raw.silentMs) };
}

/** PostgreSQL's times are the database's own clock (UTC), so that managers on machines whose clocks
 * differ agree on when a lease lapsed. */
const PG_NOW = `(now() AT TIME ZONE 'UTC')`;
const PG_ISO = (column: string) => `to_char("${column}", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${column}"`;
const SELECT_OWNER_POSTGRES = `SELECT "ownerId", "pid", "host", ${PG_ISO('startedAt')}, ${PG_ISO('heartbeatAt')}, "term", "url",
  (EXTRACT(EPOCH FROM (${PG_NOW} - "heartbeatAt")) * 1000) AS "silentMs" FROM "store_owner" WHERE "id" = 1`;
const UPSERT_OWNER_POSTGRES = `INSERT INTO "store_owner" ("id", "ownerId", "pid", "host", "startedAt", "heartbeatAt", "term", "url") VALUES (1, $1, $2, $3, ${PG_NOW}, ${PG_NOW}, $4, NULL)
   ON CONFLICT ("id") DO UPDATE SET "ownerId" = excluded."ownerId", "pid" = excluded."pid", "host" = excluded."host", "startedAt" = excluded."startedAt", "heartbeatAt" = excluded."heartbeatAt", "term" = excluded."term", "url" = NULL`;

/** The owner as it is now (a standby names it; null when none has claimed the store). */
export async function currentOwner(dataSource: DataSource): Promise<OwnerRow | null> {
  if (dialectOf(dataSource) === 'postgres') {
    const [raw] = (await dataSource.query(SELECT_OWNER_POSTGRES)) as RawOwner[];
    return raw ? ownerRow(raw) : null;
  }
  const raw = sqliteOf(dataSource)
    .prepare(`SELECT "ownerId", "pid", "host", "startedAt", "heartbeatAt", "term", "url" FROM "store_owner" WHERE "id" = 1`)
    .get() as RawOwner | undefined;
  return raw ? ownerRow({ ...raw, silentMs: Date.now() - Date.parse(String(raw.heartbeatAt)) }) : null;
}

/** Whether the owner's process is known to be gone: it ran on this host and is no longer there. */
function processGone(owner: OwnerRow): boolean {
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return false; // another service in this very process
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** Renews the claim; false when another manager has taken the store over since. */
export async function renewClaim(dataSource: DataSource, claim: StoreClaim): Promise<boolean> {
  if (dialectOf(dataSource) === 'postgres') {
    const [, changed] = (await dataSource.query(`UPDATE "store_owner" SET "heartbeatAt" = ${PG_NOW} WHERE "id" = 1 AND "ownerId" = $1`, [claim.ownerId])) as [
      unknown,
      number,
    ];
    return changed === 1;
  }
  const now = new Date().toISOString();
  return sqliteOf(dataSource).prepare(`UPDATE "store_owner" SET "heartbeatAt" = ? WHERE "id" = 1 AND "ownerId" = ?`).run(now, claim.ownerId).changes === 1;
}

/** Records where the owner's API answers, for a standby to name. */
export async function announceOwner(dataSource: DataSource, claim: StoreClaim, url: string): Promise<void> {
  if (dialectOf(dataSource) === 'postgres')
    await dataSource.query(`UPDATE "store_owner" SET "url" = $1 WHERE "id" = 1 AND "ownerId" = $2`, [url, claim.ownerId]);
  else sqliteOf(dataSource).prepare(`UPDATE "store_owner" SET "url" = ? WHERE "id" = 1 AND "ownerId" = ?`).run(url, claim.ownerId);
}

/** Gives the store up on a clean stop, so that the next manager (a standby) takes it at once: the
 * lease is marked long lapsed, its term kept for the next claim to rise above. */
export async function releaseClaim(dataSource: DataSource, claim: StoreClaim): Promise<void> {
  if (dialectOf(dataSource) === 'postgres') {
    await dataSource.query(`UPDATE "store_owner" SET "heartbeatAt" = $1 WHERE "id" = 1 AND "ownerId" = $2`, [RELEASED_AT, claim.ownerId]);
  } else sqliteOf(dataSource).prepare(`UPDATE "store_owner" SET "heartbeatAt" = ? WHERE "id" = 1 AND "ownerId" = ?`).run(RELEASED_AT, claim.ownerId);
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
