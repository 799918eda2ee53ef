// A Runner's plugins (ADK's PluginManager): runs their callbacks in order until one answers, and
// gives the agents their callback lists with the plugins' in front (base-agent.ts, llm-call.ts,
// function-calls.ts read them through `pluginsOf`).
//
// What must stay true:
// - a callback a plugin does not override is not called, and a run whose runner has no plugin
//   that overrides a kind pays nothing for that kind: the agents' own lists are used as they
//   are (`undefined` when they have none), so their hot paths stay as they were;
// - merged lists are made once per agent list and plugin set, not per call;
// - whatever a plugin throws fails the run as a PluginError naming the plugin and the callback.

import type { AgentCallbacks } from '../agents/agent-callbacks.ts';
import type { CallbackContext } from '../agents/callback-context.ts';
import type {
  ModelCallbacks,
  SingleAfterModelCallback,
  SingleAfterToolCallback,
  SingleAgentCallback,
  SingleBeforeModelCallback,
  SingleBeforeToolCallback,
  SingleOnModelErrorCallback,
  SingleOnToolErrorCallback,
  ToolCallbacks,
} from '../agents/callbacks.ts';
import type { ContextCompactionTrigger } from '../context/base-context-compactor.ts';
import type { Content } from '../core/content.ts';
import { InvalidRequestError, PluginError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext, InvocationPlugins } from '../runner/invocation-context.ts';
import type { NodeContext } from '../workflow/node-context.ts';
import type { GraphNode } from '../workflow/nodes.ts';
import { BasePlugin, type PluginCallbackName } from './base-plugin.ts';

const NONE: readonly never[] = Object.freeze([]);

export class PluginManager implements InvocationPlugins {
  private readonly plugins: BasePlugin[] = [];
  /** Callback name → the plugins that override it, in order. */
  private readonly overriding = new Map<PluginCallbackName, readonly BasePlugin[]>();
  private readonly merged = new WeakMap<object, object | undefined>();
  /** Keys the merged lists of an agent that has no callbacks of that kind. */
  private readonly noOwn = { agent: {}, model: {}, tool: {} };

  constructor(plugins: readonly BasePlugin[] = []) {
    for (const plugin of plugins) this.registerPlugin(plugin);
  }

  get hasPlugins(): boolean {
    return this.plugins.length > 0;
  }

  /** Adds a plugin after the others; a second plugin of the same name is refused, as in ADK. */
  registerPlugin(plugin: BasePlugin): void {
    if (!(plugin instanceof BasePlugin))
      throw new InvalidRequestError('A plugin must be an instance of a BasePlugin subclass');
    if (typeof plugin.name !== 'string' || !plugin.name)
      throw new InvalidRequestError('A plugin needs a name');
    if (this.getPlugin(plugin.name))
      throw new InvalidRequestError(`A plugin named '${plugin.name}' is already registered`);
    this.plugins.push(plugin);
    this.overriding.clear();
  }

  getPlugin(pluginName: string): BasePlugin | undefined {
    return this.plugins.find((plugin) => plugin.name === pluginName);
  }

  /** The plugins that override callback `name` (the others would only answer nothing). */
  private using(name: PluginCallbackName): readonly BasePlugin[] {
    let plugins = this.overriding.get(name);
    if (!plugins) {
      plugins = this.plugins.filter((plugin) => plugin[name] !== BasePlugin.prototype[name]);
      this.overriding.set(name, plugins.length > 0 ? plugins : NONE);
    }
    return plugins;
  }

  /**
   * Runs callback `name` of each plugin that has it until one returns a value (a promise only
   * once a plugin's callback returned one: see `firstAnswer`).
   */
  private first<T>(
    name: PluginCallbackName,
    params: object,
  ): T | undefined | Promise<T | undefined> {
    const plugins = this.using(name);
    for (let i = 0; i < plugins.length; i++) {
      const answer = guarded(plugins[i]!, name, params);
      if (answer instanceof Promise) return this.firstFrom<T>(plugins, i, answer, name, params);
      if (answer !== undefined) return answer as T;
    }
    return undefined;
  }

  private async firstFrom<T>(
    plugins: readonly BasePlugin[],
    at: number,
    pending: Promise<unknown>,
    name: PluginCallbackName,
    params: object,
  ): Promise<T | undefined> {
    let answer = await pending;
    for (let i = at + 1; answer === undefined; i++) {
      if (i >= plugins.length) return undefined;
      answer = await guarded(plugins[i]!, name, params);
    }
    return answer as T;
  }

  runOnUserMessageCallback(params: { invocationContext: InvocationContext; userMessage: Content }) {
    return this.first<Content>('onUserMessageCallback', params);
  }

  runBeforeRunCallback(params: { invocationContext: InvocationContext }) {
    return this.first<Content>('beforeRunCallback', params);
  }

  /** Whether any plugin looks at each event (the runner skips the call per event otherwise). */
  get watchesEvents(): boolean {
    return this.using('onEventCallback').length > 0;
  }

  runOnEventCallback(params: { invocationContext: InvocationContext; event: Event }) {
    return this.first<Event>('onEventCallback', params);
  }

  /** Every plugin's, in order (nothing to answer): a promise only once one returned one. */
  runAfterRunCallback(params: { invocationContext: InvocationContext }): Promise<void> | undefined {
    return this.every('afterRunCallback', params);
  }

  /** Every plugin's, in order, around a context compaction (`when`: before or after it). */
  async runContextCompactionCallback(
    when: 'before' | 'after',
    params: { invocationContext: InvocationContext; trigger: ContextCompactionTrigger },
  ): Promise<void> {
    const name = when === 'before' ? 'beforeContextCompaction' : 'afterContextCompaction';
    await this.every(name, params);
  }

