// The event log's lines, a page of the log at a time: markers say what they rewound, both kinds.

import { expect, it } from 'vitest';
import { createEvent, createUserContent } from '../../../src/index.ts';
import { logLines } from '../../../src/ui/history/event-log-model.ts';

it('describes both kinds of rewind marker', () => {
  const question = createEvent({
    invocationId: 'i1',
    author: 'user',
    content: createUserContent('Is INV-7 paid?'),
  });
  const checkpoint = createEvent({
    invocationId: 'i1',
    author: 'support',
    actions: { agentState: { current_node: 'billing', loop_counts: {}, step: 4 } },
  });
  const beforeTurn = createEvent({
    invocationId: 'm1',
    author: 'user',
    actions: { rewindBeforeInvocationId: 'i1' },
  });
  const toCheckpoint = createEvent({
    invocationId: 'm2',
    author: 'user',
    actions: { rewindAfterEventId: checkpoint.id },
  });
  // A page of the log from its second event: the first marker's target lies before the page.
  const lines = logLines([
    { seq: 1, event: checkpoint, active: true },
    { seq: 2, event: beforeTurn, active: false, target: question },
    { seq: 3, event: toCheckpoint, active: false, target: checkpoint },
  ]);
  expect(lines.map((line) => [line.seq, line.summary, line.marker, line.active])).toEqual([
    [1, expect.stringMatching(/^checkpoint/), false, true],
    [2, 'Rewound to before “Is INV-7 paid?”', true, false],
    [3, 'Rewound to just after the checkpoint before billing', true, false],
  ]);
});

it('says what an event holds in one short line, however long its values', () => {
  const big = 'y'.repeat(20 * 1024 * 1024);
  const event = createEvent({
    invocationId: 'i1',
    author: 'flow',
    content: { role: 'model', parts: [{ text: big }] },
    actions: {
      stateDelta: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`key${i}`, big])),
      agentState: { current_node: 'billing', notes: big },
    },
    errorCode: 'MAX_TOKENS',
    errorMessage: big,
  });
  const [line] = logLines([{ seq: 1, event, active: true }]);
  expect(line!.summary.length).toBeLessThan(500);
  expect(line!.summary).toMatch(
    /^y+… · state: key0, key1, .*, key9 and 990 more · checkpoint \{"current_node":"billing","notes":"y+… · error MAX_TOKENS: y+…$/,
  );
});
