// A disk that fills up in the middle of a run, in Chromium: the origin's quota is cut (CDP
// Storage.overrideQuotaForOrigin) while the Writing workflow waits for its approval, so that the
// approval's answer is stored and the publish step's artifact is refused. The run is interrupted,
// not failed, and the resume banner says the storage is full; once there is room again, Resume
// finishes it: the post published once, nothing lost or doubled.
//
// How Chromium 156 checks the quota of IndexedDB writes (found by trying): it keeps the space left
// when the origin first writes and counts it down, asking the quota again only for a write that
// does not fit. So the quota is overridden before the app opens (50 MB: the space kept is then
// at most that), and after it is cut, a write from the page too big for what is kept makes
// Chromium ask again (that write fails, and writes nothing).

import type { CDPSession, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { functionResponsesOf, type Event } from '../../src/index.ts';
import { CONFIRMATION_REQUIRED } from '../../src/agents/confirmation.ts';
import { readStore, type Store } from '../faults/page-record.ts';
import { appUrl, chooseAgent, openApp, region } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

/** The post.md versions stored, read with the browser's own IndexedDB API. */
const postVersions = (page: Page) =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('trellis');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const records = await new Promise<{ filename: string; version: number }[]>((resolve) => {
      const request = db.transaction('artifacts').objectStore('artifacts').getAll();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return records.filter((record) => record.filename === 'post.md').map((r) => r.version);
  });

/** The answers to the publish call, but the "confirmation required" one before the approval. */
const publishAnswers = (store: Store) =>
  store.sessions[0]!.events.flatMap(({ event }) =>
    functionResponsesOf(event.content).filter(
      ({ name, response }) => name === 'publish' && response['error'] !== CONFIRMATION_REQUIRED,
    ),
  );

async function usage(cdp: CDPSession, origin: string): Promise<number> {
  const { usage } = (await cdp.send('Storage.getUsageAndQuota', { origin })) as { usage: number };
  return usage;
}

/** The origin's usage once it has not changed for 1.5 s. */
async function settledUsage(cdp: CDPSession, origin: string): Promise<number> {
  let last = await usage(cdp, origin);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const now = await usage(cdp, origin);
    if (now === last) return now;
    last = now;
  }
}

/** Writes 60 MB from the page: more than the 50 MB Chromium can hold back, so it asks again. */
const probeQuota = (page: Page) =>
  page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('quota-probe');
      request.onupgradeneeded = () => request.result.createObjectStore('probe');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction('probe', 'readwrite');
    tx.objectStore('probe').put(new Blob([new Uint8Array(60_000_000)]), 'big');
    const outcome = await new Promise<string>((resolve) => {
      tx.oncomplete = () => resolve('stored');
      tx.onabort = () => resolve(tx.error?.name ?? 'aborted');
    });
    db.close();
    return outcome;
  });

it('interrupts a run whose artifact finds the disk full, and Resume finishes it once there is room', async () => {
  const { page } = browser;
  const origin = new URL(appUrl()).origin;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 50_000_000 });
  await openApp(page);
  await page.getByText('Settings', { exact: true }).click();
  await page.getByLabel('Instant demos (no pause per step)').check();
  await page.getByText('Settings', { exact: true }).click();
  await chooseAgent(page, /workflow/i);
  // A long topic: the post repeats it three times, the approval's answer not at all.
  const topic = `Tea ${'and biscuits '.repeat(4_000)}`.trim();
  await page.getByLabel('Message').fill(topic);
  await page.getByRole('button', { name: 'Send' }).click();
  const approvals = region(page, 'Pending approvals');
  await approvals.getByRole('button', { name: 'Approve' }).waitFor();

  // Room for the answer, the run's record and an error event, not for the post. The card is
  // shown as its event arrives, before the run's pause and its spans are stored: the usage is
  // read once those writes are done (the record says paused, and the usage holds still for
  // longer than spans wait to be written), or the room left would be theirs.
  await expect.poll(async () => (await readStore(page)).runs[0]?.status).toBe('paused');
  const used = await settledUsage(cdp, origin);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: used + 64_000 });
  expect(await probeQuota(page)).toBe('QuotaExceededError');
  await approvals.getByRole('button', { name: 'Approve' }).click();

  // The turn offers its own Retry, and the chat says why (the error event, or the run's record
  // when the disk refused the error event too).
  const turn = page.locator('.chat .unfinished-turn');
  await turn.getByRole('button', { name: 'Retry' }).waitFor();
  expect(await region(page, 'Conversation').innerText()).toMatch(/storage for this site is full/);
  expect(await postVersions(page)).toEqual([]);
  const before = await readStore(page);
  const answered = (events: { event: Event }[]) =>
    events.filter(
      ({ event }) => event.author === 'user' && functionResponsesOf(event.content).length,
    );
  expect(answered(before.sessions[0]!.events)).toHaveLength(1);
  // The run's record says it was interrupted by the full disk, or, if the disk refused that write
  // too, still says running (the runtime knows better, and after a reload it is cut off).
  expect(before.runs).toHaveLength(1);
  if (before.runs[0]!.status !== 'running')
    expect(before.runs[0]).toMatchObject({
      status: 'interrupted',
      error: { name: 'StorageFullError' },
    });
  // Nothing half written: the publish call has no answer but "confirmation required" (its tool
  // did not run to the end), and no tool error was logged.
  expect(publishAnswers(before)).toEqual([]);
  expect(
    before.sessions[0]!.events.filter(({ event }) => event.errorCode === 'TOOL_ERROR'),
  ).toEqual([]);

  // Room again: the override lifted.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await turn.getByRole('button', { name: 'Retry' }).click();
  await page.getByText(/^Publishing complete/).waitFor();
  await expect.poll(() => turn.count()).toBe(0);
  expect(await postVersions(page)).toEqual([0]);
  const after = await readStore(page);
  const [session] = after.sessions;
  const events = session!.events.map(({ event }) => event);
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  expect(answered(session!.events)).toHaveLength(1);
  expect(publishAnswers(after)).toHaveLength(1);
  expect(after.runs).toEqual([]);
  expect(browser.errors.filter((error) => !/storage/i.test(error))).toEqual([]);
});
