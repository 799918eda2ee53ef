// The turn summary's reads over IndexedDB, inside a transaction given by the caller: a rewind's
// or an append's (to find where a marker moves the tip) or a summary's own read.

import { Stores, sessionRange, type CheckpointRecord } from './database.ts';
import type { AppendTx } from './transaction.ts';
import type { ReadTx } from './transaction.ts';
import { NO_TURN, type SessionRecord } from './session-log.ts';
import type { StoredTurn, TurnReader } from './turn-summary.ts';
import type { RewindReader } from './rewind-point.ts';
import { heldStateOf } from './long-values.ts';

/** The stores a summary reads, and the one it reads first (the session's record). */
export const SUMMARY_STORES = [
  Stores.sessions,
  Stores.events,
  Stores.checkpoints,
  Stores.appStates,
  Stores.userStates,
  Stores.longValues,
];
export type SummaryTx = ReadTx<typeof SUMMARY_STORES>;

function storedTurn(record: CheckpointRecord): StoredTurn {
  const { invocationId, firstSeq, tipBefore, turn, marker } = record;
  return {
    invocationId,
    firstSeq,
    turn: {
      tipBefore: tipBefore ?? NO_TURN,
      ...(turn ? { turn } : {}),
      ...(marker ? { marker } : {}),
    },
  };
}

const byFirstSeq = (a: StoredTurn, b: StoredTurn) => a.firstSeq - b.firstSeq;

/** The reads a rewind makes inside `tx`: single records and one stretch of the log. */
export function rewindReader(tx: SummaryTx | AppendTx, record: SessionRecord): RewindReader {
  // Only reads are made, which a readwrite transaction over more stores has too.
  const reads = tx as SummaryTx;
  const { appName, userId, id: sessionId } = record;
  const events = reads.objectStore(Stores.events);
  const checkpoints = reads.objectStore(Stores.checkpoints);
  const findEvent = async (eventId: string) => {
    const found = await events.index('byEventId').get([appName, userId, sessionId, eventId]);
    return found && { index: found.seq, event: found.event };
  };
  // A checkpoint's state is whole (its long values read), as the rewind restores it.
  const checkpoint = async (invocationId: string) => {
    const found = await checkpoints.get([appName, userId, sessionId, invocationId]);
    if (!found) return undefined;
    const { firstSeq, artifacts } = found;
    const held = await heldStateOf(reads, { appName, userId, sessionId }, found);
    return { invocationId, firstSeq, artifacts, ...held };
  };
  const span = (from: number, to: number) =>
    IDBKeyRange.bound([appName, userId, sessionId, from], [appName, userId, sessionId, to]);
  return {
    length: record.eventCount,
    eventAt: async (seq) => (await events.get([appName, userId, sessionId, seq]))!.event,
    indexOfTarget: async (target) =>
      target.type === 'beforeInvocation'
        ? (await checkpoint(target.invocationId))?.firstSeq
        : (await findEvent(target.eventId))?.index,
    checkpoint,
    findEvent,
    span: async (from, to) => (await events.getAll(span(from, to))).map((stored) => stored.event),
  };
}

/** The reads of a turn summary (and of a rewind) of the session `record` describes. */
export function indexedDbTurnReader(tx: SummaryTx | AppendTx, record: SessionRecord): TurnReader {
  const checkpoints = (tx as SummaryTx).objectStore(Stores.checkpoints);
  const { appName, userId, id: sessionId } = record;
  const parentKey = (parentId: string) => [appName, userId, sessionId, parentId] as const;
  return {
    ...rewindReader(tx, record),
    invocationTurn: async (invocationId) => {
      const found = await checkpoints.get([appName, userId, sessionId, invocationId]);
      return found && storedTurn(found);
    },
    childCount: (parentId) => checkpoints.index('byParentTurn').count([...parentKey(parentId)]),
    children: async (parentId) =>
      (await checkpoints.index('byParentTurn').getAll([...parentKey(parentId)]))
        .map(storedTurn)
        .sort(byFirstSeq),
    markers: async () =>
      (await checkpoints.index('byMarker').getAll(sessionRange(appName, userId, sessionId)))
        .map(storedTurn)
        .sort(byFirstSeq),
  };
}
