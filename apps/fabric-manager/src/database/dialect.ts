import type { DataSource, EntityManager } from 'typeorm';

/**
 * The two stores weft runs on (issue 40): SQLite, the default, a file beside the service; and
 * PostgreSQL, for installations that share one store between managers (`WEFT_DATABASE=postgres://…`).
 * The entities and what the services ask are the same; where raw SQL differs, it asks here.
 */
export type StoreDialect = 'sqlite' | 'postgres';

export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//.test(database);
}

export function dialectOf(source: DataSource | EntityManager): StoreDialect {
  const type = 'connection' in source ? source.connection.options.type : source.options.type;
  return type === 'postgres' ? 'postgres' : 'sqlite';
}

/** Where a data source's store is: its SQLite file, or its PostgreSQL URL (the options name them
 * apart: a URL-configured source has no `database`, and a deposed manager's log said "undefined"). */
export function databaseOf(source: DataSource): string {
  const options = source.options as { url?: string; database?: unknown };
  return options.url ?? String(options.database);
}

/** The placeholder of the i-th parameter (1-based) of a raw statement. */
export function placeholder(dialect: StoreDialect, i: number): string {
  return dialect === 'postgres' ? `$${i}` : '?';
}

/** A store named for messages: the file, or the PostgreSQL URL without its password. */
export function storeName(database: string): string {
  return withoutPassword(database);
}

/** A URL as it may be logged: its password (PostgreSQL's `user:pass@`, Redis's `:pass@`) left out. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^:@/]*):[^@/]*@/i, '$1$2:…@');
}
