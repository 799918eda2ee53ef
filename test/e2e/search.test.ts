// Search across sessions as a user does it (Ctrl+K): a word said only in a rewound turn of an
// older session is found, marked rewound, and opening it lands on that turn with its branch
// switched back; results follow the typing, no hits says so, Esc closes and gives the focus back.

import { expect, it } from 'vitest';
import { messages, region, stateText } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { messageBox, openApp, say, sayRewindSay } from './search-page.ts';

const browser = freshBrowserPerTest();

it('finds a word of a rewound turn in an older session and lands on that turn', async () => {
  const { page } = browser;
  await openApp(page);
  await sayRewindSay(
    page,
    ['set color to red', 'set color to magenta'],
    'set color to magenta',
    'set color to green',
  );
  const history = region(page, 'History');
  expect(await messages(page)).toEqual([
    'set color to red',
    'color is now red.',
    'set color to green',
    'color is now green.',
  ]);

  // A newer session is the one open.
  await page.getByRole('button', { name: 'New session' }).click();
  await messageBox(page).waitFor();
  await say(page, 'set size to large');

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Search sessions' });
  const input = dialog.getByRole('combobox');
  await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);

  // Results as typed: a prefix finds it, a word nobody said finds nothing, and says so.
  await input.pressSequentially('magen');
  const hit = dialog.getByRole('option').filter({ hasText: 'rewound branch' });
  await hit.waitFor();
  // The turn's message and its answer both say it: each is marked, and nothing else.
  expect(new Set(await hit.locator('mark').allInnerTexts())).toEqual(new Set(['magenta']));
  await input.pressSequentially('tax');
  await expect
    .poll(() => dialog.getByRole('status').innerText())
    .toBe('No session holds “magentax”.');
  expect(await dialog.getByRole('option').count()).toBe(0);
  await input.fill('');
  await input.pressSequentially('magenta');
  await hit.waitFor();
  const options = dialog.getByRole('option');
  expect(await options.count()).toBeGreaterThanOrEqual(1);

  // Enter on the rewound turn: its session opens with its branch back, the turn selected.
  const index = (await options.allInnerTexts()).findIndex((text) => text.includes('rewound'));
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  const selected = history.locator('.turn button[aria-pressed="true"]');
  await expect.poll(() => selected.allInnerTexts()).toEqual(['set color to magenta']);
  await expect.poll(() => stateText(page)).toMatch(/color\s+magenta/);
  await expect
    .poll(() => history.locator('.turn.abandoned > button').allInnerTexts())
    .toEqual(['set color to green']);
  expect(await history.locator('.turn.active > button').allInnerTexts()).toEqual([
    'set color to red',
    'set color to magenta',
  ]);
  expect(await selected.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await messages(page)).toContain('color is now magenta.');
  expect(browser.errors).toEqual([]);
});

it('opens from the Sessions pane, closes with Esc and gives the focus back', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set color to teal');
  const button = page.getByRole('button', { name: 'Search', exact: true });
  await button.focus();
  await button.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Search sessions' });
  await dialog.getByRole('combobox').pressSequentially('teal');
  // The session's title, its message and its state all hold the word.
  await expect.poll(() => dialog.getByRole('option').count()).toBeGreaterThanOrEqual(2);
  expect(await dialog.getByRole('option').first().getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('ArrowDown');
  expect(await dialog.getByRole('option').nth(1).getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(browser.errors).toEqual([]);
});
