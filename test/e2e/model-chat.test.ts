// "Chat with a model" in real Chromium against the fixture model server: a user with a provider
// chooses "A model, with this chat's settings" in the Agent select, sets this chat's model,
// system prompt and temperature in Model settings, chats (the server gets what they say), changes
// the temperature mid-chat, and rewinds the change: the header and the next request are back to
// the first settings. A bad value is refused in the form, and nothing is sent. The files a chat
// takes are its own provider's.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chooseAgent, messages, openApp, region, say } from './app-page.ts';
import { addProvider } from './model-setup.ts';
import { freshBrowserPerTest } from './browser.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-e2e-chat-settings-0000-1111';
const PAPER = join(mkdtempSync(join(tmpdir(), 'trellis-model-chat-')), 'paper.pdf');
writeFileSync(PAPER, '%PDF-1.4\n% a tiny file that only looks like a PDF\n');

/** The bodies of the chat completions the server got since `from` (not the CORS preflights). */
const sentSince = (from: number) =>
  server.requests
    .slice(from)
    .filter((request) => request.method === 'POST' && request.path.endsWith('/chat/completions'))
    .map((request) => request.body as Record<string, unknown>);

async function saveSettings(page: Page, fields: Record<string, string>) {
  const bar = region(page, 'Model settings');
  await bar.getByRole('button', { name: 'Model settings' }).click();
  for (const [label, value] of Object.entries(fields))
    await bar.getByLabel(label, { exact: true }).fill(value);
  await bar.getByRole('button', { name: 'Save settings' }).click();
}

it("chats with a provider's model on this chat's settings, and a rewind takes a change back", async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url, KEY);
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await chooseAgent(page, /with this chat/);
  const bar = region(page, 'Model settings');
  await bar.getByText('Fixture · fixture-text').waitFor();

  await saveSettings(page, {
    'System prompt': 'Answer like a {pirate}.',
    Temperature: '0.3',
    'Max output tokens': '200',
  });
  await bar
    .getByText('Fixture · fixture-text · temperature 0.3 · max 200 tokens · system prompt')
    .waitFor();
  const chat = region(page, 'Conversation');
  await chat
    .getByText('Model settings: default model · temperature 0.3 · max 200 tokens · system prompt')
    .waitFor();

  let from = server.requests.length;
  await say(page, 'Why is the sky blue?');
  let [sent] = sentSince(from);
  expect(sent).toMatchObject({ model: 'fixture-text', temperature: 0.3, max_tokens: 200 });
  expect(JSON.stringify(sent!.messages)).toContain('Answer like a {pirate}.');
  expect(await messages(page)).toContain('The sky is blue because air scatters blue light most.');

  // Warmer, mid-chat: a turn of its own in History.
  await saveSettings(page, { Temperature: '1.2' });
  await bar.getByText(/temperature 1\.2/).waitFor();
  from = server.requests.length;
  await say(page, 'And at sunset?');
  [sent] = sentSince(from);
  expect(sent!.temperature).toBe(1.2);

  // Rewind to before the change: the first settings are back, in the header and the next request.
  const history = region(page, 'History');
  // The second change, the latest row so named.
  await history.getByRole('button', { name: 'Model settings changed' }).last().click();
  await history.getByRole('button', { name: /^Rewind/ }).click();
  await bar.getByText(/temperature 0\.3/).waitFor();
  from = server.requests.length;
  await say(page, 'Once more?');
  [sent] = sentSince(from);
  expect(sent!.temperature).toBe(0.3);

  // A value out of range is refused in the form: nothing is stored, nothing is sent (opening the
  // form lists the provider's models, nothing more).
  const before = server.requests.length;
  await bar.getByRole('button', { name: 'Model settings' }).click();
  await bar.getByLabel('Top-p', { exact: true }).fill('1.5');
  await bar.getByRole('button', { name: 'Save settings' }).click();
  await bar
    .getByRole('alert')
    .filter({ hasText: 'Top-p must be a number above 0 and at most 1' })
    .waitFor();
  await bar.getByRole('button', { name: 'Cancel' }).click();
  await bar.getByText(/temperature 0\.3/).waitFor();
  expect(sentSince(before)).toEqual([]);
  expect((await page.content()).includes(KEY)).toBe(false);
});

it('continues an answer cut at the max output tokens, in a new turn', async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url, KEY);
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await chooseAgent(page, /with this chat/);
  await saveSettings(page, { Model: 'fixture-length@continue', 'Max output tokens': '8' });
  await region(page, 'Model settings')
    .getByText(/max 8 tokens/)
    .waitFor();
  await say(page, 'Why is the sky blue?');
  const chat = region(page, 'Conversation');
  await chat.getByText('The answer was cut off at the maximum number of output tokens.').waitFor();
  await chat.getByText('The sky is blue because air scatters', { exact: true }).waitFor();
  await chat.getByRole('button', { name: 'Continue' }).click();
  await chat.getByText('The sky is blue because air scatters blue light most.').waitFor();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  expect(await messages(page)).toEqual([
    'Why is the sky blue?',
    'The sky is blue because air scatters',
    'Continue.',
    'The sky is blue because air scatters blue light most.',
  ]);
  expect(await chat.getByRole('button', { name: 'Continue' }).count()).toBe(0);
});

it("takes the files its own provider's models take: a PDF on Gemini, not on an OpenAI-compatible server", async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url, KEY);
  // A Gemini provider too, named to sort first: a new chat's default.
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: 'Add Gemini' }).click();
  await providers.getByLabel('Name').fill('A Gemini');
  await providers.getByLabel('Base URL').fill(`${server.url}/v1beta`);
  await providers.getByLabel('API key').fill('key-gemini-e2e');
  await providers.getByLabel('Default model').fill('fixture-text');
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved “A Gemini”.' }).waitFor();
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await chooseAgent(page, /with this chat/);
  const bar = region(page, 'Model settings');
  await bar.getByText('A Gemini · fixture-text').waitFor();

  const picker = page.locator('.composer input[type=file]');
  const attached = page.getByRole('list', { name: 'Attachments' });
  await picker.setInputFiles([PAPER]);
  await attached.getByText('paper.pdf').waitFor();
  expect(await attached.locator('li.unsupported').count()).toBe(0);
  await page.getByRole('button', { name: 'Remove paper.pdf' }).click();

  // This chat on the OpenAI-compatible server instead: the PDF is refused as it is attached.
  await bar.getByRole('button', { name: 'Model settings' }).click();
  await bar.getByLabel('Provider').selectOption({ label: 'Fixture' });
  await bar.getByRole('button', { name: 'Save settings' }).click();
  await bar.getByText('Fixture · fixture-text').waitFor();
  await picker.setInputFiles([PAPER]);
  await page
    .getByRole('alert')
    .filter({ hasText: "paper.pdf can't go to this OpenAI-compatible server" })
    .waitFor();
  expect(await attached.locator('li.unsupported').innerText()).toContain('paper.pdf');
});
