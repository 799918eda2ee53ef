// The node types Flowise V2 brought, run on a scripted model: Iteration (each item runs its
// nodes, on its own branch, results collected, and a cut-off run goes on at its item), Tool (a tool
// called with set arguments), Execute Flow (another flow as a node), and the start form's values.

import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  compileFlow,
  validateFlow,
  type Event,
  type Flow,
  type LlmRequest,
} from '../../../src/index.ts';
import { textOf } from '../../../src/core/content.ts';
import { nodeModel, nodePath, recordingTool, replies, runFlow } from '../../support/flows.ts';
import { collect, userMessage } from '../../support/helpers.ts';

/** The last user text a request carries (what the node was asked). */
function asked(request: LlmRequest): string {
  const user = request.contents.filter((content) => content.role === 'user').at(-1);
  return user ? textOf(user) : '';
}

const ITERATIONS: Flow = {
  name: 'iterations',
  state: [{ key: 'items', operation: 'replace', default: ['abc', 'def', 'ghi'] }],
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'each', type: 'iteration', input: '{{state.items}}' },
    {
      id: 'first',
      type: 'llm',
      parent: 'each',
      instruction: 'Reply only: {{iteration.item}} (#{{iteration.index}})',
    },
    { id: 'second', type: 'llm', parent: 'each', instruction: 'Shout: {{output}}' },
    { id: 'sum', type: 'agent', instruction: 'Sum up {{output}}' },
  ],
  edges: [
    { from: 'start', to: 'each' },
    { from: 'first', to: 'second' },
    { from: 'each', to: 'sum' },
  ],
};

function iterationModel() {
  const seen: string[] = [];
  const model = nodeModel({
    first: (request) => {
      const item = /Reply only: (\S+)/.exec(request.systemInstruction ?? '')![1]!;
      // An item's nodes never see another item's messages.
      seen.push(request.contents.map((content) => textOf(content)).join('|'));
      return item;
    },
    second: (request) => /Shout: (\S+)/.exec(request.systemInstruction ?? '')![1]!.toUpperCase(),
    sum: (request) => `summed ${/Sum up (.*)/.exec(request.systemInstruction ?? '')![1]}`,
  });
  return { model, seen };
}

