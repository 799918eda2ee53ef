// LocalGgufModel over a hand-written engine (what wllama does is tested in Chromium, in
// test/e2e/wllama.test.ts): the messages the chat template gets, streamed text, tool calls held
// by a grammar and read back as calls, the per-turn call limit, the queue, and Stop.

import { describe, expect, it } from 'vitest';
import {
  LocalGgufModel,
  createUserContent,
  type Content,
  type LlmRequest,
  type LocalChatEngine,
  type LocalChatParams,
} from '../../../src/index.ts';
import { collect, deferred, rejectionOf } from '../../support/helpers.ts';

/** Answers each request with the next reply, in pieces; a reply may wait for a gate to open. */
class FakeEngine implements LocalChatEngine {
  readonly requests: LocalChatParams[] = [];
  constructor(private readonly replies: { pieces: string[]; gate?: Promise<void> }[]) {}

  async createChatCompletion(params: LocalChatParams): Promise<void> {
    this.requests.push(params);
    const reply = this.replies.shift() ?? { pieces: [] };
    await reply.gate;
    for (const piece of reply.pieces)
      params.onData({ choices: [{ delta: { content: piece }, finish_reason: null }] });
    params.onData({
      choices: [{ delta: {}, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 7,
        completion_tokens: reply.pieces.length,
        total_tokens: 7 + reply.pieces.length,
      },
    });
  }
}

const calculator = {
  name: 'calculator',
  description: 'Evaluates arithmetic',
  parameters: {
    type: 'object',
    properties: { expression: { type: 'string' } },
    required: ['expression'],
  },
};

function ask(text: string, extra: Partial<LlmRequest> = {}): LlmRequest {
  return { contents: [createUserContent(text)], ...extra };
}

function model(engine: LocalChatEngine, maxToolCallsPerTurn?: number) {
  return new LocalGgufModel({
    model: 'tiny.gguf',
    engine,
    ...(maxToolCallsPerTurn !== undefined ? { maxToolCallsPerTurn } : {}),
  });
}

describe('LocalGgufModel', () => {
  it('streams text as it comes, then the whole answer with its usage', async () => {
    const engine = new FakeEngine([{ pieces: ['Forty', '-two', '.'] }]);
    const responses = await collect(model(engine).generateContentAsync(ask('6 × 7?'), true));
    expect(responses.filter((r) => r.partial).map((r) => r.content?.parts[0]?.text)).toEqual([
      'Forty',
      '-two',
      '.',
    ]);
    expect(responses.at(-1)).toEqual({
      content: { role: 'model', parts: [{ text: 'Forty-two.' }] },
      turnComplete: true,
      modelVersion: 'tiny.gguf',
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
    });
    expect(engine.requests[0]?.grammar).toBeUndefined();
  });

  it('holds a request with tools to a grammar, and reads a call back as a functionCall', async () => {
    const engine = new FakeEngine([
      { pieces: ['{"name":"calculator",', '"arguments":{"expression":"6*7"}}'] },
    ]);
    const responses = await collect(
      model(engine).generateContentAsync(ask('6 × 7?', { tools: [calculator] }), true),
    );
    expect(responses.filter((r) => r.partial)).toEqual([]);
    const call = responses.at(-1)?.content?.parts[0]?.functionCall;
    expect(call).toMatchObject({ name: 'calculator', args: { expression: '6*7' } });
    expect(call?.id).toMatch(/^adk-/);
    const grammar = engine.requests[0]?.grammar ?? '';
    expect(grammar).toMatch(/^root ::= call-0 \| text$/m);
    expect(grammar).toContain('"\\"calculator\\""');
    expect(grammar).toContain('"\\"expression\\"" ws ":" ws args-0-expression');
  });

  it('formats calls as the assistant’s JSON and results as the user’s text, for any template', async () => {
    const engine = new FakeEngine([{ pieces: ['42'] }]);
    const contents: Content[] = [
      createUserContent('6 × 7?'),
      {
        role: 'model',
        parts: [{ functionCall: { id: 'c1', name: 'calculator', args: { expression: '6*7' } } }],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'calculator', response: { result: 42 } } }],
      },
      createUserContent('Thanks'),
    ];
    await collect(
      model(engine).generateContentAsync({
        contents,
        systemInstruction: 'Be brief.',
        tools: [calculator],
      }),
    );
    const messages = engine.requests[0]!.messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[0]!.content).toMatch(/^Be brief\.\n\nYou can call tools\./);
    expect(messages[0]!.content).toContain('- calculator: Evaluates arithmetic');
    expect(messages[2]!.content).toBe('{"name":"calculator","arguments":{"expression":"6*7"}}');
    // A result and the next message are one user message: templates like Gemma's want turns to alternate.
    expect(messages[3]!.content).toBe('Result of calculator: {"result":42}\n\nThanks');
  });

  it('answers in text once it has made its calls for the turn', async () => {
    const engine = new FakeEngine([{ pieces: ['done'] }]);
    const call = { functionCall: { id: 'c', name: 'calculator', args: { expression: '1' } } };
    const result = { functionResponse: { id: 'c', name: 'calculator', response: { result: 1 } } };
    const contents: Content[] = [
      createUserContent('count'),
      { role: 'model', parts: [call] },
      { role: 'user', parts: [result] },
      { role: 'model', parts: [call] },
      { role: 'user', parts: [result] },
    ];
    await collect(model(engine, 2).generateContentAsync({ contents, tools: [calculator] }));
    expect(engine.requests[0]?.grammar).toMatch(/^root ::= text$/m);
    expect(engine.requests[0]?.grammar).not.toContain('call-0');
  });

  it('holds structured output to the response schema', async () => {
    const engine = new FakeEngine([{ pieces: ['{"ok":true}'] }]);
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const [final] = await collect(
      model(engine).generateContentAsync(ask('ok?', { responseSchema: schema })),
    );
    expect(final?.content?.parts).toEqual([{ text: '{"ok":true}' }]);
    expect(engine.requests[0]?.grammar).toMatch(/^root ::= answer$/m);
    expect(engine.requests[0]?.grammar).toContain(
      'answer ::= "{" ws "\\"ok\\"" ws ":" ws answer-ok ws "}"',
    );
  });

  it('says so when a call was cut off by the longest reply', async () => {
    const engine = new FakeEngine([{ pieces: ['{"name":"calculator","argum'] }]);
    const error = await rejectionOf(
      collect(model(engine).generateContentAsync(ask('6 × 7?', { tools: [calculator] }))),
    );
    expect(error.name).toBe('ModelError');
    expect(error.message).toMatch(/stopped in the middle of a tool call/);
  });

  it('runs one request at a time: the second waits for the first to finish', async () => {
    const gate = deferred();
    const engine = new FakeEngine([
      { pieces: ['first'], gate: gate.promise },
      { pieces: ['second'] },
    ]);
    const local = model(engine);
    const first = collect(local.generateContentAsync(ask('one')));
    const second = collect(local.generateContentAsync(ask('two')));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(engine.requests).toHaveLength(1);
    gate.resolve();
    expect((await first).at(-1)?.content?.parts[0]?.text).toBe('first');
    expect((await second).at(-1)?.content?.parts[0]?.text).toBe('second');
  });

  it('stops at once on abort, and the next request runs', async () => {
    const engine = new FakeEngine([
      { pieces: ['never'], gate: new Promise(() => {}) },
      { pieces: ['next'] },
    ]);
    const local = model(engine);
    const controller = new AbortController();
    const stopped = rejectionOf(
      collect(local.generateContentAsync(ask('one'), true, { signal: controller.signal })),
    );
    // One that waits in the queue and is aborted too leaves without running.
    const waiting = new AbortController();
    const dropped = rejectionOf(
      collect(local.generateContentAsync(ask('two'), true, { signal: waiting.signal })),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    waiting.abort();
    controller.abort();
    expect((await stopped).name).toBe('AbortError');
    expect((await dropped).name).toBe('AbortError');
    expect(engine.requests[0]?.abortSignal).toBe(controller.signal);
    const [final] = await collect(local.generateContentAsync(ask('three')));
    expect(final?.content?.parts).toEqual([{ text: 'next' }]);
    expect(engine.requests).toHaveLength(2);
  });

  it('loads its engine on first use, and again after a failed load', async () => {
    let loads = 0;
    const engine = new FakeEngine([{ pieces: ['hi'] }]);
    const local = new LocalGgufModel({
      model: 'tiny.gguf',
      engine: async () => {
        loads++;
        if (loads === 1) throw new Error('out of memory');
        return engine;
      },
    });
    expect((await rejectionOf(collect(local.generateContentAsync(ask('a'))))).message).toBe(
      'out of memory',
    );
    expect((await collect(local.generateContentAsync(ask('b')))).at(-1)?.content?.parts).toEqual([
      { text: 'hi' },
    ]);
    await collect(local.generateContentAsync(ask('c')));
    expect(loads).toBe(2);
  });
});
