// The app in real Chromium: a turn with the offline state keeper, through the worker, into
// IndexedDB, and still there after a reload.

import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { launch, type Browser } from './browser.ts';

let browser: Browser;
beforeEach(async () => {
  browser = await launch();
});
afterEach(async () => {
  await browser.close();
});

it('runs a turn with the state keeper and keeps it across a reload', async () => {
  const { page } = browser;
  await page.goto(inject('appUrl'));
  await page.getByLabel('Message').fill('set color to red');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByText('color is now red.').waitFor();
  const state = page.getByRole('region', { name: 'State' });
  expect(await state.innerText()).toContain('"color": "red"');

  await page.reload();
  await page.getByText('color is now red.').waitFor();
  expect(await state.innerText()).toContain('"color": "red"');
  expect(browser.errors).toEqual([]);
});
