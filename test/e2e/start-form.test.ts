// A flow whose start node takes a form (Flowise V2's form input), as a user meets it: the chat
// shows the form in place of the message box; what is missing is said beside its field; a
// submitted form is a turn of `Label: value` lines whose values the flow reads as {{form.x}};
// the form comes back for the next run and after a reload; an edit of the turn is text, read
// back as the form's values. `TRELLIS_SHOTS=1` also takes docs/screenshots/start-form*.png.

import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { messages, openApp, region, stateText, useFlowJson } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { freshBrowserPerTest, launch } from './browser.ts';

const browser = freshBrowserPerTest();

const SIGN_UP = {
  name: 'Sign up',
  nodes: [
    {
      id: 'start',
      type: 'start',
      form: {
        title: 'Sign up',
        description: 'Tell us who you are and pick a plan.',
        fields: [
          { name: 'name', label: 'Name', type: 'string' },
          { name: 'age', label: 'Age', type: 'number' },
          { name: 'vip', label: 'VIP', type: 'boolean' },
          { name: 'plan', label: 'Plan', type: 'options', options: ['Basic', 'Pro'] },
        ],
      },
    },
    { id: 'reply', type: 'reply', message: 'Hello {{form.name}}, {{form.age}} {{form.plan}}' },
  ],
  edges: [{ from: 'start', to: 'reply' }],
};

/** The same form, and a Human Input before the reply. */
const REVIEWED = {
  ...SIGN_UP,
  name: 'Reviewed sign up',
  nodes: [
    SIGN_UP.nodes[0],
    { id: 'review', type: 'humanInput', description: 'Accept this sign-up?' },
    { id: 'welcome', type: 'reply', message: 'Welcome, {{form.name}}' },
    { id: 'sorry', type: 'reply', message: 'Not this time' },
  ],
  edges: [
    { from: 'start', to: 'review' },
    { from: 'review', to: 'welcome', when: 'proceed' },
    { from: 'review', to: 'sorry', when: 'reject' },
  ],
};

/** Saves the flow in the Flows view and uses it in this session. */
const useSignUpFlow = (page: Page, flow: { name: string } = SIGN_UP) => useFlowJson(page, flow);

const startForm = (page: Page) => page.getByRole('form', { name: 'Sign up' });
const focusedLabel = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.innerText);

it('starts a flow from its form: checks, a turn of its values, the form again after the run and a reload', async () => {
  const { page } = browser;
  await openApp(page);
  await useSignUpFlow(page);
  const form = startForm(page);
  await form.waitFor();
  expect(await page.getByLabel('Message').count()).toBe(0);
  await form.getByText('Tell us who you are and pick a plan.').waitFor();

  // Submit with nothing filled: each missing field says so beside it, and has the focus first.
  await form.getByRole('button', { name: 'Submit' }).click();
  const name = form.getByRole('textbox', { name: 'Name' });
  await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
  expect(await focusedLabel(page)).toBe('Name');
  expect(await form.locator('.field-problem').allInnerTexts()).toEqual([
    'Name is required.',
    'Age is required.',
    'Plan is required.',
  ]);
  expect(await name.evaluate((input) => input.getAttribute('aria-describedby'))).toBeTruthy();
  expect(await seriousViolations(page)).toEqual([]);

  // Enter in a text field submits; a number that is not one is said, and nothing is sent.
  await name.fill('Ada');
  await form.getByRole('textbox', { name: 'Age' }).fill('thirty');
  await form.getByRole('combobox', { name: 'Plan' }).selectOption('Pro');
  await form.getByRole('checkbox', { name: 'VIP' }).check();
  await name.press('Enter');
  await form.getByText('Age must be a number, such as 42 or 3.5.').waitFor();
  expect(await focusedLabel(page)).toBe('Age');
  expect(await messages(page)).toEqual([]);
  await form.getByRole('textbox', { name: 'Age' }).fill('36');
  await page.keyboard.press('Enter');

  // The turn: the values as lines, and the flow's reply read them as {{form.x}}.
  await page.locator('.chat .message').filter({ hasText: 'Hello Ada, 36 Pro' }).waitFor();
  expect(await messages(page)).toEqual([
    'Name: Ada\nAge: 36\nVIP: yes\nPlan: Pro',
    'Hello Ada, 36 Pro',
  ]);
  // The form is back for the next run, with what was sent, and the focus in its first field.
  await form.getByRole('button', { name: 'Submit' }).and(page.locator(':enabled')).waitFor();
  expect(await name.inputValue()).toBe('Ada');
  await expect.poll(() => focusedLabel(page)).toBe('Name');
  // The values are the session's state: the form key, typed.
  await expect
    .poll(() => stateText(page))
    .toMatch(/form\s+\{\s*"name":\s*"Ada",\s*"age":\s*36,\s*"vip":\s*true,\s*"plan":\s*"Pro"\s*\}/);

  // After a reload the turn is there, and the form again, empty, the focus in its first field.
  await page.reload();
  await name.and(page.locator(':enabled')).waitFor();
  expect(await messages(page)).toEqual([
    'Name: Ada\nAge: 36\nVIP: yes\nPlan: Pro',
    'Hello Ada, 36 Pro',
  ]);
  expect(await name.inputValue()).toBe('');
  await expect.poll(() => focusedLabel(page)).toBe('Name');
  expect(browser.errors).toEqual([]);
});

