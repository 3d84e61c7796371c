/**
 * The API under concurrency, measured from outside as its clients see it: the built service in a
 * process of its own (as `npm start` runs it), 50 clients each sending a cheap query as soon as its
 * last answer came (autocannon, a load generator made for this), idle and while a drill runs at a
 * real load. Target (issue 34): p99 under 100 ms for the cheap query in both.
 */
import autocannon from 'autocannon';
import { Benchmark, Measurement } from './harness';
import { ServiceProcess, serviceQuery, startServiceProcess, stopServiceProcess } from './service-process';

const CHEAP_QUERY = '{ fabrics(first: 5) { totalCount edges { node { id name chipCount } } } }';
const CLIENTS = 50;
const REQUESTS = 3_000;

let service: ServiceProcess | undefined;

async function stopService(): Promise<void> {
  if (!service) return;
  await stopServiceProcess(service);
  service = undefined;
}

/** POSTs a GraphQL request with the admin key; the response as it came. */
function post(query: string, variables: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${service!.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${service!.key}` },
    body: JSON.stringify({ query, variables }),
  });
}

const gql = <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => serviceQuery<T>(service!, query, variables);

/** 50 clients, 3,000 cheap queries: latency percentiles as the clients measured them. */
async function fiftyClients(): Promise<Measurement> {
  const result = await autocannon({
    url: `${service!.url}/graphql`,
    connections: CLIENTS,
    amount: REQUESTS,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${service!.key}` },
    body: JSON.stringify({ query: CHEAP_QUERY }),
  });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${result.errors} errors and ${result.non2xx} non-2xx answers`);
  return {
    ms: result.duration * 1000,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requestsPerSecond: result.requests.average,
  };
}

/** A benchmark against a fresh service of its own, in a process of its own. */
function againstService(name: string, parameters: Benchmark['parameters'], run: Benchmark['run'], prepare?: () => Promise<void>): Benchmark {
  return {
    name,
    parameters,
    isolated: true,
    warmup: 1,
    runs: 5,
    setup: async () => {
      service = await startServiceProcess('api-bench');
      await prepare?.();
    },
    teardown: stopService,
    run,
  };
}

const idle = againstService(
  'api: a cheap query from 50 concurrent clients, service idle (bw-r1.5-288 configured)',
  { clients: CLIENTS, requests: REQUESTS, query: CHEAP_QUERY },
  fiftyClients,
);

/** A drill at a real load: uniform random traffic at 0.3 of every injection link on all four slices,
 * a cable cut, the automation healing it — running on (it lasts minutes) while the clients ask. */
const DRILL = {
  format: 'weft-drill/1',
  name: 'api-bench-under-load',
  description: 'API benchmark: traffic at load 0.3 on four slices, a cable cut at 20 µs',
  fabric: 'blackwidow/bw-r1.5-288',
  traffic: { pattern: { kind: 'uniform-random' }, load: 0.3, packetPhits: 4, slices: [0, 1, 2, 3], seed: 3 },
  durationNs: 2_000_000,
  intervalNs: 20_000,
  timeline: [{ atNs: 20_000, action: 'cut-link', chip: 's0.r1.2', port: 40 }],
  expectations: { unaccounted: 0 },
};

const duringDrill = againstService(
  'api: a cheap query from 50 concurrent clients, during a drill at load 0.3 on 4 slices',
  { clients: CLIENTS, requests: REQUESTS, query: CHEAP_QUERY, drillLoad: DRILL.traffic.load, drillSlices: 4 },
  fiftyClients,
  async () => {
    const { startDrill } = await gql<{ startDrill: { id: string } }>('mutation($input: StartDrillInput!) { startDrill(input: $input) { id } }', {
      input: { drill: JSON.stringify(DRILL) },
    });
    // Measured once its traffic flows: past loading and configuring its fabric.
    for (;;) {
      const { drillRun } = await gql<{ drillRun: { state: string; progress: { emulatedNs: number } | null } }>(
        'query($id: ID!) { drillRun(id: $id) { state progress { emulatedNs } } }',
        { id: startDrill.id },
      );
      if (drillRun.state !== 'running') throw new Error(`the drill ended (${drillRun.state}) before the clients were measured`);
      if ((drillRun.progress?.emulatedNs ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  },
);

/**
 * The heaviest query the cost limit lets a viewer send — as many router decodings, each of a
 * different router, as fit under it — sent again and again by 4 clients, while a probe asks
 * /health/live 200 times in a row: how long the probe waits. Target (issue 34): under 100 ms.
 */
const healthUnderHeavyQueries = againstService(
  'api: /health/live while the heaviest permitted queries run (bw-r1.5-288)',
  { heavyClients: 4, probes: 200 },
  async () => {
    const { fabrics } = await gql<{ fabrics: { edges: { node: { id: string } }[] } }>('{ fabrics(first: 1) { edges { node { id } } } }');
    const fabricId = fabrics.edges[0].node.id;
    const { fabric } = await gql<{ fabric: { chips: { edges: { node: { name: string } }[] } } }>(
      'query($f: ID!) { fabric(id: $f) { chips(kind: "router", first: 500) { edges { node { name } } } } }',
      { f: fabricId },
    );
    const names = fabric.chips.edges.map((e) => e.node.name);
    const decode = (i: number) =>
      `a${i}: routerConfiguration(input: { fabricId: ${fabricId}, chip: "${names[i % names.length]}" }) { chip raw { register value } }`;
    // As many as fit: each costs 200 points plus its fields, under the 20,000 limit.
    let count = 120;
    while ((await post(`{ ${Array.from({ length: count }, (_, i) => decode(i)).join(' ')} }`)).status !== 200) count--;
    const heavy = `{ ${Array.from({ length: count }, (_, i) => decode(i)).join(' ')} }`;
    let running = true;
    let heavyQueries = 0;
    const clients = Array.from({ length: 4 }, async () => {
      while (running) {
        await post(heavy).then((r) => r.text());
        heavyQueries++;
      }
    });
    const probes: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 200; i++) {
      const sent = performance.now();
      await fetch(`${service!.url}/health/live`).then((r) => r.text());
      probes.push(performance.now() - sent);
    }
    const ms = performance.now() - started;
    running = false;
    await Promise.all(clients);
    probes.sort((a, b) => a - b);
    return { ms, probeP50Ms: probes[100], probeP99Ms: probes[197], probeMaxMs: probes[199], aliasesPerQuery: count, heavyQueries };
  },
);

export const benchmarks: Benchmark[] = [idle, duringDrill, healthUnderHeavyQueries];
