import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartedService, startService } from '../../apps/fabric-manager/src/bootstrap';
import { loadWeftConfig } from '../../apps/fabric-manager/src/config/weft-config';
import { EmulatorService } from '../../apps/fabric-manager/src/emulator/emulator.service';
import { FabricsService } from '../../apps/fabric-manager/src/fabrics/fabrics.service';
import { ApiKeysService } from '../../apps/fabric-manager/src/auth/api-keys.service';
import { Benchmark, collectGarbage, percentile, timed } from './harness';

let dir = '';
let service: StartedService | undefined;
let counter = 0;

async function up(): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'weft-bench-'));
  const config = loadWeftConfig({}, { WEFT_DATABASE: join(dir, 'bench.sqlite'), WEFT_PORT: 0, WEFT_DEFAULT_FIXTURE: 'none', WEFT_LOG_LEVEL: 'silent' });
  service = await startService(config, { logger: false });
}

async function down(): Promise<void> {
  await service?.app.close();
  rmSync(dir, { recursive: true, force: true });
}

const loadFixture = (fixture: string, runs: number): Benchmark => ({
  name: `store: load fabric into SQLite (one transaction): ${fixture}`,
  parameters: { fixture },
  warmup: 1,
  runs,
  setup: up,
  teardown: down,
  run: async () => {
    const fabrics = service!.app.get(FabricsService);
    const installation = fabrics.readInstallation({ fixture: `blackwidow/${fixture}` });
    const { ms, value } = await timed(() => fabrics.load(installation, `${fixture}-${counter++}`));
    return { ms, rowsPerSecond: ((value.chipCount + value.portCount + value.linkCount) / ms) * 1000 };
  },
});

const CHIP_PAGE =
  '{ fabrics(first: 1) { edges { node { chips(first: 100) { edges { node { name ports(first: 8) { edges { node { number role } } } } } } } } } }';

/** POSTs a GraphQL request to the service under test. */
async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: Record<string, { id: string; state: string }> }> {
  const r = await fetch(`${service!.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await r.json()) as { data?: Record<string, { id: string; state: string }> };
}

/** Asks for the chip page `n` times in a row: the total time and each request's latency. */
async function chipPages(key: string, n: number): Promise<{ ms: number; latencies: number[] }> {
  const latencies: number[] = [];
  const all = await timed(async () => {
    for (let i = 0; i < n; i++) latencies.push((await timed(() => gql(key, CHIP_PAGE))).ms);
  });
  return { ms: all.ms, latencies };
}

const withFabric = async () => {
  await up();
  const fabrics = service!.app.get(FabricsService);
  await fabrics.load(fabrics.readInstallation({ fixture: 'blackwidow/bw-r1.5-288' }));
};

/** GraphQL over HTTP against the real service: a page of 100 chips with their first 8 ports. */
const chipPageLatency: Benchmark = {
  name: 'graphql: page of 100 chips with 8 ports each (bw-r1.5-288)',
  parameters: { requests: 200, fixture: 'bw-r1.5-288' },
  warmup: 1,
  runs: 5,
  setup: withFabric,
  teardown: down,
  run: async () => {
    const key = (await service!.app.get(ApiKeysService).create('bench', 'viewer' as never)).key;
    const { ms, latencies } = await chipPages(key, 200);
    return { ms, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
  },
};

/**
 * Discovery as an operator gets it: the discoverFabric mutation over HTTP, the sweep running in
 * the emulator's worker behind the maintenance transport, the match with the design and the chip
 * states stored. Loading the fabric (and the worker's building it) is set-up; the fabric's design is
 * kept from the load.
 */
function serviceDiscovery(fixture: string, runs: number): Benchmark {
  let key = '';
  let fabricId = '';
  return {
    name: `discovery through the service: discoverFabric over GraphQL, ${fixture}`,
    parameters: { fixture },
    warmup: 0,
    runs,
    setup: async () => {
      await up();
      const fabrics = service!.app.get(FabricsService);
      fabricId = String((await fabrics.load(fabrics.readInstallation({ fixture: `blackwidow/${fixture}` }))).id);
      // The worker builds the emulated fabric after the load returns; that build is set-up too.
      await service!.app.get(EmulatorService).emulatedNs(Number(fabricId));
      key = (await service!.app.get(ApiKeysService).create('bench', 'operator' as never)).key;
    },
    teardown: down,
    run: async () => {
      // The previous sweep's results became garbage when this one's replaced them; collecting them
      // is not part of this discovery (as in the benchmark of the sweep alone).
      collectGarbage();
      const { ms, value } = await timed(() =>
        gql(key, 'mutation($input: FabricIdInput!) { discoverFabric(input: $input) { chipsFound cablesFound requests wallMs findings { kind } } }', {
          input: { fabricId },
        }),
      );
      const report = value.data?.discoverFabric as unknown as {
        chipsFound: number;
        cablesFound: number;
        requests: number;
        wallMs: number;
        findings: unknown[];
      };
      if (!report) throw new Error(`discoverFabric failed: ${JSON.stringify(value)}`);
      return {
        ms,
        serviceMs: report.wallMs,
        chips: report.chipsFound,
        cables: report.cablesFound,
        requests: report.requests,
        findings: report.findings.length,
      };
    },
  };
}

export const benchmarks: Benchmark[] = [
  loadFixture('bw-r1.5-288', 5),
  loadFixture('bw-r2-1024', 3),
  loadFixture('bw-r3.5-32k', 1),
  chipPageLatency,
  serviceDiscovery('bw-r3.5-32k', 3),
];
