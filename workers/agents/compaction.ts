// Context compaction on by default for the agent builder's agents: an agent whose model's window
// the app knows (models/context-windows.ts) gets ADK's TokenBasedContextCompactor, which, before a
// model call, summarises the earlier events of a chat whose context passed 75% of what a prompt
// may hold (compactionThreshold), with the agent's own model as the summariser. The agent's
// "Compact long chats" switch (`compactLongChats: false`) turns it off. A flow's model nodes
// get the same on their models (`flowCompactors`); a flow has no switch.
//
// What must stay true:
// - an unknown window compacts nothing (a made-up one could summarise what the model could read);
// - the window is read at each model call, not when the agent is built: a local model's is
//   known only once it loaded, and a load with another context changes it;
// - compaction never loses anything: the compaction is one more event in the log, and a rewind
//   to before its turn gives the model the whole conversation again (core/compaction.ts).

import {
  LlmSummarizer,
  TokenBasedContextCompactor,
  type BaseContextCompactor,
  type BaseLlm,
  type Event,
  type InvocationContext,
} from '../../src/index.ts';
import {
  compactionThreshold,
  contextWindowOf,
  type ContextWindow,
} from '../../src/models/context-windows.ts';
import type { AgentSpec } from '../../src/agents/agent-spec.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type { AppProviders, OpenedProvider } from '../providers.ts';

/** Events kept as they are after a compaction: the last exchanges (a call with its response). */
export const KEPT_EVENTS = 4;

/** What the context meter needs of a session's agent (agentContextOf). */
export interface AgentContext {
  /** The root agent's name: its events are the model's own, others' are context. */
  agentName: string;
  window: ContextWindow | undefined;
  /** Whether it compacts a long chat (its window known, and not switched off). */
  compacts: boolean;
}

type WindowProvider = Pick<
  OpenedProvider,
  'id' | 'kind' | 'baseUrl' | 'contextTokens' | 'defaultModel'
>;

/**
 * The window of `model` (empty: the provider's default) on `provider` as the app knows it now (a
 * local model's once it is loaded in this tab); undefined when unknown.
 */
export function agentWindow(
  providers: Pick<AppProviders, 'localStatus'>,
  provider: WindowProvider,
  model: string,
): ContextWindow | undefined {
  const status = provider.kind === 'local-gguf' ? providers.localStatus(provider.id) : undefined;
  const loaded = status?.state === 'loaded' ? status.context?.tokens : undefined;
  return contextWindowOf(provider, model.trim() || provider.defaultModel, loaded);
}

/**
 * The builder's agent `specId` as the context meter needs it: its name, its model's window and
 * whether it compacts; a deleted agent or provider: undefined.
 */
export async function agentContextOf(
  store: Pick<IndexedDbAppStore, 'getAgentSpec' | 'getProvider'>,
  providers: Pick<AppProviders, 'localStatus'>,
  specId: string,
): Promise<AgentContext | undefined> {
  const spec = await store.getAgentSpec(specId);
  const provider = spec && (await store.getProvider(spec.providerId));
  if (!spec || !provider) return undefined;
  const window = agentWindow(providers, provider, spec.model);
  return { agentName: spec.name, window, compacts: spec.compactLongChats !== false && !!window };
}

/**
 * The compactors of a spec's LlmAgent: the default one unless the spec turned it off. It judges
 * by the window known at each call, so it stays quiet while that is unknown.
 */
export function defaultCompactors(
  spec: Pick<AgentSpec, 'compactLongChats'>,
  model: BaseLlm,
  window: () => ContextWindow | undefined,
): BaseContextCompactor[] {
  if (spec.compactLongChats === false) return [];
  return [new WindowCompactor(window, model)];
}

/**
 * The compactors of a flow's model node on `model` (one of AppProviders.flowModels'): the
 * default one, on that model's window; none for a model the providers did not build (the demo).
 */
export function flowCompactors(
  providers: Pick<AppProviders, 'localStatus' | 'flowModelSource'>,
): (model: BaseLlm) => BaseContextCompactor[] {
  return (model) => {
    const source = providers.flowModelSource(model);
    if (!source) return [];
    return defaultCompactors({}, model, () =>
      agentWindow(providers, source.provider, source.model),
    );
  };
}

/**
 * ADK's TokenBasedContextCompactor at the threshold of the window known now (one made per
 * threshold, so a window that changes — a local model loaded again — takes effect at once).
 */
export class WindowCompactor implements BaseContextCompactor {
  private made: { threshold: number; compactor: TokenBasedContextCompactor } | undefined;
  private readonly summarizer: LlmSummarizer;

  constructor(
    private readonly window: () => ContextWindow | undefined,
    model: BaseLlm,
  ) {
    this.summarizer = new LlmSummarizer({ llm: model });
  }

  /** The compactor at the window known now; none while it is unknown. */
  current(): TokenBasedContextCompactor | undefined {
    const window = this.window();
    if (!window) return undefined;
    const threshold = compactionThreshold(window);
    if (this.made?.threshold !== threshold) {
      const compactor = new TokenBasedContextCompactor({
        tokenThreshold: threshold,
        eventRetentionSize: KEPT_EVENTS,
        summarizer: this.summarizer,
      });
      this.made = { threshold, compactor };
    }
    return this.made.compactor;
  }

  shouldCompact(ctx: InvocationContext): boolean | Promise<boolean> {
    return this.current()?.shouldCompact(ctx) ?? false;
  }

  compact(ctx: InvocationContext): Event | undefined | Promise<Event | undefined> {
    return this.current()?.compact(ctx);
  }
}
