// The keyboard: the first Tab offers a way past everything to the message box (in a long session
// it is a hundred Tabs and more away), and Settings closes as menus do, on Escape or a click
// anywhere else.

import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { messages, openApp, say, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('aria-label') ?? element?.textContent?.trim();
  });

/** The focus at the document's start, as a keyboard user arriving from the address bar has it. */
const fromTheTop = () =>
  browser.page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });

it('gives the message box the focus on load, after each session opened and back from a view', async () => {
  const { page } = browser;
  await openApp(page);
  await expect.poll(() => focused(page)).toBe('Message');
  await say(page, 'set color to red');
  await page.getByRole('button', { name: 'New session' }).click();
  await expect.poll(() => messages(page)).toEqual([]);
  await waitReady(page);
  await expect.poll(() => focused(page)).toBe('Message');
  // Opened from the list: the focus leaves the list for the message box.
  await page.getByRole('navigation', { name: 'Sessions' }).getByText('set color to red').click();
  await expect.poll(() => messages(page)).toEqual(['set color to red', 'color is now red.']);
  await expect.poll(() => focused(page)).toBe('Message');
  // A view closed: the chat comes back with its message box focused.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Agents/ })
    .click();
  await page.getByRole('region', { name: 'Agents' }).waitFor();
  await page.getByRole('button', { name: 'Back to the chat' }).click();
  await expect.poll(() => focused(page)).toBe('Message');
  // On load, after a reload too.
  await page.reload();
  await waitReady(page);
  await expect.poll(() => focused(page)).toBe('Message');
  expect(browser.errors).toEqual([]);
});

it('offers a skip link to the message box as the first Tab, shown when focused', async () => {
  const { page } = browser;
  await openApp(page);
  for (let i = 0; i < 12; i++) await say(page, `set n${i} to ${i}`);
  // Tabbing from the top of the page, as a keyboard user arriving from the address bar does:
  // the focus at the document's start.
  await fromTheTop();
  const link = page.getByRole('link', { name: 'Skip to the message box' });
  const box = () => link.boundingBox();
  // Off screen until focused.
  const hidden = await box();
  expect(hidden === null || hidden.y + hidden.height <= 0).toBe(true);
  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toBe('Skip to the message box');
  const shown = (await box())!;
  expect(shown.y).toBeGreaterThanOrEqual(0);
  expect(shown.height).toBeGreaterThan(0);
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('Message');
  // Going there did not change the page's address.
  expect(page.url()).toMatch(/#\/session\/[^/]+$/);

  // With a view in place of the chat, it skips to the main area, focusable for that once only.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Agents/ })
    .click();
  await page.getByRole('region', { name: 'Agents' }).waitFor();
  await fromTheTop();
  await page.keyboard.press('Tab');
  await expect.poll(() => focused(page)).toBe('Skip to the main area');
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
  await page.getByRole('heading', { name: 'Sessions' }).click();
  expect(await page.evaluate(() => document.querySelector('main')?.hasAttribute('tabindex'))).toBe(
    false,
  );
  expect(browser.errors).toEqual([]);
});

it('closes Settings on Escape (the focus back on Settings) and on a click elsewhere', async () => {
  const { page } = browser;
  await openApp(page);
  const settings = page.locator('details.settings');
  const open = () => settings.evaluate((element) => (element as HTMLDetailsElement).open);
  await settings.locator('summary').click();
  expect(await open()).toBe(true);
  await page.getByLabel('Theme').focus();
  await page.keyboard.press('Escape');
  expect(await open()).toBe(false);
  expect(await focused(page)).toBe('Settings');

  await settings.locator('summary').click();
  expect(await open()).toBe(true);
  await page.getByRole('heading', { name: 'Sessions' }).click();
  expect(await open()).toBe(false);
  // A click inside it keeps it open.
  await settings.locator('summary').click();
  await page.getByText('Instant demos').click();
  expect(await open()).toBe(true);
});
