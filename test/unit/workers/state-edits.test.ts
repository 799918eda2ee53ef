// The worker's state edits (the State panel, History's "Edit state and re-run"): under the
// session's lock, told to other tabs, refused for a running session or an ADK server's, and a
// re-run that rewinds, edits and asks the same message again.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { activeEvents, branchTree, isStateEdit, textOf, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import type { RuntimeBroadcast } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { deferred, freshDbName, rejectionOf } from '../../support/helpers.ts';

function open() {
  const broadcasts: RuntimeBroadcast[] = [];
  const locks = inProcessLocks();
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks,
    broadcast: (message) => broadcasts.push(message),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  return { runtime, broadcasts, locks };
}

/** The text of the answers of the last turn (the state keeper answers with its tool's message). */
async function lastAnswers(runtime: AppRuntime, sessionId: string): Promise<string[]> {
  const active = activeEvents((await runtime.openSession(sessionId)).events);
  const last = active.findLast((event) => event.author === 'user' && event.content)!;
  return active
    .filter((event) => event.invocationId === last.invocationId && event.author !== 'user')
    .map((event) => textOf(event.content))
    .filter(Boolean);
}

describe('state edits in the app', () => {
  it('edits the state as a turn the next run sees, and tells other tabs', async () => {
    const { runtime, broadcasts } = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set color to red', () => {});
    broadcasts.length = 0;
    const edit = await runtime.stateEdits.editState(id, { color: 'blue' });
    expect(isStateEdit(edit)).toBe(true);
    expect(broadcasts).toContainEqual({ type: 'session-changed', sessionId: id });
    const opening = await runtime.openSessionSummary(id);
    expect(opening.state).toMatchObject({ color: 'blue' });
    expect(opening.activePath.at(-1)!.text).toBe('State edited: color = blue');
    await runtime.runs.send(id, 'what is color', () => {});
    expect(await lastAnswers(runtime, id)).toContain('color is "blue".');
    // Rewinding to before the edit takes it back.
    await runtime.rewinds.rewind(id, edit.invocationId);
    expect((await runtime.openSessionSummary(id)).state).toMatchObject({ color: 'red' });
  });

  it('keeps a state edit a turn through export and import', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession();
    await runtime.stateEdits.editState(id, { color: 'blue' });
    const { json } = await runtime.exportSession(id);
    const copy = await runtime.importSession(json);
    const opening = await runtime.openSessionSummary(copy.id);
    expect(opening.activePath.map((turn) => turn.text)).toEqual(['State edited: color = blue']);
    expect(opening.state).toMatchObject({ color: 'blue' });
  });

  it('refuses bad changes and writes nothing', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession();
    await runtime.stateEdits.editState(id, { color: 'red' });
    const before = (await runtime.openSession(id)).events.length;
    for (const changes of [{}, { '': 1 }, { 'temp:x': 1 }, { color: 'red' }]) {
      const error = await rejectionOf(runtime.stateEdits.editState(id, changes));
      expect(error.name).toBe('InvalidRequestError');
    }
    expect((await runtime.openSession(id)).events).toHaveLength(before);
  });

  it('edits a key named __proto__', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession();
    await runtime.stateEdits.editState(id, JSON.parse('{"__proto__": "blue"}'));
    const { state } = await runtime.openSessionSummary(id);
    expect(Object.getOwnPropertyDescriptor(state, '__proto__')?.value).toBe('blue');
    await runtime.runs.send(id, 'what is __proto__', () => {});
    expect(await lastAnswers(runtime, id)).toContain('__proto__ is "blue".');
  });

  it('refuses to edit a session while it runs, with a clear message', async () => {
    const { runtime, locks } = open();
    const { id } = await runtime.createSession();
    const holding = deferred();
    const released = deferred();
    // Another run holds the lock (as a run in flight does) until released.
    const held = locks.withLock(id, async () => {
      holding.resolve();
      await released.promise;
    });
    await holding.promise;
    const error = await rejectionOf(runtime.stateEdits.editState(id, { color: 'blue' }));
    released.resolve();
    await held;
    expect(error.name).toBe('SessionBusyError');
    expect(error.message).toMatch(/running.*edit its state once the run ends/);
    expect((await runtime.openSession(id)).events).toHaveLength(0);
  });

  it('refuses sessions on ADK servers', async () => {
    const { runtime } = open();
    const error = await rejectionOf(
      runtime.stateEdits.editState('adk:server:app:session', { a: 1 }),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toMatch(/state of an ADK server's session lives on the server/);
  });

  it('re-runs a turn from the state before it, edited, keeping the old turn as a branch', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set color to red', () => {});
    await runtime.runs.send(id, 'what is color', () => {});
    const asked = activeEvents((await runtime.openSession(id)).events).findLast(
      (event) => event.author === 'user' && textOf(event.content) === 'what is color',
    )!;
    expect(await runtime.stateEdits.stateBefore(id, asked.invocationId)).toEqual({
      color: 'red',
    });
    const seen: Event[] = [];
    await runtime.stateEdits.editStateAndRerun(
      id,
      asked.invocationId,
      { color: 'green', 'user:name': 'Ada' },
      (event) => seen.push(event),
    );
    expect(seen.some(isStateEdit)).toBe(true);
    expect(await lastAnswers(runtime, id)).toContain('color is "green".');
    const { events } = await runtime.openSession(id);
    const tree = branchTree(events);
    const active = tree.activePath.map((turnId) => tree.byId.get(turnId)!.text);
    expect(active).toEqual([
      'set color to red',
      'State edited: color = green, user:name = Ada',
      'what is color',
    ]);
    // The old turn is still there, off the active path.
    expect(tree.byId.get(asked.invocationId)!.active).toBe(false);
  });

  it('re-runs with no change as the same message again, and rewinds nothing for bad changes', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set color to red', () => {});
    const first = (await runtime.openSession(id)).events[0]!;
    const before = (await runtime.openSession(id)).events.length;
    const error = await rejectionOf(
      runtime.stateEdits.editStateAndRerun(id, first.invocationId, { '': 1 }, () => {}),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect((await runtime.openSession(id)).events).toHaveLength(before);
    await runtime.stateEdits.editStateAndRerun(id, first.invocationId, {}, () => {});
    const active = activeEvents((await runtime.openSession(id)).events);
    expect(active.some(isStateEdit)).toBe(false);
    expect(await lastAnswers(runtime, id)).toContain('color is now red.');
  });
});
