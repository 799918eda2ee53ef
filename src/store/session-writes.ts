// The writes of the IndexedDB session service, each inside a transaction it is given: appending
// an event (with its checkpoint and its app and user state), writing a whole new log, and the
// reads a rewind makes before it writes.

import { unwrap } from 'idb';
import { DuplicateEventError, SessionExistsError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { applyDelta, hasKeys } from '../core/state.ts';
import { Stores, type CheckpointRecord, type ScopeStateRecord } from './database.ts';
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
import type { RunRecord } from './session-service.ts';
import { WRITE_STORES, type AppendTx, type WriteTx } from './transaction.ts';
import {
  heldStateOf,
  rememberLongValues,
  storedFormOf,
  storedStateOf,
  type FreshLongValue,
  type LongValueReader,
} from './long-values.ts';

/**
 * The stores of an append: those of every write, and the runs store when the append also writes
 * the record of the run its event starts or resumes (the ordinary append keeps the narrower
 * scope). Typed as the ordinary scope: only withRunRecord reaches the runs store, and only when
 * it was given a run, that is, inside a transaction over these stores.
 */
export function appendStores(run: RunRecord | undefined): typeof WRITE_STORES {
  return run ? ([...WRITE_STORES, Stores.runs] as typeof WRITE_STORES) : WRITE_STORES;
}

/**
 * Runs `append` in `tx` (opened over `appendStores(run)`), with `run` (if any) put ahead of its
 * requests, so that the event and the record of its run commit together or not at all.
 */
export async function withRunRecord<T>(
  tx: AppendTx,
  run: RunRecord | undefined,
  append: () => Promise<T>,
): Promise<T> {
  if (!run) return append();
  const runs = (tx as unknown as WriteTx<[typeof Stores.runs]>).objectStore(Stores.runs);
  const put = runs.put(run);
  const [result] = await Promise.all([append(), put]);
  return result;
}

/**
 * The record `next` (made from `previous` by an append) as held in memory and as stored, and the
 * long values it holds that `previous` did not (src/store/long-values.ts).
 */
export function encodeRecord(
  next: SessionRecord,
  previous: SessionRecord | undefined,
): { held: SessionRecord; stored: SessionRecord; fresh: FreshLongValue[] } {
  const { stored, held, fresh } = storedStateOf(next.state, previous);
  const { long: _long, ...rest } = next;
  return { held: { ...rest, ...held }, stored: { ...rest, ...stored }, fresh };
}

/** A held record as stored, its long values already written. */
export function storedRecordOf(held: SessionRecord): SessionRecord {
  const { long: _long, ...rest } = held;
  return { ...rest, ...storedFormOf(held) };
}

/** The record as held in memory, of one read from the store (its long values read too). */
export async function heldRecordOf(
  tx: LongValueReader,
  stored: SessionRecord,
): Promise<SessionRecord> {
  if (!stored.long) return stored;
  const { appName, userId, id: sessionId } = stored;
  return { ...stored, ...(await heldStateOf(tx, { appName, userId, sessionId }, stored)) };
}

/** Writes long values of the session `scope` names, in `tx`. */
export function putLongValues(
  tx: AppendTx,
  scope: { appName: string; userId: string; id: string },
  fresh: readonly FreshLongValue[],
): Promise<unknown>[] {
  const { appName, userId, id: sessionId } = scope;
  rememberLongValues({ appName, userId, sessionId }, fresh);
  return fresh.map(({ id, value }) =>
    tx.objectStore(Stores.longValues).put({ appName, userId, sessionId, id, value }),
  );
}

/** Key range of the session's events from seq `from` on (up to `to`, included, if given). */
export function seqRange(record: SessionRecord, from: number, to?: number): IDBKeyRange {
  const { appName, userId, id } = record;
  return IDBKeyRange.bound([appName, userId, id, from], [appName, userId, id, to ?? []]);
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
  await addSession(tx, fresh);
  let record = fresh;
  for (const event of events) record = await appendInTx(tx, record, event, { applyShared: false });
  return record;
}

/** Adds a new session's record inside `tx`; SessionExistsError if its id is taken. */
export async function addSession(tx: AppendTx, fresh: SessionRecord): Promise<void> {
  await tx
    .objectStore(Stores.sessions)
    .add(fresh)
    .catch((error: unknown) => {
      if ((error as Error | null)?.name === 'ConstraintError')
        throw new SessionExistsError(fresh.id);
      throw error;
    });
}

/** The record appendAfterKnown was given is not the stored one (internal: caught by its caller). */
export class StaleRecordError extends Error {
  override name = 'StaleRecordError' as const;
  constructor(readonly sessionId: string) {
    super(`The session record of ${sessionId} changed since this service last saw it`);
  }
}

/**
 * Appends a stored event after `known`, the record this service last wrote or read, without
 * waiting for a read. What must stay true:
 * - the stored record is read first in `tx`, ahead of the writes (requests run in order), and
 *   unless it is `known` — another tab or service appended, rewound, deleted or recreated the
 *   session, or changed its record — the transaction is aborted before it can commit and
 *   StaleRecordError is thrown: nothing is written;
 * - a ConstraintError of the event's `add` (its seq is taken, or its id is a duplicate) aborts the
 *   transaction as DuplicateEventError; only a retry from a fresh read can tell which it was;
 * - it commits (`tx.commit()`) only when the check passed and every request is issued; a request
 *   failing after that still aborts the whole transaction.
 */
export async function appendAfterKnown(
  tx: AppendTx,
  known: SessionRecord,
  event: Event,
): Promise<SessionRecord> {
  const { appName, userId, id } = known;
  // Committing once the record checked out and every write is issued spares the round trip of
  // the writes' results to this thread before IndexedDB may commit.
  let waiting = 2;
  const commitWhenReady = () => {
    if (--waiting === 0) tx.commit();
  };
  const check = tx
    .objectStore(Stores.sessions)
    .get([appName, userId, id])
    .then((stored) => {
      if (stored && sameData(stored, storedRecordOf(known))) return commitWhenReady();
      tx.abort();
      throw new StaleRecordError(id);
    });
  const append = appendInTx(tx, known, event, { whenIssued: commitWhenReady });
  const [, record] = await Promise.all([check, append]);
  return record;
}

/**
 * Whether two stored values (plain data) are provably the same: anything but plain objects,
 * arrays and primitives (a Date, a Blob) counts as different, which only costs a re-read.
 */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameData(item, b[i]))
    );
  }
  const plain = (value: object) => Object.getPrototypeOf(value) === Object.prototype;
  if (!plain(a) || !plain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return keys.every((key) => Object.hasOwn(y, key) && sameData(x[key], y[key]));
}

