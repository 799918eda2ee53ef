// The ‹ 2 / 3 › arrows between versions: shown whenever there are versions (not only on hover),
// big enough to hit (24 px with a mouse, WCAG 2.5.8; 44 px on a touch screen, WCAG 2.5.5), the
// message's versions on the message and Regenerate's on the answer.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openApp, region, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const chat = (page: Page) => region(page, 'Conversation');
const idle = (page: Page) =>
  page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();

/** A session whose last turn has two versions of its message and two answers to the latest. */
async function versionedSession(page: Page): Promise<{ message: Locator; answer: Locator }> {
  await openApp(page);
  await say(page, 'set color to red');
  await say(page, 'what is color');
  const last = chat(page).locator('.message-row.row-user').last();
  await last.getByRole('button', { name: 'Edit' }).click();
  await last.getByLabel('Edited message').fill('what is colour');
  await last.getByRole('button', { name: 'Save & send' }).click();
  await idle(page);
  await chat(page).getByRole('button', { name: 'Regenerate' }).click();
  await idle(page);
  return {
    message: chat(page).locator('.message-row.row-user').last().locator('.versions'),
    answer: chat(page).locator('.message-row.row-agent').last().locator('.versions'),
  };
}

/** Whether the element is drawn: every ancestor opaque and visible (nothing hovered). */
const drawn = (locator: Locator) =>
  locator.evaluate((element) => {
    for (let e: Element | null = element; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (Number(style.opacity) === 0 || style.visibility === 'hidden' || style.display === 'none')
        return false;
    }
    return true;
  });

async function sizes(versions: Locator): Promise<{ width: number; height: number }[]> {
  const boxes = [];
  for (const button of await versions.getByRole('button').all())
    boxes.push((await button.boundingBox())!);
  return boxes.map(({ width, height }) => ({ width, height }));
}

describe('with a mouse', () => {
  const browser = freshBrowserPerTest();

  it('shows both arrows without hover, at least 24 × 24 px; the answer counts Regenerate', async () => {
    const { page } = browser;
    const { message, answer } = await versionedSession(page);
    // Nothing hovered, nothing in the conversation focused.
    await page.mouse.move(0, 0);
    await page.getByLabel('Message').focus();
    expect(await message.innerText()).toMatch(/2 \/ 2/);
    expect(await answer.innerText()).toMatch(/2 \/ 2/);
    expect(await drawn(message)).toBe(true);
    expect(await drawn(answer)).toBe(true);
    for (const box of [...(await sizes(message)), ...(await sizes(answer))]) {
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
    // The other actions still wait for the pointer.
    expect(await drawn(answer.locator('xpath=..').getByRole('button', { name: 'Copy' }))).toBe(
      false,
    );
    expect(browser.errors).toEqual([]);
  });
});

describe('on a touch screen', () => {
  const browser = freshBrowserPerTest({ viewport: { width: 390, height: 844 }, hasTouch: true });

  it('makes the arrows at least 44 × 44 px, and a tap switches the answer', async () => {
    const { page } = browser;
    const { message, answer } = await versionedSession(page);
    for (const box of [...(await sizes(message)), ...(await sizes(answer))]) {
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    await answer.getByRole('button', { name: 'Previous answer' }).tap();
    await expect.poll(() => answer.innerText()).toMatch(/1 \/ 2/);
    expect(browser.errors).toEqual([]);
  });
});
