// The Sessions list's view model (src/ui/sessions/session-organiser.ts) on the real worker room
// over fake-indexeddb: Undo puts back what was, not the opposite flag; a refused change says why
// and offers no Undo; Shift-click ranges; Archived starts closed, and the groups opened or closed
// are remembered across a reload; deleting the selection is one pending delete.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { AppOrganise } from '../../../workers/sessions/organise.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { PendingDeletes } from '../../../src/ui/common/pending-deletes.ts';
import {
  GROUPS_KEY,
  SessionOrganiser,
  type OrganiseApi,
} from '../../../src/ui/sessions/session-organiser.ts';
import { freshDbName } from '../../support/helpers.ts';

async function setUp() {
  const dbName = freshDbName();
  const runtime = new AppRuntime({ dbName, locks: inProcessLocks(), broadcast: () => undefined });
  const room = AppOrganise.open({ dbName, broadcast: () => undefined });
  for (const title of ['a', 'b', 'c']) await runtime.createSession('state-keeper', title);
  const storage = new Map<string, string>();
  const pending = new PendingDeletes({
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) },
    now: () => 0,
    setTimeout: () => undefined,
    clearTimeout: () => undefined,
    commit: async () => undefined,
  });
  const organiser = new SessionOrganiser(
    {
      organiseSessions: (ids, change) => room.organise(ids, change),
      restoreOrganisation: (before) => room.restore(before),
      renameFolder: (from, to) => room.renameFolder(from, to),
      removeFolder: (name) => room.removeFolder(name),
    },
    pending,
  );
  const sessions = async () =>
    (await runtime.listSessions()).sort((x, y) => x.title.localeCompare(y.title));
  return { organiser, pending, sessions };
}

describe('organising the Sessions list', () => {
  it('undoes a change by putting back what was there', async () => {
    const { organiser, sessions } = await setUp();
    const [a, b] = await sessions();
    await organiser.archive([a!], true);
    await organiser.archive(await sessions().then((all) => all.slice(0, 2)), true);
    expect(organiser.snapshot.undo?.said).toBe('Archived 2 sessions.');
    await organiser.undo();
    expect((await sessions()).map((s) => !!s.archived)).toEqual([true, false, false]);
    expect(organiser.snapshot.undo).toBeUndefined();
    await organiser.move([b!], 'Work');
    expect(organiser.snapshot.undo?.said).toBe('Moved “b” to “Work”.');
  });

  it('says why a change was refused, offers no Undo, and changes nothing', async () => {
    const { organiser, sessions } = await setUp();
    const [a] = await sessions();
    await organiser.pin([a!, { ...a!, id: 'gone', title: 'gone' }], true);
    expect(organiser.snapshot.error).toMatch(/not found: gone/);
    expect(organiser.snapshot.undo).toBeUndefined();
    expect((await sessions()).some((s) => s.pinned)).toBe(false);
    await organiser.move([a!], '   ');
    expect(organiser.snapshot.error).toMatch(/folder needs a name/);
    organiser.dismissError();
    expect(organiser.snapshot.error).toBeUndefined();
  });

  it('selects by click and Shift-click, and leaves Select mode once it has acted', async () => {
    const { organiser, sessions } = await setUp();
    const shown = ['1', '2', '3', '4'];
    organiser.setSelecting(true);
    organiser.toggle('2', shown, false);
    organiser.toggle('4', shown, true);
    expect([...organiser.snapshot.selected].sort()).toEqual(['2', '3', '4']);
    organiser.toggle('3', shown, true);
    expect([...organiser.snapshot.selected]).toEqual(['4']);
    await organiser.pin(await sessions(), true);
    expect(organiser.snapshot).toMatchObject({ selecting: false, selected: new Set() });
  });

  it('starts with Archived closed and the other groups open', async () => {
    const { organiser } = await setUp();
    expect([organiser.isOpen('archived'), organiser.isOpen('folder:Work')]).toEqual([false, true]);
    organiser.toggleGroup('archived');
    organiser.toggleGroup('folder:Work');
    expect([organiser.isOpen('archived'), organiser.isOpen('folder:Work')]).toEqual([true, false]);
  });

  it('deletes the selection as one pending delete', async () => {
    const { organiser, pending, sessions } = await setUp();
    const all = await sessions();
    organiser.setSelecting(true);
    organiser.delete(all.slice(1));
    expect([...pending.hidden('session')].sort()).toEqual(
      all
        .slice(1)
        .map((s) => s.id)
        .sort(),
    );
    expect(pending.snapshot.items.map((item) => item.said)).toEqual(
      Array(2).fill('Deleted 2 sessions and their artifacts.'),
    );
    expect(organiser.snapshot.selecting).toBe(false);
  });

  it('remembers the groups opened or closed across a reload, and reads damage as none', () => {
    const api = {} as unknown as OrganiseApi;
    const stored = new Map<string, string>();
    const storage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    };
    const before = new SessionOrganiser(api, undefined, undefined, storage);
    before.toggleGroup('archived');
    before.toggleGroup('folder:Work');
    const after = new SessionOrganiser(api, undefined, undefined, storage);
    expect([after.isOpen('archived'), after.isOpen('folder:Work'), after.isOpen('recent')]).toEqual(
      [true, false, true],
    );

    for (const damaged of ['{"broken', '{"a":1}', '[1, null, {}]', '"archived"']) {
      stored.set(GROUPS_KEY, damaged);
      const fresh = new SessionOrganiser(api, undefined, undefined, storage);
      expect([fresh.isOpen('archived'), fresh.isOpen('folder:Work')]).toEqual([false, true]);
    }

    // Storage that refuses (full, or off): the group still opens, for this page.
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    const page = new SessionOrganiser(api, undefined, undefined, refusing);
    page.toggleGroup('archived');
    expect(page.isOpen('archived')).toBe(true);
  });
});
