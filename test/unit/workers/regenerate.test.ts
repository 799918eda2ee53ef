// Regenerate and Edit in the app: the turn's message goes again (Regenerate) or with new text
// (Edit), its files with it, and the old version stays as a branch.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { activeEvents, textOf } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

function open() {
  return new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => {},
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}

const note = { name: 'note.txt', mimeType: 'text/plain', bytes: new TextEncoder().encode('milk') };

describe('regenerate and edit', () => {
  it('regenerates a turn with the same message, files included, keeping the old answer as a branch', async () => {
    const runtime = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set color to red', () => {}, [note]);
    const first = (await runtime.openSession(id)).events.find((e) => e.author === 'user')!;
    expect(first.content!.parts[1]!.inlineData).toMatchObject({ displayName: 'note.txt' });

    await runtime.runs.regenerate(id, first.invocationId, () => {});
    const { events } = await runtime.openSession(id);
    const active = activeEvents(events);
    const again = active.find((e) => e.author === 'user')!;
    expect(again.invocationId).not.toBe(first.invocationId);
    expect(again.content).toEqual(first.content);
    expect(
      active.filter((e) => e.invocationId === again.invocationId).map((e) => textOf(e.content)),
    ).toContain('color is now red.');
    // The first version is still in the log, off the active path.
    expect(events.some((e) => e.invocationId === first.invocationId)).toBe(true);
    expect(active.some((e) => e.invocationId === first.invocationId)).toBe(false);
  });

  it('edits a turn’s text and keeps the files it carried', async () => {
    const runtime = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set color to red', () => {}, [note]);
    const first = (await runtime.openSession(id)).events.find((e) => e.author === 'user')!;
    await runtime.runs.edit(id, first.invocationId, 'set color to blue', () => {});
    const active = activeEvents((await runtime.openSession(id)).events);
    const edited = active.find((e) => e.author === 'user')!;
    expect(edited.content!.parts.map((p) => p.text ?? p.inlineData?.displayName)).toEqual([
      'set color to blue',
      'note.txt',
    ]);
    expect((await runtime.openSession(id)).state).toMatchObject({ color: 'blue' });
  });

  it('refuses to regenerate a turn it does not know', async () => {
    const runtime = open();
    const { id } = await runtime.createSession();
    expect((await rejectionOf(runtime.runs.regenerate(id, 'nope', () => {}))).name).toBe(
      'InvocationNotFoundError',
    );
  });
});
