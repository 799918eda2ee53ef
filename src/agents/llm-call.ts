// One model call of an LlmAgent: the request it sends, and the event made of the answer.

import { processToolRequests } from '../tools/tool-requests.ts';
import { functionCallsOf, textOf, type Content } from '../core/content.ts';
import { LlmCallsLimitExceededError, ModelError, messageOf } from '../core/errors.ts';
import { cutAnswerEvent } from '../core/cut-answer.ts';
import { isFinalResponse, type Event, type ModelTiming } from '../core/event.ts';
import { modelWaitEvent } from '../core/model-wait.ts';
import { newFunctionCallId } from '../core/ids.ts';
import { DemoModel } from '../models/demo-model.ts';
import type { BaseLlm, GenerateContentConfig, LlmRequest, LlmResponse } from '../models/llm.ts';
import { ScriptedModel } from '../models/scripted-model.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { ModelCallbacks } from './callbacks.ts';
import { buildContents } from './contents.ts';
import { cachedContents } from './contents-cache.ts';
import { contentsSource } from './compacted-contents.ts';
import { renderInstruction, type Instruction } from './instructions.ts';
import { lendContents } from './lent-contents.ts';
import { ModelCallHooks } from './model-callbacks.ts';
import { pluginsOf } from '../plugins/plugin-manager.ts';
import { withModelWaits } from './model-stream.ts';
import { transferInstruction, transferTargets, type TransferCapable } from './transfer.ts';
import type { BaseAgent } from './base-agent.ts';

/** The events an agent's model sees, chosen from the active events of the session. */
export type HistorySelector = (
  events: readonly Event[],
  ctx: InvocationContext,
) => readonly Event[];

/**
 * What a model call needs of its agent: an LlmAgent, known here by its shape so that the import
 * runs one way (llm-agent.ts calls this file).
 */
export interface ModelCallingAgent extends BaseAgent, TransferCapable {
  readonly model: BaseLlm;
  readonly instruction: Instruction;
  readonly outputKey: string | undefined;
  readonly includeContents: 'default' | 'none';
  readonly history: HistorySelector | undefined;
  /** Its model callbacks, `undefined` when it has none. */
  readonly modelCallbacks: ModelCallbacks | undefined;
  /** How its model generates (ADK's), copied into each request's `config`. */
  readonly generateContentConfig?: GenerateContentConfig | undefined;
}

/** The request for the agent's next model call: instructions, the conversation, the tools. */
export async function buildLlmRequest(
  agent: ModelCallingAgent,
  ctx: InvocationContext,
  tools: ReadonlyMap<string, BaseTool>,
): Promise<LlmRequest> {
  const instructions = [
    `You are an agent. Your internal name is "${agent.name}".` +
      (agent.description ? ` The description about you is "${agent.description}".` : ''),
  ];
  const own = await renderInstruction(agent.instruction, ctx);
  if (own) instructions.push(own);
  const targets = transferTargets(agent);
  if (targets.length > 0) instructions.push(transferInstruction(agent, targets));
  const model = agent.model;
  const request: LlmRequest = {
    model: model.model,
    contents: requestContents(model, contentsFor(agent, ctx)),
    systemInstruction: instructions.join('\n\n'),
    ...(agent.generateContentConfig ? { config: { ...agent.generateContentConfig } } : {}),
  };
  // Each tool adds to the request, as ADK's do: its declaration, or an instruction (memory).
  if (tools.size > 0) await processToolRequests(request, tools.values(), ctx);
  return request;
}

/**
 * The conversation for the model: kept up to date with the active events (see contents-cache),
 * from the latest context compaction on if there is one, unless a history selector chose other
 * events than all of them.
 */
