// A session file carries its artifacts' bytes (in the customMetadata of the event that names each
// version), and importing it writes them back under the new session with the same version numbers,
// in the same atomic write; a rewind marker's deltas are worked out again from the log, never
// taken from the file (issue 19).

import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  InMemorySessionService,
  IndexedDbArtifactService,
  LlmAgent,
  Runner,
  ScriptedModel,
  bytesToBase64,
  functionCallResponse,
  parseSessionFile,
  toSessionFile,
  withArtifactBytes,
  type Event,
  type LlmRequest,
  type Part,
  type Session,
} from '../../../src/index.ts';
import { artifactPayloadsOf } from '../../../src/core/artifact-payloads.ts';
import { collect, freshDbName, rejectionOf, userMessage } from '../../support/helpers.ts';
import { appName, userId } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const FILES = ['notes.txt', 'pic.bin'];

/** A model that turns "text NAME WORDS" and "bytes NAME 1,2,3" into tool calls. */
function keeperModel() {
  return new ScriptedModel((request: LlmRequest) => {
    const last = request.contents.at(-1)!.parts[0]!;
    if (last.functionResponse) return 'saved';
    const [kind, filename, rest] = last.text!.split(' ');
    return kind === 'text'
      ? functionCallResponse(['save_text', { filename, text: rest }])
      : functionCallResponse(['save_bytes', { filename, bytes: rest }]);
  });
}

const saveText = new FunctionTool({
  name: 'save_text',
  description: 'Saves a text artifact',
  execute: async ({ filename, text }: { filename: string; text: string }, ctx) => ({
    version: await ctx.saveArtifact(filename, { text }),
  }),
});

const saveBytes = new FunctionTool({
  name: 'save_bytes',
  description: 'Saves a binary artifact',
  execute: async ({ filename, bytes }: { filename: string; bytes: string }, ctx) => {
    const data = bytesToBase64(new Uint8Array(bytes.split(',').map(Number)));
    const artifact: Part = { inlineData: { mimeType: 'application/octet-stream', data } };
    return { version: await ctx.saveArtifact(filename, artifact) };
  },
});

function keeper(services: Services): Runner {
  return new Runner({
    appName,
    agent: new LlmAgent({ name: 'keeper', model: keeperModel(), tools: [saveText, saveBytes] }),
    sessionService: services.sessionService,
    artifactService: services.artifactService,
  });
}

/** Every version of the session's files, as the artifact service loads them. */
async function versionsOf(services: Services, sessionId: string) {
  const out: Record<string, (Part | undefined)[]> = {};
  for (const filename of [...FILES, 'user:shared.txt']) {
    const key = { appName, userId, sessionId, filename };
    const numbers = await services.artifactService.listVersions(key);
    out[filename] = await Promise.all(
      numbers.map((version) => services.artifactService.loadArtifact({ ...key, version })),
    );
  }
  return out;
}

/**
 * A session that saved a text and a binary file in several versions, and was rewound twice
 * (which restored earlier versions as new ones), plus a `user:` file (which stays the user's).
 */
async function sessionWithArtifacts(services: Services): Promise<Session> {
  const runner = keeper(services);
  const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
  const say = (text: string) =>
    collect(runner.runAsync({ userId, sessionId, newMessage: userMessage(text) }));
  const turns: Event[][] = [];
  for (const text of [
    'text notes.txt one',
    'bytes pic.bin 0,1,2,255',
    'text notes.txt two',
    'bytes pic.bin 9,8,7',
    'text notes.txt three',
  ])
    turns.push(await say(text));
  await runner.rewindAsync({
    userId,
    sessionId,
    rewindBeforeInvocationId: turns[4]![0]!.invocationId,
  });
  await say('text user:shared.txt mine');
  await runner.rewindAsync({
    userId,
    sessionId,
    rewindBeforeInvocationId: turns[3]![0]!.invocationId,
  });
  await say('text notes.txt four');
  return (await services.sessionService.getSession({ appName, userId, sessionId }))!;
}

