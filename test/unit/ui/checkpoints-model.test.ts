// The Checkpoints view's model: one row per node run of a flow, in the active events only.

import { describe, expect, it } from 'vitest';
import { createEvent, type Event } from '../../../src/core/event.ts';
import {
  checkpointRows,
  flowProgress,
  rewindLabel,
  stateSummary,
} from '../../../src/ui/history/checkpoints-model.ts';

const FLOW = 'support';

/** A little log writer: checkpoints and completions as the flow agent writes them. */
function log() {
  const events: Event[] = [];
  let step = 0;
  const push = (event: Event) => (events.push(event), event);
  return {
    events,
    user: (invocationId: string, text: string) =>
      push(
        createEvent({
          invocationId,
          author: 'user',
          content: { role: 'user', parts: [{ text }] },
        }),
      ),
    start: (invocationId: string, node: string, branch?: string) =>
      push(
        createEvent({
          invocationId,
          author: FLOW,
          ...(branch ? { branch } : {}),
          actions: { agentState: { current_node: node, loop_counts: {}, step: ++step } },
        }),
      ),
    say: (invocationId: string, node: string, text: string) =>
      push(
        createEvent({
          invocationId,
          author: node,
          content: { role: 'model', parts: [{ text }] },
        }),
      ),
    done: (
      invocationId: string,
      node: string,
      stateDelta: Record<string, unknown> = {},
      branch?: string,
    ) =>
      push(
        createEvent({
          invocationId,
          author: FLOW,
          ...(branch ? { branch } : {}),
          actions: {
            stateDelta,
            agentState: { completed_node: node, next: [], loop_counts: {}, step },
          },
        }),
      ),
    end: (invocationId: string) =>
      push(createEvent({ invocationId, author: FLOW, actions: { endOfAgent: true } })),
    rewindBefore: (target: string) =>
      push(
        createEvent({
          invocationId: `marker-${target}`,
          author: 'user',
          actions: { rewindBeforeInvocationId: target },
        }),
      ),
  };
}

describe('checkpointRows', () => {
  it('has one row per node run, each with its parent, node and the state after it', () => {
    const l = log();
    l.user('i1', 'my bill is wrong');
    const triage = l.start('i1', 'triage');
    l.done('i1', 'triage', { topic: 'billing' });
    const billing = l.start('i1', 'billing');
    l.say('i1', 'billing', 'Refunded.');
    l.done('i1', 'billing', { refunded: true, topic: null });
    l.end('i1');

    const rows = checkpointRows(l.events, 's1', { running: false });
    expect(rows).toEqual([
      {
        checkpointId: triage.id,
        parentId: undefined,
        threadId: 's1',
        invocationId: 'i1',
        author: FLOW,
        node: 'triage',
        branch: undefined,
        step: 1,
        status: 'done',
        stateAfter: { topic: 'billing' },
      },
      {
        checkpointId: billing.id,
        parentId: triage.id,
        threadId: 's1',
        invocationId: 'i1',
        author: FLOW,
        node: 'billing',
        branch: undefined,
        step: 2,
        status: 'done',
        stateAfter: { refunded: true },
      },
    ]);
  });

  it.each([
    [true, 'running'],
    [false, 'interrupted'],
  ] as const)(
    'marks a node without its completion %s → %s, with the state now',
    (running, status) => {
      const l = log();
      l.user('i1', 'hi');
      l.start('i1', 'triage');
      l.done('i1', 'triage', { topic: 'tech' });
      l.start('i1', 'tech');
      const rows = checkpointRows(l.events, 's', { running });
      expect(rows.map((row) => row.status)).toEqual(['done', status]);
      expect(rows[1]!.stateAfter).toEqual({ topic: 'tech' });
      expect(flowProgress(rows)).toEqual({
        invocationId: 'i1',
        current: ['tech'],
        visited: ['triage'],
        running,
      });
    },
  );

  it('matches completions by node and branch, so parallel branches finish apart', () => {
    const l = log();
    l.user('i1', 'go');
    l.start('i1', 'a', 'fork.a');
    l.start('i1', 'b', 'fork.b');
    l.done('i1', 'b', { b: 1 }, 'fork.b');
    const rows = checkpointRows(l.events, 's', { running: true });
    expect(rows.map((row) => [row.node, row.branch, row.status])).toEqual([
      ['a', 'fork.a', 'running'],
      ['b', 'fork.b', 'done'],
    ]);
    expect(flowProgress(rows).current).toEqual(['a']);
  });

  it('counts only the active events: a rewound turn leaves no rows', () => {
    const l = log();
    l.user('i1', 'one');
    l.start('i1', 'triage');
    l.done('i1', 'triage', { n: 1 });
    l.end('i1');
    l.user('i2', 'two');
    l.start('i2', 'triage');
    l.done('i2', 'triage', { n: 2 });
    l.end('i2');
    l.rewindBefore('i2');
    const rows = checkpointRows(l.events, 's', { running: false });
    expect(rows.map((row) => [row.invocationId, row.stateAfter])).toEqual([['i1', { n: 1 }]]);
  });

  it('is empty for a session that never ran a flow', () => {
    const l = log();
    l.user('i1', 'hello');
    l.say('i1', 'keeper', 'hi');
    expect(checkpointRows(l.events, 's', { running: false })).toEqual([]);
    expect(flowProgress([])).toEqual({
      invocationId: undefined,
      current: [],
      visited: [],
      running: false,
    });
  });
});

describe('labels', () => {
  it.each([
    [{ node: 'billing', step: 4, branch: undefined }, 'Rewind to before billing (step 4)'],
    [{ node: 'a', step: 2, branch: 'fork.a' }, 'Rewind to before a (step 2, branch fork.a)'],
    [{ node: 'end', step: undefined, branch: undefined }, 'Rewind to before end'],
  ])('names the node and step: %j', (row, label) => {
    expect(rewindLabel(row)).toBe(label);
  });

  it('cuts long states', () => {
    expect(stateSummary({ a: 1 })).toMatchObject({ text: '{"a":1}', truncated: false });
    expect(stateSummary({ text: 'x'.repeat(500) }, 20)).toMatchObject({
      text: `{"text":"${'x'.repeat(11)}`,
      truncated: true,
    });
  });
});
