// Flows across pauses, interruptions and restarts: parallel joins on their own branches,
// approval (approve, reject, across a restart), resume at each kind of node, and rewind.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  compileFlow,
  textOf,
  type BaseTool,
  type Content,
  type Event,
  type Flow,
} from '../../../src/index.ts';
import {
  FAN_FLOW,
  call,
  nodeModel,
  nodePath,
  recordingTool,
  replies,
} from '../../support/flows.ts';
import { collect } from '../../support/helpers.ts';
import { openRunnerSession, userId, type RunnerSession } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const approvalRequest = (events: readonly Event[]) =>
  events
    .flatMap((event) => event.content?.parts ?? [])
    .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;

const answer = (id: string, response: Record<string, unknown>): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name: 'adk_request_confirmation', response } }],
});

/** Support: classify → billing agent (tool needs approval) → check → end, or loop once. */
const support: Flow = {
  name: 'support',
  state: [
    { key: 'category', operation: 'replace', default: null },
    { key: 'notes', operation: 'append', default: [] },
  ],
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'classify',
      type: 'llm',
      output: [{ key: 'category', type: 'enum', enum: ['billing', 'tech'] }],
      updateState: { category: '{{output.category}}' },
    },
    {
      id: 'route',
      type: 'condition',
      rules: [
        { variable: '{{state.category}}', operation: 'is', value: 'billing', output: 'billing' },
      ],
    },
    {
      id: 'billing',
      type: 'agent',
      instruction: 'Help with billing.',
      tools: ['lookup_invoice'],
      requireApproval: true,
      updateState: { notes: '{{output}}' },
    },
    {
      id: 'check',
      type: 'conditionAgent',
      instruction: 'Resolved?',
      scenarios: ['resolved', 'unresolved'],
    },
    { id: 'again', type: 'loop', to: 'billing', maxLoops: 1, fallback: 'Handing over.' },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'classify' },
    { from: 'classify', to: 'route' },
    { from: 'route', to: 'billing', when: 'billing' },
    { from: 'route', to: 'end', when: 'else' },
    { from: 'billing', to: 'check' },
    { from: 'check', to: 'end', when: 'resolved' },
    { from: 'check', to: 'again', when: 'unresolved' },
  ],
};

function supportParts() {
  const lookup = recordingTool('lookup_invoice', (args) => ({ id: args['id'], status: 'paid' }));
  const model = nodeModel({
    classify: () => '{"category": "billing"}',
    billing: (request) => {
      const last = request.contents.at(-1)!.parts[0]!.functionResponse;
      if (last) return `lookup said ${JSON.stringify(last.response)}`;
      return call('lookup_invoice', { id: 'INV-7' });
    },
    check: (request) =>
      textOf(request.contents.at(-1)).includes('paid') ? 'resolved' : 'unresolved',
  });
  return { lookup, model };
}

