// Driving the app for the search tests and screenshots: the message box by its role (other
// sections are labelled "Message …" too), a message sent and its run waited for.

import type { Page } from 'playwright-core';
import { appUrl } from './app-page.ts';

export const messageBox = (page: Page) =>
  page.getByRole('textbox', { name: 'Message', exact: true }).and(page.locator(':enabled'));

export async function openApp(page: Page): Promise<void> {
  await page.goto(appUrl());
  await messageBox(page).waitFor();
}

export async function say(page: Page, text: string): Promise<void> {
  await messageBox(page).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
}

/** Says `first`, rewinds to before the turn `rewound`, then says `then`. */
export async function sayRewindSay(page: Page, turns: string[], rewound: string, then: string) {
  for (const text of turns) await say(page, text);
  const history = page.getByRole('region', { name: 'History' });
  await history.getByRole('button', { name: rewound }).click();
  await history.getByRole('button', { name: /^Rewind/ }).click();
  await page.getByText('Undo').first().waitFor();
  await say(page, then);
}
