import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { DEFAULT_DATABASE, StartupError } from './store-location';

export { DEFAULT_DATABASE, StartupError };

export const DEFAULT_FIXTURE = 'blackwidow/bw-r1.5-288';

/**
 * The service's environment, validated at boot: a typo in a variable stops the service with a
 * message naming the variable, instead of a default silently taking its place.
 */
export class WeftConfig {
  /** SQLite database file (created on first start). */
  @IsString()
  @MinLength(1)
  WEFT_DATABASE: string = DEFAULT_DATABASE;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  WEFT_PORT: number = 3000;

  @IsString()
  WEFT_HOST: string = '127.0.0.1';

  /** Listening sockets sharing the port (SO_REUSEPORT), each taking one new connection per turn of
   * the event loop (see http/acceptors.ts); 1 for a single plain listener. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  WEFT_HTTP_ACCEPTORS: number = 16;

  /** Installation loaded into the built-in emulated fabric when the store has no fabric; `none` to skip. */
  @IsString()
  WEFT_DEFAULT_FIXTURE: string = DEFAULT_FIXTURE;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  WEFT_LOG_LEVEL: string = 'info';

  /** Largest cost a single GraphQL operation may have (see graphql/query-complexity.plugin.ts). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  WEFT_MAX_QUERY_COMPLEXITY: number = 20_000;

  @Type(() => Number)
  @IsInt()
  @Min(2)
  @Max(50)
  WEFT_MAX_QUERY_DEPTH: number = 10;

  /** Fields one operation may select, aliases and fragments counted where they are used: two
   * thousand aliases of a field that costs nothing each still held the event loop for seconds. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(100_000)
  WEFT_MAX_QUERY_FIELDS: number = 1_000;

  /** React to interrupts without an operator: record the fault, recompute, verify, push (`off` leaves it to operators). */
  @IsIn(['on', 'off'])
  WEFT_AUTOMATION: string = 'on';

  /** Events older than this many days are pruned. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  WEFT_EVENT_RETENTION_DAYS: number = 30;

  /** At most this many events are kept (the oldest go first). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  WEFT_EVENT_RETENTION_MAX: number = 1_000_000;

  /** Seconds between pruning passes. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  WEFT_EVENT_PRUNE_INTERVAL_S: number = 60;

  /** The store may grow to this many megabytes and no further (0: as far as the disk allows). At the
   * limit it behaves as on a full disk: reads go on, writes are refused as "store full". */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  WEFT_STORE_MAX_MB: number = 0;

  /** Niceness of the emulated fabric's worker thread (0–19): the emulator yields the processor to
   * the API and the control plane when both want it. 0 runs it at the service's priority. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(19)
  WEFT_EMULATOR_NICE: number = 10;

  /** Threads a traffic run on an emulated fabric runs the fabric's independent parts on (BlackWidow:
   * its four slices), the emulator's own included; 0: one per processor core. The run is the same,
   * packet for packet, on any number. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(64)
  WEFT_EMULATOR_THREADS: number = 0;

  /** `on`: when another manager holds the store (on PostgreSQL, usually on another machine), wait
   * as its standby — serving reads, refusing writes — and take over when its lease lapses; `off`:
   * refuse to start beside it (see database/store-ownership.ts). */
  @IsIn(['on', 'off'])
  WEFT_STANDBY: string = 'off';

  /** How long the active manager's lease on the store lasts unrenewed (it renews every third of
   * it): a standby takes over this long after the active manager last renewed. It must outlast the
   * active manager's longest pause (a stalled event loop, a database failover). */
  @Type(() => Number)
  @IsInt()
  @Min(300)
  @Max(600_000)
  WEFT_LEASE_MS: number = 3_000;

  /** The emulated fabrics: `embedded` (a worker thread of this service), or a fabric process of
   * its own (`weft fabric serve`) at `unix:/path/to.sock` or `tcp:host:port`, which outlives the manager. */
  @IsString()
  @Matches(/^(embedded|unix:.+|tcp:(?:[^:]+:)?\d{1,5})$/, { message: 'WEFT_FABRIC must be embedded, unix:/path/to.sock or tcp:host:port' })
  WEFT_FABRIC: string = 'embedded';

  /** The key a manager proves to the fabric process (`weft fabric serve --key-file`): a file only
   * its owner may read, made by the fabric process at its first start. */
  @IsString()
  WEFT_FABRIC_KEY_FILE: string = 'data/fabric-key';

  /** The job queue studies' points wait on for `weft worker` processes: `redis://host:port[/db]`, or
   * `none` — the manager does every point itself, one at a time. */
  @IsString()
  @Matches(/^(none|rediss?:\/\/.+)$/, { message: 'WEFT_REDIS must be none or redis://host:port[/db]' })
  WEFT_REDIS: string = 'none';

  /** Namespaces the queue's keys in Redis: installations sharing a Redis keep their jobs apart. */
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'WEFT_QUEUE_PREFIX must be 1–64 letters, digits, dots, dashes or underscores' })
  WEFT_QUEUE_PREFIX: string = 'weft';

  /** Print the first admin key on an empty store (tests turn this off to keep output clean). */
  @IsOptional()
  @IsIn(['true', 'false'])
  WEFT_PRINT_BOOTSTRAP_KEY: string = 'true';
}

export class ConfigError extends StartupError {}

export function loadWeftConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<WeftConfig> = {}): WeftConfig {
  const known = Object.keys(new WeftConfig());
  const picked: Record<string, unknown> = {};
  for (const key of known) if (env[key] !== undefined && env[key] !== '') picked[key] = env[key];
  const config = plainToInstance(WeftConfig, { ...picked, ...overrides });
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const raw: Record<string, unknown> = { ...picked, ...overrides };
    const lines = errors.map((e) => `  ${e.property}=${JSON.stringify(raw[e.property])}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`invalid environment configuration:\n${lines.join('\n')}`);
  }
  return config;
}
