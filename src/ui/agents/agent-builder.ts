// The agent builder's view model: the saved agents, the form of one, the models of its provider,
// Save / Delete / Export / Import. The worker checks and stores everything.
//
// Invariants: - only the model list of the provider chosen last is shown (a late answer for another
// is dropped);
// - a refused save shows the worker's problems and keeps the form as typed;
// - the lists follow other tabs through the `agents-changed` and `providers-changed` broadcasts.

import { ViewState } from '../workbench/view-state.ts';
import type {
  AgentSpecInfo,
  BuiltinToolInfo,
  ConnectionTest,
  KnowledgeBaseInfo,
  ProviderInfo,
  RuntimeBroadcast,
  ToolServerInfo,
} from '../../../workers/protocol.ts';
import { shownName } from '../../agents/agent-name.ts';
import {
  draftOf,
  emptyDraft,
  sameDraft,
  withDisplayName,
  type AgentDraft,
} from './agent-builder-model.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';

export interface AgentBuilderState {
  specs: AgentSpecInfo[];
  providers: ProviderInfo[];
  tools: BuiltinToolInfo[];
  /** Settings → Tool servers: an agent may use their tools. */
  toolServers: ToolServerInfo[];
  /** Settings → Knowledge: an agent may search them. */
  knowledgeBases: KnowledgeBaseInfo[];
  draft: AgentDraft;
  /** The draft as last opened or saved: the form is dirty when `draft` differs. */
  savedDraft: AgentDraft | undefined;
  /** The models of the draft's provider, when they could be listed. */
  models: string[];
  modelsError: string | undefined;
  problems: string[];
  saving: boolean;
  status: string | undefined;
  error: string | undefined;
  /** The agents and providers have been read once: the form can be filled in. */
  loaded: boolean;
}

const INITIAL: AgentBuilderState = {
  specs: [],
  providers: [],
  tools: [],
  toolServers: [],
  knowledgeBases: [],
  draft: emptyDraft([]),
  savedDraft: undefined,
  models: [],
  modelsError: undefined,
  problems: [],
  saving: false,
  status: undefined,
  error: undefined,
  loaded: false,
};

export class AgentBuilder extends ViewState<AgentBuilderState> {
  private modelRequests = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>) {
    super(INITIAL);
  }

  get dirty(): boolean {
    const { draft, savedDraft } = this.state;
    return !savedDraft || !sameDraft(draft, savedDraft);
  }

  /** Loads the lists; opens the first agent, or a new one, unless one is open. */
  async start(): Promise<void> {
    this.unsubscribe ??= this.client.onBroadcast((message: RuntimeBroadcast) => {
      const { type } = message;
      if (type === 'agents-changed' || type === 'providers-changed' || type === 'knowledge-changed')
        void this.refresh();
    });
    await this.refresh();
    const { specs, savedDraft } = this.state;
    // The form shows only from the first opening on, and only that one picks what it shows:
    // what the user types is never replaced by an opening.
    if (!savedDraft && !this.state.loaded) {
      if (specs[0]) this.select(specs[0].id);
      else this.newAgent();
    }
    this.set({ loaded: true });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  async refresh(): Promise<void> {
    await this.guard(async () => {
      const { runtime } = this.client;
      const [specs, providers, tools, toolServers, knowledgeBases] = await Promise.all([
        runtime.listAgentSpecs(),
        runtime.listProviders(),
        this.state.tools.length > 0 ? this.state.tools : runtime.listBuiltinTools(),
        runtime.listToolServers?.() ?? [],
        runtime.knowledge?.list() ?? [],
      ]);
      this.set({ specs, providers, tools, toolServers, knowledgeBases });
    });
  }

  select(id: string): void {
    const spec = this.state.specs.find((item) => item.id === id);
    if (spec) this.load(draftOf(spec));
  }

  newAgent(): void {
    const { providers, specs } = this.state;
    const draft = emptyDraft(
      providers,
      specs.map((spec) => spec.name),
    );
    this.load(draft, false);
  }

  /** Renames the agent (a new one's identifier follows: see withDisplayName). */
  rename(displayName: string): void {
    const { draft, specs } = this.state;
    const taken = specs.filter((spec) => spec.id !== draft.id).map((spec) => spec.name);
    this.change(withDisplayName(draft, displayName, taken));
  }

  change(patch: Partial<AgentDraft>): void {
    const draft = { ...this.state.draft, ...patch };
    this.set({ draft, status: undefined });
    if (patch.providerId !== undefined) void this.loadModels(draft.providerId);
  }

  async save(): Promise<void> {
    if (this.state.saving) return;
    const { draft } = this.state;
    this.set({ saving: true, status: undefined, error: undefined, problems: [] });
    const result = await this.guard(() => this.client.runtime.saveAgentSpec(draft));
    this.set({ saving: false });
    if (!result) return;
    if (!result.saved) {
      this.set({ problems: result.problems, status: 'Not saved: fix the problems first.' });
      return;
    }
    const saved = result.saved;
    await this.refresh();
    this.set({
      draft: draftOf(saved),
      savedDraft: draftOf(saved),
      status: `Saved “${shownName(saved)}”. It is in the Agent select, under Your agents.`,
    });
  }

  async remove(id: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deleteAgentSpec(id);
      await this.refresh();
      if (this.state.draft.id === id) this.newAgent();
      this.set({ status: 'Deleted. Sessions that used it are kept.' });
    });
  }

  /** The agent file to download. */
  exportFile(id: string): Promise<{ filename: string; json: string } | undefined> {
    return this.guard(() => this.client.runtime.exportAgentSpec(id));
  }

  async importFile(json: string): Promise<void> {
    this.set({ status: undefined, error: undefined });
    const result = await this.guard(() => this.client.runtime.importAgentSpec(json));
    if (!result) return;
    await this.refresh();
    const [first] = result.imported;
    if (first) this.select(first.id);
    const added = result.addedProviders.length
      ? ` Added the provider ${result.addedProviders.join(', ')} without a key: add one in Settings → Providers if it needs it.`
      : '';
    this.set({ status: `Imported ${result.imported.map(shownName).join(', ')}.${added}` });
  }

  private load(draft: AgentDraft, saved = true): void {
    this.set({
      draft,
      savedDraft: saved ? draft : undefined,
      problems: [],
      status: undefined,
      error: undefined,
    });
    void this.loadModels(draft.providerId);
  }

  /** The models of a provider, for the model field (quietly empty when it cannot be reached). */
  private async loadModels(providerId: string): Promise<void> {
    const ticket = ++this.modelRequests;
    this.set({ models: [], modelsError: undefined });
    if (!providerId) return;
    const test = await this.guard<ConnectionTest>(() =>
      this.client.runtime.providerModels(providerId),
    );
    if (ticket !== this.modelRequests || !test) return;
    this.set(test.ok ? { models: test.models } : { modelsError: test.message });
  }

  private async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      this.set({ error: (error as Error | null)?.message ?? String(error) });
      return undefined;
    }
  }
}