it('edits a form turn as text, read back as its values; a message can be typed instead', async () => {
  const { page } = browser;
  await openApp(page);
  await useSignUpFlow(page);
  const form = startForm(page);
  await form.getByRole('textbox', { name: 'Name' }).fill('Ada');
  await form.getByRole('textbox', { name: 'Age' }).fill('36');
  await form.getByRole('combobox', { name: 'Plan' }).selectOption('Basic');
  await form.getByRole('button', { name: 'Submit' }).click();
  await page.locator('.chat .message').filter({ hasText: 'Hello Ada, 36 Basic' }).waitFor();

  // Edit: the text in the message's editor, where it stands; the edited lines are the values of
  // the new version.
  const turn = page.locator('.message-row.row-user').first();
  await turn.hover();
  await turn.getByRole('button', { name: 'Edit' }).click();
  const editor = turn.getByLabel('Edited message');
  expect(await editor.inputValue()).toBe('Name: Ada\nAge: 36\nVIP: no\nPlan: Basic');
  await editor.fill('Name: Ada\nAge: 37\nVIP: no\nPlan: Pro');
  await turn.getByRole('button', { name: 'Save & send' }).click();
  const box = page.getByLabel('Message', { exact: true });
  await page.locator('.chat .message').filter({ hasText: 'Hello Ada, 37 Pro' }).waitFor();
  await form.getByRole('button', { name: 'Submit' }).and(page.locator(':enabled')).waitFor();

  // A message typed instead of the form, and the way back to it.
  await form.getByRole('button', { name: 'Type a message instead' }).click();
  await box.fill('Thanks!');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  // The flow answers with the values the session holds.
  await expect
    .poll(async () => (await messages(page)).slice(-2))
    .toEqual(['Thanks!', 'Hello Ada, 37 Pro']);
  await page.getByRole('button', { name: 'Fill in the start form instead' }).click();
  await form.getByRole('textbox', { name: 'Name' }).waitFor();
  expect(browser.errors).toEqual([]);
});

it('folds the form while the run waits for an approval, and brings it back after', async () => {
  const { page } = browser;
  await openApp(page);
  await useSignUpFlow(page, REVIEWED);
  const form = startForm(page);
  await form.getByRole('textbox', { name: 'Name' }).fill('Ada');
  await form.getByRole('textbox', { name: 'Age' }).fill('36');
  await form.getByRole('combobox', { name: 'Plan' }).selectOption('Pro');
  await form.getByRole('button', { name: 'Submit' }).click();

  const card = region(page, 'Pending approvals').locator('.approval');
  await card.getByText('Accept this sign-up?').waitFor();
  // Not submittable: its fields wait for the next run, and it says why.
  await form
    .getByRole('status')
    .filter({ hasText: 'An approval is waiting for your answer.' })
    .waitFor();
  expect(await form.getByRole('textbox').count()).toBe(0);
  expect(await form.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
  // The focus, lost with the Submit pressed, is on the way to the answer.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.textContent))
    .toBe('Answer it');
  await form.getByRole('button', { name: 'Answer it' }).click();
  await card.getByRole('button', { name: 'Proceed' }).click();
  await page.locator('.chat .message').filter({ hasText: 'Welcome, Ada' }).waitFor();
  await form.getByRole('textbox', { name: 'Name' }).and(page.locator(':enabled')).waitFor();
  expect(await form.getByRole('status').count()).toBe(0);
  expect(browser.errors).toEqual([]);
});

it.runIf(process.env.TRELLIS_SHOTS)(
  'takes the screenshots: desktop and phone, light and dark',
  async () => {
    for (const [file, viewport, dark] of [
      ['start-form', { width: 1280, height: 800 }, false],
      ['start-form-dark', { width: 1280, height: 800 }, true],
      ['start-form-phone', { width: 390, height: 844 }, false],
      ['start-form-phone-dark', { width: 390, height: 844 }, true],
    ] as const) {
      const shots = await launch({ viewport });
      const { page } = shots;
      try {
        if (dark) await page.emulateMedia({ colorScheme: 'dark' });
        await openApp(page);
        await page
          .getByRole('button', { name: 'OK' })
          .click()
          .catch(() => undefined);
        await useSignUpFlow(page);
        const form = startForm(page);
        await form.getByRole('textbox', { name: 'Name' }).fill('Ada');
        await form.getByRole('textbox', { name: 'Age' }).fill('36');
        await form.getByRole('checkbox', { name: 'VIP' }).check();
        await form.getByRole('combobox', { name: 'Plan' }).selectOption('Pro');
        await form.getByRole('button', { name: 'Submit' }).click();
        await page.locator('.chat .message').filter({ hasText: 'Hello Ada, 36 Pro' }).waitFor();
        // The next run's form, one field said to be missing.
        await form.getByRole('button', { name: 'Submit' }).and(page.locator(':enabled')).waitFor();
        await form.getByRole('textbox', { name: 'Name' }).fill('');
        await form.getByRole('button', { name: 'Submit' }).click();
        await form.getByText('Name is required.').waitFor();
        await page.screenshot({ path: `docs/screenshots/${file}.png` });
      } finally {
        await shots.close();
      }
    }
  },
  240_000,
);
