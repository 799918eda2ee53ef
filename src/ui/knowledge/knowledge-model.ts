// The Knowledge view's model: the bases and their documents, the base whose page is open, each
// base's job as the worker's `knowledge-progress` broadcasts tell it, and "Try a search". Every
// change goes through the worker's knowledge room (`api.knowledge`, workers/knowledge/).
//
// Invariants: - the list follows every tab's changes (`knowledge-changed`, read once per burst);
// - a failed action says why (`error`) and leaves the list as the worker has it;
// - only the answer to the latest search is shown (a late answer to an earlier one is dropped);
// - a page open on a base another tab deleted closes.

import type {
  KnowledgeApi,
  KnowledgeBaseDraft,
  KnowledgeBaseSummary,
  KnowledgeChunkView,
  KnowledgeProgress,
  KnowledgeSearchHit,
  ProviderInfo,
  RuntimeBroadcast,
} from '../../../workers/protocol.ts';
import { ViewState } from '../workbench/view-state.ts';
import { running, sortFiles } from './knowledge-format.ts';

/** What the model needs of the page's client (RuntimeClient has it). */
export interface KnowledgeClient {
  runtime: { knowledge: KnowledgeApi; listProviders: () => Promise<ProviderInfo[]> };
  onBroadcast: (listener: (message: RuntimeBroadcast) => void) => () => void;
}

export interface KnowledgeSearchState {
  baseId: string;
  query: string;
  hits: KnowledgeSearchHit[] | undefined;
  searching: boolean;
  error: string | undefined;
}

export interface KnowledgeState {
  bases: KnowledgeBaseSummary[];
  /** For the embedding model's choice, and to name a base's. */
  providers: ProviderInfo[];
  /** The base whose page is shown (absent: the list). */
  openId: string | undefined;
  /** The latest word of each base's job, from the broadcasts. */
  progress: Readonly<Record<string, KnowledgeProgress>>;
  search: KnowledgeSearchState | undefined;
  loaded: boolean;
  busy: boolean;
  status: string | undefined;
  error: string | undefined;
}

export class KnowledgeModel extends ViewState<KnowledgeState> {
  private unsubscribe: (() => void) | undefined;
  private readTimer: ReturnType<typeof setTimeout> | undefined;
  private searches = 0;

  constructor(private readonly client: KnowledgeClient) {
    super({
      bases: [],
      providers: [],
      openId: undefined,
      progress: {},
      search: undefined,
      loaded: false,
      busy: false,
      status: undefined,
      error: undefined,
    });
  }

  private get api(): KnowledgeApi {
    return this.client.runtime.knowledge;
  }

