// Organising sessions in Chromium (issue 33): the list goes last active first; a pinned session
// goes on top and stays there after a reload; two archived at once through Select mode leave the
// list for "Archived (2)" and come back on Undo; one moves to a folder; a title is renamed where
// it stands (double-click, Enter; F2, Esc); two deleted at once (Ctrl-click starts selecting)
// come back on one Undo.

import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { messages, openApp, waitReady } from './app-page.ts';
import { freshBrowserPerTest, screenshotsOf } from './browser.ts';
import { seriousViolations } from './axe.ts';

const browser = freshBrowserPerTest();

const list = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
const titles = (page: Page) => list(page).locator('.session-title').allInnerTexts();
const heads = (page: Page) => list(page).locator('.session-group-toggle').allTextContents();
const status = (page: Page) => list(page).locator('.organise-status');
const undoLine = (page: Page, said: string) =>
  page.locator('.undo-bar .undo-item').filter({ hasText: said });
const title = (page: Page, text: string) =>
  list(page)
    .locator('.session-open')
    .filter({ has: page.locator('.session-title', { hasText: text }) });
/** A session's "⋯" button (named Actions; its title only in its description). */
const more = (page: Page, text: string) =>
  list(page)
    .locator('.session-row')
    .filter({ has: page.locator('.session-title', { hasText: text }) })
    .getByRole('button', { name: 'Actions', exact: true });

/** As app-page.ts's `say`, by the message box's exact name (other sections' names hold "Message"). */
async function say(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
}

const RED = 'set color to red';
const BLUE = 'set color to blue';
const GREEN = 'set color to green';

/** Three sessions, made red, blue, green: green is the last active (and open). */
async function threeSessions(page: Page): Promise<void> {
  await openApp(page);
  for (const [index, text] of [RED, BLUE, GREEN].entries()) {
    if (index > 0) {
      await page.getByRole('button', { name: 'New session' }).click();
      await expect.poll(() => messages(page)).toEqual([]);
      await waitReady(page);
    }
    await say(page, text);
  }
  await expect.poll(() => titles(page)).toEqual([GREEN, BLUE, RED]);
}

async function check(page: Page, title: string, modifiers: 'Shift'[] = []): Promise<void> {
  await list(page)
    .getByRole('checkbox', { name: `Select “${title}”` })
    .click({ modifiers });
}

/** Select mode: checks each of `sessions`, then does `action` to them. */
async function onSelected(page: Page, sessions: string[], action: string): Promise<void> {
  await list(page).getByRole('button', { name: 'Select' }).click();
  for (const session of sessions) await check(page, session);
  await list(page)
    .getByRole('group', { name: 'Selected sessions' })
    .getByRole('button', { name: action })
    .click();
}

it('pins and archives sessions, with Undo, and keeps them so after a reload', async () => {
  const { page } = browser;
  await threeSessions(page);
  // With nothing organised, one plain list: no group headings.
  expect(await heads(page)).toEqual([]);

  // Pin the oldest: it goes on top, under "Pinned", and stays there after a reload.
  await more(page, RED).click();
  expect(await more(page, RED).getAttribute('aria-expanded')).toBe('true');
  await list(page).getByRole('button', { name: 'Pin', exact: true }).click();
  await expect.poll(() => titles(page)).toEqual([RED, GREEN, BLUE]);
  expect(await heads(page)).toEqual(['▾Pinned (1)', '▾Recent (2)']);
  // The focus is on the change's Undo (the row moved away from under it).
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.className))
    .toBe('organise-undo');
  await page.reload();
  await waitReady(page);
  await expect.poll(() => titles(page)).toEqual([RED, GREEN, BLUE]);

  // Select mode: a click, then a Shift-click, checks both; Archive takes them off the list.
  await list(page).getByRole('button', { name: 'Select' }).click();
  await check(page, GREEN);
  await check(page, BLUE, ['Shift']);
  await list(page).getByText('2 selected').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await list(page)
    .getByRole('group', { name: 'Selected sessions' })
    .getByRole('button', { name: 'Archive' })
    .click();
  await expect.poll(() => titles(page)).toEqual([RED]);
  expect(await heads(page)).toEqual(['▾Pinned (1)', '▸Archived (2)']);
  await expect.poll(() => status(page).innerText()).toMatch(/Archived 2 sessions\./);
  // Select mode is over once it has acted.
  expect(await list(page).getByRole('checkbox').count()).toBe(0);

  // Undo brings both back as they were.
  await status(page).getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => titles(page)).toEqual([RED, GREEN, BLUE]);
  expect(await status(page).innerText()).toBe('');

  // Archived again, they show once "Archived" is opened, and stay archived after a reload.
  await onSelected(page, [GREEN, BLUE], 'Archive');
  await expect.poll(() => titles(page)).toEqual([RED]);
  await page.reload();
  await waitReady(page);
  await expect.poll(() => heads(page)).toEqual(['▾Pinned (1)', '▸Archived (2)']);
  const archived = list(page).getByRole('button', { name: /Archived \(2\)/ });
  expect(await archived.getAttribute('aria-expanded')).toBe('false');
  await archived.click();
  expect(await archived.getAttribute('aria-expanded')).toBe('true');
  expect(await titles(page)).toEqual([RED, GREEN, BLUE]);
  // Unarchive one from its menu.
  await more(page, BLUE).click();
  await list(page).getByRole('button', { name: 'Unarchive' }).click();
  await expect.poll(() => heads(page)).toEqual(['▾Pinned (1)', '▾Recent (1)', '▾Archived (1)']);
  expect(browser.errors).toEqual([]);
});

