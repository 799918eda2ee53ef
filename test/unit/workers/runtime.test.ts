// The app's runtime (what the worker runs), in Node over fake-indexeddb: the demo agents, titles,
// locks, broadcasts, approvals, import and export.

import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { IndexedDbSessionService, activeEvents, textOf, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import type { RuntimeBroadcast } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

function open(dbName = freshDbName()) {
  const broadcasts: RuntimeBroadcast[] = [];
  const locks = inProcessLocks();
  const runtime = new AppRuntime({
    dbName,
    locks,
    broadcast: (message) => broadcasts.push(message),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  return { runtime, broadcasts, locks, dbName };
}

/** Collects a run's events, partial ones apart. */
function listener() {
  const events: Event[] = [];
  return {
    events,
    onEvent: (event: Event) => void events.push(event),
    stored: () => events.filter((e) => !e.partial),
  };
}

describe('AppRuntime', () => {
  it('runs the state keeper, titles the session after its first message, and tells other tabs', async () => {
    const { runtime, broadcasts } = open();
    const summary = await runtime.createSession();
    expect(summary).toMatchObject({ title: 'New session', agentId: 'state-keeper' });
    const run = listener();
    await runtime.runs.send(summary.id, 'set color to red', run.onEvent);
    expect(
      run
        .stored()
        .map((e) => textOf(e.content))
        .filter(Boolean),
    ).toEqual(['set color to red', 'color is now red.']);
    // The user's message first, once stored: the page shows it as saved only from then on.
    expect(run.events[0]).toMatchObject({ author: 'user' });
    expect(run.events[0]!.partial).toBeFalsy();
    expect(run.events.some((e) => e.partial)).toBe(true);
    const snapshot = await runtime.openSession(summary.id);
    expect(snapshot.state).toEqual({ color: 'red' });
    expect(snapshot.summary.title).toBe('set color to red');
    expect(broadcasts).toContainEqual({ type: 'busy-changed', sessionId: summary.id, busy: true });
    expect(broadcasts).toContainEqual({ type: 'session-changed', sessionId: summary.id });
    expect(broadcasts.at(-1)).toEqual({ type: 'session-changed', sessionId: summary.id });
  });

  it('names a run a crash cut off by its turn, and says it was cut off', async () => {
    const { runtime, dbName } = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set color to red', () => undefined);
    // What a crash mid-run leaves: the run's record still says running, its runner gone.
    const { events } = await runtime.openSession(id);
    const sessions = new IndexedDbSessionService({ dbName });
    const invocationId = events[0]!.invocationId;
    await sessions.putRun({
      appName: 'trellis',
      userId: 'local',
      sessionId: id,
      invocationId,
      agentName: 'state_keeper',
      status: 'running',
      startedAt: 1,
      updatedAt: 1,
      heartbeatAt: 1,
      ownerId: 'a-tab-that-crashed',
    });
    expect(await runtime.runs.interruptedRuns()).toMatchObject([
      { invocationId, turnText: 'set color to red', cause: 'cut-off', status: 'interrupted' },
    ]);
    await sessions.close();
  });

  it('runs the writing workflow to its approval, and finishes once approved', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession('writing-workflow');
    const first = listener();
    await runtime.runs.send(id, 'tea', first.onEvent);
    const request = first
      .stored()
      .find((e) => e.content?.parts[0]?.functionCall?.name === 'adk_request_confirmation')!;
    expect(request.author).toBe('publisher');
    expect(await runtime.runs.interruptedRuns()).toMatchObject([
      { sessionId: id, status: 'paused', sessionTitle: 'tea', turnText: 'tea', cause: 'waiting' },
    ]);
    // However short a tail the page asks for, the opening reaches back to the paused run's first
    // event: its approval request is in it, and the Checkpoints panel can start there.
    const opening = await runtime.openSessionSummary(id, { numActiveEvents: 1 });
    expect(opening.activeTail[0]!.event.invocationId).toBe(request.invocationId);
    expect(opening.activeTail.map(({ event }) => event.id)).toContain(request.id);
    expect(opening.tailStart).toEqual({ seq: opening.activeTail[0]!.seq, state: {} });
    // The event log reads the raw log a page at a time.
    const page = await runtime.readLog(id, 1, 2);
    expect(page.eventCount).toBe(opening.eventCount);
    expect(page.entries.map(({ seq, active }) => [seq, active])).toEqual([
      [1, true],
      [2, true],
    ]);

    const second = listener();
    await runtime.runs.answer(
      id,
      request.content!.parts[0]!.functionCall!.id!,
      true,
      undefined,
      second.onEvent,
    );
    const final = second
      .stored()
      .filter((e) => e.content)
      .at(-1)!;
    expect(textOf(final.content)).toContain('complete');
    const snapshot = await runtime.openSession(id);
    expect(snapshot.artifacts).toEqual([{ filename: 'post.md', versions: [0], scope: 'session' }]);
    expect(
      textOf({ role: 'user', parts: [(await runtime.loadArtifact(id, 'post.md'))!] }),
    ).toContain('# Notes on tea');
    expect(await runtime.runs.interruptedRuns()).toEqual([]);
  });

  it('refuses a second run of a busy session with SessionBusyError', async () => {
    const { runtime, locks } = open();
    const { id } = await runtime.createSession();
    await locks.withLock(id, async () => {
      const error = await rejectionOf(runtime.runs.send(id, 'set a to b', () => undefined));
      expect(error.name).toBe('SessionBusyError');
      expect(await runtime.runs.busySessions()).toEqual([id]);
    });
    expect((await runtime.openSession(id)).events).toEqual([]);
  });

  it('stops a run, which can then be resumed', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession('writing-workflow');
    const seen: Event[] = [];
    await runtime.runs.send(id, 'tea', (event) => {
      seen.push(event);
      if (event.author === 'drafter' && !event.partial) runtime.runs.stop(id);
    });
    const [interrupted] = await runtime.runs.interruptedRuns();
    expect(interrupted).toMatchObject({ sessionId: id, status: 'interrupted' });
    const resumed = listener();
    await runtime.runs.resume(id, interrupted!.invocationId, resumed.onEvent);
    expect(resumed.stored().map((e) => e.author)).toContain('critic');
  });

  it('exports a session and imports it again; a bad file changes nothing', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set mood to calm', () => undefined);
    const { filename, json } = await runtime.exportSession(id);
    expect(filename).toBe('set-mood-to-calm.trellis.json');
    const imported = await runtime.importSession(json);
    // Its own title beside the original's; a second import gets the next one.
    expect(imported.title).toBe('set mood to calm (imported)');
    expect((await runtime.openSession(imported.id)).state).toEqual({ mood: 'calm' });
    expect((await runtime.importSession(json)).title).toBe('set mood to calm (imported 2)');
    const before = await runtime.listSessions();
    const error = await rejectionOf(runtime.importSession('{"events": "nope"}'));
    expect(error.name).toBe('InvalidSessionFileError');
    expect(await runtime.listSessions()).toEqual(before);
  });

  it('paces the demo agents as Settings say: a moment per streamed chunk, or none', async () => {
    const runtime = new AppRuntime({
      dbName: freshDbName(),
      locks: inProcessLocks(),
      broadcast: () => {},
    });
    expect((await runtime.settings()).demoPace).toBe('visible');
    const { id } = await runtime.createSession();
    const pauses = vi.spyOn(globalThis, 'setTimeout');
    const demoPauses = () => pauses.mock.calls.filter(([, ms]) => ms === 25).length;
    try {
      await runtime.runs.send(id, 'set color to red', () => {});
      expect(demoPauses()).toBeGreaterThan(0);
      expect(await runtime.updateSettings({ demoPace: 'instant' })).toMatchObject({
        autoResume: false,
        demoPace: 'instant',
      });
      pauses.mockClear();
      await runtime.runs.send(id, 'set color to blue', () => {});
      expect(demoPauses()).toBe(0);
    } finally {
      pauses.mockRestore();
    }
    expect((await runtime.openSession(id)).state).toEqual({ color: 'blue' });
  });

  it('switches back to a branch a rewind left, finding the marker to rewind before itself', async () => {
    const { runtime, broadcasts } = open();
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set a to 1', () => undefined);
    const second = listener();
    await runtime.runs.send(id, 'set b to 2', second.onEvent);
    const turn = second.stored()[0]!.invocationId;
    await runtime.rewinds.rewind(id, turn);
    expect((await runtime.openSession(id)).state).toEqual({ a: '1' });
    await expect(runtime.rewinds.switchToBranch(id, 'set a to 1')).rejects.toMatchObject({
      name: 'InvocationNotFoundError',
    });

    broadcasts.length = 0;
    const marker = await runtime.rewinds.switchToBranch(id, turn);
    expect(broadcasts).toContainEqual({ type: 'session-changed', sessionId: id });
    const { state, events } = await runtime.openSession(id);
    expect(state).toEqual({ a: '1', b: '2' });
    expect(events.at(-1)).toEqual(marker);
    // Its turn is on the active path again: nothing to switch to, and nothing written.
    await expect(runtime.rewinds.switchToBranch(id, turn)).rejects.toMatchObject({
      name: 'InvalidRequestError',
    });
    expect((await runtime.openSession(id)).events).toHaveLength(events.length);
  });

  it('rewinds, forks and deletes sessions', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession();
    const first = listener();
    await runtime.runs.send(id, 'set a to 1', first.onEvent);
    await runtime.runs.send(id, 'save note.txt as hello', () => undefined);
    const marker = await runtime.rewinds.rewind(
      id,
      (await runtime.openSession(id)).events.at(-1)!.invocationId,
    );
    expect(marker.actions.rewindBeforeInvocationId).toBeDefined();
    const afterRewind = await runtime.openSession(id);
    expect(afterRewind.state).toEqual({ a: '1' });
    expect(afterRewind.artifacts).toEqual([]);
    // The bounded opening says the same: the rewound turn is off the path, a branch of none.
    const opening = await runtime.openSessionSummary(id);
    expect(opening).toMatchObject({
      state: { a: '1' },
      artifacts: [],
      eventCount: afterRewind.events.length,
      activeComplete: true,
      pathComplete: true,
    });
    expect(opening.activePath.map((turn) => turn.text)).toEqual(['set a to 1']);
    expect(opening.roots?.map((turn) => turn.text)).toEqual(['set a to 1']);
    expect(opening.activePath[0]!.childCount).toBe(1);
    expect(opening.activeTail.map(({ event }) => event.id)).toEqual(
      activeEvents(afterRewind.events).map((event) => event.id),
    );
    const fork = await runtime.rewinds.fork(id, first.stored()[0]!.invocationId);
    expect(fork.title).toBe('set a to 1 (fork)');
    await runtime.deleteSession(id);
    expect((await runtime.listSessions()).map((s) => s.id)).toEqual([fork.id]);
  });
});
