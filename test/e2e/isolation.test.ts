// Cross-origin isolation on a static host that sends no headers: the service worker serves the
// app with COOP and COEP (src/sw.ts), and the page reloads itself once when the worker takes over
// (src/ui/shell/isolation.ts), after which it — and the runtime worker — are isolated, and Settings
// says a local model runs multi-threaded.

import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addLocalModelFiles, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

const browser = freshBrowserPerTest();
let host: StaticServer;

beforeAll(async () => {
  host = await serveStatic(join(import.meta.dirname, '../../dist'));
});
afterAll(() => host.close());

it('is isolated once its service worker serves it, after one reload, and only one', async () => {
  const { page } = browser;
  const loads: string[] = [];
  page.on('load', () => loads.push(page.url()));
  const first = await page.goto(host.url);
  expect(first?.headers()['cross-origin-embedder-policy']).toBeUndefined();
  await page.waitForFunction(() => crossOriginIsolated, null, { timeout: 30_000 });
  await waitReady(page);
  expect(loads).toHaveLength(2);
  const worker = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const code = 'postMessage(self.crossOriginIsolated)';
        const blob = new Blob([code], { type: 'text/javascript' });
        new Worker(URL.createObjectURL(blob)).onmessage = (event) => resolve(event.data);
      }),
  );
  expect(worker).toBe(true);
  // A later visit comes from the worker at once: isolated, no reload.
  await page.reload();
  await waitReady(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  expect(loads).toHaveLength(3);

  // And Settings says the local model runs on threads: the runtime worker loads it on them.
  const providers = await addLocalModelFiles(page, {
    name: 'tiny.gguf',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(tinyGguf()),
  });
  await providers.getByText(/^Runs multi-threaded \(\d+ threads\)/).waitFor();
  await providers.getByRole('button', { name: 'Load', exact: true }).click();
  await providers
    .getByLabel('Local model state')
    .filter({ hasText: /^Loaded in this tab \(\d+ threads\)/ })
    .waitFor({ timeout: 60_000 });
  expect(browser.errors).toEqual([]);
}, 180_000);
