// Memory in the app, in real Chromium, as a user would use it: an agent built with "Remembers
// across sessions" is told a fact in one session and, asked in another, finds it with
// `load_memory` (the fixture model server's scripted `fixture-memory`: a question is a
// load_memory call with the question as its query, then an answer of what came back). Settings →
// Memory lists what is remembered, by session; deleting it there makes it gone for the agent too.
// (test/e2e/memory.test.ts is the memory service alone, on Chromium's IndexedDB.)
//
// With MEMORY_SHOTS=<dir>, it also saves the Memory view at desktop and phone width, light and
// dark, to look at.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages, openApp, region, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { addProvider } from './model-setup.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const FACT = 'My locker code is 4721.';
const QUESTION = 'What is my locker code?';
const NOTED = 'Noted: I will remember that.';

/** Agents → an agent on the memory model that remembers across sessions, used in this session. */
async function addRememberingAgent(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name').fill('Keeper');
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByLabel('Model').fill('fixture-memory');
  await agents.getByLabel('Instruction').fill('Remember what you are told.');
  await agents.getByLabel(/Remembers across sessions/).check();
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('status').filter({ hasText: 'Saved “Keeper”' }).waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).inputValue())
    .toMatch(/^agent:/);
}

async function openMemory(page: Page) {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Memory', exact: true }).click();
  return region(page, 'Memory');
}

async function newSession(page: Page): Promise<void> {
  const before = await page.getByRole('navigation', { name: 'Sessions' }).locator('li').count();
  await page.getByRole('button', { name: 'New session' }).click();
  await expect
    .poll(() => page.getByRole('navigation', { name: 'Sessions' }).locator('li').count())
    .toBe(before + 1);
  await expect.poll(() => messages(page)).toEqual([]);
}

it('remembers a fact from another session through load_memory; the Memory view lists it and deletes it', async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url, 'sk-e2e-memory-000111222333');
  await addRememberingAgent(page);

  await say(page, FACT);
  expect(await messages(page)).toEqual([FACT, NOTED]);

  // Session 2, the same agent: asked, it looks the fact up in memory.
  await newSession(page);
  await say(page, QUESTION);
  const recalled = `From memory: ${FACT}`;
  expect(await messages(page)).toEqual([QUESTION, recalled]);
  const call = server.requests.filter((r) => r.body?.model === 'fixture-memory').at(-1)!;
  expect(call.body.messages.at(-1).role).toBe('tool');

  // Settings → Memory: both sessions, the latest first, each memory with who said it.
  const memory = await openMemory(page);
  await memory.getByText('4 memories from 2 sessions').waitFor();
  const sessions = memory.locator('.memory-session');
  expect(await sessions.locator('h3').allInnerTexts()).toEqual([QUESTION, FACT]);
  expect(await sessions.nth(1).locator('.memory-text').allInnerTexts()).toEqual([FACT, NOTED]);
  expect(await sessions.nth(1).locator('.memory-meta strong').allInnerTexts()).toEqual([
    'You',
    'Keeper',
  ]);
  await shots(page, 'memory');

  // Deleting it there: the fact from session 1, and all session 2 said (which repeated it).
  await memory.getByRole('button', { name: `Delete memory: ${FACT}` }).click();
  await memory.getByText('3 memories from 2 sessions').waitFor();
  // The focus goes to what took the deleted one's place, for the keyboard to go on from.
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  await expect.poll(focused).toBe(`Delete memory: ${NOTED}`);
  await memory.getByRole('button', { name: `Delete all memories of “${QUESTION}”` }).click();
  await memory.getByText('1 memory from 1 session').waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(FACT);
  expect(await memory.locator('.memory-text').allInnerTexts()).toEqual([NOTED]);

  // The session link opens it; asked again in a new session, the agent no longer knows.
  await memory.getByRole('link', { name: FACT }).click();
  await expect.poll(() => messages(page)).toEqual([FACT, NOTED]);
  await newSession(page);
  await say(page, QUESTION);
  expect(await messages(page)).toEqual([QUESTION, 'I do not remember that.']);
});

it('adds a session to memory from its actions, and deleting the session (after Undo) forgets it', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'Owls hunt at night.');
  await page.getByRole('button', { name: 'Add to memory' }).click();
  await page.getByText(/^Added “Owls hunt at night\.” to memory \(\d+ memories\)/).waitFor();
  const memory = await openMemory(page);
  await expect
    .poll(() => memory.locator('.memory-text').first().innerText())
    .toBe('Owls hunt at night.');
  await memory.getByRole('button', { name: 'Back to the chat' }).click();

  const list = page.getByRole('navigation', { name: 'Sessions' });
  await list.getByRole('button', { name: 'Delete', exact: true }).click();
  // Undo's ten seconds are cut short by Dismiss, which deletes it now.
  await page.getByRole('button', { name: /^Dismiss: Deleted “Owls hunt at night\.”/ }).click();
  const view = await openMemory(page);
  await view.getByText('Nothing is remembered yet.').waitFor();
  await shots(page, 'memory-empty');
});

/** The Memory view at desktop and phone width, light and dark, when MEMORY_SHOTS names a folder. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env['MEMORY_SHOTS'];
  if (!dir) return;
  const size = page.viewportSize()!;
  for (const [width, height, device] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${dir}/${name}-${device}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}
