// Running compiled flows: every node type, routing, state reducers, templates, parallel joins,
// loop bounds and the step limit.

import { describe, expect, it } from 'vitest';
import {
  compileFlow,
  FlowValidationError,
  InMemoryRunner,
  type Event,
  textOf,
  type Flow,
} from '../../../src/index.ts';
import { call, nodeModel, nodePath, recordingTool, replies, runFlow } from '../../support/flows.ts';
import { userMessage } from '../../support/helpers.ts';

const userId = 'ada';

const routing: Flow = {
  name: 'router',
  state: [
    { key: 'category', operation: 'replace', default: null },
    { key: 'notes', operation: 'append', default: [] },
    { key: 'count', operation: 'replace', default: 0 },
  ],
  nodes: [
    {
      id: 'start',
      type: 'start',
      moderation: { blocked: ['forbidden phrase'], message: 'Blocked: {{question}}' },
    },
    {
      id: 'classify',
      type: 'llm',
      instruction: 'Classify: {{question}}',
      output: [
        { key: 'category', type: 'enum', enum: ['billing', 'tech'] },
        { key: 'urgent', type: 'boolean' },
      ],
      updateState: { category: '{{output.category}}', notes: '{{output.category}}' },
    },
    {
      id: 'route',
      type: 'condition',
      rules: [
        { variable: '{{state.category}}', operation: 'is', value: 'billing', output: 'billing' },
        { variable: '{{output.urgent}}', operation: 'is', value: 'true', output: 'urgent' },
      ],
    },
    {
      id: 'billing',
      type: 'agent',
      instruction: 'Billing for {{state.category}}',
      updateState: { notes: '{{output}}' },
    },
    { id: 'urgent', type: 'agent', instruction: 'Urgent' },
    { id: 'other', type: 'agent', instruction: 'Other' },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'classify' },
    { from: 'classify', to: 'route' },
    { from: 'route', to: 'billing', when: 'billing' },
    { from: 'route', to: 'urgent', when: 'urgent' },
    { from: 'route', to: 'other', when: 'else' },
    { from: 'billing', to: 'end' },
    { from: 'urgent', to: 'end' },
    { from: 'other', to: 'end' },
  ],
};

function routingModel(category: string, urgent: boolean) {
  return nodeModel({
    classify: () => '```json\n' + JSON.stringify({ category, urgent }) + '\n```',
    billing: (request) =>
      `billing answer (${request.systemInstruction?.includes('Billing for billing')})`,
    urgent: () => 'urgent answer',
    other: () => 'other answer',
  });
}

