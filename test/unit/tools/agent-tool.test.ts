// AgentTool: another agent called as a tool, its events on a branch of their own in the caller's
// session (src/tools/agent-tool.ts). What ADK 2.0 itself does with the same agents is pinned
// side by side in test/unit/agents/agent-tool-parity.test.ts; here, what only Trellis has: the
// branch, what each model sees, Stop, resume, confirmations, failures and name clashes.

import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentTool,
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  ScriptedModel,
  functionCallResponse,
  type Content,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import { describeEvents } from '../../support/describe-events.ts';
import { collect, rejectionOf } from '../../support/helpers.ts';
import { openRunnerSession, userId, type RunnerSession } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const lastText = (request: LlmRequest) =>
  request.contents
    .at(-1)!
    .parts.map((part) => part.text ?? '')
    .join('');

/** The caller: "ask X" calls `helper` with X; a response is reported back. */
function caller(tools: unknown[], options: Record<string, unknown> = {}) {
  const model = new ScriptedModel((request) => {
    const response = request.contents.at(-1)!.parts[0]?.functionResponse;
    if (response) return `helper said ${JSON.stringify(response.response)}`;
    const asked = /ask (.*)/.exec(lastText(request))?.[1];
    return asked ? functionCallResponse(['helper', { request: asked }]) : 'nothing to ask';
  });
  return {
    model,
    agent: new LlmAgent({ name: 'boss', model, tools: tools as never, ...options }),
  };
}

/** The helper: answers "<request>, done" (or runs a script of its own). */
function helper(script?: (request: LlmRequest) => unknown, options: Record<string, unknown> = {}) {
  const model = new ScriptedModel(
    (script ?? ((request: LlmRequest) => `${lastText(request)}, done`)) as never,
  );
  return {
    model,
    agent: new LlmAgent({ name: 'helper', description: 'Does things', model, ...options }),
  };
}

/** A helper that calls `tool` once, then says `answer`. */
function helperCalling(tool: FunctionTool, answer: string, options: Record<string, unknown> = {}) {
  return helper(
    (request) =>
      request.contents.at(-1)!.parts[0]?.functionResponse
        ? answer
        : functionCallResponse([tool.name]),
    { tools: [tool], ...options },
  );
}

/** A tool that needs a human's approval; what it published, once approved. */
function publishTool(published: string[] = []) {
  return new FunctionTool({
    name: 'publish',
    description: 'Publishes',
    requireConfirmation: true,
    execute: () => {
      published.push('post');
      return 'published';
    },
  });
}

/** The caller's side of a turn answered through the helper, as describeEvents says it. */
const turnThroughHelper = (asked: string, answer: string) => [
  `user: "${asked}"`,
  'boss: call helper',
  'boss: response helper',
  `boss: ${JSON.stringify(`helper said ${JSON.stringify({ result: answer })}`)}`,
  'boss: end',
];

const onBranch = (events: readonly Event[]) => events.filter((event) => event.branch);
const offBranch = (events: readonly Event[]) => events.filter((event) => !event.branch);

