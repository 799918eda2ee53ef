// A turn with the offline state keeper, through the worker into IndexedDB, kept across a reload.

import { expect, it } from 'vitest';
import { messages, openApp, region, say, stateText } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('runs a turn with the state keeper and keeps it across a reload', async () => {
  const { page } = browser;
  await openApp(page);
  expect(
    await page.getByLabel('Agent', { exact: true }).locator('option:checked').innerText(),
  ).toMatch(/state keeper/i);
  await say(page, 'set color to red');
  expect(await messages(page)).toEqual(['set color to red', 'color is now red.']);
  expect(await stateText(page)).toMatch(/color\s+red/);
  await say(page, 'save todo.txt as buy milk');
  await expect.poll(() => region(page, 'Artifacts').innerText()).toContain('todo.txt');

  await page.reload();
  await page.getByText('color is now red.').waitFor();
  expect(await stateText(page)).toMatch(/color\s+red/);
  expect(await region(page, 'History').getByRole('button').allInnerTexts()).toEqual([
    'set color to red',
    'save todo.txt as buy milk',
  ]);
  expect(browser.errors).toEqual([]);
});

it('keeps state keys named like built-ins (__proto__, constructor, valueOf) as any other', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set __proto__ to x');
  await say(page, 'what is __proto__');
  await say(page, 'set constructor to y');
  await say(page, 'what is valueOf');
  const answers = await messages(page);
  // (Markdown may show __proto__ in bold: the answer is about it either way.)
  expect(answers[3]).toMatch(/proto(__)? is "x"\.$/);
  expect(answers[5]).toMatch(/^constructor is now y\.$/);
  expect(answers[7]).toBe('valueOf is not set.');
  expect(await stateText(page)).toMatch(/__proto__\s+x/);
  expect(await stateText(page)).toMatch(/constructor\s+y/);

  await page.reload();
  await page.getByText('valueOf is not set.').waitFor();
  expect(await stateText(page)).toMatch(/__proto__\s+x/);
  expect(await stateText(page)).toMatch(/constructor\s+y/);
  await say(page, 'what is constructor');
  expect((await messages(page)).at(-1)).toBe('constructor is "y".');
  expect(browser.errors).toEqual([]);
});
