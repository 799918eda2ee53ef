// What only the IndexedDB services promise: the schema, Blobs, one shared database, quota errors.

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  bytesToBase64,
} from '../../src/index.ts';
import { DB_VERSION, withStorageErrors } from '../../src/store/database.ts';
import { freshDbName, rejectionOf } from '../support/helpers.ts';

const toClose: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((service) => service.close()));
});

function services(dbName: string) {
  const sessionService = new IndexedDbSessionService({ dbName });
  const artifactService = new IndexedDbArtifactService({ dbName });
  toClose.push(sessionService, artifactService);
  return { sessionService, artifactService };
}

/** The schema as version 1 shipped it. A later version adds a migration; it never edits this. */
const SCHEMA_V1 = {
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

describe('IndexedDB storage', () => {
  it('creates the version 1 schema', async () => {
    const dbName = freshDbName();
    const { sessionService } = services(dbName);
    await sessionService.createSession({ appName: 'a', userId: 'u' });
    await sessionService.close();
    const db = await openDB(dbName);
    const tx = db.transaction([...db.objectStoreNames], 'readonly');
    const schema = Object.fromEntries(
      [...db.objectStoreNames].map((name) => {
        const store = tx.objectStore(name);
        const indexes = Object.fromEntries(
          [...store.indexNames].map((index) => {
            const { keyPath, unique } = store.index(index);
            return [index, { keyPath, unique }];
          }),
        );
        return [name, { keyPath: store.keyPath, indexes }];
      }),
    );
    expect(db.version).toBe(DB_VERSION);
    expect(schema).toEqual(SCHEMA_V1);
    db.close();
  });

  it('stores artifact bytes as Blobs', async () => {
    const dbName = freshDbName();
    const { artifactService } = services(dbName);
    const data = bytesToBase64(new Uint8Array([104, 105]));
    await artifactService.saveArtifact({
      appName: 'a',
      userId: 'u',
      sessionId: 's',
      filename: 'hi.bin',
      artifact: { inlineData: { mimeType: 'application/x-hi', data } },
    });
    await artifactService.close();
    const db = await openDB(dbName);
    const [record] = await db.getAll('artifacts');
    expect(record.blob).toBeInstanceOf(Blob);
    expect(record.blob.type).toBe('application/x-hi');
    expect(await record.blob.text()).toBe('hi');
    db.close();
  });

  it('gives services with the same database name one shared connection', async () => {
    const dbName = freshDbName();
    const a = services(dbName);
    const b = services(dbName);
    const other = services(freshDbName());
    const db = await a.sessionService.openDatabase();
    expect(await a.artifactService.openDatabase()).toBe(db);
    expect(await b.sessionService.openDatabase()).toBe(db);
    expect(await other.sessionService.openDatabase()).not.toBe(db);
  });

  it('keeps the connection open until the last service using it is closed', async () => {
    const dbName = freshDbName();
    const { sessionService, artifactService } = services(dbName);
    await sessionService.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    await sessionService.close();
    expect(
      await artifactService.saveArtifact({
        appName: 'a',
        userId: 'u',
        sessionId: 's',
        filename: 'f',
        artifact: { text: 'x' },
      }),
    ).toBe(0);
    const closed = await rejectionOf(
      sessionService.getSession({ appName: 'a', userId: 'u', sessionId: 's' }),
    );
    expect(closed.message).toMatch(/closed/);
  });

  it('reads a session written by another service instance (another tab)', async () => {
    const dbName = freshDbName();
    const tabA = services(dbName).sessionService;
    const tabB = services(dbName).sessionService;
    const session = await tabA.createSession({ appName: 'a', userId: 'u' });
    expect(
      (await tabB.getSession({ appName: 'a', userId: 'u', sessionId: session.id }))!.events,
    ).toEqual([]);
    const { createEvent } = await import('../../src/index.ts');
    await tabA.appendEvent({
      session,
      event: createEvent({ invocationId: 'e-1', author: 'x', actions: { stateDelta: { n: 1 } } }),
    });
    const seen = await tabB.getSession({ appName: 'a', userId: 'u', sessionId: session.id });
    expect(seen!.events).toHaveLength(1);
    expect(seen!.state).toEqual({ n: 1 });
  });

  it('turns a full disk into a StorageFullError', async () => {
    const quota = new DOMException('Quota exceeded', 'QuotaExceededError');
    const error = await rejectionOf(withStorageErrors(() => Promise.reject(quota)));
    expect(error.name).toBe('StorageFullError');
    expect(error.message).toMatch(/storage .* is full/);
  });
});
