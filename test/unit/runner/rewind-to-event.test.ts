// Rewind to just after an event (`rewindAfterEventId`): time travel to a checkpoint inside an
// invocation. The session's state and artifacts become what they were right after the event,
// in one atomic write, and the events after it leave the active conversation.

import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseAgent,
  InvocationContext,
  Runner,
  activeEvents,
  createEvent,
  parseSessionFile,
  toSessionFile,
  type Event,
  type Part,
  type RewindRequest,
} from '../../../src/index.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'test_app';
const userId = 'test_user';
const sessionId = 'test_session';
const key = { appName, userId, sessionId };
const text = (value: string): Part => ({ text: value });
const ids = (events: readonly Event[]) => events.map((e) => e.id);

/** An agent that is never run: these tests write the log directly. */
class IdleAgent extends BaseAgent {
  protected override async *runAsyncImpl(_: InvocationContext): AsyncGenerator<Event, void> {}
}

describe.each(serviceKinds)('rewind to just after an event ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp() {
    services = kind.open();
    const runner = new Runner({ appName, agent: new IdleAgent({ name: 'agent' }), ...services });
    const session = await services.sessionService.createSession({
      ...key,
      state: { topic: 'tea' },
    });
    /** Appends event `id` of `invocationId`, saving its artifacts first. */
    const write = async (
      id: string,
      invocationId: string,
      stateDelta: Record<string, unknown>,
      artifacts: Record<string, string> = {},
    ) => {
      const artifactDelta: Record<string, number> = {};
      for (const [filename, content] of Object.entries(artifacts)) {
        artifactDelta[filename] = await services.artifactService.saveArtifact({
          ...key,
          filename,
          artifact: text(content),
        });
      }
      await services.sessionService.appendEvent({
        session,
        event: createEvent({
          id,
          invocationId,
          author: 'agent',
          actions: { stateDelta, artifactDelta },
        }),
      });
    };
    const read = async () => (await services.sessionService.getSession(key))!;
    const load = async (filename: string) =>
      (await services.artifactService.loadArtifact({ ...key, filename }))?.text;
    const rewind = (target: Omit<RewindRequest, 'userId' | 'sessionId'>) =>
      runner.rewindAsync({ userId, sessionId, ...target } as RewindRequest);
    const rewindAfter = (rewindAfterEventId: string) => rewind({ rewindAfterEventId });
    const rewindBefore = (rewindBeforeInvocationId: string) => rewind({ rewindBeforeInvocationId });
    /** Everything a rewind could change: the session, every version of every file, the keys. */
    const snapshot = async () => {
      const files: Record<string, unknown> = {};
      for (const filename of ['f', 'g', 'user:p']) {
        const versions = await services.artifactService.listVersions({ ...key, filename });
        files[filename] = await Promise.all(
          versions.map((version) =>
            services.artifactService.loadArtifact({ ...key, filename, version }),
          ),
        );
      }
      const keys = await services.artifactService.listArtifactKeys(key);
      return { session: await read(), files, keys };
    };
    const activeIds = async () => ids(activeEvents((await read()).events)).slice(1); // no init
    return { runner, write, read, load, rewind, rewindAfter, rewindBefore, snapshot, activeIds };
  }

  /** i1 writes e1; i2 writes e2, e3 and e4, changing state and two files; i3 writes e5. */
  async function fixture() {
    const ctx = await setUp();
    await ctx.write('e1', 'i1', { a: 1 }, { f: 'f@e1' });
    await ctx.write('e2', 'i2', { a: 2, b: 1 }, { f: 'f@e2' });
    await ctx.write('e3', 'i2', { b: 2, c: 1 }, { g: 'g@e3' });
    await ctx.write('e4', 'i2', { a: 3, c: null }, { f: 'f@e4' });
    await ctx.write('e5', 'i3', { d: 1 });
    expect((await ctx.read()).state).toEqual({ topic: 'tea', a: 3, b: 2, d: 1 });
    return ctx;
  }

  it.each([
    ['e1', { a: 1 }, 'f@e1', undefined, ['e1']],
    ['e2', { a: 2, b: 1 }, 'f@e2', undefined, ['e1', 'e2']],
    ['e3', { a: 2, b: 2, c: 1 }, 'f@e2', 'g@e3', ['e1', 'e2', 'e3']],
    ['e4', { a: 3, b: 2 }, 'f@e4', 'g@e3', ['e1', 'e2', 'e3', 'e4']],
  ])(
    'after %s: state, artifacts and active events as they were then',
    async (eventId, state, f, g, active) => {
      const ctx = await fixture();
      await ctx.rewindAfter(eventId);
      expect((await ctx.read()).state).toEqual({ topic: 'tea', ...state });
      expect(await ctx.load('f')).toBe(f);
      expect(await ctx.load('g')).toBe(g);
      expect(await ctx.activeIds()).toEqual(active);
    },
  );

  it('writes one marker: author user, its own invocation, the deltas it applied, the versions it wrote', async () => {
    const ctx = await fixture();
    const before = (await ctx.read()).events;
    const marker = await ctx.rewindAfter('e2');
    expect(marker).toMatchObject({
      author: 'user',
      actions: {
        rewindAfterEventId: 'e2',
        stateDelta: { a: 2, b: 1, d: null },
        artifactDelta: { f: 3, g: 1 },
      },
    });
    expect(marker.actions.rewindBeforeInvocationId).toBeUndefined();
    expect(marker.content).toBeUndefined();
    const log = (await ctx.read()).events;
    expect(log).toEqual([...before, marker]);
    expect(before.some((e) => e.invocationId === marker.invocationId)).toBe(false);
    // The bytes right after e2 were saved again as a new version; g, new since, got a tombstone.
    expect(await services.artifactService.listVersions({ ...key, filename: 'f' })).toEqual([
      0, 1, 2, 3,
    ]);
    expect(await services.artifactService.listArtifactKeys(key)).toEqual(['f']);
  });

  it('leaves app: and user: state and user: artifacts alone', async () => {
    const ctx = await setUp();
    await ctx.write('e1', 'i1', { k: 1, 'app:a': 'x', 'user:u': 'x' }, { 'user:p': 'p1', f: 'f1' });
    await ctx.write('e2', 'i1', { k: 2, 'app:a': 'y', 'user:u': 'y' }, { 'user:p': 'p2', f: 'f2' });
    const marker = await ctx.rewindAfter('e1');
    expect(marker.actions.stateDelta).toEqual({ k: 1 });
    expect(marker.actions.artifactDelta).toEqual({ f: 2 });
    expect((await ctx.read()).state).toEqual({ topic: 'tea', k: 1, 'app:a': 'y', 'user:u': 'y' });
    expect(await ctx.load('user:p')).toBe('p2');
    expect(await ctx.load('f')).toBe('f1');
  });

  it('nests: after a rewind to e4 and more events, a rewind to e2 goes further back', async () => {
    const ctx = await fixture();
    await ctx.rewindAfter('e4');
    await ctx.write('e6', 'i2', { c: 6 }, { g: 'g@e6' });
    await ctx.rewindAfter('e2');
    expect((await ctx.read()).state).toEqual({ topic: 'tea', a: 2, b: 1 });
    expect(await ctx.load('f')).toBe('f@e2');
    expect(await ctx.load('g')).toBeUndefined();
    expect(await ctx.activeIds()).toEqual(['e1', 'e2']);
  });

  it('rewinding before the marker brings the dropped events back, state and artifacts included', async () => {
    const ctx = await fixture();
    const before = await ctx.snapshot();
    const marker = await ctx.rewindAfter('e2');
    await ctx.write('e6', 'i2', { z: 1 }, { f: 'f@e6' });
    await ctx.rewindBefore(marker.invocationId);
    const after = await ctx.read();
    expect(after.state).toEqual(before.session.state);
    expect(await ctx.load('f')).toBe('f@e4');
    expect(await ctx.load('g')).toBe('g@e3');
    expect(ids(activeEvents(after.events))).toEqual(ids(before.session.events));
  });

  it('rewinds inside an invocation that a rewind already cut short, counting that rewind', async () => {
    const ctx = await fixture();
    await ctx.rewindAfter('e2'); // i2 goes on from e2: e3, e4 and e5 are dropped
    await ctx.write('e6', 'i2', { c: 9 }, { g: 'g@e6' });
    await ctx.write('e7', 'i2', { a: 7 });
    await ctx.rewindAfter('e6');
    expect((await ctx.read()).state).toEqual({ topic: 'tea', a: 2, b: 1, c: 9 });
    expect(await ctx.load('f')).toBe('f@e2');
    expect(await ctx.load('g')).toBe('g@e6');
    expect(await ctx.activeIds()).toEqual(['e1', 'e2', 'e6']);
  });

  it('keeps what another turn wrote between two events of a paused invocation', async () => {
    const ctx = await setUp();
    await ctx.write('e1', 'i1', { a: 1 }); // i1 pauses (a long-running tool, say)
    await ctx.write('e2', 'i2', { b: 1 }, { f: 'f@e2' }); // another turn meanwhile
    await ctx.write('e3', 'i1', { a: 3 }); // i1 resumes
    await ctx.write('e4', 'i1', { a: 4, b: 4 }, { f: 'f@e4' });
    await ctx.rewindAfter('e3');
    expect((await ctx.read()).state).toEqual({ topic: 'tea', a: 3, b: 1 });
    expect(await ctx.load('f')).toBe('f@e2');
    expect(await ctx.activeIds()).toEqual(['e1', 'e2', 'e3']);
  });

  it.each([
    [
      'an unknown session',
      { sessionId: 'nope', rewindAfterEventId: 'e2' },
      'SessionNotFoundError',
      /nope/,
    ],
    [
      'an unknown event',
      { rewindAfterEventId: 'e404' },
      'EventNotFoundError',
      /e404.*test_session/,
    ],
    ['a rewound event', { rewindAfterEventId: 'e3' }, 'InvalidRequestError', /e3 was rewound/],
    ['a marker', { rewindAfterEventId: 'marker' }, 'InvalidRequestError', /marker/],
    [
      'the last active event',
      { rewindAfterEventId: 'e2' },
      'InvalidRequestError',
      /nothing to rewind/,
    ],
    ['no target', {}, 'InvalidRequestError', /needs rewindBeforeInvocationId/],
    [
      'two targets',
      { rewindAfterEventId: 'e1', rewindBeforeInvocationId: 'i2' },
      'InvalidRequestError',
      /not both/,
    ],
  ])('rejects %s and writes nothing', async (_, request, errorName, message) => {
    const ctx = await fixture();
    const marker = await ctx.rewindAfter('e2'); // e3, e4 and e5 are rewound; e2 is the last
    const target = { ...request } as Record<string, string>;
    if (target.rewindAfterEventId === 'marker') target.rewindAfterEventId = marker.id;
    const before = await ctx.snapshot();
    const error = await rejectionOf(ctx.rewind(target as never));
    expect(error.name).toBe(errorName);
    expect(error.message).toMatch(message);
    expect(await ctx.snapshot()).toEqual(before);
  });

  it('exports and imports such a marker, and the imported session rewinds alike', async () => {
    const ctx = await fixture();
    await ctx.rewindAfter('e3');
    const source = await ctx.read();
    const parsed = parseSessionFile(toSessionFile(source));
    // With artifacts, as the source was rewound: the marker's deltas, worked out again on import
    // from the log, come out as the source's.
    const imported = await services.sessionService.importSession({
      appName,
      userId,
      events: parsed.events,
      artifactService: services.artifactService,
    });
    expect(imported.events).toEqual(source.events);
    expect(imported.state).toEqual(source.state);
    expect(ids(activeEvents(imported.events))).toEqual(ids(activeEvents(source.events)));
    await services.sessionService.rewindSession({
      appName,
      userId,
      sessionId: imported.id,
      rewindAfterEventId: 'e2',
    });
    const rewound = await services.sessionService.getSession({ ...key, sessionId: imported.id });
    expect(rewound!.state).toEqual({ topic: 'tea', a: 2, b: 1 });
  });

  it.runIf(kind.persistent)(
    'keeps the rewind across a restart, and undoes it after one',
    async () => {
      const ctx = await fixture();
      const marker = await ctx.rewindAfter('e2');
      services = await services.restart();
      expect((await services.sessionService.getSession(key))!.state).toEqual({
        topic: 'tea',
        a: 2,
        b: 1,
      });
      await services.sessionService.rewindSession({
        ...key,
        rewindBeforeInvocationId: marker.invocationId,
        artifactService: services.artifactService,
      });
      const session = (await services.sessionService.getSession(key))!;
      expect(session.state).toEqual({ topic: 'tea', a: 3, b: 2, d: 1 });
      expect((await services.artifactService.loadArtifact({ ...key, filename: 'g' }))?.text).toBe(
        'g@e3',
      );
    },
  );
});

