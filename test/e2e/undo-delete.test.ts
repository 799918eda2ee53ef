// Delete with an Undo, in place of confirm(): a session, flow, agent or provider leaves its list
// at once, comes back whole on Undo (after a reload too), and is deleted for good only once its
// Undo has had its time, or on Dismiss.

import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { messages, openApp, region, say, stateText, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const sessionList = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
const titles = (page: Page) => sessionList(page).locator('.session-title').allInnerTexts();
const undoLine = (page: Page, said: string | RegExp) =>
  page.locator('.undo-bar .undo-item').filter({ hasText: said });

/** Records every confirm()/alert() the page opens: there should be none. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));
  return dialogs;
}

async function twoSessions(page: Page): Promise<void> {
  await openApp(page);
  await say(page, 'set color to red');
  await page.getByRole('button', { name: 'New session' }).click();
  await expect.poll(() => messages(page)).toEqual([]);
  await waitReady(page);
  await say(page, 'set color to blue');
}

it('deletes a session with an Undo: gone at once, back as it was on Undo, after a reload too', async () => {
  const { page } = browser;
  const dialogs = watchDialogs(page);
  await twoSessions(page);
  await sessionList(page).getByRole('button', { name: 'Delete' }).click();
  const line = undoLine(page, 'Deleted “set color to blue” and its artifacts.');
  await line.waitFor();
  // Gone from the list; the other session is open; the focus is on Undo.
  await expect.poll(() => titles(page)).toEqual(['set color to red']);
  await expect.poll(() => page.locator('.session-heading').innerText()).toBe('set color to red');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Undo');

  await line.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => titles(page)).toContain('set color to blue');
  await expect.poll(() => page.locator('.session-heading').innerText()).toBe('set color to blue');
  expect(await stateText(page)).toMatch(/color\s+blue/);

  // Deleted again, then the tab reloads within its time: still gone, still offered back.
  await sessionList(page).getByRole('button', { name: 'Delete' }).click();
  await line.waitFor();
  await page.reload();
  await waitReady(page);
  expect(await titles(page)).toEqual(['set color to red']);
  await line.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => titles(page)).toContain('set color to blue');
  await sessionList(page).getByText('set color to blue').click();
  await expect.poll(() => messages(page)).toEqual(['set color to blue', 'color is now blue.']);
  expect(dialogs).toEqual([]);
  expect(browser.errors).toEqual([]);
});

it('deletes a session for good once its Undo has had its time, or at once on Dismiss', async () => {
  const { page } = browser;
  await page.clock.install();
  await twoSessions(page);
  await sessionList(page).getByRole('button', { name: 'Delete' }).click();
  const blue = undoLine(page, 'Deleted “set color to blue”');
  await blue.waitFor();
  // Reaching for Undo holds it; once the pointer and focus are elsewhere, its time runs out.
  await page.getByLabel('Message').focus();
  await page.clock.fastForward(15_000);
  await expect.poll(() => blue.count()).toBe(0);
  await page.reload();
  await waitReady(page);
  expect(await titles(page)).toEqual(['set color to red']);
  expect(await undoLine(page, /Deleted/).count()).toBe(0);

  // From the keyboard, the focus lands on Undo and holds the delete while it stays there.
  await sessionList(page).getByRole('button', { name: 'Delete' }).focus();
  await page.keyboard.press('Enter');
  const red = undoLine(page, 'Deleted “set color to red”');
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Undo');
  await page.clock.fastForward(30_000);
  expect(await red.count()).toBe(1);
  // Dismiss: deleted now.
  await red.getByRole('button', { name: /^Dismiss/ }).click();
  await expect.poll(() => red.count()).toBe(0);
  await page.reload();
  await waitReady(page);
  // The last one gone, a new empty session took its place.
  expect(await titles(page)).toEqual(['New session']);
  expect(await messages(page)).toEqual([]);
  expect(browser.errors).toEqual([]);
});

it('offers the same Undo for flows, agents and providers, with no confirm() dialog', async () => {
  const { page } = browser;
  const dialogs = watchDialogs(page);
  await openApp(page);

  // A flow of the user's own.
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('button', { name: 'Duplicate support' }).click();
  await flows.getByRole('button', { name: 'Delete support-copy' }).waitFor();
  await flows.getByRole('button', { name: 'Delete support-copy' }).click();
  const flowLine = undoLine(page, 'Deleted the flow “support-copy”. Its sessions are kept.');
  await flowLine.waitFor();
  await expect
    .poll(() => flows.getByRole('button', { name: 'Delete support-copy' }).count())
    .toBe(0);
  await flowLine.getByRole('button', { name: 'Undo' }).click();
  await flows.getByRole('button', { name: 'Delete support-copy' }).waitFor();
  await flows.getByRole('button', { name: 'Delete support-copy' }).click();
  await flowLine.getByRole('button', { name: /^Dismiss/ }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /^Deleted/ })
    .waitFor();

  // A provider, and an agent on it.
  await page.locator('details.settings summary').click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: 'Add Other server' }).click();
  await providers.getByLabel('Name').fill('Doomed');
  await providers.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await providers.getByLabel('API key').fill('key-undo-e2e');
  await providers.getByLabel('Default model').fill('m');
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name').fill('doomed_agent');
  await agents.getByLabel('Instruction').fill('Say hi.');
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('button', { name: 'Delete doomed_agent' }).click();
  const agentLine = undoLine(page, 'Deleted the agent “doomed_agent”.');
  await agentLine.waitFor();
  await expect
    .poll(() => agents.getByRole('button', { name: 'Delete doomed_agent' }).count())
    .toBe(0);
  await agentLine.getByRole('button', { name: 'Undo' }).click();
  await agents.getByRole('button', { name: 'Delete doomed_agent' }).waitFor();

  await page.locator('details.settings summary').click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  await providers.getByRole('button', { name: 'Delete Doomed' }).click();
  const providerLine = undoLine(page, 'Deleted the provider “Doomed” and its key.');
  await providerLine.waitFor();
  await expect.poll(() => providers.getByRole('button', { name: 'Delete Doomed' }).count()).toBe(0);
  // Undone, it comes back with its key (which the page could never have put back itself).
  await providerLine.getByRole('button', { name: 'Undo' }).click();
  await providers.getByRole('button', { name: 'Delete Doomed' }).waitFor();
  expect(await providers.getByText('key ••••').count()).toBe(1);
  expect(dialogs).toEqual([]);
  expect(browser.errors).toEqual([]);
});
