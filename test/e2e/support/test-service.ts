import 'reflect-metadata';
import Database from 'better-sqlite3';
import { createClient, Client } from 'graphql-ws';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import WebSocket from 'ws';
import { ControlService } from '../../../apps/fabric-manager/src/control/control.service';
import { AutomationService } from '../../../apps/fabric-manager/src/automation/automation.service';
import { StartedService, startService } from '../../../apps/fabric-manager/src/bootstrap';
import { InterruptRecorder } from '../../../apps/fabric-manager/src/events/interrupt-recorder.service';
import { loadWeftConfig, WeftConfig } from '../../../apps/fabric-manager/src/config/weft-config';

export interface GraphQLResponse<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; extensions: { code: string; reason?: string; [key: string]: unknown } }[];
}

/**
 * The store the tests run on: SQLite (a file of its own a service) unless WEFT_TEST_STORE is
 * "postgres" — then a database of its own a service on the PostgreSQL at WEFT_TEST_POSTGRES
 * (default the loopback server's `test` database as `postgres`), made at start and dropped at stop.
 */
const TEST_STORE = process.env.WEFT_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
const POSTGRES_ADMIN_URL = process.env.WEFT_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/test';

async function onPostgres<T>(work: (client: PgClient) => Promise<T>, url = POSTGRES_ADMIN_URL): Promise<T> {
  const client = new PgClient({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database for one service: its URL. */
async function freshPostgresDatabase(): Promise<string> {
  const name = `weft_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onPostgres((c) => c.query(`CREATE DATABASE "${name}"`));
  return POSTGRES_ADMIN_URL.replace(/\/[^/?]+(\?.*)?$/, `/${name}`);
}

/** The real service on a random port with its own store, as an operator would run it. */
export class TestService {
  private constructor(
    readonly dir: string,
    readonly databasePath: string,
    private started: StartedService,
  ) {}

  /** Which store the tests run on (WEFT_TEST_STORE). */
  static readonly store = TEST_STORE;

  static async start(options: { dir?: string; defaultFixture?: string; config?: Partial<WeftConfig> } = {}): Promise<TestService> {
    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'weft-e2e-'));
    const databasePath =
      options.config?.WEFT_DATABASE ?? (TEST_STORE === 'postgres' && !options.dir ? await freshPostgresDatabase() : join(dir, 'weft.sqlite'));
    const started = await TestService.boot(databasePath, { WEFT_DEFAULT_FIXTURE: options.defaultFixture ?? 'none', ...options.config });
    return new TestService(dir, databasePath, started);
  }

  private static boot(databasePath: string, config: Partial<WeftConfig>): Promise<StartedService> {
    return startService(
      loadWeftConfig(
        {},
        { WEFT_DATABASE: databasePath, WEFT_PORT: 0, WEFT_DEFAULT_FIXTURE: 'none', WEFT_LOG_LEVEL: 'silent', WEFT_PRINT_BOOTSTRAP_KEY: 'false', ...config },
      ),
      { logger: false },
    );
  }

  /** What the service said at start about a store it cannot write. */
  get storeWarning(): string | null {
    return this.started.storeWarning;
  }

  get url(): string {
    return this.started.url;
  }

  get app() {
    return this.started.app;
  }

  /** The admin key the first start printed (null after a restart on the same store). */
  get bootstrapKey(): string | null {
    return this.started.bootstrapKey?.key ?? null;
  }

  async gql<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}, key?: string): Promise<GraphQLResponse<T>> {
    const response = await fetch(`${this.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphQLResponse<T>;
  }

  /** A graphql-ws client authenticated with `key`. */
  wsClient(key: string | undefined): Client {
    return createClient({
      url: `${this.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: key ? { Authorization: `Bearer ${key}` } : {},
      retryAttempts: 0,
      lazy: true,
    });
  }

  /** Counts rows straight from the store, not through the service, to prove what is (not) in it. */
  async rowCounts(): Promise<Record<string, number>> {
    const tables = ['fabric', 'chip', 'port', 'link', 'fabric_event', 'api_key', 'audit_entry'];
    if (this.databasePath.startsWith('postgres'))
      return onPostgres(async (c) => {
        const counts: Record<string, number> = {};
        for (const table of tables) counts[table] = Number((await c.query(`SELECT COUNT(*) AS n FROM "${table}"`)).rows[0].n);
        return counts;
      }, this.databasePath);
    const db = new Database(this.databasePath, { readonly: true });
    try {
      const counts: Record<string, number> = {};
      for (const table of tables) {
        counts[table] = (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
      }
      return counts;
    } finally {
      db.close();
    }
  }

  async restart(config: Partial<WeftConfig> = {}): Promise<void> {
    await this.started.app.close();
    this.started = await TestService.boot(this.databasePath, config);
  }

  async stop(options: { keepFiles?: boolean } = {}): Promise<void> {
    await this.started.app.close();
    if (options.keepFiles) return;
    rmSync(this.dir, { recursive: true, force: true });
    if (this.databasePath.startsWith('postgres')) {
      const name = /\/([^/?]+)(\?.*)?$/.exec(this.databasePath)![1];
      await onPostgres((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      rmSync(join('data', `admin-key.${name}`), { force: true });
    }
  }
}

export async function createKey(service: TestService, adminKey: string, role: 'viewer' | 'operator' | 'admin', name = `${role}-key`): Promise<string> {
  const result = await service.gql<{ createApiKey: { key: string } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id role } } }',
    { input: { name, role } },
    adminKey,
  );
  if (!result.data) throw new Error(JSON.stringify(result.errors));
  return result.data.createApiKey.key;
}

export const LOAD_FABRIC = `mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id name family chipCount portCount linkCount summary } }`;

/** Loads a fixture (e.g. 'blackwidow/bw-r1.5-288') with `key`; returns the fabric's id. */
export async function loadFixture(service: TestService, key: string, fixture: string): Promise<string> {
  const result = await service.gql<{ loadFabric: { id: string } }>(LOAD_FABRIC, { input: { fixture } }, key);
  if (!result.data) throw new Error(`loading ${fixture}: ${JSON.stringify(result.errors)}`);
  return result.data.loadFabric.id;
}

/** Waits until the automation has handled every interrupt the fabric raised so far. */
export async function waitForAutomation(service: TestService, fabricId: number): Promise<void> {
  // A fault's interrupts are posted by the emulator's worker before it confirms the fault; an
  // operator's declaration is queued before the mutation answers.
  await service.app.get(InterruptRecorder).recorded();
  await service.app.get(AutomationService).settled(fabricId);
  // And what the reaction left to follow it (an optimisation generation: Anton 2's weights).
  await service.app.get(ControlService).settled(fabricId);
}

export interface StreamedEvent {
  kind: string;
  chip: string | null;
  port: number | null;
  details: Record<string, unknown>;
}

/**
 * A subscription to one fabric's event stream over WebSocket, as an automation client holds it:
 * every event kept in order, and `streamed` waits (up to `waitMs`) for one matching a predicate.
 */
export async function watchFabricEvents(
  service: TestService,
  key: string,
  fabricId: string,
  waitMs = 30_000,
): Promise<{
  stream: StreamedEvent[];
  streamed: (predicate: (e: StreamedEvent) => boolean, what: string) => Promise<StreamedEvent>;
  close: () => Promise<void>;
}> {
  const stream: StreamedEvent[] = [];
  const client = service.wsClient(key);
  await new Promise<void>((resolve, reject) => {
    client.subscribe(
      { query: 'subscription($f: ID) { fabricEvents(fabricId: $f) { kind chip port details } }', variables: { f: fabricId } },
      { next: (m) => stream.push(m.data!.fabricEvents as StreamedEvent), error: reject, complete: () => undefined },
    );
    client.on('connected', () => resolve());
  });
  await new Promise((r) => setTimeout(r, 200));
  const streamed = async (predicate: (e: StreamedEvent) => boolean, what: string): Promise<StreamedEvent> => {
    for (let waited = 0; waited < waitMs; waited += 50) {
      const found = stream.find(predicate);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the event stream never carried ${what}; it carried ${stream.map((e) => e.kind).join(', ')}`);
  };
  return { stream, streamed, close: () => client.dispose() as Promise<void> };
}
