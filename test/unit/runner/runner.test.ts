// The Runner: the user's turn, bad requests, cancellation, limits, and a restart over IndexedDB.

import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  Runner,
  ScriptedModel,
  functionCallResponse,
  isTrellisError,
  textOf,
  type Event,
} from '../../../src/index.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { collect, rejectionOf, userMessage } from '../../support/helpers.ts';
import { indexedDbKind, serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'app';
const userId = 'ada';

describe.each(serviceKinds)('Runner ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: LlmAgent) {
    services = kind.open();
    return openRunnerSession(services, agent);
  }

  it('records the user message with its state delta, and the model sees the message', async () => {
    const model = new ScriptedModel(['noted']);
    const { runner, session, read } = await setUp(new LlmAgent({ name: 'agent', model }));
    await collect(
      runner.runAsync({
        userId,
        sessionId: session.id,
        newMessage: userMessage('hi'),
        stateDelta: { mood: 'happy', 'temp:t': 1 },
      }),
    );
    const [userEvent] = (await read()).events;
    expect(userEvent).toMatchObject({
      author: 'user',
      content: userMessage('hi'),
      actions: { stateDelta: { mood: 'happy' } },
    });
    expect((await read()).state).toEqual({ mood: 'happy' });
  });

  it('gives each turn its own invocation id, shared by all of its events', async () => {
    const tool = new FunctionTool({ name: 't', description: 'x', execute: () => 1 });
    const model = new ScriptedModel([functionCallResponse(['t', {}]), 'one', 'two']);
    const { runner, session, read } = await setUp(
      new LlmAgent({ name: 'agent', model, tools: [tool] }),
    );
    await collect(runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage('1') }));
    await collect(runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage('2') }));
    const ids = (await read()).events.map((e) => e.invocationId);
    expect(ids.slice(0, 4).every((id) => id === ids[0])).toBe(true);
    expect(ids[4]).not.toBe(ids[0]);
    expect(ids[5]).toBe(ids[4]);
  });

  it('rejects an unknown session and writes nothing', async () => {
    const { runner } = await setUp(
      new LlmAgent({ name: 'agent', model: new ScriptedModel(['x']) }),
    );
    const error = await rejectionOf(
      collect(runner.runAsync({ userId, sessionId: 'nope', newMessage: userMessage('hi') })),
    );
    expect(error.name).toBe('SessionNotFoundError');
    expect(
      await services.sessionService.getSession({ appName, userId, sessionId: 'nope' }),
    ).toBeUndefined();
  });

  it('rejects a turn without a message, and resuming on a runner that is not resumable', async () => {
    const { runner, session, read } = await setUp(
      new LlmAgent({ name: 'agent', model: new ScriptedModel(['x']) }),
    );
    const missing = await rejectionOf(collect(runner.runAsync({ userId, sessionId: session.id })));
    expect(missing.name).toBe('InvalidRequestError');
    const empty = await rejectionOf(
      collect(
        runner.runAsync({ userId, sessionId: session.id, newMessage: { role: 'user', parts: [] } }),
      ),
    );
    expect(empty.name).toBe('InvalidRequestError');
    const resume = await rejectionOf(
      collect(runner.runAsync({ userId, sessionId: session.id, invocationId: 'e-1' })),
    );
    expect(resume.name).toBe('NotResumableError');
    expect((await read()).events).toEqual([]);
  });

  it('stops quietly when cancelled, keeping what was stored', async () => {
    const controller = new AbortController();
    const tool = new FunctionTool({
      name: 'slow',
      description: 'x',
      execute: () => {
        controller.abort();
        return 'done';
      },
    });
    const model = new ScriptedModel([functionCallResponse(['slow', {}]), 'never']);
    const { runner, session, read } = await setUp(
      new LlmAgent({ name: 'agent', model, tools: [tool] }),
    );
    const events = await collect(
      runner.runAsync({
        userId,
        sessionId: session.id,
        newMessage: userMessage('go'),
        runConfig: { signal: controller.signal },
      }),
    );
    expect(events).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    expect((await read()).events.map((e) => e.author)).toEqual(['user', 'agent']);
  });

  it('ends an invocation that calls the model more than maxLlmCalls times', async () => {
    const tool = new FunctionTool({ name: 'again', description: 'x', execute: () => 'again' });
    const model = new ScriptedModel(() => functionCallResponse(['again', {}]));
    const { runner, session } = await setUp(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const error = await rejectionOf(
      collect(
        runner.runAsync({
          userId,
          sessionId: session.id,
          newMessage: userMessage('go'),
          runConfig: { maxLlmCalls: 3 },
        }),
      ),
    );
    expect(error.name).toBe('LlmCallsLimitExceededError');
    expect(model.requests).toHaveLength(3);
  });
});

describe('Runner across a restart (IndexedDB)', () => {
  it('continues a conversation with new service and runner instances', async () => {
    let services = indexedDbKind.open();
    const modelBefore = new ScriptedModel(['first answer']);
    const before = new Runner({
      appName,
      agent: new LlmAgent({ name: 'agent', model: modelBefore, outputKey: 'last' }),
      ...services,
    });
    const session = await services.sessionService.createSession({
      appName,
      userId,
      state: { topic: 'tea' },
    });
    await collect(
      before.runAsync({ userId, sessionId: session.id, newMessage: userMessage('first') }),
    );

    services = await services.restart();
    const modelAfter = new ScriptedModel(['second answer']);
    const after = new Runner({
      appName,
      agent: new LlmAgent({
        name: 'agent',
        model: modelAfter,
        instruction: 'Topic: {topic}. Last: {last}',
      }),
      ...services,
    });
    const events: Event[] = await collect(
      after.runAsync({ userId, sessionId: session.id, newMessage: userMessage('second') }),
    );
    expect(textOf(events[0]!.content)).toBe('second answer');
    const request = modelAfter.requests[0]!;
    expect(request.systemInstruction).toContain('Topic: tea. Last: first answer');
    expect(request.contents.map((c) => textOf(c))).toEqual(['first', 'first answer', 'second']);
    await services.close();
  });
});

describe('InMemoryRunner', () => {
  it('brings its own services', async () => {
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'agent', model: new ScriptedModel(['hi']) }),
    });
    expect(runner.appName).toBe('InMemoryRunner');
    const session = await runner.sessionService.createSession({ appName: runner.appName, userId });
    const events = await collect(
      runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage('hello') }),
    );
    expect(textOf(events[0]!.content)).toBe('hi');
    expect(runner.artifactService).toBeDefined();
  });
});

describe('errors', () => {
  it('are recognised by name, so that they survive postMessage', () => {
    const crossed = { name: 'SessionNotFoundError', message: 'Session not found: x' };
    expect(isTrellisError(crossed, 'SessionNotFoundError')).toBe(true);
    expect(isTrellisError(crossed)).toBe(true);
    expect(isTrellisError(new TypeError('x'))).toBe(false);
  });
});
