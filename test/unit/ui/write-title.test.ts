// "Write a title" in the Sessions list's view model (src/ui/sessions/session-organiser.ts) on the
// real worker over fake-indexeddb: the session's model titles it, the status line offers Undo,
// which puts back the title it had; a refusal says why and offers no Undo.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppOrganise } from '../../../workers/sessions/organise.ts';
import { SessionOrganiser } from '../../../src/ui/sessions/session-organiser.ts';
import { recordingRuntime } from '../../support/app-runtime.ts';

async function setUp() {
  const { runtime, dbName } = recordingRuntime();
  const room = AppOrganise.open({ dbName, broadcast: () => undefined });
  const organiser = new SessionOrganiser(
    {
      organiseSessions: (ids, change) => room.organise(ids, change),
      restoreOrganisation: (before) => room.restore(before),
      renameFolder: (from, to) => room.renameFolder(from, to),
      removeFolder: (name) => room.removeFolder(name),
    },
    undefined,
    {
      writeTitle: (id) => runtime.runs.titles.write(id),
      renameSession: (id, title) => runtime.renameSession(id, title),
    },
  );
  const summary = async (id: string) =>
    (await runtime.listSessions()).find((session) => session.id === id)!;
  return { runtime, organiser, summary };
}

describe('Write a title', () => {
  it('titles the session with its model, and Undo puts the old title back', async () => {
    const { runtime, organiser, summary } = await setUp();
    const { id } = await runtime.createSession('state-keeper');
    await runtime.runs.send(id, 'set color to red. Then more', () => undefined);
    const writing = organiser.writeTitle(await summary(id));
    expect(organiser.snapshot.working).toBe('Writing a title for “set color to red. Then more”…');
    await writing;
    expect(organiser.snapshot.working).toBeUndefined();
    expect((await summary(id)).title).toBe('Set color to red');
    expect(organiser.snapshot.undo?.said).toBe('Titled “Set color to red”.');
    await organiser.undo();
    expect((await summary(id)).title).toBe('set color to red. Then more');
    expect(organiser.snapshot.undo).toBeUndefined();
  });

  it('says why it could not, offers no Undo, and changes nothing', async () => {
    const { runtime, organiser, summary } = await setUp();
    const { id } = await runtime.createSession('state-keeper');
    await organiser.writeTitle(await summary(id));
    expect(organiser.snapshot.error).toMatch(/Send a message first/);
    expect(organiser.snapshot.undo).toBeUndefined();
    expect((await summary(id)).title).toBe('New session');
  });
});
