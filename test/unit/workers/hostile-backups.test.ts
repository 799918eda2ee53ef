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
