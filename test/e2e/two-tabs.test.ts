// Two tabs on one session: Web Locks keep the run to one tab; the other shows it is busy and
// follows live (BroadcastChannel), then takes over once the run ends.

import { expect, it } from 'vitest';
import { chooseAgent, messages, openApp, region, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('keeps a session’s run to one tab, and the other follows it live', async () => {
  const a = browser.page;
  await openApp(a);
  await chooseAgent(a, /workflow/i);
  const b = await browser.context.newPage();
  await b.goto(a.url());
  await waitReady(b);

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