function contentsFor(agent: ModelCallingAgent, ctx: InvocationContext): readonly Content[] {
  const options = { includeContents: agent.includeContents };
  // After a context compaction the model sees its summary and what followed (compacted-contents).
  const source = contentsSource(ctx.activeView);
  if (agent.history) {
    const events = source === ctx.activeView ? ctx.activeEvents() : [...source.peek()];
    const chosen = agent.history(events, ctx);
    if (chosen !== events) return buildContents(chosen, agent.name, ctx.branch, options);
  }
  return cachedContents(source, agent.name, ctx.branch, options);
}

/**
 * The request's contents, of its own to whoever receives the request (the model, and whatever
 * it hands the request to): a change to them never reaches the next request, and later
 * requests never change them. ScriptedModel and DemoModel keep the request or hand it to a
 * script, which reads the last contents or so: they are lent a view fixed at the contents'
 * length, O(1) (see lent-contents.ts). Any other model gets a plain copy, O(contents): a model
 * that sends the conversation reads all of it anyway, and a plain array is what a model written
 * elsewhere may clone, post to a worker or show in devtools.
 */
function requestContents(model: BaseLlm, contents: readonly Content[]): Content[] {
  return model instanceof ScriptedModel || model instanceof DemoModel
    ? lendContents(contents, contents.length)
    : contents.slice();
}

/** The model's name for its span; an agent with none fails in the call itself. */
function modelNameOf(agent: ModelCallingAgent): string {
  try {
    return agent.model.model;
  } catch {
    return 'none';
  }
}

/**
 * Calls the model, yields its partial events (streaming, and a notice of each wait to try the
 * provider again: core/model-wait.ts), and returns the final model event (not yet yielded), or
 * nothing for an empty answer. A model that throws becomes a ModelError.
 *
 * An answer cut short keeps what it had said: when Stop or a failure ends the call after some
 * text, it yields that text as a stored answer marked stopped or cut off (core/cut-answer.ts),
 * then throws (the runner stores a stopped answer even though the run is cancelled).
 *
 * The agent's model callbacks (callbacks.ts), when it has any, sit here: before the call (an
 * answer returned is the event, the model is not called nor counted), after each response (each
 * streamed chunk too, as ADK; the stored event is made of the final response's replacement), and
 * on the model's failure (an answer returned stands in for the call's, and the after callbacks
 * see it, as ADK Python's). What they set in state goes into the answer's event. An agent with
 * none pays one property read for them.
 */
