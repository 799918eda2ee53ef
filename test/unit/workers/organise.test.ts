// Organising sessions in the worker (Node over fake-indexeddb): pin, archive and one folder each,
// for one session or several at once; each change all or nothing, its Undo putting back exactly
// what was; unknown ids and bad names refused with nothing changed; folders renamed and removed;
// kept by a backup's round trip, left behind by a session file; sessions on an ADK server refused.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { AppOrganise } from '../../../workers/sessions/organise.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import type { RuntimeBroadcast, SessionSummary } from '../../../workers/protocol.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

async function workspace(count = 3) {
  const dbName = freshDbName();
  const said: RuntimeBroadcast[] = [];
  const broadcast = (message: RuntimeBroadcast) => void said.push(message);
  const runtime = new AppRuntime({ dbName, locks: inProcessLocks(), broadcast });
  const organise = AppOrganise.open({ dbName, broadcast });
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push((await runtime.createSession('state-keeper', `Session ${i}`)).id);
  said.length = 0;
  /** How the list sees each session: `title: pinned archived folder`. */
  const seen = async () =>
    Object.fromEntries(
      (await runtime.listSessions())
        .sort((a, b) => a.title.localeCompare(b.title))
        .map((s) => [s.title, organisation(s)]),
    );
  return { runtime, organise, ids, said, seen, dbName };
}

const organisation = ({ pinned, archived, folder }: SessionSummary) => ({
  ...(pinned === undefined ? {} : { pinned }),
  ...(archived === undefined ? {} : { archived }),
  ...(folder === undefined ? {} : { folder }),
});

