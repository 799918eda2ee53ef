// The page's address (src/ui/shell/address.ts): a reload comes back to the session and view it
// shows, Back and Forward move between the sessions and views the user went to, offline too (the
// service worker serves the app for every address), and an address that names no session here says
// so and opens the latest one.

import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { appUrl, messages, openApp, reachesServer, say, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const heading = (page: Page) => page.locator('.session-heading').innerText();
const flowsView = (page: Page) => page.getByRole('region', { name: 'Flows' });
const focusedLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

/** Two sessions, "set color to red" then "set color to blue" (open), each at its own address. */
async function twoSessions(page: Page): Promise<{ red: string; blue: string }> {
  await openApp(page);
  await say(page, 'set color to red');
  const red = page.url();
  await page.getByRole('button', { name: 'New session' }).click();
  await expect.poll(() => page.url()).not.toBe(red);
  await waitReady(page);
  await say(page, 'set color to blue');
  return { red, blue: page.url() };
}

it('reloads into the same session and view, and Back and Forward move between them', async () => {
  const { page } = browser;
  const { red, blue } = await twoSessions(page);
  expect(red).toMatch(/#\/session\/[^/]+$/);
  expect(blue).toMatch(/#\/session\/[^/]+$/);

  // The first session, opened from the list, is a step of its own.
  await page.getByRole('navigation', { name: 'Sessions' }).getByText('set color to red').click();
  await expect.poll(() => page.url()).toBe(red);
  await expect.poll(() => heading(page)).toBe('set color to red');
  // A view is a step too, and a reload comes back to it.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Flows/ })
    .click();
  await flowsView(page).waitFor();
  expect(page.url()).toBe(`${red}/flows`);
  await page.reload();
  await flowsView(page).waitFor();
  expect(page.url()).toBe(`${red}/flows`);

  await page.goBack();
  await expect.poll(() => flowsView(page).count()).toBe(0);
  expect(page.url()).toBe(red);
  await page.goBack();
  await expect.poll(() => heading(page)).toBe('set color to blue');
  expect(page.url()).toBe(blue);
  expect(await messages(page)).toEqual(['set color to blue', 'color is now blue.']);
  await page.goForward();
  await expect.poll(() => heading(page)).toBe('set color to red');
  await page.goForward();
  await flowsView(page).waitFor();
  expect(page.url()).toBe(`${red}/flows`);

  // A reload in the chat comes back to the session it showed, not to the latest one.
  await page.goBack();
  await expect.poll(() => flowsView(page).count()).toBe(0);
  await page.reload();
  await waitReady(page);
  expect(await heading(page)).toBe('set color to red');
  expect(await messages(page)).toEqual(['set color to red', 'color is now red.']);
  expect(browser.errors).toEqual([]);
});

it('opens a session at its address offline, after a first visit, and goes Back offline', async () => {
  const { page, context } = browser;
  const { red, blue } = await twoSessions(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await context.setOffline(true);

  await page.goto(red);
  await waitReady(page);
  expect(await reachesServer(page)).toBe(false);
  expect(await heading(page)).toBe('set color to red');
  await page.reload();
  await waitReady(page);
  expect(await heading(page)).toBe('set color to red');
  await page.goBack();
  await expect.poll(() => heading(page)).toBe('set color to blue');
  expect(page.url()).toBe(blue);
  await context.setOffline(false);
});

it('says so when the address names no session here, and shows one that is', async () => {
  const { page } = browser;
  const { blue } = await twoSessions(page);
  const missing = (title: string) =>
    page
      .getByRole('status')
      .filter({ hasText: new RegExp(`not in this browser.*showing “${title}”`) });

  // Followed from the page (a link, Back to a deleted session): it stays where it is.
  await page.goto(`${appUrl()}#/session/deleted-or-from-elsewhere`);
  await missing('set color to blue').waitFor();
  expect(await heading(page)).toBe('set color to blue');
  // The address is put right, in place.
  await expect.poll(() => page.url()).toBe(blue);

  // Loaded (a bookmark, a reload): the latest session opens.
  await page.evaluate(() => history.replaceState(null, '', '#/session/gone'));
  await page.reload();
  await waitReady(page);
  await missing('set color to blue').waitFor();
  await expect.poll(() => page.url()).toBe(blue);
  expect(browser.errors).toEqual([]);
});

it('gives the message box the focus after Back and Forward', async () => {
  const { page } = browser;
  await twoSessions(page);
  await page.goBack();
  await expect.poll(() => heading(page)).toBe('set color to red');
  await expect.poll(() => focusedLabel(page)).toBe('Message');
  await page.getByRole('heading', { name: 'Sessions' }).click(); // the focus elsewhere
  await page.goForward();
  await expect.poll(() => heading(page)).toBe('set color to blue');
  await expect.poll(() => focusedLabel(page)).toBe('Message');
});
