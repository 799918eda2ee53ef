// ADK's session files in both spellings: what ADK Python writes (snake_case, seconds) imports
// with its state and every event, user data untouched; what Trellis exports is ADK's Session shape
// and loses nothing when it comes back.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  InvalidSessionFileError,
  createEvent,
  parseSessionFile,
  toSessionFile,
  type Event,
} from '../../../src/index.ts';
import { adkSpelling, camelName } from '../../../src/core/adk-case.ts';
import { timeUnitOf, type TimeUnit } from '../../../src/core/session-file-event.ts';
import { appRuntime } from '../../support/app-runtime.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { snakeFile } from '../../support/adk-snake-session.ts';

describe('ADK session files', () => {
  it('tells snake_case from camelCase per file', () => {
    expect(adkSpelling(snakeFile)).toBe('snake_case');
    expect(adkSpelling({ id: 'x', appName: 'a', events: [{ invocationId: 'i' }] })).toBe(
      'camelCase',
    );
    expect(adkSpelling({ id: 'x', events: [{ actions: { state_delta: {} } }] })).toBe('snake_case');
    expect(['state_delta', 'long_running_tool_ids', 'text', '_private'].map(camelName)).toEqual([
      'stateDelta',
      'longRunningToolIds',
      'text',
      '_private',
    ]);
  });

  it("imports ADK Python's snake_case file: ADK's fields renamed, the user's data as it was", () => {
    const parsed = parseSessionFile(JSON.stringify(snakeFile));
    expect(parsed.spelling).toBe('snake_case');
    expect(parsed.sourceId).toBe('py-session-1');
    const [initial, ...events] = parsed.events;
    // The state no event explains comes first, as createSession logs it; app: state is the app's.
    expect(initial!.author).toBe('user');
    expect(initial!.actions.stateDelta).toEqual({ user_name: 'Ada', plan: { step_one: 1 } });
    expect(initial!.timestamp).toBe(1_795_000_000_250);
    expect(events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    const [e1, e2, e3, e4, e5, e6] = events as [Event, Event, Event, Event, Event, Event];
    expect(e1.invocationId).toBe('inv-1');
    expect(e1.timestamp).toBe(1_795_000_000_250);
    // A field Trellis does not know is kept, read as one of a newer ADK's (so in camelCase).
    expect((e1 as unknown as Record<string, unknown>).futureField).toEqual({ keepMe: true });
    expect(e2.content!.parts[0]!.functionCall).toEqual({
      id: 'call-1',
      name: 'get_weather',
      args: { city_name: 'Paris' },
    });
    // A streamed call's partial_args are ADK objects; a workflow node's output is its own data.
    expect(e2.content!.parts[1]!.functionCall).toEqual({
      name: 'get_weather',
      args: {},
      partialArgs: [{ jsonPath: '$.city_name', stringValue: 'Par', willContinue: true }],
      willContinue: true,
    });
    expect((e2 as unknown as Record<string, unknown>).output).toEqual({
      next_step: 'answer',
      by_city: { paris_fr: 20 },
    });
    expect(e3.content!.parts[0]!.functionResponse!.response).toEqual({ temp_c: 20 });
    expect(e3.actions.stateDelta).toEqual({ last_city: 'Paris' });
    expect(e3.actions.artifactDelta).toEqual({ 'report_v1.txt': 0 });
    expect(e3.actions.skipSummarization).toBe(true);
    expect(e3.actions.requestedToolConfirmations).toEqual({
      call_9: { hint: 'ok?', confirmed: false, payload: { max_cost: 3 } },
    });
    expect(e4.usageMetadata).toEqual({
      promptTokenCount: 12,
      candidatesTokenCount: 5,
      totalTokenCount: 17,
    });
    expect(e4.customMetadata).toEqual({ trace_id: 'abc' });
    expect(e4.turnComplete).toBe(true);
    expect(e5.content!.parts.map((p) => p.inlineData)).toEqual([
      { mimeType: 'text/plain', data: 'aGk=' },
      { mimeType: 'application/octet-stream', data: '+/8=' },
    ]);
    expect(e6.actions.rewindBeforeInvocationId).toBe('inv-2');
  });

  it('imports camelCase with timestamps in milliseconds (ADK TypeScript) the same way', () => {
    const camel = {
      id: 'ts-1',
      appName: 'echo',
      userId: 'u',
      state: { mood: 'good' },
      lastUpdateTime: 1_795_476_784_365,
      events: [
        {
          id: 'a',
          invocationId: 'e-1',
          author: 'user',
          timestamp: 1_795_476_784_361,
          content: { role: 'user', parts: [{ text: 'hello' }] },
          actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {} },
          longRunningToolIds: [],
        },
      ],
    };
    const parsed = parseSessionFile(JSON.stringify(camel));
    expect(parsed.spelling).toBe('camelCase');
    expect(parsed.events.map((e) => [e.author, e.timestamp, e.actions.stateDelta])).toEqual([
      ['user', 1_795_476_784_361, { mood: 'good' }],
      ['user', 1_795_476_784_361, {}],
    ]);
  });

  const units: { name: string; times: unknown[]; unit: TimeUnit }[] = [
    { name: "ADK Python's floats", times: [1_795_000_000.25, 1_795_000_001], unit: 'seconds' },
    {
      name: "ADK TypeScript's ms",
      times: [1_795_476_784_361, 1_795_476_784_365],
      unit: 'milliseconds',
    },
    // One unit per file: a fixture's stray small value does not make a ms file's event seconds.
    { name: 'ms with an unset (0) time', times: [0, 1_795_476_784_361], unit: 'milliseconds' },
    { name: 'small test times', times: [1, 2, 3], unit: 'seconds' },
    { name: 'no number at all', times: ['soon', undefined], unit: 'milliseconds' },
  ];
  it.each(units)('reads the timestamps of $name as $unit', ({ times, unit }) => {
    expect(timeUnitOf(times.map((timestamp) => ({ timestamp })))).toBe(unit);
  });

  it('converts a file in one unit: a ms file keeps even its stray small time', () => {
    const events = [0, 1_795_476_784_361].map((timestamp, i) => ({
      id: `e${i}`,
      invocationId: 'i',
      author: 'user',
      timestamp,
    }));
    const parsed = parseSessionFile(JSON.stringify({ id: 's', events }));
    expect(parsed.events.map((e) => e.timestamp)).toEqual([0, 1_795_476_784_361]);
  });

  it("exports ADK's Session shape, and everything of Trellis's comes back", () => {
    const at = 1_795_000_000_123;
    const message = { ...createEvent({ invocationId: 'i1', author: 'user' }), timestamp: at };
    const answer = {
      ...createEvent({ invocationId: 'i1', author: 'bot', actions: { stateDelta: { n: 1 } } }),
      timestamp: at + 10,
      content: { role: 'model' as const, parts: [{ text: 'hi' }] },
    };
    const marker = {
      ...createEvent({
        invocationId: 'i2',
        author: 'user',
        actions: { rewindAfterEventId: message.id },
      }),
      timestamp: at + 20,
    };
    const session = {
      id: 's1',
      appName: 'trellis',
      userId: 'user',
      state: { n: 1 },
      events: [message, answer, marker],
      lastUpdateTime: at + 20,
    };
    const text = toSessionFile(session, { title: 'Plans', agentId: 'state-keeper' });
    const file = JSON.parse(text);
    expect(Object.keys(file).sort()).toEqual(
      ['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId'].sort(),
    );
    expect(file.lastUpdateTime).toBe((at + 20) / 1000);
    expect(file.events.map((e: Event) => e.timestamp)).toEqual([
      at / 1000,
      (at + 10) / 1000,
      (at + 20) / 1000,
    ]);
    // ADK's EventActions has no rewindAfterEventId: it travels in customMetadata.
    expect(file.events[2].actions.rewindAfterEventId).toBeUndefined();
    expect(file.events[2].customMetadata.trellis.rewindAfterEventId).toBe(message.id);
    expect(file.events[0].customMetadata.trellis.session).toEqual({
      title: 'Plans',
      agentId: 'state-keeper',
    });

    const back = parseSessionFile(text);
    expect(back.title).toBe('Plans');
    expect(back.agentId).toBe('state-keeper');
    expect(back.events).toEqual([message, answer, marker]);
  });

  it('carries the title and agent of a session without events on an event only for them', () => {
    const empty = { id: 's0', appName: 'trellis', userId: 'user', state: {}, events: [] };
    const text = toSessionFile(
      { ...empty, lastUpdateTime: 1_795_000_000_000 },
      { title: 'Blank page', agentId: 'planner' },
    );
    const file = JSON.parse(text);
    expect(Object.keys(file).sort()).toEqual(
      ['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId'].sort(),
    );
    // An event ADK keeps as a no-op: no content, empty actions.
    expect(file.events).toHaveLength(1);
    expect(file.events[0]).toMatchObject({
      author: 'user',
      timestamp: 1_795_000_000,
      actions: { stateDelta: {}, artifactDelta: {} },
      customMetadata: { trellis: { session: { title: 'Blank page', agentId: 'planner' } } },
    });
    expect(file.events[0].content).toBeUndefined();
    const back = parseSessionFile(text);
    expect(back).toMatchObject({ title: 'Blank page', agentId: 'planner', events: [] });
    // Without a title or agent there is nothing to carry.
    expect(JSON.parse(toSessionFile({ ...empty, lastUpdateTime: 0 })).events).toEqual([]);
  });

  it('still imports an export of an older Trellis (top-level trellis, milliseconds)', () => {
    const event = {
      ...createEvent({ invocationId: 'i', author: 'user' }),
      timestamp: 1_795_000_000_000,
    };
    const old = {
      id: 'x',
      appName: 'trellis',
      userId: 'user',
      state: {},
      events: [event],
      lastUpdateTime: 1_795_000_000_000,
      trellis: { format: 'trellis-session', version: 1, title: 'Old one' },
    };
    const parsed = parseSessionFile(JSON.stringify(old));
    expect(parsed.title).toBe('Old one');
    expect(parsed.events).toEqual([event]);
  });

  const refusals: { name: string; file: unknown; says: RegExp[] }[] = [
    {
      name: 'a file that is not a session',
      file: { session: { id: 'x' }, id: 5, state: [] },
      says: [
        /it has no "events" list/,
        /"id" must be text/,
        /"state" must be an object/,
        /read as camelCase/,
      ],
    },
    {
      name: 'a snake_case event without its invocation',
      file: {
        id: 'x',
        app_name: 'a',
        events: [{ author: 'user', timestamp: 1, actions: { state_delta: 3 } }],
      },
      says: [
        /events\[0\]\.invocation_id must be a non-empty string/,
        /events\[0\]\.actions\.state_delta must be an object/,
        /read as ADK Python's snake_case/,
      ],
    },
    {
      name: 'a camelCase event without its invocation',
      file: { id: 'x', events: [{ author: 'user', timestamp: 1 }] },
      says: [/events\[0\]\.invocationId must be a non-empty string/, /read as camelCase/],
    },
    {
      name: 'a file of another kind, a problem in every event',
      file: { events: [1, 2, 3, 4, 5].map((n) => ({ author: 'user', timestamp: n })) },
      says: [
        /^[^;]*events\[0\]\.invocationId[^;]*; [^;]*events\[1\][^;]*; [^;]*events\[2\][^;]*; and 2 more problem\(s\) after those; it was read as camelCase/,
      ],
    },
  ];
  // The spelling is said only where it may explain a problem: a field the file lacks.
  const unrelated: { name: string; file: unknown; says: RegExp }[] = [
    {
      name: 'a title of 1 MB',
      file: {
        id: 'x',
        events: [
          {
            id: 'e1',
            invocationId: 'i1',
            author: 'user',
            timestamp: 1,
            customMetadata: { trellis: { session: { title: 't'.repeat(1024 * 1024) } } },
          },
        ],
      },
      says: /title/,
    },
    {
      name: 'a value of the wrong type',
      file: { id: 'x', events: [{ invocationId: 'i1', author: 'user', timestamp: 'noon' }] },
      says: /events\[0\]\.timestamp must be a number/,
    },
    {
      name: 'a snake_case value of the wrong type',
      file: { id: 'x', app_name: 'a', events: [{ invocation_id: 'i', author: 7, timestamp: 1 }] },
      says: /events\[0\]\.author must be a non-empty string/,
    },
  ];
  /** The message of the refusal of `file`, which must be refused. */
  const refusalOf = (file: unknown): string => {
    let error: unknown;
    try {
      parseSessionFile(JSON.stringify(file));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidSessionFileError);
    return (error as Error).message;
  };
  it.each(unrelated)('refuses $name without a word on the spelling', ({ file, says }) => {
    const message = refusalOf(file);
    expect(message).toMatch(says);
    expect(message).not.toMatch(/read as|snake_case|camelCase/);
  });
  it.each(refusals)('refuses $name, naming the fields and the spelling', ({ file, says }) => {
    const message = refusalOf(file);
    for (const pattern of says) expect(message).toMatch(pattern);
  });
});

