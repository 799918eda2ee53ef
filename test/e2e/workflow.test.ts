// An ADK 2.0 Workflow in the app, in real Chromium: the help desk demo (offline, no model) runs
// its nodes, lights them on the Flow panel's graph, waits for the user's review across a reload,
// goes on with the reply typed in the message box, and a rewind before its turn takes its state
// back.

import { expect, it } from 'vitest';
import { chooseAgent, openApp, region, stateText, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('runs the help desk: its graph lit, the review waiting across a reload, the answer sending', async () => {
  const { page } = browser;
  await openApp(page);
  await chooseAgent(page, /Help desk/);
  await page.getByLabel('Message').fill('I was charged twice');
  await page.getByRole('button', { name: 'Send' }).click();

  const waiting = page.getByRole('region', { name: 'Waiting for your reply' });
  await waiting.getByText('Send this reply to the customer?').waitFor();
  const chat = page.locator('.chat');
  await chat.getByText('Triage: this goes to the billing desk.').waitFor();
  await chat.getByText(/Billing desk: I checked the account/).waitFor();
  // Each message says which node wrote it, by its path.
  expect((await chat.locator('.author').allInnerTexts()).slice(0, 2)).toEqual([
    'help_desk › triage',
    'help_desk › billing',
  ]);

  // The graph: the route taken and the nodes that ran are lit, the review waits.
  const flow = region(page, 'Flow');
  await flow.getByRole('img', { name: /^review function · waiting/ }).waitFor();
  await flow.getByRole('img', { name: /^triage condition · done/ }).waitFor();
  await flow.getByRole('img', { name: /^billing function · done/ }).waitFor();
  await flow.getByRole('img', { name: /^join join · done/ }).waitFor();
  expect(await flow.getByRole('img', { name: /^technical function · done/ }).count()).toBe(0);

  // A reload: the review still waits, read from the log.
  await page.reload();
  await waitReady(page);
  await waiting.getByText('Send this reply to the customer?').waitFor();
  await flow.getByRole('img', { name: /^review function · waiting/ }).waitFor();

  // The reply typed in the message box answers it; the run goes on from the review.
  await page.getByLabel('Message').fill('yes');
  await page.getByRole('button', { name: 'Send' }).click();
  await chat.getByText(/^Sent, and ticket T-\d+ is closed\.$/).waitFor();
  await flow.getByRole('img', { name: /^publish function · done/ }).waitFor();
  expect(await waiting.count()).toBe(0);
  await expect.poll(() => stateText(page)).toMatch(/sent\s+true/);
  expect(await chat.getByText('Triage: this goes to the billing desk.').count()).toBe(1);

  // Time travel: the node runs are checkpoints; back to before publish, and Resume runs it again.
  await page.getByRole('button', { name: 'Checkpoints', exact: true }).click();
  const checkpoints = region(page, 'Checkpoints');
  await checkpoints.getByRole('button', { name: 'Rewind to before publish' }).click();
  await expect.poll(() => stateText(page)).not.toMatch(/sent/);
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await chat.getByRole('button', { name: 'Resume' }).click();
  await chat.getByText(/^Sent, and ticket T-\d+ is closed\.$/).waitFor();
  await expect.poll(() => stateText(page)).toMatch(/sent\s+true/);

  // Rewind to before the turn: what its nodes wrote to the state goes back.
  const history = region(page, 'History');
  await history.getByRole('button', { name: 'I was charged twice' }).click();
  await history.getByRole('button', { name: 'Rewind to before this turn' }).click();
  await expect.poll(() => stateText(page)).not.toMatch(/sent|ticket|desk/);
  expect(browser.errors).toEqual([]);
}, 120_000);
