// Tool confirmation (human in the loop), in ADK's wire format: a paused call shows as
// `adk_request_confirmation`, and the human's answer resumes the same invocation.

import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  LlmAgent,
  ParallelAgent,
  ScriptedModel,
  functionCallResponse,
  type Content,
  type Event,
  type LlmRequest,
  type ToolConfirmation,
} from '../../../src/index.ts';
import { describeEvents } from '../../support/describe-events.ts';
import { collect } from '../../support/helpers.ts';
import { openRunnerSession, userId, type RunnerSession } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

/** A model that calls `publish` once, then describes the result it got. */
function publisher(name = 'agent', tool = publishTool()) {
  const model = new ScriptedModel((request: LlmRequest) => {
    const response = request.contents.at(-1)!.parts[0]?.functionResponse;
    if (response) return `result: ${JSON.stringify(response.response)}`;
    return functionCallResponse(['publish', { title: `${name} post` }]);
  });
  return { agent: new LlmAgent({ name, model, tools: [tool.tool] }), model, tool };
}

function publishTool(requireConfirmation: boolean | ((args: { title: string }) => boolean) = true) {
  const published: { title: string; confirmation: ToolConfirmation | undefined }[] = [];
  const tool = new FunctionTool<{ title: string }>({
    name: 'publish',
    description: 'Publishes a post',
    parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    requireConfirmation,
    execute: ({ title }, ctx) => {
      published.push({ title, confirmation: ctx.toolConfirmation });
      return { published: title };
    },
  });
  return { tool, published };
}

/** The confirmation request a paused run ended with. */
function requestOf(events: readonly Event[]) {
  const event = events.find((e) =>
    e.content?.parts.some((p) => p.functionCall?.name === 'adk_request_confirmation'),
  )!;
  return { event, call: event.content!.parts[0]!.functionCall! };
}

function confirmationAnswer(requestId: string, response: Record<string, unknown>): Content {
  return {
    role: 'user',
    parts: [{ functionResponse: { id: requestId, name: 'adk_request_confirmation', response } }],
  };
}

