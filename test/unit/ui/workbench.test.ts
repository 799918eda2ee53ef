// The workbench opens and follows a session from its bounded opening (issue 8), against the app's
// runtime in-process (fake-indexeddb) standing in for the worker: what it reads, when it reads it
// again, and how "Show earlier" and the event log page back.

import 'fake-indexeddb/auto';
import type { Remote } from 'comlink';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/core/event.ts';
import { sessionView } from '../../../src/ui/workbench/session-view.ts';
import { LOG_PAGE, Workbench, type RuntimeClient } from '../../../src/ui/workbench/workbench.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { OPENING, type RuntimeBroadcast } from '../../../workers/protocol.ts';
import type { RuntimeApi } from '../../../workers/runtime.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName } from '../../support/helpers.ts';

/** A workbench on a runtime of its own, counting the openings it reads. */
function setUp() {
  const listeners = new Set<(message: RuntimeBroadcast) => void>();
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: (message) => listeners.forEach((listener) => listener(message)),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  const openings: { numActiveEvents?: number; numTurns?: number }[] = [];
  const api = {
    agents: () => runtime.agents(),
    settings: () => runtime.settings(),
    settingProblems: () => runtime.settingProblems(),
    listSessions: () => runtime.listSessions(),
    createSession: (agentId?: string) => runtime.createSession(agentId),
    busySessions: () => runtime.runs.busySessions(),
    interruptedRuns: () => runtime.runs.interruptedRuns(),
    openSessionSummary: (sessionId: string, limits: (typeof openings)[number]) => {
      openings.push(limits);
      return runtime.openSessionSummary(sessionId, limits);
    },
    readLog: (sessionId: string, fromSeq: number, limit: number) =>
      runtime.readLog(sessionId, fromSeq, limit),
    send: runtime.runs.send.bind(runtime.runs),
    rewind: runtime.rewinds.rewind.bind(runtime.rewinds),
    switchToBranch: runtime.rewinds.switchToBranch.bind(runtime.rewinds),
    sessionUsage: runtime.sessionUsage.bind(runtime),
    renameSession: runtime.renameSession.bind(runtime),
  };
  const client: RuntimeClient = {
    // Only what these tests make the workbench call: anything else fails loudly.
    runtime: api as unknown as Remote<RuntimeApi>,
    callback: (listener) => listener,
    onBroadcast: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { runtime, workbench: new Workbench(client), openings, listeners, api };
}

/** A session of `turns` state-keeper turns, written through the runtime. */
async function longSession(runtime: AppRuntime, turns: number): Promise<string> {
  const { id } = await runtime.createSession();
  for (let i = 0; i < turns; i++) await runtime.runs.send(id, `set k${i} to ${i}`, () => undefined);
  return id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Workbench', () => {
  it('shows the open session under its new title as soon as it is renamed', async () => {
    const { runtime, workbench } = setUp();
    const other = (await runtime.createSession()).id;
    const id = await longSession(runtime, 1);
    await workbench.init();
    expect(workbench.snapshot.current!.summary).toMatchObject({ id, title: 'set k0 to 0' });

    await workbench.rename(id, '  Colors  ');
    expect(workbench.snapshot.error).toBeUndefined();
    expect(workbench.snapshot.current!.summary.title).toBe('Colors');
    expect(workbench.snapshot.sessions.find((s) => s.id === id)!.title).toBe('Colors');
    // Renaming another session leaves the open one's heading alone.
    await workbench.rename(other, 'Other');
    expect(workbench.snapshot.current!.summary).toMatchObject({ id, title: 'Colors' });
  });

  it('opens a session from its opening, and reads more of it on "Show earlier"', async () => {
    const { runtime, workbench, openings } = setUp();
    await longSession(runtime, 60);
    await workbench.init();
    const current = workbench.snapshot.current!;
    expect(openings).toEqual([OPENING]);
    expect(current.activeTail).toHaveLength(50);
    const view = sessionView(current);
    expect(view.earlierMessages).toBe(true);
    expect(view.history.map((row) => row.text).at(-1)).toBe('set k59 to 59');
    expect(view.history).toHaveLength(50);
    expect(view.earlierTurns).toBe(true);

    await workbench.showEarlierTurns();
    const more = sessionView(workbench.snapshot.current!);
    expect(more.history).toHaveLength(60);
    expect(more.earlierTurns).toBe(false);
    await workbench.showEarlierMessages();
    expect(workbench.snapshot.current!.activeTail).toHaveLength(150);
    expect(openings.at(-1)).toEqual({ numActiveEvents: 150, numTurns: 100 });
  });

  it('pages through the raw log, newest first, only while the event log is open', async () => {
    const { runtime, workbench } = setUp();
    await longSession(runtime, 60);
    await workbench.init();
    const { eventCount } = workbench.snapshot.current!;
    await workbench.openLog(true);
    const log = workbench.snapshot.log!;
    expect(log.from).toBe(eventCount - LOG_PAGE);
    expect(log.entries.map(({ seq }) => seq)).toEqual(
      Array.from({ length: LOG_PAGE }, (_, i) => eventCount - LOG_PAGE + i),
    );
    await workbench.showEarlierLog();
    expect(workbench.snapshot.log!.from).toBe(Math.max(0, eventCount - 2 * LOG_PAGE));
    expect(workbench.snapshot.log!.entries.at(-1)!.seq).toBe(eventCount - 1);
    await workbench.openLog(false);
    expect(workbench.snapshot.log).toBeUndefined();
  });

  it('extends the open session with each stored event of its run, and reads it again at the end', async () => {
    const { runtime, workbench, openings } = setUp();
    await longSession(runtime, 3);
    await workbench.init();
    const tails: number[] = [];
    const unsubscribe = workbench.subscribe(() => {
      if (workbench.snapshot.running) tails.push(workbench.snapshot.current!.activeTail.length);
    });
    await workbench.send('set color to red');
    unsubscribe();
    // The tail grew during the run (the stored events), and the opening was read once at its end.
    expect(Math.max(...tails)).toBeGreaterThan(tails[0]!);
    expect(openings).toHaveLength(2);
    const current = workbench.snapshot.current!;
    expect(current.state).toMatchObject({ color: 'red' });
    const messages = sessionView(current).chat.filter((item) => item.kind === 'message');
    expect(messages.at(-1)).toMatchObject({ text: 'color is now red.' });
    expect(sessionView(current).history.at(-1)!.text).toBe('set color to red');
  });

  it('titles a new session’s heading by its first message while the run is under way', async () => {
    const { runtime, workbench } = setUp();
    const { id } = await runtime.createSession();
    await workbench.init();
    await workbench.open(id);
    const before = workbench.snapshot.current!.summary.title;
    const titles = new Set<string>();
    const unsubscribe = workbench.subscribe(() => {
      const { running, current } = workbench.snapshot;
      if (running) titles.add(current!.summary.title);
    });
    await workbench.send('set a to b');
    unsubscribe();
    expect(before).not.toBe('set a to b');
    expect(titles).toContain('set a to b');
  });

  it('shows the message being sent as not saved until it is stored, then as part of the log', async () => {
    const { runtime, workbench } = setUp();
    const { id } = await runtime.createSession();
    await workbench.init();
    await workbench.open(id);
    // Each change: the unsaved message, and whether the log (the tail) has it.
    const seen: { sent: string | undefined; inLog: boolean }[] = [];
    const unsubscribe = workbench.subscribe(() => {
      const { sent, current } = workbench.snapshot;
      const inLog = current!.activeTail.some(
        ({ event }) => event.author === 'user' && event.content?.parts[0]?.text === 'set a to b',
      );
      seen.push({ sent, inLog });
    });
    const sending = workbench.send('set a to b');
    // At once, before the worker has stored anything: shown as not saved, not in the log.
    expect(workbench.snapshot.sent).toBe('set a to b');
    await sending;
    unsubscribe();
    const stored = seen.findIndex((change) => change.inLog);
    expect(stored).toBeGreaterThan(0);
    // Never both, never neither while the run is under way: from unsaved straight to stored.
    expect(seen.slice(0, stored).every((change) => change.sent === 'set a to b')).toBe(true);
    expect(seen.slice(stored).every((change) => change.sent === undefined)).toBe(true);
    expect(seen.at(-1)!.inLog).toBe(true);
  });

  it('follows another tab’s changes at most every 150 ms, and a rewind at once', async () => {
    const { runtime, workbench, openings, listeners } = setUp();
    const id = await longSession(runtime, 3);
    await workbench.init();
    // Another tab's run: a burst of stored events reads the opening again, not once each.
    let changes = 0;
    listeners.add((message) => {
      if (message.type === 'session-changed') changes++;
    });
    await runtime.runs.send(id, 'set size to large', () => undefined);
    await sleep(300);
    expect(changes).toBeGreaterThan(3);
    expect(openings.length - 1).toBeGreaterThan(0);
    expect(openings.length - 1).toBeLessThan(changes);
    expect(workbench.snapshot.current!.state).toMatchObject({ size: 'large' });

    const [, second] = sessionView(workbench.snapshot.current!).history;
    await workbench.rewind(second!.invocationId);
    expect(sessionView(workbench.snapshot.current!).history.map((row) => row.text)).toEqual([
      'set k0 to 0',
      'set k1 to 1',
    ]);
    expect(workbench.snapshot.current!.state).not.toHaveProperty('size');

    // The branch just left is offered by its first turn; the worker finds what brings it back.
    const branch = sessionView(workbench.snapshot.current!).history.find((row) => !row.active)!;
    expect(branch.operations.switchToBranch).toEqual({ invocationId: second!.invocationId });
    await workbench.switchToBranch(branch.invocationId);
    const rows = sessionView(workbench.snapshot.current!).history;
    expect(rows.map((row) => [row.text, row.active])).toEqual([
      ['set k0 to 0', true],
      ['set k1 to 1', true],
      ['set k2 to 2', true],
      ['set size to large', true],
    ]);
    expect(workbench.snapshot.current!.state).toMatchObject({ size: 'large' });
  });

  it('shows a run that failed with an AbortError nobody asked for, and not a run the user stopped', async () => {
    const { runtime, workbench, api } = setUp();
    await longSession(runtime, 1);
    await workbench.init();
    // A tool's own request that gave up, say: the run was not cancelled (its message was
    // stored first, as the worker stores it before any agent runs).
    api.send = async (_sessionId: string, _text: string, onEvent: (event: Event) => void) => {
      onEvent(storedMessage('go'));
      throw new DOMException('The tool’s request gave up.', 'AbortError');
    };
    await workbench.send('go');
    expect(workbench.snapshot.error).toBe('The tool’s request gave up.');

    workbench.dismiss();
    let stopped!: () => void;
    const stopping = new Promise<void>((resolve) => (stopped = resolve));
    Object.assign(api, { stop: () => stopped() });
    api.send = async (_sessionId: string, _text: string, onEvent: (event: Event) => void) => {
      onEvent(storedMessage('go again'));
      await stopping;
      throw new DOMException('The run was stopped.', 'AbortError');
    };
    const run = workbench.send('go again');
    workbench.stop();
    await run;
    expect(workbench.snapshot.error).toBeUndefined();
  });

  it('says what a rewind did, and its undo brings back the turn it left', async () => {
    const { runtime, workbench } = setUp();
    const id = await longSession(runtime, 2);
    await workbench.init();
    const second = sessionView(workbench.snapshot.current!).history.at(-1)!;
    expect(second.text).toBe('set k1 to 1');

    await workbench.rewind(second.invocationId);
    expect(workbench.snapshot.rewind?.said).toBe('Rewound to before “set k1 to 1”.');
    expect(workbench.snapshot.current!.state).toEqual({ k0: '0' });

    await workbench.undoRewind();
    expect(workbench.snapshot.rewind).toBeUndefined();
    expect(workbench.snapshot.notice).toMatch(/Undone/);
    expect(workbench.snapshot.current!.state).toEqual({ k0: '0', k1: '1' });
    const history = sessionView(workbench.snapshot.current!).history;
    expect(history.filter((row) => row.active).map((row) => row.text)).toEqual([
      'set k0 to 0',
      'set k1 to 1',
    ]);
    // A new turn ends the note.
    await workbench.send('set k2 to 2');
    expect(workbench.snapshot.rewind).toBeUndefined();
    expect((await runtime.openSession(id)).state).toMatchObject({ k2: '2' });
  });

  it('counts the session’s usage when it opens, and follows its run', async () => {
    const { runtime, workbench } = setUp();
    await longSession(runtime, 2);
    await workbench.init();
    await sleep(20);
    const before = workbench.snapshot.usage!.calls;
    expect(before).toBeGreaterThan(0);
    await workbench.send('set k9 to 9');
    await sleep(20);
    expect(workbench.snapshot.usage!.calls).toBeGreaterThan(before);
  });
});

/** The user's message as the worker hands it to the page once stored. */
function storedMessage(text: string): Event {
  return {
    id: `m-${text}`,
    invocationId: `i-${text}`,
    author: 'user',
    timestamp: Date.now(),
    content: { role: 'user', parts: [{ text }] },
    actions: { stateDelta: {}, artifactDelta: {} },
  };
}
