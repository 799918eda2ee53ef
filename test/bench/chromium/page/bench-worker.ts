// The bench's worker: the app's runtime code (AppRuntime, the IndexedDB services, a Runner as
// the app builds it) beside raw `idb` baselines, in the same worker and the same IndexedDB, as
// the app's own worker runs them. The page drives it through Comlink and times what the page
// sees; timings taken here are the worker's share.

import { expose } from 'comlink';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { createStateKeeper } from '../../../../src/demos/state-keeper.ts';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  Runner,
  type Event,
  type Session,
} from '../../../../src/index.ts';
import { IndexedDbAppStore } from '../../../../src/store/app-store.ts';
import { Stores, sessionRange } from '../../../../src/store/database.ts';
import {
  appendToRecord,
  checkpointBefore,
  mayStartInvocation,
  toStoredEvent,
} from '../../../../src/store/session-log.ts';
import { WRITE_STORES } from '../../../../src/store/session-writes.ts';
import { writeTransaction } from '../../../../src/store/transaction.ts';
import { AppRuntime } from '../../../../workers/app-runtime.ts';
import { APP_NAME, USER_ID, newMeta } from '../../../../workers/app-sessions.ts';
import { webLocks } from '../../../../workers/session-locks.ts';
import { checkBulkWrite, generateLog, writeLogInBulk } from './seed.ts';
import { turnEvents } from './turns.ts';

export interface SeededSession {
  sessionId: string;
  length: number;
  firstTurnId: string;
  lastTurnId: string;
  /** Making the log in memory; writing it to IndexedDB. */
  generateMs: number;
  writeMs: number;
}

/** The raw baseline: events in a store of their own, one put per transaction. */
interface RawSchema extends DBSchema {
  events: { key: [string, number]; value: { sessionId: string; seq: number; event: Event } };
  records: { key: string; value: { id: string; eventCount: number } };
}

const sessions = new IndexedDbSessionService();
const artifacts = new IndexedDbArtifactService();
const store = new IndexedDbAppStore();
/** The runner the app builds for the state keeper (workers/app-runtime.ts). */
const runner = new Runner({
  appName: APP_NAME,
  agent: createStateKeeper(),
  sessionService: sessions,
  artifactService: artifacts,
  resumabilityConfig: { isResumable: true },
});
const newRuntime = () =>
  new AppRuntime({ locks: webLocks(navigator.locks), broadcast: () => undefined });
/** The runtime of a tab that has the session open: its log cache is warm. */
const live = newRuntime();
const key = (sessionId: string) => ({ appName: APP_NAME, userId: USER_ID, sessionId });

let raw: Promise<IDBPDatabase<RawSchema>> | undefined;
const rawDb = () =>
  (raw ??= openDB<RawSchema>('raw-baseline', 1, {
    upgrade(db) {
      db.createObjectStore('events', { keyPath: ['sessionId', 'seq'] });
      db.createObjectStore('records', { keyPath: 'id' });
    },
  }));

let appendSession: Promise<Session> | undefined;
let rawSeq = 0;

const time = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
  const start = performance.now();
  const result = await work();
  return [performance.now() - start, result];
};

const eventsFor = (count: number) =>
  Array.from({ length: Math.ceil(count / 4) }, (_, turn) => turnEvents(turn))
    .flat()
    .slice(0, count);

