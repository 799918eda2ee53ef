// Settings → Providers, the view model: the providers, the form of one, Test connection, Save and
// Delete. The worker stores everything; the page holds a typed key only until it is sent, and
// never gets one back (providers come masked).
//
// Invariants:
// - only the answer to the latest test is shown (an older one arriving late is dropped);
// - the typed key is cleared once saved;
// - the list follows other tabs through the `providers-changed` broadcast.

import { formatBytes } from '../../core/format.ts';
import { ViewState } from '../workbench/view-state.ts';
import type { ConnectionTest, ProviderInfo, RuntimeBroadcast } from '../../../workers/protocol.ts';
import {
  draftFromPreset,
  draftFromProvider,
  inputOf,
  withKind,
  type ProviderDraft,
} from './providers-model.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';

export interface ProvidersState {
  providers: ProviderInfo[];
  /** The form; undefined when no provider is open. */
  draft: ProviderDraft | undefined;
  testing: boolean;
  test: ConnectionTest | undefined;
  /** The models of the last successful test, to pick the default model from. */
  models: string[];
  saving: boolean;
  status: string | undefined;
  error: string | undefined;
}

const INITIAL: ProvidersState = {
  providers: [],
  draft: undefined,
  testing: false,
  test: undefined,
  models: [],
  saving: false,
  status: undefined,
  error: undefined,
};

export class ProvidersEditor extends ViewState<ProvidersState> {
  private tests = 0;
  private unsubscribe: (() => void) | undefined;

  // Public for the lazy Add-by-URL form (LocalDownload.tsx), which keeps its own state.
  constructor(readonly client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>) {
    super(INITIAL);
  }

  /** Loads the list and opens the first provider, if none is open. */
  async start(): Promise<void> {
    this.unsubscribe ??= this.client.onBroadcast((message: RuntimeBroadcast) => {
      if (message.type === 'providers-changed') void this.refresh();
    });
    await this.refresh();
    const first = this.state.providers[0];
    if (!this.state.draft && first) this.open(first.id);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  async refresh(): Promise<void> {
    await this.guard(async () =>
      this.set({ providers: await this.client.runtime.listProviders() }),
    );
  }

  open(id: string): void {
    const provider = this.state.providers.find((item) => item.id === id);
    if (provider) this.load(draftFromProvider(provider));
  }

  /** A new provider from a preset ('Gemini', 'Ollama', …, or anything else for a custom one). */
  add(preset: string): void {
    this.load(
      draftFromPreset(
        preset,
        this.state.providers.map((p) => p.name),
      ),
    );
  }

  /**
   * Add local model: the worker copies the file into the browser's storage (which takes a while
   * for gigabytes) and saves a provider for it, which the form then opens. Several files are the
   * parts of one split model.
   */
  async addLocalModel(files: File | File[]): Promise<void> {
    const picked = Array.isArray(files) ? files : [files];
    const size = picked.reduce((sum, file) => sum + file.size, 0);
    const what = picked.length === 1 ? picked[0]!.name : `${picked.length} parts`;
    this.set({
      saving: true,
      status: `Copying ${what} (${formatBytes(size)}) into this browser…`,
      error: undefined,
    });
    const added = await this.guard(() => this.client.runtime.addLocalModel(files));
    this.set({ saving: false, status: undefined });
    if (!added) return;
    await this.refresh();
    this.load(draftFromProvider(added));
    this.set({ status: `Added “${added.name}” (${formatBytes(size)}).` });
  }

  change(patch: Partial<ProviderDraft>): void {
    const draft = this.state.draft;
    if (!draft) return;
    const kind = patch.kind && patch.kind !== draft.kind ? patch.kind : undefined;
    const next = { ...draft, ...patch };
    this.set({
      draft: kind ? withKind({ ...next, kind: draft.kind }, kind) : next,
      status: undefined,
    });
  }

  /** Lists the provider's models with the form as it stands (saved or not). */
  async testConnection(): Promise<void> {
    const draft = this.state.draft;
    if (!draft) return;
    const ticket = ++this.tests;
    this.set({ testing: true, test: undefined, error: undefined });
    const test = await this.guard<ConnectionTest>(() =>
      this.client.runtime.testProvider(inputOf(draft)),
    );
    if (ticket !== this.tests) return;
    this.set({ testing: false, ...(test ? { test } : {}) });
    if (test?.ok) this.set({ models: test.models });
  }

  async save(): Promise<void> {
    const draft = this.state.draft;
    if (!draft || this.state.saving) return;
    this.set({ saving: true, status: undefined, error: undefined });
    const saved = await this.guard(() => this.client.runtime.saveProvider(inputOf(draft)));
    this.set({ saving: false });
    if (!saved) return;
    await this.refresh();
    this.set({
      draft: { ...draftFromProvider(saved), ...(draft.hint ? { hint: draft.hint } : {}) },
      status: `Saved “${saved.name}”.`,
    });
  }

  async remove(id: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deleteProvider(id);
      await this.refresh();
      if (this.state.draft?.id === id) this.set({ draft: undefined, test: undefined, models: [] });
      this.set({ status: 'Deleted.' });
    });
  }

  private load(draft: ProviderDraft): void {
    this.tests++; // a test in flight was about another form
    this.set({
      draft,
      test: undefined,
      testing: false,
      models: [],
      status: undefined,
      error: undefined,
    });
  }

  private async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      this.set({
        error: (error as Error | null)?.message ?? String(error),
        testing: false,
        saving: false,
      });
      return undefined;
    }
  }
}
