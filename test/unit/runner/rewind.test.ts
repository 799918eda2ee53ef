// Rewind: ADK's own cases written against this API, plus what ADK gets wrong (initial state,
// atomicity) and the edge cases of a log that becomes a tree.

import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseAgent,
  InvocationContext,
  Runner,
  activeEvents,
  createEvent,
  type Event,
  type Part,
} from '../../../src/index.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'test_app';
const userId = 'test_user';
const text = (value: string): Part => ({ text: value });

/** An agent that is never run: these tests write the log directly, as ADK's do. */
class IdleAgent extends BaseAgent {
  protected override async *runAsyncImpl(_: InvocationContext): AsyncGenerator<Event, void> {}
}

describe.each(serviceKinds)('rewindAsync ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(initialState?: Record<string, unknown>) {
    services = kind.open();
    const runner = new Runner({
      appName,
      agent: new IdleAgent({ name: 'test_agent' }),
      ...services,
    });
    const session = await services.sessionService.createSession({
      appName,
      userId,
      sessionId: 'test_session',
      ...(initialState ? { state: initialState } : {}),
    });
    const sessionKey = { appName, userId, sessionId: session.id };
    /** Writes one invocation: its artifacts first, then an agent event recording the change. */
    const invocation = async (
      invocationId: string,
      stateDelta: Record<string, unknown>,
      artifacts: Record<string, string> = {},
    ) => {
      const artifactDelta: Record<string, number> = {};
      for (const [filename, content] of Object.entries(artifacts)) {
        artifactDelta[filename] = await services.artifactService.saveArtifact({
          ...sessionKey,
          filename,
          artifact: text(content),
        });
      }
      await services.sessionService.appendEvent({
        session,
        event: createEvent({
          invocationId,
          author: 'agent',
          actions: { stateDelta, artifactDelta },
        }),
      });
    };
    const read = async () => (await services.sessionService.getSession(sessionKey))!;
    const load = (filename: string, version?: number) =>
      services.artifactService.loadArtifact({
        ...sessionKey,
        filename,
        ...(version === undefined ? {} : { version }),
      });
    const rewind = (target: string) =>
      runner.rewindAsync({ userId, sessionId: session.id, rewindBeforeInvocationId: target });
    return { runner, session, sessionKey, invocation, read, load, rewind };
  }

  /** ADK's fixture: inv1 sets k1 and saves f1; inv2 changes k1, sets k2, saves f1 and f2; inv3 changes k2. */
  async function adkFixture() {
    const ctx = await setUp();
    await ctx.invocation('invocation1', { k1: 'v1' }, { f1: 'f1v0' });
    await ctx.invocation('invocation2', { k1: 'v2', k2: 'v2' }, { f1: 'f1v1', f2: 'f2v0' });
    await ctx.invocation('invocation3', { k2: 'v3' });
    const before = await ctx.read();
    expect(before.state).toEqual({ k1: 'v2', k2: 'v3' });
    expect(await ctx.load('f1')).toEqual(text('f1v1'));
    expect(await ctx.load('f2')).toEqual(text('f2v0'));
    return ctx;
  }

  it('restores state and artifacts to before the 2nd invocation (ADK: test_rewind_async_with_state_and_artifacts)', async () => {
    const ctx = await adkFixture();
    await ctx.rewind('invocation2');
    const after = await ctx.read();
    expect(after.state).toEqual({ k1: 'v1' });
    expect(await ctx.load('f1')).toEqual(text('f1v0'));
    expect(await ctx.load('f2')).toBeUndefined();
  });

  it('restores state and artifacts to before the 3rd invocation (ADK: test_rewind_async_not_first_invocation)', async () => {
    const ctx = await adkFixture();
    await ctx.rewind('invocation3');
    expect((await ctx.read()).state).toEqual({ k1: 'v2', k2: 'v2' });
    expect(await ctx.load('f1')).toEqual(text('f1v1'));
    expect(await ctx.load('f2')).toEqual(text('f2v0'));
  });

  it('writes one marker: author user, its own invocation, the deltas it applied, the versions it wrote', async () => {
    const ctx = await adkFixture();
    const marker = await ctx.rewind('invocation2');
    expect(marker).toMatchObject({
      author: 'user',
      actions: {
        rewindBeforeInvocationId: 'invocation2',
        stateDelta: { k1: 'v1', k2: null },
        artifactDelta: { f1: 2, f2: 1 },
      },
    });
    expect(marker.content).toBeUndefined();
    const log = (await ctx.read()).events;
    expect(log.at(-1)).toEqual(marker);
    expect(new Set(log.map((e) => e.invocationId)).size).toBe(log.length); // a fresh invocation id
    // The old bytes were saved again as a new version; the removed file got a tombstone.
    expect(
      await services.artifactService.listVersions({ ...ctx.sessionKey, filename: 'f1' }),
    ).toEqual([0, 1, 2]);
    expect(await ctx.load('f1', 2)).toEqual(text('f1v0'));
    expect(
      await services.artifactService.listVersions({ ...ctx.sessionKey, filename: 'f2' }),
    ).toEqual([0, 1]);
    expect(await ctx.load('f2', 0)).toEqual(text('f2v0'));
    expect(await services.artifactService.listArtifactKeys(ctx.sessionKey)).toEqual(['f1']);
  });

  it('keeps every event in the log, and drops the rewound span from the active events', async () => {
    const ctx = await adkFixture();
    const before = (await ctx.read()).events;
    await ctx.rewind('invocation2');
    const log = (await ctx.read()).events;
    expect(log.slice(0, before.length)).toEqual(before);
    expect(activeEvents(log).map((e) => e.invocationId)).toEqual(['invocation1']);
  });

  it.each([
    [
      'preserves initial state (ADK: test_rewind_preserves_initial_session_state)',
      { tenant_id: 't1', user_pref: 'dark' },
      [
        ['invocation1', { k1: 'v1' }],
        ['invocation2', { k2: 'v2' }],
      ],
      'invocation2',
      { tenant_id: 't1', user_pref: 'dark', k1: 'v1' },
    ],
    [
      'keeps initial state when rewinding before the first invocation',
      { config_key: 'config_val' },
      [['invocation1', { k1: 'v1' }]],
      'invocation1',
      { config_key: 'config_val' },
    ],
    [
      'restores an initial value that an event overwrote',
      { tenant_id: 't_initial' },
      [['invocation1', { tenant_id: 't_event', k_new: 'v_new' }]],
      'invocation1',
      { tenant_id: 't_initial' },
    ],
    [
      'works with no initial state',
      undefined,
      [
        ['invocation1', { k1: 'v1' }],
        ['invocation2', { k2: 'v2' }],
      ],
      'invocation2',
      { k1: 'v1' },
    ],
  ] as const)('%s', async (_, initial, invocations, target, expected) => {
    const ctx = await setUp(initial ? { ...initial } : undefined);
    for (const [id, delta] of invocations) await ctx.invocation(id, { ...delta });
    await ctx.rewind(target);
    expect((await ctx.read()).state).toEqual(expected);
  });

  it('leaves app: and user: state and user: artifacts alone', async () => {
    const ctx = await setUp();
    await ctx.invocation('invocation1', { k: 1 });
    await ctx.invocation(
      'invocation2',
      { k: 2, 'app:a': 'new', 'user:u': 'new' },
      { 'user:profile': 'new', notes: 'n' },
    );
    const marker = await ctx.rewind('invocation2');
    expect(marker.actions.stateDelta).toEqual({ k: 1 });
    expect(marker.actions.artifactDelta).toEqual({ notes: 0 + 1 });
    expect((await ctx.read()).state).toEqual({ k: 1, 'app:a': 'new', 'user:u': 'new' });
    expect(await ctx.load('user:profile')).toEqual(text('new'));
    expect(await ctx.load('notes')).toBeUndefined();
  });

  it.each([
    ['an unknown session', { sessionId: 'nope', target: 'invocation1' }, 'SessionNotFoundError'],
    [
      'an unknown invocation',
      { sessionId: 'test_session', target: 'invocation404' },
      'InvocationNotFoundError',
    ],
  ])('rejects %s and writes nothing', async (_, { sessionId, target }, errorName) => {
    const ctx = await adkFixture();
    const before = await ctx.read();
    const error = await rejectionOf(
      ctx.runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: target }),
    );
    expect(error.name).toBe(errorName);
    expect(await ctx.read()).toEqual(before);
    expect(
      await services.artifactService.listVersions({ ...ctx.sessionKey, filename: 'f1' }),
    ).toEqual([0, 1]);
  });

  it('nests: a rewind of a rewound conversation goes further back', async () => {
    const ctx = await setUp();
    await ctx.invocation('invocation1', { a: 1 }, { f: 'one' });
    await ctx.invocation('invocation2', { a: 2 }, { f: 'two' });
    await ctx.invocation('invocation3', { a: 3 }, { f: 'three' });
    await ctx.rewind('invocation3');
    await ctx.invocation('invocation4', { a: 4 }, { f: 'four' });
    await ctx.rewind('invocation2');
    const session = await ctx.read();
    expect(session.state).toEqual({ a: 1 });
    expect(await ctx.load('f')).toEqual(text('one'));
    expect(activeEvents(session.events).map((e) => e.invocationId)).toEqual(['invocation1']);
  });

  it('rewinds into a span an earlier rewind hid, to how it was when that span was written', async () => {
    const ctx = await setUp();
    await ctx.invocation('invocation1', { a: 1 });
    await ctx.invocation('invocation2', { a: 2 }, { f: 'two' });
    await ctx.invocation('invocation3', { a: 3 }, { f: 'three' });
    await ctx.rewind('invocation2'); // hides 2 and 3
    await ctx.invocation('invocation4', { b: 4 });
    await ctx.rewind('invocation3'); // back inside the hidden span: after 2, before 3
    const session = await ctx.read();
    expect(session.state).toEqual({ a: 2 });
    expect(await ctx.load('f')).toEqual(text('two'));
    expect(activeEvents(session.events).map((e) => e.invocationId)).toEqual([
      'invocation1',
      'invocation2',
    ]);
  });

  it('rewinding before a marker brings back the branch it abandoned, state and artifacts included', async () => {
    const ctx = await setUp();
    await ctx.invocation('invocation1', { a: 1 }, { f: 'one' });
    await ctx.invocation('invocation2', { a: 2, b: 'x' }, { f: 'two', g: 'gee' });
    const marker = await ctx.rewind('invocation2');
    await ctx.invocation('invocation3', { c: 3 }, { f: 'three' });
    expect((await ctx.read()).state).toEqual({ a: 1, c: 3 });

    await ctx.rewind(marker.invocationId);
    const session = await ctx.read();
    expect(session.state).toEqual({ a: 2, b: 'x' });
    expect(await ctx.load('f')).toEqual(text('two'));
    expect(await ctx.load('g')).toEqual(text('gee'));
    expect(activeEvents(session.events).map((e) => e.invocationId)).toEqual([
      'invocation1',
      'invocation2',
    ]);
  });

  it.runIf(kind.persistent)('keeps rewinds across a restart, and rewinds after one', async () => {
    const ctx = await adkFixture();
    const marker = await ctx.rewind('invocation2');
    services = await services.restart();
    const restarted = new Runner({
      appName,
      agent: new IdleAgent({ name: 'test_agent' }),
      ...services,
    });
    const key = ctx.sessionKey;
    expect((await services.sessionService.getSession(key))!.state).toEqual({ k1: 'v1' });
    expect(await services.artifactService.loadArtifact({ ...key, filename: 'f2' })).toBeUndefined();
    await restarted.rewindAsync({
      userId,
      sessionId: key.sessionId,
      rewindBeforeInvocationId: marker.invocationId,
    });
    expect((await services.sessionService.getSession(key))!.state).toEqual({ k1: 'v2', k2: 'v3' });
    expect(await services.artifactService.loadArtifact({ ...key, filename: 'f2' })).toEqual(
      text('f2v0'),
    );
  });
});
