// What the page showed, and what the browser stored: the two sides a kill test compares.
// - `watchShown` streams what the page shows as it changes (the chat's items and the pending
//   approvals), each saved one apart from those the page marks as not saved yet (the message being
//   sent, text still streaming);
// - `readStore` reads the app's IndexedDB as it is, with the browser's own API, from the page.

import type { Page } from 'playwright-core';
import type { Event } from '../../src/core/event.ts';
import type { RunRecord } from '../../src/store/session-service.ts';

/** The items a page shows: presented as saved, and visibly marked as not saved yet. */
export interface Shown {
  saved: string[];
  unsaved: string[];
}

/** Reads what the page shows now (runs inside the page: no closure over this module). */
function readShown(): Shown {
  const saved: string[] = [];
  const unsaved: string[] = [];
  const text = (element: Element | null) => (element as HTMLElement | null)?.innerText.trim() ?? '';
  // Marked as not saved: the page draws a mark after it (the cursor of streaming text, the
  // "not saved yet" of a message being sent), not a class the user cannot see.
  const visiblyMarked = (item: Element) =>
    [item, item.lastElementChild].some((element) => {
      const content = element && getComputedStyle(element, '::after').content;
      return !!content && content !== 'none' && content !== 'normal';
    });
  for (const item of document.querySelectorAll(
    '.chat li.message, .chat li.message-row, .chat li.tool-call, .chat li.chat-error',
  )) {
    // A tool call's status changes as it runs: what it called is what must stay. A stored
    // message's row holds its actions (which change with what follows): its bubble is the item.
    const key = item.classList.contains('tool-call')
      ? `call ${text(item.querySelector('code'))}`
      : text(item.classList.contains('message-row') ? item.querySelector('.message') : item);
    const marked = visiblyMarked(item);
    (marked ? unsaved : saved).push(key);
  }
  for (const approval of document.querySelectorAll('.approvals li.approval'))
    saved.push(`approval ${text(approval.querySelector('p:nth-of-type(2)'))}`);
  return { saved, unsaved };
}

export const shownNow = (page: Page): Promise<Shown> => page.evaluate(readShown);

/**
 * Streams what the page shows to this process as it changes; `latest()` is the last of it that
 * arrived (what a kill left unsent is read with `shownNow` just before it).
 */
export async function watchShown(page: Page): Promise<{ latest(): Shown }> {
  let latest: Shown = { saved: [], unsaved: [] };
  await page.exposeBinding('__trellisShown', (_source, shown: Shown) => {
    latest = shown;
  });
  await page.evaluate(`(() => {
    const read = ${readShown.toString()};
    let queued = false;
    const send = () => {
      queued = false;
      window.__trellisShown(read());
    };
    new MutationObserver(() => {
      if (!queued) (queued = true), queueMicrotask(send);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    send();
  })()`);
  return { latest: () => latest };
}

/** Every item of `before` (counted) that `after` lacks. */
export function missing(before: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const item of after) left.set(item, (left.get(item) ?? 0) + 1);
  const gone: string[] = [];
  for (const item of before) {
    const count = left.get(item) ?? 0;
    if (count === 0) gone.push(item);
    else left.set(item, count - 1);
  }
  return gone;
}

export interface StoredSession {
  record: { id: string; state: Record<string, unknown>; eventCount: number };
  events: { seq: number; event: Event }[];
}

export interface Store {
  sessions: StoredSession[];
  runs: RunRecord[];
  /** Every artifact version (its bytes left out). */
  artifacts: { sessionId: string; filename: string; version: number }[];
}

/** The app's sessions, their logs and the runs in flight, as IndexedDB holds them now. */
export async function readStore(page: Page): Promise<Store> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('trellis');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    try {
      const [sessions, events, runs, artifacts, longValues] = await Promise.all([
        all('sessions'),
        all('events'),
        all('runs'),
        all('artifacts'),
        all('longValues'),
      ]);
      type Row = { sessionId: string; seq: number; event: unknown };
      type Long = { sessionId: string; id: string; value: unknown };
      type StoredRecord = {
        id: string;
        state: Record<string, unknown>;
        long?: Record<string, string>;
      };
      // The state whole: a long value is stored apart and named by id (src/store/long-values.ts).
      const whole = ({ long, ...record }: StoredRecord) => {
        const state = { ...record.state };
        for (const [key, id] of Object.entries(long ?? {})) {
          const found = (longValues as Long[]).find(
            (v) => v.sessionId === record.id && v.id === id,
          );
          Object.defineProperty(state, key, {
            value: found?.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return { ...record, state };
      };
      return {
        sessions: (sessions as StoredRecord[]).map((record) => ({
          record: whole(record),
          events: (events as Row[])
            .filter((row) => row.sessionId === record.id)
            .map(({ seq, event }) => ({ seq, event })),
        })),
        runs,
        artifacts: (artifacts as Store['artifacts']).map(({ sessionId, filename, version }) => ({
          sessionId,
          filename,
          version,
        })),
      } as unknown as Store;
    } finally {
      db.close();
    }
  });
}
