// Hostile backups (issue 28): a backup's settings go through the same schemas as the app's own
// writes. A setting that does not fit refuses the file whole (nothing changes, the app works on);
// a name a backup does not restore (another setting, `__proto__`, a session's usage counts) is
// left out and said; no secret comes in by any path (a tool server's header values, in its section
// or planted as a setting); and a file cannot grant Always allow.

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

function open(dbName = freshDbName()) {
  return {
    dbName,
    runtime: new AppRuntime({
      dbName,
      locks: inProcessLocks(),
      broadcast: () => undefined,
      timing: { thinkMs: 0, chunkDelayMs: 0 },
    }),
  };
}

const TOKEN = 'Bearer planted-token-123';

/** A backup with nothing in it but what is given. */
function backup(parts: Record<string, unknown>): string {
  return JSON.stringify({
    format: 'trellis-backup',
    version: 1,
    createdAt: 1,
    sessions: [],
    flows: [],
    agents: [],
    providers: [],
    toolServers: [],
    settings: {},
    ...parts,
  });
}

/** Every setting stored, by name: what the database holds. */
async function storedSettings(dbName: string): Promise<Record<string, unknown>> {
  const db = await openDB(dbName);
  const rows = (await db.getAll('settings')) as { name: string; value: unknown }[];
  db.close();
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

const server = (headers: unknown) => ({
  id: 'srv1',
  name: 'Planted',
  url: 'http://127.0.0.1:9/mcp',
  headers,
  disabledTools: [],
  updatedAt: 1,
});

describe('hostile backups', () => {
  const refused: { name: string; settings: Record<string, unknown>; says: RegExp }[] = [
    // The file of the issue: the app was unusable for good after it.
    {
      name: 'ADK servers that are not a list',
      settings: { adkServers: 'not-a-list' },
      says: /ADK servers/,
    },
    {
      name: 'preferences of the wrong types',
      settings: { settings: { autoResume: 'yes', theme: 7 } },
      says: /preferences.*autoResume/,
    },
    {
      name: 'a policy that is not one',
      settings: { toolPolicies: { 'Local MCP/search': 'sometimes' } },
      says: /tool approval policies/,
    },
    {
      name: 'a remote session without its server',
      settings: { adkRemoteSessions: [{ id: 'adk:x' }] },
      says: /sessions opened on ADK servers/,
    },
  ];
  it.each(refused)('refuses $name whole, and the app works on', async ({ settings, says }) => {
    const { dbName, runtime } = open();
    await runtime.updateSettings({ theme: 'dark' });
    const before = await storedSettings(dbName);
    const error = await rejectionOf(runtime.backups.restore(backup({ settings })));
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toMatch(/^Not restored: /);
    expect(error.message).toMatch(says);
    expect(error.message).toMatch(/Nothing was changed/);
    expect(await storedSettings(dbName)).toEqual(before);
    // …and a reload opens as before.
    const again = open(dbName).runtime;
    expect(await again.remote.servers()).toEqual([]);
    expect((await again.settings()).theme).toBe('dark');
    expect(await again.settingProblems()).toEqual([]);
  });

  it('refuses tool servers that are not valid, whole', async () => {
    const { dbName, runtime } = open();
    await runtime.listSessions(); // the database exists
    const error = await rejectionOf(
      runtime.backups.restore(backup({ toolServers: [{ ...server([]), disabledTools: 'all' }] })),
    );
    expect(error.message).toMatch(/tool servers are not valid.*disabledTools/);
    expect(await storedSettings(dbName)).toEqual({});
  });

  it('takes no secret: a tool server planted as a setting is left out, header values are dropped', async () => {
    const { dbName, runtime } = open();
    const report = await runtime.backups.restore(
      backup({
        toolServers: [server([{ name: 'Authorization', value: TOKEN }])],
        settings: {
          toolServers: [{ ...server([{ name: 'Authorization', value: TOKEN }]), id: 'srv2' }],
          keyProtection: { version: 1 },
        },
      }),
    );
    const stored = await storedSettings(dbName);
    expect(JSON.stringify(stored)).not.toContain('planted-token');
    expect(stored.toolServers).toEqual([server([{ name: 'Authorization', value: '' }])]);
    expect(stored.keyProtection).toBeUndefined();
    expect(report.ignored).toEqual([
      'the setting “toolServers”: not something a backup restores',
      'the setting “keyProtection”: not something a backup restores',
    ]);
    expect((await runtime.toolServers.list())[0]!.headers).toEqual([
      { name: 'Authorization', hint: '' },
    ]);
  });

  it('leaves out names that are no setting it restores, saying so: __proto__, constructor, usage:*', async () => {
    const { dbName, runtime } = open();
    const report = await runtime.backups.restore(
      `{"format":"trellis-backup","version":1,"createdAt":1,"sessions":[],"flows":[],"agents":[],"providers":[],"toolServers":[],"settings":{"__proto__":{"theme":"dark"},"constructor":{"x":1},"usage:s1":{"calls":99}}}`,
    );
    expect(report.ignored).toEqual([
      'the setting “__proto__”: not something a backup restores',
      'the setting “constructor”: not something a backup restores',
      'the setting “usage:s1”: not something a backup restores',
    ]);
    expect(await storedSettings(dbName)).toEqual({});
    expect((await runtime.settings()).theme).toBe('system');
  });

  it('cannot grant Always allow: such a policy is left to ask, and said; the others come in', async () => {
    const { dbName, runtime } = open();
    const report = await runtime.backups.restore(
      backup({
        settings: {
          toolPolicies: { 'Local MCP/delete_all': 'always', 'Local MCP/search': 'never' },
          theme: 'ignored',
        },
      }),
    );
    expect((await storedSettings(dbName)).toolPolicies).toEqual({ 'Local MCP/search': 'never' });
    expect(report.ignored).toContain(
      'Always allow for the tool Local MCP/delete_all: a file cannot grant it; set it again',
    );
    expect(report.restored).toContain('your tool approval policies');
  });
});

// Hostile knowledge (issue 34): a backup's knowledge bases are checked whole before anything is
// written. A bad shape, a huge name, a span or chunk outside its document's text, a chunk that is
// not of its document, counts that do not match, bytes that are not base64: the file is refused,
// saying which, and no base, document or anything else is written. A key planted in a base's
// embedding choice is not taken.
describe('hostile knowledge in backups', () => {
  const TEXT = 'The capital of Zorbia is Quillon.\n\nIts rivers run cold.';
  const good = () => ({
    base: {
      id: 'kb1',
      name: 'Atlas',
      description: '',
      chunking: { size: 1000, overlap: 150 },
      createdAt: 1,
      updatedAt: 1,
    },
    documents: [
      {
        record: {
          id: 'doc1',
          baseId: 'kb1',
          name: 'atlas.txt',
          kind: 'text',
          size: TEXT.length,
          chars: TEXT.length,
          chunkCount: 2,
          status: 'indexed',
          addedAt: 1,
        },
        text: { text: TEXT, pages: [{ page: 1, start: 0, end: TEXT.length }] },
        file: { name: 'atlas.txt', type: 'text/plain', data: btoa(TEXT) },
        chunks: [
          { id: 'doc1:0', start: 0, end: 33 },
          { id: 'doc1:1', start: 35, end: TEXT.length },
        ],
      },
    ],
  });
  type Part = ReturnType<typeof good>;
  const changed = (change: (part: Part) => void) => {
    const part = good();
    change(part);
    return [part];
  };
  const refused: { name: string; knowledge: unknown; says: RegExp }[] = [
    {
      name: 'knowledge that is not a list',
      knowledge: { kb1: good() },
      says: /"knowledge" is not a list/,
    },
    {
      name: 'a base without its record',
      knowledge: [{ documents: [] }],
      says: /knowledge base #1 has no record/,
    },
    {
      name: 'a huge base name',
      knowledge: changed((p) => (p.base.name = 'x'.repeat(1_000_000))),
      says: /knowledge base #1 has no name/,
    },
    {
      name: 'a chunking out of bounds',
      knowledge: changed((p) => (p.base.chunking.size = 5)),
      says: /chunking of knowledge base #1 is not valid/,
    },
    {
      name: 'documents that are not a list',
      knowledge: changed((p) => ((p as { documents: unknown }).documents = 'all')),
      says: /documents of knowledge base #1 are not a list/,
    },
    {
      name: 'a document of another base',
      knowledge: changed((p) => (p.documents[0]!.record.baseId = 'kb2')),
      says: /document #1 of knowledge base #1 is not of its base/,
    },
    {
      name: 'a document of an unknown kind',
      knowledge: changed((p) => (p.documents[0]!.record.kind = 'exe')),
      says: /unknown kind/,
    },
    {
      name: 'a page span outside the text',
      knowledge: changed((p) => (p.documents[0]!.text.pages[0]!.end = TEXT.length + 1)),
      says: /page #1 of document #1 .* lies outside its text/,
    },
    {
      name: 'a chunk outside the text',
      knowledge: changed((p) => (p.documents[0]!.chunks[1]!.end = 10_000)),
      says: /chunk #2 of document #1 .* lies outside its text/,
    },
    {
      name: 'a chunk that ends before it starts',
      knowledge: changed((p) => (p.documents[0]!.chunks[0]!.start = 40)),
      says: /chunk #1 of document #1 .* lies outside its text/,
    },
    {
      name: 'a chunk id not of its document',
      knowledge: changed((p) => (p.documents[0]!.chunks[1]!.id = 'other:1')),
      says: /chunk #2 of document #1 .* is not chunk 1 of its document/,
    },
    {
      name: 'a chunk count that does not match',
      knowledge: changed((p) => (p.documents[0]!.record.chunkCount = 7)),
      says: /says 7 chunks; it has 2/,
    },
    {
      name: 'a character count that does not match the text',
      knowledge: changed((p) => (p.documents[0]!.record.chars = 3)),
      says: /says 3 characters/,
    },
    {
      name: 'file bytes that are not base64',
      knowledge: changed((p) => (p.documents[0]!.file.data = '***')),
      says: /the file of document #1 .* is not base64/,
    },
    {
      name: 'a base id twice',
      knowledge: [good(), { ...good(), documents: [] }],
      says: /base id kb1 twice/,
    },
    {
      name: 'a document id twice, in two bases',
      knowledge: [
        good(),
        {
          base: { ...good().base, id: 'kb2' },
          documents: good().documents.map((d) => ({
            ...d,
            record: { ...d.record, baseId: 'kb2' },
          })),
        },
      ],
      says: /document id doc1 twice/,
    },
  ];
  it.each(refused)('refuses $name whole, and writes nothing', async ({ knowledge, says }) => {
    const { dbName, runtime } = open();
    await runtime.updateSettings({ theme: 'dark' });
    const before = await storedSettings(dbName);
    const error = await rejectionOf(
      runtime.backups.restore(
        backup({ version: 3, knowledge, toolServers: [server([])], settings: { prompts: [] } }),
      ),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toMatch(/^Not restored: /);
    expect(error.message).toMatch(says);
    expect(error.message).toMatch(/Nothing was changed/);
    expect(await runtime.knowledge.list()).toEqual([]);
    expect(await storedSettings(dbName)).toEqual(before);
  });

  it('takes a good part, and no key planted in an embedding choice', async () => {
    const { runtime } = open();
    const part = good();
    Object.assign(part.base, {
      embedding: { providerId: 'p1', model: 'embed', apiKey: 'sk-planted-knowledge-key' },
      revision: 'planted',
    });
    const report = await runtime.backups.restore(backup({ version: 3, knowledge: [part] }));
    expect(report.restored).toEqual(['knowledge base Atlas', 'knowledge document atlas.txt']);
    const backedUp = (await runtime.backups.backup()).json;
    expect(backedUp).not.toContain('sk-planted-knowledge-key');
    expect(JSON.parse(backedUp).knowledge[0].base.embedding).toEqual({
      providerId: 'p1',
      model: 'embed',
    });
    const view = await runtime.knowledge.open('doc1:1');
    expect(view.text.slice(view.start, view.end)).toBe('Its rivers run cold.');
    expect(new TextDecoder().decode((await runtime.knowledge.file('doc1')).bytes)).toBe(TEXT);
  });
});
