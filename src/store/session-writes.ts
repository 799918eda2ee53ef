// The writes of the IndexedDB session service, each inside a transaction it is given: appending
// an event (with its checkpoint and its app and user state), writing a whole new log, and the
// reads a rewind makes before it writes.

import { DuplicateEventError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { applyDelta, hasKeys } from '../core/state.ts';
import { Stores, type ScopeStateRecord } from './database.ts';
import { rewindTargetOf } from '../core/event.ts';
import { indexedDbTurnReader } from './indexeddb-turns.ts';
import {
  appendToRecord,
  checkpointBefore,
  invocationTurn,
  mayStartInvocation,
  withTip,
  type SessionRecord,
} from './session-log.ts';
import { tipRestoredBy } from './turn-summary.ts';
import type { RewindReader } from './rewind-point.ts';
import type { WriteTx } from './transaction.ts';

/**
 * Every write spans all the stores: an append may take a checkpoint and change app or user
 * state, and a rewind or fork also writes artifacts, all in one transaction.
 */
export const WRITE_STORES = [
  Stores.sessions,
  Stores.events,
  Stores.appStates,
  Stores.userStates,
  Stores.checkpoints,
  Stores.artifacts,
];
export type AppendTx = WriteTx<typeof WRITE_STORES>;

/** Key range of the session's events from seq `from` on (up to `to`, included, if given). */
export function seqRange(record: SessionRecord, from: number, to?: number): IDBKeyRange {
  const { appName, userId, id } = record;
  return IDBKeyRange.bound([appName, userId, id, from], [appName, userId, id, to ?? []]);
}

/** The reads a rewind makes inside `tx`: single records and one stretch of the log. */
export function rewindReader(tx: AppendTx, record: SessionRecord): RewindReader {
  const { appName, userId, id: sessionId } = record;
  const events = tx.objectStore(Stores.events);
  const checkpoints = tx.objectStore(Stores.checkpoints);
  const findEvent = async (eventId: string) => {
    const found = await events.index('byEventId').get([appName, userId, sessionId, eventId]);
    return found && { index: found.seq, event: found.event };
  };
  const checkpoint = (invocationId: string) =>
    checkpoints.get([appName, userId, sessionId, invocationId]);
  return {
    length: record.eventCount,
    eventAt: async (seq) => (await events.get([appName, userId, sessionId, seq]))!.event,
    indexOfTarget: async (target) =>
      target.type === 'beforeInvocation'
        ? (await checkpoint(target.invocationId))?.firstSeq
        : (await findEvent(target.eventId))?.index,
    checkpoint,
    findEvent,
    span: async (from, to) =>
      (await events.getAll(seqRange(record, from, to))).map((stored) => stored.event),
  };
}

/** The part of a transaction that reads app and user state (any mode, any wider store list). */
interface ScopeReader {
  objectStore(name: typeof Stores.appStates): {
    get(key: string): Promise<ScopeStateRecord | undefined>;
  };
  objectStore(name: typeof Stores.userStates): {
    get(key: [string, string]): Promise<ScopeStateRecord | undefined>;
  };
}

export async function readScopes(
  tx: ScopeReader,
  appName: string,
  userId: string,
): Promise<[Record<string, unknown>, Record<string, unknown>]> {
  const [app, user] = await Promise.all([
    tx.objectStore(Stores.appStates).get(appName),
    tx.objectStore(Stores.userStates).get([appName, userId]),
  ]);
  return [app?.state ?? {}, user?.state ?? {}];
}

/** Writes a new session made of `events` (stored events) inside `tx`; shared state untouched. */
export async function writeLog(
  tx: AppendTx,
  fresh: SessionRecord,
  events: readonly Event[],
): Promise<SessionRecord> {
  await tx.objectStore(Stores.sessions).add(fresh);
  let record = fresh;
  for (const event of events) record = await appendInTx(tx, record, event, { applyShared: false });
  return record;
}

/**
 * Appends a stored event to the log inside `tx`; returns the new session record. Reads come
 * first and every write is then issued at once, so no failed write waits unobserved.
 */
export async function appendInTx(
  tx: AppendTx,
  record: SessionRecord,
  event: Event,
  { applyShared = true } = {},
): Promise<SessionRecord> {
  const { appName, userId, id: sessionId } = record;
  const outcome = appendToRecord(record, event);
  const app = applyShared ? outcome.deltas.app : {};
  const user = applyShared ? outcome.deltas.user : {};
  const checkpointKey: [string, string, string, string] = [
    appName,
    userId,
    sessionId,
    event.invocationId,
  ];
  const [hasCheckpoint, appState, userState] = await Promise.all([
    mayStartInvocation(record, event.invocationId)
      ? tx
          .objectStore(Stores.checkpoints)
          .getKey(checkpointKey)
          .then((key) => key !== undefined)
      : true,
    hasKeys(app) ? tx.objectStore(Stores.appStates).get(appName) : undefined,
    hasKeys(user) ? tx.objectStore(Stores.userStates).get([appName, userId]) : undefined,
  ]);
  // Only a rewind marker reads to move the tip (see turn-summary.ts).
  const target = rewindTargetOf(event);
  const restored = target
    ? await tipRestoredBy(indexedDbTurnReader(tx, record), target, event.invocationId)
    : undefined;
  const next = withTip(outcome.record, event, !hasCheckpoint, restored);
  const writes: Promise<unknown>[] = [
    tx
      .objectStore(Stores.events)
      .add({ appName, userId, sessionId, seq: outcome.seq, event })
      .catch((error: unknown) => {
        // The only unique index is the event id within the session.
        if ((error as Error | null)?.name === 'ConstraintError')
          throw new DuplicateEventError(event.id);
        throw error;
      }),
    tx.objectStore(Stores.sessions).put(next),
  ];
  if (!hasCheckpoint) {
    const { firstSeq, state, artifacts } = checkpointBefore(record, event.invocationId);
    const invocationId = event.invocationId;
    const turn = invocationTurn(record, event, restored);
    writes.push(
      tx
        .objectStore(Stores.checkpoints)
        .put({ appName, userId, sessionId, invocationId, firstSeq, state, artifacts, ...turn }),
    );
  }
  if (hasKeys(app)) {
    writes.push(
      tx
        .objectStore(Stores.appStates)
        .put({ appName, state: applyDelta(appState?.state ?? {}, app) }),
    );
  }
  if (hasKeys(user)) {
    const state = applyDelta(userState?.state ?? {}, user);
    writes.push(tx.objectStore(Stores.userStates).put({ appName, userId, state }));
  }
  await Promise.all(writes);
  return next;
}
