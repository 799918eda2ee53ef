// Screenshots of the canvas with an Iteration group, Human Input's two answers and a sticky note,
// light and dark, desktop and phone; and of the Flow panel lighting the nodes inside the group
// as a run goes through them: `npm run screenshots`.

import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { openApp, region } from '../e2e/app-page.ts';
import { launch } from '../e2e/browser.ts';

const shot = (name: string) => ({ path: `docs/screenshots/${name}.png` });

/** Drinks, each described then rated inside an Iteration; a Human Input asks before summing up. */
const DRINKS = {
  name: 'drinks',
  description: 'Describes each drink of a list, then asks before it sums them up.',
  state: [{ key: 'drinks', operation: 'replace', default: ['tea', 'coffee', 'cocoa'] }],
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 110 } },
    {
      id: 'each',
      type: 'iteration',
      label: 'Each drink',
      input: '{{state.drinks}}',
      position: { x: 190, y: 40 },
      size: { width: 400, height: 190 },
    },
    {
      id: 'describe',
      type: 'llm',
      label: 'Describe',
      instruction: 'Describe {{iteration.item}} in one line.',
      parent: 'each',
      position: { x: 30, y: 70 },
    },
    {
      id: 'rate',
      type: 'llm',
      label: 'Rate',
      instruction: 'Rate it from 1 to 5: {{output}}',
      parent: 'each',
      position: { x: 230, y: 70 },
    },
    {
      id: 'ask',
      type: 'humanInput',
      label: 'Go on?',
      description: 'Sum up the {{state.drinks}}?',
      position: { x: 650, y: 100 },
    },
    {
      id: 'sum',
      type: 'llm',
      label: 'Sum up',
      instruction: 'Sum up: {{output}}',
      position: { x: 860, y: 40 },
    },
    {
      id: 'stop',
      type: 'reply',
      label: 'Stop',
      message: 'Not summed up.',
      position: { x: 860, y: 170 },
    },
    { id: 'end', type: 'end', position: { x: 1060, y: 40 } },
  ],
  edges: [
    { from: 'start', to: 'each' },
    { from: 'describe', to: 'rate' },
    { from: 'each', to: 'ask' },
    { from: 'ask', to: 'sum', when: 'proceed' },
    { from: 'ask', to: 'stop', when: 'reject' },
    { from: 'sum', to: 'end' },
  ],
  notes: [
    {
      id: 'note_1',
      text: 'Describe → Rate runs once per drink; the Iteration’s output is the list of each drink’s last answer.',
      position: { x: 190, y: 270 },
      size: { width: 320, height: 80 },
    },
  ],
};

/** Opens the app (its "works offline" banner dismissed), and saves DRINKS as a new flow. */
async function openDrinks(page: Page) {
  await openApp(page);
  await page
    .getByRole('button', { name: 'OK' })
    .click()
    .catch(() => undefined);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('button', { name: 'New flow' }).click();
  await flows.getByRole('tab', { name: 'Code' }).click();
  await flows.getByLabel('Flow JSON').fill(JSON.stringify(DRINKS, null, 2));
  await flows.getByRole('tab', { name: 'Canvas' }).click();
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “drinks”/ })
    .waitFor();
  await flows.locator('.react-flow__node[data-id="rate"]').waitFor();
  return flows;
}

it('takes the canvas screenshots with a group and a note: light and dark, desktop and phone', async () => {
  for (const [name, viewport, dark] of [
    ['flow-canvas-groups', { width: 1440, height: 900 }, false],
    ['flow-canvas-groups-dark', { width: 1440, height: 900 }, true],
    ['flow-canvas-groups-phone', { width: 390, height: 844 }, false],
    ['flow-canvas-groups-phone-dark', { width: 390, height: 844 }, true],
  ] as const) {
    const browser = await launch({ viewport });
    const { page } = browser;
    try {
      if (dark) await page.emulateMedia({ colorScheme: 'dark' });
      const flows = await openDrinks(page);
      // The group chosen: its resize handles show.
      await flows.locator('.react-flow__node[data-id="each"] .group-head').click();
      await flows.getByRole('region', { name: 'Node each' }).waitFor();
      await page.waitForTimeout(500); // the form's smooth scroll into view
      await flows.locator('.canvas-pane').scrollIntoViewIfNeeded();
      await page.screenshot(shot(name));
    } finally {
      await browser.close();
    }
  }
});

it('takes the screenshot of a run lit inside a group, waiting at Human Input', async () => {
  const browser = await launch({ viewport: { width: 1440, height: 900 } });
  const { page } = browser;
  try {
    const flows = await openDrinks(page);
    await flows.getByRole('button', { name: 'Use in this session' }).click();
    await page.getByLabel('Message').fill('Three drinks, please.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Proceed' }).waitFor();
    await region(page, 'Flow')
      .getByRole('img', { name: /^Go on\? humanInput · waiting/ })
      .waitFor();
    await page.screenshot(shot('flow-run-groups'));
  } finally {
    await browser.close();
  }
});
