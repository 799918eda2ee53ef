// The spans of one run of an invocation, as it happens. The runner makes one per run (a resumed
// invocation gets another, on the same trace); agents, model calls and tool calls open and close
// spans through their InvocationContext. Ended spans are written in batches, never awaited by
// the run's steps: a trace that cannot be stored costs the run nothing (see trace-service.ts).

import {
  newSpanId,
  preciseNow,
  traceIdOf,
  type SpanAttribute,
  type SpanKind,
  type SpanRecord,
} from './span.ts';
import type { BaseTraceService } from './trace-service.ts';

/** A span being recorded: its record itself (no wrapper object per span). */
export type OpenSpan = SpanRecord;

export interface StartSpanOptions {
  parentSpanId?: string | undefined;
  branch?: string | undefined;
  attributes?: Record<string, SpanAttribute>;
  /** The span's id (default: a new random one). */
  spanId?: string;
  /** When it began (default: now). */
  startTime?: number;
}

export interface EndSpanOptions {
  attributes?: Record<string, SpanAttribute>;
  error?: string | undefined;
  /** When it ended (default: now). */
  endTime?: number;
}

/** How many ended spans wait at most before they are written. */
const BATCH = 32;
/** How long the first of them waits at most. */
const FLUSH_AFTER_MS = 1000;

export class InvocationTracer {
  readonly traceId: string;
  private pending: SpanRecord[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly service: BaseTraceService,
    private readonly key: {
      appName: string;
      userId: string;
      sessionId: string;
      invocationId: string;
    },
  ) {
    this.traceId = traceIdOf(key.invocationId);
  }

  start(kind: SpanKind, name: string, options: StartSpanOptions = {}): OpenSpan {
    // Built field by field: this runs for every agent, model call and tool call of every run.
    const { appName, userId, sessionId, invocationId } = this.key;
    const record: SpanRecord = {
      appName,
      userId,
      sessionId,
      invocationId,
      traceId: this.traceId,
      spanId: options.spanId ?? newSpanId(),
      kind,
      name,
      startTime: options.startTime ?? preciseNow(),
      status: 'ok',
      // The caller's object, not a copy: callers pass one made for the span.
      attributes: options.attributes ?? {},
    };
    if (options.parentSpanId) record.parentSpanId = options.parentSpanId;
    if (options.branch) record.branch = options.branch;
    return record;
  }

  /** Closes a span (once: a second end is ignored) and queues it for writing. */
  end(record: OpenSpan, options: EndSpanOptions = {}): void {
    if (record.endTime !== undefined) return;
    record.endTime = options.endTime ?? preciseNow();
    if (options.attributes)
      for (const key in options.attributes) record.attributes[key] = options.attributes[key]!;
    if (options.error !== undefined) {
      record.status = 'error';
      record.error = options.error;
    }
    this.write(record);
  }

  /** Queues a span as it stands (an open wait, say) for writing. */
  write(record: SpanRecord): void {
    this.pending.push(record);
    // Written in batches: when the run ends (the runner flushes), when many wait, or a moment
    // after the first waited (so a run cut off by a crash loses at most that moment's spans).
    if (this.pending.length >= BATCH) void this.flush();
    else scheduleFlush(this);
  }

  /** Writes what is queued; resolves when every write so far has been tried. */
  flush(): Promise<void> {
    waiting.delete(this);
    const batch = this.pending;
    if (batch.length > 0) {
      this.pending = [];
      this.writing = this.writing
        .then(() => this.service.putSpans(batch))
        // Best-effort: a span that cannot be stored (a full disk) is dropped, the run goes on.
        .catch(() => undefined);
    }
    return this.writing;
  }
}

/** Tracers with spans waiting to be written, and the one timer that writes them all. */
const waiting = new Set<InvocationTracer>();
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Writes `tracer`'s spans within FLUSH_AFTER_MS unless it flushes first. One timer for every
 * tracer, not one per run: most runs end (and flush) well before it fires.
 */
function scheduleFlush(tracer: InvocationTracer): void {
  waiting.add(tracer);
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    for (const pending of [...waiting]) void pending.flush();
  }, FLUSH_AFTER_MS);
  // In Node, a trace waiting to be written keeps no process alive.
  (timer as { unref?: () => void }).unref?.();
}
