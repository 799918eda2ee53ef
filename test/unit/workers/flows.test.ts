// The app's flows, in the runtime the worker runs (Node over fake-indexeddb): the examples and
// the user's flows as agents, checking and saving flow files, checkpoints and rewinding to them.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_FLOWS } from '../../../src/demos/flow-demos.ts';
import { textOf, type Event } from '../../../src/index.ts';
import { checkpointRows, type CheckpointRow } from '../../../src/ui/history/checkpoints-model.ts';
import { openingCheckpoints } from '../../../src/ui/workbench/session-view.ts';
import { sessionFlow } from '../../../src/ui/workbench/open-session-model.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { OPENING, type RuntimeBroadcast } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

function open(dbName = freshDbName()) {
  const broadcasts: RuntimeBroadcast[] = [];
  const runtime = new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: (message) => broadcasts.push(message),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  return { runtime, broadcasts, dbName };
}

const support = EXAMPLE_FLOWS.find((flow) => flow.name === 'support')!;

/** A small valid flow: start → answer → end. */
function tinyFlow(name = 'tiny', instruction = 'Answer briefly.') {
  return {
    name,
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'answer', type: 'agent', instruction },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { from: 'start', to: 'answer' },
      { from: 'answer', to: 'end' },
    ],
  };
}

async function run(runtime: AppRuntime, sessionId: string, text: string): Promise<Event[]> {
  const events: Event[] = [];
  await runtime.runs.send(sessionId, text, (event) => {
    if (!event.partial) events.push(event);
  });
  return events;
}

/**
 * The Checkpoints panel's rows, from the opening the page reads: the same as from the whole log,
 * from the current turn on.
 */
async function openedRows(runtime: AppRuntime, sessionId: string): Promise<CheckpointRow[]> {
  const opening = await runtime.openSessionSummary(sessionId, OPENING);
  const rows = openingCheckpoints(opening, { running: false });
  const { events } = await runtime.openSession(sessionId);
  const all = checkpointRows(events, sessionId, { running: false });
  expect(rows).toEqual(all.slice(all.length - rows.length));
  expect(rows.at(-1)?.invocationId).toBe(all.at(-1)?.invocationId);
  return rows;
}

/** Approves every pending confirmation of the session until none is left. */
async function approveAll(runtime: AppRuntime, sessionId: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const { events } = await runtime.openSession(sessionId);
    const answered = new Set(
      events.flatMap((e) => e.content?.parts.map((p) => p.functionResponse?.id) ?? []),
    );
    const pending = events
      .flatMap((e) => e.content?.parts.map((p) => p.functionCall) ?? [])
      .find((call) => call?.name === 'adk_request_confirmation' && !answered.has(call.id));
    if (!pending) return;
    await runtime.runs.answer(sessionId, pending.id!, true, undefined, () => undefined);
  }
}