it('moves a session to a folder, renames one in place, and deletes two at once with one Undo', async () => {
  const { page } = browser;
  await threeSessions(page);

  // Move to folder…: a new folder by name, then another session into the same one by its button.
  await more(page, BLUE).click();
  await list(page).getByRole('button', { name: 'Move to folder…' }).click();
  await list(page).getByLabel('New folder').fill('  Colours ');
  await list(page).getByRole('button', { name: 'Move', exact: true }).click();
  await expect.poll(() => heads(page)).toEqual(['▾Colours (1)', '▾Recent (2)']);
  await more(page, RED).click();
  await list(page).getByRole('button', { name: 'Move to folder…' }).click();
  await list(page).getByRole('button', { name: 'Move to “Colours”' }).click();
  await expect.poll(() => heads(page)).toEqual(['▾Colours (2)', '▾Recent (1)']);
  expect(await titles(page)).toEqual([BLUE, RED, GREEN]);
  await more(page, GREEN).click();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  expect(await more(page, GREEN).getAttribute('aria-expanded')).toBe('false');
  // A folder closes, and its sessions with it.
  await list(page)
    .getByRole('button', { name: /Colours \(2\)/ })
    .click();
  expect(await titles(page)).toEqual([GREEN]);
  await list(page)
    .getByRole('button', { name: /Colours \(2\)/ })
    .click();

  // Rename in place: double-click the title, type, Enter; F2 then Esc changes nothing.
  await title(page, RED).dblclick();
  await list(page).getByLabel('Session title').fill('Reds');
  await list(page).getByLabel('Session title').press('Enter');
  await expect.poll(() => titles(page)).toEqual([BLUE, 'Reds', GREEN]);
  await title(page, 'Reds').focus();
  await page.keyboard.press('F2');
  await list(page).getByLabel('Session title').fill('Not this');
  await list(page).getByLabel('Session title').press('Escape');
  await expect.poll(() => list(page).getByLabel('Session title').count()).toBe(0);
  expect(await titles(page)).toEqual([BLUE, 'Reds', GREEN]);
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.textContent))
    .toMatch(/^Reds/);

  // Delete two at once: one line, one Undo.
  // Ctrl-click on a title starts Select mode with it checked.
  await title(page, BLUE).click({ modifiers: ['Control'] });
  await check(page, GREEN);
  await list(page)
    .getByRole('group', { name: 'Selected sessions' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const line = undoLine(page, 'Deleted 2 sessions and their artifacts.');
  await line.waitFor();
  expect(await page.locator('.undo-bar .undo-item').count()).toBe(1);
  await expect.poll(() => titles(page)).toEqual(['Reds']);
  await line.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => titles(page)).toEqual([BLUE, 'Reds', GREEN]);
  expect(browser.errors).toEqual([]);
});

it.runIf(process.env.TRELLIS_SHOTS)(
  'takes the screenshots: desktop and phone, light and dark',
  () =>
    screenshotsOf('organise', async (page, viewport) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await threeSessions(page);
      await say(page, 'set mood to calm');
      await page.getByRole('button', { name: 'New session' }).click();
      await waitReady(page);
      await say(page, 'save notes.txt as draft');
      await more(page, RED).click();
      await list(page).getByRole('button', { name: 'Pin', exact: true }).click();
      await more(page, BLUE).click();
      await list(page).getByRole('button', { name: 'Move to folder…' }).click();
      await list(page).getByLabel('New folder').fill('Work');
      await list(page).getByRole('button', { name: 'Move', exact: true }).click();
      await more(page, 'save notes.txt as draft').click();
      await list(page).getByRole('button', { name: 'Archive' }).click();
      await list(page)
        .getByRole('button', { name: /Archived \(1\)/ })
        .click();
      await page.setViewportSize(viewport);
      if (viewport.width < 700) await page.getByRole('button', { name: 'Sessions' }).click();
      await more(page, GREEN).click();
    }),
  240_000,
);
