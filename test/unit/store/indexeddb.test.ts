// What only the IndexedDB services promise: the schema, Blobs, one shared database, quota errors.

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  bytesToBase64,
  createEvent,
} from '../../../src/index.ts';
import { IndexedDbAppStore } from '../../../src/store/app-store.ts';
import { DB_VERSION } from '../../../src/store/database.ts';
import { withStorageErrors } from '../../../src/store/connection.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import {
  SCHEMA_V1,
  SCHEMA_V3,
  SCHEMA_V4,
  SCHEMA_V5,
  SCHEMA_V11,
  createDatabase,
  readSchema,
} from '../../support/schema-fixtures.ts';

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

/** Every record of the stores a session's turn summary lives in. */
async function sessionRecords(dbName: string) {
  const db = await openDB(dbName);
  const [sessions, events, checkpoints] = await Promise.all([
    db.getAll('sessions'),
    db.getAll('events'),
    db.getAll('checkpoints'),
  ]);
  db.close();
  return { sessions, events, checkpoints };
}

describe('IndexedDB storage', () => {
  it('upgrades a version 5 database: every session gets the turn summary appends would write', async () => {
    // A session with branches, written by today's service: what the upgrade must arrive at.
    const today = freshDbName();
    const { sessionService } = services(today);
    const session = await sessionService.createSession({
      appName: 'a',
      userId: 'u',
      state: { s: 1 },
    });
    const turnIds: string[] = [];
    const say = async (text: string) => {
      const invocationId = `turn-${turnIds.length}`;
      turnIds.push(invocationId);
      for (const [author, role] of [
        ['user', 'user'],
        ['agent', 'model'],
      ] as const) {
        await sessionService.appendEvent({
          session,
          event: createEvent({ invocationId, author, content: { role, parts: [{ text }] } }),
        });
      }
    };
    const key = { appName: 'a', userId: 'u', sessionId: session.id };
    for (const text of ['one', 'two', 'three']) await say(text);
    const marker = await sessionService.rewindSession({
      ...key,
      rewindBeforeInvocationId: 'turn-1',
    });
    await say('two again');
    await sessionService.rewindSession({ ...key, rewindBeforeInvocationId: marker.invocationId });
    await say('four');
    const expected = await sessionService.getSessionSummary(key);
    const written = await sessionRecords(today);
    await sessionService.close();

    // The same records as version 5 kept them: no tip, no turn bookkeeping.
    const dbName = freshDbName();
    const v5 = await createDatabase(dbName, 5, SCHEMA_V5);
    for (const { tip: _tip, ...record } of written.sessions) await v5.put('sessions', record);
    for (const record of written.events) await v5.put('events', record);
    for (const { tipBefore: _t, turn: _turn, marker: _m, ...record } of written.checkpoints)
      await v5.put('checkpoints', record);
    v5.close();

    const upgraded = services(dbName).sessionService;
    expect(await upgraded.getSessionSummary(key)).toEqual(expected);
    await upgraded.close();
    expect(await sessionRecords(dbName)).toEqual(written);
    expect(await readSchema(dbName)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
  });

  it('creates the current schema', async () => {
    const dbName = freshDbName();
    const { sessionService } = services(dbName);
    await sessionService.createSession({ appName: 'a', userId: 'u' });
    await sessionService.close();
    expect(await readSchema(dbName)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
  });

  it('upgrades a version 1 database and keeps its data', async () => {
    const dbName = freshDbName();
    const v1 = await createDatabase(dbName, 1, SCHEMA_V1);
    const event = {
      id: 'ev1',
      invocationId: 'e-1',
      author: 'user',
      timestamp: 5,
      actions: { stateDelta: { a: 1 }, artifactDelta: {} },
    };
    await v1.put('sessions', {
      appName: 'a',
      userId: 'u',
      id: 's',
      state: { a: 1 },
      artifacts: {},
      createTime: 1,
      lastUpdateTime: 5,
      eventCount: 1,
      lastInvocationId: 'e-1',
    });
    await v1.put('events', { appName: 'a', userId: 'u', sessionId: 's', seq: 0, event });
    v1.close();

    const { sessionService } = services(dbName);
    const session = await sessionService.getSession({ appName: 'a', userId: 'u', sessionId: 's' });
    expect(session).toMatchObject({ state: { a: 1 }, events: [event] });
    expect(await sessionService.listRuns({ appName: 'a', userId: 'u' })).toEqual([]);
    await sessionService.close();
    expect(await readSchema(dbName)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
  });

  it("upgrades a version 3 database: the app's records stay, and flows can be stored", async () => {
    const dbName = freshDbName();
    const v3 = await createDatabase(dbName, 3, SCHEMA_V3);
    const meta = {
      appName: 'trellis',
      userId: 'local',
      sessionId: 's',
      title: 'Kept',
      agentId: 'state-keeper',
      createdAt: 1,
    };
    await v3.put('sessionMeta', meta);
    await v3.put('settings', { name: 'settings', value: { autoResume: true } });
    v3.close();

    const store = new IndexedDbAppStore({ dbName });
    toClose.push(store);
    expect(await store.getSessionMeta('trellis', 'local', 's')).toEqual(meta);
    expect(await store.getSetting('settings')).toEqual({ autoResume: true });
    const flow = { name: 'f', nodes: [], edges: [] };
    await store.putFlow({ id: 'f1', flow, updatedAt: 2 });
    expect(await store.listFlows()).toEqual([{ id: 'f1', flow, updatedAt: 2 }]);
    await store.close();
    toClose.pop();
    expect(await readSchema(dbName)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
  });

  it('upgrades a version 4 database: flows and settings stay, providers and agents can be stored', async () => {
    const dbName = freshDbName();
    const v4 = await createDatabase(dbName, 4, SCHEMA_V4);
    const flow = { id: 'f1', flow: { name: 'f', nodes: [], edges: [] }, updatedAt: 2 };
    await v4.put('flows', flow);
    await v4.put('settings', { name: 'settings', value: { autoResume: true } });
    v4.close();

    const store = new IndexedDbAppStore({ dbName });
    toClose.push(store);
    expect(await store.listFlows()).toEqual([flow]);
    expect(await store.getSetting('settings')).toEqual({ autoResume: true });
    expect(await store.listProviders()).toEqual([]);
    const provider = {
      id: 'p1',
      kind: 'openai-compatible' as const,
      name: 'Ollama',
      baseUrl: 'http://localhost:11434/v1',
      defaultModel: 'qwen3:8b',
      updatedAt: 3,
    };
    await store.putProvider(provider);
    expect(await store.getProvider('p1')).toEqual(provider);
    const agent = {
      id: 'a1',
      name: 'helper',
      description: '',
      providerId: 'p1',
      model: '',
      instruction: 'Help.',
      tools: ['calculator'],
      subAgentIds: [],
      resumable: true,
      updatedAt: 4,
    };
    await store.putAgentSpecs([agent]);
    expect(await store.listAgentSpecs()).toEqual([agent]);
    await store.close();
    toClose.pop();
    expect(await readSchema(dbName)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
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
    const { createEvent } = await import('../../../src/index.ts');
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
