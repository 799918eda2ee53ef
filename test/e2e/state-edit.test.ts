// Editing state by hand (issue 17): in the State panel, as a turn History lists and rewind takes
// back, seen by the next turn; and History's "Edit state and re-run" on a past turn.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { messages, openApp, region, say, stateText } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

/** Sets `key` to the JSON `value` in the state editor open in `scope`. */
async function setKey(page: Page, scope: ReturnType<typeof region>, key: string, value: string) {
  await scope.getByLabel('Key', { exact: true }).fill(key);
  await scope.getByLabel('Value (JSON)').fill(value);
  await scope.getByRole('button', { name: 'Set key' }).click();
}

it('edits a key in the State panel as a turn the next turn sees, and rewinds it', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set color to red');
  const state = region(page, 'State');
  await state.getByRole('button', { name: 'Edit state' }).click();
  await state.getByText('rewind does not restore them').waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  // Not JSON: it says so, and nothing changes.
  await state.getByRole('button', { name: 'Edit color' }).click();
  expect(await state.getByLabel('Value (JSON)').inputValue()).toBe('"red"');
  await setKey(page, state, 'color', 'blue');
  await expect.poll(() => state.getByRole('alert').innerText()).toMatch(/Not JSON/);
  expect(await state.locator('.state-edit-row.changed').count()).toBe(0);

  await setKey(page, state, 'color', '"blue"');
  // A key typed but not set yet is saved with the rest.
  await state.getByLabel('Key', { exact: true }).fill('__proto__');
  await state.getByLabel('Value (JSON)').fill('{"deep": [1, 2]}');
  await state.getByRole('button', { name: 'Save changes' }).click();
  const history = region(page, 'History');
  const edited = 'State edited: color = blue, __proto__ = {"deep":[1,2]}';
  await history.getByRole('button', { name: edited }).waitFor();
  expect(await stateText(page)).toMatch(/color\s+blue/);
  expect(await stateText(page)).toMatch(/__proto__\s+\{/);
  // In the chat, a note, not a message the user sent.
  expect(await page.locator('.chat .chat-note').allInnerTexts()).toEqual([edited]);
  expect(await messages(page)).toEqual(['set color to red', 'color is now red.']);

  await say(page, 'what is color');
  expect((await messages(page)).at(-1)).toBe('color is "blue".');

  await history.getByRole('button', { name: edited }).click();
  await history.getByRole('button', { name: 'Rewind to before this turn' }).click();
  await expect.poll(() => stateText(page)).toMatch(/color\s+red/);
  expect(await stateText(page)).not.toMatch(/__proto__/);
  expect(await page.locator('.chat .chat-note').count()).toBe(0);
  expect(browser.errors).toEqual([]);
});

it('re-runs a past turn from the state before it, edited, keeping the old turn as a branch', async () => {
  const { page } = browser;
  await openApp(page);
  await say(page, 'set color to red');
  await say(page, 'set size to large');
  await say(page, 'what is color');
  expect((await messages(page)).at(-1)).toBe('color is "red".');

  const history = region(page, 'History');
  await history.getByRole('button', { name: 'set size to large' }).click();
  // Only turns the user's message began offer it.
  await history.getByRole('button', { name: 'Edit state and re-run' }).click();
  // The state just before that turn: color, and no size yet.
  const editor = history.getByRole('group', { name: 'Edit state and re-run' });
  await editor.getByRole('button', { name: 'Edit color' }).waitFor();
  expect(await editor.locator('.state-edit-key').allInnerTexts()).toEqual(['color']);
  expect(await seriousViolations(page)).toEqual([]);
  await setKey(page, history, 'color', '"green"');
  await editor.getByRole('button', { name: 'Re-run with this state' }).click();

  await expect
    .poll(() => messages(page))
    .toEqual(['set color to red', 'color is now red.', 'set size to large', 'size is now large.']);
  expect(await stateText(page)).toMatch(/color\s+green[\s\S]*size\s+large/);
  expect(await history.locator('.turn.active').allInnerTexts()).toEqual([
    'set color to red',
    'State edited: color = green',
    'set size to large',
  ]);
  // The old turn stays, as a branch.
  expect(await history.locator('.turn.abandoned').allInnerTexts()).toEqual(['set size to large']);
  await say(page, 'what is color');
  expect((await messages(page)).at(-1)).toBe('color is "green".');
  expect(browser.errors).toEqual([]);
});

it('edits a long value the page holds only a preview of: read whole to edit, then saved', async () => {
  const { page } = browser;
  await openApp(page);
  // 3,000 characters: more than an opening sends whole (LONG_STATE_CHARS).
  const long = 'abc'.repeat(1000);
  await say(page, `set notes to ${long}`);
  const state = region(page, 'State');
  await state.getByRole('button', { name: 'Edit state' }).click();
  await state.getByRole('button', { name: 'Edit notes' }).click();
  await expect.poll(() => state.getByLabel('Value (JSON)').inputValue()).toBe(`"${long}"`);
  await setKey(page, state, 'notes', `"${long}!"`);
  expect(await state.locator('.state-edit-row.changed').count()).toBe(1);
  await state.getByRole('button', { name: 'Save changes' }).click();
  await region(page, 'History')
    .getByText(/^State edited: notes = /)
    .waitFor();
  // The panel shows its start; Download gives the whole, read from the worker.
  const entry = state.locator('.state-entry', { hasText: /^notes/ });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    entry.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(readFileSync((await download.path())!, 'utf8')).toBe(`${long}!`);
  expect(browser.errors).toEqual([]);
});
