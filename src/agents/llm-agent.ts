// An agent driven by a model: instruction, tools, the function-call loop, transfer, outputKey,
// and how it pauses for long-running tools and confirmations, and resumes.

import { functionCallsOf, functionResponsesOf, type FunctionCall } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import {
  findCallEvent,
  isFinalResponse,
  type Event,
  type ToolConfirmation,
} from '../core/event.ts';
import type { BaseContextCompactor } from '../context/base-context-compactor.ts';
import { compactContext } from '../context/compact-context.ts';
import {
  generateContentConfigProblem,
  type BaseLlm,
  type GenerateContentConfig,
} from '../models/llm.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { isToolset, type BaseToolset } from '../tools/base-toolset.ts';
import { BaseAgent, type BaseAgentOptions } from './base-agent.ts';
import {
  callbackLists,
  type AfterModelCallback,
  type AfterToolCallback,
  type BeforeModelCallback,
  type BeforeToolCallback,
  type ModelCallbacks,
  type OnModelErrorCallback,
  type OnToolErrorCallback,
  type ToolCallbacks,
} from './callbacks.ts';
import {
  REQUEST_CONFIRMATION_FUNCTION,
  originalCallOf,
  parseConfirmation,
} from './confirmation.ts';
import { isOnBranch } from './contents.ts';
import { runFunctionCalls } from './function-calls.ts';
import type { Instruction } from './instructions.ts';
import { buildLlmRequest, callModel, type HistorySelector } from './llm-call.ts';
import { pendingCalls } from './pending-calls.ts';
import { whileToolsRun } from './tool-events.ts';
import {
  transferTargets,
  transferTool,
  type TransferCapable,
  type TransferPolicy,
} from './transfer.ts';

export interface LlmAgentOptions extends BaseAgentOptions {
  /** The model; an agent without one uses its nearest LlmAgent ancestor's. */
  model?: BaseLlm;
  /** What the agent should do; `{key}` placeholders are filled from the session state. */
  instruction?: Instruction;
  /** Tools, and toolsets whose tools are listed when a run needs them (an MCP server's). */
  tools?: readonly (BaseTool | BaseToolset)[];
  /** Save the agent's final answer text in this state key. */
  outputKey?: string;
  /**
   * How its model generates (ADK's): temperature, top-p, max output tokens; each request gets a
   * copy as `config`. A value out of range is refused here.
   */
  generateContentConfig?: GenerateContentConfig;
  /** `'none'`: the model sees only the current turn, not the conversation before it. */
  includeContents?: 'default' | 'none';
  disallowTransferToParent?: boolean;
  disallowTransferToPeers?: boolean;
  /**
   * Chooses the events the model's conversation is built from (default: every active event).
   * Graph flows use it for Flowise's history options (last message, user question, none).
   */
  history?: HistorySelector;
  /** Before each model call; may change the request, or answer instead of the model. */
  beforeModelCallback?: BeforeModelCallback;
  /** After each model response (streamed chunks too); may replace it. */
  afterModelCallback?: AfterModelCallback;
  /** When the model fails; may answer in its place (ADK Python's; ADK TS has it on plugins). */
  onModelErrorCallback?: OnModelErrorCallback;
  /** Before each tool call; may answer instead of the tool. */
  beforeToolCallback?: BeforeToolCallback;
  /** After each tool call's result; may replace it. */
  afterToolCallback?: AfterToolCallback;
  /** When a tool throws; may give the call's result in its place (ADK Python's). */
  onToolErrorCallback?: OnToolErrorCallback;
  /**
   * ADK 2.0's context compaction: before each model call, the first of these that should
   * compact does (src/context), and the model then sees its summary instead of what it covers.
   */
  contextCompactors?: readonly BaseContextCompactor[];
}

export type { HistorySelector } from './llm-call.ts';

/** Where the agent stands after a step: go on with another model call, finished, or paused. */
type StepOutcome = 'continue' | 'done' | 'paused';

export class LlmAgent extends BaseAgent implements TransferCapable {
  readonly instruction: Instruction;
  readonly tools: readonly BaseTool[];
  readonly toolsets: readonly BaseToolset[];
  readonly outputKey: string | undefined;
  /** `'none'` in a workflow node unless given: see workflow/agent-nodes.ts. */
  includeContents: 'default' | 'none';
  /** Whether `includeContents` was given (ADK's `includeContentsExplicit`). */
  readonly includeContentsExplicit: boolean;
  readonly transferPolicy: TransferPolicy;
  readonly history: HistorySelector | undefined;
  /** Its model callbacks as lists (see callbacks.ts), `undefined` when it has none. */
  readonly modelCallbacks: ModelCallbacks | undefined;
  /** Its tool callbacks as lists, `undefined` when it has none. */
  readonly toolCallbacks: ToolCallbacks | undefined;
  readonly contextCompactors: readonly BaseContextCompactor[];
  readonly generateContentConfig: GenerateContentConfig | undefined;
  private readonly ownModel: BaseLlm | undefined;

