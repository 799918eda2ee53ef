// Appending events, from one raw put per transaction up to the app's appendEvent, one step at a
// time, so that the gap between two steps says what that part of appendEvent costs. Then the
// "after" prototype: appendEvent's own writes with the session record kept in memory.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Event, IndexedDbSessionService, Session } from '../../../../src/index.ts';
import { Stores } from '../../../../src/store/database.ts';
import {
  appendToRecord,
  checkpointBefore,
  mayStartInvocation,
  toStoredEvent,
} from '../../../../src/store/session-log.ts';
import { WRITE_STORES } from '../../../../src/store/session-writes.ts';
import { writeTransaction } from '../../../../src/store/transaction.ts';

export const APPEND_STEPS = [
  'raw put, 1 per transaction',
  '+ unique event-id index',
  '+ a record written too',
  '+ the record read first',
  'appendEvent (app)',
  'after: appendEvent’s writes, no reads',
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
  const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
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
    // in one transaction over the same stores, the record kept in memory instead of read. A
    // real fix must still catch a stale record (another writer took the seq: `add` fails) and
    // not overwrite the checkpoint of a resumed invocation.
    'after: appendEvent’s writes, no reads': async (events) => {
      let record = (await appDb.get(Stores.sessions, [key.appName, key.userId, key.sessionId]))!;
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
        record = outcome.record;
      }
    },
  };
}
