// An unbroken value (a 64 KB "word": a key, a base64 blob) set from the chat (issue 28): the page
// never lays out more than UNBROKEN_CHARS of a run with no place to break a line, whatever shows
// it (the message, the answer, the state, the event log), on the turn and after a reload, where
// it used to lay the whole run out at every layout (seconds a turn, on slow machines). The whole
// value is still there: Show all, Download. Long tasks are printed, not asserted.

import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { UNBROKEN_CHARS } from '../../src/core/value-preview.ts';
import { longTasks, openApp, pageNow, region, watchLongTasks } from '../e2e/app-page.ts';
import { freshBrowserPerTest } from '../e2e/browser.ts';

const browser = freshBrowserPerTest();

/** Records the longest run without a break the page's DOM has held. Call before it loads. */
async function watchLongestRun(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = { longest: 0 };
    (window as unknown as { __longestRun: typeof record }).__longestRun = record;
    const measure = (node: Node) => {
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let text = walker.currentNode; text; text = walker.nextNode()!) {
        if (text.nodeType !== Node.TEXT_NODE) continue;
        for (const run of (text as Text).data.split(/[\s/\u200b-]+/))
          record.longest = Math.max(record.longest, run.length);
      }
    };
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        if (mutation.type === 'characterData') measure(mutation.target);
        else mutation.addedNodes.forEach(measure);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const longestRun = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __longestRun: { longest: number } }).__longestRun.longest,
  );

it('lays out no more than 4,096 characters of a 64 KB unbroken value, on the turn and after a reload', async () => {
  const { page } = browser;
  await watchLongTasks(page);
  await watchLongestRun(page);
  await openApp(page);
  const value = 'k3Y'.repeat((64 * 1024) / 3);
  await page.getByLabel('Message').fill(`set token to ${value}`);
  const start = await pageNow(page);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('.chat .message:not(.streaming)', { hasText: 'token is now k3Y' }).waitFor();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  // The event log open too: the event that set it.
  const log = region(page, 'Event log');
  await log.locator('summary').first().click();
  await log.locator('li', { hasText: 'state: token' }).locator('summary').click();
  await page.waitForTimeout(500);
  expect(await longestRun(page)).toBeLessThanOrEqual(UNBROKEN_CHARS);
  const turn = await longTasks(page, start);

  // The answer says the whole value when asked: Download gives it all.
  const answer = page.locator('.chat .message', { hasText: 'token is now' }).last();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    answer.getByRole('button', { name: 'Download' }).click(),
  ]);
  const { readFile } = await import('node:fs/promises');
  expect(await readFile((await download.path())!, 'utf8')).toBe(`token is now ${value}.`);

  await page.reload();
  await answer.waitFor();
  await page.waitForTimeout(500);
  expect(await longestRun(page)).toBeLessThanOrEqual(UNBROKEN_CHARS);
  console.log(
    'unbroken 64 KB value, long tasks (ms):',
    JSON.stringify({
      turn: turn.map(Math.round),
      reload: (await longTasks(page, 0)).map(Math.round),
    }),
  );
  expect(browser.errors).toEqual([]);
});
