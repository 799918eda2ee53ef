// One IndexedDB transaction around a body of work: all of it commits, or none of it does.

import type { IDBPTransaction, StoreNames } from 'idb';
import { Stores, type TrellisDb, type TrellisSchema } from './database.ts';
import { withStorageErrors } from './connection.ts';

export type StoreName = StoreNames<TrellisSchema>;
export type WriteTx<S extends StoreName[]> = IDBPTransaction<TrellisSchema, S, 'readwrite'>;
export type ReadTx<S extends StoreName[]> = IDBPTransaction<TrellisSchema, S, 'readonly'>;

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
  Stores.longValues,
];
export type AppendTx = WriteTx<typeof WRITE_STORES>;

/**
 * Runs `body` in a readwrite transaction over `stores` and resolves once it has committed.
 * What must stay true inside `body`:
 * - it awaits only IndexedDB requests of `tx` (any other await lets the transaction auto-commit);
 * - it awaits every request it makes (an un-awaited failed request is an unhandled rejection).
 * If `body` throws, the transaction is aborted and the body's error is rethrown (the transaction's
 * own error instead of a request's AbortError); see withStorageErrors for the names they get.
 */
export function writeTransaction<S extends StoreName[], T>(
  db: TrellisDb,
  stores: S,
  body: (tx: WriteTx<S>) => Promise<T>,
): Promise<T> {
  return withStorageErrors(async () => {
    const tx = db.transaction(stores, 'readwrite');
    try {
      const result = await body(tx);
      await tx.done;
      return result;
    } catch (error) {
      // The rejection of `done` is the abort we cause (or the failure we rethrow): not news.
      tx.done.catch(() => undefined);
      const cause = abortCause(tx, error);
      try {
        tx.abort();
      } catch {
        // Already aborted by the failed request, or already finished: nothing left to undo.
      }
      throw cause;
    }
  });
}

/** Runs `body` in a readonly transaction over `stores`. */
export function readTransaction<S extends StoreName[], T>(
  db: TrellisDb,
  stores: S,
  body: (tx: ReadTx<S>) => Promise<T>,
): Promise<T> {
  return withStorageErrors(async () => {
    const tx = db.transaction(stores, 'readonly');
    try {
      const result = await body(tx);
      await tx.done;
      return result;
    } catch (error) {
      tx.done.catch(() => undefined); // see writeTransaction
      throw abortCause(tx, error);
    }
  }, 'read');
}

/**
 * A request of a transaction that aborted for a reason of its own (a full disk, say) fails with
 * an AbortError, which says nothing: the transaction's error, when it has one, is the news.
 */
function abortCause(tx: { error: DOMException | null }, error: unknown): unknown {
  return (error as Error | null)?.name === 'AbortError' && tx.error ? tx.error : error;
}
