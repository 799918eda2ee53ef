// A session's usage totals (core/usage), kept beside the session so that they are not counted
// from the whole log each time: the totals up to a position of the log, folded on from there
// with the events written since (a run, an import, another tab), a page at a time. Derived data:
// losing it (a crash between an event and its count) only means counting again.

import type { IndexedDbSessionService } from '../../src/index.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import { NO_USAGE, withEventUsage, type SessionUsage } from '../../src/core/usage.ts';
import { APP_NAME, USER_ID } from './sessions.ts';

interface CountedUsage extends SessionUsage {
  /** The events before this position are counted. */
  throughSeq: number;
}

const PAGE = 500;

export const usageKey = (sessionId: string) => `usage:${sessionId}`;

/** The session's totals, counting what was written since they were last counted. */
export async function sessionUsage(
  sessions: IndexedDbSessionService,
  store: IndexedDbAppStore,
  sessionId: string,
): Promise<SessionUsage> {
  const key = { appName: APP_NAME, userId: USER_ID, sessionId };
  const kept = await store.getSetting<CountedUsage>(usageKey(sessionId));
  let counted: CountedUsage = kept ?? { ...NO_USAGE, throughSeq: 0 };
  for (;;) {
    const page = await sessions.listEvents({ ...key, fromSeq: counted.throughSeq, limit: PAGE });
    if (!page || page.entries.length === 0) break;
    let usage: SessionUsage = counted;
    for (const { event } of page.entries) usage = withEventUsage(usage, event);
    counted = { ...usage, throughSeq: counted.throughSeq + page.entries.length };
    if (counted.throughSeq >= page.eventCount) break;
  }
  // Nothing is kept for a session with nothing counted (a deleted one, say).
  if (counted.throughSeq > (kept?.throughSeq ?? 0))
    await store.putSetting(usageKey(sessionId), counted);
  const { throughSeq: _, ...usage } = counted;
  return usage;
}
