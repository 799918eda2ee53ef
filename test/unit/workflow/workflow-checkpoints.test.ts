// A workflow's node runs as checkpoints (the Checkpoints view's rows), and time travel to one:
// rewind to before a node, resume, and the workflow runs again from that node on, the nodes
// before it kept as they were.

import { describe, expect, it } from 'vitest';
import { InMemoryRunner, Workflow, type Event, type NodeContext } from '../../../src/index.ts';
import { workflowCheckpointRows } from '../../../src/ui/history/checkpoints-model.ts';
import { collect } from '../../support/helpers.ts';

function counting(runs: Record<string, number>) {
  const count = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);
  function outline(ctx: NodeContext, input: unknown) {
    count('outline');
    ctx.state.set('topic', input);
    return `outline of ${input}`;
  }
  function draft(ctx: NodeContext, input: unknown) {
    count('draft');
    ctx.state.set('drafts', Number(ctx.state.get('drafts') ?? 0) + 1);
    return `draft from ${input}`;
  }
  function polish(_ctx: NodeContext, input: unknown) {
    count('polish');
    return `polished ${input}`;
  }
  return new Workflow({ name: 'writer', edges: [['START', outline, draft, polish]] });
}

describe('workflow checkpoints', () => {
  it('lists one row per node run, and a rewind to before one runs the workflow again from it', async () => {
    const runs: Record<string, number> = {};
    const runner = new InMemoryRunner({
      agent: counting(runs),
      appName: 'app',
      resumabilityConfig: { isResumable: true },
    });
    const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
    const read = async (): Promise<readonly Event[]> =>
      (await runner.sessionService.getSession({
        appName: 'app',
        userId: 'u',
        sessionId: session.id,
      }))!.events;
    await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: 'tea' }] },
      }),
    );
    const rows = workflowCheckpointRows(await read(), session.id, 'writer', { running: false });
    expect(rows.map((r) => [r.node, r.status, r.stateAfter])).toEqual([
      ['outline', 'done', { topic: 'tea' }],
      ['draft', 'done', { topic: 'tea', drafts: 1 }],
      ['polish', 'done', { topic: 'tea', drafts: 1 }],
    ]);

    // Back to before draft: its state change goes, and a resume runs draft and polish again.
    const draftRow = rows[1]!;
    await runner.rewindAsync({
      userId: 'u',
      sessionId: session.id,
      rewindAfterEventId: draftRow.checkpointId,
    });
    const after = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: session.id,
    });
    expect(after!.state).toEqual({ topic: 'tea' });
    const resumed = await collect(
      runner.runAsync({ userId: 'u', sessionId: session.id, invocationId: draftRow.invocationId }),
    );
    expect(resumed.filter((e) => e.output !== undefined).map((e) => e.output)).toEqual([
      'draft from outline of tea',
      'polished draft from outline of tea',
    ]);
    expect(runs).toEqual({ outline: 1, draft: 2, polish: 2 });
    const again = workflowCheckpointRows(await read(), session.id, 'writer', { running: false });
    expect(again.map((r) => [r.node, r.status])).toEqual([
      ['outline', 'done'],
      ['draft', 'done'],
      ['polish', 'done'],
    ]);
  });
});
