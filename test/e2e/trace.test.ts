// The Trace view, as a user meets it: a turn's spans as a waterfall opened from History or from an
// answer, with durations, nesting, a parallel fan-out side by side, the wait for an approval, a
// failed tool call marked where it failed, a span's details, and the OTLP JSON export.

import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  chooseAgent,
  openApp,
  region,
  say,
  spanRows as rows,
  spanButtons as spans,
  traceTurn,
} from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const trace = (page: Page) => region(page, 'Trace');

/** The row of the span named `name` (its first, or its `nth`). */
const row = (page: Page, name: string | RegExp, nth = 0) =>
  spans(page).filter({ hasText: name }).nth(nth);

const DURATION = /\d+(\.\d)? (ms|s|min)$/;

it('shows the writing workflow: its steps in order, the loop rounds, and the approval wait', async () => {
  const { page } = browser;
  await openApp(page);
  await chooseAgent(page, /workflow/i);
  await page.getByLabel('Message').fill('tea');
  await page.getByRole('button', { name: 'Send' }).click();
  const approve = region(page, 'Pending approvals').getByRole('button', { name: 'Approve' });
  await approve.waitFor();
  // Before the answer, the wait is open: drawn up to now, and said to be still waiting.
  await traceTurn(page, 'tea');
  await expect.poll(() => row(page, /^wait /).textContent()).toMatch(/still waiting/);
  await trace(page).getByRole('button', { name: 'Back to the chat' }).click();
  await approve.click();
  await page.getByText(/complete/).waitFor();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();

  await traceTurn(page, 'tea');
  const shown = await rows(page);
  // Every row says its kind, its name and how long it took, in text.
  for (const text of shown) expect(text).toMatch(DURATION);
  const agents = shown
    .filter((text) => text.startsWith('agent '))
    .map((text) => /^agent (\w+)/.exec(text)?.[1]);
  // The steps in order; the loop's rounds (the critic's second look ends it); the run resumed
  // by the approval, a root of its own.
  expect(agents).toEqual([
    'writing_workflow',
    'drafter',
    'review_loop',
    'critic',
    'reviser',
    'critic',
    'publisher',
    'writing_workflow',
    'publisher',
  ]);
  expect(shown.filter((text) => text.startsWith('invocation '))).toEqual([
    expect.stringMatching(/^invocation invocation \d/),
    expect.stringMatching(/^invocation invocation \(resumed\) \d/),
  ]);
  expect(shown.filter((text) => text.startsWith('model call')).length).toBeGreaterThanOrEqual(6);
  // The approval: answered, so the wait is closed and measured.
  const wait = shown.find((text) => text.startsWith('wait '));
  expect(wait).toMatch(/^wait wait for approval: publish \d/);
  expect(wait).not.toContain('still waiting');
  expect(shown.some((text) => /^tool call publish \d/.test(text))).toBe(true);
  // Nested: the steps under the workflow, the rounds under the loop.
  const depth = (name: string, nth = 0) =>
    row(page, new RegExp(`^agent ${name} `), nth)
      .locator('xpath=..')
      .evaluate((li) => getComputedStyle(li).getPropertyValue('--depth').trim());
  expect(await depth('writing_workflow')).toBe('1');
  expect(await depth('drafter')).toBe('2');
  expect(await depth('critic', 1)).toBe('3');

  // A model call's details: its model, how it finished, its answer and what it was sent (the
  // offline demo counts no tokens).
  await row(page, /^model call/).focus();
  await page.keyboard.press('Enter');
  const details = region(page, 'Span details');
  await details.getByText('Finish reason').waitFor();
  expect(await details.innerText()).toMatch(/Model\s+demo-rules/);
  await details.getByRole('heading', { name: 'Response' }).waitFor();
  await details.getByText(/contents? sent/).waitFor();
  // The arrows move between rows; Enter chooses.
  const first = shown.findIndex((text) => text.startsWith('model call'));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect
    .poll(() =>
      spans(page)
        .nth(first + 1)
        .getAttribute('aria-pressed'),
    )
    .toBe('true');
  expect(await spans(page).nth(first).getAttribute('aria-pressed')).toBe('false');

  await trace(page).getByRole('button', { name: 'Back to the chat' }).click();
  await page.getByLabel('Message').waitFor();
  expect(browser.errors).toEqual([]);
});

