// Notices leave on their own (after NOTICE_MS, or when the user moves on), errors stay until
// dismissed.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { openApp, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('lets a notice go after a while, or at the next session opened; an error stays', async () => {
  const { page } = browser;
  await page.clock.install();
  await openApp(page);
  await say(page, 'set color to red');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  const file = readFileSync((await download.path())!);
  const importFile = (name: string, buffer: Buffer) =>
    page
      .getByLabel('Import session…')
      .setInputFiles({ name, mimeType: 'application/json', buffer });

  await importFile('colors.json', file);
  const notice = page.locator('.banner.notice');
  await notice.filter({ hasText: 'Imported' }).waitFor();
  await importFile('bad.json', Buffer.from('{"events": [{}]}'));
  const error = page.locator('.banner.error');
  await error.waitFor();

  await page.clock.fastForward(10_000);
  await expect.poll(() => notice.count()).toBe(0);
  // The error is still there, until dismissed.
  expect(await error.count()).toBe(1);
  await error.getByRole('button', { name: 'Dismiss' }).click();
  expect(await error.count()).toBe(0);

  // A notice goes as soon as another session opens.
  await importFile('colors.json', file);
  await notice.filter({ hasText: 'Imported' }).waitFor();
  await page.getByRole('navigation', { name: 'Sessions' }).locator('.session-title').last().click();
  await expect.poll(() => notice.count()).toBe(0);
  expect(browser.errors).toEqual([]);
});