describe.each(serviceKinds)('AgentTool ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: LlmAgent, resumable = true): Promise<RunnerSession> {
    services = kind.open();
    return openRunnerSession(services, agent, { resumable });
  }

  it('answers the call with the agent’s last words; its run is stored on a branch of its own', async () => {
    const inner = helper();
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    const ctx = await setUp(outer.agent);
    await ctx.run('ask the weather');
    const { events } = await ctx.read();
    expect(describeEvents(offBranch(events))).toEqual(
      turnThroughHelper('ask the weather', 'the weather, done'),
    );
    const call = events[1]!.content!.parts[0]!.functionCall!;
    const branch = `helper#${call.id!.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    expect(onBranch(events).map((event) => [event.branch, ...describeEvents([event])])).toEqual([
      [branch, 'boss: "the weather"'],
      [branch, 'helper: "the weather, done"'],
      [branch, 'helper: end'],
    ]);
    // The helper's model saw the request as the user's message, and nothing of the caller's.
    expect(inner.model.requests.map((r) => r.contents)).toEqual([
      [{ role: 'user', parts: [{ text: 'the weather' }] }],
    ]);
    // The caller's model never saw the branch: only its call and the response.
    expect(
      outer.model.requests[1]!.contents.map((c) => c.parts.map((p) => Object.keys(p)[0])),
    ).toEqual([['text'], ['functionCall'], ['functionResponse']]);
  });

  it('declares ADK’s `request` argument and refuses a call without it, the agent not run', async () => {
    const inner = helper();
    const tool = new AgentTool({ agent: inner.agent });
    expect(tool.declaration()).toEqual({
      name: 'helper',
      description: 'Does things',
      parameters: {
        type: 'object',
        properties: { request: { type: 'string' } },
        required: ['request'],
      },
    });
    const model = new ScriptedModel((request) =>
      request.contents.at(-1)!.parts[0]?.functionResponse
        ? 'ok'
        : functionCallResponse(['helper', {}]),
    );
    const ctx = await setUp(new LlmAgent({ name: 'boss', model, tools: [tool] }));
    const events = await ctx.run('go');
    expect(events[1]!.content!.parts[0]!.functionResponse!.response).toMatchObject({
      error: expect.stringContaining('request'),
    });
    expect(inner.model.requests).toEqual([]);
  });

  it('with skipSummarization, the response ends the caller’s turn', async () => {
    const inner = helper();
    const outer = caller([new AgentTool({ agent: inner.agent, skipSummarization: true })]);
    const ctx = await setUp(outer.agent);
    const events = await ctx.run('ask twice');
    expect(describeEvents(offBranch(events))).toEqual([
      'boss: call helper',
      'boss: response helper',
      'boss: end',
    ]);
    expect(events.find((e) => e.actions.skipSummarization)?.author).toBe('boss');
    expect(outer.model.requests).toHaveLength(1);
  });

  it('brings the state the agent wrote back in the response’s delta, not its temp: keys', async () => {
    const note = new FunctionTool({
      name: 'note',
      description: 'Notes',
      execute: (_args, toolContext) => {
        toolContext.state.set('noted', 'yes');
        toolContext.state.set('temp:scratch', 1);
        return 'noted';
      },
    });
    const inner = helperCalling(note, 'all noted', { outputKey: 'helper_said' });
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    const ctx = await setUp(outer.agent);
    await ctx.run('ask to note');
    const session = await ctx.read();
    const response = offBranch(session.events).find((e) =>
      e.content?.parts.some((p) => p.functionResponse),
    )!;
    expect(response.actions.stateDelta).toEqual({ noted: 'yes', helper_said: 'all noted' });
    expect(session.state).toEqual({ noted: 'yes', helper_said: 'all noted' });
  });

  it('a failing inner model: its error on the branch, the call answered with it, the run fails', async () => {
    const inner = helper(() => {
      throw new Error('inner model down');
    });
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    const ctx = await setUp(outer.agent);
    const error = await rejectionOf(ctx.run('ask anything'));
    expect(error.name).toBe('ToolError');
    const { events } = await ctx.read();
    expect(onBranch(events).at(-1)).toMatchObject({
      author: 'helper',
      errorMessage: expect.stringContaining('inner model down'),
    });
    const response = offBranch(events).find((e) =>
      e.content?.parts.some((p) => p.functionResponse),
    )!;
    expect(response.content!.parts[0]!.functionResponse!.response.error).toContain(
      'inner model down',
    );
    expect(offBranch(events).at(-1)).toMatchObject({ author: 'boss', errorCode: 'TOOL_ERROR' });
    // Retry: the call stays answered (the helper is not run again); the caller's model reads
    // the error and answers.
    const invocationId = response.invocationId;
    await collect(ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, invocationId }));
    const after = offBranch((await ctx.read()).events);
    expect(after.filter((e) => e.content?.parts.some((p) => p.functionResponse))).toHaveLength(1);
    expect(describeEvents(after).at(-2)).toMatch(
      /^boss: "helper said \{\\"error\\":.*inner model down/,
    );
    expect(inner.model.requests).toHaveLength(1);
  });

  it('Stop during the agent’s run ends quietly; Continue goes on with the same run, the call answered once', async () => {
    const stop = new AbortController();
    let calls = 0;
    const inner = helper((request) => {
      calls++;
      if (calls === 1) stop.abort();
      return `${lastText(request)}, done`;
    });
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    const ctx = await setUp(outer.agent);
    const stopped = await ctx.run('ask now', { signal: stop.signal });
    const invocationId = stopped[0]?.invocationId ?? (await ctx.read()).events[1]!.invocationId;
    let { events } = await ctx.read();
    expect(offBranch(events).some((e) => e.content?.parts.some((p) => p.functionResponse))).toBe(
      false,
    );
    await collect(ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, invocationId }));
    ({ events } = await ctx.read());
    expect(onBranch(events).filter((e) => e.author === 'boss')).toHaveLength(1); // one request
    const responses = offBranch(events).filter((e) =>
      e.content?.parts.some((p) => p.functionResponse),
    );
    expect(responses).toHaveLength(1);
    expect(responses[0]!.content!.parts[0]!.functionResponse!.response).toEqual({
      result: 'now, done',
    });
    expect(describeEvents(offBranch(events)).at(-2)).toBe(
      'boss: "helper said {\\"result\\":\\"now, done\\"}"',
    );
  });

  it('a run cut after the agent finished but before the response: resuming answers from the branch, the agent not run again', async () => {
    const inner = helper();
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    const ctx = await setUp(outer.agent);
    const seen: Event[] = [];
    for await (const event of ctx.stream('ask once')) {
      seen.push(event);
      if (event.author === 'helper' && event.actions.endOfAgent) break; // the tab closed here
    }
    await collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        invocationId: seen[0]!.invocationId,
      }),
    );
    const { events } = await ctx.read();
    expect(inner.model.requests).toHaveLength(1);
    const responses = offBranch(events).filter((e) =>
      e.content?.parts.some((p) => p.functionResponse),
    );
    expect(responses.map((e) => e.content!.parts[0]!.functionResponse!.response)).toEqual([
      { result: 'once, done' },
    ]);
  });

  it('an inner tool that asks for confirmation pauses the call; the answer resumes it on its branch', async () => {
    const published: string[] = [];
    const inner = helperCalling(publishTool(published), 'it is out');
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    const ctx = await setUp(outer.agent);
    const paused = await ctx.run('ask to publish');
    const request = paused.find((e) =>
      e.content?.parts.some((p) => p.functionCall?.name === 'adk_request_confirmation'),
    )!;
    expect(request.branch).toMatch(/^helper#/);
    const runs = await ctx.runner.listInterruptedInvocations({ userId });
    expect(runs).toMatchObject([{ status: 'paused' }]);
    const answer: Content = {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: request.content!.parts[0]!.functionCall!.id!,
            name: 'adk_request_confirmation',
            response: { confirmed: true },
          },
        },
      ],
    };
    await collect(ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, newMessage: answer }));
    expect(published).toEqual(['post']);
    const { events } = await ctx.read();
    expect(describeEvents(offBranch(events))).toEqual(
      turnThroughHelper('ask to publish', 'it is out'),
    );
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toEqual([]);
  });

  it('on a runner that is not resumable, an inner confirmation answers the call with an error', async () => {
    const inner = helperCalling(publishTool(), 'it is out');
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    const ctx = await setUp(outer.agent, false);
    await ctx.run('ask to publish');
    const { events } = await ctx.read();
    const response = offBranch(events).find((e) =>
      e.content?.parts.some((p) => p.functionResponse),
    )!;
    expect(response.content!.parts[0]!.functionResponse!.response.error).toContain(
      'only a resumable runner',
    );
  });

  it('two calls of one agent in one answer run on two branches', async () => {
    const inner = helper();
    const model = new ScriptedModel((request) =>
      request.contents.at(-1)!.parts[0]?.functionResponse
        ? 'both back'
        : functionCallResponse(['helper', { request: 'a' }], ['helper', { request: 'b' }]),
    );
    const ctx = await setUp(
      new LlmAgent({ name: 'boss', model, tools: [new AgentTool({ agent: inner.agent })] }),
    );
    await ctx.run('go');
    const { events } = await ctx.read();
    const branches = new Set(onBranch(events).map((e) => e.branch));
    expect(branches.size).toBe(2);
    const response = offBranch(events).find((e) =>
      e.content?.parts.some((p) => p.functionResponse),
    )!;
    expect(response.content!.parts.map((p) => p.functionResponse!.response)).toEqual([
      { result: 'a, done' },
      { result: 'b, done' },
    ]);
    expect(inner.model.requests.map((r) => r.contents.length)).toEqual([1, 1]);
  });
});

/** A runner of `agent`: its constructor checks the names of the tree and the agents it calls. */
const runnerOf = (agent: LlmAgent) =>
  new Runner({ appName: 'a', agent, sessionService: new InMemorySessionService() });

describe('AgentTool names', () => {
  it('refuses an agent called as a tool with the name of an agent of the tree', () => {
    const clash = new LlmAgent({ name: 'boss', model: new ScriptedModel(() => 'hi') });
    const outer = caller([new AgentTool({ agent: clash })]);
    expect(() => runnerOf(outer.agent)).toThrow(
      /Two agents are named boss \(one is called as a tool\)/,
    );
  });

  it('refuses an agent called as a tool that is a sub-agent elsewhere', () => {
    const inner = helper();
    new LlmAgent({ name: 'parent', subAgents: [inner.agent] });
    const outer = caller([new AgentTool({ agent: inner.agent })]);
    expect(() => runnerOf(outer.agent)).toThrow(/helper is a sub-agent of parent/);
  });

  it('lets one agent be called by two agents of the tree', () => {
    const tool = new AgentTool({ agent: helper().agent });
    const sub = new LlmAgent({ name: 'sub', model: new ScriptedModel(() => 'hi'), tools: [tool] });
    const outer = caller([tool], { subAgents: [sub] });
    expect(() => runnerOf(outer.agent)).not.toThrow();
  });
});
