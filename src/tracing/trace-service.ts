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
  /** Session key → invocation id → span id → span. */
  private readonly sessions = new Map<string, Map<string, Map<string, SpanRecord>>>();

  override async putSpans(spans: readonly SpanRecord[]): Promise<void> {
    let key = '';
    let last: SpanRecord | undefined;
    for (const span of spans) {
      // A batch is mostly one session's: its key is worked out once.
      if (!last || !sameSession(last, span)) key = sessionKey(span);
      last = span;
      let invocations = this.sessions.get(key);
      if (!invocations) this.sessions.set(key, (invocations = new Map()));
      let byId = invocations.get(span.invocationId);
      if (!byId) invocations.set(span.invocationId, (byId = new Map()));
      // Kept as given: the tracer never changes a span once it is written (reads copy).
      byId.set(span.spanId, span);
    }
  }

  override async listSpans(request: ListSpansRequest): Promise<SpanRecord[]> {
    const invocations = this.sessions.get(sessionKey(request));
    if (!invocations) return [];
    const lists =
      request.invocationId === undefined
        ? [...invocations.values()]
        : [invocations.get(request.invocationId) ?? new Map<string, SpanRecord>()];
    return byStart(
      lists.flatMap((spans) => [...spans.values()].map((span) => structuredClone(span))),
    );
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
