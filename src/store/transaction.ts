// One IndexedDB transaction around a body of work: all of it commits, or none of it does.

import type { IDBPTransaction, StoreNames } from 'idb';
import { withStorageErrors, type TrellisDb, type TrellisSchema } from './database.ts';

export type StoreName = StoreNames<TrellisSchema>;
export type WriteTx<S extends StoreName[]> = IDBPTransaction<TrellisSchema, S, 'readwrite'>;
export type ReadTx<S extends StoreName[]> = IDBPTransaction<TrellisSchema, S, 'readonly'>;

/**
 * Runs `body` in a readwrite transaction over `stores` and resolves once it has committed.
 * What must stay true inside `body`:
 * - it awaits only IndexedDB requests of `tx` (any other await lets the transaction auto-commit);
 * - it awaits every request it makes (an un-awaited failed request is an unhandled rejection).
 * If `body` throws, the transaction is aborted and the body's error is rethrown.
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
      try {
        tx.abort();
      } catch {
        // Already aborted by the failed request, or already finished: nothing left to undo.
      }
      throw error;
    }
  });
}

/** Runs `body` in a readonly transaction over `stores`. */
export async function readTransaction<S extends StoreName[], T>(
  db: TrellisDb,
  stores: S,
  body: (tx: ReadTx<S>) => Promise<T>,
): Promise<T> {
  const tx = db.transaction(stores, 'readonly');
  try {
    const result = await body(tx);
    await tx.done;
    return result;
  } catch (error) {
    tx.done.catch(() => undefined); // see writeTransaction
    throw error;
  }
}