const api = {
  /** Throws unless the bulk seed writes what importSession writes. */
  checkBulkWrite: () => checkBulkWrite(sessions),

  /** A session of `length` events, bulk-written (see seed.ts), with the app's session record. */
  async seed(length: number): Promise<SeededSession> {
    const [generateMs, { events, activeTurnIds }] = await time(() => generateLog(length));
    const sessionId = crypto.randomUUID();
    const db = await sessions.openDatabase();
    const [writeMs] = await time(() => writeLogInBulk(db, sessionId, events));
    await store.putSessionMeta(newMeta(sessionId, `${length} events`, 'state-keeper'));
    return {
      sessionId,
      length,
      firstTurnId: activeTurnIds[0]!,
      lastTurnId: activeTurnIds.at(-1)!,
      generateMs,
      writeMs,
    };
  },

  /**
   * One pair of append runs of `count` events each: through IndexedDbSessionService.appendEvent
   * (as the runner appends: one awaited call per event), raw one-put-per-transaction, and raw
   * shaped like appendEvent's transaction (read the record, then write the event and the
   * record), and the "after" prototype below. Same event shapes; the order rotates by run.
   */
  async appendRun(count: number, run: number) {
    appendSession ??= sessions.createSession({ appName: APP_NAME, userId: USER_ID });
    const session = await appendSession;
    const db = await rawDb();
    const app = (events: Event[]) =>
      time(async () => {
        for (const event of events) await sessions.appendEvent({ session, event });
      });
    const rawPut = (events: Event[]) =>
      time(async () => {
        for (const event of events)
          await db.put('events', { sessionId: 'raw', seq: rawSeq++, event });
      });
    const rawLikeApp = (events: Event[]) =>
      time(async () => {
        for (const event of events) {
          const tx = db.transaction(['records', 'events'], 'readwrite');
          const record = (await tx.objectStore('records').get('shaped')) ?? {
            id: 'shaped',
            eventCount: 0,
          };
          await Promise.all([
            tx.objectStore('events').add({ sessionId: 'shaped', seq: record.eventCount, event }),
            tx.objectStore('records').put({ ...record, eventCount: record.eventCount + 1 }),
            tx.done,
          ]);
        }
      });
    // The "after" prototype: appendInTx's writes (event, record, checkpoint at a turn's first
    // event) in one transaction over the same stores, with the session record kept in memory
    // instead of read first. A real fix must still catch a stale record (another writer took
    // the seq: `add` fails) and a resumed invocation's existing checkpoint.
    const noReads = async (events: Event[]) => {
      const appDb = await sessions.openDatabase();
      const k = key(session.id);
      let record = (await appDb.get(Stores.sessions, [k.appName, k.userId, k.sessionId]))!;
      return time(async () => {
        for (const event of events) {
          const stored = toStoredEvent(event);
          const outcome = appendToRecord(record, stored);
          const before = record;
          await writeTransaction(appDb, WRITE_STORES, async (tx) => {
            const writes: Promise<unknown>[] = [
              tx.objectStore(Stores.events).add({ ...k, seq: outcome.seq, event: stored }),
              tx.objectStore(Stores.sessions).put(outcome.record),
            ];
            if (mayStartInvocation(before, stored.invocationId)) {
              const { invocationId, firstSeq, state, artifacts } = checkpointBefore(
                before,
                stored.invocationId,
              );
              writes.push(
                tx
                  .objectStore(Stores.checkpoints)
                  .put({ ...k, invocationId, firstSeq, state, artifacts }),
              );
            }
            await Promise.all(writes);
          });
          record = outcome.record;
        }
      });
    };
    const order = [app, rawPut, rawLikeApp, noReads];
    const ms = new Map<unknown, number>();
    for (let i = 0; i < order.length; i++) {
      const variant = order[(i + run) % order.length]!;
      ms.set(variant, (await variant(eventsFor(count)))[0]);
    }
    return {
      appMs: ms.get(app)!,
      rawMs: ms.get(rawPut)!,
      rawLikeAppMs: ms.get(rawLikeApp)!,
      noReadsMs: ms.get(noReads)!,
    };
  },

  /** What a page load does to show a session: a fresh runtime (cold cache), openSession. */
  async openCold(sessionId: string) {
    const [workerMs, snapshot] = await time(() => newRuntime().openSession(sessionId));
    return { workerMs, snapshot };
  },

  /** Raw `getAll` of every event of the session. */
  async rawGetAll(sessionId: string) {
    const db = await sessions.openDatabase();
    const { appName, userId } = key(sessionId);
    const [ms, events] = await time(() =>
      db.getAll(Stores.events, sessionRange(appName, userId, sessionId)),
    );
    return { ms, count: events.length };
  },

  /** The prototype "after": a fresh service reads the state and the last `n` events only. */
  async openRecent(sessionId: string, n: number) {
    const fresh = new IndexedDbSessionService();
    const [ms, session] = await time(() =>
      fresh.getSession({ ...key(sessionId), config: { numRecentEvents: n } }),
    );
    await fresh.close();
    return { ms, count: session!.events.length };
  },

  /** runner.rewindAsync before `invocationId`, as the app's rewind does under its lock. */
  async rewindRunner(sessionId: string, invocationId: string) {
    const [ms] = await time(() =>
      runner.rewindAsync({ userId: USER_ID, sessionId, rewindBeforeInvocationId: invocationId }),
    );
    return ms;
  },

  /** The open tab's runtime: the app's rewind action (lock, meta, runner). */
  liveRewind: (sessionId: string, invocationId: string) => live.rewind(sessionId, invocationId),
  /** The open tab's runtime: what the page asks after a change (events from `fromEvent` on). */
  liveOpen: (sessionId: string, fromEvent: number) => live.openSession(sessionId, fromEvent),
};

export type BenchWorkerApi = typeof api;

expose(api);
