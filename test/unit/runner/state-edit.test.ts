// Editing state by hand (issue 17): the edit is a turn of its own in the log, the next model call
// sees it, a rewind takes it back, and a bad edit writes nothing.

import { afterEach, describe, expect, it } from 'vitest';
import {
  LlmAgent,
  ScriptedModel,
  activeEvents,
  branchTree,
  editSessionState,
  isStateEdit,
  stateEditText,
} from '../../../src/index.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { openRunnerSession, userId } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

describe.each(serviceKinds)('editSessionState ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(state?: Record<string, unknown>) {
    services = kind.open();
    const model = new ScriptedModel(() => 'ok');
    const agent = new LlmAgent({
      name: 'keeper',
      model,
      instruction: 'Color: {color?}. Proto: {__proto__?}.',
    });
    const session = await openRunnerSession(services, agent, state ? { state } : {});
    return { ...session, model };
  }

  it('appends an event of the user, with no content, in an invocation of its own', async () => {
    const { runner, sessionId, run, read } = await setUp();
    await run('hello');
    const stored = await runner.editState({ userId, sessionId, changes: { color: 'blue' } });
    expect(stored).toMatchObject({ author: 'user', actions: { stateDelta: { color: 'blue' } } });
    expect(stored.content).toBeUndefined();
    expect(isStateEdit(stored)).toBe(true);
    const session = await read();
    expect(session.events.at(-1)).toEqual(stored);
    const earlier = session.events.slice(0, -1).map((event) => event.invocationId);
    expect(earlier).not.toContain(stored.invocationId);
    expect(session.state).toMatchObject({ color: 'blue' });
  });

  it('is a turn titled with what it changed', async () => {
    const { sessionId, runner, read } = await setUp({ size: 3 });
    await editSessionState(runner, {
      userId,
      sessionId,
      changes: { a: 1, b: 'two', size: null, long: 'x'.repeat(100) },
    });
    const tree = branchTree((await read()).events);
    expect(tree.turns.map((turn) => turn.text)).toEqual([
      `State edited: a = 1, b = two, size removed, long = ${'x'.repeat(39)}…`,
    ]);
    // The session's initial state, recorded the same way but unmarked, is no turn.
    expect(tree.turns).toHaveLength(1);
    const summary = await services.sessionService.getSessionSummary({
      appName: runner.appName,
      userId,
      sessionId,
    });
    expect(summary!.activePath.map((turn) => turn.text)).toEqual([tree.turns[0]!.text]);
    expect(summary!.activePath[0]!.editable).toBe(false);
  });

  it('is seen by the next model call', async () => {
    const { runner, sessionId, run, model } = await setUp();
    await run('first');
    expect(model.requests[0]!.systemInstruction).toContain('Color: .');
    // JSON.parse makes `__proto__` an own key, as the State panel's JSON does.
    const changes = JSON.parse('{"color": "blue", "__proto__": "p"}') as Record<string, unknown>;
    await runner.editState({ userId, sessionId, changes });
    await run('second');
    expect(model.requests[1]!.systemInstruction).toContain('Color: blue. Proto: p.');
    // The edit added nothing to what the model reads of the conversation.
    expect(model.requests[1]!.contents.map((content) => content.role)).toEqual([
      'user',
      'model',
      'user',
    ]);
  });

  it('is taken back by a rewind to before it, like any turn', async () => {
    const { runner, sessionId, run, read, rewind, model } = await setUp({ color: 'red' });
    await run('first');
    const edit = await runner.editState({
      userId,
      sessionId,
      changes: { color: 'blue', extra: [1], 'user:name': 'Ada' },
    });
    await rewind(edit.invocationId);
    const session = await read();
    expect(session.state).toMatchObject({ color: 'red', 'user:name': 'Ada' });
    expect(Object.hasOwn(session.state, 'extra')).toBe(false);
    expect(activeEvents(session.events).some((event) => isStateEdit(event))).toBe(false);
    await run('second');
    expect(model.requests[1]!.systemInstruction).toContain('Color: red.');
  });

  it('edits and removes a key named __proto__ as any other', async () => {
    const { runner, sessionId, read } = await setUp();
    const changes = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<
      string,
      unknown
    >;
    await runner.editState({ userId, sessionId, changes });
    const state = (await read()).state;
    expect(Object.getOwnPropertyDescriptor(state, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.hasOwn(state, 'constructor')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await runner.editState({ userId, sessionId, changes: JSON.parse('{"__proto__": null}') });
    expect(Object.hasOwn((await read()).state, '__proto__')).toBe(false);
    expect(stateEditText(JSON.parse('{"__proto__": null}'))).toBe(
      'State edited: __proto__ removed',
    );
  });

  it.each([
    ['no change', {}],
    ['an empty key', { '': 1 }],
    ['a blank key', { '  ': 1 }],
    ['a temp: key', { 'temp:x': 1 }],
    ['undefined', { a: undefined }],
    ['NaN', { a: Number.NaN }],
    ['a function', { a: () => 1 }],
    ['a date', { a: new Date(0) }],
    ['a cycle', { a: cyclic() }],
    ['a value that changes nothing', { color: 'red', missing: null }],
  ])('refuses %s and writes nothing', async (_, changes) => {
    const { runner, sessionId, read } = await setUp({ color: 'red' });
    const before = await read();
    const error = await rejectionOf(runner.editState({ userId, sessionId, changes }));
    expect(error.name).toBe('InvalidRequestError');
    const after = await read();
    expect(after.events).toHaveLength(before.events.length);
    expect(after.state).toEqual(before.state);
  });

  it('refuses a session it does not know', async () => {
    const { runner } = await setUp();
    const error = await rejectionOf(
      runner.editState({ userId, sessionId: 'nope', changes: { a: 1 } }),
    );
    expect(error.name).toBe('SessionNotFoundError');
  });
});

function cyclic(): unknown {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
}