export async function* callModel(
  agent: ModelCallingAgent,
  ctx: InvocationContext,
  request: LlmRequest,
  tools: ReadonlyMap<string, BaseTool>,
): AsyncGenerator<Event, Event | undefined> {
  const streamed = ctx.createEvent();
  // The runner's plugins' model callbacks run first (src/plugins).
  const plugins = pluginsOf(ctx);
  const callbacks = plugins ? plugins.modelCallbacks(agent.modelCallbacks) : agent.modelCallbacks;
  const hooks = callbacks && new ModelCallHooks(callbacks, ctx, streamed.actions);
  let answer = hooks?.before(request);
  if (answer instanceof Promise) answer = await answer;
  if (answer) return modelEvent(agent, streamed, answer, tools, undefined);
  // The call's span, closed however the call ends (one generator: this runs for every call).
  const tracer = ctx.tracer;
  const span = tracer?.model(
    ctx,
    modelNameOf(agent),
    request.contents.length,
    request.tools?.length ?? 0,
  );
  let event: Event | undefined;
  let error: string | undefined;
  try {
    if (!ctx.countLlmCall()) throw new LlmCallsLimitExceededError(ctx.runConfig.maxLlmCalls ?? 0);
    const model = agent.model;
    const streaming = ctx.runConfig.streamingMode === 'sse';
    const signal = ctx.runConfig.signal;
    let partialText = '';
    let final: LlmResponse | undefined;
    /** Whether `final` is the model's (not an error callback's stand-in). */
    let answeredByModel = true;
    const started = performance.now();
    let firstTokenAt: number | undefined;
    const timing = (): ModelTiming => {
      const now = performance.now();
      return {
        firstTokenMs: Math.round((firstTokenAt ?? now) - started),
        totalMs: Math.round(now - started),
      };
    };
    try {
      for await (const item of withModelWaits((onWait) =>
        model.generateContentAsync(request, streaming, { ...(signal ? { signal } : {}), onWait }),
      )) {
        if ('wait' in item) {
          yield modelWaitEvent(streamed, item.wait);
          continue;
        }
        if (item.response.partial) {
          let response = hooks ? hooks.after(item.response) : item.response;
          if (response instanceof Promise) response = await response;
          if ((response.content?.parts.length ?? 0) > 0) firstTokenAt ??= performance.now();
          partialText += textOf(response.content);
          yield { ...streamed, content: response.content, partial: true, timestamp: Date.now() };
        } else {
          final = item.response;
        }
      }
    } catch (thrown) {
      const name = (thrown as Error | null)?.name;
      const cancelled = ctx.isCancellation(thrown);
      // Providers' own errors already say what failed and what to do.
      const failure =
        cancelled || name === 'ModelError' || name === 'ModelUnreachableError'
          ? thrown
          : new ModelError(`Model ${model.model} failed: ${messageOf(thrown)}`, 'MODEL_ERROR', {
              cause: thrown,
            });
      const standIn = hooks && !cancelled && (await hooks.onError(request, failure as Error));
      if (!standIn) {
        if (partialText.trim()) {
          const code = (failure as { code?: unknown }).code;
          event = cutAnswerEvent(
            streamed,
            partialText,
            cancelled
              ? { kind: 'stopped' }
              : { kind: 'cut-off', errorCode: typeof code === 'string' ? code : 'MODEL_ERROR' },
            { modelVersion: request.model ?? model.model, timing: timing() },
          );
          yield event;
        }
        throw failure;
      }
      final = standIn;
      answeredByModel = false;
    }
    // A stream that ended without its aggregated response: the text so far is the answer.
    final ??= partialText
      ? { content: { role: 'model', parts: [{ text: partialText }] } }
      : undefined;
    if (!final) return undefined;
    if (hooks) {
      const after = hooks.after(final);
      final = after instanceof Promise ? await after : after;
    }
    event = modelEvent(
      agent,
      streamed,
      final,
      tools,
      answeredByModel
        ? { modelVersion: final.modelVersion ?? request.model ?? model.model, timing: timing() }
        : undefined,
    );
    return event;
  } catch (thrown) {
    if (!ctx.isCancellation(thrown)) error = messageOf(thrown);
    throw thrown;
  } finally {
    if (span) {
      if (event) span.answered(event);
      tracer?.end(span, error);
    }
  }
}

/**
 * The stored event of an answer. `byModel` says who made it: the model that answered and how
 * long it took, or nothing for an answer a callback gave instead of the model.
 */
function modelEvent(
  agent: ModelCallingAgent,
  base: Event,
  response: LlmResponse,
  tools: ReadonlyMap<string, BaseTool>,
  byModel: { modelVersion: string; timing: ModelTiming } | undefined,
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
  const modelVersion = byModel?.modelVersion ?? response.modelVersion;
  if (modelVersion) event.modelVersion = modelVersion;
  const notice = response.notice;
  if (byModel) {
    event.customMetadata = { trellis: { timing: byModel.timing, ...(notice ? { notice } : {}) } };
  } else if (notice) {
    event.customMetadata = { trellis: { notice } };
  }
  const hasAnswerText = event.content?.parts.some(
    (part) => part.text !== undefined && !part.thought,
  );
  if (agent.outputKey && isFinalResponse(event) && !event.errorCode && hasAnswerText) {
    event.actions = {
      ...event.actions,
      stateDelta: { ...event.actions.stateDelta, [agent.outputKey]: textOf(event.content) },
    };
  }
  return event;
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
