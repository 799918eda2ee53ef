// Where spans are kept: in memory, or in IndexedDB beside their session
// (src/store/indexeddb-trace-service.ts). Spans are written when they end, in their own writes:
// best-effort, not in the transaction of the events they belong to (a crash can lose the spans
// of the moment it struck, never an event). A trace is read by invocation, without the log.

import type { SpanKey, SpanRecord } from './span.ts';

export interface ListSpansRequest extends SpanKey {
  /** One invocation's spans; all of the session's when absent. */
  invocationId?: string;
}

export abstract class BaseTraceService {
  /** Stores spans (a span written again, by id, replaces the earlier copy: a wait answered). */
  abstract putSpans(spans: readonly SpanRecord[]): Promise<void>;
  /** The spans, by start time. */
  abstract listSpans(request: ListSpansRequest): Promise<SpanRecord[]>;
  /** Forgets a session's spans (the IndexedDB service's session deletion does it too). */
  abstract deleteSpans(key: SpanKey): Promise<void>;
}

export class InMemoryTraceService extends BaseTraceService {
  /**
   * Session key → invocation id → its spans as written, in order. A span written again (a wait
   * answered) is found at read time: the later copy wins. Arrays, not maps by id: a trace is kept
   * for every turn of a run in memory, and a map entry per span costs more than it saves.
   */
  private readonly sessions = new Map<string, Map<string, SpanRecord[]>>();

  override async putSpans(spans: readonly SpanRecord[]): Promise<void> {
    let key = '';
    let last: SpanRecord | undefined;
    for (const span of spans) {
      // A batch is mostly one session's: its key is worked out once.
      if (!last || !sameSession(last, span)) key = sessionKey(span);
      last = span;
      let invocations = this.sessions.get(key);
      if (!invocations) this.sessions.set(key, (invocations = new Map()));
      const written = invocations.get(span.invocationId);
      // Kept as given: the tracer never changes a span once it is written (reads copy).
      if (written) written.push(span);
      else invocations.set(span.invocationId, [span]);
    }
  }

  override async listSpans(request: ListSpansRequest): Promise<SpanRecord[]> {
    const invocations = this.sessions.get(sessionKey(request));
    if (!invocations) return [];
    const lists =
      request.invocationId === undefined
        ? [...invocations.values()]
        : [invocations.get(request.invocationId) ?? []];
    const latest = new Map<string, SpanRecord>();
    for (const list of lists) for (const span of list) latest.set(span.spanId, span);
    return byStart([...latest.values()].map((span) => structuredClone(span)));
  }

  override async deleteSpans(key: SpanKey): Promise<void> {
    this.sessions.delete(sessionKey(key));
  }
}

/** Spans by start time (the order a waterfall draws them). */
export function byStart(spans: SpanRecord[]): SpanRecord[] {
  return spans.sort((a, b) => a.startTime - b.startTime);
}

function sameSession(a: SpanKey, b: SpanKey): boolean {
  return a.sessionId === b.sessionId && a.userId === b.userId && a.appName === b.appName;
}

function sessionKey({ appName, userId, sessionId }: SpanKey): string {
  return JSON.stringify([appName, userId, sessionId]);
}
