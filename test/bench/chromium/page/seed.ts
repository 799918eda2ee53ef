// Sessions of up to 100,000 events, written as fast as IndexedDB takes them.
//
// The log is made in memory by the library's own InMemorySessionService: turns of the state
// keeper, and every 40 turns a rewind five turns back, so the log has branches and real rewind
// markers. It is then written to IndexedDB in ONE transaction whose requests are issued without
// waiting for each other, using the very bookkeeping the IndexedDB service uses
// (appendToRecord, checkpointBefore): the session record, every event, every invocation's
// checkpoint. (The service's importSession writes the same records but awaits each request in
// turn; checkBulkWrite times both on 1,000 events.) `checkBulkWrite` also compares what both
// stored, so the figures read exactly what the app would have written.

import type { Event } from '../../../../src/index.ts';
import { InMemorySessionService, type IndexedDbSessionService } from '../../../../src/index.ts';
import { Stores, sessionRange, type TrellisDb } from '../../../../src/store/database.ts';
import {
  appendToRecord,
  checkpointBefore,
  newSessionRecord,
} from '../../../../src/store/session-log.ts';
import { APP_NAME, USER_ID } from '../../../../workers/sessions/sessions.ts';
import { NO_TURN } from '../../../../src/store/session-log.ts';
import { replayTurns } from '../../../../src/store/turn-log.ts';
import { turnEvents } from './turns.ts';

const REWIND_EVERY = 40;
const REWIND_BACK = 5;

export interface GeneratedLog {
  events: Event[];
  /** Invocation ids of the active conversation's turns, oldest first. */
  activeTurnIds: string[];
}

/** A log of exactly `length` events (the last turn may be cut short to fit). */
export async function generateLog(length: number): Promise<GeneratedLog> {
  const sessions = new InMemorySessionService();
  const session = await sessions.createSession({ appName: APP_NAME, userId: USER_ID });
  const key = { appName: APP_NAME, userId: USER_ID, sessionId: session.id };
  const active: string[] = [];
  let count = 0;
  for (let turn = 0; count < length; turn++) {
    if (turn % REWIND_EVERY === REWIND_EVERY - 1 && active.length > REWIND_BACK) {
      const target = active.splice(active.length - REWIND_BACK)[0]!;
      await sessions.rewindSession({ ...key, rewindBeforeInvocationId: target });
      count++;
      continue;
    }
    const events = turnEvents(turn).slice(0, length - count);
    for (const event of events) await sessions.appendEvent({ session, event });
    active.push(events[0]!.invocationId);
    count += events.length;
  }
  const full = await sessions.getSession(key);
  return { events: [...full!.events], activeTurnIds: active };
}

/** Writes `events` (stored events) as a new session `sessionId`, as importSession would. */
export async function writeLogInBulk(
  db: TrellisDb,
  sessionId: string,
  events: readonly Event[],
): Promise<void> {
  // The turn summary appends keep (the tip, each invocation's turn bookkeeping), replayed in
  // memory first: appendInTx finds a marker's tip with reads this bulk write cannot make.
  const summary = await replayTurns(events);
  const tx = db.transaction([Stores.sessions, Stores.events, Stores.checkpoints], 'readwrite');
  const eventStore = tx.objectStore(Stores.events);
  const checkpoints = tx.objectStore(Stores.checkpoints);
  const key = { appName: APP_NAME, userId: USER_ID, sessionId };
  let record = newSessionRecord(APP_NAME, USER_ID, sessionId, Date.now());
  const started = new Set<string>();
  const writes: Promise<unknown>[] = [];
  for (const event of events) {
    // appendInTx takes a checkpoint when an invocation's first event is appended.
    if (!started.has(event.invocationId)) {
      started.add(event.invocationId);
      const { invocationId, firstSeq, state, artifacts } = checkpointBefore(
        record,
        event.invocationId,
      );
      const { turn } = summary.turns.get(invocationId)!;
      writes.push(checkpoints.put({ ...key, invocationId, firstSeq, state, artifacts, ...turn }));
    }
    const outcome = appendToRecord(record, event);
    writes.push(eventStore.add({ ...key, seq: outcome.seq, event }));
    record = outcome.record;
    // The record gains its tip at the first turn, as withTip adds it (the key order matters to
    // checkBulkWrite's comparison).
    if (record.tip === undefined && summary.turns.get(event.invocationId)?.turn.turn)
      record = { ...record, tip: NO_TURN };
  }
  if (summary.tip !== NO_TURN || record.tip !== undefined) record = { ...record, tip: summary.tip };
  writes.push(tx.objectStore(Stores.sessions).add(record));
  await Promise.all([...writes, tx.done]);
}

/**
 * Throws unless a log written by writeLogInBulk is stored exactly as the service's own
 * importSession stores it (a precondition of every figure, not a benchmark).
 */
export async function checkBulkWrite(
  sessions: IndexedDbSessionService,
): Promise<{ events: number; bulkMs: number; importMs: number }> {
  const db = await sessions.openDatabase();
  const { events } = await generateLog(1000);
  const bulkId = `bulk-check-${crypto.randomUUID()}`;
  const start = performance.now();
  await writeLogInBulk(db, bulkId, events);
  const bulkMs = performance.now() - start;
  const imported = await sessions.importSession({ appName: APP_NAME, userId: USER_ID, events });
  const importMs = performance.now() - start - bulkMs;
  const stored = async (sessionId: string) => {
    const range = sessionRange(APP_NAME, USER_ID, sessionId);
    const [record, log, checkpoints] = await Promise.all([
      db.get(Stores.sessions, [APP_NAME, USER_ID, sessionId]),
      db.getAll(Stores.events, range),
      db.getAll(Stores.checkpoints, range),
    ]);
    const { id: _id, createTime: _c, lastUpdateTime: _l, ...rest } = record!;
    return JSON.stringify({
      record: rest,
      events: log.map(({ seq, event }) => ({ seq, event })),
      checkpoints: checkpoints.map(({ sessionId: _s, ...checkpoint }) => checkpoint),
    });
  };
  const [bulk, reference] = await Promise.all([stored(bulkId), stored(imported.id)]);
  if (bulk !== reference) {
    throw new Error('Bench seed: the bulk-written session differs from importSession’s');
  }
  for (const sessionId of [bulkId, imported.id])
    await sessions.deleteSession({ appName: APP_NAME, userId: USER_ID, sessionId });
  return { events: events.length, bulkMs, importMs };
}
