// Driving the app as a user would: by accessible names (DESIGN §5).

import { expect } from 'vitest';
import { inject } from 'vitest';
import type { FileChooser, Locator, Page } from 'playwright-core';

export const appUrl = () => inject('appUrl');

/** Opens the app and waits until it is ready to take a message. */
export async function openApp(page: Page): Promise<void> {
  await page.goto(appUrl());
  await waitReady(page);
}

/** Opens the app, lets the service worker take it, cuts the network and reloads under it. */
export async function openOffline(page: Page): Promise<void> {
  await openApp(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.context().setOffline(true);
  // A reload puts the page (and its workers) under the service worker, as a second visit is.
  await page.reload();
  await waitReady(page);
}

export async function waitReady(page: Page): Promise<void> {
  await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
}

/**
 * Opens the app and waits for its first visit's "Trellis now works offline" notice (the service
 * worker has cached the app), then dismisses it: the notice moves the page down when it comes,
 * under a mouse that is dragging on the canvas. Goes on without it after 20 s.
 */
export async function openAppSettled(page: Page): Promise<void> {
  await openApp(page);
  const ok = page
    .getByRole('status')
    .filter({ hasText: 'Trellis now works offline.' })
    .getByRole('button', { name: 'OK' });
  try {
    await ok.click({ timeout: 20_000 });
  } catch {
    // Not shown (the worker was cached already, or is not there): nothing will move the page.
  }
  await ok.waitFor({ state: 'detached' });
}

/** Sends a message and waits for the run to end (Send is back). */
export async function say(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
}

export async function chooseAgent(page: Page, label: RegExp): Promise<void> {
  const select = page.getByLabel('Agent', { exact: true });
  const options = await select.locator('option').allTextContents();
  const option = options.find((text) => label.test(text));
  expect(option, `an agent matching ${label} in ${options.join(', ')}`).toBeDefined();
  await select.selectOption({ label: option! });
  await expect.poll(() => select.inputValue()).not.toBe('');
}

export const region = (page: Page, name: string) => page.getByRole('region', { name });

/** Flows → Duplicate support: the Flows region, once the copy (`support-copy`) is open. */
export async function duplicateSupport(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('button', { name: 'Duplicate support' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /support-copy/ })
    .waitFor();
  return flows;
}

/**
 * Flows → a copy of the support example whose JSON is replaced by `flow`, saved, and used in
 * this session.
 */
export async function useFlowJson(page: Page, flow: { name: string }): Promise<void> {
  const flows = await duplicateSupport(page);
  await flows.getByRole('tab', { name: 'Code' }).click();
  await flows.getByLabel('Flow JSON').fill(JSON.stringify(flow, null, 2));
  await expect.poll(() => flows.getByRole('alert').count()).toBe(0);
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: `Saved “${flow.name}”` })
    .waitFor();
  await flows.getByRole('button', { name: 'Use in this session' }).click();
}

/**
 * Settings → Providers → Add local model, picking `files` (paths, or files' names and bytes);
 * returns the Providers region, for what it says next.
 */
export async function addLocalModelFiles(
  page: Page,
  files: Parameters<FileChooser['setFiles']>[0],
): Promise<Locator> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  const providers = region(page, 'Providers');
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    providers.getByRole('button', { name: 'Add local model' }).click(),
  ]);
  await chooser.setFiles(files);
  return providers;
}

/**
 * Whether the page can still reach its server (navigator.onLine lies after an offline load, so
 * this asks the network itself).
 */
export const reachesServer = (page: Page) =>
  page.evaluate(() =>
    fetch('/no-such-file', { cache: 'no-store' }).then(
      () => true,
      () => false,
    ),
  );

/** The text of the State panel. */
export const stateText = (page: Page) => region(page, 'State').innerText();

/** The messages in the conversation, in order. */
export const messages = (page: Page) => page.locator('.chat .message p').allInnerTexts();

interface LongTask {
  start: number;
  duration: number;
}

/** Records the page's long tasks (over 50 ms) from its start; call before the page loads. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const tasks: { start: number; duration: number }[] = [];
    (window as unknown as { __longTasks: typeof tasks }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        tasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The page's clock (`performance.now()`), to mark where a measurement starts. */
export const pageNow = (page: Page) => page.evaluate(() => performance.now());

/** The long tasks recorded since `start` (or before it). */
export async function longTasks(page: Page, since: number, before = false): Promise<number[]> {
  const tasks = await page.evaluate(
    () => (window as unknown as { __longTasks: LongTask[] }).__longTasks,
  );
  return tasks
    .filter((task) => (before ? task.start < since : task.start >= since))
    .map((task) => task.duration);
}

/** The Trace view's spans, one button each. */
export const spanButtons = (page: Page) =>
  region(page, 'Trace').getByRole('list', { name: 'Spans' }).getByRole('button');

/** Each span row's text: kind, name, marks and duration, as a screen reader reads it. */
export async function spanRows(page: Page): Promise<string[]> {
  await spanButtons(page).first().waitFor();
  return (await spanButtons(page).allTextContents()).map((text) =>
    text.replace(/\s+/g, ' ').trim(),
  );
}

/** Opens the trace of the turn `text` from History. */
export async function traceTurn(page: Page, text: string): Promise<void> {
  const history = region(page, 'History');
  const turn = history.getByRole('button', { name: text });
  // Chosen already (its actions open), it stays chosen: another click would close them.
  if ((await turn.getAttribute('aria-pressed')) !== 'true') await turn.click();
  await history.getByRole('button', { name: 'Trace' }).click();
  await region(page, 'Trace').waitFor();
}