describe.each(serviceKinds)('session files with artifacts ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  it('export every version’s bytes, and import restores them byte for byte', async () => {
    services = kind.open();
    const source = await sessionWithArtifacts(services);
    const sourceVersions = await versionsOf(services, source.id);
    // The rewinds restored versions: notes.txt 0 one, 1 two, 2 three, 3 two (rewind), 4 one
    // (rewind), 5 four; pic.bin 0, 1, then 2 a copy of 0 (rewind).
    expect(sourceVersions['notes.txt']!.map((part) => part?.text)).toEqual([
      'one',
      'two',
      'three',
      'two',
      'two',
      'four',
    ]);
    expect(sourceVersions['pic.bin']).toHaveLength(3);
    expect(sourceVersions['pic.bin']![2]).toEqual(sourceVersions['pic.bin']![0]);

    const file = toSessionFile(await withArtifactBytes(source, services.artifactService));
    const json = JSON.parse(file) as { events: Event[] };
    // The file is ADK's Session shape; the bytes ride in customMetadata.
    expect(Object.keys(json).sort()).toEqual(
      ['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId'].sort(),
    );
    const carried = json.events.flatMap((event) =>
      Object.keys(
        (event.customMetadata?.trellis as { artifacts?: object } | undefined)?.artifacts ?? {},
      ),
    );
    expect(carried.sort()).toEqual(
      [...Array(6).fill('notes.txt'), ...Array(3).fill('pic.bin')].sort(),
    );
    expect(file).not.toContain('user:shared.txt": {');

    const imported = await services.sessionService.importSession({
      appName,
      userId,
      events: parseSessionFile(file).events,
      artifactService: services.artifactService,
    });
    // The stored events keep no bytes (a model answer's timing stays), and the markers' deltas
    // came out as the source's.
    expect(imported.events.some((event) => artifactPayloadsOf(event))).toBe(false);
    expect(imported.events.map((event) => event.customMetadata)).toEqual(
      source.events.map((event) => event.customMetadata),
    );
    expect(imported.events.map((event) => event.actions)).toEqual(
      source.events.map((event) => event.actions),
    );
    const expected = { ...sourceVersions, 'user:shared.txt': [] };
    expect(await versionsOf(services, imported.id)).toEqual({
      ...expected,
      // The user's file is the user's: the same one, seen from any session.
      'user:shared.txt': sourceVersions['user:shared.txt'],
    });

    // After a reload, and in another browser (new storage) alike.
    services = await services.restart();
    expect(await versionsOf(services, imported.id)).toEqual(await versionsOf(services, source.id));
    const elsewhere = kind.open();
    const copy = await elsewhere.sessionService.importSession({
      appName,
      userId,
      events: parseSessionFile(file).events,
      artifactService: elsewhere.artifactService,
    });
    const copied = await versionsOf(elsewhere, copy.id);
    expect(copied['notes.txt']).toEqual(sourceVersions['notes.txt']);
    expect(copied['pic.bin']).toEqual(sourceVersions['pic.bin']);

    // The imported session rewinds like the source: back before the second save of notes.txt.
    const runner = keeper(elsewhere);
    await runner.rewindAsync({
      userId,
      sessionId: copy.id,
      rewindBeforeInvocationId: copy.events.find(
        (e) => e.content?.parts[0]?.text === 'text notes.txt two',
      )!.invocationId,
    });
    const latest = (filename: string) =>
      elsewhere.artifactService.loadArtifact({ appName, userId, sessionId: copy.id, filename });
    expect(await latest('notes.txt')).toEqual({ text: 'one' });
    expect(await latest('pic.bin')).toEqual(sourceVersions['pic.bin']![0]);
    await elsewhere.close();
  });

  it('imports a version named without bytes as a tombstone, keeping the numbers', async () => {
    services = kind.open();
    const { events } = parseSessionFile(
      JSON.stringify({
        events: [
          event('a', 'i1', { 'adk.txt': 0 }),
          event('b', 'i2', { 'adk.txt': 2 }, { 'adk.txt': { text: 'carried' } }),
          event('c', 'i3', { 'adk.txt': 3 }),
        ],
      }),
    );
    const imported = await services.sessionService.importSession({
      appName,
      userId,
      events,
      artifactService: services.artifactService,
    });
    const key = { appName, userId, sessionId: imported.id, filename: 'adk.txt' };
    const load = (version?: number) =>
      services.artifactService.loadArtifact(version === undefined ? key : { ...key, version });
    expect(await load(0)).toBeUndefined();
    expect(await load(2)).toEqual({ text: 'carried' });
    expect(await load(3)).toBeUndefined();
    expect(await load()).toBeUndefined();
    expect(
      await services.artifactService.listArtifactKeys({ appName, userId, sessionId: imported.id }),
    ).toEqual([]);
  });

  it('works a rewind marker’s deltas out from the log, whatever the file says', async () => {
    services = kind.open();
    const source = await sessionWithArtifacts(services);
    const file = JSON.parse(
      toSessionFile(await withArtifactBytes(source, services.artifactService)),
    ) as { events: Event[] };
    const [marker] = file.events.filter((e) => e.actions.rewindBeforeInvocationId);
    marker!.actions.stateDelta = { evil: 'x' };
    marker!.actions.artifactDelta = { 'notes.txt': 99, 'planted.txt': 0 };
    marker!.customMetadata = {
      trellis: { artifacts: { 'planted.txt': { text: 'planted' }, 'notes.txt': { text: 'x' } } },
    };
    const imported = await services.sessionService.importSession({
      appName,
      userId,
      events: parseSessionFile(JSON.stringify(file)).events,
      artifactService: services.artifactService,
    });
    expect(imported.state).toEqual(source.state);
    expect(imported.events.map((e) => e.actions)).toEqual(source.events.map((e) => e.actions));
    expect(await versionsOf(services, imported.id)).toMatchObject({
      'notes.txt': (await versionsOf(services, source.id))['notes.txt'],
    });
    expect(
      await services.artifactService.listArtifactKeys({ appName, userId, sessionId: imported.id }),
    ).not.toContain('planted.txt');
  });

  it('keeps state out of a session whose chat a marker emptied', async () => {
    services = kind.open();
    const { events } = parseSessionFile(
      JSON.stringify({
        events: [
          {
            id: 'q',
            invocationId: 'turn',
            author: 'user',
            timestamp: 1,
            content: { role: 'user', parts: [{ text: 'hi' }] },
          },
          {
            ...event('m', 'rewind', {}),
            actions: { rewindBeforeInvocationId: 'turn', stateDelta: { evil: 'x' } },
          },
        ],
      }),
    );
    const imported = await services.sessionService.importSession({ appName, userId, events });
    expect(imported.state).toEqual({});
    expect(imported.events[1]!.actions.stateDelta).toEqual({});
  });

  it.each([
    [
      'a marker whose target is not in the log',
      [event('a', 'i1', {}), marker('m', { rewindBeforeInvocationId: 'nowhere' })],
      /events\[1\] is a rewind marker to invocation "nowhere", which is not before it/,
    ],
    [
      'a marker to just after the last event',
      [event('a', 'i1', {}), marker('m', { rewindAfterEventId: 'a' })],
      /events\[1\] is a rewind marker to event "a" that cannot be replayed: .*nothing to rewind/,
    ],
    [
      'a version that goes down',
      [event('a', 'i1', { 'f.txt': 3 }), event('b', 'i2', { 'f.txt': 1 })],
      /events\[1\] names version 1 of "f.txt", but the log before it already reached version 3/,
    ],
    [
      'bytes of a file its artifactDelta does not name',
      [event('a', 'i1', {}, { 'f.txt': { text: 'x' } })],
      /events\[0\]\.customMetadata\.trellis\.artifacts\["f.txt"\]: the event's artifactDelta names no version/,
    ],
    [
      'bytes that are not base64',
      [
        event(
          'a',
          'i1',
          { 'f.bin': 0 },
          { 'f.bin': { inlineData: { mimeType: 'x/y', data: '%%' } } },
        ),
      ],
      /needs inlineData\.data: the bytes as standard base64/,
    ],
    [
      'the same event id twice',
      [event('a', 'i1', {}), event('a', 'i2', {})],
      /events\[1\] has the id "a" of an earlier event/,
    ],
  ])('refuses %s, naming the event, and writes nothing', async (_, events, message) => {
    services = kind.open();
    const error = await rejectionOf(
      services.sessionService.importSession({
        appName,
        userId,
        events: events as Event[],
        artifactService: services.artifactService,
      }),
    );
    expect(error.name).toBe('InvalidSessionFileError');
    expect(error.message).toMatch(message);
    expect((await services.sessionService.listSessions({ appName, userId })).sessions).toEqual([]);
  });

  it('refuses a session id whose old artifacts are still stored, and writes nothing', async () => {
    services = kind.open();
    await services.artifactService.saveArtifact({
      appName,
      userId,
      sessionId: 'reused',
      filename: 'f.txt',
      artifact: { text: 'left over' },
    });
    const error = await rejectionOf(
      services.sessionService.importSession({
        appName,
        userId,
        sessionId: 'reused',
        events: [event('a', 'i1', { 'f.txt': 0 }, { 'f.txt': { text: 'new' } })],
        artifactService: services.artifactService,
      }),
    );
    expect(error.message).toMatch(/Artifacts of an earlier session reused are still stored/);
    expect((await services.sessionService.listSessions({ appName, userId })).sessions).toEqual([]);
    expect(
      await services.artifactService.loadArtifact({
        appName,
        userId,
        sessionId: 'reused',
        filename: 'f.txt',
      }),
    ).toEqual({ text: 'left over' });
  });
});

