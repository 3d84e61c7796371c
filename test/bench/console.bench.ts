/**
 * The console's picture of the 32K-processor BlackWidow fabric (issue 39: first paint under 2 s),
 * in Debian's Chromium against the built service: from opening the fabric to the picture drawn
 * (the fabricPicture query — aggregated into cells, as a fabric of 45,056 chips and 454,656
 * cables is — and its first WebGL frame), a zoom, and a cell opened to its chips.
 */
import { Browser, Page } from 'playwright-core';
import type { WeftPictureHook } from '../../apps/console/src/picture-hook';
import { launchChromium } from '../e2e/support/browser';
import { Benchmark, Measurement } from './harness';
import { ServiceProcess, serviceQuery, startServiceProcess, stopServiceProcess } from './service-process';

declare const window: { weftPicture?: WeftPictureHook };
declare const document: { querySelector(s: string): { dataset: Record<string, string> } | null };
declare const sessionStorage: { setItem(k: string, v: string): void };

const FIXTURE = 'blackwidow/bw-r3.5-32k';
let service: ServiceProcess | undefined;
let browser: Browser | undefined;

async function openPicture(page: Page): Promise<{ wallMs: number; firstPaintMs: number }> {
  const began = Date.now();
  await page.getByRole('button', { name: 'bw-r3.5-32k' }).click();
  await page.locator('[data-testid=picture][data-ready=true]').waitFor({ timeout: 120_000 });
  const wallMs = Date.now() - began;
  const firstPaintMs = Number(await page.evaluate(() => document.querySelector('[data-testid=picture]')!.dataset.firstPaintMs));
  return { wallMs, firstPaintMs };
}

async function run(): Promise<Measurement> {
  const context = await browser!.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript((key) => sessionStorage.setItem('weft.apiKey', key), service!.key);
  await page.goto(service!.url);
  const opened = await openPicture(page);
  const zoomMs = await page.evaluate(() => window.weftPicture!.zoom(4));
  const cellBegan = Date.now();
  await page.evaluate(() => window.weftPicture!.openCell(40));
  await page.waitForFunction(() => document.querySelector('[data-testid=picture]')!.dataset.ready === 'true', undefined, { timeout: 60_000 });
  const openCellMs = Date.now() - cellBegan;
  await context.close();
  return { ms: opened.wallMs, firstPaintMs: opened.firstPaintMs, zoomMs, openCellMs };
}

export const benchmarks: Benchmark[] = [
  {
    name: 'console: the 32K-processor fabric’s picture in Chromium — open to first paint, a zoom, a cell opened',
    parameters: { fixture: FIXTURE, chips: 45056, cables: 454656, browser: 'Debian chromium, SwiftShader WebGL' },
    isolated: true,
    warmup: 1,
    runs: 5,
    setup: async () => {
      service = await startServiceProcess('console-bench', { WEFT_DEFAULT_FIXTURE: 'none' });
      await serviceQuery(service, 'mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id } }', { input: { fixture: FIXTURE } });
      browser = await launchChromium();
    },
    run,
    teardown: async () => {
      await browser?.close();
      if (service) await stopServiceProcess(service);
      service = undefined;
    },
  },
];
