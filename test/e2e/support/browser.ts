import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

/** Debian's Chromium (.ci/run installs the package; no browser is downloaded). */
export const CHROMIUM = process.env.WEFT_CHROMIUM ?? '/usr/bin/chromium';

/** Where the tests' screenshots go. */
export const SCREENSHOTS = join(__dirname, '../../../dist/test-output/console');

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium), as .ci/run does`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  // WebGL by SwiftShader, the software renderer Chromium ships: the picture draws on a machine without a GPU.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
}

/**
 * A browser context with the network cut: every request that does not go to the service is
 * aborted and recorded, so a test can fail on any attempt to reach outside the machine.
 */
export async function offlineContext(browser: Browser, serviceUrl: string): Promise<{ context: BrowserContext; outside: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const origin = new URL(serviceUrl).origin;
  const wsOrigin = origin.replace(/^http/, 'ws');
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort('internetdisconnected');
  });
  // WebSockets too: the service's own (graphql-ws) pass through untouched, any other is refused.
  await context.routeWebSocket(
    () => true,
    (ws) => {
      if (ws.url().startsWith(wsOrigin)) {
        ws.connectToServer();
        return;
      }
      outside.push(ws.url());
      void ws.close();
    },
  );
  return { context, outside };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
