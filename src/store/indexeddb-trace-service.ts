// Spans in IndexedDB, in the database of the sessions they belong to (store `spans`, keyed
// `[app, user, session, invocation, span]`): a trace is one key range, read with getAll (no
// cursor, and nothing of the event log), and deleting a session deletes its spans in the same
// transaction (IndexedDbSessionService.deleteSession).

import type { SpanKey, SpanRecord } from '../tracing/span.ts';
import { BaseTraceService, byStart, type ListSpansRequest } from '../tracing/trace-service.ts';
import { Stores, sessionRange } from './database.ts';
import { DatabaseRef, type IndexedDbServiceOptions } from './connection.ts';
import { readTransaction, writeTransaction } from './transaction.ts';

export class IndexedDbTraceService extends BaseTraceService {
  private readonly database: DatabaseRef;

  constructor(options: IndexedDbServiceOptions = {}) {
    super();
    this.database = DatabaseRef.acquire(options.dbName);
  }

  /** Releases this service's hold on the database connection. */
  close(): Promise<void> {
    return this.database.release();
  }

  override async putSpans(spans: readonly SpanRecord[]): Promise<void> {
    if (spans.length === 0) return;
    const db = await this.database.open();
    await writeTransaction(db, [Stores.spans], async (tx) => {
      const store = tx.objectStore(Stores.spans);
      await Promise.all(spans.map((span) => store.put(span)));
    });
  }

  override async listSpans({ invocationId, ...key }: ListSpansRequest): Promise<SpanRecord[]> {
    const { appName, userId, sessionId } = key;
    const range =
      invocationId === undefined
        ? sessionRange(appName, userId, sessionId)
        : IDBKeyRange.bound(
            [appName, userId, sessionId, invocationId],
            [appName, userId, sessionId, invocationId, []],
          );
    const db = await this.database.open();
    const spans = await readTransaction(db, [Stores.spans], (tx) =>
      tx.objectStore(Stores.spans).getAll(range),
    );
    return byStart(spans);
  }

  override async deleteSpans({ appName, userId, sessionId }: SpanKey): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.spans], (tx) =>
      tx.objectStore(Stores.spans).delete(sessionRange(appName, userId, sessionId)),
    );
  }
}
