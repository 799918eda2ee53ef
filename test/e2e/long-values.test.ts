// Long values never freeze the page: a 256 KB state value set from the chat, and a session whose
// state holds a 16 MB string (the most an import takes), are shown cut short, with Show all
// (when short enough to lay out) and Download (the whole value); the page never holds the whole
// value, and stays responsive.
// The chat follows its end only while the reader is there. Times are printed, not asserted.

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import {
  appUrl,
  longTasks,
  openApp,
  pageNow,
  region,
  say,
  waitReady,
  watchLongTasks,
} from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();
const files = mkdtempSync(join(tmpdir(), 'trellis-long-values-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));

const KB = 1024;
const MB = 1024 * KB;

/** Most characters any panel may show of one value (the chat shows the most: 20,000). */
const SHOWN = 25_000;

/** Records the longest text the page's DOM has held in one node. Call before the page loads. */
async function watchLongestText(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = { longest: 0 };
    (window as unknown as { __longestText: typeof record }).__longestText = record;
    const measure = (node: Node) => {
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let text = walker.currentNode; text; text = walker.nextNode()!) {
        if (text.nodeType === Node.TEXT_NODE)
          record.longest = Math.max(record.longest, (text as Text).length);
      }
    };
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        if (mutation.type === 'characterData') measure(mutation.target);
        else mutation.addedNodes.forEach(measure);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const longestText = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __longestText: { longest: number } }).__longestText.longest,
  );

