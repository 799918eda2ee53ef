// A session's usage totals in the app: counted over the raw log (rewound answers too), kept so
// that only what was written since is counted again, and gone with the session.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { modelTimingOf, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName } from '../../support/helpers.ts';

function open(dbName = freshDbName()) {
  return new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: () => {},
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}

const answers = (events: Event[]) => events.filter((event) => modelTimingOf(event));

describe('session usage', () => {
  it('counts every model answer of the log, rewound ones too, and follows new turns', async () => {
    const dbName = freshDbName();
    const runtime = open(dbName);
    const { id } = await runtime.createSession();
    expect(await runtime.sessionUsage(id)).toEqual({
      calls: 0,
      promptTokens: 0,
      outputTokens: 0,
      modelMs: 0,
    });
    await runtime.runs.send(id, 'set color to red', () => {});
    await runtime.runs.send(id, 'what is color', () => {});
    const log = (await runtime.openSession(id)).events;
    const counted = answers(log);
    // The demo model reports no tokens; each of its answers has a timing.
    expect(counted.length).toBeGreaterThanOrEqual(4);
    const usage = await runtime.sessionUsage(id);
    expect(usage).toMatchObject({ calls: counted.length, promptTokens: 0, outputTokens: 0 });
    expect(usage.modelMs).toBe(counted.reduce((ms, e) => ms + modelTimingOf(e)!.totalMs, 0));

    // A rewind does not take back what was spent; a new turn adds to it, in another runtime on
    // the same database too (the count is kept, and only the events since are counted).
    const second = log.find(
      (e) => e.author === 'user' && e.content?.parts[0]?.text === 'what is color',
    )!;
    await runtime.rewinds.rewind(id, second.invocationId);
    expect((await runtime.sessionUsage(id)).calls).toBe(counted.length);
    const other = open(dbName);
    await other.runs.send(id, 'unset color', () => {});
    const after = answers((await other.openSession(id)).events).length;
    expect(after).toBeGreaterThan(counted.length);
    expect((await runtime.sessionUsage(id)).calls).toBe(after);
  });

  it('forgets the totals with the session', async () => {
    const dbName = freshDbName();
    const runtime = open(dbName);
    const { id } = await runtime.createSession();
    await runtime.runs.send(id, 'set a to 1', () => {});
    expect((await runtime.sessionUsage(id)).calls).toBeGreaterThan(0);
    await runtime.deleteSession(id);
    await expect(runtime.sessionUsage(id)).resolves.toMatchObject({ calls: 0 });
  });
});
