// The base of every agent: a name in a tree of agents, and a stream of events per invocation.

import { InvalidRequestError, messageOf } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import {
  afterAgentEvent,
  beforeAgentEvent,
  endsRun,
  isEndOfAgent,
  type AgentCallbacks,
} from './agent-callbacks.ts';
import { pluginsOf } from '../plugins/plugin-manager.ts';
import { agentResumeState, agentStateEvent, pausesAgent } from './agent-state.ts';
import {
  callbackList,
  type AfterAgentCallback,
  type BeforeAgentCallback,
  type SingleAgentCallback,
} from './callbacks.ts';

export interface BaseAgentOptions {
  /** Unique in its agent tree; an identifier (letters, digits, `_`), never `user`. */
  name: string;
  /** What the agent does, told to other agents deciding whether to transfer to it. */
  description?: string;
  subAgents?: readonly BaseAgent[];
  /**
   * Called before the agent runs (ADK's): a Content returned is the agent's answer and its run
   * is skipped. A list runs in order until one returns a Content.
   */
  beforeAgentCallback?: BeforeAgentCallback;
  /** Called after the agent's run finished (ADK's): a Content returned is its last event. */
  afterAgentCallback?: AfterAgentCallback;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export abstract class BaseAgent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly BaseAgent[];
  /** ADK's canonical list (empty when none was given). */
  readonly beforeAgentCallback: readonly SingleAgentCallback[];
  readonly afterAgentCallback: readonly SingleAgentCallback[];
  /** Both lists, or `undefined` when the agent has no agent callbacks (the usual case). */
  private readonly agentCallbacks: AgentCallbacks | undefined;
  private parent: BaseAgent | undefined;

  constructor(options: BaseAgentOptions) {
    if (!NAME.test(options.name ?? '')) {
      throw new InvalidRequestError(
        `Agent name ${JSON.stringify(options.name)} must be an identifier (letters, digits, _ and -)`,
      );
    }
    if (options.name === 'user') throw new InvalidRequestError("An agent cannot be named 'user'");
    this.name = options.name;
    this.description = options.description ?? '';
    this.subAgents = [...(options.subAgents ?? [])];
    this.beforeAgentCallback = callbackList(options.beforeAgentCallback);
    this.afterAgentCallback = callbackList(options.afterAgentCallback);
    this.agentCallbacks =
      this.beforeAgentCallback.length + this.afterAgentCallback.length > 0
        ? { before: this.beforeAgentCallback, after: this.afterAgentCallback }
        : undefined;
    for (const sub of this.subAgents) {
      if (sub.parent) {
        throw new InvalidRequestError(
          `Agent ${sub.name} already has the parent ${sub.parent.name}; it cannot also be a sub-agent of ${this.name}`,
        );
      }
      sub.parent = this;
    }
  }

  get parentAgent(): BaseAgent | undefined {
    return this.parent;
  }

  get rootAgent(): BaseAgent {
    let agent: BaseAgent = this;
    while (agent.parent) agent = agent.parent;
    return agent;
  }

  /** This agent or one of its descendants, by name. */
  findAgent(name: string): BaseAgent | undefined {
    return this.name === name ? this : this.findSubAgent(name);
  }

  /** A descendant of this agent, by name. */
  findSubAgent(name: string): BaseAgent | undefined {
    for (const sub of this.subAgents) {
      const found = sub.findAgent(name);
      if (found) return found;
    }
    return undefined;
  }

  /** Every agent of this subtree, this one first. */
  *walk(): Generator<BaseAgent> {
    yield this;
    for (const sub of this.subAgents) yield* sub.walk();
  }

