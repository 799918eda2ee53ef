// IndexedDbMemoryService in real Chromium (the harness page of test/e2e/memory-harness/): the
// browser's own IndexedDB, two tabs' services on one database, a reload, and MiniSearch fetched
// with the first search, not before.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { freshBrowserPerTest } from './browser.ts';
import { serveHarness, type Harness } from './markdown-harness/serve.ts';

const browser = freshBrowserPerTest();

let harness: Harness;
beforeAll(async () => {
  harness = await serveHarness(fileURLToPath(new URL('./memory-harness/', import.meta.url)));
});
afterAll(() => harness?.close());

async function open() {
  const { page } = browser;
  await page.goto(harness.url);
  await page.waitForFunction(() => 'memoryHarness' in window);
  return page;
}

it('fetches MiniSearch with the first search, not with the page', async () => {
  const page = await open();
  const before = await page.evaluate(() => window.memoryHarness.scripts());
  await page.evaluate(() => window.memoryHarness.remember('db', 's1', ['about owls']));
  expect(await page.evaluate(() => window.memoryHarness.scripts())).toEqual(before);
  expect(await page.evaluate(() => window.memoryHarness.search('db', 'owls'))).toEqual([
    'user: about owls',
  ]);
  const fetched = (await page.evaluate(() => window.memoryHarness.scripts())).filter(
    (script) => !before.includes(script),
  );
  expect(fetched).toHaveLength(1);
  const source = await page.evaluate((url) => fetch(url).then((r) => r.text()), fetched[0]!);
  expect(source).toContain('MiniSearch');
  expect(browser.errors).toEqual([]);
});

it('keeps memory in IndexedDB: another tab sees each write, and a reload keeps it', async () => {
  const page = await open();
  const ids = await page.evaluate(() =>
    window.memoryHarness.remember('db', 's1', ['my cat is Miso', 'Miso, noted'], 'a'),
  );
  // The shorter memory ranks first where both match as well.
  expect(await page.evaluate(() => window.memoryHarness.search('db', 'miso', 'b'))).toEqual([
    'agent: Miso, noted',
    'user: my cat is Miso',
  ]);
  await page.evaluate(() => window.memoryHarness.remember('db', 's2', ['Miso likes tuna'], 'b'));
  await page.evaluate((id) => window.memoryHarness.forget('db', 's1', [id], 'b'), ids[1]!);
  expect(await page.evaluate(() => window.memoryHarness.search('db', 'miso tuna', 'a'))).toEqual([
    'user: Miso likes tuna',
    'user: my cat is Miso',
  ]);
  expect(
    await page.evaluate(() => window.memoryHarness.search('db', 'miso', 'a', 'someone-else')),
  ).toEqual([]);

  await page.reload();
  await page.waitForFunction(() => 'memoryHarness' in window);
  const afterReload = await page.evaluate(() => window.memoryHarness.search('db', 'miso'));
  expect(afterReload.sort()).toEqual(['user: Miso likes tuna', 'user: my cat is Miso']);
  expect(browser.errors).toEqual([]);
});
