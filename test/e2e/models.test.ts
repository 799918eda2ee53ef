// Real models in the app, against the fixture model server (another origin, with CORS): a
// provider set up in Settings → Providers, an agent made in the agent builder that calls the
// built-in calculator, its answer streamed, a reload mid-answer resumed, a rewind and a new
// turn; a server that goes away interrupts the run, and Resume finishes it once it is back.
// The key typed in never shows in the page or in an exported file.

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages, openApp, region, say, waitReady } from './app-page.ts';
import { addAgent as addAgentWith, addProvider as addProviderWith } from './model-setup.ts';
import { freshBrowserPerTest } from './browser.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-e2e-secret-5f4e3d2c1b0a-9876';
const QUESTION = 'What is 6 * 7?';
const addProvider = (page: Page, url: string) => addProviderWith(page, url, KEY);
const addAgent = (page: Page, name: string, model: string, tools?: string[]) =>
  addAgentWith(page, name, model, tools);
const ANSWER = 'The calculator says 6 × 7 = 42.';

const keyInPage = async (page: Page) => (await page.content()).includes(KEY);

it('sets up a provider and an agent, streams its tool call and answer, resumes after a reload, rewinds', async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url);
  await addAgent(page, 'calc', 'fixture-calculator-stall@e2e');

  // The tool runs, then the answer streams in and stalls: it shows live, then a reload cuts it.
  await page.getByLabel('Message').fill(QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  const chat = region(page, 'Conversation');
  await chat.locator('.tool-call', { hasText: 'calculator(expression=6 * 7)' }).waitFor();
  await chat.locator('.tool-call .status.done').waitFor();
  await chat.locator('.streaming', { hasText: 'The calculator says' }).waitFor();
  await page.reload();
  await waitReady(page);
  await page.getByRole('button', { name: /^Resume/ }).click();
  await chat.getByText(ANSWER).waitFor();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  expect(await messages(page)).toEqual([QUESTION, ANSWER]);
  expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);

  // Rewind to before the turn, and ask again: the whole run, tool call included, once more.
  await region(page, 'History').getByRole('button', { name: QUESTION }).click();
  await page
    .getByRole('region', { name: 'History' })
    .getByRole('button', { name: /^Rewind/ })
    .click();
  await expect.poll(() => messages(page)).toEqual([]);
  await say(page, QUESTION);
  await expect.poll(() => messages(page)).toEqual([QUESTION, ANSWER]);
  // Polled too: the chat is drawn again from the store once the run ends (CI once read it
  // between the two, with the answer shown and the call not yet marked done).
  await expect.poll(() => chat.locator('.tool-call .status.done').count()).toBe(1);

  // The key is nowhere: not in the page, not in the session file, not in the agent file.
  expect(await keyInPage(page)).toBe(false);
  const sessions = page.getByRole('navigation', { name: 'Sessions' });
  const [sessionFile] = await Promise.all([
    page.waitForEvent('download'),
    sessions.getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  const sessionJson = readFileSync((await sessionFile.path())!, 'utf8');
  expect(sessionJson).toContain('calculator');
  expect(sessionJson).not.toContain(KEY);
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const [agentFile] = await Promise.all([
    page.waitForEvent('download'),
    region(page, 'Agents').getByRole('button', { name: 'Export calc' }).click(),
  ]);
  const agentJson = readFileSync((await agentFile.path())!, 'utf8');
  expect(JSON.parse(agentJson)).toMatchObject({
    format: 'trellis-agent',
    agents: [{ name: 'calc' }],
  });
  expect(agentJson).not.toContain(KEY);
  expect(await keyInPage(page)).toBe(false);
  expect(browser.errors).toEqual([]);
});

