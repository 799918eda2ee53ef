// The one IndexedDB database behind every IndexedDB service. This module and its siblings in
// src/store are the only code that touches IndexedDB.
//
// Services given the same database name share one connection, so that a write spanning sessions
// and artifacts (a rewind) can commit in a single transaction.

import {
  openDB,
  type DBSchema,
  type IDBPDatabase,
  type IDBPTransaction,
  type StoreNames,
} from 'idb';
import { StorageError, StorageFullError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import type { AgentSpec } from '../agents/agent-spec.ts';
import type { Flow } from '../flows/flow.ts';
import type { ProviderSpec } from '../models/provider-spec.ts';
import type { LongIds, LongValueRecord } from './long-values.ts';
import type { SessionRecord, TurnRecord } from './session-log.ts';
import { summarizeExistingSessions } from './turn-migration.ts';
import type { RunRecord } from './session-service.ts';
import type { SpanRecord } from '../tracing/span.ts';

/** DO NOT CHANGE: a different name would open an empty database and lose every user's data. */
export const DEFAULT_DB_NAME = 'trellis';

/** The schema version. Bump it and add a step to `migrate`; never edit a step once shipped. */
export const DB_VERSION = 8;

export interface IndexedDbServiceOptions {
  /** The database; services given the same name share it (default `'trellis'`). */
  dbName?: string;
}

export const Stores = {
  sessions: 'sessions',
  events: 'events',
  appStates: 'appStates',
  userStates: 'userStates',
  checkpoints: 'checkpoints',
  artifacts: 'artifacts',
  runs: 'runs',
  sessionMeta: 'sessionMeta',
  settings: 'settings',
  flows: 'flows',
  providers: 'providers',
  agents: 'agents',
  spans: 'spans',
  longValues: 'longValues',
} as const;

export interface EventRecord {
  appName: string;
  userId: string;
  sessionId: string;
  seq: number;
  event: Event;
}

export interface ScopeStateRecord {
  appName: string;
  userId?: string;
  state: Record<string, unknown>;
}

export interface CheckpointRecord {
  appName: string;
  userId: string;
  sessionId: string;
  invocationId: string;
  firstSeq: number;
  state: Record<string, unknown>;
  artifacts: Record<string, number>;
  /** The ids of its long state values, which `state` lacks (src/store/long-values.ts). */
  long?: LongIds;
  /** The turn bookkeeping (schema 6 on; migrated sessions get it too). */
  tipBefore?: string;
  turn?: TurnRecord;
  marker?: { abandonedTip: string; restoredTip: string };
}

export const ArtifactKind = { inline: 'inline', text: 'text', tombstone: 'tombstone' } as const;
export type ArtifactKind = (typeof ArtifactKind)[keyof typeof ArtifactKind];

export interface ArtifactRecord {
  appName: string;
  userId: string;
  /** `''` for a user-scoped artifact (`user:` file name). */
  sessionId: string;
  filename: string;
  version: number;
  kind: ArtifactKind;
  mimeType: string;
  displayName?: string;
  /** The bytes (absent for a tombstone). */
  blob?: Blob;
  savedAt: number;
  /** Who saved it, when the save said so (SaveArtifactRequest.savedBy); never copied. */
  savedBy?: string;
}

type SessionKeyTuple = [appName: string, userId: string, sessionId: string];
export type ArtifactRecordKey = [...SessionKeyTuple, filename: string, version: number];

export interface TrellisSchema extends DBSchema {
  sessions: {
    key: SessionKeyTuple;
    value: SessionRecord;
    indexes: { byUser: [string, string] };
  };
  events: {
    key: [...SessionKeyTuple, seq: number];
    value: EventRecord;
    indexes: { byEventId: [...SessionKeyTuple, eventId: string] };
  };
  appStates: { key: string; value: ScopeStateRecord };
  userStates: { key: [string, string]; value: ScopeStateRecord };
  checkpoints: {
    key: [...SessionKeyTuple, invocationId: string];
    value: CheckpointRecord;
    indexes: {
      byParentTurn: [...SessionKeyTuple, parentId: string];
      byMarker: [...SessionKeyTuple, abandonedTip: string];
    };
  };
  artifacts: {
    key: ArtifactRecordKey;
    value: ArtifactRecord;
  };
  runs: {
    key: [...SessionKeyTuple, invocationId: string];
    value: RunRecord;
    indexes: { byUser: [string, string] };
  };
  sessionMeta: {
    key: SessionKeyTuple;
    value: SessionMetaRecord;
    indexes: { byUser: [string, string] };
  };
  settings: { key: string; value: { name: string; value: unknown } };
  flows: { key: string; value: FlowRecord };
  providers: { key: string; value: ProviderRecord };
  agents: { key: string; value: AgentSpecRecord };
  spans: {
    key: [...SessionKeyTuple, invocationId: string, spanId: string];
    value: SpanRecord;
  };
  longValues: {
    key: [...SessionKeyTuple, id: string];
    value: LongValueRecord;
  };
}

export type TrellisDb = IDBPDatabase<TrellisSchema>;
export type UpgradeTx = IDBPTransaction<
  TrellisSchema,
  StoreNames<TrellisSchema>[],
  'versionchange'
>;

/** The app's own record of a session: what the library's Session does not say. */
export interface SessionMetaRecord {
  appName: string;
  userId: string;
  sessionId: string;
  title: string;
  /** The agent the session talks to. */
  agentId: string;
  createdAt: number;
}

/** A flow the user saved (the app's Flows view). */
export interface FlowRecord {
  id: string;
  /** The flow file as the user wrote it, parsed (it was valid when saved). */
  flow: Flow;
  updatedAt: number;
}

/**
 * A secret sealed with the user's passphrase (workers/keys/key-vault.ts): AES-GCM, base64 fields.
 */
export interface SealedSecret {
  sealed: 'AES-GCM';
  iv: string;
  data: string;
}

/**
 * A model provider of Settings → Providers. Its `apiKey` is the one place a key is stored: only
 * the worker reads it, and the page sees it masked. It is plain text, or sealed when a
 * passphrase protects the keys (then `keyHint` keeps what the page is shown of it).
 */
export interface ProviderRecord extends Omit<ProviderSpec, 'apiKey'> {
  apiKey?: string | SealedSecret;
  /** The masked key (`••••1234`), kept beside a sealed one. */
  keyHint?: string;
  updatedAt: number;
}

/** An agent made in the app's agent builder. */
export interface AgentSpecRecord extends AgentSpec {
  updatedAt: number;
}

/** Ordered, cumulative schema steps. */
function migrate(db: TrellisDb, oldVersion: number, tx: UpgradeTx): void {
  if (oldVersion < 1) {
    const sessions = db.createObjectStore(Stores.sessions, {
      keyPath: ['appName', 'userId', 'id'],
    });
    sessions.createIndex('byUser', ['appName', 'userId']);
    const events = db.createObjectStore(Stores.events, {
      keyPath: ['appName', 'userId', 'sessionId', 'seq'],
    });
    events.createIndex('byEventId', ['appName', 'userId', 'sessionId', 'event.id'], {
      unique: true,
    });
    db.createObjectStore(Stores.appStates, { keyPath: 'appName' });
    db.createObjectStore(Stores.userStates, { keyPath: ['appName', 'userId'] });
    db.createObjectStore(Stores.checkpoints, {
      keyPath: ['appName', 'userId', 'sessionId', 'invocationId'],
    });
    db.createObjectStore(Stores.artifacts, {
      keyPath: ['appName', 'userId', 'sessionId', 'filename', 'version'],
    });
  }
  if (oldVersion < 2) {
    // Runs in flight, so that an app reloaded after a crash finds what to resume.
    const runs = db.createObjectStore(Stores.runs, {
      keyPath: ['appName', 'userId', 'sessionId', 'invocationId'],
    });
    runs.createIndex('byUser', ['appName', 'userId']);
  }
  if (oldVersion < 3) {
    // What the app keeps beside the library's data: session titles and agents, and settings.
    const meta = db.createObjectStore(Stores.sessionMeta, {
      keyPath: ['appName', 'userId', 'sessionId'],
    });
    meta.createIndex('byUser', ['appName', 'userId']);
    db.createObjectStore(Stores.settings, { keyPath: 'name' });
  }
  if (oldVersion < 4) {
    // The user's flows (graph workflows), edited in the app's Flows view.
    db.createObjectStore(Stores.flows, { keyPath: 'id' });
  }
  if (oldVersion < 5) {
    // Real models: the providers (with their keys, kept here only) and the agents built on them.
    db.createObjectStore(Stores.providers, { keyPath: 'id' });
    db.createObjectStore(Stores.agents, { keyPath: 'id' });
  }
  if (oldVersion < 6) {
    // The turn summary: each turn's parent and title, and the markers that moved the tip, so
    // that opening a session reads the end of its branch tree instead of its whole log. Both
    // indexes are sparse: only turns have `turn`, only markers that moved the tip `marker`.
    const checkpoints = tx.objectStore(Stores.checkpoints);
    checkpoints.createIndex('byParentTurn', ['appName', 'userId', 'sessionId', 'turn.parentId']);
    checkpoints.createIndex('byMarker', ['appName', 'userId', 'sessionId', 'marker.abandonedTip']);
    if (oldVersion >= 1) {
      summarizeExistingSessions(tx).catch((error: unknown) => {
        // Left half done, the summary would disagree with the log: fail the upgrade instead,
        // so that the old database stays as it was and the next open tries again.
        console.error('Trellis: the upgrade to schema 6 failed', error);
        tx.abort();
      });
    }
  }
  if (oldVersion < 7) {
    // The traces: spans of each invocation, beside their session (src/tracing).
    db.createObjectStore(Stores.spans, {
      keyPath: ['appName', 'userId', 'sessionId', 'invocationId', 'spanId'],
    });
  }
  if (oldVersion < 8) {
    // Long state values, out of line (src/store/long-values.ts): records and checkpoints name
    // them by id. Older records hold every value inline, which reads as before.
    db.createObjectStore(Stores.longValues, {
      keyPath: ['appName', 'userId', 'sessionId', 'id'],
    });
  }
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

/** Key range of every record of one session in a store keyed `[app, user, session, …]`. */
export function sessionRange(appName: string, userId: string, sessionId: string): IDBKeyRange {
  // An array key sorts after every number and string, so `[…, []]` bounds any suffix.
  return IDBKeyRange.bound([appName, userId, sessionId], [appName, userId, sessionId, []]);
}
