// Search across sessions in the app's runtime (Node over fake-indexeddb), wired as the worker
// wires it (runtime.ts: the search room hears what the runtime broadcasts): turns are found as
// they are stored, on every branch, rewound ones marked; renames, deletes, imports, state and
// files follow; a cleared or damaged index is built again; a second tab's index catches up;
// hostile queries and unknown sessions change nothing.

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { AppSearch } from '../../../workers/search/search.ts';
import type { SearchResults } from '../../../workers/protocol.ts';
import { runEvents } from '../../support/fixture-agent.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { DB_VERSION } from '../../../src/store/database.ts';
import {
  SCHEMA_V9,
  SCHEMA_V11,
  createDatabase,
  readSchema,
} from '../../support/schema-fixtures.ts';

/** A tab: its runtime, and the search room hearing its broadcasts. */
function tab(dbName = freshDbName()) {
  const search = AppSearch.on(dbName);
  const runtime = new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: (message) => search.notice(message),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  return { runtime, search, dbName };
}

async function say(runtime: AppRuntime, sessionId: string, text: string): Promise<string> {
  let invocationId = '';
  const { error } = await runEvents((onEvent) =>
    runtime.runs.send(sessionId, text, (event) => {
      invocationId ||= event.invocationId;
      onEvent(event);
    }),
  );
  expect(error).toBeUndefined();
  return invocationId;
}

/** What a search found, in short: session title → `kind:active?:marked words`. */
function found(results: SearchResults) {
  return results.sessions.map((session) => ({
    title: session.title,
    hits: session.hits.map((hit) => {
      const words = hit.marks.map(([from, to]) => hit.snippet.slice(from, to)).join(',');
      const active = hit.active === undefined ? '' : hit.active ? 'active:' : 'rewound:';
      return `${hit.kind}:${active}${words}`;
    }),
  }));
}

/** Removes every record of the search store, or puts damaged ones in their place. */
async function tamper(dbName: string, how: 'clear' | 'damage'): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const tx = db.transaction('searchIndex', 'readwrite');
  const store = tx.objectStore('searchIndex');
  if (how === 'clear') store.clear();
  else {
    const keys = await new Promise<IDBValidKey[]>((resolve) => {
      const request = store.getAllKeys();
      request.onsuccess = () => resolve(request.result);
    });
    for (const key of keys)
      store.put({ kind: 'snapshot', version: 1, revs: 'nope', index: '{"broken' }, key);
  }
  await new Promise((resolve) => (tx.oncomplete = resolve));
  db.close();
}

