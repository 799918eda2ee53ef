// The event log's lines: markers say what they rewound, both kinds.

import { expect, it } from 'vitest';
import { createEvent, createUserContent } from '../../src/index.ts';
import { logLines } from '../../src/ui/event-log-model.ts';

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
  const lines = logLines([question, checkpoint, beforeTurn, toCheckpoint], new Set());
  expect(lines.map((line) => [line.summary, line.marker])).toEqual([
    ['Is INV-7 paid?', false],
    [expect.stringMatching(/^checkpoint/), false],
    ['Rewound to before “Is INV-7 paid?”', true],
    ['Rewound to just after the checkpoint before billing', true],
  ]);
});
