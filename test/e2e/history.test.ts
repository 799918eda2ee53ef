// Rewind by clicking a past turn, switch back to the abandoned branch, and both survive a reload.

import { expect, it } from 'vitest';
import { messages, openApp, region, say, stateText } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('rewinds to before a clicked turn, shows the marker, and switches back to the branch it left', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set color to red');
  await say(page, 'set color to blue');
  await say(page, 'set size to large');
  expect(await stateText(page)).toMatch(/color\s+blue[\s\S]*size\s+large/);

  const history = region(page, 'History');
  await history.getByRole('button', { name: 'set color to blue' }).click();
  await page
    .getByRole('region', { name: 'History' })
    .getByRole('button', { name: /^Rewind/ })
    .click();
  await expect.poll(() => messages(page)).toEqual(['set color to red', 'color is now red.']);
  expect(await stateText(page)).toMatch(/color\s+red/);
  expect(await stateText(page)).not.toMatch(/size/);

  // The log keeps everything; the marker says what it did.
  const log = region(page, 'Event log');
  await log.locator('summary').first().click();
  await log.getByText('Rewound to before “set color to blue”').waitFor();

  // A new turn grows a new branch; the old one stays visible by its first turn, dimmed.
  await say(page, 'set color to green');
  await page.reload();
  await page.getByText('color is now green.').waitFor();
  expect(await stateText(page)).toMatch(/color\s+green/);
  expect(await history.getByRole('button').allInnerTexts()).toEqual([
    'set color to red',
    'set color to blue',
    'set color to green',
  ]);
  expect(await history.locator('.turn.abandoned').allInnerTexts()).toEqual(['set color to blue']);

  // Switch back: the abandoned branch comes back whole, state included.
  await history.getByRole('button', { name: 'set color to blue' }).click();
  await page.getByRole('button', { name: 'Switch to this branch' }).click();
  await expect.poll(() => stateText(page)).toMatch(/color\s+blue[\s\S]*size\s+large/);
  expect(await messages(page)).toEqual([
    'set color to red',
    'color is now red.',
    'set color to blue',
    'color is now blue.',
    'set size to large',
    'size is now large.',
  ]);
  await page.reload();
  await page.getByText('size is now large.').waitFor();
  expect(await history.locator('.turn.active').allInnerTexts()).toEqual([
    'set color to red',
    'set color to blue',
    'set size to large',
  ]);
  expect(await history.locator('.turn.abandoned').allInnerTexts()).toEqual(['set color to green']);
  expect(browser.errors).toEqual([]);
});
