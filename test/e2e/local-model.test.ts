// A local GGUF model in the app, offline: Settings → Providers → Add local model copies the tiny
// test model (test/support/tiny-gguf.ts) into the browser, an agent with the calculator runs on
// it, its call and answer come back streamed; Stop stops it, and a reload mid-run resumes once
// the model is loaded again. The tiny model is steered (bigrams) to start every reply with "{"
// and to write "6*7" in a string, so under the tools grammar it calls calculator(6*7).

import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addLocalModelFiles,
  messages,
  openApp,
  openOffline,
  region,
  waitReady,
} from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

const browser = freshBrowserPerTest();
const QUESTION = 'What is 6 * 7?';
let directory: string;
let modelPath: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'trellis-local-model-'));
  modelPath = join(directory, 'tiny.gguf');
  const bigrams: [string, string][] = [
    ['\n', '{'],
    ['"', '6'],
    ['6', '*'],
    ['*', '7'],
    ['7', '"'],
    ['.', '</s>'],
  ];
  writeFileSync(modelPath, tinyGguf({ bigrams }));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * Settings → Providers → Add local model (with `contextTokens`, if given, as its context size),
 * then an agent on it, with the calculator unless `tools` is false.
 */
async function addLocalAgent(
  page: Page,
  { tools = true, contextTokens }: { tools?: boolean; contextTokens?: number } = {},
): Promise<void> {
  const providers = await addLocalModelFiles(page, modelPath);
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “tiny” \(\d+ KB\)\.$/ })
    .waitFor();
  await providers
    .getByText(/^tiny\.gguf, \d+ KB: kept in this browser’s private storage/)
    .waitFor();
  // The preview server sends COOP and COEP: the page is isolated, so threads can share memory.
  await providers.getByText(/^Runs multi-threaded \(\d+ threads\)/).waitFor();
  expect(await providers.getByRole('navigation', { name: 'Provider list' }).innerText()).toMatch(
    /tiny\s+Local model \(GGUF\), \d+ KB/,
  );
  if (contextTokens !== undefined) {
    await providers.getByLabel('Context size (tokens)').fill(String(contextTokens));
    await providers.getByRole('button', { name: 'Save' }).click();
    await providers
      .getByRole('status')
      .filter({ hasText: /^Saved/ })
      .waitFor();
  }

  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name').fill('calc');
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByLabel('Model').fill('tiny.gguf');
  await agents.getByLabel('Instruction').fill('Do sums with the calculator.');
  if (tools)
    await agents
      .getByRole('group', { name: 'Tools' })
      .getByLabel('calculator', { exact: true })
      .check();
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('status').filter({ hasText: 'Saved “calc”' }).waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).inputValue())
    .toMatch(/^agent:/);
}

