import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetricsFromIterator } from 'prom2javascript';
import { TestService } from './support/test-service';

interface Family {
  type: string;
  data: { labels?: Record<string, string>; value?: number; count?: number; sum?: number; buckets?: Record<string, number> }[];
}

/** /metrics as Prometheus scrapes it, read with a parser of the text format (issue 40). */
describe('metrics for Prometheus', () => {
  let service: TestService;
  let families: Map<string, Family>;

  beforeAll(async () => {
    service = await TestService.start({ defaultFixture: 'blackwidow/bw-r1-32' });
    const key = service.bootstrapKey!;
    await service.gql('mutation { declareFault(input: { fabricId: 1, kind: "link", chip: "p3", port: 0 }) { id } }', {}, key);
    await service.gql('{ fabrics { totalCount } }', {}, key);
    await service.gql('{ chip(fabricId: 1, name: "nope") { id } }', {}, key);
    // The fault's generation is computed and pushed by the automation, after the mutation has
    // answered; its GENERATION_PUSHED event is recorded after the generation is marked pushed.
    for (let i = 0; i < 200; i++) {
      const { data } = await service.gql<{ events: { totalCount: number } }>('{ events(kinds: [GENERATION_PUSHED], first: 10) { totalCount } }', {}, key);
      if (data!.events.totalCount >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const response = await fetch(`${service.url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const lines = (await response.text()).split('\n');
    families = new Map(Object.entries((await getMetricsFromIterator(lines[Symbol.iterator]())) as Record<string, Family>));
  });
  afterAll(() => service.stop());

  const sample = (name: string, labels: Record<string, string> = {}) =>
    families.get(name)!.data.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

  it('counts events by kind, and observes the compute, verify and push times the generation events report', () => {
    expect(Number(sample('weft_events_total', { kind: 'FAULT_DECLARED' })!.value)).toBe(1);
    // The first start's generation and the one the fault brought.
    expect(Number(sample('weft_events_total', { kind: 'GENERATION_PUSHED' })!.value)).toBe(2);
    expect(Number(sample('weft_events_total', { kind: 'LANE_DECOMMISSIONED' })!.value)).toBe(0);
    for (const name of ['weft_generation_compute_seconds', 'weft_generation_verify_seconds', 'weft_generation_push_seconds']) {
      expect(families.get(name)!.type).toBe('histogram');
      expect(Number(sample(name)!.count)).toBe(2);
      expect(Number(sample(name)!.sum)).toBeGreaterThan(0);
    }
  });

  it('reports the faults in force, each fabric’s emulated clock and the lease', () => {
    expect(Number(sample('weft_faults_active')!.value)).toBe(1);
    expect(Number(sample('weft_emulator_emulated_seconds', { fabric: '1' })!.value)).toBeGreaterThan(0);
    expect(Number(sample('weft_lease_held', { role: 'active' })!.value)).toBe(1);
  });

  it('times API operations by root field, type and outcome', () => {
    expect(Number(sample('weft_api_request_seconds', { operation: 'declareFault', type: 'mutation', outcome: 'ok' })!.count)).toBe(1);
    expect(Number(sample('weft_api_request_seconds', { operation: 'chip', type: 'query', outcome: 'error' })!.count)).toBe(1);
  });

  it('ships a Grafana dashboard whose every query names metrics weft exports', () => {
    const dashboard = JSON.parse(readFileSync(join(__dirname, '../../ops/grafana/weft-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(6);
    for (const panel of dashboard.panels)
      for (const { expr } of panel.targets) {
        const names = expr.match(/weft_[a-z0-9_]+/g) ?? [];
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) expect([name, name.replace(/_(bucket|count|sum)$/, '')].some((n) => families.has(n))).toBe(true);
      }
  });
});