describe('a compiled flow', () => {
  it('routes by a condition on the state an llm node wrote, and checkpoints every node', async () => {
    const model = routingModel('billing', false);
    const { turns, state } = await runFlow(compileFlow(routing, { model }), 'my invoice');
    expect(nodePath(turns[0]!)).toEqual(['start', 'classify', 'route', 'billing', 'end']);
    expect(replies(turns[0]!).at(-1)).toBe('billing: billing answer (true)');
    // defaults, a replace, and two appends (a single value pushed each time)
    expect(state).toMatchObject({
      category: 'billing',
      notes: ['billing', 'billing answer (true)'],
      count: 0,
    });
    expect(model.requests[0]!.responseSchema).toMatchObject({
      properties: { category: { enum: ['billing', 'tech'] } },
    });
  });

  it('takes the first matching rule, else the else edge', async () => {
    for (const [category, urgent, expected] of [
      ['tech', true, 'urgent'],
      ['tech', false, 'other'],
    ] as const) {
      const { turns } = await runFlow(
        compileFlow(routing, { model: routingModel(category, urgent) }),
        'hi',
      );
      expect(nodePath(turns[0]!)).toContain(expected);
    }
  });

  it('answers a message with a blocked phrase from the start node, and runs nothing else', async () => {
    const model = routingModel('billing', false);
    const { turns } = await runFlow(compileFlow(routing, { model }), 'a FORBIDDEN phrase here');
    expect(nodePath(turns[0]!)).toEqual(['start']);
    expect(replies(turns[0]!)).toEqual(['start: Blocked: a FORBIDDEN phrase here']);
    expect(model.requests).toHaveLength(0);
  });

  it('stops with a clear error event when structured output is not valid', async () => {
    const model = nodeModel({ classify: () => '{"category": "sales", "urgent": false}' });
    const runner = new InMemoryRunner({ agent: compileFlow(routing, { model }) });
    const session = await runner.sessionService.createSession({ appName: runner.appName, userId });
    const events: Event[] = [];
    const failure = await (async () => {
      try {
        for await (const event of runner.runAsync({
          userId,
          sessionId: session.id,
          newMessage: userMessage('x'),
        }))
          events.push(event);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(failure?.name).toBe('ModelError');
    const error = events.at(-1)!;
    expect(error.author).toBe('classify');
    expect(error.errorCode).toBe('INVALID_OUTPUT');
    expect(error.errorMessage).toMatch(/category.*billing, tech.*sales/);
  });

  it('keeps the old value when a replace gets null, and the state survives the next turn', async () => {
    const flow: Flow = {
      name: 'keeper',
      state: [{ key: 'topic', operation: 'replace', default: 'none' }],
      nodes: [
        { id: 'start', type: 'start' },
        {
          id: 'pick',
          type: 'llm',
          output: [{ key: 'topic', type: 'json' }],
          updateState: { topic: '{{output.topic}}' },
        },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'pick' },
        { from: 'pick', to: 'end' },
      ],
    };
    const model = nodeModel({ pick: (_, n) => (n === 1 ? '{"topic": "tea"}' : '{"topic": null}') });
    const { state } = await runFlow(compileFlow(flow, { model }), 'one', 'two');
    expect(state['topic']).toBe('tea');
  });

  it('loops back at most maxLoops times, then replies with the fallback', async () => {
    const flow: Flow = {
      name: 'retry',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'work', type: 'agent', instruction: 'Work' },
        {
          id: 'check',
          type: 'conditionAgent',
          instruction: 'Done?',
          scenarios: ['done', 'not done'],
        },
        {
          id: 'again',
          type: 'loop',
          to: 'work',
          maxLoops: 2,
          fallback: 'Giving up after {{output}}.',
        },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'work' },
        { from: 'work', to: 'check' },
        { from: 'check', to: 'end', when: 'done' },
        { from: 'check', to: 'again', when: 'not done' },
      ],
    };
    const model = nodeModel({
      work: (_, n) => `attempt ${n}`,
      check: () => '{"output": "Not done"}',
    });
    const { turns } = await runFlow(compileFlow(flow, { model }), 'go', 'again');
    for (const turn of turns) {
      expect(nodePath(turn).filter((node) => node === 'work')).toHaveLength(3);
      expect(replies(turn).at(-1)).toBe('again: Giving up after not done.');
    }
    // the bound is per run: the second turn looped as often as the first
    expect(model.calls.get('work')).toBe(6);
  });

  it('follows a loop’s other edge once the loop is exhausted', async () => {
    const flow: Flow = {
      name: 'bounded',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'work', type: 'agent', instruction: 'Work' },
        { id: 'again', type: 'loop', to: 'work', maxLoops: 1 },
        { id: 'wrap', type: 'agent', instruction: 'Wrap up' },
      ],
      edges: [
        { from: 'start', to: 'work' },
        { from: 'work', to: 'again' },
        { from: 'again', to: 'wrap' },
      ],
    };
    const model = nodeModel({ work: () => 'w', wrap: () => 'wrapped' });
    const { turns } = await runFlow(compileFlow(flow, { model }), 'go');
    expect(nodePath(turns[0]!)).toEqual(['start', 'work', 'again', 'work', 'again', 'wrap']);
  });

  it('stops with FlowStepLimitError when a run passes maxSteps', async () => {
    const flow: Flow = {
      name: 'spin',
      maxSteps: 7,
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'work', type: 'agent', instruction: 'Work' },
        { id: 'again', type: 'loop', to: 'work', maxLoops: 50 },
      ],
      edges: [
        { from: 'start', to: 'work' },
        { from: 'work', to: 'again' },
      ],
    };
    const model = nodeModel({ work: () => 'w' });
    const runner = new InMemoryRunner({ agent: compileFlow(flow, { model }) });
    const session = await runner.sessionService.createSession({ appName: runner.appName, userId });
    const events: Event[] = [];
    await expect(async () => {
      for await (const event of runner.runAsync({
        userId,
        sessionId: session.id,
        newMessage: userMessage('x'),
      }))
        events.push(event);
    }).rejects.toThrow(/spin stopped after 7 steps, before node (work|again)/);
    expect(events.at(-1)).toMatchObject({ author: 'spin', errorCode: 'FLOW_STEP_LIMIT' });
    expect(nodePath(events)).toHaveLength(7);
  });

  it('runs a tool node on the calls of the llm node before it, and pairs them for the model', async () => {
    const lookup = recordingTool('lookup', (args) => ({ found: args['id'] }));
    const flow: Flow = {
      name: 'tools',
      state: [{ key: 'found', operation: 'replace' }],
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'ask', type: 'llm', instruction: 'Ask' },
        { id: 'act', type: 'tool', tools: ['lookup'], updateState: { found: '{{output.found}}' } },
        { id: 'answer', type: 'llm', instruction: 'Answer', history: 'all' },
      ],
      edges: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'act' },
        { from: 'act', to: 'answer' },
      ],
    };
    const model = nodeModel({ ask: () => call('lookup', { id: 7 }), answer: () => 'it is 7' });
    const { turns, state } = await runFlow(
      compileFlow(flow, { model, tools: [lookup.tool] }),
      'find 7',
    );
    expect(lookup.runs).toEqual([{ id: 7 }]);
    expect(state['found']).toBe(7);
    expect(model.requests[0]!.tools?.map((tool) => tool.name)).toEqual(['lookup']);
    const answerRequest = model.requests[1]!;
    const context = answerRequest.contents.map((content) => textOf(content)).join('\n');
    expect(context).toContain('[act] `lookup` tool returned result: {"found":7}');
    expect(replies(turns[0]!).at(-1)).toBe('answer: it is 7');
  });

  it('passes through a tool node when the llm node asked for no tool', async () => {
    const lookup = recordingTool('lookup', () => 'x');
    const flow: Flow = {
      name: 'maybe',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'ask', type: 'llm' },
        { id: 'act', type: 'tool', tools: ['lookup'] },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'act' },
        { from: 'act', to: 'end' },
      ],
    };
    const model = nodeModel({ ask: () => 'no tool needed' });
    const { turns } = await runFlow(compileFlow(flow, { model, tools: [lookup.tool] }), 'hi');
    expect(lookup.runs).toEqual([]);
    expect(nodePath(turns[0]!)).toEqual(['start', 'ask', 'act', 'end']);
  });

  it('ends the branch at a tool node with endWithoutCalls when no tool was asked for', async () => {
    const lookup = recordingTool('lookup', () => 'found it');
    const flow: Flow = {
      name: 'flowise-tools',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'ask', type: 'llm' },
        { id: 'act', type: 'tool', tools: ['lookup'], endWithoutCalls: true },
        { id: 'answer', type: 'llm' },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'act' },
        { from: 'act', to: 'answer' },
        { from: 'answer', to: 'end' },
      ],
    };
    let asks = 0;
    const model = nodeModel({
      ask: () => (++asks === 1 ? 'no tool needed' : call('lookup')),
      answer: () => 'done',
    });
    const { turns } = await runFlow(compileFlow(flow, { model, tools: [lookup.tool] }), 'a', 'b');
    expect(nodePath(turns[0]!)).toEqual(['start', 'ask', 'act']);
    expect(replies(turns[0]!)).toEqual(['ask: no tool needed']);
    expect(nodePath(turns[1]!)).toEqual(['start', 'ask', 'act', 'answer', 'end']);
  });

  it("reads a node's latest output with {{nodes.id}}, from any turn", async () => {
    const flow: Flow = {
      name: 'refs',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'draft', type: 'llm', instruction: 'Draft.' },
        {
          id: 'review',
          type: 'agent',
          instruction: 'Before: {{nodes.review}}. Now: {{nodes.draft}}',
        },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'draft' },
        { from: 'draft', to: 'review' },
        { from: 'review', to: 'end' },
      ],
    };
    const seen: string[] = [];
    const model = nodeModel({
      draft: (_, n) => `draft ${n}`,
      review: (request, n) => {
        seen.push(/Before: .*/.exec(request.systemInstruction ?? '')![0]);
        return `review ${n}`;
      },
    });
    await runFlow(compileFlow(flow, { model }), 'one', 'two');
    expect(seen).toEqual(['Before: . Now: draft 1', 'Before: review 1. Now: draft 2']);
  });

  it('throws FlowValidationError and runs nothing for an invalid flow', () => {
    const model = nodeModel({});
    expect(() =>
      compileFlow(
        { ...routing, nodes: [...routing.nodes, { id: 'x', type: 'teleport' }] },
        { model },
      ),
    ).toThrow(FlowValidationError);
  });
});
