// A local model's life in the tab, in Chromium with the real wllama: Settings → Providers shows
// whether it is loaded, Load loads it (then its threads and memory are shown), Unload frees it,
// and loading a second model unloads the first. A model split into parts (as llama-gguf-split
// writes them) is added by picking all its parts, and loads; a part alone is refused, saying why.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApp, region } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { splitGguf } from '../support/gguf-split.ts';
import { partName } from '../../src/models/local/gguf-split.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

const browser = freshBrowserPerTest();
let directory: string;
const path = (name: string) => join(directory, name);

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'trellis-local-runtime-'));
  writeFileSync(path('tiny.gguf'), tinyGguf());
  writeFileSync(path('other.gguf'), tinyGguf({ seed: 7 }));
  splitGguf(tinyGguf({ seed: 3 }), 3).forEach((part, i) =>
    writeFileSync(path(partName('split', i + 1, 3)), part),
  );
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function openProviders(page: Page) {
  await openApp(page);
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  return region(page, 'Providers');
}

async function addFiles(page: Page, names: string[]): Promise<void> {
  const providers = region(page, 'Providers');
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    providers.getByRole('button', { name: 'Add local model' }).click(),
  ]);
  await chooser.setFiles(names.map(path));
}

const state = (page: Page) => region(page, 'Providers').getByLabel('Local model state');

it('loads on Load, shows its threads and memory, unloads on Unload, one model at a time', async () => {
  const { page } = browser;
  const providers = await openProviders(page);
  await addFiles(page, ['tiny.gguf']);
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “tiny”/ })
    .waitFor();
  await expect.poll(() => state(page).innerText()).toMatch(/^Not loaded in this tab/);

  await providers.getByRole('button', { name: 'Load', exact: true }).click();
  await state(page)
    .filter({ hasText: /^Loaded in this tab/ })
    .waitFor({ timeout: 30_000 });
  // vite preview sends COOP and COEP: the worker runs the model on threads. Its context is the
  // model's own (tinyGguf's 2,048 tokens).
  expect(await state(page).innerText()).toMatch(
    /^Loaded in this tab \((\d+) threads\), in [\d.]+ s\. In memory: about 989 KB: the weights \(the file, [\d.]+ KB\) and the context cache for 2,048 tokens \(512 KB\)/,
  );

  await providers.getByRole('button', { name: 'Unload', exact: true }).click();
  await state(page)
    .filter({ hasText: /^Unloaded\. Not loaded in this tab/ })
    .waitFor();

  // Two models: loading the second unloads the first.
  await providers.getByRole('button', { name: 'Load', exact: true }).click();
  await state(page)
    .filter({ hasText: /^Loaded/ })
    .waitFor({ timeout: 30_000 });
  await addFiles(page, ['other.gguf']);
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “other”/ })
    .waitFor();
  await providers.getByRole('button', { name: 'Load', exact: true }).click();
  await state(page)
    .filter({ hasText: /^Loaded/ })
    .waitFor({ timeout: 30_000 });
  await providers.getByRole('button', { name: 'tiny', exact: true }).click();
  await state(page)
    .filter({ hasText: /^Unloaded to make room for other\. Not loaded/ })
    .waitFor();
  expect(browser.errors).toEqual([]);
}, 180_000);

it('adds a model split into parts from all of them, and loads it; refuses a part alone', async () => {
  const { page } = browser;
  const providers = await openProviders(page);
  await addFiles(page, [partName('split', 2, 3)]);
  await providers
    .getByRole('alert')
    .filter({
      hasText:
        'split-00002-of-00003.gguf is part 2 of a model split into 3 files: pick all 3 parts together',
    })
    .waitFor();

  await addFiles(
    page,
    [1, 2, 3].map((no) => partName('split', no, 3)),
  );
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “split”/ })
    .waitFor();
  await providers.getByRole('button', { name: 'Load', exact: true }).click();
  await state(page)
    .filter({ hasText: /^Loaded in this tab/ })
    .waitFor({ timeout: 30_000 });
  expect(browser.errors).toEqual([]);
});
