// The first-run card: on a fresh browser the chat says where to start (a demo, a provider, a
// local model), by keyboard as well as by pointer, and it is gone for good once taken or
// dismissed.

import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { messages, openApp, region, say, waitReady } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const card = (page: Page) => page.getByRole('region', { name: 'Start here' });

it('shows where to start on a fresh browser, and runs a demo from the keyboard', async () => {
  const { page } = browser;
  await openApp(page);
  await card(page).waitFor();
  expect(await card(page).getByRole('button').allInnerTexts()).toEqual([
    'Dismiss',
    'Session state: “set color to red”',
    'A workflow with approval: “tea”',
    'A support flow: “Is invoice INV-1042 paid?”',
    'Add a provider',
    'Add a local model',
  ]);
  expect(await seriousViolations(page)).toEqual([]);

  // Shift+Tab from the message box goes back into the card.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
    .toBe('Message');
  await card(page)
    .getByRole('button', { name: /^Session state/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => messages(page)).toEqual(['set color to red', 'color is now red.']);
  expect(await card(page).count()).toBe(0);
  await page.reload();
  await waitReady(page);
  expect(await card(page).count()).toBe(0);
  expect(browser.errors).toEqual([]);
});

it('opens Providers with its presets, and is gone once dismissed', async () => {
  const { page } = browser;
  await openApp(page);
  await card(page).getByRole('button', { name: 'Add a provider' }).click();
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: 'Add Gemini' }).waitFor();
  await providers.getByRole('button', { name: 'Add local model' }).waitFor();
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  expect(await card(page).count()).toBe(0);

  // In another fresh browser's worth of storage: Dismiss puts it away for good.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await waitReady(page);
  await card(page).getByRole('button', { name: 'Dismiss' }).click();
  expect(await card(page).count()).toBe(0);
  await page.reload();
  await waitReady(page);
  expect(await card(page).count()).toBe(0);
});

it('is not shown once the browser has a session with something in it', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set color to red');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await waitReady(page);
  expect(await card(page).count()).toBe(0);
});