  constructor(options: LlmAgentOptions) {
    super(options);
    this.ownModel = options.model;
    this.instruction = options.instruction ?? '';
    this.tools = (options.tools ?? []).filter((tool): tool is BaseTool => !isToolset(tool));
    this.toolsets = (options.tools ?? []).filter(isToolset);
    this.outputKey = options.outputKey;
    this.includeContents = options.includeContents ?? 'default';
    this.includeContentsExplicit = options.includeContents !== undefined;
    this.history = options.history;
    this.modelCallbacks = callbackLists(
      options.beforeModelCallback,
      options.afterModelCallback,
      options.onModelErrorCallback,
    );
    this.toolCallbacks = callbackLists(
      options.beforeToolCallback,
      options.afterToolCallback,
      options.onToolErrorCallback,
    );
    this.contextCompactors = options.contextCompactors ?? [];
    this.generateContentConfig = checkedConfig(this.name, options.generateContentConfig);
    this.transferPolicy = {
      disallowTransferToParent: options.disallowTransferToParent ?? false,
      disallowTransferToPeers: options.disallowTransferToPeers ?? false,
    };
    const names = new Set<string>();
    for (const tool of this.tools) {
      if (names.has(tool.name)) {
        throw new InvalidRequestError(`Agent ${this.name} has two tools named ${tool.name}`);
      }
      names.add(tool.name);
    }
  }

