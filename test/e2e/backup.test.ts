// Settings → Back up & restore in Chromium: a workspace backed up in one browser profile (a
// session with an artifact, a flow of one's own) and restored into a fresh profile, where the
// session is listed with its date, opens with its conversation, state, artifact and its turns'
// traces, and the flow is listed.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  duplicateSupport,
  messages,
  openApp,
  region,
  say,
  spanRows,
  stateText,
  traceTurn,
} from './app-page.ts';
import { launch } from './browser.ts';

it('backs up a workspace in one browser profile and restores it in a fresh one', async () => {
  const first = await launch();
  const second = await launch();
  try {
    const { page } = first;
    await openApp(page);
    await say(page, 'set color to red');
    await say(page, 'save todo.txt as buy milk');
    await traceTurn(page, 'set color to red');
    const traced = await spanRows(page);
    expect(traced.some((row) => row.startsWith('invocation '))).toBe(true);
    await region(page, 'Trace').getByRole('button', { name: 'Back to the chat' }).click();
    const listed = await sessionEntry(page).innerText();
    await duplicateSupport(page);

    await page.getByText('Settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Back up & restore' }).click();
    const backup = region(page, 'Backup');
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      backup.getByRole('button', { name: 'Back up', exact: true }).click(),
    ]);
    const path = (await file.path())!;
    expect(JSON.parse(readFileSync(path, 'utf8')).format).toBe('trellis-backup');
    await backup.getByText(/^Last backup:/).waitFor();

    // A fresh profile: nothing there, then everything.
    const fresh = second.page;
    await openApp(fresh);
    await fresh.getByText('Settings', { exact: true }).click();
    await fresh.getByRole('button', { name: 'Back up & restore' }).click();
    const restore = region(fresh, 'Backup');
    // Restored a moment later than the date the list shows, so that "now" would show.
    const shown = listed.split('\n').at(-1)!;
    await expect.poll(() => fresh.evaluate(() => new Date().toLocaleString())).not.toBe(shown);
    await restore.getByLabel('Restore…').setInputFiles(path);
    await restore
      .getByRole('status')
      .filter({ hasText: /^Restored \d+; 0 already here; 0 conflicts\.$/ })
      .waitFor();
    await restore.getByRole('button', { name: 'Back to the chat' }).click();
    // Listed as it was: its title and its date.
    expect(await sessionEntry(fresh).innerText()).toBe(listed);
    await sessionEntry(fresh).click();
    await expect.poll(() => messages(fresh)).toContain('set color to red');
    await traceTurn(fresh, 'set color to red');
    expect(await spanRows(fresh)).toEqual(traced);
    await region(fresh, 'Trace').getByRole('button', { name: 'Back to the chat' }).click();
    expect(await stateText(fresh)).toMatch(/color/);
    await fresh
      .getByRole('tab', { name: 'Artifacts' })
      .click()
      .catch(() => undefined);
    await region(fresh, 'Artifacts').getByText('todo.txt').first().waitFor();
    await fresh.getByRole('button', { name: 'Flows', exact: true }).click();
    await region(fresh, 'Flows').getByText('support-copy').first().waitFor();
    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});

/** The session list's entry of the session the test made (its title and date). */
const sessionEntry = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Sessions' })
    .getByRole('button', { name: /set color to red/ })
    .first();
