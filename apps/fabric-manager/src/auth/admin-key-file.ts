import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The first admin key, kept beside the store in a file only its owner may read (as Jenkins keeps
 * its initial admin password): never in the service's output, which log collectors keep. The
 * command line reads it when given no key, so that the tour works as written.
 */
export function adminKeyFile(databasePath: string): string {
  // A PostgreSQL store has no folder of its own here: ./data/admin-key.<database>.
  const postgres = /^postgres(ql)?:\/\/[^/]*\/([^?]+)/.exec(databasePath);
  if (postgres) return join('data', `admin-key.${postgres[2]}`);
  return join(dirname(databasePath), 'admin-key');
}

export function writeAdminKeyFile(databasePath: string, key: string): string {
  const file = adminKeyFile(databasePath);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return file;
}

/** The key saved at first start, or undefined where there is none (or it cannot be read). */
export function readAdminKeyFile(databasePath: string): string | undefined {
  try {
    return readFileSync(adminKeyFile(databasePath), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
