/**
 * Failover of an active/standby pair (issue 40: the standby takes over in under 5 s): a fabric
 * process and two managers on the loopback PostgreSQL, the 1,024-processor BlackWidow configured;
 * each run kills the active manager (SIGKILL) and measures, from the kill, when the standby holds
 * the store and writes (its take-over work done) and when it is ready (the fabric read back and
 * reconciled). The killed manager is started again as the next run's standby, as its supervisor
 * would. The lease is the default (WEFT_LEASE_MS = 3,000 ms): the active manager renews it every
 * second and the standby looks every half second, so that the lapse alone takes 2–3.5 s.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgres, ManagerProcess, query, startFabricProcess, startManager, WeftProcess } from '../e2e/support/weft-processes';
import { Benchmark, Measurement } from './harness';

const FIXTURE = 'blackwidow/bw-r2-1024';
const MANAGER = '{ manager { role tookOverAt takeoverMs } }';

let dir = '';
let database: { url: string; drop: () => Promise<void> } | undefined;
let fabric: { process: WeftProcess; address: string } | undefined;
let active: ManagerProcess | undefined;
let standby: ManagerProcess | undefined;
let key = '';
let env: Record<string, string> = {};

async function setup(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'weft-failover-bench-'));
  database = await freshPostgres('weft_failover_bench');
  fabric = await startFabricProcess(dir, { store: database.url });
  env = { WEFT_DATABASE: database.url, WEFT_FABRIC: fabric.address, WEFT_STANDBY: 'on' };
  active = await startManager(dir, env);
  key = readFileSync(join(dir, 'data', `admin-key.${/\/([^/?]+)$/.exec(database.url)![1]}`), 'utf8').trim();
  const loaded = await query<{ loadFabric: { id: string } }>(active.url, key, 'mutation($f: String!) { loadFabric(input: { fixture: $f }) { id } }', {
    f: FIXTURE,
  });
  await query(active.url, key, 'mutation($id: ID!) { configureFabric(input: { fabricId: $id }) { writes } }', { id: loaded.data!.loadFabric.id });
  standby = await startManager(dir, env);
}

/** When the standby says it took over (from `since`), and how long its take-over work took. */
async function tookOver(since: number): Promise<{ tookOverMs: number; workMs: number }> {
  for (;;) {
    const m = (await query<{ manager: { tookOverAt: string | null; takeoverMs: number | null } }>(standby!.url, key, MANAGER)).data!.manager;
    if (m.tookOverAt) return { tookOverMs: performance.now() - since, workMs: m.takeoverMs! };
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function run(): Promise<Measurement> {
  // Somewhere in the lease's renewal period, as a crash would come.
  await new Promise((r) => setTimeout(r, 500 + Math.floor(Math.random() * 1_000)));
  active!.process.child.kill('SIGKILL');
  const killed = performance.now();
  await active!.process.exited;
  const { tookOverMs, workMs } = await tookOver(killed);
  while ((await fetch(`${standby!.url}/health/ready`)).status !== 200) await new Promise((r) => setTimeout(r, 10));
  const readyMs = performance.now() - killed;
  // The killed manager comes back as the standby.
  active = standby;
  standby = await startManager(dir, env);
  // ms: from the kill to the standby holding the store with its take-over work done (it writes from then on).
  return { ms: tookOverMs, readyMs, workMs };
}

export const benchmarks: Benchmark[] = [
  {
    name: 'failover: the standby takes over from a killed active manager (fabric process, PostgreSQL, 1,024-processor BlackWidow)',
    parameters: { fixture: FIXTURE, leaseMs: 3_000, store: 'PostgreSQL (loopback)', fabric: 'weft fabric serve (unix socket)' },
    isolated: true,
    warmup: 1,
    runs: 7,
    setup,
    run,
    teardown: async () => {
      for (const m of [active, standby]) m?.process.child.kill('SIGKILL');
      fabric?.process.child.kill('SIGTERM');
      await Promise.all([active?.process.exited, standby?.process.exited, fabric?.process.exited]);
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  },
];
