// Settings stored malformed (by an old version, a hand-edited database or a backup restored before
// settings were checked) never stop the app: each reads as absent, so its default applies, and
// the app names it; and no malformed value is ever written (issue 28).

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

function runtimeOver(dbName: string) {
  return new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: () => {},
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}

/** Writes settings straight into the database, past every check. */
async function plant(dbName: string, settings: Record<string, unknown>) {
  const first = runtimeOver(dbName);
  await first.listSessions(); // the database exists, at its schema
  const db = await openDB(dbName);
  for (const [name, value] of Object.entries(settings)) await db.put('settings', { name, value });
  db.close();
}

const MALFORMED: Record<string, unknown> = {
  adkServers: 'not-a-list',
  settings: { autoResume: 'yes', theme: 5 },
  toolServers: [{ id: 't1', name: 'x', url: 'http://127.0.0.1:1/mcp', headers: 'Bearer x' }],
  toolPolicies: { 'server/tool': 'sometimes' },
  adkRemoteSessions: { not: 'a list' },
  lastBackupAt: 'yesterday',
  keyProtection: { version: 9 },
};

describe('malformed stored settings', () => {
  it('the app opens on the defaults and names each malformed setting', async () => {
    const dbName = freshDbName();
    await plant(dbName, MALFORMED);
    const runtime = runtimeOver(dbName);

    // Everything the page asks for on load answers.
    expect(await runtime.settings()).toEqual({
      autoResume: false,
      demoPace: 'visible',
      theme: 'system',
      modelTitles: true,
    });
    expect((await runtime.agents()).length).toBeGreaterThan(0);
    expect(await runtime.remote.servers()).toEqual([]);
    expect(await runtime.toolServers.list()).toEqual([]);
    expect(await runtime.toolServers.policies()).toEqual({});
    expect(await runtime.backups.lastBackupAt()).toBeUndefined();
    expect(await runtime.keys.status()).toEqual({ protected: false, unlocked: true });
    const session = await runtime.createSession();
    await runtime.runs.send(session.id, 'set color to red', () => {});
    expect((await runtime.openSession(session.id)).state).toMatchObject({ color: 'red' });

    const problems = await runtime.settingProblems();
    expect(problems.map((found) => found.name).sort()).toEqual(Object.keys(MALFORMED).sort());
    const adk = problems.find((found) => found.name === 'adkServers')!;
    expect(adk.label).toBe('ADK servers');
    expect(adk.problem).toMatch(/expected array, received string/);

    // A change replaces the malformed value, and the problem goes.
    await runtime.updateSettings({ theme: 'dark' });
    expect((await runtime.settings()).theme).toBe('dark');
    expect((await runtime.settingProblems()).map((found) => found.name)).not.toContain('settings');
  });

  it('never writes a malformed setting, nor a name that is not a setting', async () => {
    const dbName = freshDbName();
    const runtime = runtimeOver(dbName);
    const error = await rejectionOf(
      runtime.updateSettings({ theme: 'purple' as unknown as 'dark' }),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toMatch(/theme/);
    expect((await runtime.settings()).theme).toBe('system');
    const db = await openDB(dbName);
    expect(await db.getAll('settings')).toEqual([]);
    db.close();
  });
});
