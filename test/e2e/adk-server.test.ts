// Trellis as the UI of an ADK server, in Chromium: a user adds a real ADK API server
// (@google/adk-devtools, its origin allowing the app's), chats with its agent as it streams,
// approves the confirmation its tool asks for, gives a long-running tool its result, rewinds into a new session (this server has no
// rewind route), copies a session to the browser and rewinds it there.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appUrl, messages, openApp, region, say, stateText } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { freshBrowserPerTest } from './browser.ts';
import { startAdkServer, type AdkServer } from '../adk/adk-server.ts';
import { startPostgres } from '../adk/postgres.ts';

const browser = freshBrowserPerTest();

let server: AdkServer;
beforeAll(async () => {
  server = await startAdkServer({ allowOrigins: [new URL(appUrl()).origin] });
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

async function addServer(page: Page, url = server.url): Promise<void> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'ADK servers', exact: true }).click();
  const view = region(page, 'ADK servers');
  await view.getByLabel('Server address').fill(url);
  await view.getByRole('button', { name: 'Add server' }).click();
  await view
    .getByRole('status')
    .filter({ hasText: `Added ${url}: 5 apps (approval, ask, echo, hostile, workflow).` })
    .waitFor();
}

async function newRemoteSession(page: Page, app: string, url = server.url): Promise<void> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'ADK servers', exact: true }).click();
  const view = region(page, 'ADK servers');
  await view
    .locator('.adk-server-list > li')
    .filter({ hasText: url })
    .locator('.adk-apps > li')
    .filter({ hasText: app })
    .getByRole('button', { name: 'New session' })
    .click();
  await page.getByText(`On the ADK server ${url} · app ${app}`).waitFor();
  await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
}

