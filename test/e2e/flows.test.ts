// Flows in the app, as a user meets them: an example flow run with its graph lit up live, a
// rewind to before a node from the Checkpoints view, resumed after a reload; and the Flows view,
// where a broken flow is refused with its problems in place and a fixed one joins the agents.

import { expect, it } from 'vitest';
import { chooseAgent, duplicateSupport, openApp, region, say, waitReady } from './app-page.ts';
import { flowiseTriageFile } from '../support/flowise-fixture.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const graph = (name: RegExp) => browser.page.getByRole('group', { name });

/** The nodes of the Checkpoints table, in order, with their status. */
async function checkpointNodes(): Promise<string[]> {
  const rows = region(browser.page, 'Checkpoints').locator('tbody tr');
  return (await rows.evaluateAll((trs) =>
    trs.map((tr) => `${tr.querySelector('strong')?.textContent}:${tr.className}`),
  )) as string[];
}

it('runs an example flow live, rewinds to before a node, and resumes it after a reload', async () => {
  const { page } = browser;
  await openApp(page);
  await chooseAgent(page, /^support \(example flow\)/);
  await page.getByLabel('Message').fill('Is invoice INV-1042 paid?');
  await page.getByRole('button', { name: 'Send' }).click();

  // The graph follows the run: it is running, then waits at billing for the approval.
  await graph(/^Flow graph of support, running /).waitFor();
  await graph(/^Flow graph of support, waiting for you at billing$/).waitFor();
  await region(page, 'Pending approvals').getByRole('button', { name: 'Approve' }).click();
  await page.getByText(/INV-1042 .* paid/).waitFor();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  await graph(/^Flow graph of support$/).waitFor();

  await page.getByRole('button', { name: 'Checkpoints' }).click();
  expect(await checkpointNodes()).toEqual([
    'start:done',
    'classify:done',
    'route:done',
    'billing:done',
    'check:done',
    'end:done',
  ]);
  await region(page, 'Checkpoints')
    .getByRole('button', { name: /^Rewind to before check/ })
    .click();
  await expect
    .poll(checkpointNodes)
    .toEqual(['start:done', 'classify:done', 'route:done', 'billing:done', 'check:interrupted']);
  expect(await page.locator('.chat .message').filter({ hasText: '"resolved"' }).count()).toBe(0);

  await page.reload();
  await waitReady(page);
  await graph(/^Flow graph of support, stopped at check$/).waitFor();
  await page.getByRole('button', { name: /^Resume/ }).click();
  await graph(/^Flow graph of support$/).waitFor();
  await page.getByRole('button', { name: 'Checkpoints' }).click();
  await expect
    .poll(checkpointNodes)
    .toEqual([
      'start:done',
      'classify:done',
      'route:done',
      'billing:done',
      'check:done',
      'end:done',
    ]);
  await page.getByRole('button', { name: 'Chat' }).click();
  await page.locator('.chat .message').filter({ hasText: '"resolved"' }).waitFor();
  expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);
  expect(browser.errors).toEqual([]);
});

it('refuses a broken flow with its problems in place, and lists a fixed one as an agent', async () => {
  const { page } = browser;
  await openApp(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('group', { name: 'Canvas of support' }).waitFor();
  await flows.getByRole('button', { name: 'Duplicate support' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /support-copy/ })
    .waitFor();
  await flows.getByRole('tab', { name: 'Code' }).click();
  const editor = flows.getByLabel('Flow JSON');
  const good = await editor.inputValue();

  // JSON that does not parse: the place is named, and Save is refused.
  await editor.fill(good.replace('"nodes": [', '"nodes": [,'));
  await flows
    .getByRole('alert')
    .filter({ hasText: /line \d+, column \d+/ })
    .waitFor();
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /^Not saved/ })
    .waitFor();

  // JSON that parses into a broken flow: each problem names its node.
  await editor.fill(good.replace('"to": "end"', '"to": "the_end"'));
  const problems = flows.getByRole('alert').filter({ hasText: /the_end/ });
  await problems.waitFor();
  expect(await problems.innerText()).toMatch(/tech: .*the_end/);
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /^Not saved/ })
    .waitFor();
  expect(
    await page.getByLabel('Agent', { exact: true }).locator('option').allTextContents(),
  ).not.toContain('support-mine (flow)');

  await editor.fill(good.replace('"name": "support-copy"', '"name": "support-mine"'));
  await expect.poll(() => flows.getByRole('alert').count()).toBe(0);
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “support-mine”/ })
    .waitFor();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).locator('option').allTextContents())
    .toContain('support-mine (flow)');

  // It runs like the example it came from.
  await flows.getByRole('button', { name: 'Back to the chat' }).click();
  await chooseAgent(page, /^support-mine \(flow\)/);
  await say(page, 'My login is broken');
  await graph(/^Flow graph of support-mine$/).waitFor();
  expect(await page.locator('.chat .message .author').allInnerTexts()).toContain('tech');
  expect(browser.errors).toEqual([]);
});

