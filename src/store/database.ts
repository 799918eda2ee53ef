// The schema of the one IndexedDB database behind every IndexedDB service: its stores, their
// records and keys. This module and its siblings in src/store are the only code that touches
// IndexedDB; the connection is connection.ts, the upgrade steps migrations.ts.

import { type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { AgentSpec } from '../agents/agent-spec.ts';
import type { Flow } from '../flows/flow.ts';
import type { ProviderSpec } from '../models/provider-spec.ts';
import type { SessionRecord, TurnRecord } from './session-log.ts';
import type { RunRecord } from './session-service.ts';
import type { SpanRecord } from '../tracing/span.ts';
import type { KnowledgeBaseInfo, KnowledgeDocument, PageSpan } from '../knowledge/types.ts';

/**
 * The schema version. Bump it and add a step to `migrate` (migrations.ts); never edit a step once
 * shipped.
 */
export const DB_VERSION = 11;

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
  memories: 'memories',
  memoryRevisions: 'memoryRevisions',
  searchIndex: 'searchIndex',
  knowledgeBases: 'knowledgeBases',
  knowledgeDocuments: 'knowledgeDocuments',
  knowledgeTexts: 'knowledgeTexts',
  knowledgeFiles: 'knowledgeFiles',
  knowledgeChunks: 'knowledgeChunks',
  knowledgeVectors: 'knowledgeVectors',
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

/** State key → id of its value in the `longValues` store. */
export type LongIds = Record<string, string>;

export interface LongValueRecord {
  appName: string;
  userId: string;
  sessionId: string;
  id: string;
  value: unknown;
}

/** What a session added to its user's memory: one event's text (indexeddb-memory-service.ts). */
export interface MemoryRecord {
  appName: string;
  userId: string;
  sessionId: string;
  eventId: string;
  invocationId: string;
  author: string;
  /** The event's time, in milliseconds. */
  timestamp: number;
  /** The event's content, its text parts only (what search and the memory tools read). */
  content: Content;
}

/**
 * A user's memory changes under a new revision (a random id) with every write, so a search can
 * tell whether the index it holds is still the stored memory, whichever tab changed it.
 */
export interface MemoryRevisionRecord {
  appName: string;
  userId: string;
  revision: string;
}

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
  memories: {
    key: [...SessionKeyTuple, eventId: string];
    value: MemoryRecord;
  };
  memoryRevisions: { key: [appName: string, userId: string]; value: MemoryRevisionRecord };
  /** Search across sessions (search-store.ts): out-of-line keys `[kind, app, user, …]`. */
  searchIndex: { key: SearchIndexKey; value: SearchIndexRecord };
  /** Knowledge bases (knowledge-store.ts); every other knowledge store is keyed by base first. */
  knowledgeBases: { key: string; value: KnowledgeBaseRecord };
  knowledgeDocuments: {
    key: [baseId: string, documentId: string];
    value: KnowledgeDocument;
    indexes: { byId: string };
  };
  knowledgeTexts: { key: [baseId: string, documentId: string]; value: KnowledgeTextRecord };
  knowledgeFiles: { key: [baseId: string, documentId: string]; value: KnowledgeFileRecord };
  knowledgeChunks: { key: [baseId: string, documentId: string]; value: KnowledgeChunksRecord };
  knowledgeVectors: {
    key: KnowledgeVectorKey;
    value: KnowledgeVectorsRecord;
    indexes: { byDocument: [baseId: string, documentId: string] };
  };
}

/** A base, and its revision: renewed by every write of its content (an index knows it is stale). */
export interface KnowledgeBaseRecord extends KnowledgeBaseInfo {
  revision: string;
}

/** A document's extracted text (what chunks' offsets point into). */
export interface KnowledgeTextRecord {
  baseId: string;
  documentId: string;
  text: string;
  pages?: PageSpan[];
}