describe('organising sessions', () => {
  it('pins, archives and files one session or several at once, and says so to every tab', async () => {
    const { organise, ids, said, seen } = await workspace();
    await organise.organise([ids[0]!], { type: 'pin', pinned: true });
    await organise.organise([ids[1]!, ids[2]!], { type: 'archive', archived: true });
    await organise.organise([ids[0]!, ids[1]!], { type: 'folder', folder: '  Work \n notes ' });
    expect(await seen()).toEqual({
      'Session 0': { pinned: true, folder: 'Work notes' },
      'Session 1': { archived: true, folder: 'Work notes' },
      'Session 2': { archived: true },
    });
    expect(said).toEqual(Array(3).fill({ type: 'sessions-changed' }));

    // Off again: the fields go (absent, not false), as on a session never organised.
    await organise.organise([ids[0]!], { type: 'pin', pinned: false });
    await organise.organise(ids, { type: 'folder', folder: null });
    await organise.organise([ids[1]!, ids[2]!, ids[1]!], { type: 'archive', archived: false });
    expect(await seen()).toEqual({ 'Session 0': {}, 'Session 1': {}, 'Session 2': {} });
  });

  it('returns the sessions as they were, and its Undo puts back exactly that', async () => {
    const { organise, ids, seen } = await workspace();
    await organise.organise([ids[0]!], { type: 'archive', archived: true });
    await organise.organise([ids[0]!], { type: 'folder', folder: 'Old' });
    const before = await seen();
    // Archiving two, one of them archived already: Undo leaves that one archived.
    const was = await organise.organise([ids[0]!, ids[1]!], { type: 'archive', archived: true });
    expect(was).toEqual([
      { id: ids[0], pinned: false, archived: true, folder: 'Old' },
      { id: ids[1], pinned: false, archived: false },
    ]);
    await organise.restore(was);
    expect(await seen()).toEqual(before);
  });

  it('refuses unknown ids, a bad change or a nameless folder, and changes nothing', async () => {
    const { organise, ids, said, seen } = await workspace();
    const before = await seen();
    const cases: [() => Promise<unknown>, RegExp][] = [
      [
        () => organise.organise([ids[0]!, 'nope'], { type: 'pin', pinned: true }),
        /not found: nope/,
      ],
      [() => organise.organise([], { type: 'pin', pinned: true }), /at least one session/],
      [() => organise.organise([ids[0]!, ''], { type: 'pin', pinned: true }), /id is missing/],
      [() => organise.organise([ids[0]!], { type: 'folder', folder: ' \n ' }), /needs a name/],
      [
        () => organise.organise([ids[0]!], { type: 'pin', pinned: 'yes' as unknown as boolean }),
        /on or off/,
      ],
      [() => organise.organise([ids[0]!], { type: 'star' } as never), /which change/],
      [() => organise.restore([{ id: 'gone', pinned: true, archived: false }]), /not found: gone/],
      [() => organise.renameFolder('Nowhere', 'Somewhere'), /no folder “Nowhere”/],
      [() => organise.removeFolder('Nowhere'), /no folder “Nowhere”/],
    ];
    for (const [change, message] of cases) {
      const error = await rejectionOf(change());
      expect(error.message).toMatch(message);
    }
    expect(await seen()).toEqual(before);
    expect(said).toEqual([]);
  });

  it('renames a folder (merging into one of that name) and removes one, keeping its sessions', async () => {
    const { organise, ids, seen, runtime } = await workspace();
    await organise.organise([ids[0]!, ids[1]!], { type: 'folder', folder: 'Drafts' });
    await organise.organise([ids[2]!], { type: 'folder', folder: 'Work' });
    const was = await organise.renameFolder('Drafts', 'Work');
    expect(Object.values(await seen())).toEqual(Array(3).fill({ folder: 'Work' }));
    await organise.restore(was);
    expect((await seen())['Session 0']).toEqual({ folder: 'Drafts' });

    await organise.removeFolder('Drafts');
    expect(await seen()).toEqual({
      'Session 0': {},
      'Session 1': {},
      'Session 2': { folder: 'Work' },
    });
    // Renaming a session keeps how it is organised.
    await runtime.renameSession(ids[2]!, 'Renamed');
    expect((await seen())['Renamed']).toEqual({ folder: 'Work' });
  });

  it('clips a long folder name to one short line', async () => {
    const { organise, ids, seen } = await workspace(1);
    await organise.organise(ids, { type: 'folder', folder: `${'x'.repeat(100)}\u0007` });
    expect((await seen())['Session 0']!.folder).toBe('x'.repeat(60));
  });

  it('refuses sessions on an ADK server, naming what to do instead', async () => {
    const { organise, ids, seen } = await workspace(1);
    const error = await rejectionOf(
      organise.organise([ids[0]!, 'adk:server:app:s1'], { type: 'pin', pinned: true }),
    );
    expect(error.message).toMatch(/Copy to this browser/);
    expect(await seen()).toEqual({ 'Session 0': {} });
  });

  it('keeps how sessions are organised through a backup, and leaves it out of a session file', async () => {
    const { runtime, organise, ids } = await workspace();
    await organise.organise([ids[0]!], { type: 'pin', pinned: true });
    await organise.organise([ids[1]!], { type: 'archive', archived: true });
    await organise.organise([ids[1]!, ids[2]!], { type: 'folder', folder: 'Work' });
    const { json } = await runtime.backups.backup();

    const fresh = new AppRuntime({
      dbName: freshDbName(),
      locks: inProcessLocks(),
      broadcast: () => undefined,
    });
    await fresh.backups.restore(json);
    const restored = Object.fromEntries(
      (await fresh.listSessions()).map((s) => [s.title, organisation(s)]),
    );
    expect(restored).toEqual({
      'Session 0': { pinned: true },
      'Session 1': { archived: true, folder: 'Work' },
      'Session 2': { folder: 'Work' },
    });

    // A session file is for sharing: its copy comes in unpinned, unarchived, in no folder.
    const file = await runtime.exportSession(ids[1]!);
    expect(file.json).not.toMatch(/"archived"|"folder"/);
    const imported = await runtime.importSession(file.json);
    expect(organisation(imported)).toEqual({});
  });

  it('drops what does not fit in a backup’s organisation rather than refusing the backup', async () => {
    const { runtime, organise, ids } = await workspace(1);
    await organise.organise(ids, { type: 'pin', pinned: true });
    const file = JSON.parse((await runtime.backups.backup()).json);
    Object.assign(file.sessions[0], { pinned: 'yes', archived: 1, folder: 42 });
    const fresh = new AppRuntime({
      dbName: freshDbName(),
      locks: inProcessLocks(),
      broadcast: () => undefined,
    });
    await fresh.backups.restore(JSON.stringify(file));
    expect((await fresh.listSessions()).map(organisation)).toEqual([{}]);
  });
});