describe('search across sessions', () => {
  it('finds a turn as soon as it is stored, with its words marked in a snippet', async () => {
    const { runtime, search } = tab();
    const { id } = await runtime.createSession();
    const turn = await say(runtime, id, 'Our aardvark likes plums in the morning');
    const results = await search.search('aardvark plu');
    expect(results.words).toEqual(['aardvark', 'plu']);
    expect(results.sessions).toHaveLength(1);
    // The session took its title from the first message, so that is found too.
    expect(results.sessions[0]!.hits).toContainEqual(
      expect.objectContaining({ kind: 'message', invocationId: turn, active: true }),
    );
    expect(found(results)[0]!.hits).toContain('message:active:aardvark,plums');
    expect(await search.search('giraffe')).toEqual({ words: ['giraffe'], sessions: [] });
  });

  it('keeps a rewound turn findable, marked rewound, and active again after a switch back', async () => {
    const { runtime, search } = tab();
    const { id } = await runtime.createSession();
    await say(runtime, id, 'first question about teapots');
    const rewound = await say(runtime, id, 'the zeppelin word lives here');
    await runtime.rewinds.rewind(id, rewound);
    await say(runtime, id, 'a different question about kettles');
    const results = await search.search('zeppelin');
    expect(results.sessions[0]!.hits).toEqual([
      expect.objectContaining({ kind: 'message', invocationId: rewound, active: false }),
    ]);
    expect(found(await search.search('kettles'))[0]!.hits).toEqual(['message:active:kettles']);

    await runtime.rewinds.switchToBranch(id, rewound);
    expect((await search.search('zeppelin')).sessions[0]!.hits[0]!.active).toBe(true);
    expect((await search.search('kettles')).sessions[0]!.hits[0]!.active).toBe(false);
  });

  it('follows renames, state, deletes and imports', async () => {
    const { runtime, search } = tab();
    const { id } = await runtime.createSession();
    await say(runtime, id, 'something about walruses');
    await runtime.renameSession(id, 'Polar notes');
    expect(found(await search.search('polar'))).toEqual([
      { title: 'Polar notes', hits: ['title:Polar'] },
    ]);
    await runtime.stateEdits.editState(id, { favourite: 'turquoise' });
    expect(found(await search.search('turquoise'))[0]!.hits).toContain('state:turquoise');
    expect(found(await search.search('favourite'))[0]!.hits).toContain('state:favourite');

    const file = await runtime.exportSession(id);
    await runtime.deleteSession(id);
    expect((await search.search('walruses')).sessions).toEqual([]);
    const imported = await runtime.importSession(file.json);
    const results = await search.search('walruses');
    expect(results.sessions.map((session) => session.sessionId)).toEqual([imported.id]);
  });

  it('follows a backup restored, and a fork', async () => {
    const { runtime, search } = tab();
    const { id } = await runtime.createSession();
    const turn = await say(runtime, id, 'the capybara swims');
    const backup = await runtime.backups.backup();
    await runtime.deleteSession(id);
    expect((await search.search('capybara')).sessions).toEqual([]);
    await runtime.backups.restore(backup.json);
    expect((await search.search('capybara')).sessions).toHaveLength(1);

    const [restored] = (await search.search('capybara')).sessions;
    const fork = await runtime.rewinds.fork(restored!.sessionId, turn);
    const found = (await search.search('capybara')).sessions.map((session) => session.sessionId);
    expect(found.sort()).toEqual([restored!.sessionId, fork.id].sort());
  });

  it('finds files by name', async () => {
    const { runtime, search } = tab();
    const { id } = await runtime.createSession();
    const bytes = new TextEncoder().encode('hello');
    await runEvents((onEvent) =>
      runtime.runs.send(id, 'see the file', onEvent, [
        { name: 'quarterly-report.txt', mimeType: 'text/plain', bytes },
      ]),
    );
    expect(found(await search.search('quarterly'))[0]!.hits).toEqual(['artifact:quarterly']);
  });

  it('builds its index again when the store is cleared or damaged, and from a snapshot', async () => {
    const { runtime, search, dbName } = tab();
    const { id } = await runtime.createSession();
    await say(runtime, id, 'the okapi is shy');
    await search.search('okapi');
    await search.save();

    // A new tab loads the snapshot, and catches up with a turn stored since.
    const other = AppSearch.on(dbName);
    await say(runtime, id, 'the narwhal is not');
    await search.flush();
    expect((await other.search('narwhal')).sessions).toHaveLength(1);
    expect((await other.search('okapi')).sessions).toHaveLength(1);

    for (const how of ['clear', 'damage'] as const) {
      await tamper(dbName, how);
      const fresh = AppSearch.on(dbName);
      expect(found(await fresh.search('okapi'))[0]!.hits).toContain('message:active:okapi');
      expect((await fresh.search('narwhal')).sessions).toHaveLength(1);
    }
  });

  it('keeps two tabs true: what one stores, the other finds', async () => {
    const one = tab();
    const two = tab(one.dbName);
    const { id } = await one.runtime.createSession();
    await say(one.runtime, id, 'the platypus');
    expect((await two.search.search('platypus')).sessions).toHaveLength(1);
    await say(one.runtime, id, 'the wombat');
    await one.search.flush();
    expect((await two.search.search('wombat')).sessions).toHaveLength(1);
    await two.runtime.deleteSession(id);
    await two.search.flush();
    expect((await one.search.search('platypus')).sessions).toEqual([]);
  });

  it('refuses a bad query clearly, takes hostile text as words, and changes nothing', async () => {
    const { runtime, search } = tab();
    const { id } = await runtime.createSession();
    await say(runtime, id, 'constructor __proto__ <b>bold</b> a.*b');
    const before = await search.search('bold');
    for (const bad of [undefined, 42, { toString: () => 'bold' }, 'x'.repeat(201)])
      expect((await rejectionOf(search.search(bad))).name).toBe('InvalidRequestError');
    for (const limit of [0, -1, 1.5, 51, '3', NaN])
      expect((await rejectionOf(search.search('bold', limit))).name).toBe('InvalidRequestError');
    expect(await search.search('   ')).toEqual({ words: [], sessions: [] });
    for (const hostile of ['(', '.*', '[', '\\', '<script>', '"', '\u0000', '🙂'])
      expect((await search.search(hostile)).sessions).toEqual([]);
    // `_` is punctuation, as MiniSearch's tokenizer has it: `__proto__` is the word `proto`.
    expect(found(await search.search('__proto__'))[0]!.hits).toContain('message:active:proto');
    expect(found(await search.search('constructor'))[0]!.hits).toContain(
      'message:active:constructor',
    );
    expect(await search.search('bold')).toEqual(before);
  });

  it('passes over sessions it cannot find', async () => {
    const { search } = tab();
    search.notice({ type: 'session-changed', sessionId: 'no-such-session' });
    search.notice({ type: 'session-changed', sessionId: 'adk:server:app:remote' });
    await search.flush();
    expect(await search.search('anything')).toEqual({ words: ['anything'], sessions: [] });
  });
});

describe('the search store (schema 10)', () => {
  it('upgrades a version 9 database: its sessions are found, read into the index on first search', async () => {
    // A session written by the version before search: made here, then the store taken away.
    const { runtime, dbName } = tab();
    const { id } = await runtime.createSession();
    await say(runtime, id, 'written before search existed: the quokka');
    const v9 = await createDatabase(`${dbName}-v9`, 9, SCHEMA_V9);
    for (const store of Object.keys(SCHEMA_V9)) {
      const db = await openDB(dbName);
      const records = await db.getAll(store);
      db.close();
      for (const record of records) await v9.put(store, record);
    }
    v9.close();

    const upgraded = tab(`${dbName}-v9`);
    expect(found(await upgraded.search.search('quokka'))[0]!.hits).toContain(
      'message:active:quokka',
    );
    expect(await readSchema(`${dbName}-v9`)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
  });
});
