// Issue 34's "done": in Chromium with the network off, a user adds a PDF and two Markdown files to
// a knowledge base, gives an agent on a local model (the tiny test GGUF) the base, asks a question
// whose answer is on page 3 of the PDF, and the answer's sources cite it; then Flowise's own Simple
// RAG template, imported, runs on that base (on the flows' offline demo model) and its answer
// quotes page 3 with [1]. pdf.js and Orama load only when a base is used.
//
// The tiny model is steered (bigrams) to open every reply with "{" and to write "Zorbia" in a
// string: under the tools grammar it calls search_knowledge(query="Zorbia").

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makePdf } from '../support/make-pdf.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';
import { addLocalModelFiles, messages, openOffline, region } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import {
  addFiles,
  importSimpleRag,
  makeBase,
  openKnowledge,
  waitIndexed,
} from './knowledge-page.ts';
import { addAgent } from './model-setup.ts';

const browser = freshBrowserPerTest();
const QUESTION = 'What is the capital of Zorbia?';
let directory: string;
let modelPath: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'trellis-knowledge-offline-'));
  modelPath = join(directory, 'tiny.gguf');
  const word = 'Zorbia';
  const bigrams: [string, string][] = [
    ['\n', '{'],
    ['"', word[0]!],
    ...[...word].slice(1).map((char, i): [string, string] => [word[i]!, char]),
    [word.at(-1)!, '"'],
    ['.', '</s>'],
  ];
  // A context room enough for the sources of its four searches.
  writeFileSync(modelPath, tinyGguf({ bigrams, contextLength: 8192 }));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const sourcesOf = (page: Page) =>
  region(page, 'Conversation').getByRole('region', { name: 'Sources' }).last();

it('offline: a PDF and two Markdown files, an agent on a local model cites page 3, and Simple RAG runs on the base', async () => {
  const { page } = browser;
  const pdf = await makePdf([
    ['An atlas.', '', 'Chapter one is about the weather of the high plains.'],
    ['The rivers of the north run cold in spring.'],
    ['The capital of Zorbia is Quillon, a city of bridges.'],
    ['Trade: wool, salt and amber.'],
  ]);
  await openOffline(page);
  // What the page and its workers fetch (from the service worker's cache, offline).
  const fetched: string[] = [];
  browser.context.on('request', (request) => fetched.push(request.url()));

  const view = await openKnowledge(page);
  await makeBase(view, 'Atlas', 'An atlas of Zorbia');
  expect(fetched.filter((url) => /\/assets\/(pdf|browser)-/.test(url))).toEqual([]);
  await addFiles(view, [
    { name: 'atlas.pdf', mimeType: 'application/pdf', text: Buffer.from(pdf) },
    {
      name: 'food.md',
      mimeType: 'text/markdown',
      text: '# Food\n\n## Fish\n\nVey trout are grilled.',
    },
    { name: 'rivers.md', mimeType: 'text/markdown', text: '# Rivers\n\nThe Vey runs to the sea.' },
  ]);
  for (const name of ['atlas.pdf', 'food.md', 'rivers.md']) await waitIndexed(view, name);
  expect(await view.getByText(/4 pages/).count()).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Back to the chat' }).click();

  // An agent on the local model, given the base.
  const providers = await addLocalModelFiles(page, modelPath);
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “tiny”/ })
    .waitFor();
  await providers.getByLabel('Context size (tokens)').fill('8192');
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers
    .getByRole('status')
    .filter({ hasText: /^Saved/ })
    .waitFor();
  await addAgent(page, 'reader', 'tiny.gguf', [], ['Atlas']);
  await page.getByLabel('Message').fill(QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  const chat = region(page, 'Conversation');
  await chat
    .locator('.tool-call', { hasText: 'search_knowledge(query=Zorbia' })
    .first()
    .locator('.status.done')
    .waitFor({ timeout: 90_000 });
  await page
    .getByRole('button', { name: 'Send' })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 90_000 });
  const cited = sourcesOf(page).getByRole('button', { name: /^\[1\] atlas\.pdf — page 3/ });
  await cited.waitFor();
  await cited.click();
  const viewer = page.getByRole('dialog');
  expect(await viewer.locator('mark').innerText()).toContain('The capital of Zorbia is Quillon');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });

  // Flowise's Simple RAG, its store given the base, in a new session.
  await page.getByRole('button', { name: 'New session' }).click();
  const flows = await importSimpleRag(page);
  const form = flows.getByRole('region', { name: 'Node qna' });
  await form.getByLabel('Knowledge base, row 1').selectOption({ label: 'Atlas' });
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “Simple RAG”/ })
    .waitFor();
  await flows.getByRole('button', { name: 'Use in this session' }).click();
  await page.getByLabel('Message').fill(QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect
    .poll(async () => (await messages(page)).at(-1), { timeout: 60_000 })
    .toBe('The capital of Zorbia is Quillon, a city of bridges. [1]');
  await sourcesOf(page)
    .getByRole('button', { name: /^\[1\] atlas\.pdf — page 3/ })
    .waitFor();
  expect(fetched.some((url) => /\/assets\/browser-/.test(url))).toBe(true);
  expect(browser.errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
}, 240_000);
