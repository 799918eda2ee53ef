// Runs that do not finish, in the app against the fixture model server (another origin, over real
// HTTP): a stopped answer stays as it was said (formatted, marked stopped) across a reload, in
// History, the event log and the export, and Continue carries it on; a failed answer keeps what
// streamed and offers Retry; a rate limit's Retry-After is waited out with a countdown (Stop ends
// it), and one longer than the app waits stops at once; the banner of other interrupted runs
// keeps to its session, can be dismissed, and stays small on a phone.

import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { openApp, region, say, waitReady } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { freshBrowserPerTest } from './browser.ts';
import { useFixtureAgent } from './markdown-app.ts';

let models: ModelServer;
beforeAll(async () => {
  models = await startModelServer();
});
afterAll(() => models.close());

const QUESTION = 'Why is the sky blue?';
const ANSWER = 'The sky is blue because air scatters blue light most.';
const chat = (page: Page) => region(page, 'Conversation');
const idle = (page: Page) =>
  page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
/** Axe finds nothing serious in what the page shows now, light and dark. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    const violations = await seriousViolations(page);
    expect(violations, `${where} (${theme})`).toEqual([]);
  }
}

/** A stopped turn, then another: the first one's run is still listed, in the banner. */
async function stoppedThenAnswered(page: Page, model: string): Promise<void> {
  await useFixtureAgent(page, models.url, model);
  await page.getByLabel('Message').fill(QUESTION);
  await page.getByRole('button', { name: 'Send' }).click();
  await chat(page).locator('.streaming').waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  await idle(page);
  await say(page, 'Tell me again');
}

/** The times the fixture server got requests for `model`. */
const requestTimes = (model: string) =>
  models.requests.filter((r) => r.body?.model === model).map((r) => r.at);

