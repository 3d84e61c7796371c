import Database from 'better-sqlite3';
import { Client } from 'pg';
import { isPostgresUrl } from './dialect';

/**
 * The term of the store's lease as it stands — the claim the active manager holds (see
 * store-ownership.ts) — read straight from the store, so that a fabric process given the store
 * (`weft fabric serve --store`) takes a manager's hello only with the term the lease issued (issue
 * 54: any term was taken, and one of 9e15 locked every manager out for good). Null when no manager
 * has claimed the store.
 */
export async function leaseTerm(database: string): Promise<number | null> {
  if (isPostgresUrl(database)) {
    const client = new Client({ connectionString: database, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      const { rows } = await client.query<{ term: string }>(`SELECT "term" FROM "store_owner" WHERE "id" = 1`);
      return rows.length > 0 ? Number(rows[0].term) : null;
    } finally {
      await client.end();
    }
  }
  const db = new Database(database, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const row = db.prepare(`SELECT "term" FROM "store_owner" WHERE "id" = 1`).get() as { term: number | bigint } | undefined;
    return row ? Number(row.term) : null;
  } finally {
    db.close();
  }
}

/** Why a hello's `term` is not the lease's, or null when it is. */
export async function termRefusal(database: string, term: number): Promise<string | null> {
  const current = await leaseTerm(database);
  if (current === null) return `no manager holds the store's lease, so term ${term} was not issued`;
  return current === term ? null : `term ${term} is not the store's lease (its term is ${current})`;
}