it('chats with an ADK server agent as it streams, approves its tool, rewinds into a new session, copies to the browser', async () => {
  const { page } = browser;
  await openApp(page);
  await addServer(page);

  // Streaming: the partial text shows before the answer is complete.
  await newRemoteSession(page, 'echo');
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const live = document.querySelector('.chat .streaming, .chat [aria-busy="true"]');
      if (live?.textContent) seen.push(live.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await say(page, 'count slowly');
  await expect.poll(() => messages(page)).toEqual(['count slowly', 'You said: count slowly']);
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  // The chunks so far, drawn while the answer streams (the author, then the text).
  expect(seen.join('|')).toMatch(/echo0 1\s*2/);
  await say(page, 'and again');
  await expect
    .poll(() => messages(page))
    .toEqual(['count slowly', 'You said: count slowly', 'and again', 'You said: and again']);

  // What needs the session in the browser is not offered on the server's session.
  expect(await page.locator('.chat').getByRole('button', { name: 'Edit' }).count()).toBe(0);
  expect(await page.locator('.chat').getByRole('button', { name: 'Regenerate' }).count()).toBe(0);

  // The server's trace of the session, and nothing an assistive technology would trip on.
  await page.getByRole('button', { name: 'Trace' }).click();
  await page.getByRole('list', { name: 'Trace' }).getByText('call_llm').first().waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  // Rewind: the server has no rewind route, so a new session is made on it, and said so.
  const history = region(page, 'History');
  await history.getByRole('button', { name: 'and again' }).click();
  await history.getByRole('button', { name: /^Rewind/ }).click();
  await page
    .getByText(/This ADK server has no rewind, and it kept only the state/)
    .first()
    .waitFor();
  // History links the two sessions, both ways.
  await history.getByText('Rewound from').waitFor();
  await history
    .locator('.history-link')
    .getByRole('button', { name: 'echo · new session' })
    .click();
  await history
    .locator('.history-link')
    .filter({ hasText: 'Rewound into' })
    .getByRole('button', { name: 'echo · new session (rewound)' })
    .waitFor();
  await expect
    .poll(() => messages(page))
    .toEqual(['count slowly', 'You said: count slowly', 'and again', 'You said: and again']);

  // Copy to this browser: the session is local now, and rewinds here.
  await page.getByRole('button', { name: 'Copy to this browser' }).click();
  await page.getByText(/^Copied to this browser as/).waitFor();
  await expect.poll(() => page.locator('.remote-bar').count()).toBe(0);
  await history.getByRole('button', { name: 'and again' }).click();
  await history.getByRole('button', { name: /^Rewind/ }).click();
  await expect.poll(() => messages(page)).toEqual(['count slowly', 'You said: count slowly']);

  // Approval: the server's tool asks; the approval card answers it; the tool runs.
  await newRemoteSession(page, 'approval');
  await page.getByLabel('Message').fill('send 5');
  await page.getByRole('button', { name: 'Send' }).click();
  const approvals = page.getByRole('region', { name: 'Pending approvals' });
  // ADK's own hint is for developers ("…by responding with a FunctionResponse…"): not shown.
  await approvals.getByText(/^Approve this call of send_coins to let it run/).waitFor();
  expect(await approvals.innerText()).not.toMatch(/FunctionResponse/);
  await approvals.getByRole('button', { name: 'Approve' }).click();
  await page.getByText('Done: {"sent":5}').waitFor();
  // The answer to the approval is part of the turn that asked: History lists that turn only.
  await expect.poll(() => history.getByRole('button', { name: 'send 5' }).count()).toBe(1);
  expect(await history.innerText()).not.toMatch(/Result of adk_request_confirmation/);
  await expect.poll(() => stateText(page)).toMatch(/sent\s+5/);
  // The tool's artifact, from the server's artifact routes.
  await region(page, 'Artifacts').getByText('receipt.txt').first().waitFor();

  // A long-running tool: it said "pending"; the user gives its result, and the agent goes on.
  await newRemoteSession(page, 'ask');
  await say(page, 'refund 30');
  const card = region(page, 'Waiting for your reply');
  await card.getByText('ask waits for the result of request_refund called with').waitFor();
  await card.getByText('So far:').waitFor();
  await card.getByLabel('Result — text, or a JSON object').fill('{"status": "approved"}');
  await card.getByRole('button', { name: 'Submit result' }).click();
  await page.getByText('Got request_refund: {"status":"approved"}').waitFor();
  expect(await card.count()).toBe(0);
  expect(await page.locator('.chat .tool-call .status').last().innerText()).toMatch(/done$/);
});

it('runs an ADK 2.0 Workflow the server serves: node paths on its messages, its graph lit, its node runs listed', async () => {
  const { page } = browser;
  await openApp(page);
  await addServer(page);
  await newRemoteSession(page, 'workflow');
  await say(page, 'my bill is wrong');
  await expect
    .poll(() => messages(page))
    .toEqual([
      'my bill is wrong',
      'Triage: billing',
      'Billing: a refund is on its way.',
      'Done (Billing: a refund is on its way.)',
    ]);
  const chat = page.locator('.chat');
  expect(await chat.locator('.author').allInnerTexts()).toEqual([
    'workflow › triage',
    'workflow › billing',
    'workflow › summary',
  ]);
  // The server describes the graph (ADK's /dev/apps/{app}/build_graph): the nodes that ran and the
  // route taken are lit; tech, on the route not taken, is not.
  const flow = region(page, 'Flow');
  await flow.getByRole('img', { name: /^summary function · done/ }).waitFor();
  await flow.getByRole('img', { name: /^triage condition · done/ }).waitFor();
  await flow.getByRole('img', { name: /^billing function · done/ }).waitFor();
  expect(await flow.getByRole('img', { name: /^tech function · done/ }).count()).toBe(0);
  // Its node runs are listed as the checkpoints, rewound on the server.
  await page.getByRole('button', { name: 'Checkpoints', exact: true }).click();
  const checkpoints = region(page, 'Checkpoints');
  await checkpoints.getByRole('button', { name: 'Rewind to before billing' }).waitFor();
  expect(
    await checkpoints
      .getByRole('button', { name: /^Rewind to before/ })
      .evaluateAll((buttons) => buttons.map((b) => (b as HTMLButtonElement).disabled)),
  ).toEqual([true, true, true]);
  expect(await checkpoints.getByText('summary', { exact: true }).count()).toBe(1);
  expect(browser.errors).toEqual([]);
});

it('continues a session through a second ADK server that shares its PostgreSQL', async () => {
  const postgres = await startPostgres();
  const origin = new URL(appUrl()).origin;
  const pair: AdkServer[] = [];
  try {
    for (let i = 0; i < 2; i++)
      pair.push(await startAdkServer({ allowOrigins: [origin], sessionServiceUri: postgres.url }));
    const [a, b] = pair as [AdkServer, AdkServer];
    const { page } = browser;
    await openApp(page);
    await addServer(page, a.url);
    await addServer(page, b.url);
    await newRemoteSession(page, 'echo', a.url);
    await say(page, 'through A');

    // Server B lists the session A made; opened through B, it has A's turn, and goes on there.
    await page.getByText('Settings', { exact: true }).click();
    await page.getByRole('button', { name: 'ADK servers', exact: true }).click();
    const view = region(page, 'ADK servers');
    const onB = view.locator('.adk-server-list > li').filter({ hasText: b.url });
    await onB
      .locator('.adk-apps > li')
      .filter({ hasText: 'echo' })
      .getByRole('button', { name: 'Sessions' })
      .click();
    await onB.getByRole('list', { name: 'Sessions of echo' }).getByRole('button').first().click();
    await page.getByText(`On the ADK server ${b.url} · app echo`).waitFor();
    await expect.poll(() => messages(page)).toEqual(['through A', 'You said: through A']);
    await say(page, 'through B');
    await expect
      .poll(() => messages(page))
      .toEqual(['through A', 'You said: through A', 'through B', 'You said: through B']);

    // Back on A's copy of the session in the list: B's turn is there.
    await page
      .getByRole('navigation', { name: 'Sessions' })
      .locator('li')
      .filter({ hasText: 'echo · new session' })
      .locator('.session-open')
      .click();
    await page.getByText(`On the ADK server ${a.url} · app echo`).waitFor();
    await expect
      .poll(() => messages(page))
      .toEqual(['through A', 'You said: through A', 'through B', 'You said: through B']);
  } finally {
    await Promise.all(pair.map((s) => s.stop()));
    postgres.stop();
  }
});