describe('on a desktop', () => {
  const browser = freshBrowserPerTest();

  it('keeps a stopped answer as it was said, after a reload too, and Continue carries it on', async () => {
    const { page } = browser;
    await openApp(page);
    await useFixtureAgent(page, models.url, 'fixture-markdown-stall-then-ok@stop');
    await page.getByLabel('Message').fill('How do I read a CSV file in Python?');
    await page.getByRole('button', { name: 'Send' }).click();
    await chat(page).locator('.streaming .code-block').waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await idle(page);

    for (const moment of ['stopped', 'reloaded']) {
      const answer = chat(page).locator('.message-row.row-agent').last();
      // Formatted as it streamed, not its Markdown source; marked; and Continue is offered.
      await answer.getByRole('heading', { level: 2, name: 'Reading a CSV file' }).waitFor();
      expect(await answer.innerText(), moment).not.toContain('## Reading');
      expect(await answer.locator('.message-cut').innerText()).toBe('Stopped before it finished');
      await chat(page).getByRole('button', { name: 'Continue' }).waitFor();
      if (moment === 'stopped') {
        await page.reload();
        await waitReady(page);
      }
    }
    // No banner says it again, and nothing says "not saved".
    expect(await region(page, 'Interrupted runs').count()).toBe(0);
    expect(await chat(page).innerText()).not.toContain('not saved');

    // In the event log, as the agent's event, and in the exported session.
    await chat(page)
      .locator('.message-row.row-agent')
      .last()
      .getByRole('button', { name: 'Event log' })
      .click();
    await region(page, 'Event log').locator('li.focused').waitFor();
    const sessions = page.getByRole('navigation', { name: 'Sessions' });
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      sessions.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const exported = JSON.parse(readFileSync((await file.path())!, 'utf8'));
    expect(exported.events.at(-1)).toMatchObject({
      author: 'writer',
      interrupted: true,
      customMetadata: { trellis: { stopped: true } },
    });

    // Continue: the model reads what it had said, and goes on.
    await chat(page).getByRole('button', { name: 'Continue' }).click();
    await idle(page);
    const last = models.requests.filter((r) => r.body?.model?.endsWith('@stop')).at(-1)!;
    expect(last.body.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: expect.stringMatching(/^## Reading a CSV file/),
    });
    // The run's end and the chat's last turn settle a frame apart.
    await expect.poll(() => chat(page).getByRole('button', { name: 'Continue' }).count()).toBe(0);
    expect(await chat(page).locator('.message-row.row-agent').count()).toBe(2);
    expect(browser.errors).toEqual([]);
  });

  it('keeps what streamed before a dropped connection, and Retry answers; its failure line goes', async () => {
    const { page } = browser;
    await openApp(page);
    await useFixtureAgent(page, models.url, 'fixture-disconnect-then-ok@e2e');
    await say(page, QUESTION);
    const cut = chat(page).locator('.message-row.row-agent').last();
    await cut.locator('.message-cut', { hasText: 'Cut off before it finished' }).waitFor();
    expect(await cut.locator('.message').innerText()).toMatch(/The sky/);
    await chat(page)
      .locator('.chat-error')
      .filter({ hasText: /closed the connection before the answer was complete/ })
      .waitFor();
    // Said once, in the chat: not again in an error banner.
    expect(await page.locator('.main .banner.error').count()).toBe(0);

    await chat(page).getByRole('button', { name: 'Retry' }).click();
    await chat(page).getByText(ANSWER).waitFor();
    await idle(page);
    expect(await chat(page).locator('.chat-error').count()).toBe(0);
    expect(
      await chat(page)
        .getByRole('button', { name: /^(Retry|Resume|Continue)$/ })
        .count(),
    ).toBe(0);
    expect(browser.errors.filter((e) => !/ERR_(EMPTY_RESPONSE|INCOMPLETE)/.test(e))).toEqual([]);
  });

  it.each([
    ['it can read Retry-After (exposed)', 'fixture-429-wait-then-ok@e2e', 2000],
    [
      'CORS hides Retry-After (the error says "try again in 1s")',
      'fixture-429-hidden-then-ok@e2e',
      1000,
    ],
  ])('waits out a rate limit with a countdown when %s', async (_, model, asked) => {
    const { page } = browser;
    await openApp(page);
    await useFixtureAgent(page, models.url, model);
    await page.getByLabel('Message').fill(QUESTION);
    await page.getByRole('button', { name: 'Send' }).click();
    const wait = chat(page).locator('.model-wait');
    await wait.waitFor();
    expect(await wait.innerText()).toMatch(
      /^Fixture is limiting requests \(HTTP 429\)\. Trying again, as it asked, in [12] s \(attempt 2 of 4; the app waits at most 60 s between attempts\)/,
    );
    await chat(page).getByText(ANSWER).waitFor();
    await idle(page);
    expect(await wait.count()).toBe(0);
    const [first, second] = requestTimes(model);
    // No sooner than asked (before: four attempts in 3 s against Retry-After: 20).
    expect(second! - first!).toBeGreaterThanOrEqual(asked - 10);
    expect(requestTimes(model)).toHaveLength(2);
  });

  it('stops at once while it waits: no other attempt, and the turn offers Continue', async () => {
    const { page } = browser;
    await openApp(page);
    await useFixtureAgent(page, models.url, 'fixture-429-wait-long@e2e');
    await page.getByLabel('Message').fill(QUESTION);
    await page.getByRole('button', { name: 'Send' }).click();
    await chat(page).locator('.model-wait').waitFor();
    await expectAccessible(page, 'a model waiting to retry');
    await page.keyboard.press('Escape');
    await idle(page);
    expect(requestTimes('fixture-429-wait-long@e2e')).toHaveLength(1);
    const turn = chat(page).locator('.unfinished-turn');
    expect(await turn.innerText()).toMatch(/^Stopped before it finished\.\s*Continue$/);
    await expectAccessible(page, 'a turn stopped before it said anything');
    expect(browser.errors.filter((e) => !/status of 429/.test(e))).toEqual([]);
  });

  it('does not wait for a server that asks for an hour: says until when, and offers Retry', async () => {
    const { page } = browser;
    await openApp(page);
    await useFixtureAgent(page, models.url, 'fixture-429-hour-then-ok@e2e');
    await say(page, QUESTION);
    await chat(page)
      .locator('.chat-error')
      .filter({ hasText: /asks to wait 60 min \(until .+\), longer than the 60 s the app waits/ })
      .waitFor();
    expect(requestTimes('fixture-429-hour-then-ok@e2e')).toHaveLength(1);
    await chat(page).getByRole('button', { name: 'Retry' }).click();
    await chat(page).getByText(ANSWER).waitFor();
    expect(browser.errors.filter((e) => !/status of 429/.test(e))).toEqual([]);
  });

  it('lists other interrupted runs only in their own session, not in the Trace view, until dismissed', async () => {
    const { page } = browser;
    await openApp(page);
    await stoppedThenAnswered(page, 'fixture-stall-then-ok@banner');
    const banner = region(page, 'Interrupted runs');
    await banner.getByRole('button', { name: `Resume “${QUESTION}”` }).waitFor();
    await expectAccessible(page, 'the banner');

    // Another session: not there. The Trace view: not there either.
    await page.getByRole('button', { name: 'New session' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await page.locator('.sessions .session-open', { hasText: QUESTION }).click();
    await banner.waitFor();
    await chat(page)
      .locator('.message-row.row-agent')
      .last()
      .getByRole('button', { name: 'Trace' })
      .click();
    await region(page, 'Trace').waitFor();
    expect(await banner.count()).toBe(0);
    await page.getByRole('button', { name: 'Back to the chat' }).click();
    await banner.waitFor();

    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    expect(browser.errors).toEqual([]);
  });
});

describe('on a phone', () => {
  const browser = freshBrowserPerTest({ viewport: { width: 390, height: 844 } });

  it('keeps the banner to one line a run, and the chat says what stopped', async () => {
    const { page } = browser;
    await openApp(page);
    await stoppedThenAnswered(page, 'fixture-stall-then-ok@phone');
    const banner = region(page, 'Interrupted runs');
    await banner.getByRole('button', { name: `Resume “${QUESTION}”` }).waitFor();
    // Before: 141 px, lead, reason and time on lines of their own.
    expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(56);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await expectAccessible(page, 'the banner on a phone');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => banner.count()).toBe(0);
    expect(browser.errors).toEqual([]);
  });
});
