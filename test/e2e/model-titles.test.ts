// Titles written by the model in real Chromium against the fixture model server: a demo session
// keeps its first message's title after its answer; a chat with a provider's model, once it has
// answered, is titled by that model in the session list; "Write a title" in the demo session's ⋯
// menu titles it now (the demo model's rule), and its Undo puts the first title back.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chooseAgent, openApp, region, say, waitReady } from './app-page.ts';
import { addProvider } from './model-setup.ts';
import { freshBrowserPerTest } from './browser.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-e2e-titles-0000-2222';
const DEMO = 'set color to red and tell me what the state holds now';

const list = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
const titles = (page: Page) => list(page).locator('.session-title').allInnerTexts();
const more = (page: Page, text: string) =>
  list(page)
    .locator('.session-row')
    .filter({ has: page.locator('.session-title', { hasText: text }) })
    .getByRole('button', { name: 'Actions', exact: true });

/** This session chats with the fixture server's `fixture-titles` (its chat answers, its titles). */
async function chatOnTitles(page: Page): Promise<void> {
  await chooseAgent(page, /with this chat/);
  const bar = region(page, 'Model settings');
  await bar.getByRole('button', { name: 'Model settings' }).click();
  await bar.getByLabel('Model', { exact: true }).fill('fixture-titles');
  await bar.getByRole('button', { name: 'Save settings' }).click();
  await bar.getByText('Fixture · fixture-titles').waitFor();
}

it('a model titles a chat after its first answer; "Write a title" titles a demo session', async () => {
  const { page } = browser;
  await openApp(page);
  // The demo model is not asked on its own: the first message's title stays.
  await say(page, DEMO);
  const firstTitle = `${DEMO.slice(0, 47)}…`;
  await expect.poll(() => titles(page)).toEqual([firstTitle]);

  await addProvider(page, server.url, KEY);
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await page.getByRole('button', { name: 'New session' }).click();
  await waitReady(page);
  await chatOnTitles(page);

  const from = server.titleRequests.length;
  await say(page, 'Why is the sky blue?');
  // The chat shows the first message's title, then the model's (the server's "**Title:** …").
  await expect.poll(() => titles(page)).toEqual(['Sky colour', firstTitle]);
  const asked = server.titleRequests.slice(from);
  expect(asked).toHaveLength(1);
  expect(JSON.stringify(asked[0]!.body.messages)).toContain('Why is the sky blue?');

  // Asked from its menu, the demo model titles its session; Undo puts the old title back.
  await more(page, firstTitle).click();
  await list(page).getByRole('button', { name: 'Write a title' }).click();
  await expect.poll(() => titles(page)).toEqual(['Sky colour', 'Set color to red and tell']);
  const status = list(page).locator('.organise-status');
  await expect.poll(() => status.innerText()).toMatch(/Titled “Set color to red and tell”\./);
  await status.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => titles(page)).toEqual(['Sky colour', firstTitle]);
  expect(browser.errors).toEqual([]);
});

it('Settings → "Titles written by the model" off: the first message’s title stays', async () => {
  const { page } = browser;
  await openApp(page);
  await page.getByText('Settings', { exact: true }).click();
  const switchOff = page.getByLabel('Titles written by the model');
  expect(await switchOff.isChecked()).toBe(true);
  await switchOff.uncheck();
  await page.keyboard.press('Escape');
  await addProvider(page, server.url, KEY);
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await chatOnTitles(page);
  const from = server.titleRequests.length;
  await say(page, 'Why is the sky blue?');
  // A moment for a title that must not come.
  await page.waitForTimeout(500);
  expect(await titles(page)).toEqual(['Why is the sky blue?']);
  expect(server.titleRequests.slice(from)).toEqual([]);
  expect(browser.errors).toEqual([]);
});