describe('AppRuntime flows', () => {
  it('lists the demo agents, then the example flows, then the user flows', async () => {
    const { runtime } = open();
    const saved = await runtime.flows.save(JSON.stringify(tinyFlow()));
    const agents = await runtime.agents();
    expect(agents.map((agent) => [agent.id, agent.kind])).toEqual([
      ['state-keeper', 'demo'],
      ['writing-workflow', 'demo'],
      ['help-desk', 'demo'],
      ['example:support', 'example'],
      ['example:research-brief', 'example'],
      [saved.saved!.id, 'flow'],
    ]);
    expect(saved.saved!.id).toMatch(/^flow:/);
    // An ADK 2.0 Workflow carries its graph, to draw: START, a routing node, its edges by route.
    const workflow = agents.find((agent) => agent.id === 'help-desk')!.workflow!;
    expect(workflow.nodes.find((node) => node.id === 'triage')).toMatchObject({
      type: 'condition',
      rules: [{ output: 'billing' }],
    });
    expect(workflow.edges.filter((edge) => edge.from === 'triage')).toEqual([
      { from: 'triage', to: 'billing', when: 'billing' },
      { from: 'triage', to: 'technical', when: 'else' },
    ]);
    expect(agents.at(-1)).toMatchObject({ name: 'tiny (flow)', flow: tinyFlow() });
    expect((await runtime.flows.list()).map((flow) => flow.readOnly)).toEqual([true, true, false]);
  });

  it('refuses an invalid flow, naming the nodes, and saves nothing', async () => {
    const { runtime, broadcasts } = open();
    const broken = tinyFlow();
    broken.edges.push({ from: 'answer', to: 'nowhere' });
    (broken.nodes[1] as Record<string, unknown>).tools = ['no_such_tool'];
    const result = await runtime.flows.save(JSON.stringify(broken));
    expect(result.saved).toBeUndefined();
    expect(result.problems.length).toBeGreaterThanOrEqual(2);
    expect(
      result.problems.some((p) => p.nodeId === 'answer' && /no_such_tool/.test(p.message)),
    ).toBe(true);
    expect(result.problems.map((p) => p.message).join('\n')).toMatch(/nowhere/);
    expect(await runtime.flows.list()).toHaveLength(EXAMPLE_FLOWS.length);
    expect(broadcasts).toEqual([]);
  });

  it('reports where JSON stops parsing, by line and column', async () => {
    const { runtime } = open();
    const check = await runtime.flows.check('{\n  "name": "x",\n  "nodes": [,]\n}');
    expect(check.parseError).toMatchObject({ line: 3, column: 13 });
    expect(check.problems).toEqual([{ message: `JSON: ${check.parseError!.message}` }]);
    expect(check.parseError!.message).toBe("Unexpected token ',' at line 3, column 13");
    expect(check.flow).toBeUndefined();
  });

  it('keeps the examples read-only; a duplicate is an editable copy with its own name', async () => {
    const { runtime } = open();
    const error = await rejectionOf(runtime.flows.save(JSON.stringify(support), 'example:support'));
    expect(error.name).toBe('InvalidRequestError');
    const copy = await runtime.flows.duplicate('example:support');
    expect(copy).toMatchObject({ name: 'support-copy', readOnly: false });
    expect((await runtime.flows.duplicate('example:support')).name).toBe('support-copy-2');
    const clash = await runtime.flows.check(JSON.stringify({ ...support, name: 'support' }));
    expect(clash.problems).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/another flow is called "support"/),
      }),
    ]);
  });

  it('runs a session on an example flow, with a checkpoint before each node', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession('example:support');
    await run(runtime, id, 'My login is broken');
    const { events } = await runtime.openSession(id);
    const rows = checkpointRows(events, id, { running: false });
    expect(rows.map((row) => [row.node, row.status])).toEqual([
      ['start', 'done'],
      ['classify', 'done'],
      ['route', 'done'],
      ['tech', 'done'],
      ['end', 'done'],
    ]);
    expect(rows[1]!.stateAfter).toMatchObject({ category: 'tech' });
    const answer = events.filter((e) => e.author === 'tech' && e.content).at(-1);
    expect(textOf(answer?.content)).not.toBe('');
  });

  it('runs the new version of a flow once an edit is saved', async () => {
    const { runtime } = open();
    const first = await runtime.flows.save(JSON.stringify(tinyFlow('tiny', 'First.')));
    const flowId = first.saved!.id;
    const { id } = await runtime.createSession(flowId);
    await run(runtime, id, 'hello');
    const edited = tinyFlow('tiny');
    edited.nodes[1] = { id: 'reply', type: 'agent', instruction: 'Second.' };
    edited.edges = [
      { from: 'start', to: 'reply' },
      { from: 'reply', to: 'end' },
    ];
    expect((await runtime.flows.save(JSON.stringify(edited), flowId)).saved).toBeDefined();
    const events = await run(runtime, id, 'hello again');
    expect(events.some((e) => e.author === 'reply')).toBe(true);
  });

  it('keeps the sessions of a deleted flow, and says so when one runs', async () => {
    const { runtime } = open();
    const { saved } = await runtime.flows.save(JSON.stringify(tinyFlow()));
    const { id } = await runtime.createSession(saved!.id);
    await runtime.flows.remove(saved!.id);
    expect((await runtime.listSessions()).map((s) => s.id)).toContain(id);
    const error = await rejectionOf(run(runtime, id, 'hi'));
    expect(error.message).toMatch(/Flow deleted/);
    expect((await rejectionOf(runtime.flows.remove('example:support'))).name).toBe(
      'InvalidRequestError',
    );
  });

  it('rewinds to before a node and offers to resume the run from there', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession('example:support');
    await run(runtime, id, 'Is invoice INV-1042 paid?');
    await approveAll(runtime, id);
    const before = await runtime.openSession(id);
    const rows = checkpointRows(before.events, id, { running: false });
    const billing = rows.find((row) => row.node === 'billing')!;
    expect(rows.at(-1)).toMatchObject({ node: 'end', status: 'done' });
    expect(await openedRows(runtime, id)).toEqual(rows);
    expect(await runtime.runs.interruptedRuns()).toEqual([]);

    await runtime.rewinds.rewindToCheckpoint(id, billing.checkpointId);
    const after = await runtime.openSession(id);
    const left = checkpointRows(after.events, id, { running: false });
    expect(left.map((row) => row.node).at(-1)).toBe('billing');
    expect(left.at(-1)!.status).toBe('interrupted');
    expect(await openedRows(runtime, id)).toEqual(left);
    const [offered] = await runtime.runs.interruptedRuns();
    // Named by its turn, and said to be rewound on purpose (not cut off by a crash).
    expect(offered).toMatchObject({
      sessionId: id,
      invocationId: billing.invocationId,
      turnText: 'Is invoice INV-1042 paid?',
      cause: 'rewound',
    });

    await runtime.runs.resume(id, billing.invocationId, () => undefined);
    await approveAll(runtime, id);
    const resumed = checkpointRows((await runtime.openSession(id)).events, id, {
      running: false,
    });
    expect(resumed.map((row) => row.node).slice(left.length - 1, left.length + 1)).toEqual([
      'billing',
      'check',
    ]);
    expect(resumed.every((row) => row.status === 'done')).toBe(true);
    expect(await openedRows(runtime, id)).toEqual(resumed);
  });

  it('refuses to rewind to an event that is not a checkpoint, and changes nothing', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession('example:support');
    await run(runtime, id, 'My login is broken');
    const { events } = await runtime.openSession(id);
    const error = await rejectionOf(runtime.rewinds.rewindToCheckpoint(id, events[0]!.id));
    expect(error.name).toBe('InvalidRequestError');
    expect((await runtime.openSession(id)).events).toHaveLength(events.length);
  });

  it('draws the flow a session ran, not the one the Agent select names now; reopened, the session keeps its agent', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession('example:support');
    await run(runtime, id, 'My login is broken');
    await runtime.setAgent(id, 'example:research-brief');
    const summary = (await runtime.openSessionSummary(id, OPENING)).summary;
    expect(summary.agentId).toBe('example:research-brief');
    const agents = await runtime.agents();
    const shown = sessionFlow(agents, summary.agentId, await openedRows(runtime, id));
    expect(shown?.flow?.name).toBe('support');
    expect(shown?.next).toBe('research-brief (example flow)');

    // Not yet run: the flow chosen. A flow that is gone: said by the name it ran under.
    const fresh = await runtime.createSession('example:research-brief');
    expect(sessionFlow(agents, fresh.agentId, [])).toEqual({
      flow: expect.objectContaining({ name: 'research-brief' }),
    });
    const { saved } = await runtime.flows.save(JSON.stringify(tinyFlow('gone soon')));
    const doomed = await runtime.createSession(saved!.id);
    await run(runtime, doomed.id, 'hi');
    const rows = await openedRows(runtime, doomed.id);
    await runtime.flows.remove(saved!.id);
    expect(sessionFlow(await runtime.agents(), saved!.id, rows)).toEqual({ ranOn: 'gone_soon' });
  });
});