describe('ADK session files in the app', () => {
  it('imports a snake_case file, exports it as ADK camelCase, and re-imports it unchanged', async () => {
    const app = appRuntime();
    const first = await app.importSession(JSON.stringify(snakeFile));
    const opened = await app.openSession(first.id);
    const exported = await app.exportSession(first.id);
    const file = JSON.parse(exported.json);
    expect(Object.keys(file).sort()).toEqual(
      ['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId'].sort(),
    );
    // camelCase all through ADK's fields, seconds, the user's keys as they were.
    expect(exported.json).not.toMatch(/"(invocation_id|state_delta|function_call|inline_data)"/);
    expect(file.events[0].timestamp).toBe(1_795_000_000.25);
    expect(file.state).toMatchObject({ user_name: 'Ada', plan: { step_one: 1 } });

    const again = await app.importSession(exported.json);
    const reopened = await app.openSession(again.id);
    expect(again.title).toBe(`${first.title} (imported)`);
    expect(reopened.state).toEqual(opened.state);
    expect(reopened.events).toEqual(opened.events);
  });

  it('refuses a broken snake_case file and stores nothing', async () => {
    const app = appRuntime();
    const before = await app.listSessions();
    const broken = structuredClone(snakeFile) as { events: Record<string, unknown>[] };
    delete broken.events[3]!.invocation_id;
    const error = await rejectionOf(app.importSession(JSON.stringify(broken)));
    expect(error.name).toBe('InvalidSessionFileError');
    expect(error.message).toMatch(/events\[3\]\.invocation_id must be a non-empty string/);
    expect(error.message).toMatch(/snake_case/);
    expect(await app.listSessions()).toEqual(before);
  });
});
