// Add a local model by URL: the tiny test model (test/support/tiny-gguf.ts) served by a real
// HTTP server on 127.0.0.1 (test/support/range-server.ts, CORS and Range). The download shows
// its progress; a download cut in the middle continues with a Range request and the model then
// answers; a 404 and a file that is not GGUF give a clear message and no provider.

import type { Page } from 'playwright-core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openApp, region } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';
import { serveFile, type RangeServer } from '../support/range-server.ts';

const browser = freshBrowserPerTest();
// Every reply ends at the first '.', so the model answers quickly.
// Steered to answer "OK." and stop (random weights alone may stop at once, with nothing to see).
const MODEL = tinyGguf({
  bigrams: [
    ['\n', 'O'],
    ['O', 'K'],
    ['K', '.'],
    ['.', '</s>'],
  ],
});
let server: RangeServer;

beforeEach(async () => {
  server = await serveFile('/models/tiny.gguf', MODEL);
});
afterEach(() => server.close());

/** What the browser reported, less the failed loads these tests cause on purpose. */
const errors = () => browser.errors.filter((e) => !/Failed to load resource|ERR_|net::/.test(e));

async function openProviders(page: Page) {
  await openApp(page);
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  return region(page, 'Providers');
}

/** Every text the download's progress line shows, from now on. */
async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = window as unknown as { progress: string[] };
    seen.progress = [];
    new MutationObserver(() => {
      const line = document.querySelector('[aria-label="Download"]')?.textContent;
      if (line && seen.progress.at(-1) !== line) seen.progress.push(line);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const progress = (page: Page) =>
  page.evaluate(() => (window as unknown as { progress: string[] }).progress);

it('downloads a model with its progress shown, and it becomes a local provider', async () => {
  const { page } = browser;
  const providers = await openProviders(page);
  await watchProgress(page);
  await providers.getByLabel('Model URL').fill(server.url);
  await providers.getByRole('button', { name: 'Download' }).click();
  await providers
    .getByRole('status')
    .filter({ hasText: /^Downloaded “tiny”\.$/ })
    .waitFor();
  const percents = (await progress(page))
    .map((line) => /^Downloaded [\d.]+ KB of [\d.]+ KB \((\d+)%\)…$/.exec(line)?.[1])
    .filter((percent) => percent !== undefined)
    .map(Number);
  expect(percents.some((percent) => percent > 0 && percent < 100)).toBe(true);
  expect(server.ranges).toEqual(['']);
  expect(await providers.getByRole('navigation', { name: 'Provider list' }).innerText()).toMatch(
    /tiny\s+Local model \(GGUF\), \d+ KB/,
  );
  await providers
    .getByText(/^tiny\.gguf, \d+ KB: kept in this browser’s private storage/)
    .waitFor();
  expect(errors()).toEqual([]);
});

it('continues a download cut in the middle with a Range request, and the model answers', async () => {
  const { page } = browser;
  const providers = await openProviders(page);
  const cut = Math.floor(MODEL.length / 2);
  server.cutAfter(cut);
  await providers.getByLabel('Model URL').fill(server.url);
  await providers.getByRole('button', { name: 'Download' }).click();
  const alert = providers.getByRole('alert');
  await alert.filter({ hasText: /What was downloaded is kept/ }).waitFor();
  expect(await alert.innerText()).toMatch(/Access-Control-Allow-Origin/);
  expect(
    await providers.getByRole('navigation', { name: 'Provider list' }).innerText(),
  ).not.toMatch(/Local model/);

  await providers.getByRole('button', { name: 'Download' }).click();
  await providers
    .getByRole('status')
    .filter({ hasText: /^Downloaded “tiny”\.$/ })
    .waitFor();
  expect(server.ranges).toHaveLength(2);
  expect(server.ranges[0]).toBe('');
  const from = Number(/^bytes=(\d+)-$/.exec(server.ranges[1]!)?.[1]);
  expect(from).toBeGreaterThan(0);
  expect(from).toBeLessThanOrEqual(cut);

  // The resumed file is whole: an agent on it answers.
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name').fill('talk');
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByLabel('Model').fill('tiny.gguf');
  await agents.getByLabel('Instruction').fill('Answer briefly.');
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('status').filter({ hasText: 'Saved “talk”' }).waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  await page.getByLabel('Message').fill('Hello');
  await page.getByRole('button', { name: 'Send' }).click();
  await page
    .getByRole('button', { name: 'Send' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 90_000 });
  // The tiny model's words are random (a reply may be only spaces): its usage line says it answered.
  expect(await region(page, 'Conversation').innerText()).toMatch(
    /tiny\.gguf · \d+ in · [1-9]\d* out/,
  );
  expect(errors()).toEqual([]);
}, 150_000);

it('says what went wrong with a 404 or a file that is not GGUF, and adds no provider', async () => {
  const { page } = browser;
  const providers = await openProviders(page);
  await providers.getByLabel('Model URL').fill(`${server.origin}/models/missing.gguf`);
  await providers.getByRole('button', { name: 'Download' }).click();
  await providers
    .getByRole('alert')
    .filter({
      hasText:
        /^The server answered 404 Not Found for http:\/\/127\.0\.0\.1:\d+\/models\/missing\.gguf$/,
    })
    .waitFor();

  const text = await serveFile('/notes.gguf', new TextEncoder().encode('not a model at all'));
  try {
    await providers.getByLabel('Model URL').fill(text.url);
    await providers.getByRole('button', { name: 'Download' }).click();
    await providers
      .getByRole('alert')
      .filter({ hasText: /notes\.gguf is not a GGUF model file/ })
      .waitFor();
  } finally {
    await text.close();
  }
  expect(
    await providers.getByRole('navigation', { name: 'Provider list' }).innerText(),
  ).not.toMatch(/Local model/);
  expect(errors()).toEqual([]);
});
