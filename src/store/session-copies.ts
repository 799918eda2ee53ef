// The writes that make a session out of others: a fork (a session's conversation up to a turn,
// copied with its artifacts) and an import (a whole log replayed), each the body of one
// transaction of IndexedDbSessionService.

import { conversationThrough } from '../core/active-events.ts';
import {
  InvalidSessionFileError,
  InvocationNotFoundError,
  SessionExistsError,
  SessionNotFoundError,
  isTrellisError,
} from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { hasKeys } from '../core/state.ts';
import { Stores, sessionRange } from './database.ts';
import {
  addImportedVersionsInTx,
  copyVersionsInTx,
  type importedVersionRecords,
} from './indexeddb-artifact-service.ts';
import { artifactsNotAtomic, deepFreeze, newSessionRecord } from './session-log.ts';
import { importedRecord } from './session-import.ts';
import type { ForkSessionRequest, SessionKey } from './session-service.ts';
import { addSession, appendInTx, readScopes, writeLog } from './session-writes.ts';
import { type AppendTx } from './transaction.ts';

/** Session `id` made of `request`'s session up to its turn `atInvocationId`. */
export async function forkInTx(
  tx: AppendTx,
  request: ForkSessionRequest,
  id: string,
  sharesDb: boolean,
) {
  const { appName, userId, sessionId, atInvocationId } = request;
  const sessions = tx.objectStore(Stores.sessions);
  const [source, taken] = await Promise.all([
    sessions.get([appName, userId, sessionId]),
    sessions.getKey([appName, userId, id]),
  ]);
  if (!source) throw new SessionNotFoundError(sessionId);
  if (taken) throw new SessionExistsError(id);
  const log = await tx.objectStore(Stores.events).getAll(sessionRange(appName, userId, sessionId));
  const events = conversationThrough(
    log.map((r) => r.event),
    atInvocationId,
  );
  if (!events) throw new InvocationNotFoundError(atInvocationId, sessionId);
  const record = await writeLog(tx, newSessionRecord(appName, userId, id, Date.now()), events);
  if (request.artifactService && hasKeys(record.artifacts)) {
    if (!sharesDb) throw artifactsNotAtomic();
    await copyVersionsInTx(tx, { appName, userId, sessionId }, id, record.artifacts);
  }
  const [appState, userState] = await readScopes(tx, appName, userId);
  return { record, events: events.map((event) => deepFreeze(event)), appState, userState };
}

/** Session `scope` made of a whole log (`events`) and the artifact versions it carries. */
export async function importInTx(
  tx: AppendTx,
  scope: SessionKey,
  events: readonly Event[],
  versions: ReturnType<typeof importedVersionRecords>,
  lastUpdateTime: number | undefined,
) {
  const { appName, userId, sessionId: id } = scope;
  let record = importedRecord(newSessionRecord(appName, userId, id, Date.now()), lastUpdateTime);
  await addSession(tx, record);
  for (const [index, event] of events.entries()) {
    record = await appendInTx(tx, record, event, { applyShared: false }).catch((error: unknown) => {
      throw importFailure(error, `events[${index}]`);
    });
  }
  if (versions.length > 0)
    await addImportedVersionsInTx(tx, scope, versions).catch((error: unknown) => {
      throw importFailure(error, 'its artifacts');
    });
  const [appState, userState] = await readScopes(tx, appName, userId);
  return { record, appState, userState };
}

/**
 * A write of an import that the browser refused for a reason of the data's own (it cannot be
 * cloned or keyed, say): the file's fault, said as such with where it is. Storage failures (a
 * full disk, an aborted transaction) and our own typed errors pass as they are.
 */
function importFailure(error: unknown, where: string): unknown {
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || isTrellisError(error)) return error;
  if (!['DataCloneError', 'DataError', 'RangeError', 'TypeError'].includes(name)) return error;
  return new InvalidSessionFileError([
    `${where} could not be stored (the browser said: ${(error as Error).message})`,
  ]);
}