/** A document's original file, when kept. */
export interface KnowledgeFileRecord {
  baseId: string;
  documentId: string;
  name: string;
  type: string;
  bytes: ArrayBuffer;
}

/** A document's chunks in one record, in columns of TextChunk's fields: chunk n is entry n. */
export interface KnowledgeChunksRecord {
  baseId: string;
  documentId: string;
  texts: string[];
  starts: Float64Array;
  ends: Float64Array;
  /** Only when some chunk has one (`undefined` for one that has none); so `pages`. */
  headings?: (string | undefined)[];
  pages?: (number | undefined)[];
}

/**
 * A document's vectors by one embedder (`key`: two models' never mix) in one record, `dimension`
 * numbers each, in the order of `seqs`: the chunks' seqs as runs ("0-99,120"), in the key so
 * that which chunks have vectors is read from the keys alone.
 */
export type KnowledgeVectorKey = [baseId: string, key: string, documentId: string, seqs: string];
export interface KnowledgeVectorsRecord {
  baseId: string;
  key: string;
  documentId: string;
  seqs: string;
  dimension: number;
  vectors: Float32Array;
}

/**
 * Its key: `['doc', app, user, session]`, `['turn', app, user, session, invocation]`,
 * `['manifest', app, user]`, `['snapshot', app, user, part]` (the part's number, as text).
 */
export type SearchIndexKey = string[];
export type SearchIndexRecord =
  SearchDocRecord | SearchTurnRecord | SearchManifestRecord | SearchSnapshotRecord;

/** A turn of a session's doc, stored apart: an append writes its own turn only. */
export interface SearchTurnRecord {
  kind: 'turn';
  version: number;
  sessionId: string;
  turn: SearchTurn;
}

/** One turn's text, as search finds it (its invocation, on the active branch or rewound). */
export interface SearchTurn {
  invocationId: string;
  active: boolean;
  /** Its first event's time, in milliseconds. */
  time: number;
  text: string;
}

/** A session as search sees it: what it finds, read from the session as it is stored. */
export interface SearchDocRecord {
  kind: 'doc';
  version: number;
  sessionId: string;
  title: string;
  /** Entries of the raw log read into it: the next update reads on from there. */
  seq: number;
  lastUpdateTime: number;
  /** Its turns, in time order (stored as records of their own: `[]` in the stored doc). */
  turns: SearchTurn[];
  /** Session state keys and their values as text, clipped. */
  state: [key: string, value: string][];
  artifacts: string[];
  /** Invocations that answered a turn's calls (no turns), and the turn their events go on. */
  answers?: [answerId: string, turnId: string][];
  /** Names the state of the session it was read from (its last update, log length and title). */
  rev: string;
}

/**
 * Renewed by every write of the docs (a random token): a room that finds the one it wrote last
 * knows that no other tab wrote since. Missing or unreadable: the docs are read again.
 */
export interface SearchManifestRecord {
  kind: 'manifest';
  version: number;
  token: string;
}

/** A part of the search index as last saved, and the doc revisions it holds. */
export interface SearchSnapshotRecord {
  kind: 'snapshot';
  version: number;
  /** Which part (workers/search/search-index.ts bucketOf), of how many. */
  bucket: number;
  buckets: number;
  revs: [sessionId: string, rev: string][];
  /** MiniSearch's JSON. */
  index: string;
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
  /**
   * How the user organised it (workers/sessions/organise.ts). Optional, read as absent when
   * missing: no index reads them, so no schema step was needed.
   */
  pinned?: boolean;
  archived?: boolean;
  /** Its one folder (a name: a folder is the sessions that carry it). */
  folder?: string;
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

/** Key range of every record of one session in a store keyed `[app, user, session, …]`. */
export function sessionRange(appName: string, userId: string, sessionId: string): IDBKeyRange {
  // An array key sorts after every number and string, so `[…, []]` bounds any suffix.
  return IDBKeyRange.bound([appName, userId, sessionId], [appName, userId, sessionId, []]);
}
