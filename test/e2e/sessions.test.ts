// The sessions list: new, rename, export, import (a bad file changes nothing), delete; and Stop.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { chooseAgent, messages, openApp, region, say, stateText } from './app-page.ts';
import { freshBrowserPerTest, type Browser } from './browser.ts';

const browser = freshBrowserPerTest();

const sessionTitles = (browser: Browser) =>
  browser.page
    .getByRole('navigation', { name: 'Sessions' })
    .locator('.session-title')
    .allInnerTexts();

it('creates, renames, exports, imports and deletes sessions', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set color to red');
  await say(page, 'save notes.txt as first');
  await say(page, 'save notes.txt as second');
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('Session title').fill('Colors');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => sessionTitles(browser)).toEqual(['Colors']);
  // The heading shows the new title at once, not after a reload.
  expect(await page.locator('.session-heading').innerText()).toBe('Colors');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('colors.trellis.json');
  const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  // Exactly ADK's Session: its six fields; the title rides in the first event's customMetadata.
  expect(Object.keys(file).sort()).toEqual(
    ['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId'].sort(),
  );
  expect(file).toMatchObject({ appName: 'trellis', state: { color: 'red' } });
  expect(file.events[0].customMetadata.trellis.session).toMatchObject({ title: 'Colors' });
  expect(file.events.map((e: { author: string }) => e.author)).toContain('state_keeper');

  // A bad file: a clear message, and nothing changes.
  await page.getByLabel('Import session…').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"events": [{}]}'),
  });
  await page
    .getByRole('alert')
    .getByText(/not a session file Trellis can import: events\[0\]\.invocationId/)
    .waitFor();
  expect(await sessionTitles(browser)).toEqual(['Colors']);
  // Deep nesting, which the browser's storage cannot clone: our message, not the browser's.
  await page.getByLabel('Import session…').setInputFiles({
    name: 'deep.json',
    mimeType: 'application/json',
    buffer: Buffer.from(`{"extra": ${'{"x":'.repeat(10_000)}1${'}'.repeat(10_000)}, "events": []}`),
  });
  await page
    .getByRole('alert')
    .getByText(/extra\.x.*is nested more than 100 levels deep/)
    .waitFor();
  expect(await sessionTitles(browser)).toEqual(['Colors']);

  await page.getByLabel('Import session…').setInputFiles((await download.path())!);
  await page.getByText('Imported “Colors (imported)”.').waitFor();
  await expect
    .poll(async () => (await sessionTitles(browser)).sort())
    .toEqual(['Colors', 'Colors (imported)']);
  expect(await page.locator('.session-heading').innerText()).toBe('Colors (imported)');
  expect(await stateText(page)).toMatch(/color\s+red/);
  // Its artifact came with it, every version.
  const artifacts = region(page, 'Artifacts');
  await artifacts.getByRole('button', { name: 'View notes.txt' }).click();
  await artifacts.getByText('second').waitFor();
  await artifacts.getByLabel('Version of notes.txt').selectOption('0');
  await artifacts.getByText('first').waitFor();

  await page.getByRole('button', { name: 'New session' }).click();
  await expect.poll(() => sessionTitles(browser)).toHaveLength(3);
  // The list shows the new session before the page has opened it.
  await expect.poll(() => messages(page)).toEqual([]);
  // Delete asks nothing: the session goes at once, with an Undo (undo-delete.test.ts).
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect
    .poll(async () => (await sessionTitles(browser)).sort())
    .toEqual(['Colors', 'Colors (imported)']);
  expect(browser.errors).toEqual([]);
});

it('lays out the longest title within its place, and the Agent select within its width', async () => {
  const { page } = browser;
  await openApp(page);
  const long = 'W'.repeat(120);
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('Session title').fill(long);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const heading = page.locator('.session-heading');
  await expect.poll(() => heading.innerText()).toBe(long);
  const main = await page.locator('.main').boundingBox();
  const box = await heading.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(main!.x + main!.width);
  const select = await page.getByLabel('Agent', { exact: true }).boundingBox();
  expect(select!.width).toBeLessThanOrEqual(22 * 16 + 1);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(1280);
});

it('stops a run with Stop; Continue then carries it on', async () => {
  const { page } = browser;
  await openApp(page);
  await chooseAgent(page, /workflow/i);
  await page.getByLabel('Message').fill('tea');
  await page.getByRole('button', { name: 'Send' }).click();
  await region(page, 'Conversation')
    .getByText(/^Draft:/)
    .waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  const resume = region(page, 'Conversation').getByRole('button', { name: 'Continue' });
  await resume.waitFor();
  await resume.click();
  await page.getByRole('button', { name: 'Approve' }).waitFor();
  expect((await messages(page)).filter((text) => text.startsWith('Draft:'))).toHaveLength(1);
});