it('refuses artifacts it cannot write in the same atomic write as the session', async () => {
  const sessionService = new InMemorySessionService();
  const artifactService = new IndexedDbArtifactService({ dbName: freshDbName() });
  const error = await rejectionOf(
    sessionService.importSession({
      appName,
      userId,
      events: [event('a', 'i1', { 'f.txt': 0 }, { 'f.txt': { text: 'x' } })],
      artifactService,
    }),
  );
  expect(error.message).toMatch(/same atomic write/);
  expect((await sessionService.listSessions({ appName, userId })).sessions).toEqual([]);
  await artifactService.close();
});

/** A user event naming artifact versions, with the bytes of some. */
function event(
  id: string,
  invocationId: string,
  artifactDelta: Record<string, number>,
  artifacts?: Record<string, unknown>,
): Event {
  return {
    id,
    invocationId,
    author: 'user',
    timestamp: 1_700_000_000_000,
    content: { role: 'user', parts: [{ text: id }] },
    actions: { stateDelta: {}, artifactDelta },
    ...(artifacts ? { customMetadata: { trellis: { artifacts } } } : {}),
  };
}

function marker(id: string, target: Record<string, string>): Event {
  return {
    id,
    invocationId: `${id}-rewind`,
    author: 'user',
    timestamp: 1_700_000_000_000,
    actions: { stateDelta: {}, artifactDelta: {}, ...target },
  };
}
