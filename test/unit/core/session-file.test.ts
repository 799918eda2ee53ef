// Session files: export writes ADK's session JSON; import accepts it (and ADK's own), checks it,
// and creates a session that behaves like any other.

import { afterEach, describe, expect, it } from 'vitest';
import {
  LlmAgent,
  ScriptedModel,
  activeEvents,
  parseSessionFile,
  toSessionFile,
  type Event,
} from '../../../src/index.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { appName, openRunnerSession, userId } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

/** A session as ADK's API server returns it: seconds, nulls for unset fields, camelCase. */
const ADK_SESSION = {
  id: 'adk-session',
  appName: 'weather',
  userId: 'u1',
  state: { city: 'Paris' },
  lastUpdateTime: 1732212346.5,
  events: [
    {
      id: 'Ab12Cd34',
      invocationId: 'e-1',
      author: 'user',
      timestamp: 1732212345.25,
      branch: null,
      content: { role: 'user', parts: [{ text: 'Weather in Paris?', functionCall: null }] },
      actions: {
        stateDelta: { city: 'Paris' },
        artifactDelta: {},
        escalate: null,
        transferToAgent: null,
      },
      longRunningToolIds: null,
      partial: null,
    },
    {
      id: 'Ef56Gh78',
      invocationId: 'e-1',
      author: 'weather_agent',
      timestamp: 1732212346.5,
      content: { role: 'model', parts: [{ text: 'Sunny.', thoughtSignature: 'opaque' }] },
      actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {} },
      usageMetadata: { totalTokenCount: 12 },
    },
  ],
};

describe('parseSessionFile', () => {
  it('reads ADK’s session JSON: seconds become milliseconds, nulls go, unknown fields stay', () => {
    const parsed = parseSessionFile(JSON.stringify(ADK_SESSION));
    expect(parsed.sourceId).toBe('adk-session');
    expect(parsed.events).toHaveLength(2);
    const [question, answer] = parsed.events as [Event, Event];
    expect(question.timestamp).toBe(1732212345250);
    expect(question).not.toHaveProperty('branch');
    expect(question.actions).toEqual({ stateDelta: { city: 'Paris' }, artifactDelta: {} });
    expect(question.content).toEqual({ role: 'user', parts: [{ text: 'Weather in Paris?' }] });
    expect(answer.content!.parts[0]).toEqual({ text: 'Sunny.', thoughtSignature: 'opaque' });
    expect(answer.usageMetadata).toEqual({ totalTokenCount: 12 });
  });

  it.each([
    ['not JSON', '{nope', /not JSON/],
    ['not an object', '[1, 2]', /not a JSON object/],
    ['without events', '{"id": "x"}', /no "events" list/],
    [
      'an event without an author',
      JSON.stringify({ events: [{ id: 'a', invocationId: 'e', timestamp: 1 }] }),
      /events\[0\]\.author must be a non-empty string/,
    ],
    [
      'a bad content role and a bad delta',
      JSON.stringify({
        events: [
          {
            invocationId: 'e',
            author: 'x',
            timestamp: 1,
            content: { role: 'bot', parts: [] },
            actions: { stateDelta: 3 },
          },
        ],
      }),
      /events\[0\]\.content\.role must be "user" or "model".*events\[0\]\.actions\.stateDelta must be an object/,
    ],
    [
      'the same event id twice',
      JSON.stringify({
        events: [1, 2].map(() => ({ id: 'same', invocationId: 'e', author: 'x', timestamp: 1 })),
      }),
      /"same" appears twice/,
    ],
  ])('rejects %s with a clear message', (_, text, message) => {
    let error: Error | undefined;
    try {
      parseSessionFile(text);
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.name).toBe('InvalidSessionFileError');
    expect(error?.message).toMatch(message);
  });
});

describe.each(serviceKinds)('importSession ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  it('round-trips an exported session, which can then be rewound and continued', async () => {
    services = kind.open();
    const model = new ScriptedModel((request) => `echo ${request.contents.at(-1)!.parts[0]!.text}`);
    const agent = new LlmAgent({ name: 'agent', model, outputKey: 'last' });
    const ctx = await openRunnerSession(services, agent, {
      state: { 'app:shared': 1, topic: 'tea' },
    });
    await ctx.run('one');
    const second = await ctx.run('two');
    await ctx.rewind(second[0]!.invocationId);
    const source = await ctx.read();
    const file = toSessionFile(source, { title: 'Tea talk', agentId: 'echo' });

    const parsed = parseSessionFile(file);
    expect(parsed).toMatchObject({ title: 'Tea talk', agentId: 'echo', sourceId: source.id });
    const imported = await services.sessionService.importSession({
      appName,
      userId,
      events: parsed.events,
    });
    expect(imported.id).not.toBe(source.id);
    expect(imported.events).toEqual(source.events);
    expect(imported.state).toEqual(source.state);
    expect(activeEvents(imported.events).map((e) => e.id)).toEqual(
      activeEvents(source.events).map((e) => e.id),
    );

    const firstTurn = imported.events[1]!.invocationId;
    await ctx.runner.rewindAsync({
      userId,
      sessionId: imported.id,
      rewindBeforeInvocationId: firstTurn,
    });
    const rewound = await services.sessionService.getSession({
      appName,
      userId,
      sessionId: imported.id,
    });
    expect(rewound!.state).toEqual({ topic: 'tea', 'app:shared': 1 });
  });

  it('keeps app: and user: deltas in the log without applying them again', async () => {
    services = kind.open();
    const { events } = parseSessionFile(
      JSON.stringify({
        events: [
          {
            id: 'a',
            invocationId: 'e-1',
            author: 'x',
            timestamp: 1,
            actions: { stateDelta: { 'app:k': 'old', mine: 1 } },
          },
        ],
      }),
    );
    await services.sessionService.createSession({ appName, userId, state: { 'app:k': 'current' } });
    const imported = await services.sessionService.importSession({ appName, userId, events });
    expect(imported.state).toEqual({ 'app:k': 'current', mine: 1 });
    expect(imported.events[0]!.actions.stateDelta).toEqual({ 'app:k': 'old', mine: 1 });
  });

  it('refuses a session id already taken, and writes nothing', async () => {
    services = kind.open();
    await services.sessionService.createSession({ appName, userId, sessionId: 'taken' });
    const error = await rejectionOf(
      services.sessionService.importSession({ appName, userId, sessionId: 'taken', events: [] }),
    );
    expect(error.name).toBe('SessionExistsError');
    expect((await services.sessionService.listSessions({ appName, userId })).sessions).toHaveLength(
      1,
    );
  });
});
