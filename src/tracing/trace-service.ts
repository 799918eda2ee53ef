// Where spans are kept: in memory, or in IndexedDB beside their session
// (src/store/indexeddb-trace-service.ts). Spans are written when they end, in their own writes:
// best-effort, not in the transaction of the events they belong to (a crash can lose the spans
// of the moment it struck, never an event). A trace is read by invocation, without the log.

import { OpenSpan, spanRecordOf, type SpanSink, type TraceRun } from './open-span.ts';
import type { SpanKey, SpanRecord } from './span.ts';
import { BatchedSpans } from './span-batches.ts';

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

  /**
   * Where the spans of `run` go as they end: by default made into records and written with
   * `putSpans` in batches (see span-batches.ts).
   */
  spanSink(run: TraceRun): SpanSink {
    return new BatchedSpans(this);
  }
}

/** A span kept in memory: a run's own (made into a record when read), or a record put. */
type KeptSpan = OpenSpan | SpanRecord;

export class InMemoryTraceService extends BaseTraceService {
  /**
   * Session key → its spans as they came, in order: one list, not one per invocation (a trace
   * is kept for every turn run in memory, and what it keeps costs every turn after it: the
   * garbage collector walks it). A run's spans are kept as the run made them, made into records
   * when read. A span written again (a wait answered) is found at read time: the later copy wins.
   */
  private readonly sessions = new Map<string, KeptSpan[]>();

  /** The run's spans join its session's as they end: nothing to batch, nothing to await. */
  override spanSink(run: TraceRun): SpanSink {
    return new KeptSpans(this.sessionSpans(sessionKey(run)));
  }

  override async putSpans(spans: readonly SpanRecord[]): Promise<void> {
    let kept: KeptSpan[] = [];
    let last: SpanRecord | undefined;
    for (const span of spans) {
      // A batch is mostly one session's: its list is looked up once.
      if (!last || !sameSession(last, span)) kept = this.sessionSpans(sessionKey(span));
      last = span;
      // Kept as given; reads copy.
      kept.push(span);
    }
  }

  override async listSpans({ invocationId, ...key }: ListSpansRequest): Promise<SpanRecord[]> {
    const latest = new Map<string, KeptSpan>();
    for (const span of this.sessions.get(sessionKey(key)) ?? []) {
      const of = span instanceof OpenSpan ? span.run.invocationId : span.invocationId;
      if (invocationId === undefined || of === invocationId) latest.set(span.spanId, span);
    }
    return byStart(
      [...latest.values()].map((span) =>
        span instanceof OpenSpan ? spanRecordOf(span) : structuredClone(span),
      ),
    );
  }

  override async deleteSpans(key: SpanKey): Promise<void> {
    this.sessions.delete(sessionKey(key));
  }

  private sessionSpans(key: string): KeptSpan[] {
    let spans = this.sessions.get(key);
    if (!spans) this.sessions.set(key, (spans = []));
    return spans;
  }
}

class KeptSpans implements SpanSink {
  constructor(private readonly spans: KeptSpan[]) {}

  add(span: OpenSpan): void {
    this.spans.push(span);
  }

  flush(): undefined {
    return undefined;
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
