// The spans of one run of an invocation, as it happens. The runner makes one per run (a resumed
// invocation gets another, on the same trace); agents, model calls and tool calls open and close
// spans through their InvocationContext. Ended spans are written in batches, never awaited by
// the run: a trace that cannot be stored costs the run nothing (see trace-service.ts).

import {
  newSpanId,
  preciseNow,
  traceIdOf,
  type SpanAttribute,
  type SpanKind,
  type SpanRecord,
} from './span.ts';
import type { BaseTraceService } from './trace-service.ts';

export interface OpenSpan {
  readonly record: SpanRecord;
}

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
    return {
      record: {
        ...this.key,
        traceId: this.traceId,
        spanId: options.spanId ?? newSpanId(),
        ...(options.parentSpanId ? { parentSpanId: options.parentSpanId } : {}),
        kind,
        name,
        startTime: options.startTime ?? preciseNow(),
        status: 'ok',
        ...(options.branch ? { branch: options.branch } : {}),
        attributes: { ...options.attributes },
      },
    };
  }

  /** Closes a span (once: a second end is ignored) and queues it for writing. */
  end(span: OpenSpan, options: EndSpanOptions = {}): void {
    const record = span.record;
    if (record.endTime !== undefined) return;
    record.endTime = options.endTime ?? preciseNow();
    Object.assign(record.attributes, options.attributes);
    if (options.error !== undefined) {
      record.status = 'error';
      record.error = options.error;
    }
    this.write(record);
  }

  /** Queues a span as it stands (an open wait, say) for writing. */
  write(record: SpanRecord): void {
    this.pending.push(record);
    // One write for the spans that end together (a model call's span and its agent's, say).
    if (this.pending.length === 1) queueMicrotask(() => void this.flush());
  }

  /** Writes what is queued; resolves when every write so far has been tried. */
  flush(): Promise<void> {
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
