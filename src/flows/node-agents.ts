// The agents behind a flow's model and tool nodes. An agent node is a plain LlmAgent; these are
// the two that differ: a node that calls its model once (llm, conditionAgent) and leaves any tool
// calls to a tool node, and the tool node that runs them.

import {
  functionCallsOf,
  functionResponsesOf,
  textOf,
  type FunctionCall,
} from '../core/content.ts';
import { ModelError } from '../core/errors.ts';
import { newFunctionCallId } from '../core/ids.ts';
import type { Event } from '../core/event.ts';
import { BaseAgent, type BaseAgentOptions } from '../agents/base-agent.ts';
import { REQUEST_CONFIRMATION_FUNCTION } from '../agents/confirmation.ts';
import { isOnBranch } from '../agents/contents.ts';
import { runFunctionCalls } from '../agents/function-calls.ts';
import { LlmAgent, type LlmAgentOptions } from '../agents/llm-agent.ts';
import { buildLlmRequest, callModel } from '../agents/llm-call.ts';
import { compactContext } from '../context/compact-context.ts';
import { pendingCalls } from '../agents/pending-calls.ts';
import type { JsonSchema } from '../models/llm.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { BaseTool, type ToolProcessLlmRequest } from '../tools/base-tool.ts';
import { isToolset, type BaseToolset } from '../tools/base-toolset.ts';
import type { ToolContext } from '../tools/tool-context.ts';
import { runStartIndex } from './flow-events.ts';

export interface ModelNodeOptions extends LlmAgentOptions {
  /** Ask the model for JSON shaped like this (structured output, scenario choice). */
  responseSchema?: JsonSchema;
  /** Added to the system instruction: how to shape the reply. */
  replyInstruction?: string;
  /** Checks the reply text; a message makes the node fail with a clear error event. */
  checkReply?: (text: string) => string | undefined;
}

/** An llm or conditionAgent node: one model call; tool calls it asks for are left to a tool node. */
export class ModelNodeAgent extends LlmAgent {
  private readonly responseSchema: JsonSchema | undefined;
  private readonly replyInstruction: string | undefined;
  private readonly checkReply: ModelNodeOptions['checkReply'];

  constructor(options: ModelNodeOptions) {
    super(options);
    this.responseSchema = options.responseSchema;
    this.replyInstruction = options.replyInstruction;
    this.checkReply = options.checkReply;
  }

  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    // Resumed after its reply was stored: nothing left to do (a reply cut short is no reply).
    const replied = ({ event }: { event: Event }) =>
      event.author === this.name && event.content !== undefined && !event.interrupted;
    if (ctx.resumeEvents().some(replied)) return;
    const tools = await this.toolsByName();
    // As an LlmAgent's step: its compactors first (a flow's long chat, src/context).
    if (this.contextCompactors.length > 0) yield* compactContext(this.contextCompactors, ctx);
    const request = await buildLlmRequest(this, ctx, tools);
    if (this.responseSchema && !offersTools(request)) request.responseSchema = this.responseSchema;
    if (this.replyInstruction) {
      request.systemInstruction = `${request.systemInstruction ?? ''}\n\n${this.replyInstruction}`;
    }
    const event = yield* callModel(this, ctx, request, tools);
    if (!event) throw new ModelError(`Node ${this.name}: the model gave an empty reply`);
    yield event;
    if (functionCallsOf(event.content).length > 0 || !this.checkReply) return;
    const problem = this.checkReply(textOf(event.content));
    if (problem) throw new ModelError(`Node ${this.name}: ${problem}`, 'INVALID_OUTPUT');
  }
}

/** Providers reject a response schema beside function declarations: tools win. */
function offersTools(request: { tools?: unknown[] }): boolean {
  return (request.tools?.length ?? 0) > 0;
}

export interface ToolNodeOptions extends BaseAgentOptions {
  /** Its tools, and toolsets listed when it runs (an MCP server's tools). */
  tools: readonly (BaseTool | BaseToolset)[];
  /** The flow agent's name: the node's run starts after the flow's checkpoint for it. */
  flowName: string;
  /**
   * A call the node makes itself (a toolCall node: a tool with set arguments), rather than the
   * calls of the model node before it; undefined when it has none to make (no tool chosen).
   */
  ownCall?: (ctx: InvocationContext) => { name: string; args: Record<string, unknown> } | undefined;
}

