// Long state values (issue 19): an opening sends each one as a preview, never whole, so that the
// page's cost per turn does not grow with them; the page reads one whole only when asked (Show
// all, Download, Edit), follows a run's state by its deltas, and edits a long key from its preview.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createEvent, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { withLongValuesCut } from '../../../workers/sessions/openings.ts';
import { LONG_STATE_CHARS, type SessionOpening } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { sessionView } from '../../../src/ui/workbench/session-view.ts';
import { STATE_VALUE_CHARS } from '../../../src/ui/state/state-model.ts';
import {
  NO_CHANGES,
  editorRows,
  onlyPreviewOf,
  withChange,
} from '../../../src/ui/state/state-edit-model.ts';
import { withStoredEvent } from '../../../src/ui/workbench/workbench-state.ts';
import { freshDbName } from '../../support/helpers.ts';

const long = 'x'.repeat(LONG_STATE_CHARS + 1);
const longObject = { items: Array.from({ length: 1000 }, (_, i) => ({ i, name: `item ${i}` })) };

describe('an opening’s long state values', () => {
  it.each([
    ['a short text', 'red', false],
    ['a text of exactly the limit', 'x'.repeat(LONG_STATE_CHARS), false],
    ['a longer text', long, true],
    ['a small object', { a: [1, 2] }, false],
    ['an object whose JSON is long', longObject, true],
  ])('sends %s', (_, value, cut) => {
    const { state, longState } = withLongValuesCut({ key: value, other: 1 });
    expect(state).toEqual(cut ? { other: 1 } : { key: value, other: 1 });
    if (!cut) return expect(longState).toBeUndefined();
    expect(longState!.key!.truncated).toBe(true);
    expect(longState!.key!.text.length).toBe(LONG_STATE_CHARS);
  });

  it('keeps a long key named __proto__ as an own key', () => {
    const whole = JSON.parse(`{"__proto__": "${long}"}`) as Record<string, unknown>;
    const { longState } = withLongValuesCut(whole);
    expect(Object.getOwnPropertyDescriptor(longState, '__proto__')?.value.length).toBe(long.length);
  });

  it('is read with its long values as previews, and one of them whole on request', async () => {
    const runtime = new AppRuntime({
      dbName: freshDbName(),
      locks: inProcessLocks(),
      broadcast: () => {},
      timing: { thinkMs: 0, chunkDelayMs: 0 },
    });
    const { id } = await runtime.createSession();
    await runtime.stateEdits.editState(id, { big: longObject, color: 'red' });
    await runtime.runs.send(id, 'set size to 3', () => {});
    const opening = await runtime.openSessionSummary(id);
    expect(opening.state).toEqual({ color: 'red', size: '3' });
    expect(Object.keys(opening.longState ?? {})).toEqual(['big']);
    // The state before the first turn of the tail, for the Checkpoints panel: cut the same way.
    const last = await runtime.openSessionSummary(id, { numActiveEvents: 1 });
    expect(Object.keys(last.tailStart?.longState ?? {})).toEqual(['big']);
    expect(await runtime.stateValue(id, 'big')).toEqual(longObject);
    expect(await runtime.stateValue(id, 'missing')).toBeUndefined();
  });
});

function opening(state: Record<string, unknown>, longState?: SessionOpening['longState']) {
  return {
    summary: { id: 's', title: 't', agentId: 'state-keeper', createdAt: 0, lastUpdateTime: 0 },
    state,
    ...(longState ? { longState } : {}),
    eventCount: 0,
    activeTail: [],
    activeComplete: true,
    activePath: [],
    pathComplete: true,
    artifacts: [],
  } as unknown as SessionOpening;
}

const stored = (stateDelta: Record<string, unknown>): Event =>
  createEvent({ invocationId: 'i', author: 'state_keeper', actions: { stateDelta } });

describe('the page’s long state values', () => {
  const { longState } = withLongValuesCut({ big: long });

  it('shows a long value from its preview, cut to what the panel shows', () => {
    const [session] = sessionView(opening({ color: 'red' }, longState)).state;
    expect(session!.entries.map(({ key, long }) => [key, long])).toEqual([
      ['big', true],
      ['color', false],
    ]);
    const big = session!.entries[0]!;
    expect(big.value).toBeUndefined();
    expect(big.preview).toMatchObject({ truncated: true, length: long.length });
    expect(big.preview.text.length).toBe(STATE_VALUE_CHARS);
  });

  it('follows a run by its deltas: an event that changes nothing keeps the state derived', () => {
    const before = opening({ color: 'red' }, longState);
    const quiet = withStoredEvent(before, stored({}));
    expect(quiet.state).toBe(before.state);
    expect(sessionView(quiet).state).toBe(sessionView(before).state);
    // A key set by the run holds the event's value, whole: no longer a long one.
    const set = withStoredEvent(quiet, stored({ big: 'short now' }));
    expect(set.state).toEqual({ color: 'red', big: 'short now' });
    expect(set.longState).toEqual({});
  });

  it('edits a long key from its preview: removed, or set after reading it whole', () => {
    expect(onlyPreviewOf(NO_CHANGES, 'big', longState)).toBe(true);
    const removed = withChange({}, NO_CHANGES, 'big', null, longState);
    expect(removed).toEqual({ big: null });
    expect(editorRows({}, removed, longState).map((row) => [row.key, row.status])).toEqual([
      ['big', 'removed'],
    ]);
    // The page cannot tell a value set from the one stored: it is a change (the runner drops it
    // if it changes nothing).
    const set = withChange({}, NO_CHANGES, 'big', long, longState);
    expect(editorRows({}, set, longState).map((row) => row.status)).toEqual(['changed']);
    expect(onlyPreviewOf(set, 'big', longState)).toBe(false);
    expect(editorRows({}, NO_CHANGES, longState)[0]!.preview.text.length).toBeLessThan(200);
  });
});