it('imports a Flowise Sequential Agents export with its report, saves it as a flow, and runs it', async () => {
  const { page } = browser;
  await openApp(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByLabel('Import Flowise flow…').setInputFiles(flowiseTriageFile);
  await flows
    .getByRole('status')
    .filter({ hasText: /^Imported from Flowise with \d+ notes/ })
    .waitFor();
  const report = flows.getByRole('region', { name: 'Import report' });
  await report.getByText('its chat model becomes the provider you choose for the flow').waitFor();
  await report.getByText(/tool "Custom Tool" \(customTool\) has no Trellis counterpart/).waitFor();
  await flows.getByRole('tab', { name: 'Code' }).click();
  const text = await flows.getByLabel('Flow JSON').inputValue();
  expect(JSON.parse(text)).toMatchObject({ name: 'Triage' });
  await flows.getByRole('tab', { name: 'Canvas' }).click();
  await flows.getByRole('group', { name: 'Canvas of Triage' }).waitFor();
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “Triage”/ })
    .waitFor();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).locator('option').allTextContents())
    .toContain('Triage (flow)');

  // It runs: on the offline model until a provider is chosen for it.
  await flows.getByRole('button', { name: 'Use in this session' }).click();
  await say(page, 'My invoice INV-1042 was charged twice');
  await graph(/^Flow graph of Triage$/).waitFor();
  // Flowise's LLM node classified it, and its condition sent it to the billing agent: each signs
  // with its label, as Flowise shows it (its identifier, Flowise's node name, on hover).
  const authors = page.locator('.chat .message .author');
  expect(await authors.allInnerTexts()).toEqual(['Classifier', 'Billing']);
  expect(await authors.first().getAttribute('title')).toBe('classifier');
  await page
    .locator('.chat .message pre.json')
    .filter({ hasText: '"category": "billing"' })
    .waitFor();
  expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);
  expect(browser.errors).toEqual([]);
});

it('edits a node in its form: the JSON follows, a problem shows at the node, Save keeps it', async () => {
  const { page } = browser;
  await openApp(page);
  const flows = await duplicateSupport(page);
  // The flow's JSON, read in the Code tab (then back to the canvas, where the form stays open).
  const json = {
    async inputValue() {
      await flows.getByRole('tab', { name: 'Code' }).click();
      const text = await flows.getByLabel('Flow JSON').inputValue();
      await flows.getByRole('tab', { name: 'Canvas' }).click();
      await flows.locator('.react-flow__renderer').waitFor();
      return text;
    },
  };

  // The condition's rule table.
  await flows.getByRole('button', { name: /^route condition/ }).click();
  const route = flows.getByRole('region', { name: 'Node route' });
  // The form opens below the canvas, brought into view.
  await expect
    .poll(() =>
      route.evaluate((node) => {
        const box = node.getBoundingClientRect();
        return box.top >= 0 && box.top < innerHeight - 100;
      }),
    )
    .toBe(true);
  await route.getByLabel('Value, row 1').fill('refund');
  await expect
    .poll(async () => JSON.parse(await json.inputValue()).nodes[2].rules[0].value)
    .toBe('refund');

  // A switch, by keyboard on the canvas.
  await flows.getByRole('button', { name: /^billing agent/ }).focus();
  await page.keyboard.press('Enter');
  const billing = flows.getByRole('region', { name: 'Node billing' });
  await billing.getByLabel('Require approval').uncheck();
  await expect
    .poll(async () =>
      JSON.parse(await json.inputValue()).nodes.find((n: { id: string }) => n.id === 'billing'),
    )
    .not.toHaveProperty('requireApproval');

  // A loop to nowhere: the problem shows in the node's form, and Save refuses it.
  await flows.getByRole('button', { name: /^again loop/ }).click();
  const again = flows.getByRole('region', { name: 'Node again' });
  await again.getByLabel('Loop to (node id)').fill('nowhere');
  await again
    .getByRole('alert')
    .filter({ hasText: /nowhere/ })
    .waitFor();
  await again.getByLabel('Loop to (node id)').fill('classify');
  await expect.poll(() => again.getByRole('alert').count()).toBe(0);
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “support-copy”/ })
    .waitFor();
});

it('says what an import did where the report is, in view; on a phone the Flows view marks no pane', async () => {
  const { page } = browser;
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const panes = page.getByRole('navigation', { name: 'Panels' });
  expect(await panes.locator('[aria-pressed="true"]').count()).toBe(0);
  const flows = region(page, 'Flows');
  const importer = flows.getByLabel('Import Flowise flow…');
  await importer.setInputFiles(flowiseTriageFile);
  const report = flows.getByRole('region', { name: 'Import report' });
  await report.waitFor();
  // A second import while the first is unsaved is refused: said at the top, in view, and the
  // first one's report is not left there as if it were this file's.
  await importer.setInputFiles({ ...flowiseTriageFile, name: 'Again.json' });
  const refusal = flows.getByRole('alert').filter({ hasText: /^Again\.json was not imported/ });
  await refusal.waitFor();
  await expect
    .poll(() => refusal.evaluate((el) => el.getBoundingClientRect().top))
    .toBeLessThan(844);
  expect(await report.count()).toBe(0);
  // The flow's name is a field of its own, not only a line of the JSON.
  await flows.getByLabel('Flow name').fill('Triage desk');
  await flows.getByRole('tab', { name: 'Code' }).click();
  expect(JSON.parse(await flows.getByLabel('Flow JSON').inputValue())).toMatchObject({
    name: 'Triage desk',
  });
  await panes.getByRole('button', { name: 'Chat' }).click();
  await expect
    .poll(() => panes.getByRole('button', { name: 'Chat' }).getAttribute('aria-pressed'))
    .toBe('true');
  expect(browser.errors).toEqual([]);
});
