// Appending one event to a session in IndexedDB, in one transaction with its state delta, its
// invocation's checkpoint, its run record and any files it saves as artifacts. The service checks
// the request (src/store/indexeddb-session-service.ts); this is how it is written:
// - appends of one session run in call order: each starts when the previous one of this service
//   has finished, so that the record it remembers is the latest this service wrote;
// - an append starts from that remembered record (no read to wait for: see appendAfterKnown) and,
//   when another tab made it stale or it is not known, from the stored record.

import { SessionNotFoundError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { setOwn } from '../core/state.ts';
import { Stores } from './database.ts';
import { type DatabaseRef } from './connection.ts';
import type { EventLogCache } from './event-log-cache.ts';
import { putVersionInTx, type VersionContent } from './indexeddb-artifact-service.ts';
import { deepFreeze, type SessionRecord } from './session-log.ts';
import type { AppendEventRequest, RunRecord } from './session-service.ts';
import {
  appendAfterKnown,
  appendInTx,
  appendStores,
  heldRecordOf,
  withRunRecord,
} from './session-writes.ts';
import { writeTransaction } from './transaction.ts';

type SessionRef = AppendEventRequest['session'];

/** A file an append saves as the session's artifact, its bytes already a Blob. */
export interface AppendedFile {
  filename: string;
  content: VersionContent;
}

export class IndexedDbAppends {
  /** Per session, the end of this service's queue of appends. */
  private readonly appending = new Map<string, Promise<void>>();

  constructor(
    private readonly database: DatabaseRef,
    private readonly cache: EventLogCache,
  ) {}

  /** Appends `stored` (already a stored event) after the previous append of its session. */
  append(
    session: SessionRef,
    stored: Event,
    run: RunRecord | undefined,
    files: readonly AppendedFile[] | undefined,
  ): Promise<Event> {
    const key = JSON.stringify([session.appName, session.userId, session.id]);
    const appended = (this.appending.get(key) ?? Promise.resolve()).then(() =>
      files
        ? this.appendWithFiles(session, stored, run, files)
        : this.appendNow(session, stored, run),
    );
    // The queue goes on after a failed append: its error is the caller's.
    const settled = appended.then(
      () => undefined,
      () => undefined,
    );
    this.appending.set(key, settled);
    void settled.then(() => {
      if (this.appending.get(key) === settled) this.appending.delete(key);
    });
    return appended;
  }

  /**
   * One append, in one transaction. From the remembered record when there is one (no read to
   * wait for: see appendAfterKnown); when that is stale, or is not known, from the stored record.
   */
  private async appendNow(
    session: SessionRef,
    stored: Event,
    run: RunRecord | undefined,
  ): Promise<Event> {
    const { appName, userId, id } = session;
    const db = await this.database.open();
    const known = this.cache.record(appName, userId, id);
    const stores = appendStores(run);
    let record: SessionRecord | undefined;
    if (known) {
      record = await writeTransaction(db, stores, (tx) =>
        withRunRecord(tx, run, () => appendAfterKnown(tx, known, stored)),
      ).catch((error: unknown) => {
        // Stale, or the event's seq or id was taken: retry once from the stored record, which
        // also tells a duplicate event id (an error then) from a stale record.
        const name = (error as Error | null)?.name;
        if (name === 'StaleRecordError' || name === 'DuplicateEventError') return undefined;
        throw error;
      });
    }
    record ??= await writeTransaction(db, stores, (tx) =>
      withRunRecord(tx, run, async () => {
        const found = await tx.objectStore(Stores.sessions).get([appName, userId, id]);
        if (!found) throw new SessionNotFoundError(id);
        const record = await heldRecordOf(tx, found);
        return appendInTx(tx, record, stored, { whenIssued: () => tx.commit() });
      }),
    );
    this.cache.append(record, stored);
    return stored;
  }

  /**
   * An append that also saves files as the session's artifacts, in one transaction: each file's
   * next version is read and written there, and the stored event names them in its
   * `artifactDelta`. From the stored record (a rare write: the user's attachments).
   */
  private async appendWithFiles(
    session: SessionRef,
    event: Event,
    run: RunRecord | undefined,
    files: readonly AppendedFile[],
  ): Promise<Event> {
    const { appName, userId, id } = session;
    const db = await this.database.open();
    const { record, stored } = await writeTransaction(db, appendStores(run), (tx) =>
      withRunRecord(tx, run, async () => {
        const found = await tx.objectStore(Stores.sessions).get([appName, userId, id]);
        if (!found) throw new SessionNotFoundError(id);
        const record = await heldRecordOf(tx, found);
        const artifactDelta: Record<string, number> = { ...event.actions.artifactDelta };
        for (const { filename, content } of files) {
          const key = { appName, userId, sessionId: id, filename };
          setOwn(artifactDelta, filename, await putVersionInTx(tx, key, content));
        }
        const stored = deepFreeze({ ...event, actions: { ...event.actions, artifactDelta } });
        return { record: await appendInTx(tx, record, stored), stored };
      }),
    );
    this.cache.append(record, stored);
    return stored;
  }
}
