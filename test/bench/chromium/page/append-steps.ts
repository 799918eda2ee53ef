// Appending events, from one raw put per transaction up to the app's appendEvent, one step at a
// time, so that the gap between two steps says what that part of appendEvent costs; and, for
// reference, the raw put committed at once with `commit()`, as appendEvent commits.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Event, IndexedDbSessionService, Session } from '../../../../src/index.ts';
import { Stores } from '../../../../src/store/database.ts';
import {
  appendToRecord,
  checkpointBefore,
  mayStartInvocation,
  toStoredEvent,
  type SessionRecord,
} from '../../../../src/store/session-log.ts';
import { WRITE_STORES } from '../../../../src/store/transaction.ts';
import { writeTransaction } from '../../../../src/store/transaction.ts';

export const APPEND_STEPS = [
  'raw put, 1 per transaction',
  '+ unique event-id index',
  '+ a record written too',
  '+ the record read first',
  '· appendEvent’s writes, record in memory, unchecked',
  'appendEvent (app)',
  'raw put, 1 per transaction, commit() at once',
] as const;
export type AppendStep = (typeof APPEND_STEPS)[number];

interface RawEvent {
  sessionId: string;
  seq: number;
  event: Event;
}

/** Raw stores shaped like the app's: events keyed by session and seq, a session record. */
interface RawSchema extends DBSchema {
  plain: { key: [string, number]; value: RawEvent };
  indexed: { key: [string, number]; value: RawEvent; indexes: { byEventId: [string, string] } };
  records: { key: string; value: { id: string; eventCount: number } };
}

let raw: Promise<IDBPDatabase<RawSchema>> | undefined;
const rawDb = () =>
  (raw ??= openDB<RawSchema>('raw-baseline', 1, {
    upgrade(db) {
      db.createObjectStore('plain', { keyPath: ['sessionId', 'seq'] });
      db.createObjectStore('indexed', { keyPath: ['sessionId', 'seq'] }).createIndex(
        'byEventId',
        ['sessionId', 'event.id'],
        { unique: true },
      );
      db.createObjectStore('records', { keyPath: 'id' });
    },
  }));

/** The session the unchecked step writes, and its record as that step last wrote it. */
let unchecked: Promise<{ session: Session; record: SessionRecord }> | undefined;

/** Next seq per step (each step writes under its own session id). */
const seqs = new Map<string, number>();
const next = (step: string) => {
  const seq = seqs.get(step) ?? 0;
  seqs.set(step, seq + 1);
  return seq;
};

/** One function per step; each appends `events` one awaited transaction at a time. */
export async function appendSteps(
  sessions: IndexedDbSessionService,
  session: Session,
): Promise<Record<AppendStep, (events: Event[]) => Promise<void>>> {
  const db = await rawDb();
  const appDb = await sessions.openDatabase();
  // Its own session, so that appendEvent's turns between its slices do not make its record stale.
  unchecked ??= sessions
    .createSession({ appName: session.appName, userId: session.userId })
    .then(async (session) => {
      const key = [session.appName, session.userId, session.id] as const;
      return { session, record: (await appDb.get(Stores.sessions, [...key]))! };
    });
  const kept = await unchecked;
  const key = {
    appName: kept.session.appName,
    userId: kept.session.userId,
    sessionId: kept.session.id,
  };
  return {
    'raw put, 1 per transaction': async (events) => {
      for (const event of events)
        await db.put('plain', { sessionId: 'put', seq: next('put'), event });
    },
    '+ unique event-id index': async (events) => {
      for (const event of events)
        await db.put('indexed', { sessionId: 'index', seq: next('index'), event });
    },
    '+ a record written too': async (events) => {
      for (const event of events) {
        const tx = db.transaction(['indexed', 'records'], 'readwrite');
        const seq = next('write');
        await Promise.all([
          tx.objectStore('indexed').add({ sessionId: 'write', seq, event }),
          tx.objectStore('records').put({ id: 'write', eventCount: seq + 1 }),
          tx.done,
        ]);
      }
    },
    '+ the record read first': async (events) => {
      for (const event of events) {
        const tx = db.transaction(['indexed', 'records'], 'readwrite');
        const { eventCount } = (await tx.objectStore('records').get('read')) ?? { eventCount: 0 };
        await Promise.all([
          tx.objectStore('indexed').add({ sessionId: 'read', seq: eventCount, event }),
          tx.objectStore('records').put({ id: 'read', eventCount: eventCount + 1 }),
          tx.done,
        ]);
      }
    },
    'appendEvent (app)': async (events) => {
      for (const event of events) await sessions.appendEvent({ session, event });
    },
    // appendInTx's writes (the event, the record, a checkpoint at an invocation's first event)
    // in one transaction over the same stores, from the record kept in memory, committed when
    // the writes' results are back. appendEvent adds the check that the stored record is still
    // that one (a read issued with the writes), and commits without waiting for their results.
    '· appendEvent’s writes, record in memory, unchecked': async (events) => {
      let { record } = kept;
      for (const event of events) {
        const stored = toStoredEvent(event);
        const before = record;
        const outcome = appendToRecord(before, stored);
        await writeTransaction(appDb, WRITE_STORES, async (tx) => {
          const writes: Promise<unknown>[] = [
            tx.objectStore(Stores.events).add({ ...key, seq: outcome.seq, event: stored }),
            tx.objectStore(Stores.sessions).put(outcome.record),
          ];
          if (mayStartInvocation(before, stored.invocationId)) {
            const { invocationId, firstSeq, state, artifacts } = checkpointBefore(
              before,
              stored.invocationId,
            );
            const checkpoint = { ...key, invocationId, firstSeq, state, artifacts };
            writes.push(tx.objectStore(Stores.checkpoints).put(checkpoint));
          }
          await Promise.all(writes);
        });
        record = kept.record = outcome.record;
      }
    },
    'raw put, 1 per transaction, commit() at once': async (events) => {
      for (const event of events) {
        const tx = db.transaction('plain', 'readwrite');
        const put = tx.store.put({ sessionId: 'commit', seq: next('commit'), event });
        tx.commit();
        await Promise.all([put, tx.done]);
      }
    },
  };
}