/** Counts the streaming bubbles that appear, from now on. */
async function watchStreaming(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = window as unknown as { streamed: number };
    seen.streamed = 0;
    new MutationObserver(() => {
      if (document.querySelector('.streaming')) seen.streamed++;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const streamed = (page: Page) =>
  page.evaluate(() => (window as unknown as { streamed: number }).streamed);

it('runs an agent on a local model offline: a calculator call, its result, a streamed answer', async () => {
  const { page } = browser;
  await openOffline(page);
  await addLocalAgent(page);
  await watchStreaming(page);

  await page.getByLabel('Message').fill(QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  const chat = region(page, 'Conversation');
  const call = chat.locator('.tool-call', { hasText: 'calculator(expression=6*7)' });
  await call.first().locator('.status.done').waitFor({ timeout: 60_000 });
  await page
    .getByRole('button', { name: 'Send' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 60_000 });

  // The result went back to the model, which called again (up to its four calls a turn) and then answered.
  await call.first().locator('summary').click();
  expect(await call.first().locator('.tool-result').innerText()).toMatch(/"value": 42/);
  expect(await chat.locator('.tool-call').count()).toBe(4);
  const said = await messages(page);
  expect(said[0]).toBe(QUESTION);
  expect(said).toHaveLength(2);
  expect(said[1]!.length).toBeGreaterThan(0);
  expect(await streamed(page)).toBeGreaterThan(0);
  expect(browser.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
}, 120_000);

it('stops a local model with Stop, and resumes a run cut by a reload once the model is loaded again', async () => {
  const { page } = browser;
  await openOffline(page);
  await addLocalAgent(page);
  const chat = region(page, 'Conversation');
  const calls = chat.locator('.tool-call');

  await page.getByLabel('Message').fill(QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  await calls.first().locator('.status.done').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  // A stopped run carries on with the turn's own Continue (Resume, by another name).
  const resume = chat.getByRole('button', { name: 'Continue' });
  await resume.waitFor();
  const stoppedAt = await calls.count();
  expect(stoppedAt).toBeLessThan(4);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(await calls.count()).toBe(stoppedAt);

  // Resumed, then cut by a reload mid-run: Resume again finishes it, the model loaded anew.
  await resume.click();
  await calls.nth(stoppedAt).locator('.status.done').waitFor({ timeout: 60_000 });
  await page.reload();
  await waitReady(page);
  await page.getByRole('button', { name: /^Resume/ }).click();
  await page
    .getByRole('button', { name: 'Send' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 60_000 });
  await expect.poll(() => messages(page)).toHaveLength(2);
  expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);
  expect(await calls.count()).toBe(4);
  expect(browser.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
}, 180_000);

it('answers a conversation longer than the context it was given, without its oldest turns, and says so', async () => {
  const { page } = browser;
  await openApp(page);
  // The tiny model reads a character a token: a message of 400 characters is some 400 tokens.
  await addLocalAgent(page, { tools: false, contextTokens: 1024 });
  const chat = region(page, 'Conversation');
  for (let n = 1; n <= 4; n++) {
    await page.getByLabel('Message').fill(`Message ${n}: ${'word '.repeat(80)}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByRole('button', { name: 'Send' })
      .and(page.locator(':enabled'))
      .waitFor({ timeout: 60_000 });
  }
  // Every message answered: none failed with llama.cpp's "exceeds the available context size".
  expect(await chat.locator('.chat-error').allInnerTexts()).toEqual([]);
  await expect.poll(() => messages(page)).toHaveLength(8);
  const notes = await chat.locator('.chat-note').allInnerTexts();
  expect(notes.at(-1)).toMatch(
    /^The oldest (turn was|\d+ turns were) left out of this request to fit the model’s context \(1,024 tokens\); the session still has (it|them)\.$/,
  );
  // Settings says the context it runs with, and the model's own.
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  await expect
    .poll(() => region(page, 'Providers').getByLabel('Local model state').innerText())
    .toMatch(/A request may fill 1,024 tokens \(the model’s own context: 2,048\)\.$/);
  expect(browser.errors).toEqual([]);
}, 180_000);

/** The files in the app's OPFS models directory, with their sizes. */
const storedModels = (page: Page) =>
  page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const directory = await root.getDirectoryHandle('models', { create: true });
    const files: number[] = [];
    for await (const handle of directory.values())
      if (handle.kind === 'file')
        files.push((await (handle as FileSystemFileHandle).getFile()).size);
    return files;
  });

it('keeps one copy of the file in the browser, and deletes it with the provider', async () => {
  const { page } = browser;
  await openApp(page);
  const providers = await addLocalModelFiles(page, modelPath);
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “tiny”/ })
    .waitFor();
  expect(await storedModels(page)).toEqual([statSync(modelPath).size]);

  await providers.getByRole('button', { name: 'Delete tiny' }).click();
  await expect.poll(() => providers.getByRole('button', { name: 'Delete tiny' }).count()).toBe(0);
  // Until its Undo has had its time (or is dismissed), the file is kept: Undo gives it back.
  const undo = page
    .locator('.undo-item')
    .filter({ hasText: /^Deleted the provider “tiny” and its file \(\d+ KB\)\./ });
  await undo.waitFor();
  expect(await storedModels(page)).toEqual([statSync(modelPath).size]);
  await undo.getByRole('button', { name: /^Dismiss/ }).click();
  await expect.poll(() => storedModels(page)).toEqual([]);
  expect(browser.errors).toEqual([]);
});
