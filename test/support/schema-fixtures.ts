// The IndexedDB schema as each version of Trellis shipped it: frozen fixtures the migration tests
// start from (an older database is made with exactly one of them) and arrive at (readSchema).

import { openDB } from 'idb';

/** The schema as version 1 shipped it: frozen, as the fixture the migration tests start from. */
export const SCHEMA_V1 = {
  appStates: { keyPath: 'appName', indexes: {} },
  artifacts: { keyPath: ['appName', 'userId', 'sessionId', 'filename', 'version'], indexes: {} },
  checkpoints: { keyPath: ['appName', 'userId', 'sessionId', 'invocationId'], indexes: {} },
  events: {
    keyPath: ['appName', 'userId', 'sessionId', 'seq'],
    indexes: {
      byEventId: { keyPath: ['appName', 'userId', 'sessionId', 'event.id'], unique: true },
    },
  },
  sessions: {
    keyPath: ['appName', 'userId', 'id'],
    indexes: { byUser: { keyPath: ['appName', 'userId'], unique: false } },
  },
  userStates: { keyPath: ['appName', 'userId'], indexes: {} },
};

/** Version 2 adds the runs in flight. */
export const SCHEMA_V2 = {
  ...SCHEMA_V1,
  runs: {
    keyPath: ['appName', 'userId', 'sessionId', 'invocationId'],
    indexes: { byUser: { keyPath: ['appName', 'userId'], unique: false } },
  },
};

/** Version 3 adds what the app keeps: session titles and agents, and settings. */
export const SCHEMA_V3 = {
  ...SCHEMA_V2,
  sessionMeta: {
    keyPath: ['appName', 'userId', 'sessionId'],
    indexes: { byUser: { keyPath: ['appName', 'userId'], unique: false } },
  },
  settings: { keyPath: 'name', indexes: {} },
};

/** Version 4 adds the user's flows. */
export const SCHEMA_V4 = {
  ...SCHEMA_V3,
  flows: { keyPath: 'id', indexes: {} },
};

/** Version 5 adds model providers (with their keys) and the agents of the agent builder. */
export const SCHEMA_V5 = {
  ...SCHEMA_V4,
  providers: { keyPath: 'id', indexes: {} },
  agents: { keyPath: 'id', indexes: {} },
};

/** Version 6 adds the turn summary's indexes: turns by parent, markers that moved the tip. */
export const SCHEMA_V6 = {
  ...SCHEMA_V5,
  checkpoints: {
    ...SCHEMA_V5.checkpoints,
    indexes: {
      byParentTurn: {
        keyPath: ['appName', 'userId', 'sessionId', 'turn.parentId'],
        unique: false,
      },
      byMarker: {
        keyPath: ['appName', 'userId', 'sessionId', 'marker.abandonedTip'],
        unique: false,
      },
    },
  },
};

/** Version 7 adds the traces: each invocation's spans, beside their session. */
export const SCHEMA_V7 = {
  ...SCHEMA_V6,
  spans: {
    keyPath: ['appName', 'userId', 'sessionId', 'invocationId', 'spanId'],
    indexes: {},
  },
};

/** Version 8 adds long state values, kept out of line (src/store/long-values.ts). */
export const SCHEMA_V8 = {
  ...SCHEMA_V7,
  longValues: { keyPath: ['appName', 'userId', 'sessionId', 'id'], indexes: {} },
};

export type Schema = Record<
  string,
  {
    keyPath: string | string[] | null;
    indexes: Record<string, { keyPath: string | string[]; unique: boolean }>;
  }
>;

/** Creates a database with exactly `schema`, as an older version of Trellis left it. */
export async function createDatabase(name: string, version: number, schema: Schema) {
  return openDB(name, version, {
    upgrade(db) {
      for (const [store, { keyPath, indexes }] of Object.entries(schema)) {
        const created = db.createObjectStore(store, { keyPath });
        for (const [index, { keyPath: indexPath, unique }] of Object.entries(indexes)) {
          created.createIndex(index, indexPath, { unique });
        }
      }
    },
  });
}

export async function readSchema(name: string) {
  const db = await openDB(name);
  const tx = db.transaction([...db.objectStoreNames], 'readonly');
  const schema = Object.fromEntries(
    [...db.objectStoreNames].map((store) => {
      const objectStore = tx.objectStore(store);
      const indexes = Object.fromEntries(
        [...objectStore.indexNames].map((index) => {
          const { keyPath, unique } = objectStore.index(index);
          return [index, { keyPath, unique }];
        }),
      );
      return [store, { keyPath: objectStore.keyPath, indexes }];
    }),
  );
  const version = db.version;
  db.close();
  return { version, schema };
}

/** Version 9 adds memory: what sessions added to their user's memory, and each user's revision. */
export const SCHEMA_V9 = {
  ...SCHEMA_V8,
  memories: { keyPath: ['appName', 'userId', 'sessionId', 'eventId'], indexes: {} },
  memoryRevisions: { keyPath: ['appName', 'userId'], indexes: {} },
};

/** Version 10 adds search across sessions: one store of out-of-line keyed records. */
export const SCHEMA_V10 = {
  ...SCHEMA_V9,
  searchIndex: { keyPath: null, indexes: {} },
};

/** Version 11 adds knowledge bases: bases, documents, texts, files, chunks, vectors. */
export const SCHEMA_V11 = {
  ...SCHEMA_V10,
  knowledgeBases: { keyPath: 'id', indexes: {} },
  knowledgeDocuments: {
    keyPath: ['baseId', 'id'],
    indexes: { byId: { keyPath: 'id', unique: true } },
  },
  knowledgeTexts: { keyPath: ['baseId', 'documentId'], indexes: {} },
  knowledgeFiles: { keyPath: ['baseId', 'documentId'], indexes: {} },
  knowledgeChunks: { keyPath: ['baseId', 'documentId'], indexes: {} },
  knowledgeVectors: {
    keyPath: ['baseId', 'key', 'documentId', 'seqs'],
    indexes: { byDocument: { keyPath: ['baseId', 'documentId'], unique: false } },
  },
};
