// Accessibility: axe-core finds no serious or critical violation in any view of the app, light
// and dark, on a desktop and on a phone-sized screen; and every action is reachable by keyboard.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseAgent, openApp, say } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { launch, type Browser } from './browser.ts';

const report = (violations: Awaited<ReturnType<typeof seriousViolations>>) =>
  violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.join('\n  ')}`).join('\n');

async function expectClean(page: Page, where: string): Promise<void> {
  const violations = await seriousViolations(page);
  expect(violations, `${where}:\n${report(violations)}`).toEqual([]);
}

/** On a phone, shows one pane (the Panels bar); on a desktop every pane shows already. */
async function showPane(page: Page, phone: boolean, pane: string): Promise<void> {
  if (phone)
    await page
      .getByRole('navigation', { name: 'Panels' })
      .getByRole('button', { name: pane })
      .click();
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const settings = page.locator('details.settings');
  if (!(await settings.evaluate((element) => (element as HTMLDetailsElement).open)))
    await settings.locator('summary').click();
  await page.getByLabel('Theme').selectOption(theme);
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
  await settings.locator('summary').click();
}

describe.each([
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
])('accessibility ($name)', ({ name, viewport }) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch({ viewport });
    const { page } = browser;
    await openApp(page);
    // Something in every panel: a turn with state, a rewound branch, an artifact, an approval.
    await say(page, 'set color to red');
    await say(page, 'save todo.txt as buy milk');
    await say(page, 'what is color');
    // A branch left by a rewind: the event log shows its events off the active path (dimmed),
    // and the marker; the log stays open for every check below.
    await say(page, 'set color to blue');
    await page
      .locator('.chat .message-row.row-user')
      .last()
      .getByRole('button', { name: /^Rewind to/ })
      .click();
    await page.getByRole('status').filter({ hasText: 'Rewound to before' }).waitFor();
    await showPane(page, name === 'phone', 'Log');
    await page.getByRole('region', { name: 'Event log' }).locator('summary').first().click();
    await page.locator('.event-log li.inactive').first().waitFor();
    await showPane(page, name === 'phone', 'Chat');
  }, 120_000);
  afterAll(() => browser?.close());

  for (const theme of ['light', 'dark'] as const) {
    it(`finds nothing serious in the chat and its panels (${theme})`, async () => {
      const { page } = browser;
      await setTheme(page, theme);
      if (name === 'phone') {
        for (const pane of ['Chat', 'Sessions', 'History', 'State', 'Artifacts', 'Log']) {
          await showPane(page, true, pane);
          await expectClean(page, `${pane} pane`);
        }
        await showPane(page, true, 'Chat');
      } else {
        // The event log's rows off the active path, in sight (axe judges contrast on screen).
        await page.locator('.event-log li.inactive').first().scrollIntoViewIfNeeded();
        await expectClean(page, 'chat');
      }
    });

    it(`finds nothing serious in the Flows, Agents, Providers, ADK servers and Tool servers views (${theme})`, async () => {
      const { page } = browser;
      await setTheme(page, theme);
      const header = page.getByRole('banner');
      for (const view of ['Flows', 'Agents']) {
        await header.getByRole('button', { name: new RegExp(`^${view}`) }).click();
        await page.getByRole('region', { name: view }).waitFor();
        await expectClean(page, `${view} view`);
        await header.getByRole('button', { name: new RegExp(`^${view}`) }).click();
      }
      await page.locator('details.settings summary').click();
      await page.getByRole('button', { name: 'Providers' }).click();
      await page.getByRole('region', { name: 'Providers' }).waitFor();
      await expectClean(page, 'Providers view');
      await page.getByRole('button', { name: 'Back to the chat' }).click();
      await page.locator('details.settings summary').click();
      await page.getByRole('button', { name: 'ADK servers' }).click();
      await page.getByRole('region', { name: 'ADK servers' }).waitFor();
      await expectClean(page, 'ADK servers view');
      await page.getByRole('button', { name: 'Back to the chat' }).click();
      await page.locator('details.settings summary').click();
      await page.getByRole('button', { name: 'Tool servers' }).click();
      await page.getByRole('region', { name: 'Tool servers' }).waitFor();
      await expectClean(page, 'Tool servers view');
      await page.getByRole('button', { name: 'Back to the chat' }).click();
    });

    it(`finds nothing serious in the Trace view, a span chosen (${theme})`, async () => {
      const { page } = browser;
      await setTheme(page, theme);
      await page
        .locator('.chat .message-row.row-agent')
        .last()
        .getByRole('button', { name: 'Trace' })
        .click();
      const trace = page.getByRole('region', { name: 'Trace' });
      await trace.getByRole('list', { name: 'Spans' }).getByRole('button').nth(2).click();
      await page.getByRole('region', { name: 'Span details' }).waitFor();
      await expectClean(page, 'Trace view');
      await trace.getByRole('button', { name: 'Back to the chat' }).click();
    });
  }

  it('finds nothing serious in a failed turn (light and dark)', async () => {
    const { page } = browser;
    // A session file whose turn failed, as ADK writes it: the chat shows the failure in its list.
    const at = Date.now() / 1000;
    const file = {
      id: 'failed-turn',
      appName: 'trellis',
      userId: 'user',
      state: {},
      lastUpdateTime: at,
      events: [
        {
          id: 'e1',
          invocationId: 'i1',
          author: 'user',
          timestamp: at,
          content: { role: 'user', parts: [{ text: 'what is color' }] },
          actions: { stateDelta: {}, artifactDelta: {} },
        },
        {
          id: 'e2',
          invocationId: 'i1',
          author: 'state_keeper',
          timestamp: at,
          errorCode: 'MODEL_ERROR',
          errorMessage: 'The model server answered 500.',
          actions: { stateDelta: {}, artifactDelta: {} },
        },
      ],
    };
    await showPane(page, name === 'phone', 'Sessions');
    await page.getByLabel('Import session…').setInputFiles({
      name: 'failed.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file)),
    });
    await showPane(page, name === 'phone', 'Chat');
    await page.locator('.chat .chat-error').waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expectClean(page, `failed turn (${theme})`);
    }
  });

  it('finds nothing serious in the Undo of a delete (light and dark)', async () => {
    const { page } = browser;
    await showPane(page, name === 'phone', 'Sessions');
    await page.getByRole('button', { name: 'New session' }).click();
    await page.locator('.session-heading').filter({ hasText: 'New session' }).waitFor();
    await showPane(page, name === 'phone', 'Sessions');
    await page
      .getByRole('navigation', { name: 'Sessions' })
      .getByRole('button', { name: 'Delete' })
      .click();
    const undo = page.locator('.undo-item');
    await undo.waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await expectClean(page, `Undo bar (${theme})`);
    }
    await undo.getByRole('button', { name: /^Dismiss/ }).click();
    await expect.poll(() => undo.count()).toBe(0);
  });

  it('finds nothing serious in a flow session waiting for approval (dark)', async () => {
    const { page } = browser;
    await setTheme(page, 'dark');
    await showPane(page, name === 'phone', 'Sessions');
    await page.getByRole('button', { name: 'New session' }).click();
    await chooseAgent(page, /support/);
    await say(page, 'Is invoice INV-1042 paid?');
    await page.getByRole('button', { name: 'Approve' }).first().waitFor();
    await expectClean(page, 'approval');
  });
});