describe.each(serviceKinds)('flows that pause and resume ($name)', (kind) => {
  let services: Services;
  beforeEach(() => {
    services = kind.open();
  });
  afterEach(() => services.close());

  async function open(flow: Flow, model: ReturnType<typeof nodeModel>, tools: BaseTool[] = []) {
    return openRunnerSession(services, compileFlow(flow, { model, tools }), { resumable: true });
  }

  it('asks the node’s own approval prompt, naming the tool for {tools} (Flowise’s)', async () => {
    const parts = supportParts();
    const asking: Flow = {
      ...support,
      nodes: support.nodes.map((node) =>
        node.id === 'billing' ? { ...node, approvalPrompt: 'Look up with {tools}?' } : node,
      ),
    };
    const session = await open(asking, parts.model, [parts.lookup.tool]);
    const request = approvalRequest(await session.run('Is INV-7 paid?'));
    expect(request.args).toMatchObject({
      toolConfirmation: { hint: 'Look up with lookup_invoice?' },
    });
  });

  it('pauses a node for approval, and runs the tool once approved, across a restart', async () => {
    const first = supportParts();
    const session = await open(support, first.model, [first.lookup.tool]);
    const paused = await session.run('Is INV-7 paid?');
    expect(nodePath(paused)).toEqual(['start', 'classify', 'route', 'billing']);
    const request = approvalRequest(paused);
    expect(first.lookup.runs).toEqual([]);

    // After a reload: new services, a new compiled agent, the same storage.
    services = await services.restart();
    const second = supportParts();
    const again = await openRunnerSession(
      services,
      compileFlow(support, { model: second.model, tools: [second.lookup.tool] }),
      { resumable: true },
    );
    const resumed = await collect(
      again.runner.runAsync({
        userId,
        sessionId: session.sessionId,
        newMessage: answer(request.id!, { confirmed: true }),
      }),
    );
    expect(second.lookup.runs).toEqual([{ id: 'INV-7' }]);
    expect(nodePath(resumed)).toEqual(['check', 'end']);
    expect(second.model.calls.get('classify')).toBeUndefined(); // finished nodes never run again
    expect(new Set(resumed.map((event) => event.invocationId))).toEqual(
      new Set([paused[0]!.invocationId]),
    );
    const stored = await services.sessionService.getSession({
      appName: 'app',
      userId,
      sessionId: session.sessionId,
    });
    expect(stored!.state['notes']).toEqual(['lookup said {"id":"INV-7","status":"paid"}']);
  });

  it('tells the model a rejected call was denied, with the approver’s feedback', async () => {
    const { lookup, model } = supportParts();
    const session = await open(support, model, [lookup.tool]);
    const paused = await session.run('Is INV-7 paid?');
    const resumed = await collect(
      session.runner.runAsync({
        userId,
        sessionId: session.sessionId,
        newMessage: answer(approvalRequest(paused).id!, {
          confirmed: false,
          payload: 'Not today.',
        }),
      }),
    );
    expect(lookup.runs).toEqual([]);
    expect(replies(resumed)[0]).toMatch(/billing: lookup said .*rejected.*Not today\./);
    // unresolved → the loop runs billing once more, which asks for approval again
    expect(nodePath(resumed)).toEqual(['check', 'again', 'billing']);
  });

  it('runs parallel branches on their own branches, and a join once, after all arrive', async () => {
    const flow = FAN_FLOW;

    const seen = new Map<string, string>();
    const model = nodeModel(
      Object.fromEntries(
        ['b', 'c', 'e', 'd'].map((node) => [
          node,
          (request) => {
            seen.set(node, request.contents.map((content) => textOf(content)).join(' | '));
            return `${node} says hi`;
          },
        ]),
      ),
    );
    const session = await open(flow, model);
    const events = await session.run('go');
    const path = nodePath(events);
    expect(path.filter((node) => node.startsWith('d'))).toEqual(['d']);
    expect(path).toEqual(expect.arrayContaining(['b@fan.b', 'c@fan.c', 'e@fan.c']));
    expect(path.indexOf('d')).toBeGreaterThan(path.indexOf('e@fan.c'));
    expect(seen.get('e')).toContain('c says hi');
    expect(seen.get('e')).not.toContain('b says hi'); // branches do not leak into each other
    expect(seen.get('d')).toContain('b says hi');
    expect(seen.get('d')).toContain('e says hi');
    expect([...((await session.read()).state['notes'] as string[])].sort()).toEqual([
      'b says hi',
      'c says hi',
      'e says hi',
    ]);
  });

  it('restores the flow’s state keys on rewind', async () => {
    const { lookup, model } = supportParts();
    const session = await open({ ...support, nodes: support.nodes.map(noApproval) }, model, [
      lookup.tool,
    ]);
    const first = await session.run('INV-7?');
    const before = (await session.read()).state;
    await session.run('INV-7 again?');
    expect((await session.read()).state['notes']).toHaveLength(2);
    const second = (await session.read()).events.at(-1)!.invocationId;
    expect(second).not.toBe(first[0]!.invocationId);
    await session.rewind(second);
    expect((await session.read()).state).toEqual(before);
  });
});

function noApproval(node: Flow['nodes'][number]): Flow['nodes'][number] {
  return node.type === 'agent' ? { ...node, requireApproval: false } : node;
}

