// The sink of a store that keeps span records (IndexedDB): a run's ended spans are made into
// records and written in batches, when the run ends (the runner flushes), when many wait, or a
// moment after the first waited (so a run cut off by a crash loses at most that moment's spans).

import { spanRecordOf, type OpenSpan, type SpanSink } from './open-span.ts';
import type { SpanRecord } from './span.ts';

/** How many ended spans wait at most before they are written. */
const BATCH = 32;
/** How long the first of them waits at most. */
const FLUSH_AFTER_MS = 1000;

export class BatchedSpans implements SpanSink {
  private pending: OpenSpan[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly service: { putSpans(spans: readonly SpanRecord[]): Promise<void> },
  ) {}

  add(span: OpenSpan): void {
    this.pending.push(span);
    if (this.pending.length >= BATCH) void this.flush();
    else scheduleFlush(this);
  }

  flush(): Promise<void> {
    waiting.delete(this);
    const batch = this.pending;
    if (batch.length > 0) {
      this.pending = [];
      this.writing = this.writing
        .then(() => this.service.putSpans(batch.map(spanRecordOf)))
        // Best-effort: a span that cannot be stored (a full disk) is dropped, the run goes on.
        .catch(() => undefined);
    }
    return this.writing;
  }
}

/** Sinks with spans waiting to be written, and the one timer that writes them all. */
const waiting = new Set<BatchedSpans>();
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Writes `sink`'s spans within FLUSH_AFTER_MS unless it flushes first. One timer for every run,
 * not one per run: most runs end (and flush) well before it fires.
 */
function scheduleFlush(sink: BatchedSpans): void {
  waiting.add(sink);
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    for (const pending of [...waiting]) void pending.flush();
  }, FLUSH_AFTER_MS);
  // In Node, a trace waiting to be written keeps no process alive.
  (timer as { unref?: () => void }).unref?.();
}
