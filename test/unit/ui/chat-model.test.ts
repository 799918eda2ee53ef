// What the chat shows of a run's failures: an error event's message, and the reason a model
// stopped after part of an answer, below what it did say.

import { describe, expect, it } from 'vitest';
import { createEventActions, type Event } from '../../../src/index.ts';
import { chatItems, showsError } from '../../../src/ui/chat/chat-model.ts';

function event(overrides: Partial<Event>): Event {
  return {
    id: 'e1',
    invocationId: 'i1',
    author: 'calc',
    timestamp: 1,
    actions: createEventActions(),
    ...overrides,
  };
}

const unreachable = event({
  errorCode: 'MODEL_UNREACHABLE',
  errorMessage: 'Could not reach Ollama at http://localhost:11434 (4 attempts). The run stopped.',
});
const cutOff = event({
  id: 'e2',
  content: { role: 'model', parts: [{ text: 'The answer is' }] },
  errorCode: 'MAX_TOKENS',
  errorMessage: 'The answer was cut off at the token limit.',
});

describe('chat items of failures', () => {
  it('shows an error event’s message', () => {
    expect(chatItems([unreachable])).toEqual([
      {
        kind: 'error',
        id: 'e1',
        eventId: 'e1',
        author: 'calc',
        text: unreachable.errorMessage,
      },
    ]);
  });

  it('shows why a model stopped after part of an answer, below that part', () => {
    expect(chatItems([cutOff]).map((item) => [item.kind, 'text' in item && item.text])).toEqual([
      ['message', 'The answer is'],
      ['error', 'The answer was cut off at the token limit.'],
    ]);
  });

  it('knows when the chat already shows a failure', () => {
    expect(showsError([cutOff, unreachable], unreachable.errorMessage)).toBe(true);
    expect(showsError([cutOff], 'Agent deleted: …')).toBe(false);
  });
});

describe('chat items of structured output', () => {
  it.each([
    ['a fenced JSON block', '```json\n{"category":"billing"}\n```'],
    ['bare JSON', '{"category": "billing"}'],
  ])('shows %s from an agent as pretty-printed JSON', (_, text) => {
    const [item] = chatItems([event({ content: { role: 'model', parts: [{ text }] } })]);
    expect(item).toMatchObject({
      kind: 'message',
      json: true,
      text: '{\n  "category": "billing"\n}',
    });
  });

  it('leaves prose, broken JSON and the user’s own words as they are', () => {
    for (const [author, text] of [
      ['calc', 'The answer is {42}.'],
      ['calc', '{"category": '],
      ['user', '{"category": "billing"}'],
    ]) {
      const [item] = chatItems([event({ author, content: { role: 'model', parts: [{ text }] } })]);
      expect(item).toMatchObject({ kind: 'message', text });
      expect(item).not.toHaveProperty('json');
    }
  });
});

describe('chat items of a turn', () => {
  const call = (id: string) => ({ functionCall: { id, name: 'publish', args: { title: 'Tea' } } });
  const answer = (id: string, response: Record<string, unknown>) => ({
    functionResponse: { id, name: 'publish', response },
  });

  it('says a call a human rejected was declined, not failed', () => {
    const items = chatItems([
      event({ id: 'a', content: { role: 'model', parts: [call('c1'), call('c2')] } }),
      event({
        id: 'b',
        author: 'user',
        content: {
          role: 'user',
          parts: [
            answer('c1', { error: 'The user rejected this tool call. Their feedback: not now' }),
            answer('c2', { error: 'Disk on fire' }),
          ],
        },
      }),
    ]);
    expect(items.map((item) => item.kind === 'tool' && item.status)).toEqual([
      'declined',
      'failed',
    ]);
  });

  it('shows the files of the user’s message, and under an answer its model, tokens and time', () => {
    const items = chatItems([
      event({
        id: 'u',
        author: 'user',
        content: {
          role: 'user',
          parts: [
            { text: 'What is this?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'cat.png' } },
          ],
        },
      }),
      event({
        id: 'm',
        content: { role: 'model', parts: [{ text: 'A cat.' }] },
        modelVersion: 'gemini-2.5-flash',
        usageMetadata: { promptTokenCount: 1290, candidatesTokenCount: 4, totalTokenCount: 1294 },
        customMetadata: { trellis: { timing: { firstTokenMs: 420, totalMs: 1340 } } },
      }),
    ]);
    expect(items[0]).toMatchObject({
      kind: 'message',
      fromUser: true,
      text: 'What is this?',
      invocationId: 'i1',
      attachments: [{ name: 'cat.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
    });
    expect(items[1]).toMatchObject({
      kind: 'message',
      fromUser: false,
      usage: 'gemini-2.5-flash · 1,290 in · 4 out · first token 420 ms · 1.3 s',
    });
    expect((items[0] as { usage?: string }).usage).toBeUndefined();
  });

  it('puts the usage of an answer that only called a tool under its call', () => {
    const [item] = chatItems([
      event({
        content: { role: 'model', parts: [call('c1')] },
        modelVersion: 'demo-rules',
        customMetadata: { trellis: { timing: { firstTokenMs: 3, totalMs: 5 } } },
      }),
    ]);
    expect(item).toMatchObject({ kind: 'tool', usage: 'demo-rules · first token 3 ms · 5 ms' });
  });
});

describe('chat items of long values', () => {
  const MB = 1024 * 1024;
  const big = 'y'.repeat(20 * MB);
  const call = event({
    id: 'c1',
    content: {
      role: 'model',
      parts: [{ functionCall: { id: 'f1', name: 'set_state', args: { key: 'k', value: big } } }],
    },
  });
  const answer = (response: Record<string, unknown>) =>
    event({
      id: 'r1',
      author: 'user',
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: 'f1', name: 'set_state', response } }],
      },
    });

  it.each([
    ['a message', { message: `k is now ${big}.` }],
    ['an error', { error: big }],
    ['any other result', { stored: { value: big } }],
  ])('shows a call with long arguments and %s cut short, keeping the whole call', (_, response) => {
    const [item] = chatItems([call, answer(response)]);
    if (item?.kind !== 'tool') throw new Error(`not a tool call: ${item?.kind}`);
    expect(item.args.text).toMatch(/^key=k, value=y+$/);
    expect(item.args.text.length).toBeLessThanOrEqual(200);
    expect(item.args).toMatchObject({ truncated: true, showable: false });
    expect(item.result!.length).toBeLessThanOrEqual(161);
    expect(item.result).toMatch(/…$/);
    expect(item.call).toEqual({ args: { key: 'k', value: big }, result: response });
    expect(item.status).toBe('error' in response ? 'failed' : 'done');
  });

  it('shows a short call whole, with nothing to expand', () => {
    const short = event({
      content: {
        role: 'model',
        parts: [
          { functionCall: { id: 'f1', name: 'calculator', args: { expression: '6 * 7', n: [1] } } },
        ],
      },
    });
    const [item] = chatItems([short, answer({ result: 42 })]);
    expect(item).toMatchObject({
      kind: 'tool',
      args: { text: 'expression=6 * 7, n=[1]', truncated: false, showable: true },
      result: '{"result":42}',
    });
  });

  it('shows a long JSON reply as it is, not pretty-printed', () => {
    const text = JSON.stringify({ value: big });
    const [item] = chatItems([event({ content: { role: 'model', parts: [{ text }] } })]);
    expect(item).toMatchObject({ kind: 'message', text });
    expect(item).not.toHaveProperty('json');
  });
});
