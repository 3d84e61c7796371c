/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Page } from 'playwright-core';
import type { WeftPictureHook } from '../../apps/console/src/picture-hook';

declare global {
  interface Window {
    weftPicture?: WeftPictureHook;
  }
}
import { launchChromium, offlineContext, screenshot } from './support/browser';
import { TestService } from './support/test-service';

/**
 * The admin console and the explorer in a real browser (Debian's Chromium) against the real
 * service on a fresh store, with the network cut: nothing may be fetched from outside the machine.
 */
describe('the admin console, in Chromium with the network cut', () => {
  jest.setTimeout(60_000);
  let service: TestService;
  let browser: Browser;
  let context: BrowserContext;
  let outside: string[];
  let page: Page;

  beforeAll(async () => {
    service = await TestService.start({ defaultFixture: 'blackwidow/bw-r1-32' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });
  beforeEach(async () => {
    ({ context, outside } = await offlineContext(browser, service.url));
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
  });
  afterEach(async () => {
    await context.close();
    expect(outside).toEqual([]);
  });

  const signIn = async (key: string) => {
    await page.goto(service.url);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Fabrics' }).waitFor();
  };

  const openFabric = async () => {
    await page.getByRole('button', { name: 'bw-r1-32' }).click();
    await page.locator('[data-testid=picture][data-ready=true]').waitFor();
  };

  /** Clicks cable (chip:port) in the picture, where no other cable passes near. */
  const clickCable = async (chip: string, port: number) => {
    const box = (await page.getByTestId('picture').boundingBox())!;
    const at = await page.evaluate(([c, p]) => window.weftPicture!.clearPoint(window.weftPicture!.cableIndex(c as string, p as number)), [chip, port] as const);
    await page.mouse.click(box.x + at.x, box.y + at.y);
  };

  it('signs in with a key, lists the default fabric with its health and draws its picture', async () => {
    await signIn(service.bootstrapKey!);
    const row = page.getByRole('row', { name: /bw-r1-32/ });
    await expect(row.textContent()).resolves.toMatch(/bw-r1-32blackwidow\d+\d+0#1/);
    // An installation file given from the browser, refused with what is wrong, then a good one loaded.
    await page
      .getByLabel('installation file')
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "weft-installation/1"}') });
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/\$\.(name|family|design)/);
    const good = readFileSync(join(__dirname, '../../fixtures/flattened-butterfly/fb-4ary-3flat-64-miscabled.json'));
    await page.getByLabel('installation file').setInputFiles({ name: 'fb.json', mimeType: 'application/json', buffer: good });
    await page.getByRole('row', { name: /fb-4ary-3flat-64-miscabled/ }).waitFor();
    await screenshot(page, 'fabrics');
    await openFabric();
    await expect(page.locator('.legend').textContent()).resolves.toMatch(/ranks and slices/);
    await screenshot(page, 'fabric-picture');
  });

  it('declares a fault on a cable clicked in the picture, shows the events arrive live and the cable turn faulty', async () => {
    await signIn(service.bootstrapKey!);
    await openFabric();
    const cable = await page.evaluate(() => {
      const p = window.weftPicture!;
      return { index: p.cableIndex('p5', 0) };
    });
    expect(cable.index).toBeGreaterThanOrEqual(0);
    await clickCable('p5', 0);
    const details = page.getByTestId('details');
    await expect(details.locator('h3').textContent()).resolves.toMatch(/^cable p5:0 — s0\.r1\.0:\d+$/);
    await details.getByRole('button', { name: 'Declare fault' }).click();
    for (const kind of ['FAULT_DECLARED', 'GENERATION_COMPUTED', 'GENERATION_PUSHED'])
      await page.locator(`[data-testid=events] li[data-kind=${kind}]`).first().waitFor();
    await page.waitForFunction(() => window.weftPicture!.cableState(window.weftPicture!.cableIndex('p5', 0)) === 'faulty');
    await details.getByText('state: faulty').waitFor();
    await screenshot(page, 'fault-declared');
  });

  it('opens a router: its registers decoded beside the raw words, its ports with far ends and why one is out of service', async () => {
    await signIn(service.bootstrapKey!);
    await openFabric();
    const box = (await page.getByTestId('picture').boundingBox())!;
    const at = await page.evaluate(() => window.weftPicture!.chipPoint('s0.r1.0'));
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.getByTestId('details').getByRole('button', { name: 'Open chip' }).click();
    const chip = page.getByTestId('chip-view');
    await chip.locator('h4', { hasText: /^Registers of generation \d+, decoded$/ }).waitFor();
    // The family's registers as its type in the API names them, and the raw words beside.
    await expect(chip.locator('dl.fields').first().textContent()).resolves.toMatch(/virtualRouters/);
    await expect(chip.locator('table.raw tr').count()).resolves.toBeGreaterThan(10);
    // p5's cable was declared faulty earlier: its port is out of service, and says why.
    const p5 = chip.locator('tr', { hasText: 'p5:0' });
    await expect(p5.textContent()).resolves.toMatch(/fault \d+/);
    await screenshot(page, 'chip');
  });

  it('traces a route and draws it', async () => {
    await signIn(service.bootstrapKey!);
    await openFabric();
    await page.getByLabel('from').fill('p0');
    await page.getByLabel('to').fill('p31');
    await page.getByRole('button', { name: 'Trace' }).click();
    await expect(page.getByTestId('details').locator('h3').textContent()).resolves.toBe('route p0 → p31');
    await expect(page.evaluate(() => window.weftPicture!.routeCables())).resolves.toHaveLength(2);
    await screenshot(page, 'route-trace');
  });

  it('shows the channel load of a pattern and of an uploaded traffic matrix as a heat map, the hottest links listed', async () => {
    await signIn(service.bootstrapKey!);
    await openFabric();
    await page.getByLabel('pattern').selectOption('uniform-random');
    await page.getByRole('button', { name: 'Show load' }).click();
    const report = page.getByTestId('channel-load');
    await expect(report.locator('p').textContent()).resolves.toMatch(/^uniform-random: busiest channel \d\.\d{3} of an injection link/);
    await expect(report.locator('ol.hottest li').count()).resolves.toBe(10);
    await expect(page.evaluate(() => window.weftPicture!.loadedCables().length)).resolves.toBeGreaterThan(10);
    // The colours span the loads shown, with a key (issue 54: from zero, every load of a torus was red).
    const key = await page.getByTestId('heat-legend').textContent();
    const [low, high] = /^(\d\.\d{3})(\d\.\d{3}) load of an injection link/
      .exec(key ?? '')!
      .slice(1)
      .map(Number);
    expect(low).toBeLessThanOrEqual(high);
    await expect(report.locator('p').textContent()).resolves.toContain(`busiest channel ${high.toFixed(3)}`);
    await screenshot(page, 'channel-load');
    // One flow, p0 → p31, from a CSV matrix: its two channels are the hottest, at the whole flow.
    const rows = Array.from({ length: 32 }, (_, s) => Array.from({ length: 32 }, (_, d) => (s === 0 && d === 31 ? 1 : 0)).join(','));
    await page.getByLabel('traffic matrix').setInputFiles({ name: 'one-flow.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
    await page.getByRole('button', { name: 'Show load' }).click();
    await expect(report.locator('ol.hottest li').first().textContent()).resolves.toMatch(/: 1\.000$/);
    // A matrix that is not numbers is refused, saying where.
    await page.getByLabel('traffic matrix').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('0,1\n1,x') });
    await expect(page.getByRole('alert').textContent()).resolves.toBe('bad.csv: row 2, column 2: "x" is not a number');
  });

  it('runs a sweep, its loads done as points of a study, shows each point’s report and plots latency against offered load', async () => {
    await signIn(service.bootstrapKey!);
    await openFabric();
    await page.getByRole('button', { name: 'Traffic', exact: true }).click();
    await page.getByLabel('loads').fill('0.1, 0.2');
    await page.getByLabel('sample cycles').fill('2000');
    await page.getByRole('button', { name: 'Run' }).click();
    // Done by the manager itself (no job queue here), each load on a copy of the fabric as configured.
    await page.locator('[data-plot="latency against offered load"] svg').waitFor({ timeout: 50_000 });
    await expect(page.getByTestId('sweeps').locator('tbody tr').first().textContent()).resolves.toMatch(/finished2 of 2/);
    await page.getByTestId('sweep-points').locator('[data-point="1"] button').click();
    const report = page.getByTestId('traffic-report');
    await expect(report.locator('h3').textContent()).resolves.toMatch(/^Sweep #\d+, load 0.2: done$/);
    await expect(report.locator('p').textContent()).resolves.toMatch(/books: \d+ injected = \d+ delivered \+ \d+ discarded \+ \d+ in flight \(balanced\)/);
    await report.locator('[data-plot="accepted throughput over time"] svg').waitFor();
    await expect(page.getByTestId('sweep-points').locator('[data-point="0"]').textContent()).resolves.toContain('manager');
    await screenshot(page, 'traffic-sweep');
  });

  it('lists the generations with what triggered each and opens the difference between two in the chip’s terms', async () => {
    // A fault taken in by a new generation, so that there are two to compare.
    const fabricId = (await service.gql<{ fabrics: { edges: { node: { id: string } }[] } }>('{ fabrics { edges { node { id } } } }', {}, service.bootstrapKey!))
      .data!.fabrics.edges[0].node.id;
    await service.gql(
      'mutation($input: DeclareFaultInput!) { declareFault(input: $input) { id } }',
      { input: { fabricId, kind: 'link', chip: 'p9', port: 0 } },
      service.bootstrapKey!,
    );
    await signIn(service.bootstrapKey!);
    await openFabric();
    await page.getByRole('button', { name: 'Generations' }).click();
    const latest = page.locator('tr[data-generation]').last();
    await expect(latest.textContent()).resolves.toMatch(/pushedautomation: operator declared link fault p9:0verified \(\d+ endpoints proven\)/);
    await page.getByLabel('diff from').selectOption('1');
    await page.getByRole('button', { name: 'Show difference' }).click();
    const diff = page.getByTestId('diff');
    await expect(diff.locator('p').textContent()).resolves.toMatch(/^Generation 1 → \d+: \d+ registers changed on 1 routers/);
    await expect(diff.textContent()).resolves.toContain('s0.r1.0');
    await screenshot(page, 'generation-diff');
  });

  it('starts a shipped drill and shows its report and plot', async () => {
    await signIn(service.bootstrapKey!);
    await page.getByRole('button', { name: 'Drills' }).click();
    await page.getByRole('button', { name: 'Start noisy-lane' }).click();
    const report = page.getByTestId('drill-report');
    await report.locator('pre').waitFor({ timeout: 50_000 });
    await expect(report.locator('pre').textContent()).resolves.toMatch(/noisy-lane/);
    await expect(report.locator('img').count()).resolves.toBe(1);
    await screenshot(page, 'drill-report');
    const first = await report.getAttribute('data-run');

    // Another run opened shows nothing of the one open before while its own report loads (issue 54:
    // the previous run's report flashed up under the new run's number).
    await page.getByRole('button', { name: 'Start noisy-lane' }).click();
    await page.locator(`[data-testid=drill-report]:not([data-run="${first}"]) h3`, { hasText: /: (running|passed|failed)$/ }).waitFor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route) => {
      if (/drillRun\(id/.test(route.request().postData() ?? '')) await held;
      await route.continue();
    });
    await page.getByRole('button', { name: `#${first}`, exact: true }).click();
    await expect(report.locator('h3').textContent()).resolves.toBe(`Run #${first}: …`);
    await expect(report.locator('pre').count()).resolves.toBe(0);
    release();
    await report.locator('h3', { hasText: `Run #${first}: passed` }).waitFor();
    await page.unroute('**/graphql');
    // The second run finishes before the next scenario (a drill charges the machine's CPU).
    const running = async () =>
      (await service.gql<{ drillRuns: { state: string }[] }>('{ drillRuns { state } }', {}, service.bootstrapKey!)).data!.drillRuns.some(
        (r) => r.state === 'running',
      );
    for (let i = 0; i < 500 && (await running()); i++) await new Promise((r) => setTimeout(r, 100));
  });

  it('draws a fabric of thousands of chips as cells and bundles, and opens a cell to its chips', async () => {
    const key = service.bootstrapKey!;
    const loaded = await service.gql<{ loadFabric: { id: string } }>('mutation { loadFabric(input: { fixture: "blackwidow/bw-r2.5-4608" }) { id } }', {}, key);
    const fabricId = loaded.data!.loadFabric.id;
    type Picture = { aggregated: boolean; totalChips: number; totalCables: number; chipNames: string[]; chipSizes: number[]; cableCounts: number[] };
    const { fabricPicture: whole } = (
      await service.gql<{ fabricPicture: Picture }>(
        'query($input: FabricPictureInput!) { fabricPicture(input: $input) { aggregated totalChips totalCables chipNames chipSizes cableCounts } }',
        { input: { fabricId } },
        key,
      )
    ).data!;
    // Every chip in one cell, every cable in one bundle.
    expect(whole.aggregated).toBe(true);
    expect(whole.chipSizes.reduce((x, y) => x + y)).toBe(whole.totalChips);
    expect(whole.cableCounts.reduce((x, y) => x + y)).toBe(whole.totalCables);
    await signIn(key);
    await page.getByRole('button', { name: 'bw-r2.5-4608' }).click();
    await page.locator('[data-testid=picture][data-ready=true]').waitFor();
    await expect(page.locator('.legend').textContent()).resolves.toContain(`drawn as ${whole.chipNames.length} cells`);
    await screenshot(page, 'cells');
    const cell = whole.chipNames.findIndex((n) => n.startsWith('slice 0 · R1'));
    const box = (await page.getByTestId('picture').boundingBox())!;
    const at = await page.evaluate((name) => window.weftPicture!.chipPoint(name), whole.chipNames[cell]);
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page
      .getByTestId('details')
      .getByText(/^\d+ chips$/)
      .waitFor();
    await page.mouse.dblclick(box.x + at.x, box.y + at.y);
    await page
      .locator('.legend')
      .getByText(/cell slice 0 · R1: s0\.r1\.0 …/)
      .waitFor();
    await page.locator('[data-testid=picture][data-ready=true]').waitFor();
    await screenshot(page, 'cell-opened');
    await page.getByRole('button', { name: 'Back to the whole fabric' }).click();
    await page
      .locator('.legend')
      .getByText(/drawn as \d+ cells/)
      .waitFor();
  });

  it.each([
    ['bgl/bgl-midplane-512', 'bgl-midplane-512', /^Drawn planes of the cube, each ring folded/, /^from \(e\.g\. x0\.y0\.z0\)$/],
    ['anton2/anton2-4x4x1-16', 'anton2-4x4x1-16', /^Drawn planes of the cube, each ring folded/, /^from \(e\.g\. x0\.y0\.z0\)$/],
    ['flattened-butterfly/fb-4k-16ary-3flat', 'fb-4k-16ary-3flat', /^Drawn by dimension/, /^from \(e\.g\. \S+\.t0\)$/],
  ])('draws %s in its family’s layout, read from the API, and suggests its own names to trace', async (fixture, name, legend, from) => {
    await service.gql('mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id } }', { input: { fixture } }, service.bootstrapKey!);
    await signIn(service.bootstrapKey!);
    await page.getByRole('button', { name, exact: true }).click();
    await page.locator('[data-testid=picture][data-ready=true]').waitFor();
    await expect(page.locator('.legend').textContent()).resolves.toMatch(legend);
    // Issue 54: every family was offered BlackWidow's p0 and p31.
    await expect(page.getByLabel('from').getAttribute('placeholder')).resolves.toMatch(from);
    await screenshot(page, `picture-${name}`);
  });

  it('shows a long channel load’s progress, gives it up on Cancel, and shows it when run to the end', async () => {
    // Uniform traffic on a BlueGene/L midplane: 261,632 flows, a couple of seconds of counting.
    const loaded = await service.gql<{ loadFabric: { id: string } }>(
      'mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id } }',
      { input: { fixture: 'bgl/bgl-midplane-512', name: 'midplane-heat' } },
      service.bootstrapKey!,
    );
    const configured = await service.gql(
      'mutation($input: FabricIdInput!) { configureFabric(input: $input) { verified } }',
      { input: { fabricId: loaded.data!.loadFabric.id } },
      service.bootstrapKey!,
    );
    expect(configured.errors).toBeUndefined();
    await signIn(service.bootstrapKey!);
    await page.getByRole('button', { name: 'midplane-heat', exact: true }).click();
    await page.locator('[data-testid=picture][data-ready=true]').waitFor();
    await page.getByLabel('pattern').selectOption('uniform-random');
    await page.getByRole('button', { name: 'Show load' }).click();
    const progress = page.getByTestId('load-progress');
    await progress.waitFor();
    await expect(progress.locator('progress').count()).resolves.toBe(1);
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await progress.waitFor({ state: 'detached' });
    await expect(page.getByTestId('channel-load').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Show load' }).click();
    await expect(page.getByTestId('channel-load').locator('p').textContent({ timeout: 50_000 })).resolves.toMatch(/^uniform-random: busiest channel \d\.\d{3}/);
  });

  it('offers a viewer key no control that changes anything', async () => {
    const created = await service.gql<{ createApiKey: { key: string } }>(
      'mutation { createApiKey(input: { name: "console viewer", role: viewer }) { key } }',
      {},
      service.bootstrapKey!,
    );
    await signIn(created.data!.createApiKey.key);
    await expect(page.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Load' }).count()).resolves.toBe(0);
    await openFabric();
    await clickCable('p7', 0);
    await page.getByTestId('details').waitFor();
    await expect(page.getByRole('button', { name: 'Declare fault' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Events' }).click();
    await page.locator('.event-log tr').first().waitFor();
    await expect(page.getByRole('button', { name: 'Acknowledge' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Drills' }).click();
    await page.locator('ul.shipped li').first().waitFor();
    await expect(page.getByRole('button', { name: /^Start / }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Audit log' }).count()).resolves.toBe(0);
    await screenshot(page, 'viewer');
  });

  it('serves its own GraphQL explorer at /graphql, which runs a query with the key', async () => {
    await signIn(service.bootstrapKey!);
    await page.goto(`${service.url}/graphql`);
    await page.locator('.graphiql-execute-button').waitFor();
    await page.locator('.graphiql-execute-button').click();
    await page.getByText('"bw-r1-32"').first().waitFor();
    await screenshot(page, 'explorer');
  });
});