it('interrupts a run when the model server cannot be reached, and Retry finishes it once it is back', async () => {
  const { page } = browser;
  const down = await startModelServer();
  const port = Number(new URL(down.url).port);
  await openApp(page);
  await addProvider(page, down.url);
  await addAgent(page, 'calc', 'fixture-calculator');
  await down.close();

  await say(page, QUESTION);
  const chat = region(page, 'Conversation');
  await chat
    .locator('.chat-error')
    .filter({
      hasText: /^calc failed: Could not reach Fixture .*resume it once the connection is back/,
    })
    .waitFor();
  // The failed turn offers Retry itself, so no banner says it again; nor an error banner.
  const retry = chat.getByRole('button', { name: 'Retry' });
  await retry.waitFor();
  expect(await region(page, 'Interrupted runs').count()).toBe(0);
  expect(await page.locator('.main > .banner.error').count()).toBe(0);

  const up = await startModelServer({ port });
  try {
    await retry.click();
    await chat.getByText(ANSWER).waitFor();
    await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
    expect(await page.getByRole('button', { name: /^(Resume|Retry)/ }).count()).toBe(0);
    // The failure is over: its line goes, and the call it left unanswered ran once more.
    expect(await chat.locator('.chat-error').count()).toBe(0);
    expect(await chat.locator('.tool-call .status.done').count()).toBe(1);
  } finally {
    await up.close();
  }
  // The browser logs the refused connections itself; nothing else may go wrong.
  expect(browser.errors.filter((error) => !/ERR_CONNECTION_REFUSED/.test(error))).toEqual([]);
});

it('asks the user a question (ask_user), takes the reply from the message box or the card, and the model reads it', async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url);
  await addAgent(page, 'designer', 'fixture-ask-user@e2e', ['ask_user']);
  const QUESTION_ASKED = 'Which colour should the logo be?';
  const NOTED = 'Noted: the logo will be in your colour.';

  // The question pauses the run: it reads as the agent's message, and a card waits for the reply.
  await say(page, 'Make me a logo');
  const card = region(page, 'Waiting for your reply');
  await card.getByText(`designer asks: ${QUESTION_ASKED}`).waitFor();
  await expect.poll(() => messages(page)).toEqual(['Make me a logo', QUESTION_ASKED]);
  // It survives a reload, as the paused run does.
  await page.reload();
  await waitReady(page);
  await card.getByText(`designer asks: ${QUESTION_ASKED}`).waitFor();
  await page
    .getByText('The agent asked you a question: what you send now is your reply.')
    .waitFor();

  // Answered from the message box: the reply is the call's result, and the run goes on.
  await say(page, 'Teal');
  await expect
    .poll(() => messages(page))
    .toEqual(['Make me a logo', QUESTION_ASKED, 'Teal', NOTED]);
  expect(await card.count()).toBe(0);
  const lastRequest = server.requests.at(-1)!.body as {
    messages: { role: string; content: unknown }[];
  };
  expect(lastRequest.messages.at(-1)).toMatchObject({ role: 'tool' });
  expect(JSON.stringify(lastRequest.messages.at(-1))).toContain('Teal');

  // Answered from the card: a reply that looks like JSON but is not is refused at the field;
  // a JSON object is sent as it is.
  await say(page, 'And the icon?');
  const reply = card.getByLabel('Your reply — text, or a JSON object');
  await reply.fill('{"colour": ');
  await card.getByRole('button', { name: 'Reply', exact: true }).click();
  await card
    .getByRole('alert')
    .filter({ hasText: /^This looks like JSON but does not parse/ })
    .waitFor();
  expect(await reply.getAttribute('aria-invalid')).toBe('true');
  await reply.fill('{"colour": "orange", "shade": 2}');
  await card.getByRole('button', { name: 'Reply', exact: true }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  await expect
    .poll(() => messages(page))
    .toEqual([
      'Make me a logo',
      QUESTION_ASKED,
      'Teal',
      NOTED,
      'And the icon?',
      QUESTION_ASKED,
      NOTED,
    ]);
  // The structured reply shows as the user's message, as JSON.
  expect(await page.locator('.chat .from-user pre.json').innerText()).toBe(
    JSON.stringify({ colour: 'orange', shade: 2 }, null, 2),
  );
  expect(JSON.stringify(server.requests.at(-1)!.body.messages.at(-1))).toContain('orange');
  expect(await card.count()).toBe(0);
  expect(browser.errors).toEqual([]);
});
