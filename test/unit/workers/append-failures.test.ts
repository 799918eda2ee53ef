// The app when IndexedDB rolls back an append during a run, as Chromium once did when resuming
// the example flow after a reload (e2e flows test): the runtime's promise rejects with a
// StorageError, the page shows it, and the run can be tried again.

import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Workbench, type RuntimeClient } from '../../../src/ui/workbench/workbench.ts';
import { AppRuntime } from '../../../workers/app.ts';
import type { RuntimeBroadcast } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { inProcessApi } from '../../support/app-runtime.ts';
import { CommitRollbacks } from '../../support/failing-appends.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

const rollbacks = new CommitRollbacks();
beforeAll(() => rollbacks.install());
afterAll(() => rollbacks.uninstall());
afterEach(() => rollbacks.failAppend(0));

const STORAGE_MESSAGE = /storage did not save this change/;

function open() {
  const broadcasts: RuntimeBroadcast[] = [];
  const listeners = new Set<(message: RuntimeBroadcast) => void>();
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: (message) => {
      broadcasts.push(message);
      listeners.forEach((listener) => listener(message));
    },
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  const client: RuntimeClient = {
    // The runtime in-process stands in for the worker: every call goes straight to it.
    runtime: inProcessApi(runtime),
    callback: (listener) => listener,
    onBroadcast: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { runtime, broadcasts, workbench: new Workbench(client) };
}

/**
 * A session of the example support flow, run to its end (approved), then rewound to before its
 * `check` node: its run is offered for resumption, as after the e2e test's reload.
 */
async function rewoundSupport(runtime: AppRuntime): Promise<{ id: string; invocationId: string }> {
  const { id } = await runtime.createSession('example:support');
  await runtime.runs.send(id, 'Is invoice INV-1042 paid?', () => undefined);
  for (let i = 0; i < 5; i++) {
    const { events } = await runtime.openSession(id);
    const answered = new Set(
      events.flatMap((e) => e.content?.parts.map((p) => p.functionResponse?.id) ?? []),
    );
    const pending = events
      .flatMap((e) => e.content?.parts.map((p) => p.functionCall) ?? [])
      .find((call) => call?.name === 'adk_request_confirmation' && !answered.has(call.id));
    if (!pending) break;
    await runtime.runs.answer(id, pending.id!, true, undefined, () => undefined);
  }
  const { events } = await runtime.openSession(id);
  const check = events.find((e) => e.actions.agentState?.['current_node'] === 'check')!;
  await runtime.rewinds.rewindToCheckpoint(id, check.id);
  return { id, invocationId: check.invocationId };
}

/** The flow's completed nodes in the active conversation's last invocation. */
async function completedNodes(runtime: AppRuntime, sessionId: string): Promise<unknown[]> {
  const opening = await runtime.openSessionSummary(sessionId);
  return opening.activeTail
    .map(({ event }) => event.actions.agentState?.['completed_node'])
    .filter((node) => node !== undefined);
}

describe('the app, when IndexedDB rolls back an append of a run', () => {
  it('rejects send with a StorageError, keeps what was stored, and sends again', async () => {
    const { runtime, broadcasts } = open();
    const { id } = await runtime.createSession();
    rollbacks.failAppend(2); // the user's message is stored, the agent's reply is not
    const error = await rejectionOf(runtime.runs.send(id, 'set color to red', () => undefined));
    expect(rollbacks.tripped).toBe(true);
    expect(error.name).toBe('StorageError');
    expect(error.message).toMatch(STORAGE_MESSAGE);
    expect(broadcasts.at(-2)).toEqual({ type: 'busy-changed', sessionId: id, busy: false });
    const { events, state } = await runtime.openSession(id);
    expect(events.map((event) => event.author)).toEqual(['user']);
    expect(state).toEqual({});

    await runtime.runs.send(id, 'set color to blue', () => undefined);
    expect((await runtime.openSession(id)).state).toEqual({ color: 'blue' });
  });

  it('rejects resume of a flow rewound to before a node, which can then be resumed', async () => {
    const { runtime } = open();
    const { id, invocationId } = await rewoundSupport(runtime);
    const before = (await runtime.openSession(id)).events.length;
    expect(await runtime.runs.interruptedRuns()).toMatchObject([{ sessionId: id, invocationId }]);

    rollbacks.failAppend(1);
    const error = await rejectionOf(runtime.runs.resume(id, invocationId, () => undefined));
    expect(error.name).toBe('StorageError');
    expect((await runtime.openSession(id)).events).toHaveLength(before);

    await runtime.runs.resume(id, invocationId, () => undefined);
    expect((await completedNodes(runtime, id)).slice(-2)).toEqual(['check', 'end']);
  });

  it('shows the error on the page when resuming fails, instead of staying stopped silently', async () => {
    const { runtime, workbench } = open();
    const { id, invocationId } = await rewoundSupport(runtime);
    await workbench.init();
    const run = workbench.snapshot.interrupted.find((item) => item.invocationId === invocationId)!;
    expect(run).toMatchObject({ sessionId: id, status: 'interrupted' });

    rollbacks.failAppend(1);
    await workbench.resume(run);
    expect(workbench.snapshot.running).toBe(false);
    expect(workbench.snapshot.error).toMatch(STORAGE_MESSAGE);

    workbench.dismiss();
    await workbench.resume(run);
    expect(workbench.snapshot.error).toBeUndefined();
    expect((await completedNodes(runtime, id)).slice(-2)).toEqual(['check', 'end']);
  });
});
