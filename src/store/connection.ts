// The connection to the one IndexedDB database: services given the same database name share it,
// so that a write spanning sessions and artifacts (a rewind) can commit in a single transaction.

import { openDB } from 'idb';
import { StorageError, StorageFullError } from '../core/errors.ts';
import { DB_VERSION, type TrellisDb, type TrellisSchema } from './database.ts';
import { migrate } from './migrations.ts';

/** DO NOT CHANGE: a different name would open an empty database and lose every user's data. */
export const DEFAULT_DB_NAME = 'trellis';

export interface IndexedDbServiceOptions {
  /** The database; services given the same name share it (default `'trellis'`). */
  dbName?: string;
}

/**
 * A counted reference to the shared connection of one database name. The connection opens on
 * first use and closes when the last reference is released. When another tab needs a newer schema
 * (`blocking`), it is closed at once and reopened on next use, so that tab is never stuck.
 */
export class DatabaseRef {
  private released = false;

  private constructor(private readonly shared: SharedConnection) {}

  static acquire(name: string = DEFAULT_DB_NAME): DatabaseRef {
    let shared = connections.get(name);
    if (!shared) {
      shared = { name, refs: 0 };
      connections.set(name, shared);
    }
    shared.refs++;
    return new DatabaseRef(shared);
  }

  get name(): string {
    return this.shared.name;
  }

  open(): Promise<TrellisDb> {
    if (this.released) return Promise.reject(new Error(`Database ${this.name} was closed`));
    const shared = this.shared;
    shared.db ??= openDB<TrellisSchema>(shared.name, DB_VERSION, {
      upgrade: (db, oldVersion, _newVersion, tx) => migrate(db, oldVersion, tx),
      blocking: () => drop(shared),
      terminated: () => drop(shared),
    }).catch((error: unknown) => {
      shared.db = undefined;
      throw error;
    });
    return shared.db;
  }

  /** Releases this reference; the connection closes with the last one. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const shared = this.shared;
    if (--shared.refs > 0) return;
    connections.delete(shared.name);
    await drop(shared);
  }
}

interface SharedConnection {
  name: string;
  refs: number;
  db?: Promise<TrellisDb>;
}

const connections = new Map<string, SharedConnection>();

async function drop(shared: SharedConnection): Promise<void> {
  const pending = shared.db;
  shared.db = undefined;
  // A connection that failed to open has nothing to close; its error went to whoever awaited it.
  const db = await pending?.catch(() => undefined);
  db?.close();
}

/**
 * Runs an IndexedDB write (or read) and gives its failures their Trellis names: a full disk is a
 * StorageFullError, and a transaction the browser aborted on its own is a StorageError. The
 * transaction has aborted by then, so nothing was written.
 */
export async function withStorageErrors<T>(
  work: () => Promise<T>,
  kind: 'write' | 'read' = 'write',
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isQuotaError(error)) throw new StorageFullError({ cause: error });
    // IndexedDB reports a transaction it rolled back, and each request of it, as an AbortError:
    // passed on as it is, a run would take it for a cancellation and end without a word (the
    // page shows no AbortError). Nothing here aborts a transaction and rejects with that error.
    if ((error as Error | null)?.name === 'AbortError') {
      const message =
        kind === 'write'
          ? "The browser's storage did not save this change (it aborted the write), so nothing of it was saved. Try again; if it keeps failing, reload the page."
          : "The browser's storage could not be read (it aborted the read). Try again; if it keeps failing, reload the page.";
      throw new StorageError(message, { cause: error });
    }
    throw error;
  }
}

function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}