  /** The model this agent calls: its own, or its nearest LlmAgent ancestor's. */
  get model(): BaseLlm {
    for (let agent: BaseAgent | undefined = this; agent; agent = agent.parentAgent) {
      if (agent instanceof LlmAgent && agent.ownModel) return agent.ownModel;
    }
    throw new InvalidRequestError(
      `Agent ${this.name} has no model, and neither has any agent above it`,
    );
  }

  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    let tools = await this.toolsByName();
    let outcome: StepOutcome = ctx.isResuming
      ? yield* this.resume(ctx, tools)
      : yield* this.answerConfirmations(ctx, tools);
    while (outcome === 'continue' && !ctx.endInvocation) {
      // A toolset's tools may have changed since the last model call (a server said so).
      if (this.toolsets.length > 0) tools = await this.toolsByName();
      outcome = yield* this.step(ctx, tools);
    }
    if (outcome === 'paused') ctx.markPaused();
    else if (outcome === 'done' && ctx.resumable)
      yield this.createAgentStateEvent(ctx, { endOfAgent: true });
  }

  /** One model call, and the tool calls it asks for. */
  private async *step(
    ctx: InvocationContext,
    tools: ReadonlyMap<string, BaseTool>,
  ): AsyncGenerator<Event, StepOutcome> {
    if (this.contextCompactors.length > 0) yield* compactContext(this.contextCompactors, ctx);
    const request = await buildLlmRequest(this, ctx, tools);
    const modelEvent = yield* callModel(this, ctx, request, tools);
    if (!modelEvent) return 'done';
    yield modelEvent;
    const calls = functionCallsOf(modelEvent.content);
    if (calls.length === 0 || ctx.endInvocation) return 'done';
    const paused = (modelEvent.longRunningToolIds?.length ?? 0) > 0;
    return yield* this.runCalls(ctx, calls, tools, new Map(), paused);
  }

  /**
   * Runs calls and yields their answer (after the confirmation request, if a tool asked for one).
   * The agent pauses after a long-running call or a confirmation request; a transfer runs the
   * target agent now.
   */
  private async *runCalls(
    ctx: InvocationContext,
    calls: readonly FunctionCall[],
    tools: ReadonlyMap<string, BaseTool>,
    confirmations: ReadonlyMap<string, ToolConfirmation>,
    longRunning: boolean,
  ): AsyncGenerator<Event, StepOutcome> {
    // An agent tool's events come while its call runs (tool-events.ts).
    const { event, confirmationRequest, error } = yield* whileToolsRun(ctx, () =>
      runFunctionCalls(ctx, calls, tools, confirmations, this.toolCallbacks),
    );
    if (confirmationRequest) yield confirmationRequest;
    if (event) yield event;
    if (error) throw error;
    // An agent called as a tool that waits for a human leaves its call open: this one waits too.
    if (confirmationRequest || longRunning || (ctx.resumable && ctx.isPausedBelow()))
      return 'paused';
    if (!event) return 'done';
    const transferTo = event.actions.transferToAgent;
    if (transferTo) return yield* this.transfer(ctx, transferTo, undefined);
    return isFinalResponse(event) ? 'done' : 'continue';
  }

  /** Hands the conversation to `name` (resuming it from `resumeScope`, if given). */
  private async *transfer(
    ctx: InvocationContext,
    name: string,
    resumeScope: number | undefined,
  ): AsyncGenerator<Event, StepOutcome> {
    const target = this.rootAgent.findAgent(name);
    if (!target) return 'done';
    yield* target.runAsync(ctx.resuming(resumeScope));
    return ctx.isPausedBelow() ? 'paused' : 'done';
  }

  /**
   * Continues this agent's part of an interrupted invocation, from its own events: a transfer
   * in progress goes on in the target; calls it made that were never answered run again (tools
   * run at least once); calls a human has since confirmed or rejected run now; if it still waits
   * for an answer it stays paused; otherwise it calls the model again, unless it had answered.
   */
  private async *resume(
    ctx: InvocationContext,
    tools: ReadonlyMap<string, BaseTool>,
  ): AsyncGenerator<Event, StepOutcome> {
    const scoped = ctx.resumeEvents().filter(({ event }) => isOnBranch(ctx.branch, event.branch));
    const mine = scoped.filter(({ event }) => event.author === this.name);
    const last = mine.at(-1);
    if (!last) return 'continue';
    if (last.event.actions.transferToAgent) {
      return yield* this.transfer(ctx, last.event.actions.transferToAgent, last.index + 1);
    }
    const pending = pendingCalls(
      this.name,
      scoped.map(({ event }) => event),
    );
    if (pending.calls.length > 0) {
      const outcome = yield* this.runCalls(ctx, pending.calls, tools, pending.confirmations, false);
      return pending.awaiting.length > 0 && outcome !== 'done' ? 'paused' : outcome;
    }
    if (pending.awaiting.length > 0) return 'paused';
    const { event } = last;
    const answered =
      functionCallsOf(event.content).length === 0 &&
      functionResponsesOf(event.content).length === 0;
    // An answer cut short (Stop, a failure: `interrupted`) is carried on by another model call.
    if (!event.errorCode && !event.interrupted && answered && event.content) return 'done';
    if (event.actions.skipSummarization) return 'done';
    return 'continue';
  }

  /**
   * On a fresh run: a user message that answers confirmation requests this agent made in an
   * earlier invocation (runners that are not resumable start a new one) runs those calls first.
   */
  private async *answerConfirmations(
    ctx: InvocationContext,
    tools: ReadonlyMap<string, BaseTool>,
  ): AsyncGenerator<Event, StepOutcome> {
    const confirmations = new Map<string, ToolConfirmation>();
    const calls: FunctionCall[] = [];
    for (const answer of functionResponsesOf(ctx.userContent)) {
      if (answer.name !== REQUEST_CONFIRMATION_FUNCTION || answer.id === undefined) continue;
      const requestEvent = findCallEvent(ctx.activeView.peek(), answer.id);
      if (requestEvent?.author !== this.name) continue;
      const request = functionCallsOf(requestEvent.content).find((call) => call.id === answer.id);
      const original = request && originalCallOf(request);
      if (!original?.id) continue;
      calls.push(original);
      confirmations.set(original.id, parseConfirmation(answer.response));
    }
    if (calls.length === 0) return 'continue';
    return yield* this.runCalls(ctx, calls, tools, confirmations, false);
  }

  /**
   * The agent's tools by name: its own, then its toolsets' (a name taken already stays with the
   * tool that had it), then the transfer tool.
   */
  protected async toolsByName(): Promise<Map<string, BaseTool>> {
    const tools = new Map(this.tools.map((tool) => [tool.name, tool]));
    for (const toolset of this.toolsets) {
      for (const tool of await toolset.getTools())
        if (!tools.has(tool.name)) tools.set(tool.name, tool);
    }
    const targets = transferTargets(this);
    if (targets.length > 0) {
      const transfer = transferTool(targets);
      tools.set(transfer.name, transfer);
    }
    return tools;
  }
}

/** A copy of `config`, or InvalidRequestError saying which value is out of range. */
function checkedConfig(
  agent: string,
  config: GenerateContentConfig | undefined,
): GenerateContentConfig | undefined {
  if (!config) return undefined;
  const problem = generateContentConfigProblem(config);
  if (problem) throw new InvalidRequestError(`Agent ${agent}: ${problem}`);
  const { temperature, topP, maxOutputTokens } = config;
  return {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}