describe.each(serviceKinds)('resume at each kind of node ($name)', (kind) => {
  let services: Services;
  afterEach(() => services?.close());

  const flow: Flow = {
    name: 'tour',
    state: [{ key: 'found', operation: 'replace' }],
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'plan', type: 'llm', instruction: 'Plan' },
      { id: 'act', type: 'tool', tools: ['lookup'], updateState: { found: '{{output.found}}' } },
      {
        id: 'gate',
        type: 'condition',
        rules: [{ variable: '{{state.found}}', operation: 'isNotEmpty', output: 'found' }],
      },
      { id: 'helper', type: 'agent', instruction: 'Help' },
      { id: 'judge', type: 'conditionAgent', instruction: 'Good?', scenarios: ['good', 'bad'] },
      { id: 'again', type: 'loop', to: 'helper', maxLoops: 1 },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { from: 'start', to: 'plan' },
      { from: 'plan', to: 'act' },
      { from: 'act', to: 'gate' },
      { from: 'gate', to: 'helper', when: 'found' },
      { from: 'gate', to: 'end', when: 'else' },
      { from: 'helper', to: 'judge' },
      { from: 'judge', to: 'again', when: 'bad' },
      { from: 'judge', to: 'end', when: 'good' },
    ],
  };
  const fullPath = [
    'start',
    'plan',
    'act',
    'gate',
    'helper',
    'judge',
    'again',
    'helper',
    'judge',
    'end',
  ];

  function parts() {
    const lookup = recordingTool('lookup', () => ({ found: 'yes' }));
    const model = nodeModel({
      plan: () => call('lookup', {}),
      helper: (_, n) => `help ${n}`,
      // bad after the first help, good after the second (counted in what it sees, so that a
      // restarted model answers the same)
      judge: (request) =>
        request.contents.filter((content) => textOf(content).includes('[helper] said')).length < 2
          ? 'bad'
          : 'good',
    });
    return { lookup, model };
  }

  it.each([
    ['start', 0],
    ['plan', 1],
    ['act', 2],
    ['gate', 3],
    ['helper', 4],
    ['judge', 5],
    ['again', 6],
    ['end', 9],
  ])('resumes a run cut off at %s without re-running finished nodes', async (node, at) => {
    services = kind.open();
    const first = parts();
    const session: RunnerSession = await openRunnerSession(
      services,
      compileFlow(flow, { model: first.model, tools: [first.lookup.tool] }),
      { resumable: true },
    );
    const cut: Event[] = [];
    for await (const event of session.stream('go')) {
      cut.push(event);
      if (nodePath(cut).length === at + 1) break; // just after the checkpoint of `node`
    }
    expect(nodePath(cut).at(-1)).toBe(node);

    services = await services.restart();
    const second = parts();
    const again = await openRunnerSession(
      services,
      compileFlow(flow, { model: second.model, tools: [second.lookup.tool] }),
      { resumable: true },
    );
    const resumed = await collect(
      again.runner.runAsync({
        userId,
        sessionId: session.sessionId,
        invocationId: cut[0]!.invocationId,
      }),
    );
    // The cut-off node runs (no second checkpoint for it), then the rest of the path.
    expect(nodePath(resumed)).toEqual(fullPath.slice(at + 1));
    const ran = [...first.lookup.runs, ...second.lookup.runs];
    expect(ran).toHaveLength(1); // the tool ran exactly once in all
    const calls = (name: string) =>
      (first.model.calls.get(name) ?? 0) + (second.model.calls.get(name) ?? 0);
    expect(calls('plan')).toBe(1);
    expect(calls('helper')).toBe(2);
    expect(calls('judge')).toBe(2);
    expect(resumed.at(-1)!.actions.endOfAgent).toBe(true);
  });

  it('rewinds to before a node run (a checkpoint), and resumes the flow from that node', async () => {
    services = kind.open();
    const { lookup, model } = parts();
    const session = await openRunnerSession(
      services,
      compileFlow(flow, { model, tools: [lookup.tool] }),
      { resumable: true },
    );
    const events = await session.run('go');
    const checkpoints = events.filter((event) => nodePath([event]).length === 1);
    const secondHelper = checkpoints.filter((event) => nodePath([event])[0] === 'helper')[1]!;
    const marker = await session.runner.rewindAsync({
      userId,
      sessionId: session.sessionId,
      rewindAfterEventId: secondHelper.id,
    });
    expect(marker.actions.rewindAfterEventId).toBe(secondHelper.id);
    const resumed = await collect(
      session.runner.runAsync({
        userId,
        sessionId: session.sessionId,
        invocationId: events[0]!.invocationId,
      }),
    );
    expect(nodePath(resumed)).toEqual(['judge', 'end']);
    expect(model.calls.get('helper')).toBe(3); // the rewound run of helper ran again
    expect(model.calls.get('plan')).toBe(1);
    expect(lookup.runs).toHaveLength(1);
  });
});
