// An agent driven by a model: instruction, tools, the function-call loop, transfer, outputKey.

import { functionCallsOf, textOf, type Content } from '../core/content.ts';
import {
  InvalidRequestError,
  LlmCallsLimitExceededError,
  ModelError,
  messageOf,
} from '../core/errors.ts';
import { isFinalResponse, type Event } from '../core/event.ts';
import { newFunctionCallId } from '../core/ids.ts';
import type { BaseLlm, LlmRequest, LlmResponse } from '../models/llm.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { BaseAgent, type BaseAgentOptions } from './base-agent.ts';
import { buildContents } from './contents.ts';
import { runFunctionCalls } from './function-calls.ts';
import { renderInstruction, type Instruction } from './instructions.ts';
import {
  transferInstruction,
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
  tools?: readonly BaseTool[];
  /** Save the agent's final answer text in this state key. */
  outputKey?: string;
  /** `'none'`: the model sees only the current turn, not the conversation before it. */
  includeContents?: 'default' | 'none';
  disallowTransferToParent?: boolean;
  disallowTransferToPeers?: boolean;
}

/** How one model call ended. */
type StepOutcome = 'continue' | 'done';

export class LlmAgent extends BaseAgent implements TransferCapable {
  readonly instruction: Instruction;
  readonly tools: readonly BaseTool[];
  readonly outputKey: string | undefined;
  readonly includeContents: 'default' | 'none';
  readonly transferPolicy: TransferPolicy;
  private readonly ownModel: BaseLlm | undefined;

  constructor(options: LlmAgentOptions) {
    super(options);
    this.ownModel = options.model;
    this.instruction = options.instruction ?? '';
    this.tools = [...(options.tools ?? [])];
    this.outputKey = options.outputKey;
    this.includeContents = options.includeContents ?? 'default';
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
    while (!ctx.endInvocation) {
      const outcome = yield* this.step(ctx);
      if (outcome === 'done') return;
    }
  }

  /** One model call, and the tool calls it asks for. */
  private async *step(ctx: InvocationContext): AsyncGenerator<Event, StepOutcome> {
    const tools = this.toolsByName();
    const request = await this.buildRequest(ctx, tools);
    const modelEvent = yield* this.callModel(ctx, request, tools);
    if (!modelEvent) return 'done';
    yield modelEvent;

    const calls = functionCallsOf(modelEvent.content);
    if (calls.length === 0 || ctx.endInvocation) return 'done';
    const { event: responseEvent, error } = await runFunctionCalls(ctx, calls, tools);
    if (responseEvent) yield responseEvent;
    if (error) throw error;
    if (modelEvent.longRunningToolIds?.length) return 'done'; // paused until the tool answers
    if (!responseEvent) return 'done';

    const transferTo = responseEvent.actions.transferToAgent;
    if (transferTo) {
      const target = this.rootAgent.findAgent(transferTo);
      if (target) {
        yield* target.runAsync(ctx);
        return 'done';
      }
    }
    return isFinalResponse(responseEvent) ? 'done' : 'continue';
  }

  /**
   * Calls the model, yields its partial events (streaming), and returns the final model event
   * (not yet yielded), or nothing for an empty answer.
   */
  private async *callModel(
    ctx: InvocationContext,
    request: LlmRequest,
    tools: ReadonlyMap<string, BaseTool>,
  ): AsyncGenerator<Event, Event | undefined> {
    if (!ctx.countLlmCall()) throw new LlmCallsLimitExceededError(ctx.runConfig.maxLlmCalls ?? 0);
    const streaming = ctx.runConfig.streamingMode === 'sse';
    const signal = ctx.runConfig.signal;
    const streamed = ctx.createEvent();
    let partialText = '';
    let final: LlmResponse | undefined;
    try {
      for await (const response of this.model.generateContentAsync(
        request,
        streaming,
        signal ? { signal } : {},
      )) {
        if (response.partial) {
          partialText += textOf(response.content);
          yield { ...streamed, content: response.content, partial: true, timestamp: Date.now() };
        } else {
          final = response;
        }
      }
    } catch (error) {
      if ((error as Error | null)?.name === 'AbortError') throw error;
      if ((error as Error | null)?.name === 'ModelError') throw error;
      throw new ModelError(`Model ${this.model.model} failed: ${messageOf(error)}`, 'MODEL_ERROR', {
        cause: error,
      });
    }
    // A stream that ended without its aggregated response: the text so far is the answer.
    final ??= partialText
      ? { content: { role: 'model', parts: [{ text: partialText }] } }
      : undefined;
    if (!final) return undefined;
    return this.modelEvent(ctx, streamed, final, tools);
  }

  private modelEvent(
    ctx: InvocationContext,
    base: Event,
    response: LlmResponse,
    tools: ReadonlyMap<string, BaseTool>,
  ): Event {
    const content = response.content && withCallIds(response.content);
    const longRunning = functionCallsOf(content)
      .filter((call) => tools.get(call.name)?.isLongRunning)
      .map((call) => call.id!);
    const event: Event = {
      ...base,
      timestamp: Date.now(),
      ...(content ? { content } : {}),
      ...(response.turnComplete ? { turnComplete: true } : {}),
      ...(response.errorCode ? { errorCode: response.errorCode } : {}),
      ...(response.errorMessage ? { errorMessage: response.errorMessage } : {}),
      ...(response.usageMetadata ? { usageMetadata: response.usageMetadata } : {}),
      ...(longRunning.length > 0 ? { longRunningToolIds: longRunning } : {}),
    };
    if (this.outputKey && isFinalResponse(event) && !event.errorCode) {
      const text = textOf(event.content);
      if (event.content?.parts.some((part) => part.text !== undefined && !part.thought)) {
        event.actions = {
          ...event.actions,
          stateDelta: { ...event.actions.stateDelta, [this.outputKey]: text },
        };
      }
    }
    return event;
  }

  private toolsByName(): Map<string, BaseTool> {
    const tools = new Map(this.tools.map((tool) => [tool.name, tool]));
    const targets = transferTargets(this);
    if (targets.length > 0) {
      const transfer = transferTool(targets);
      tools.set(transfer.name, transfer);
    }
    return tools;
  }

  private async buildRequest(
    ctx: InvocationContext,
    tools: ReadonlyMap<string, BaseTool>,
  ): Promise<LlmRequest> {
    const instructions = [
      `You are an agent. Your internal name is "${this.name}".` +
        (this.description ? ` The description about you is "${this.description}".` : ''),
    ];
    const own = await renderInstruction(this.instruction, ctx);
    if (own) instructions.push(own);
    const targets = transferTargets(this);
    if (targets.length > 0) instructions.push(transferInstruction(this, targets));
    const declarations = [...tools.values()].map((tool) => tool.declaration());
    return {
      model: this.model.model,
      contents: buildContents(ctx.activeEvents(), this.name, ctx.branch, {
        includeContents: this.includeContents,
      }),
      systemInstruction: instructions.join('\n\n'),
      ...(declarations.length > 0 ? { tools: declarations } : {}),
    };
  }
}

/** The content with an id on every function call (ADK's `adk-` ids for calls that had none). */
function withCallIds(content: Content): Content {
  if (!content.parts.some((part) => part.functionCall && !part.functionCall.id)) return content;
  return {
    ...content,
    parts: content.parts.map((part) =>
      part.functionCall && !part.functionCall.id
        ? { ...part, functionCall: { ...part.functionCall, id: newFunctionCallId() } }
        : part,
    ),
  };
}
