/**
 * weft's own processes, started as an operator starts them — `weft fabric serve` and the service
 * (`npm start`'s main) — for the tests and benchmarks of the production layout (issue 40): from the
 * TypeScript sources under Jest, from the build under the benchmarks.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManagerSession } from '@weft/emulator';
import { Client as PgClient } from 'pg';

const fromSources = __filename.endsWith('.ts');
const root = join(__dirname, fromSources ? '../../..' : '../../../..');
const built = join(root, 'dist');

/** How Node runs one of weft's entry points (a path under the repository, without extension). */
function nodeArgs(entry: string): string[] {
  return fromSources ? ['-r', join(root, 'scripts/ts-register.js'), join(root, `${entry}.ts`)] : [join(built, `${entry}.js`)];
}

export interface WeftProcess {
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in its output (or rejects when it exits first, or after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  /** Resolves with its exit code (or signal) once it has exited. */
  readonly exited: Promise<number | string>;
}

function start(entry: string, args: string[], env: Record<string, string>, cwd: string): WeftProcess {
  const child = spawn(process.execPath, [...nodeArgs(entry), ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const listeners = new Set<() => void>();
  const take = (chunk: Buffer) => {
    out += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  let gone = false;
  void exited.then(() => {
    gone = true;
    for (const listener of listeners) listener();
  });
  return {
    child,
    output: () => out,
    exited,
    waitFor: (pattern, ms = 60_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`no ${pattern} in ${ms} ms; it said:\n${out.slice(-3000)}`)), ms);
        const check = () => {
          const match = pattern.exec(out);
          if (match) done(null, match);
          else if (gone) done(new Error(`it exited before saying ${pattern}; it said:\n${out.slice(-3000)}`));
        };
        const done = (error: Error | null, match?: RegExpExecArray) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve(match!);
        };
        listeners.add(check);
        check();
      }),
  };
}

/** `weft fabric serve` on a Unix socket in `dir`, journalling its managers' sessions; with `store`,
 * it takes a manager's term only as that store's lease issued it. Its key is `dir`/data/fabric-key,
 * where managers working in `dir` look for it. */
export async function startFabricProcess(dir: string, options: { store?: string } = {}): Promise<{ process: WeftProcess; address: string; journal: string }> {
  const address = `unix:${join(dir, 'fabric.sock')}`;
  const journal = join(dir, 'fabric-journal.jsonl');
  const store = options.store ? ['--store', options.store] : [];
  const fabric = start('apps/cli/src/main', ['fabric', 'serve', '--listen', address, '--journal', journal, ...store], {}, dir);
  await fabric.waitFor(/weft fabric is serving/);
  return { process: fabric, address, journal };
}

export interface ManagerProcess {
  readonly process: WeftProcess;
  readonly url: string;
}

/** The service, as `npm start` runs it, with `env` (its store, fabric, lease), working in `dir`. */
export async function startManager(dir: string, env: Record<string, string>): Promise<ManagerProcess> {
  const manager = start(
    'apps/fabric-manager/src/main',
    [],
    { WEFT_PORT: '0', WEFT_LOG_LEVEL: 'warn', WEFT_PRINT_BOOTSTRAP_KEY: 'false', WEFT_DEFAULT_FIXTURE: 'none', ...env },
    dir,
  );
  const [, url] = await manager.waitFor(/is up: (http:\/\/\S+)\/graphql/);
  return { process: manager, url };
}

/** The sessions a fabric process journalled (see libs/emulator/src/host/fabric-server.ts). */
export function journalled(journal: string): ManagerSession[] {
  return readFileSync(journal, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as ManagerSession);
}

/** The loopback PostgreSQL as its superuser (WEFT_TEST_POSTGRES), where the tests make their databases. */
const POSTGRES_ADMIN_URL = process.env.WEFT_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs one statement on the loopback PostgreSQL as its superuser. */
export async function onPostgres(sql: string): Promise<void> {
  const client = new PgClient({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the loopback PostgreSQL. */
export const postgresDatabaseUrl = (name: string) => POSTGRES_ADMIN_URL.replace(/\/[^/?]+(\?.*)?$/, `/${name}`);

/** A fresh database on the loopback PostgreSQL: its URL, and how to drop it. */
export async function freshPostgres(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onPostgres(`CREATE DATABASE "${name}"`);
  return { url: postgresDatabaseUrl(name), drop: () => onPostgres(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** A GraphQL request over HTTP with `key`. */
export async function query<T>(
  url: string,
  key: string,
  text: string,
  variables: Record<string, unknown> = {},
): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: text, variables }),
  });
  return (await response.json()) as { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

/** `weft worker` on the queue and store given, working in `dir`; resolves once it takes points. */
export async function startWorker(dir: string, options: { redis: string; prefix: string; database: string; lockMs?: number }): Promise<WeftProcess> {
  const worker = start(
    'apps/cli/src/main',
    ['worker', '--redis', options.redis, '--prefix', options.prefix, '--database', options.database, '--lock-ms', String(options.lockMs ?? 10_000)],
    {},
    dir,
  );
  await worker.waitFor(/is taking study points/);
  return worker;
}

/** A `weft` command run to its end: its exit code and what it said. */
export async function runWeft(dir: string, args: string[]): Promise<{ code: number | string; output: string }> {
  const command = start('apps/cli/src/main', args, {}, dir);
  const code = await command.exited;
  return { code, output: command.output() };
}

/** Polls `probe` until it gives something (resolving with it), or fails after `ms`, naming `what`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
