// The database's upgrade steps, one per schema version (database.ts's DB_VERSION), run by
// connection.ts when a browser holds an older version.

import { Stores, type TrellisDb, type UpgradeTx } from './database.ts';
import { summarizeExistingSessions } from './turn-migration.ts';

/** Ordered, cumulative schema steps. */
export function migrate(db: TrellisDb, oldVersion: number, tx: UpgradeTx): void {
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
  if (oldVersion < 9) {
    // Memory (src/store/indexeddb-memory-service.ts): what sessions added to their user's
    // memory, one record per event, and each user's memory revision, which tells a search
    // whether the index it holds is still what is stored.
    db.createObjectStore(Stores.memories, {
      keyPath: ['appName', 'userId', 'sessionId', 'eventId'],
    });
    db.createObjectStore(Stores.memoryRevisions, { keyPath: ['appName', 'userId'] });
  }
  if (oldVersion < 10) {
    // Search across sessions (src/store/search-store.ts): each session's searchable text, a
    // manifest of their revisions and the search index's snapshot. Nothing to convert: a missing
    // index is built from the sessions when first searched.
    db.createObjectStore(Stores.searchIndex);
  }
  if (oldVersion < 11) {
    // Knowledge bases (src/store/knowledge-store.ts): bases, their documents, each document's
    // text, original file, chunks (one record) and vectors (one record per embedder). Keys start
    // with the base (then the document), so a base's or a document's records are one key range;
    // `byId` finds a document by its id alone. New stores, nothing to convert.
    db.createObjectStore(Stores.knowledgeBases, { keyPath: 'id' });
    const documents = db.createObjectStore(Stores.knowledgeDocuments, {
      keyPath: ['baseId', 'id'],
    });
    documents.createIndex('byId', 'id', { unique: true });
    db.createObjectStore(Stores.knowledgeTexts, { keyPath: ['baseId', 'documentId'] });
    db.createObjectStore(Stores.knowledgeFiles, { keyPath: ['baseId', 'documentId'] });
    db.createObjectStore(Stores.knowledgeChunks, { keyPath: ['baseId', 'documentId'] });
    const vectors = db.createObjectStore(Stores.knowledgeVectors, {
      keyPath: ['baseId', 'key', 'documentId', 'seqs'],
    });
    vectors.createIndex('byDocument', ['baseId', 'documentId']);
  }
}