/** A session file of `turns` turns of the state keeper; the last event sets `stateDelta`. */
function sessionFile(title: string, turns: number, stateDelta: Record<string, unknown> = {}) {
  const start = Date.now() - turns * 2000;
  const events = Array.from({ length: turns }, (_, turn) => [
    {
      id: `u${turn}`,
      invocationId: `i${turn}`,
      author: 'user',
      timestamp: start + turn * 2000,
      content: { role: 'user', parts: [{ text: `turn ${turn}` }] },
      actions: { stateDelta: {}, artifactDelta: {} },
    },
    {
      id: `a${turn}`,
      invocationId: `i${turn}`,
      author: 'state_keeper',
      timestamp: start + turn * 2000 + 1000,
      content: { role: 'model', parts: [{ text: `noted: turn ${turn}` }] },
      actions: { stateDelta: turn === turns - 1 ? stateDelta : {}, artifactDelta: {} },
    },
  ]).flat();
  const path = join(files, `${title.replace(/\W+/g, '-')}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      id: title,
      appName: 'trellis',
      userId: 'local',
      state: {},
      events,
      lastUpdateTime: Date.now(),
      trellis: { format: 'trellis-session', version: 1, title, agentId: 'state-keeper' },
    }),
  );
  return path;
}

it('sets a 256 KB state value from the chat and shows it cut, with Show all and Download', async () => {
  const { page } = browser;
  await watchLongestText(page);
  await openApp(page);
  const value = '0123456789abcdef'.repeat((256 * KB) / 16);
  await page.getByLabel('Message').fill(`set k to ${value}`);
  const sendStart = Date.now();
  await page.getByRole('button', { name: 'Send' }).click();
  await page
    .locator('.chat .message:not(.streaming)', { hasText: 'k is now 0123456789abcdef' })
    .waitFor();
  const sendMs = Date.now() - sendStart;
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();

  const state = region(page, 'State');
  const entry = state.locator('.state-entry', { hasText: /^k/ });
  expect((await entry.locator('dd').innerText()).length).toBeLessThan(1000);
  expect(await entry.locator('dd').innerText()).toContain(`${value.slice(0, 400)}`);
  // The chat too shows the message, the call and the reply cut short.
  expect(await longestText(page)).toBeLessThanOrEqual(SHOWN);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    entry.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('k.txt');
  expect(readFileSync((await download.path())!, 'utf8')).toBe(value);

  const showStart = Date.now();
  await entry.getByRole('button', { name: 'Show all' }).click();
  await expect
    .poll(async () => (await entry.locator('dd').innerText()).length)
    .toBeGreaterThan(value.length);
  const showAllMs = Date.now() - showStart;
  await entry.getByRole('button', { name: 'Show less' }).click();
  await expect.poll(async () => (await entry.locator('dd').innerText()).length).toBeLessThan(1000);

  console.log('long values, set k to 256 KB:', JSON.stringify({ sendMs, showAllMs }));
  expect(browser.errors).toEqual([]);
});

it('imports a session whose state holds a 16 MB string (the most a session file may hold), and stays responsive', async () => {
  const { page } = browser;
  await watchLongTasks(page);
  await watchLongestText(page);
  await page.goto(appUrl());
  await waitReady(page);
  const big = 'lorem ipsum dolor sit amet '.repeat(Math.ceil((16 * MB) / 27)).slice(0, 16 * MB);
  const path = sessionFile('Big state', 3, { big });

  const importStart = await pageNow(page);
  const started = Date.now();
  await page.getByLabel('Import session…').setInputFiles(path);
  await page.getByText('Imported “Big state”.').waitFor({ timeout: 60_000 });
  const state = region(page, 'State');
  const entry = state.locator('.state-entry', { hasText: /^big/ });
  await entry.waitFor();
  const importMs = Date.now() - started;

  expect((await state.innerText()).length).toBeLessThan(1000);
  await expect(entry.getByRole('button', { name: 'Download' }).isVisible()).resolves.toBe(true);
  // Too long to lay out: only Download.
  expect(await entry.getByRole('button', { name: 'Show all' }).count()).toBe(0);

  // Another session answers a click at once.
  const clickStart = Date.now();
  const sessions = page.getByRole('navigation', { name: 'Sessions' });
  await sessions.locator('li:not(.current) .session-open').first().click();
  await sessions.locator('li.current', { hasNotText: 'Big state' }).waitFor();
  const otherSessionMs = Date.now() - clickStart;
  await sessions.getByRole('button', { name: /^Big state/ }).click();
  await entry.waitFor();

  // The event that set it, opened in the event log: its JSON cut too.
  const log = region(page, 'Event log');
  await log.locator('summary').first().click();
  const line = log.locator('li', { hasText: 'state: big' });
  await line.locator('summary').click();
  await line.locator('pre').waitFor();
  expect((await line.locator('pre').innerText()).length).toBeLessThan(SHOWN);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    entry.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('big.txt');
  expect(statSync((await download.path())!).size).toBe(big.length);

  expect(await longestText(page)).toBeLessThanOrEqual(SHOWN);
  const tasks = await longTasks(page, importStart);
  console.log(
    'long values, import of a 16 MB state value:',
    JSON.stringify({ importMs, otherSessionMs, longTasksMs: tasks.map(Math.round) }),
  );
  expect(browser.errors).toEqual([]);
});

it('follows the end of the chat only while the reader is there; sending brings it back', async () => {
  const { page } = browser;
  await openApp(page);
  await page.getByLabel('Import session…').setInputFiles(sessionFile('Long chat', 30));
  await page.getByText('Imported “Long chat”.').waitFor();
  const chat = page.locator('section.chat');
  const distanceToEnd = () =>
    chat.evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight);
  /** The text of the first message wholly in the chat's view. */
  const inView = () =>
    chat.evaluate((node) => {
      const top = node.getBoundingClientRect().top;
      const items = [...node.querySelectorAll('li')];
      return items.find((item) => item.getBoundingClientRect().top >= top)?.textContent ?? '';
    });
  await expect.poll(distanceToEnd).toBeLessThan(2);

  // A reply streamed word by word (the demo's visible pace) is followed while at the end...
  const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
  await page.getByLabel('Message').fill(`set k to ${words}`);
  await page.getByRole('button', { name: 'Send' }).click();
  const streaming = chat.locator('.streaming');
  await streaming.getByText('word20 ').waitFor();
  await expect.poll(distanceToEnd).toBeLessThan(2);

  // ...and no longer once the reader scrolls up: what they read stays in view.
  await chat.hover();
  await page.mouse.wheel(0, -1500);
  await expect.poll(distanceToEnd).toBeGreaterThan(1000);
  // Once the wheel's scroll has come to rest.
  let top = -1;
  await expect
    .poll(async () => {
      const [before, now] = [top, (top = await chat.evaluate((node) => node.scrollTop))];
      return now === before;
    })
    .toBe(true);
  const reading = await inView();
  expect(reading).toMatch(/turn \d+/);
  await streaming.getByText('word80 ').waitFor();
  expect(await inView()).toBe(reading);
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  expect(await inView()).toBe(reading);
  expect(await distanceToEnd()).toBeGreaterThan(300);

  // Sending a message brings the end back.
  await say(page, 'what is k');
  await expect.poll(distanceToEnd).toBeLessThan(2);
  expect(browser.errors).toEqual([]);
});
