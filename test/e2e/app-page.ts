// Driving the app as a user would: by accessible names (DESIGN §5).

import { expect } from 'vitest';
import { inject } from 'vitest';
import type { Page } from 'playwright-core';

export const appUrl = () => inject('appUrl');

/** Opens the app and waits until it is ready to take a message. */
export async function openApp(page: Page): Promise<void> {
  await page.goto(appUrl());
  await waitReady(page);
}

export async function waitReady(page: Page): Promise<void> {
  await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
}

/** Sends a message and waits for the run to end (Send is back). */
export async function say(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
}

export async function chooseAgent(page: Page, label: RegExp): Promise<void> {
  const select = page.getByLabel('Agent');
  const options = await select.locator('option').allTextContents();
  const option = options.find((text) => label.test(text));
  expect(option, `an agent matching ${label} in ${options.join(', ')}`).toBeDefined();
  await select.selectOption({ label: option! });
  await expect.poll(() => select.inputValue()).not.toBe('');
}

export const region = (page: Page, name: string) => page.getByRole('region', { name });

/** The text of the State panel. */
export const stateText = (page: Page) => region(page, 'State').innerText();

/** The messages in the conversation, in order. */
export const messages = (page: Page) => page.locator('.chat .message p').allInnerTexts();