  /** Reads the bases and follows every tab's changes until `stop`. */
  async start(): Promise<void> {
    this.unsubscribe ??= this.client.onBroadcast((message) => this.onBroadcast(message));
    await this.guard(() => this.read());
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.readTimer);
    this.readTimer = undefined;
  }

  /** The base open, as last read. */
  get open(): KnowledgeBaseSummary | undefined {
    return this.state.bases.find((base) => base.id === this.state.openId);
  }

  /** A base's job now: the latest broadcast, else what the list said. */
  progressOf(base: KnowledgeBaseSummary): KnowledgeProgress | undefined {
    return this.state.progress[base.id] ?? base.progress;
  }

  openBase(baseId: string | undefined): void {
    this.set({ openId: baseId, status: undefined, error: undefined, search: undefined });
  }

  /** Makes a base and opens its page; false when the worker refused it (the error says why). */
  async create(draft: KnowledgeBaseDraft): Promise<boolean> {
    return this.guard(async () => {
      const base = await this.api.create(draft);
      await this.read();
      this.set({ openId: base.id, status: `Made “${base.name}”. Add documents to it.` });
    });
  }

  async update(baseId: string, draft: Partial<KnowledgeBaseDraft>): Promise<boolean> {
    return this.guard(async () => {
      const base = await this.api.update(baseId, draft);
      await this.read();
      this.set({ status: `Saved “${base.name}”.` });
    });
  }

  async remove(base: KnowledgeBaseSummary): Promise<boolean> {
    return this.guard(async () => {
      await this.api.remove(base.id);
      await this.read();
      this.set({ openId: undefined, status: `Deleted “${base.name}”.` });
    });
  }

  /** Adds the files the worker can read; says which it left out. */
  async addFiles(baseId: string, files: readonly File[]): Promise<boolean> {
    const { taken, refused } = sortFiles(files);
    if (taken.length === 0) {
      this.set({ error: refused ?? 'Choose a file to add.', status: undefined });
      return false;
    }
    return this.guard(async () => {
      const inputs = await Promise.all(
        taken.map(async (file) => ({
          name: file.name,
          type: file.type,
          bytes: await file.arrayBuffer(),
        })),
      );
      await this.api.addFiles(baseId, inputs);
      this.set({
        status: `Adding ${taken.length === 1 ? `“${taken[0]!.name}”` : `${taken.length} files`}…`,
        ...(refused ? { error: refused } : {}),
      });
    });
  }

  async addText(baseId: string, name: string, text: string): Promise<boolean> {
    if (!name.trim() || !text.trim()) {
      this.set({ error: 'Give the pasted text a name, and some text.', status: undefined });
      return false;
    }
    return this.guard(async () => {
      await this.api.addText(baseId, { name: name.trim(), text });
      this.set({ status: `Adding “${name.trim()}”…` });
    });
  }

  async stopJob(baseId: string): Promise<boolean> {
    return this.guard(() => this.api.stop(baseId));
  }

  async reindex(baseId: string): Promise<boolean> {
    return this.guard(async () => {
      await this.api.reindex(baseId);
      this.set({ status: 'Re-indexing…' });
    });
  }

  async removeDocument(baseId: string, documentId: string, name: string): Promise<boolean> {
    return this.guard(async () => {
      await this.api.removeDocument(baseId, documentId);
      await this.read();
      this.set({ status: `Removed “${name}”.` });
    });
  }

  /** "Try a search" in one base: the hits of the latest query. */
  async search(baseId: string, query: string): Promise<void> {
    const asked = ++this.searches;
    if (!query.trim()) {
      this.set({ search: { baseId, query, hits: undefined, searching: false, error: undefined } });
      return;
    }
    this.set({ search: { baseId, query, hits: undefined, searching: true, error: undefined } });
    let hits: KnowledgeSearchHit[] | undefined;
    let error: string | undefined;
    try {
      hits = await this.api.search([baseId], query.trim(), { limit: 8 });
    } catch (caught) {
      error = messageOf(caught);
    }
    if (asked !== this.searches) return;
    this.set({ search: { baseId, query, hits, searching: false, error } });
  }

  /** A chunk in its document, for the viewer. */
  openChunk(chunkId: string): Promise<KnowledgeChunkView> {
    return this.api.open(chunkId);
  }

  private onBroadcast(message: RuntimeBroadcast): void {
    if (message.type === 'knowledge-progress') {
      const { progress } = message;
      this.set({ progress: { ...this.state.progress, [progress.baseId]: progress } });
      // A job's end changed the documents: read them (the changed broadcast may come first).
      // Its "Adding…" is over: the progress now says how it ended.
      if (!running(progress)) {
        if (this.state.status?.endsWith('…')) this.set({ status: undefined });
        this.readSoon();
      }
      return;
    }
    if (message.type === 'knowledge-changed' || message.type === 'providers-changed')
      this.readSoon();
  }

  /** One read for a burst of changes (a job adds its documents one after another). */
  private readSoon(): void {
    this.readTimer ??= setTimeout(() => {
      this.readTimer = undefined;
      void this.guard(() => this.read(), 'quietly');
    }, 150);
  }

  private async read(): Promise<void> {
    const [bases, providers] = await Promise.all([
      this.api.list(),
      this.client.runtime.listProviders(),
    ]);
    const openId = bases.some((base) => base.id === this.state.openId)
      ? this.state.openId
      : undefined;
    this.set({ bases, providers, openId, loaded: true });
  }

  /**
   * Runs a user's action: the buttons wait for it, and it says what went wrong. `quietly` (a
   * read another tab's change asked for) leaves the buttons and what was said as they are.
   */
  private async guard(action: () => Promise<void>, quietly?: 'quietly'): Promise<boolean> {
    if (!quietly) this.set({ busy: true, error: undefined, status: undefined });
    try {
      await action();
      return true;
    } catch (error) {
      this.set({ error: messageOf(error) });
      return false;
    } finally {
      if (!quietly) this.set({ busy: false });
    }
  }
}

export function messageOf(error: unknown): string {
  return (error as Error | null)?.message ?? String(error);
}
