// The calls that wait for the user's reply (a question the agent asked, a long-running tool's
// result), read from the active events; the reply a text or a JSON object makes; and how the chat
// shows a question and its reply.

import { describe, expect, it } from 'vitest';
import { createEventActions, type Event, type Part } from '../../../src/index.ts';
import { chatItems } from '../../../src/ui/chat/chat-model.ts';
import { pendingInputRequests, replyResponse } from '../../../src/ui/chat/input-requests-model.ts';

let seq = 0;
function event(author: string, parts: Part[], overrides: Partial<Event> = {}): Event {
  seq += 1;
  return {
    id: `e${seq}`,
    invocationId: 'i1',
    author,
    timestamp: seq,
    actions: createEventActions(),
    content: { role: author === 'user' ? 'user' : 'model', parts },
    ...overrides,
  };
}

const ask = event(
  'helper',
  [{ functionCall: { id: 'q1', name: 'ask_user', args: { question: 'Which colour?' } } }],
  { longRunningToolIds: ['q1'] },
);
const job = event(
  'helper',
  [{ functionCall: { id: 'j1', name: 'request_refund', args: { amount: 30 } } }],
  { longRunningToolIds: ['j1'] },
);
const jobProgress = event('helper', [
  { functionResponse: { id: 'j1', name: 'request_refund', response: { status: 'pending' } } },
]);
const approval = event(
  'helper',
  [
    {
      functionCall: {
        id: 'c1',
        name: 'adk_request_confirmation',
        args: { originalFunctionCall: { id: 'x', name: 'send', args: {} }, toolConfirmation: {} },
      },
    },
  ],
  { longRunningToolIds: ['c1'] },
);
const ordinary = event('helper', [{ functionCall: { id: 'o1', name: 'calculator', args: {} } }]);
const reply = (id: string, name: string, response: Record<string, unknown>) =>
  event('user', [{ functionResponse: { id, name, response } }]);

describe('calls waiting for the user', () => {
  it('lists questions and long-running calls, with what the tool said so far, but not approvals or ordinary calls', () => {
    expect(pendingInputRequests([ask, job, jobProgress, approval, ordinary])).toEqual([
      {
        callId: 'q1',
        name: 'ask_user',
        invocationId: 'i1',
        author: 'helper',
        kind: 'question',
        message: 'Which colour?',
        args: { question: 'Which colour?' },
      },
      {
        callId: 'j1',
        name: 'request_refund',
        invocationId: 'i1',
        author: 'helper',
        kind: 'result',
        args: { amount: 30 },
        progress: { status: 'pending' },
      },
    ]);
  });

  it('reads ADK’s own question (adk_request_input, from an ADK server) as a question', () => {
    const adkAsk = event(
      'helper',
      [{ functionCall: { id: 'q2', name: 'adk_request_input', args: { message: 'Name?' } } }],
      { longRunningToolIds: ['q2'] },
    );
    expect(pendingInputRequests([adkAsk])).toEqual([
      expect.objectContaining({ callId: 'q2', kind: 'question', message: 'Name?' }),
    ]);
  });

  it('drops a call once the user has answered it (the agent’s own progress does not count)', () => {
    const answered = [
      ask,
      job,
      jobProgress,
      reply('q1', 'ask_user', { result: 'blue' }),
      reply('j1', 'request_refund', { status: 'approved' }),
    ];
    expect(pendingInputRequests(answered)).toEqual([]);
  });

  it.each([
    ['blue', { response: { result: 'blue' } }],
    ['  two words ', { response: { result: '  two words ' } }],
    ['{"status": "done", "id": 4}', { response: { status: 'done', id: 4 } }],
    ['', { error: 'Write a reply first.' }],
    ['   ', { error: 'Write a reply first.' }],
    ['{"status": ', { error: expect.stringMatching(/^This looks like JSON but does not parse: /) }],
    [
      '{"a":1} trailing',
      { error: expect.stringMatching(/^This looks like JSON but does not parse/) },
    ],
    ['[1, 2]', { response: { result: '[1, 2]' } }],
  ])('a reply %j makes %j', (text, expected) => {
    expect(replyResponse(text)).toEqual(expected);
  });
});

describe('a question and its reply in the chat', () => {
  it('shows the question as the agent’s message and the reply as the user’s, without turn actions', () => {
    const items = chatItems([ask, reply('q1', 'ask_user', { result: 'blue' })]);
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'message',
        author: 'helper',
        fromUser: false,
        text: 'Which colour?',
      }),
      expect.objectContaining({ kind: 'message', fromUser: true, text: 'blue', reply: true }),
    ]);
  });

  it('shows a structured reply as JSON', () => {
    const items = chatItems([ask, reply('q1', 'ask_user', { colour: 'blue', shade: 2 })]);
    expect(items[1]).toMatchObject({
      fromUser: true,
      json: true,
      reply: true,
      text: JSON.stringify({ colour: 'blue', shade: 2 }, null, 2),
    });
  });

  it('marks a long-running call waiting until the user gives its result, then done', () => {
    const status = (events: Event[]) =>
      chatItems(events).flatMap((item) => (item.kind === 'tool' ? [item.status] : []));
    expect(status([job])).toEqual(['waiting']);
    expect(status([job, jobProgress])).toEqual(['waiting']);
    expect(status([job, jobProgress, reply('j1', 'request_refund', { status: 'ok' })])).toEqual([
      'done',
    ]);
  });
});
