// ADK's plugins: callbacks a Runner runs for every agent, model call, tool call and workflow node
// of its runs, and around the runs themselves. A plugin is a subclass of BasePlugin that overrides
// the callbacks it wants, with ADK 2.0's names and parameters; the rest return nothing ("go on as
// usual"), and a callback a plugin does not override costs the run nothing (plugin-manager.ts).
//
// Rules (ADK's): plugins run in the order the Runner was given them, before the agent's own
// callbacks of the same kind; the first value returned is the answer (later plugins and the
// agent's callbacks do not run); a callback that throws fails the run with a PluginError naming
// the plugin and the callback. What a callback sets in `callbackContext.state` goes into the
// delta of the event it belongs to, as an agent's own callbacks' does, so a rewind takes it back.

import type { CallbackContext } from '../agents/callback-context.ts';
import type { ContextCompactionTrigger } from '../context/base-context-compactor.ts';
import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { LlmRequest, LlmResponse } from '../models/llm.ts';
import type { InvocationAgent, InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { ToolContext } from '../tools/tool-context.ts';
import type { NodeContext } from '../workflow/node-context.ts';
import type { GraphNode } from '../workflow/nodes.ts';

type MaybePromise<T> = T | Promise<T>;
/** What a callback answers: a value, or nothing (`undefined`) to go on as usual. */
type Answer<T> = MaybePromise<T | undefined | void>;

/**
 * The agent a plugin's agent callbacks are called for: the running agent (a BaseAgent), known
 * here by its name, since agents run their plugins and imports run one way.
 */
export type PluginAgent = InvocationAgent;

export abstract class BasePlugin {
  constructor(readonly name: string) {}

  /** A new message from the user, before it is stored: a Content returned replaces it. */
  onUserMessageCallback(_params: {
    invocationContext: InvocationContext;
    userMessage: Content;
  }): Answer<Content> {
    return undefined;
  }

  /**
   * Before the agent runs (a new turn or a resumed one): a Content returned ends the run at once,
   * stored as the run's answer (author `model`, as ADK's).
   */
  beforeRunCallback(_params: { invocationContext: InvocationContext }): Answer<Content> {
    return undefined;
  }

  /**
   * Each event of the run, before it is stored (streamed partial ones too): an event returned is
   * stored instead, keeping the original's id, invocation, time, and (unless it sets its own)
   * author and branch.
   */
  onEventCallback(_params: { invocationContext: InvocationContext; event: Event }): Answer<Event> {
    return undefined;
  }

  /** After the run's last event, when it ended without failing (a paused run too). */
  afterRunCallback(_params: { invocationContext: InvocationContext }): MaybePromise<void> {
    return undefined;
  }

  /** Before an agent's run: a Content returned is the agent's answer and it does not run. */
  beforeAgentCallback(_params: {
    agent: PluginAgent;
    callbackContext: CallbackContext;
  }): Answer<Content> {
    return undefined;
  }

  /** After an agent's run that finished: a Content returned is the agent's last event. */
  afterAgentCallback(_params: {
    agent: PluginAgent;
    callbackContext: CallbackContext;
  }): Answer<Content> {
    return undefined;
  }

  /** Before a model call (`llmRequest` may be changed): a response returned skips the model. */
  beforeModelCallback(_params: {
    callbackContext: CallbackContext;
    llmRequest: LlmRequest;
  }): Answer<LlmResponse> {
    return undefined;
  }

  /** After each model response (streamed chunks too): a response returned replaces it. */
  afterModelCallback(_params: {
    callbackContext: CallbackContext;
    llmResponse: LlmResponse;
  }): Answer<LlmResponse> {
    return undefined;
  }

  /** The model failed: a response returned stands in for its answer, else the error goes on. */
  onModelErrorCallback(_params: {
    callbackContext: CallbackContext;
    llmRequest: LlmRequest;
    error: Error;
  }): Answer<LlmResponse> {
    return undefined;
  }

  /** Before a tool call (`toolArgs` may be changed): a record returned is its result. */
  beforeToolCallback(_params: {
    tool: BaseTool;
    toolArgs: Record<string, unknown>;
    toolContext: ToolContext;
  }): Answer<Record<string, unknown>> {
    return undefined;
  }

  /** After a tool call: a record returned replaces its result. */
  afterToolCallback(_params: {
    tool: BaseTool;
    toolArgs: Record<string, unknown>;
    toolContext: ToolContext;
    result: Record<string, unknown>;
  }): Answer<Record<string, unknown>> {
    return undefined;
  }

  /** The tool threw: a record returned is the call's result, else the error goes on. */
  onToolErrorCallback(_params: {
    tool: BaseTool;
    toolArgs: Record<string, unknown>;
    toolContext: ToolContext;
    error: Error;
  }): Answer<Record<string, unknown>> {
    return undefined;
  }

  /**
   * Before a workflow node runs (src/workflow): a value returned is its output and it does not
   * run.
   */
  beforeNodeCallback(_params: {
    node: GraphNode;
    nodeContext: NodeContext;
    input: unknown;
  }): MaybePromise<unknown> {
    return undefined;
  }

  /** Before an agent's context is compacted (src/context), and what set it off. */
  beforeContextCompaction(_params: {
    invocationContext: InvocationContext;
    trigger: ContextCompactionTrigger;
  }): MaybePromise<void> {
    return undefined;
  }

  /** After the compaction was made (before its event is stored). */
  afterContextCompaction(_params: {
    invocationContext: InvocationContext;
    trigger: ContextCompactionTrigger;
  }): MaybePromise<void> {
    return undefined;
  }

  /** After a workflow node ran: a value returned replaces its output. */
  afterNodeCallback(_params: {
    node: GraphNode;
    nodeContext: NodeContext;
    output: unknown;
  }): MaybePromise<unknown> {
    return undefined;
  }
}

/** The callbacks a plugin may override, by name. */
export type PluginCallbackName = {
  [K in keyof BasePlugin]: BasePlugin[K] extends (...args: never[]) => unknown ? K : never;
}[keyof BasePlugin];
