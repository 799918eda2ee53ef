// Two tabs on one session: Web Locks keep the run to one tab; the other shows it is busy and
// follows live (BroadcastChannel), then takes over once the run ends.

import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseAgent, messages, openApp, region, say, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('keeps a session’s run to one tab, and the other follows it live', async () => {
  const a = browser.page;
  await openApp(a);
  await chooseAgent(a, /workflow/i);
  const b = await browser.context.newPage();
  await b.goto(a.url());
  await waitReady(b);

  for (const page of [a, b]) page.on('load', () => console.log(page === a ? 'A' : 'B', 'DBG load'));
  for (const page of [a, b])
    page.on(
      'console',
      (m) => m.text().startsWith('DBG') && console.log(page === a ? 'A' : 'B', m.text()),
    );
  await a.getByLabel('Message').fill('tea');
  await a.getByRole('button', { name: 'Send' }).click();

  // Tab B sees the run is elsewhere: it says so, and will not start another one.
  await b.getByText('This session is running in another tab').waitFor();
  expect(await b.getByLabel('Message').isDisabled()).toBe(true);
  // …and follows it as it goes.
  await region(b, 'Conversation')
    .getByText(/^Draft: tea/)
    .waitFor();

  // Once A's run pauses for approval, B may act: it approves, and A follows.
  await b.getByText('This session is running in another tab').waitFor({ state: 'detached' });
  await region(b, 'Pending approvals').getByRole('button', { name: 'Approve' }).click();
  await a.getByText(/Publishing complete/).waitFor();
  expect((await messages(a)).at(-1)).toMatch(/complete/);
  expect(browser.errors).toEqual([]);
});

it('a message sent while another tab has just taken the session stays in its box, and says why', async () => {
  const a = browser.page;
  await openApp(a);
  await say(a, 'set color to red');
  const sessionId = await onlySessionId(a);
  const b = await browser.context.newPage();
  await b.goto(a.url());
  await waitReady(b);
  // Tab B takes the session's lock as its run would, a moment before tab A hears of it: A's
  // message meets the lock in the worker (two sends at once: one wins).
  await b.evaluate(async (id) => {
    const w = window as unknown as { __release: () => void };
    await new Promise<void>((taken) => {
      void navigator.locks.request(`trellis:session:${id}`, () => {
        taken();
        return new Promise<void>((release) => (w.__release = release));
      });
    });
  }, sessionId);
  await a.getByLabel('Message').fill('set color to blue');
  await a.getByLabel('Message').press('Enter');
  await a
    .getByRole('alert')
    .filter({ hasText: /not sent: it is back in the box/ })
    .waitFor();
  await expect.poll(() => a.getByLabel('Message').inputValue()).toBe('set color to blue');
  expect(await messages(a)).not.toContain('set color to blue');

  // Once the other tab lets go, the message goes as it is.
  // (…and says so, as a tab's worker does at the end of a run.)
  await b.evaluate((id) => {
    (window as unknown as { __release: () => void }).__release();
    new BroadcastChannel('trellis').postMessage({
      type: 'busy-changed',
      sessionId: id,
      busy: false,
    });
  }, sessionId);
  await a.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
  await expect.poll(async () => a.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
  await a.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => messages(a)).toContain('color is now blue.');
  expect(browser.errors).toEqual([]);
});

/** The id of the one session in the app's database. */
function onlySessionId(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('trellis');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const keys = open.result
            .transaction('sessionMeta')
            .objectStore('sessionMeta')
            .getAllKeys();
          keys.onsuccess = () => {
            open.result.close();
            const [key] = keys.result as string[][];
            resolve(key![2]!);
          };
        };
      }),
  );
}
