// A local model loads on its agent's first message, and the chat says so while the turn waits:
// which model, how much of its file is read, how long it has taken, and a bar; then the answer
// takes its place. In Chromium with the real wllama, on a test model big enough (about 100 MB)
// that reading it takes longer than the chat's first look (300 ms after Send).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addLocalModelFiles, messages, openApp, region } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

const browser = freshBrowserPerTest();
let directory: string;
let modelPath: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'trellis-local-loading-'));
  modelPath = join(directory, 'big.gguf');
  // Steered to answer "ok" and stop (its reply follows the template's "assistant\n").
  const bigrams: [string, string][] = [
    ['\n', 'o'],
    ['o', 'k'],
    ['k', '</s>'],
  ];
  writeFileSync(modelPath, tinyGguf({ embeddingLength: 512, blockCount: 8, bigrams }));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('shows the model loading in the chat while the first message waits for it', async () => {
  const { page } = browser;
  await openApp(page);
  const providers = await addLocalModelFiles(page, modelPath);
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “big”/ })
    .waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name').fill('chatty');
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByLabel('Model').fill('big.gguf');
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('status').filter({ hasText: 'Saved “chatty”' }).waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).inputValue())
    .toMatch(/^agent:/);

  // Every loading line the chat shows, as it changes.
  await page.evaluate(() => {
    const seen = window as unknown as { loading: string[] };
    seen.loading = [];
    new MutationObserver(() => {
      const line = document.querySelector('.chat .model-loading');
      const text = line?.textContent ?? '';
      if (text && seen.loading.at(-1) !== text && line?.querySelector('progress'))
        seen.loading.push(text);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await page.getByLabel('Message').fill('Hello');
  await page.getByRole('button', { name: 'Send' }).click();
  await page
    .getByRole('button', { name: 'Send' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 60_000 });

  const loading = await page.evaluate(() => (window as unknown as { loading: string[] }).loading);
  expect(loading.length).toBeGreaterThan(0);
  for (const line of loading)
    expect(line).toMatch(
      /^Loading the local model “big” in this tab… \d+% \([\d.]+ [KM]?B of [\d.]+ MB read\), \d+ s\.$/,
    );
  const percents = loading.map((line) => Number(/(\d+)%/.exec(line)![1]));
  expect(percents).toEqual([...percents].sort((a, b) => a - b));
  // The answer took its place.
  expect(await page.locator('.chat .model-loading').count()).toBe(0);
  expect(await messages(page)).toEqual(['Hello', 'ok']);
  expect(browser.errors).toEqual([]);
}, 120_000);