it('shows a flow whose parallel branches ran side by side, opened from an answer', async () => {
  const { page } = browser;
  await openApp(page);
  await chooseAgent(page, /^research-brief \(example flow\)/);
  await page.getByLabel('Message').fill('Sourdough baking');
  await page.getByRole('button', { name: 'Send' }).click();
  await region(page, 'Pending approvals').getByRole('button', { name: 'Approve' }).click();
  await page.getByText(/brief is saved/).waitFor();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();

  const answers = page.locator('.chat .message-row.row-agent');
  await answers.last().getByRole('button', { name: 'Trace' }).click();
  const shown = await rows(page);
  for (const node of ['outline', 'pros', 'cons', 'draft', 'save', 'report'])
    expect(shown.some((text) => text.startsWith(`agent ${node} `))).toBe(true);

  // The fan-out: two rows, at the same depth, whose bars overlap in time.
  const bar = async (name: string) => {
    const button = row(page, new RegExp(`^agent ${name} `));
    const box = (await button.locator('.trace-bar').boundingBox())!;
    const depth = await button
      .locator('xpath=..')
      .evaluate((li) => getComputedStyle(li).getPropertyValue('--depth').trim());
    return { ...box, depth };
  };
  const pros = await bar('pros');
  const cons = await bar('cons');
  expect(pros.depth).toBe(cons.depth);
  expect(pros.y).not.toBe(cons.y);
  expect(pros.x).toBeLessThan(cons.x + cons.width);
  expect(cons.x).toBeLessThan(pros.x + pros.width);

  // The agent's details list its branch and the events it wrote.
  await row(page, /^agent pros /).click();
  const details = region(page, 'Span details');
  await details.getByRole('heading', { name: 'Its events' }).waitFor();
  expect(await details.innerText()).toMatch(/Branch\s+\S*pros/);
  expect(browser.errors).toEqual([]);
});

it('marks a failed tool call where it failed, with its error', async () => {
  const { page } = browser;
  await openApp(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('button', { name: 'New flow' }).click();
  await flows.getByRole('tab', { name: 'Code' }).click();
  await flows.getByLabel('Flow JSON').fill(JSON.stringify(CALCULATOR_FLOW, null, 2));
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “calc”/ })
    .waitFor();
  await flows.getByRole('button', { name: 'Back to the chat' }).click();
  await chooseAgent(page, /^calc \(flow\)/);
  // "(2+3" is what the offline model asks the calculator for: it is not arithmetic.
  await say(page, 'What is (2+3?');

  await traceTurn(page, 'What is (2+3?');
  // Marked on the tool call, and on the agent that ran it (its run ended there); the flow's
  // agent above passes the error on unmarked, the model call before it went well.
  const marked = (await rows(page)).filter((text) => text.includes('⚠ failed'));
  expect(marked).toEqual([
    expect.stringMatching(/^invocation invocation ⚠ failed/),
    expect.stringMatching(/^agent math ⚠ failed/),
    expect.stringMatching(/^tool call calculator ⚠ failed \d/),
  ]);
  const failed = row(page, /^tool call calculator/);
  await failed.click();
  const details = region(page, 'Span details');
  await details.getByText(/Failed:.*Missing \) in \(2\+3/).waitFor();
  expect(await details.innerText()).toMatch(/Arguments\s+\{"expression":"\(2\+3"\}/);
  await details.getByRole('heading', { name: 'Call' }).waitFor();
  await details.getByRole('heading', { name: 'Response' }).waitFor();
  expect(browser.errors).toEqual([]);
});

it("downloads the session's traces as OTLP JSON, and says when a turn has none", async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set color to red');
  await traceTurn(page, 'set color to red');
  await rows(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    trace(page).getByRole('button', { name: 'Export traces (OTLP JSON)' }).click(),
  ]);
  // Named by the session's title and the day, not its id.
  expect(download.suggestedFilename()).toMatch(/^set-color-to-red-\d{4}-\d\d-\d\d\.otlp\.json$/);
  const json = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
    resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
  };
  const names = json.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  expect(names.map((span) => span.name)).toContain('invocation');

  // The same session imported from its file: its events came, not its spans. It says so.
  await trace(page).getByRole('button', { name: 'Back to the chat' }).click();
  const [session] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  await page.getByLabel('Import session…').setInputFiles((await session.path())!);
  await page.getByText(/^Imported “/).waitFor();
  await traceTurn(page, 'set color to red');
  await trace(page).getByText('This turn has no trace').waitFor();
  await trace(page).getByRole('button', { name: 'Export traces (OTLP JSON)' }).click();
  await trace(page).getByRole('alert').getByText('This session has no trace yet').waitFor();
  expect(browser.errors).toEqual([]);
});

/** A flow whose agent has the calculator: the offline model calls it with what the user wrote. */
const CALCULATOR_FLOW = {
  name: 'calc',
  description: 'Computes with the calculator.',
  state: [],
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'math',
      type: 'agent',
      instruction: 'Compute it with the calculator.',
      tools: ['calculator'],
    },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'math' },
    { from: 'math', to: 'end' },
  ],
};