describe('an Iteration node', () => {
  it('runs its nodes once per item, each on its own branch, and hands on the results', async () => {
    const { model, seen } = iterationModel();
    const { events, turns } = await runFlow(compileFlow(ITERATIONS, { model }), 'go');
    expect(nodePath(events)).toEqual([
      'start',
      'each',
      'first@iterations.each.0',
      'second@iterations.each.0',
      'each',
      'first@iterations.each.1',
      'second@iterations.each.1',
      'each',
      'first@iterations.each.2',
      'second@iterations.each.2',
      'each',
      'sum',
    ]);
    expect(replies(turns[0]!).at(-1)).toBe('sum: summed ["ABC","DEF","GHI"]');
    for (const request of seen) expect(request).not.toMatch(/ABC|DEF|abc\|/);
    expect(model.calls.get('first')).toBe(3);
  });

  it('goes on at the item it was at when a run is cut off', async () => {
    const { model } = iterationModel();
    const agent = compileFlow(ITERATIONS, { model });
    const runner = new InMemoryRunner({ agent, resumabilityConfig: { isResumable: true } });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'ada',
    });
    const controller = new AbortController();
    const seenEvents: Event[] = [];
    try {
      for await (const event of runner.runAsync({
        userId: 'ada',
        sessionId: session.id,
        newMessage: userMessage('go'),
        runConfig: { signal: controller.signal },
      })) {
        seenEvents.push(event);
        // Cut off once the second item's first node answered.
        if (event.author === 'first' && event.branch === 'iterations.each.1' && !event.partial)
          controller.abort();
      }
    } catch {
      // the abort
    }
    const invocationId = seenEvents[0]!.invocationId;
    await collect(runner.runAsync({ userId: 'ada', sessionId: session.id, invocationId }));
    const stored = await runner.sessionService.getSession({
      appName: runner.appName,
      userId: 'ada',
      sessionId: session.id,
    });
    expect(replies(stored!.events).at(-1)).toBe('sum: summed ["ABC","DEF","GHI"]');
    // Each item's first node answered once: nothing ran twice.
    expect(model.calls.get('first')).toBe(3);
  });

  it('says what is wrong when its input is not a list', async () => {
    const flow: Flow = {
      ...ITERATIONS,
      state: [{ key: 'items', operation: 'replace', default: 'nope' }],
    };
    const { model } = iterationModel();
    const runner = new InMemoryRunner({ agent: compileFlow(flow, { model }) });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'ada',
    });
    const events: Event[] = [];
    await expect(async () => {
      for await (const event of runner.runAsync({
        userId: 'ada',
        sessionId: session.id,
        newMessage: userMessage('go'),
      }))
        events.push(event);
    }).rejects.toThrow(
      /Iteration each needs a list to iterate over, and its input is text that is not a JSON list/,
    );
    expect(events.at(-1)?.errorCode).toBe('INVALID_FLOW_INPUT');
  });

  it('is checked: parents, borders, and iteration templates only inside', () => {
    const flow = structuredClone(ITERATIONS) as Flow;
    flow.nodes.push({ id: 'stray', type: 'reply', message: '{{iteration.item}}' });
    flow.edges.push({ from: 'first', to: 'stray' });
    (flow.nodes[2] as { parent?: string }).parent = 'each';
    (flow.nodes[4] as { parent?: string }).parent = 'sum';
    const problems = validateFlow(flow).map((p) => `${p.nodeId}: ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^first: edge first → stray crosses the border of an Iteration/),
        expect.stringMatching(
          /^stray: \{\{iteration.item\}\} in the message reads the item of an Iteration, but the node is not inside one/,
        ),
        expect.stringMatching(/^sum: parent "sum" is not an Iteration node/),
      ]),
    );
  });
});

describe('a Tool node (set arguments)', () => {
  const flow: Flow = {
    name: 'mailer',
    nodes: [
      { id: 'start', type: 'start' },
      {
        id: 'draft',
        type: 'llm',
        instruction: 'Draft',
        output: [{ key: 'subject', type: 'string' }],
      },
      {
        id: 'send',
        type: 'toolCall',
        tool: 'send_mail',
        args: { to: '{{form.from}}', subject: '{{output.subject}}', count: '{{state.n}}' },
        requireApproval: true,
      },
      { id: 'done', type: 'reply', message: 'Sent: {{output.id}}' },
    ],
    state: [{ key: 'n', operation: 'replace', default: 3 }],
    edges: [
      { from: 'start', to: 'draft' },
      { from: 'draft', to: 'send' },
      { from: 'send', to: 'done' },
    ],
  };
  const withForm = structuredClone(flow);
  (withForm.nodes[0] as { form?: unknown }).form = { fields: [{ name: 'from', type: 'string' }] };

  it('calls its tool with its arguments filled (a value alone keeps its type), after approval', async () => {
    const { tool, runs } = recordingTool('send_mail', () => ({ id: 'm-1' }));
    const model = nodeModel({ draft: () => '{"subject": "Hi"}' });
    const agent = compileFlow(withForm, { model, tools: [tool] });
    const runner = new InMemoryRunner({ agent, resumabilityConfig: { isResumable: true } });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'ada',
    });
    const first = await collect(
      runner.runAsync({
        userId: 'ada',
        sessionId: session.id,
        newMessage: userMessage('From: ada@example.com'),
        stateDelta: { form: { from: 'ada@example.com' } },
      }),
    );
    expect(runs).toEqual([]);
    const request = first
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;
    const answer = await collect(
      runner.runAsync({
        userId: 'ada',
        sessionId: session.id,
        invocationId: first[0]!.invocationId,
        newMessage: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: request.id!,
                name: request.name,
                response: { confirmed: true },
              },
            },
          ],
        },
      }),
    );
    expect(runs).toEqual([{ to: 'ada@example.com', subject: 'Hi', count: 3 }]);
    expect(replies(answer).at(-1)).toBe('done: Sent: m-1');
  });

  it('passes on when no tool is chosen, and names an unknown tool', async () => {
    const none = structuredClone(withForm);
    (none.nodes[2] as { tool: string }).tool = '';
    const model = nodeModel({ draft: () => '{"subject": "Hi"}' });
    const { turns } = await runFlow(compileFlow(none, { model }), 'go');
    expect(replies(turns[0]!).at(-1)).toBe('done: Sent: ');
    expect(validateFlow(withForm, { tools: ['other'] }).map((p) => p.message)).toContain(
      'unknown tool "send_mail" (known tools: other)',
    );
  });
});

describe('an Execute Flow node', () => {
  const inner: Flow = {
    name: 'greeter',
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'greet', type: 'llm', instruction: 'Greet' },
    ],
    edges: [{ from: 'start', to: 'greet' }],
  };
  const outer: Flow = {
    name: 'outer',
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'greet', type: 'subflow', flow: 'greeter', input: 'Say hi to {{question}}' },
      { id: 'after', type: 'reply', message: 'It said: {{output}}' },
    ],
    edges: [
      { from: 'start', to: 'greet' },
      { from: 'greet', to: 'after' },
    ],
  };

  it('runs the other flow, asked its input, on a branch of its own; its answer is the output', async () => {
    const model = nodeModel({ greet__greet: (request) => `hello from inside (${asked(request)})` });
    const agent = compileFlow(outer, { model, flows: { greeter: inner } });
    const { turns } = await runFlow(agent, 'Ada');
    expect(replies(turns[0]!)).toEqual([
      'greet: Say hi to Ada',
      'greet__greet: hello from inside (For context:[greet] said: Say hi to Ada)',
      'after: It said: hello from inside (For context:[greet] said: Say hi to Ada)',
    ]);
    const inside = turns[0]!.find((event) => event.author === 'greet__greet' && !event.partial);
    expect(inside?.branch).toBe('outer.greet');
  });

  it('refuses a flow that would run itself, and a flow that is not there', () => {
    const loop: Flow = {
      ...inner,
      nodes: [...inner.nodes, { id: 'again', type: 'subflow', flow: 'greeter' }],
      edges: [...inner.edges, { from: 'greet', to: 'again' }],
    };
    const model = nodeModel({});
    expect(() => compileFlow(outer, { model, flows: { greeter: loop } })).toThrow(
      /would run it inside itself \(outer → greeter → greeter\)/,
    );
    expect(validateFlow(outer, { flows: ['other'] }).map((p) => p.message)).toContain(
      'there is no flow named "greeter" (flows: other)',
    );
  });
});

describe('a start form', () => {
  it('reaches the nodes as {{form.x}}, and is checked against the form', async () => {
    const flow: Flow = {
      name: 'form',
      nodes: [
        {
          id: 'start',
          type: 'start',
          form: {
            title: 'Inquiry',
            fields: [
              { name: 'name', type: 'string' },
              { name: 'age', type: 'number' },
            ],
          },
        },
        { id: 'hello', type: 'reply', message: 'Hello {{form.name}}, {{form.age}}' },
      ],
      edges: [{ from: 'start', to: 'hello' }],
    };
    const agent = compileFlow(flow, { model: nodeModel({}) });
    const runner = new InMemoryRunner({ agent });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'ada',
    });
    const events = await collect(
      runner.runAsync({
        userId: 'ada',
        sessionId: session.id,
        newMessage: userMessage('Name: Ada\nAge: 36'),
        stateDelta: { form: { name: 'Ada', age: 36 } },
      }),
    );
    expect(replies(events)).toEqual(['hello: Hello Ada, 36']);
    const bad = structuredClone(flow);
    (bad.nodes[1] as { message: string }).message = '{{form.email}}';
    expect(validateFlow(bad).map((p) => p.message)).toEqual([
      '{{form.email}} in the message names form field "email", which the start form does not have (name, age)',
    ]);
  });
});

describe('a window of memory (historyWindow)', () => {
  it('sends only the last messages before the node ran, then its own run', async () => {
    const flow: Flow = {
      name: 'windowed',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'chat', type: 'llm', instruction: 'Chat', historyWindow: 2 },
      ],
      edges: [{ from: 'start', to: 'chat' }],
    };
    const sent: string[][] = [];
    const model = nodeModel({
      chat: (request, call) => {
        sent.push(request.contents.map((content) => textOf(content)));
        return `answer ${call}`;
      },
    });
    await runFlow(compileFlow(flow, { model }), 'one', 'two', 'three');
    expect(sent[2]).toEqual(['answer 2', 'three']);
    expect(
      validateFlow({
        ...flow,
        nodes: [flow.nodes[0]!, { ...flow.nodes[1]!, history: 'none' }],
      }).map((p) => p.message),
    ).toEqual(['historyWindow must be a positive whole number, with history "all"']);
  });
});

describe('a loop inside an Iteration', () => {
  it('counts from 0 again for each item', async () => {
    const flow: Flow = {
      name: 'retries',
      state: [{ key: 'items', operation: 'replace', default: ['a', 'b'] }],
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'each', type: 'iteration', input: '{{state.items}}' },
        { id: 'try', type: 'llm', parent: 'each', instruction: 'Try {{iteration.item}}' },
        { id: 'again', type: 'loop', parent: 'each', to: 'try', maxLoops: 1 },
      ],
      edges: [
        { from: 'start', to: 'each' },
        { from: 'try', to: 'again' },
      ],
    };
    const model = nodeModel({ try: (_request, call) => `try ${call}` });
    const { events } = await runFlow(compileFlow(flow, { model }), 'go');
    // Two tries per item: the first, and one loop back.
    expect(model.calls.get('try')).toBe(4);
    expect(nodePath(events).filter((node) => node.startsWith('again'))).toHaveLength(4);
  });
});
