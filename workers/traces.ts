// The traces of the app's sessions, for the Trace view and its export: one invocation's spans
// with the events it wrote (read from the invocation's first event on, never the whole log), and
// a session's spans as OTLP JSON. Remote sessions (on an ADK server) have none here.

import { InvalidRequestError, SessionNotFoundError } from '../src/core/errors.ts';
import type { Event } from '../src/core/event.ts';
import type { IndexedDbSessionService } from '../src/store/indexeddb-session-service.ts';
import type { IndexedDbTraceService } from '../src/store/indexeddb-trace-service.ts';
import { toOtlpJson } from '../src/tracing/otlp.ts';
import type { SpanRecord } from '../src/tracing/span.ts';
import { isRemoteId } from './remote/adk-servers.ts';
import type { IndexedDbAppStore } from '../src/store/app-store.ts';
import { APP_NAME, USER_ID, titleSlug } from './sessions/sessions.ts';

/** What the Trace view shows of one invocation. */
export interface InvocationTrace {
  invocationId: string;
  spans: SpanRecord[];
  /** The invocation's events in the log, oldest first (up to EVENT_LIMIT). */
  events: Event[];
}

/** How many events of one invocation the view reads at most. */
const EVENT_LIMIT = 2000;
const PAGE = 200;

export class AppTraces {
  constructor(
    private readonly sessions: IndexedDbSessionService,
    private readonly traces: IndexedDbTraceService,
    private readonly store: IndexedDbAppStore,
  ) {}

  async trace(sessionId: string, invocationId: string): Promise<InvocationTrace> {
    const key = this.key(sessionId);
    const checkpoint = await this.sessions.getInvocationCheckpoint({ ...key, invocationId });
    if (!checkpoint) {
      if (!(await this.sessions.listEvents({ ...key, limit: 0 })))
        throw new SessionNotFoundError(sessionId);
      throw new InvalidRequestError(`There is no invocation ${invocationId} in this session`);
    }
    const spans = await this.traces.listSpans({ ...key, invocationId });
    const events: Event[] = [];
    // From its first event on: a resumed invocation's later events may follow other turns'.
    for (let from = checkpoint.firstSeq; events.length < EVENT_LIMIT; from += PAGE) {
      const page = await this.sessions.listEvents({ ...key, fromSeq: from, limit: PAGE });
      if (!page || page.entries.length === 0) break;
      for (const { event } of page.entries)
        if (event.invocationId === invocationId) events.push(event);
      if (from + PAGE >= page.eventCount) break;
    }
    return { invocationId, spans, events };
  }

  /**
   * Every span of the session as one OTLP JSON file, named by the session's title and the day
   * (`plan-a-trip-2026-11-27.otlp.json`).
   */
  async exportOtlp(sessionId: string): Promise<{ filename: string; json: string }> {
    const spans = await this.traces.listSpans(this.key(sessionId));
    if (spans.length === 0)
      throw new InvalidRequestError('This session has no trace yet: its runs were not traced');
    const json = await toOtlpJson(spans, { serviceName: 'trellis' });
    const meta = await this.store.getSessionMeta(APP_NAME, USER_ID, sessionId);
    const day = new Date().toISOString().slice(0, 10);
    return { filename: `${titleSlug(meta?.title ?? '')}-${day}.otlp.json`, json };
  }

  private key(sessionId: string) {
    if (isRemoteId(sessionId))
      throw new InvalidRequestError(
        'A session on an ADK server has its traces on that server (its Trace tab), not here',
      );
    return { appName: APP_NAME, userId: USER_ID, sessionId };
  }
}