/**
 * A tool node: runs the calls the model node before it asked for (on its branch, not yet
 * answered), asking for approval when its tools require it. Calls naming a tool it does not
 * have are answered with an error, so the log never holds an unanswered call.
 */
export class ToolNodeAgent extends BaseAgent {
  private readonly tools: ReadonlyMap<string, BaseTool>;
  readonly toolsets: readonly BaseToolset[];
  private readonly flowName: string;

  constructor(options: ToolNodeOptions) {
    super(options);
    const own = options.tools.filter((tool): tool is BaseTool => !isToolset(tool));
    this.tools = new Map(own.map((tool) => [tool.name, tool]));
    this.toolsets = options.tools.filter(isToolset);
    this.flowName = options.flowName;
    this.ownCall = options.ownCall;
  }

  private readonly ownCall: ToolNodeOptions['ownCall'];

  /** Its tools by name: its own, then its toolsets' as they are now. */
  private async toolsByName(): Promise<ReadonlyMap<string, BaseTool>> {
    if (this.toolsets.length === 0) return this.tools;
    const tools = new Map(this.tools);
    for (const toolset of this.toolsets)
      for (const tool of await toolset.getTools())
        if (!tools.has(tool.name)) tools.set(tool.name, tool);
    return tools;
  }

  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    let calls: FunctionCall[];
    let confirmations = new Map();
    const scoped = ctx.resumeEvents().map(({ event }) => event);
    if (scoped.some((event) => event.author === this.name)) {
      // Resumed after it answered or asked for approval: run what a human has since decided.
      const pending = pendingCalls(this.name, scoped);
      if (pending.calls.length === 0) {
        if (pending.awaiting.length > 0) ctx.markPaused();
        return;
      }
      ({ calls, confirmations } = pending);
    } else if (this.ownCall) {
      const made = this.ownCall(ctx);
      if (!made) return;
      const call: FunctionCall = { id: newFunctionCallId(), ...made };
      // Its call is in the log as a model's would be, so the answer pairs with it on resume.
      yield ctx.createEvent({ content: { role: 'model', parts: [{ functionCall: call }] } });
      calls = [call];
    } else {
      calls = this.callsToRun(ctx);
    }
    if (calls.length === 0) return;
    const { event, confirmationRequest, error } = await runFunctionCalls(
      ctx,
      calls,
      await this.toolsByName(),
      confirmations,
    );
    if (confirmationRequest) yield confirmationRequest;
    if (event) yield event;
    if (error) throw error;
  }

  /** The unanswered calls of the latest model event on this branch before the node ran. */
  private callsToRun(ctx: InvocationContext): FunctionCall[] {
    const events = ctx.activeView.peek();
    const start = runStartIndex(events, this.flowName, this.name, ctx.branch);
    const answered = new Set<string>();
    for (let i = (start < 0 ? events.length : start) - 1; i >= 0; i--) {
      const event = events[i]!;
      if (!isOnBranch(ctx.branch, event.branch)) continue;
      for (const response of functionResponsesOf(event.content))
        if (response.id) answered.add(response.id);
      const calls = functionCallsOf(event.content).filter(
        (call) => call.name !== REQUEST_CONFIRMATION_FUNCTION,
      );
      if (calls.length > 0) return calls.filter((call) => call.id && !answered.has(call.id));
    }
    return [];
  }
}

/** A tool whose every call a human must approve first (a node's `requireApproval`). */
export class ApprovalRequiredTool extends BaseTool {
  override readonly isLongRunning: boolean;

  constructor(
    private readonly inner: BaseTool,
    /** The node's approval prompt (Flowise's), asked on the approval card. */
    private readonly prompt?: string,
  ) {
    super(inner.name, inner.description, inner.parameters);
    this.isLongRunning = inner.isLongRunning;
  }

  override confirmationHint(args: Record<string, unknown>): string | undefined {
    // Flowise's prompts name the tool as {tools}.
    return this.prompt
      ? this.prompt.replaceAll('{tools}', this.name)
      : this.inner.confirmationHint(args);
  }

  override validateArgs(args: Record<string, unknown>): string[] {
    return this.inner.validateArgs(args);
  }

  override processLlmRequest(request: ToolProcessLlmRequest): Promise<void> {
    return this.inner.processLlmRequest(request);
  }

  override async needsConfirmation(): Promise<boolean> {
    return true;
  }

  override runAsync(args: Record<string, unknown>, toolContext: ToolContext): Promise<unknown> {
    return this.inner.runAsync(args, toolContext);
  }
}