/**
 * Adds `value` unless its key is taken, keeping what is there; resolves whether it added. The
 * raw request, because only its error event can be told not to abort the transaction.
 */
function addUnlessTaken(store: IDBObjectStore, value: CheckpointRecord): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const request = store.add(value);
    request.onsuccess = () => resolve(true);
    request.onerror = (event) => {
      if (request.error?.name !== 'ConstraintError') {
        reject(request.error ?? new DOMException('Aborted', 'AbortError'));
        return;
      }
      // Taken is an answer, not a failure: cancelling the error keeps the transaction going, and
      // stopping it here keeps it from the transaction's listeners (idb's `done` would reject).
      event.preventDefault();
      event.stopPropagation();
      resolve(false);
    };
  });
}

/**
 * Appends a stored event to the log inside `tx`; returns the new session record. It reads only
 * what it must (app or user state when the delta has such keys, the tip a rewind marker goes
 * back to), then issues every write at once, so no failed write waits unobserved.
 */
export async function appendInTx(
  tx: AppendTx,
  record: SessionRecord,
  event: Event,
  {
    applyShared = true,
    whenIssued,
  }: {
    applyShared?: boolean;
    /**
     * Called once every request of the append is issued and none may fail on purpose any more
     * (a checkpoint's `add`): the caller may `commit()` then.
     */
    whenIssued?: () => void;
  } = {},
): Promise<SessionRecord> {
  const { appName, userId, id: sessionId } = record;
  const outcome = appendToRecord(record, event);
  const app = applyShared ? outcome.deltas.app : {};
  const user = applyShared ? outcome.deltas.user : {};
  const startsInvocation = mayStartInvocation(record, event.invocationId);
  // App and user state are a read-modify-write, when the delta has such keys (rare).
  const [appState, userState] =
    hasKeys(app) || hasKeys(user)
      ? await Promise.all([
          hasKeys(app) ? tx.objectStore(Stores.appStates).get(appName) : undefined,
          hasKeys(user) ? tx.objectStore(Stores.userStates).get([appName, userId]) : undefined,
        ])
      : [];
  // Only a rewind marker reads to move the tip (see turn-summary.ts).
  const target = rewindTargetOf(event);
  const restored = target
    ? await tipRestoredBy(indexedDbTurnReader(tx, record), target, event.invocationId)
    : undefined;
  // A record stored before long values went out of line (schema 8) holds them inline: they are
  // named here once, so that the record and the invocation's checkpoint write each under one id.
  const named = startsInvocation ? storedStateOf(record.state, record) : undefined;
  const start: SessionRecord = named ? { ...record, ...named.held } : record;
  // Written as if the event begins its invocation (it nearly always does); `resumed` is written
  // after it when the invocation turns out to have begun before (it is resumed after another).
  const encoded = encodeRecord(withTip(outcome.record, event, startsInvocation, restored), start);
  let next = encoded.held;
  const resumedTip = startsInvocation ? withTip(outcome.record, event, false, restored) : undefined;
  // The same state as `next`: its long values are those `next` writes.
  const resumed = resumedTip ? encodeRecord(resumedTip, next).held : next;
  const sameTip = resumedTip === undefined || resumedTip.tip === encoded.held.tip;
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
    ...putLongValues(tx, record, named ? [...named.fresh, ...encoded.fresh] : encoded.fresh),
    tx.objectStore(Stores.sessions).put(encoded.stored),
  ];
  if (startsInvocation) {
    const { firstSeq, state, artifacts } = checkpointBefore(record, event.invocationId);
    const invocationId = event.invocationId;
    const turn = invocationTurn(record, event, restored);
    // The record's long values are stored already, or named above: the checkpoint names them.
    const held = storedStateOf(state, { state, long: start.long });
    const checkpoint = {
      appName,
      userId,
      sessionId,
      invocationId,
      firstSeq,
      ...held.stored,
      artifacts,
    };
    const added = addUnlessTaken(unwrap(tx.objectStore(Stores.checkpoints)), {
      ...checkpoint,
      ...turn,
    });
    writes.push(...putLongValues(tx, record, held.fresh));
    // Not before the checkpoint's answer: once `commit()` is called, Chromium aborts on any
    // failed request, even one whose error is cancelled.
    writes.push(
      added.then(async (added) => {
        // Taken: the invocation began earlier and is resumed. Its checkpoint stays as it was,
        // and the record is that of an event within an invocation.
        const put =
          added || sameTip
            ? undefined
            : tx.objectStore(Stores.sessions).put(storedRecordOf(resumed));
        if (put) next = resumed;
        whenIssued?.();
        await put;
      }),
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
  if (!startsInvocation) whenIssued?.();
  await Promise.all(writes);
  return next;
}