describe('parseSessionFile and rewind markers', () => {
  const fileWith = (actions: Record<string, unknown>) =>
    JSON.stringify({
      events: [
        { id: 'x', invocationId: 'd', author: 'user', timestamp: 1 },
        { id: 'm', invocationId: 'e', author: 'user', timestamp: 1, actions },
      ],
    });

  it('accepts a marker to just after an event', () => {
    const { events } = parseSessionFile(fileWith({ rewindAfterEventId: 'x', stateDelta: {} }));
    expect(events[1]!.actions).toEqual({
      rewindAfterEventId: 'x',
      stateDelta: {},
      artifactDelta: {},
    });
  });

  it.each([
    [{ rewindAfterEventId: 3 }, /rewindAfterEventId must be a non-empty string/],
    [{ rewindBeforeInvocationId: '' }, /rewindBeforeInvocationId must be a non-empty string/],
    [{ rewindAfterEventId: 'x', rewindBeforeInvocationId: 'y' }, /names both/],
    [
      { rewindAfterEventId: 'nowhere' },
      /events\[1\] is a rewind marker to event "nowhere", which is not before it/,
    ],
    [{ rewindBeforeInvocationId: 'e' }, /rewind marker to invocation "e", which is not before it/],
  ])('rejects %j', (actions, message) => {
    let error: Error | undefined;
    try {
      parseSessionFile(fileWith(actions));
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.name).toBe('InvalidSessionFileError');
    expect(error?.message).toMatch(message);
  });
});
