// LlmAgent: instruction, the function-call loop, tools and their context, outputKey, errors.

import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  LlmAgent,
  ScriptedModel,
  functionCallResponse,
  modelTimingOf,
  textResponse,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { collect, deferred, userMessage } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const userId = 'ada';

describe.each(serviceKinds)('LlmAgent ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: LlmAgent, state?: Record<string, unknown>) {
    services = kind.open();
    return openRunnerSession(services, agent, state ? { state } : {});
  }

  it('answers with the model’s text and stores the turn', async () => {
    const model = new ScriptedModel(['Hello, Ada.']);
    const { run, read } = await setUp(
      new LlmAgent({ name: 'greeter', model, instruction: 'Greet {name}.' }),
      {
        name: 'Ada',
      },
    );
    const events = await run('hi');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      author: 'greeter',
      content: { role: 'model', parts: [{ text: 'Hello, Ada.' }] },
    });
    const [request] = model.requests as [LlmRequest];
    expect(request.systemInstruction).toContain('Greet Ada.');
    expect(request.contents).toEqual([userMessage('hi')]);
    const session = await read();
    expect(session.events.map((e) => e.author)).toEqual(['user', 'user', 'greeter']);
    expect(session.events[1]!.invocationId).toBe(events[0]!.invocationId);
    expect(session.events[2]).toEqual(events[0]);
  });

  it('records on each answer the model that wrote it, its usage and how long it took', async () => {
    const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 };
    const model = new ScriptedModel(
      [
        [
          { content: { role: 'model', parts: [{ text: 'Hel' }] }, partial: true },
          { content: { role: 'model', parts: [{ text: 'lo' }] }, partial: true },
          { content: { role: 'model', parts: [{ text: 'Hello' }] }, usageMetadata },
        ],
        { content: { role: 'model', parts: [{ text: 'Again' }] }, modelVersion: 'exact-v2' },
      ],
      { model: 'scripted-v1', delayMs: 5 },
    );
    const { run, read } = await setUp(new LlmAgent({ name: 'timed', model }));
    const first = (await run('hi', { streamingMode: 'sse' })).at(-1);
    const [second] = await run('again');
    expect(first).toMatchObject({ modelVersion: 'scripted-v1', usageMetadata });
    // The provider's own name for the model wins over the one asked for.
    expect(second).toMatchObject({ modelVersion: 'exact-v2' });
    expect(second!.usageMetadata).toBeUndefined();
    for (const event of [first!, second!]) {
      const timing = modelTimingOf(event)!;
      expect(timing.firstTokenMs).toBeGreaterThanOrEqual(0);
      expect(timing.totalMs).toBeGreaterThanOrEqual(timing.firstTokenMs);
    }
    // Three scripted pauses: the first chunk comes after one, the whole answer after three.
    const timing = modelTimingOf(first!)!;
    expect(timing.totalMs - timing.firstTokenMs).toBeGreaterThanOrEqual(5);
    // Stored as yielded: the timing is part of the log.
    const session = await read();
    expect(session.events.at(-1)).toEqual(second);
    expect(session.events.find((event) => event.id === first!.id)).toEqual(first);
  });

  it('runs the tools the model calls, feeds back the results, and loops until a final answer', async () => {
    const calls: unknown[] = [];
    const add = new FunctionTool({
      name: 'add',
      description: 'Adds two numbers',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      execute: ({ a, b }: { a: number; b: number }, ctx) => {
        calls.push([a, b]);
        ctx.state.set('last_sum', a + b);
        return a + b;
      },
    });
    const model = new ScriptedModel([functionCallResponse(['add', { a: 2, b: 3 }]), 'It is 5.']);
    const { run, read } = await setUp(new LlmAgent({ name: 'calc', model, tools: [add] }));
    const events = await run('2+3?');
    expect(calls).toEqual([[2, 3]]);
    expect(events.map(kindOf)).toEqual(['call add', 'response add', 'text']);
    const callId = events[0]!.content!.parts[0]!.functionCall!.id!;
    expect(callId).toMatch(/^adk-/);
    expect(events[1]!.content!.parts[0]!.functionResponse).toEqual({
      id: callId,
      name: 'add',
      response: { result: 5 },
    });
    expect(events[1]!.actions.stateDelta).toEqual({ last_sum: 5 });
    const second = model.requests[1]!;
    expect(second.tools).toEqual([add.declaration()]);
    expect(second.contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(second.contents[2]!.parts[0]!.functionResponse!.response).toEqual({ result: 5 });
    expect((await read()).state).toEqual({ last_sum: 5 });
  });

  it('runs several calls of one response concurrently and answers them in one event', async () => {
    const bothStarted = deferred();
    let started = 0;
    const wait = new FunctionTool({
      name: 'wait',
      description: 'Waits for its sibling',
      execute: async ({ tag }: { tag: string }, ctx) => {
        if (++started === 2) bothStarted.resolve();
        await bothStarted.promise; // never resolves if the calls run one after the other
        ctx.state.set(`seen_${tag}`, true);
        return { tag };
      },
    });
    const model = new ScriptedModel([
      functionCallResponse(['wait', { tag: 'a' }], ['wait', { tag: 'b' }]),
      'both done',
    ]);
    const { run } = await setUp(new LlmAgent({ name: 'agent', model, tools: [wait] }));
    const events = await run('go');
    const response = events[1]!;
    expect(response.content!.parts.map((p) => p.functionResponse!.response)).toEqual([
      { tag: 'a' },
      { tag: 'b' },
    ]);
    expect(response.actions.stateDelta).toEqual({ seen_a: true, seen_b: true });
    expect(events[2]!.content!.parts[0]!.text).toBe('both done');
  });

  it('answers a call to an unknown tool with an error, and the run goes on', async () => {
    const model = new ScriptedModel([functionCallResponse(['fly', {}]), 'Sorry, I cannot fly.']);
    const known = new FunctionTool({ name: 'walk', description: 'Walks', execute: () => 'walked' });
    const { run } = await setUp(new LlmAgent({ name: 'agent', model, tools: [known] }));
    const events = await run('fly!');
    const response = events[1]!.content!.parts[0]!.functionResponse!.response;
    expect(response.error).toBe("Tool 'fly' not found. Available tools: walk.");
    expect(events.at(-1)!.content!.parts[0]!.text).toBe('Sorry, I cannot fly.');
  });

  it('answers arguments that do not fit the schema with an error, without running the tool', async () => {
    let ran = false;
    const tool = new FunctionTool({
      name: 'greet',
      description: 'Greets',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string' }, times: { type: 'integer', minimum: 1 } },
        required: ['name'],
      },
      execute: () => (ran = true),
    });
    const model = new ScriptedModel([functionCallResponse(['greet', { times: 0 }]), 'oops']);
    const { run } = await setUp(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await run('greet');
    expect(ran).toBe(false);
    expect(events[1]!.content!.parts[0]!.functionResponse!.response.error).toBe(
      "Invalid arguments for tool 'greet': args.name is required; args.times should be ≥ 1.",
    );
  });

  it('ends the invocation when a tool throws: the call answered, an error event stored, a ToolError thrown', async () => {
    const tool = new FunctionTool({
      name: 'explode',
      description: 'Fails',
      execute: () => {
        throw new Error('boom');
      },
    });
    const model = new ScriptedModel([functionCallResponse(['explode', {}]), 'never']);
    const { runner, session, read } = await setUp(
      new LlmAgent({ name: 'agent', model, tools: [tool] }),
    );
    const seen: Event[] = [];
    let thrown: Error | undefined;
    try {
      for await (const event of runner.runAsync({
        userId,
        sessionId: session.id,
        newMessage: userMessage('go'),
      })) {
        seen.push(event);
      }
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.name).toBe('ToolError');
    expect(thrown?.message).toBe("Tool 'explode' failed: boom");
    expect(seen.map(kindOf)).toEqual(['call explode', 'response explode', 'error TOOL_ERROR']);
    expect(seen[1]!.content!.parts[0]!.functionResponse!.response).toEqual({
      error: "Tool 'explode' failed: boom",
    });
    expect(model.requests).toHaveLength(1);
    const stored = await read();
    expect(stored.events.slice(-3)).toEqual(seen);
  });

  it('ends the invocation when the model throws: an error event stored and a ModelError thrown', async () => {
    const model = new ScriptedModel(() => {
      throw new Error('network down');
    });
    const { runner, session, read } = await setUp(new LlmAgent({ name: 'agent', model }));
    const stream = runner.runAsync({
      userId,
      sessionId: session.id,
      newMessage: userMessage('hi'),
    });
    const first = await stream.next();
    expect(first.value).toMatchObject({ author: 'agent', errorCode: 'MODEL_ERROR' });
    expect((first.value as Event).errorMessage).toContain('network down');
    const error = await stream.next().catch((e: Error) => e);
    expect((error as Error).name).toBe('ModelError');
    const stored = await read();
    expect(stored.events.at(-1)).toEqual(first.value);
  });

  it('stores an error response from the model as the agent’s final event', async () => {
    const model = new ScriptedModel([{ errorCode: 'SAFETY', errorMessage: 'Blocked' }]);
    const { run } = await setUp(new LlmAgent({ name: 'agent', model, outputKey: 'answer' }));
    const events = await run('hi');
    expect(events).toEqual([
      expect.objectContaining({ errorCode: 'SAFETY', errorMessage: 'Blocked' }),
    ]);
    expect(events[0]!.actions.stateDelta).toEqual({});
  });

  it('saves the final answer text under outputKey, not the intermediate steps', async () => {
    const noop = new FunctionTool({ name: 'noop', description: 'Nothing', execute: () => ({}) });
    const model = new ScriptedModel([
      {
        content: {
          role: 'model',
          parts: [{ text: 'let me check' }, { functionCall: { name: 'noop', args: {} } }],
        },
      },
      {
        content: {
          role: 'model',
          parts: [{ text: 'thinking…', thought: true }, { text: 'Done.' }],
        },
      },
    ]);
    const { run, read } = await setUp(
      new LlmAgent({ name: 'agent', model, tools: [noop], outputKey: 'answer' }),
    );
    const events = await run('go');
    expect(events[0]!.actions.stateDelta).toEqual({});
    expect(events[2]!.actions.stateDelta).toEqual({ answer: 'Done.' });
    expect((await read()).state).toEqual({ answer: 'Done.' });
  });

  it('stops after a tool asks to skip summarization', async () => {
    const tool = new FunctionTool({
      name: 'final',
      description: 'Answers directly',
      execute: (_, ctx) => {
        ctx.actions.skipSummarization = true;
        return 'raw result';
      },
    });
    const model = new ScriptedModel([functionCallResponse(['final', {}])]);
    const { run } = await setUp(new LlmAgent({ name: 'agent', model, tools: [tool] }));
    const events = await run('go');
    expect(events.map(kindOf)).toEqual(['call final', 'response final']);
    expect(model.requests).toHaveLength(1);
  });

  it('streams partial events without storing them, then stores the final one', async () => {
    const model = new ScriptedModel([
      [
        { content: { role: 'model', parts: [{ text: 'Hel' }] }, partial: true },
        { content: { role: 'model', parts: [{ text: 'lo' }] }, partial: true },
        textResponse('Hello'),
      ],
    ]);
    const { runner, session, read } = await setUp(new LlmAgent({ name: 'agent', model }));
    const events = await collect(
      runner.runAsync({
        userId,
        sessionId: session.id,
        newMessage: userMessage('hi'),
        runConfig: { streamingMode: 'sse' },
      }),
    );
    expect(events.map((e) => [e.partial ?? false, e.content!.parts[0]!.text])).toEqual([
      [true, 'Hel'],
      [true, 'lo'],
      [false, 'Hello'],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(1);
    expect((await read()).events.filter((e) => e.author === 'agent')).toEqual([events[2]]);
  });

  it('sees earlier turns, lets tools read and write state, and loads artifacts', async () => {
    const save = new FunctionTool({
      name: 'save_note',
      description: 'Saves a note',
      execute: async ({ text }: { text: string }, ctx) => {
        const version = await ctx.saveArtifact('note.txt', { text });
        ctx.state.set('notes', (ctx.state.get<number>('notes') ?? 0) + 1);
        return { version, notes: ctx.state.get('notes') };
      },
    });
    const read = new FunctionTool({
      name: 'read_note',
      description: 'Reads the note',
      execute: async (_, ctx) => ({ text: (await ctx.loadArtifact('note.txt'))?.text ?? null }),
    });
    const model = new ScriptedModel([
      functionCallResponse(['save_note', { text: 'milk' }]),
      'saved',
      functionCallResponse(['read_note', {}]),
      'it says milk',
    ]);
    const ctx = await setUp(new LlmAgent({ name: 'agent', model, tools: [save, read] }));
    const first = await ctx.run('save milk');
    expect(first[1]!.actions.artifactDelta).toEqual({ 'note.txt': 0 });
    expect(first[1]!.content!.parts[0]!.functionResponse!.response).toEqual({
      version: 0,
      notes: 1,
    });
    const second = await ctx.run('what does it say?');
    expect(second[1]!.content!.parts[0]!.functionResponse!.response).toEqual({ text: 'milk' });
    // The model saw the whole conversation: both user messages and the first turn's tool call.
    const texts = model.requests[2]!.contents.map((c) => c.parts.map(describePart).join('+'));
    expect(texts).toEqual([
      'save milk',
      'call save_note',
      'response save_note',
      'saved',
      'what does it say?',
    ]);
    expect((await ctx.read()).state).toEqual({ notes: 1 });
  });

  it('fills {key?} with nothing when the key is unset, and fails clearly on a missing {key}', async () => {
    const model = new ScriptedModel(['ok', 'ok']);
    const optional = await setUp(
      new LlmAgent({ name: 'agent', model, instruction: 'Mood: {mood?}. JSON: {"a": 1}' }),
    );
    await optional.run('hi');
    expect(model.requests[0]!.systemInstruction).toContain('Mood: . JSON: {"a": 1}');
    await services.close();

    const strict = await setUp(
      new LlmAgent({ name: 'agent', model: new ScriptedModel(['x']), instruction: 'Mood: {mood}' }),
    );
    const error = await strict.run('hi').catch((e: Error) => e);
    expect((error as Error).name).toBe('InvalidRequestError');
    expect((error as Error).message).toMatch(/state key mood, which is not set/);
    const events = (await strict.read()).events;
    expect(events.at(-1)).toMatchObject({ author: 'agent', errorCode: 'INVALID_REQUEST' });
  });
});

function describePart(part: {
  text?: string;
  functionCall?: { name: string };
  functionResponse?: { name: string };
}) {
  if (part.functionCall) return `call ${part.functionCall.name}`;
  if (part.functionResponse) return `response ${part.functionResponse.name}`;
  return part.text ?? '?';
}

/** A one-line description of an event, for comparing sequences. */
export function kindOf(event: Event): string {
  if (event.errorCode) return `error ${event.errorCode}`;
  const part = event.content?.parts[0];
  if (!part) return 'no content';
  if (part.functionCall || part.functionResponse) return describePart(part);
  return 'text';
}