describe.each(serviceKinds)('tool confirmation ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: LlmAgent | ParallelAgent, resumable = true): Promise<RunnerSession> {
    services = kind.open();
    return openRunnerSession(services, agent, { resumable });
  }

  const reply = (ctx: RunnerSession, newMessage: Content) =>
    collect(ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, newMessage }));

  it('pauses with an adk_request_confirmation call in ADK’s wire format', async () => {
    const { agent, tool } = publisher();
    const ctx = await setUp(agent);
    const events = await ctx.run('publish it');
    expect(describeEvents(events)).toEqual([
      'agent: call publish',
      'agent: call adk_request_confirmation',
      'agent: response publish',
    ]);
    const original = events[0]!.content!.parts[0]!.functionCall!;
    const { event, call } = requestOf(events);
    expect(call.args).toEqual({
      originalFunctionCall: { id: original.id, name: 'publish', args: { title: 'agent post' } },
      toolConfirmation: { hint: 'Please approve or reject the call to publish.', confirmed: false },
    });
    expect(event.longRunningToolIds).toEqual([call.id]);
    expect(events[2]!.actions.requestedToolConfirmations).toEqual({
      [original.id!]: { confirmed: false },
    });
    expect(tool.published).toEqual([]);
    const runs = await ctx.runner.listInterruptedInvocations({ userId });
    expect(runs).toMatchObject([
      { invocationId: events[0]!.invocationId, status: 'paused', pendingCallIds: [call.id] },
    ]);
  });

  it('runs the tool once approved, with the confirmation, in the same invocation', async () => {
    const { agent, model, tool } = publisher();
    const ctx = await setUp(agent);
    const paused = await ctx.run('publish it');
    const { call } = requestOf(paused);
    const resumed = await reply(ctx, confirmationAnswer(call.id!, { confirmed: true }));
    expect(describeEvents(resumed)).toEqual([
      'agent: response publish',
      'agent: "result: {\\"published\\":\\"agent post\\"}"',
      'agent: end',
    ]);
    expect(tool.published).toEqual([{ title: 'agent post', confirmation: { confirmed: true } }]);
    expect(resumed.every((e) => e.invocationId === paused[0]!.invocationId)).toBe(true);
    // The model saw the call answered by the real result; the confirmation exchange is not shown to it.
    expect(
      model.requests[1]!.contents.flatMap((c) =>
        c.parts.map((p) => p.functionCall?.name ?? p.functionResponse?.name ?? p.text),
      ),
    ).toEqual(['publish it', 'publish', 'publish']);
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toEqual([]);
  });

  it('tells the model the user declined, with their feedback, without running the tool', async () => {
    const { agent, tool } = publisher();
    const ctx = await setUp(agent);
    const { call } = requestOf(await ctx.run('publish it'));
    const resumed = await reply(
      ctx,
      confirmationAnswer(call.id!, { confirmed: false, payload: 'Not on a Friday.' }),
    );
    expect(resumed[0]!.content!.parts[0]!.functionResponse!.response).toEqual({
      error: 'The user rejected this tool call. Their feedback: Not on a Friday.',
    });
    expect(tool.published).toEqual([]);
    expect(describeEvents(resumed).at(-1)).toBe('agent: end');
  });

  it('lets a tool ask for confirmation itself, and hands it the approver’s payload', async () => {
    const spent: unknown[] = [];
    const spend = new FunctionTool({
      name: 'spend',
      description: 'Spends money',
      execute: ({ amount }: { amount: number }, ctx) => {
        if (!ctx.toolConfirmation) {
          ctx.requestConfirmation({ hint: `Spend $${amount}?`, payload: { amount } });
          return { status: 'waiting for approval' };
        }
        if (!ctx.toolConfirmation.confirmed) return { error: 'not approved' };
        spent.push(ctx.toolConfirmation.payload);
        return { spent: (ctx.toolConfirmation.payload as { amount: number }).amount };
      },
    });
    const model = new ScriptedModel((request) => {
      const response = request.contents.at(-1)!.parts[0]?.functionResponse;
      return response
        ? `done: ${JSON.stringify(response.response)}`
        : functionCallResponse(['spend', { amount: 50 }]);
    });
    const ctx = await setUp(new LlmAgent({ name: 'agent', model, tools: [spend] }));
    const paused = await ctx.run('buy it');
    const { call } = requestOf(paused);
    expect(call.args.toolConfirmation).toEqual({
      hint: 'Spend $50?',
      confirmed: false,
      payload: { amount: 50 },
    });
    const resumed = await reply(
      ctx,
      confirmationAnswer(call.id!, { confirmed: true, payload: { amount: 40 } }),
    );
    expect(spent).toEqual([{ amount: 40 }]);
    expect(describeEvents(resumed)[1]).toBe('agent: "done: {\\"spent\\":40}"');
  });

  it('asks only when the tool says the call needs it', async () => {
    const { agent, tool } = publisher(
      'agent',
      publishTool((args) => args.title.startsWith('secret')),
    );
    const ctx = await setUp(agent);
    const events = await ctx.run('publish it');
    expect(describeEvents(events)).toEqual([
      'agent: call publish',
      'agent: response publish',
      'agent: "result: {\\"published\\":\\"agent post\\"}"',
      'agent: end',
    ]);
    expect(tool.published).toHaveLength(1);
  });

  it('pauses and resumes each parallel branch on its own', async () => {
    const left = publisher('left');
    const right = publisher('right');
    const ctx = await setUp(
      new ParallelAgent({ name: 'par', subAgents: [left.agent, right.agent] }),
    );
    const paused = await ctx.run('publish both');
    const requests = paused.filter(
      (e) => e.content?.parts[0]?.functionCall?.name === 'adk_request_confirmation',
    );
    expect(requests.map((e) => e.branch).sort()).toEqual(['par.left', 'par.right']);
    const leftRequest = requests.find((e) => e.branch === 'par.left')!.content!.parts[0]!
      .functionCall!;
    const rightRequest = requests.find((e) => e.branch === 'par.right')!.content!.parts[0]!
      .functionCall!;

    const leftDone = await reply(ctx, confirmationAnswer(leftRequest.id!, { confirmed: true }));
    expect(describeEvents(leftDone)).toEqual([
      'left: response publish',
      'left: "result: {\\"published\\":\\"left post\\"}"',
      'left: end',
    ]);
    expect(right.tool.published).toEqual([]);
    const stillPaused = await ctx.runner.listInterruptedInvocations({ userId });
    expect(stillPaused).toMatchObject([{ status: 'paused', pendingCallIds: [rightRequest.id] }]);

    const rightDone = await reply(ctx, confirmationAnswer(rightRequest.id!, { confirmed: false }));
    expect(describeEvents(rightDone)).toEqual([
      'right: response publish',
      'right: "result: {\\"error\\":\\"The user rejected this tool call.\\"}"',
      'right: end',
      'par: end',
    ]);
    expect(left.tool.published).toHaveLength(1);
  });

  it('works without resumability too: the answer starts a new invocation at the agent that asked', async () => {
    const { agent, tool } = publisher();
    const ctx = await setUp(agent, false);
    const paused = await ctx.run('publish it');
    const { call } = requestOf(paused);
    const next = await reply(ctx, confirmationAnswer(call.id!, { confirmed: true }));
    expect(describeEvents(next)).toEqual([
      'agent: response publish',
      'agent: "result: {\\"published\\":\\"agent post\\"}"',
    ]);
    expect(next[0]!.invocationId).not.toBe(paused[0]!.invocationId);
    expect(tool.published).toHaveLength(1);
  });
});