  /**
   * Runs this agent in the invocation of `parentContext`, yielding its events, between its
   * before and after callbacks if it has any (agent-callbacks.ts). If the agent fails (its model
   * or a tool threw, say), it yields an error event of its own, and the error goes on up to the
   * caller; agents above it add no second error event.
   */
  async *runAsync(parentContext: InvocationContext): AsyncGenerator<Event, void> {
    if (parentContext.endInvocation) return;
    // Its span (when traced) and its context, new spans under that span: one context, not two.
    const tracer = parentContext.tracer;
    const span = tracer?.agent(parentContext, this.name);
    const ctx = parentContext.forAgent(this, parentContext.branch, span);
    // Finished before the interruption (its span, never ended, is not written).
    const resumed = agentResumeState(ctx);
    if (resumed?.ended) return;
    // The runner's plugins' agent callbacks run first (src/plugins).
    const plugins = pluginsOf(ctx);
    const callbacks = plugins ? plugins.agentCallbacks(this.agentCallbacks) : this.agentCallbacks;
    let failure: string | undefined;
    try {
      if (callbacks) {
        let before = beforeAgentEvent(ctx, callbacks, resumed?.started ?? false);
        if (before instanceof Promise) before = await before;
        if (before) {
          const answer = endsRun(ctx, before);
          yield answer ?? before;
          if (answer) return;
        }
      }
      const after = callbacks && callbacks.after.length > 0 ? callbacks : undefined;
      // With after callbacks, the run's `endOfAgent` checkpoint waits until they have answered.
      let checkpoint: Event | undefined;
      for await (const event of this.runAsyncImpl(ctx)) {
        if (checkpoint) yield checkpoint;
        checkpoint = after && isEndOfAgent(ctx, event) ? event : undefined;
        if (checkpoint) continue;
        yield event;
        if (event.author === this.name && pausesAgent(event)) ctx.markPaused();
      }
      if (after) {
        let last = afterAgentEvent(ctx, after, checkpoint);
        if (last instanceof Promise) last = await last;
        if (last) yield last;
      }
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(messageOf(thrown));
      if (ctx.isCancellation(error) || reported.has(error)) throw error;
      // Marked where it happened: the agents above pass it on unmarked.
      failure = error.message;
      reported.add(error);
      yield ctx.createEvent({ errorCode: errorCodeOf(error), errorMessage: error.message });
      throw error;
    } finally {
      // Also when the run is cancelled or its reader stops: the span ends where the agent did.
      if (span) tracer?.end(span, failure);
    }
  }

  /**
   * The state this agent saved with `createAgentStateEvent` before the run was interrupted, when
   * it is being resumed; `undefined` on a fresh run.
   */
  loadAgentState<T extends Record<string, unknown> = Record<string, unknown>>(
    ctx: InvocationContext,
  ): T | undefined {
    return agentResumeState(ctx)?.state as T | undefined;
  }

  /**
   * A checkpoint event to yield: where this agent is (`state`, keys in snake_case as ADK writes
   * them), or that it finished (`endOfAgent`). Resumable runners resume from the latest one.
   */
  createAgentStateEvent(
    ctx: InvocationContext,
    checkpoint: { state?: Record<string, unknown>; endOfAgent?: boolean },
  ): Event {
    return agentStateEvent(ctx, checkpoint);
  }

  /**
   * The context for a sub-agent: resuming it from just after this agent's latest checkpoint
   * (`resume`), or running it fresh.
   */
  protected childContext(ctx: InvocationContext, resume: boolean): InvocationContext {
    return ctx.resuming(
      resume ? (agentResumeState(ctx)?.afterState ?? ctx.resumeScope) : undefined,
    );
  }

  /** The agent's behaviour. Each yielded event is stored before the generator is resumed. */
  protected abstract runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void>;
}

/** Errors already logged as an error event by the agent (or workflow node) that failed. */
const reported = new WeakSet<Error>();

/** Records that `error` has its error event (a workflow node's), so no agent above adds one. */
export function markReported(error: Error): void {
  reported.add(error);
}

export function isReported(error: Error): boolean {
  return reported.has(error);
}

/** The `errorCode` of an error event for `error`. */
export function errorCodeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  switch (error.name) {
    case 'ToolError':
      return 'TOOL_ERROR';
    case 'PluginError':
      return 'PLUGIN_ERROR';
    case 'LlmCallsLimitExceededError':
      return 'LLM_CALLS_LIMIT_EXCEEDED';
    case 'InvalidRequestError':
      return 'INVALID_REQUEST';
    default:
      return 'AGENT_ERROR';
  }
}
