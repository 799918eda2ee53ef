// Agents and tools as workflow nodes, as ADK 2.0 runs them. An agent node gives the agent its
// input as a user message (an LlmAgent then sees that message and nothing before it, unless its
// `includeContents` says otherwise) and takes its final text answer as the node's output; each
// of the agent's events is stored before it goes on, as it is when an agent runs alone. A tool
// node calls its tool with its input as the arguments, and the tool's response is the output.

import type { BaseAgent } from '../agents/base-agent.ts';
import { LlmAgent } from '../agents/llm-agent.ts';
import { runFunctionCalls } from '../agents/function-calls.ts';
import { pendingCalls } from '../agents/pending-calls.ts';
import { functionCallsOf, textOf, type Content, type FunctionCall } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import { createEvent, type Event, type ToolConfirmation } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { NodeContext } from './node-context.ts';
import { BaseNode, isContent, type BaseNodeOptions, type NodeItem } from './nodes.ts';

type NodeOptions = Partial<
  Pick<BaseNodeOptions, 'name' | 'retryConfig' | 'timeout' | 'inputSchema' | 'outputSchema'>
>;

export class AgentNode extends BaseNode {
  constructor(
    readonly agent: BaseAgent,
    options: NodeOptions = {},
  ) {
    // It runs again when its workflow resumes: an agent that paused for a human goes on.
    super({
      ...options,
      name: options.name ?? agent.name,
      rerunOnResume: true,
    });
    // As ADK does: an LlmAgent in a workflow sees its node's input, not the conversation before
    // it, unless it was given includeContents.
    if (agent instanceof LlmAgent && !agent.includeContentsExplicit) agent.includeContents = 'none';
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<NodeItem, void> {
    // A run that goes on after a pause has its input in the log already.
    if (!ctx.resumed && input !== undefined && input !== null) {
      yield createEvent({
        invocationId: ctx.invocationId,
        author: 'user',
        ...(ctx.branch !== undefined ? { branch: ctx.branch } : {}),
        content: userContentOf(input),
      });
      await ctx.channel.settled?.();
    }
    // The agent runs on the node's branch, its spans under the node's; after a pause, it picks
    // up from its own events (the calls answered since run now).
    const parent = agentContext(ctx);
    let answered = false;
    for await (const event of this.agent.runAsync(parent)) {
      if (!event.partial && isFinalText(event)) {
        event.output = textOf(event.content);
        answered = true;
      }
      yield event;
      // Taken (and stored) before the agent goes on: it reads the session's events for its next
      // step, and a Stop cuts its answer where the reader had it.
      await ctx.channel.settled?.();
    }
    if (ctx.resumed) stillWaiting(ctx, !answered && parent.isPausedBelow());
  }
}

export class ToolNode extends BaseNode {
  constructor(
    readonly tool: BaseTool,
    options: NodeOptions = {},
  ) {
    // Runs again on resume: a call a human was asked about runs then, as they said.
    super({
      ...options,
      rerunOnResume: true,
      name: options.name ?? tool.name,
    });
    if (tool.isLongRunning) {
      throw new InvalidRequestError(
        `A long-running tool (${tool.name}) cannot be a workflow node yet`,
      );
    }
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<NodeItem, void> {
    const parent = agentContext(ctx);
    let call: FunctionCall = {
      id: `${ctx.nodePath}:${ctx.runId}`,
      name: this.tool.name,
      args: toolArgsOf(input),
    };
    let confirmations = new Map<string, ToolConfirmation>();
    if (ctx.resumed) {
      // It asked a human whether to run the call: the answer says how.
      const log = parent.resumeEvents().map((e) => e.event);
      const pending = pendingCalls(this.name, log);
      if (pending.awaiting.length > 0 || pending.calls.length === 0) {
        stillWaiting(ctx, true);
        return;
      }
      call = pending.calls[0]!;
      confirmations = pending.confirmations;
    }
    const { event, confirmationRequest, error } = await runFunctionCalls(
      parent,
      [call],
      new Map([[this.tool.name, this.tool]]),
      confirmations,
    );
    if (error) throw error;
    if (confirmationRequest) {
      // The tool asks for a human's yes first: the workflow waits with this node.
      confirmationRequest.author = this.name;
      yield confirmationRequest;
      return;
    }
    if (!event) return;
    event.author = this.name;
    const response = event.content?.parts[0]?.functionResponse?.response;
    if (response !== undefined) event.output = response;
    yield event;
  }
}

/**
 * The context a node's agent or tool runs in: the node's branch, its spans under the node's, and
 * after a pause the run's own events to pick up from.
 */
function agentContext(ctx: NodeContext): InvocationContext {
  const parent = ctx.invocationContext.forAgent(ctx.invocationContext.agent, ctx.branch, ctx.span);
  // A fresh run starts fresh, even in a workflow that is resuming (its log is not this run's).
  return parent.resuming(ctx.resumed?.from);
}

/**
 * A run that went on after a pause and still waits (`waits`) without asking anew: the node still
 * waits on the calls that are unanswered.
 */
function stillWaiting(ctx: NodeContext, waits: boolean): void {
  if (waits && ctx.interruptIds.length === 0) ctx.interruptIds.push(...(ctx.resumed?.open ?? []));
}

/** An agent's answer that ends its turn: a model's text, with no call in it. */
function isFinalText(event: Event): boolean {
  const content = event.content;
  return (
    content?.role === 'model' &&
    functionCallsOf(content).length === 0 &&
    content.parts.some((part) => part.text !== undefined && !part.thought)
  );
}

function userContentOf(input: unknown): Content {
  if (isContent(input)) return { ...input, role: 'user' };
  return {
    role: 'user',
    parts: [{ text: typeof input === 'string' ? input : JSON.stringify(input) }],
  };
}

/** A tool node's input as arguments: an object, JSON text of one, or nothing (ADK's rules). */
function toolArgsOf(input: unknown): Record<string, unknown> {
  let args = input;
  if (isContent(args)) args = args.parts.map((part) => part.text ?? '').join('');
  if (typeof args === 'string') {
    const text = args.trim();
    if (!text) args = undefined;
    else {
      try {
        args = JSON.parse(text) as unknown;
      } catch {
        // Not JSON: refused below.
      }
    }
  }
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new InvalidRequestError(
      `A tool node's input is an object of the tool's arguments, not ${typeof args === 'object' ? 'a list' : typeof args}`,
    );
  }
  return args as Record<string, unknown>;
}