  /** Callback `name` of every plugin that has it, in order, each awaited if it returns a promise. */
  private every(name: PluginCallbackName, params: object, from = 0): Promise<void> | undefined {
    const plugins = this.using(name);
    for (let i = from; i < plugins.length; i++) {
      const done = guarded(plugins[i]!, name, params);
      if (done instanceof Promise) return done.then(() => this.every(name, params, i + 1));
    }
    return undefined;
  }

  get watchesNodes(): boolean {
    return this.using('beforeNodeCallback').length + this.using('afterNodeCallback').length > 0;
  }

  runBeforeNodeCallback(params: { node: GraphNode; nodeContext: NodeContext; input: unknown }) {
    return this.first<unknown>('beforeNodeCallback', params);
  }

  runAfterNodeCallback(params: { node: GraphNode; nodeContext: NodeContext; output: unknown }) {
    return this.first<unknown>('afterNodeCallback', params);
  }

  /** An agent's before and after agent callbacks with the plugins' in front. */
  agentCallbacks(own: AgentCallbacks | undefined): AgentCallbacks | undefined {
    return this.mergedOnce(own ?? this.noOwn.agent, () => {
      const before = this.adapt('beforeAgentCallback', (context: CallbackContext) => ({
        agent: context.invocationContext.agent,
        callbackContext: context,
      })) as SingleAgentCallback[];
      const after = this.adapt('afterAgentCallback', (context: CallbackContext) => ({
        agent: context.invocationContext.agent,
        callbackContext: context,
      })) as SingleAgentCallback[];
      if (before.length + after.length === 0) return own;
      return {
        before: [...before, ...(own?.before ?? NONE)],
        after: [...after, ...(own?.after ?? NONE)],
      };
    }) as AgentCallbacks | undefined;
  }

  /** An LlmAgent's model callbacks with the plugins' in front. */
  modelCallbacks(own: ModelCallbacks | undefined): ModelCallbacks | undefined {
    return this.mergedOnce(own ?? this.noOwn.model, () => {
      const before = this.adapt('beforeModelCallback', ({ context, request }) => ({
        callbackContext: context,
        llmRequest: request,
      })) as SingleBeforeModelCallback[];
      const after = this.adapt('afterModelCallback', ({ context, response }) => ({
        callbackContext: context,
        llmResponse: response,
      })) as SingleAfterModelCallback[];
      const onError = this.adapt('onModelErrorCallback', ({ context, request, error }) => ({
        callbackContext: context,
        llmRequest: request,
        error,
      })) as SingleOnModelErrorCallback[];
      if (before.length + after.length + onError.length === 0) return own;
      return {
        before: [...before, ...(own?.before ?? NONE)],
        after: [...after, ...(own?.after ?? NONE)],
        onError: [...onError, ...(own?.onError ?? NONE)],
      };
    }) as ModelCallbacks | undefined;
  }

  /** An LlmAgent's tool callbacks with the plugins' in front. */
  toolCallbacks(own: ToolCallbacks | undefined): ToolCallbacks | undefined {
    return this.mergedOnce(own ?? this.noOwn.tool, () => {
      const before = this.adapt('beforeToolCallback', ({ tool, args, context }) => ({
        tool,
        toolArgs: args,
        toolContext: context,
      })) as SingleBeforeToolCallback[];
      const after = this.adapt('afterToolCallback', ({ tool, args, context, response }) => ({
        tool,
        toolArgs: args,
        toolContext: context,
        result: response,
      })) as SingleAfterToolCallback[];
      const onError = this.adapt('onToolErrorCallback', ({ tool, args, context, error }) => ({
        tool,
        toolArgs: args,
        toolContext: context,
        error,
      })) as SingleOnToolErrorCallback[];
      if (before.length + after.length + onError.length === 0) return own;
      return {
        before: [...before, ...(own?.before ?? NONE)],
        after: [...after, ...(own?.after ?? NONE)],
        onError: [...onError, ...(own?.onError ?? NONE)],
      };
    }) as ToolCallbacks | undefined;
  }

  private mergedOnce(key: object, make: () => object | undefined): object | undefined {
    if (!this.merged.has(key)) this.merged.set(key, make());
    return this.merged.get(key);
  }

  /** Each plugin that overrides `name`, as one callback of an agent's list of that kind. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private adapt<P = any>(
    name: PluginCallbackName,
    /** The plugin's parameters (ADK's names) from the agent callback's. */
    paramsOf: (params: P) => object,
  ): ((params: P) => unknown)[] {
    return this.using(name).map((plugin) => (params: P) => guarded(plugin, name, paramsOf(params)));
  }
}

/**
 * The plugin's callback, its failure wrapped as a PluginError. A callback that answers at once
 * (most do: they answer nothing) is not made to wait a promise's turn.
 */
function guarded(plugin: BasePlugin, name: PluginCallbackName, params: object): unknown {
  let answer: unknown;
  try {
    // Every plugin callback takes one object of parameters (ADK's).
    answer = (plugin[name] as (params: object) => unknown).call(plugin, params);
  } catch (error) {
    throw pluginError(plugin, name, error);
  }
  return answer instanceof Promise
    ? answer.catch((error: unknown) => {
        throw pluginError(plugin, name, error);
      })
    : answer;
}

function pluginError(plugin: BasePlugin, name: PluginCallbackName, error: unknown): PluginError {
  return error instanceof PluginError ? error : new PluginError(plugin.name, name, error);
}

/** The plugins of the run of `ctx`, or `undefined` when its runner has none. */
export function pluginsOf(ctx: InvocationContext): PluginManager | undefined {
  const plugins = ctx.pluginManager;
  return plugins instanceof PluginManager && plugins.hasPlugins ? plugins : undefined;
}
