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
  }, 120_000);
  afterAll(() => browser?.close());

  for (const theme of ['light', 'dark'] as const) {
    it(`finds nothing serious in the chat and its panels (${theme})`, async () => {
      const { page } = browser;
      await setTheme(page, theme);
      if (name === 'phone') {
        for (const pane of ['Chat', 'Sessions', 'History', 'State', 'Artifacts', 'Log']) {
          await page
            .getByRole('navigation', { name: 'Panels' })
            .getByRole('button', { name: pane })
            .click();
          await expectClean(page, `${pane} pane`);
        }
        await page
          .getByRole('navigation', { name: 'Panels' })
          .getByRole('button', { name: 'Chat' })
          .click();
      } else {
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

  it('finds nothing serious in a flow session waiting for approval (dark)', async () => {
    const { page } = browser;
    await setTheme(page, 'dark');
    if (name === 'phone')
      await page
        .getByRole('navigation', { name: 'Panels' })
        .getByRole('button', { name: 'Sessions' })
        .click();
    await page.getByRole('button', { name: 'New session' }).click();
    await chooseAgent(page, /support/);
    await say(page, 'Is invoice INV-1042 paid?');
    await page.getByRole('button', { name: 'Approve' }).first().waitFor();
    await expectClean(page, 'approval');
  });
});
