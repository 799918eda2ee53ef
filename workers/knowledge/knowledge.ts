// Knowledge bases in the worker (issue 34): the Knowledge view's bases and documents, the jobs
// that read, index and embed them, and the searches of agents' knowledge tools. The library does
// the work (src/knowledge/knowledge-base.ts on src/store/knowledge-store.ts); this room runs it as
// the app needs:
// - adding files, pasted text, re-indexing and embedding are jobs (base-jobs.ts: one at a time
//   per base, across tabs; Stop; progress to every tab); documents done before a Stop stay;
// - a base is opened once and kept (its index is in memory); a change made by another tab's
//   worker (its `updatedAt` moved) reopens it before the next search.

import { InvalidRequestError, KnowledgeNotFoundError, messageOf } from '../../src/core/errors.ts';
import { KnowledgeBase } from '../../src/knowledge/knowledge-base.ts';
import type { KnowledgeStorage } from '../../src/knowledge/knowledge-storage.ts';
import {
  placeOf,
  type EmbeddingChoice,
  type Embedder,
  type KnowledgeHit,
} from '../../src/knowledge/types.ts';
import { KnowledgeTool } from '../../src/tools/knowledge-tool.ts';
import { IndexedDbKnowledgeStorage } from '../../src/store/knowledge-store.ts';
import type { SessionLocks } from '../runs/session-locks.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import { BaseJobs } from './base-jobs.ts';
import { chunkView, documentFile } from './knowledge-views.ts';
import {
  KNOWLEDGE_TEXT_CHARS,
  type KnowledgeApi,
  type KnowledgeBaseDraft,
  type KnowledgeBaseSummary,
  type KnowledgeChunkView,
  type KnowledgeFileInput,
  type KnowledgeSearchHit,
} from './knowledge-protocol.ts';

export interface KnowledgeDeps {
  storage: KnowledgeStorage;
  locks: SessionLocks;
  broadcast: (message: RuntimeBroadcast) => void;
  /** The embedder of a base's model choice (a provider's, with its key; or a local GGUF's). */
  embedder: (choice: EmbeddingChoice) => Promise<Embedder>;
}

export class AppKnowledge implements KnowledgeApi {
  private readonly opened = new Map<string, Promise<KnowledgeBase>>();
  private readonly jobs: BaseJobs;

  constructor(private readonly deps: KnowledgeDeps) {
    this.jobs = new BaseJobs(deps.locks, deps.broadcast);
  }

  /** Where its bases are kept: a backup reads and restores them through it. */
  get storage(): KnowledgeStorage {
    return this.deps.storage;
  }

  /** The app's room, on its database, its models from `providers`, searched by `users`. */
  static open(
    options: {
      dbName?: string;
      locks: SessionLocks;
      broadcast: (message: RuntimeBroadcast) => void;
    },
    providers: { embedder(choice: EmbeddingChoice): Promise<Embedder> },
    users: { useKnowledge(knowledge: AppKnowledge): void }[],
  ): AppKnowledge {
    const knowledge = new AppKnowledge({
      storage: new IndexedDbKnowledgeStorage(options.dbName ? { dbName: options.dbName } : {}),
      locks: options.locks,
      broadcast: options.broadcast,
      embedder: (choice) => providers.embedder(choice),
    });
    for (const user of users) user.useKnowledge(knowledge);
    return knowledge;
  }

  async list(): Promise<KnowledgeBaseSummary[]> {
    const infos = await this.deps.storage.bases();
    const summaries = await Promise.all(infos.map((info) => this.summary(info.id)));
    return summaries.sort((a, b) => a.name.localeCompare(b.name));
  }

  async create(draft: KnowledgeBaseDraft): Promise<KnowledgeBaseSummary> {
    const base = await KnowledgeBase.create(this.deps.storage, {
      name: draft.name,
      ...(draft.description !== undefined ? { description: draft.description } : {}),
      ...(draft.chunking ? { chunking: draft.chunking } : {}),
      ...(draft.embedding ? { embedding: draft.embedding } : {}),
    });
    this.opened.set(base.info().id, Promise.resolve(base));
    this.changed();
    return this.summary(base.info().id);
  }

  async update(baseId: string, draft: Partial<KnowledgeBaseDraft>): Promise<KnowledgeBaseSummary> {
    const base = await this.base(baseId);
    const before = base.info();
    await base.update(draft);
    const after = base.info();
    this.changed();
    if (JSON.stringify(before.chunking) !== JSON.stringify(after.chunking)) {
      await this.reindex(baseId);
    } else if (
      after.embedding &&
      JSON.stringify(before.embedding) !== JSON.stringify(after.embedding)
    ) {
      this.jobs.enqueue(baseId, async (signal) => {
        const embedder = await this.deps.embedder(after.embedding!);
        await base.embed(embedder, { signal, onProgress: (p) => this.jobs.step(baseId, p) });
      });
    }
    return this.summary(baseId);
  }

  async remove(baseId: string): Promise<void> {
    await this.stop(baseId);
    await this.jobs.idle(baseId);
    await (await this.base(baseId)).delete();
    this.opened.delete(baseId);
    this.changed();
  }

  async addFiles(baseId: string, files: KnowledgeFileInput[]): Promise<void> {
    if (files.length === 0) throw new InvalidRequestError('Choose at least one file to add');
    const base = await this.base(baseId);
    this.jobs.enqueue(baseId, async (signal) => {
      // A file that cannot be read is not added, and the others still are; the job then fails
      // naming each one and why.
      const failed: string[] = [];
      for (const [i, file] of files.entries()) {
        signal.throwIfAborted();
        const step = { document: file.name, done: i, total: files.length };
        this.jobs.progress(baseId, { baseId, phase: 'reading', ...step });
        try {
          await base.add(
            { name: file.name, type: file.type, bytes: new Uint8Array(file.bytes) },
            {
              signal,
              ...(await this.embedderOf(base)),
              onProgress: (p) => this.jobs.step(baseId, { ...p, ...step }),
            },
          );
        } catch (error) {
          if (signal.aborted) throw error;
          failed.push(`${file.name}: ${messageOf(error)}`);
        }
        this.changed();
      }
      if (failed.length > 0) throw new Error(failed.join('\n'));
    });
  }

  async addText(baseId: string, input: { name: string; text: string }): Promise<void> {
    const base = await this.base(baseId);
    if (!input.text.trim()) throw new InvalidRequestError('Paste some text to add');
    this.jobs.enqueue(baseId, async (signal) => {
      const name = input.name.trim() || 'Pasted text';
      this.jobs.progress(baseId, { baseId, phase: 'reading', document: name, done: 0, total: 1 });
      await base.add({ name, text: input.text }, { signal, ...(await this.embedderOf(base)) });
      this.changed();
    });
  }

  async stop(baseId: string): Promise<void> {
    this.jobs.stop(baseId);
  }

  async reindex(baseId: string): Promise<void> {
    const base = await this.base(baseId);
    this.jobs.enqueue(baseId, async (signal) => {
      await base.reindex({
        signal,
        ...(await this.embedderOf(base)),
        onProgress: (p) => this.jobs.step(baseId, p),
      });
      this.changed();
    });
  }

  async removeDocument(baseId: string, documentId: string): Promise<void> {
    const base = await this.base(baseId);
    await base.remove(documentId);
    this.changed();
  }

  async search(
    baseIds: string[],
    query: string,
    options: { limit?: number; mode?: 'fulltext' | 'vector' | 'hybrid' } = {},
  ): Promise<KnowledgeSearchHit[]> {
    const hits = await this.hits(baseIds, query, options);
    return hits.map(({ chunk, document, score }) => ({
      chunkId: chunk.id,
      documentId: chunk.documentId,
      document,
      place: placeOf(chunk),
      text: chunk.text.slice(0, KNOWLEDGE_TEXT_CHARS),
      score,
    }));
  }

  /** The search of agents' knowledge tools: the best chunks of `baseIds` for `query`. */
  async hits(
    baseIds: readonly string[],
    query: string,
    options: { limit?: number; mode?: 'fulltext' | 'vector' | 'hybrid'; signal?: AbortSignal } = {},
  ): Promise<KnowledgeHit[]> {
    if (baseIds.length === 0) throw new InvalidRequestError('Choose a knowledge base to search');
    const bases = await Promise.all(baseIds.map((id) => this.fresh(id)));
    const embedders = new Map<string, Embedder>();
    for (const base of bases) {
      const choice = base.info().embedding;
      if (choice) embedders.set(base.info().id, await this.deps.embedder(choice));
    }
    return KnowledgeBase.searchMany(bases, query, {
      limit: options.limit ?? 5,
      ...(options.mode ? { mode: options.mode } : {}),
      embedders,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * An agent's `search_knowledge` over `baseIds` (those that still exist; none left, it says so
   * when called), its description naming each base and what it holds.
   */
  async toolFor(baseIds: string[]): Promise<KnowledgeTool> {
    const infos = (await Promise.all(baseIds.map((id) => this.deps.storage.base(id)))).filter(
      (info) => info !== undefined,
    );
    // An agent that searches them is starting: their indexes build meanwhile (a big base's takes
    // seconds), so its first search rarely waits. A failure here is the search's to say.
    for (const info of infos) void this.prepare(info.id).catch(() => undefined);
    const named = infos.map((info) =>
      info.description ? `${info.name} (${info.description})` : info.name,
    );
    return new KnowledgeTool({
      description: `Searches the user's knowledge ${named.length === 1 ? 'base' : 'bases'} ${named.join('; ')} and returns the passages that best match the query.`,
      search: async (query, { limit, signal }) => {
        if (infos.length === 0)
          throw new KnowledgeNotFoundError(
            'The knowledge bases this agent searches were deleted: choose others in the agent builder',
          );
        return this.hits(
          infos.map((info) => info.id),
          query,
          { limit, ...(signal ? { signal } : {}) },
        );
      },
    });
  }

  /** Builds a base's index ahead of its first search (KnowledgeBase.prepare). */
  private async prepare(baseId: string): Promise<void> {
    const base = await this.fresh(baseId);
    await base.prepare((await this.embedderOf(base)).embedder);
  }

  /** The ids of `baseIds` that name no base. */
  async missing(baseIds: string[]): Promise<string[]> {
    const found = await Promise.all(baseIds.map((id) => this.deps.storage.base(id)));
    return baseIds.filter((_, i) => !found[i]);
  }

  open(chunkId: string): Promise<KnowledgeChunkView> {
    return chunkView(this.deps.storage, chunkId);
  }

  file(documentId: string): Promise<{ name: string; type: string; bytes: ArrayBuffer }> {
    return documentFile(this.deps.storage, documentId);
  }

  private async summary(baseId: string): Promise<KnowledgeBaseSummary> {
    const base = await this.base(baseId);
    const documents = await base.documents();
    const info = base.info();
    const progress = this.jobs.progressOf(baseId);
    const embedded = info.embedding
      ? await base.embeddedCount(`${info.embedding.providerId}/${info.embedding.model}`)
      : undefined;
    return {
      ...info,
      documents,
      chunks: documents.reduce((sum, doc) => sum + doc.chunkCount, 0),
      ...(embedded !== undefined ? { embedded } : {}),
      ...(progress ? { progress } : {}),
    };
  }

  private base(baseId: string): Promise<KnowledgeBase> {
    let base = this.opened.get(baseId);
    if (!base) {
      base = KnowledgeBase.open(this.deps.storage, baseId);
      this.opened.set(baseId, base);
      base.catch(() => this.opened.delete(baseId));
    }
    return base;
  }

  /** The base, its record read anew (another tab may have renamed it or chosen a model). */
  private async fresh(baseId: string): Promise<KnowledgeBase> {
    const stored = await this.deps.storage.base(baseId);
    if (!stored) {
      this.opened.delete(baseId);
      throw new KnowledgeNotFoundError(`Knowledge base ${baseId} no longer exists`);
    }
    const base = await this.base(baseId);
    if (stored.updatedAt === base.info().updatedAt) return base;
    this.opened.delete(baseId);
    return this.base(baseId);
  }

  private async embedderOf(base: KnowledgeBase): Promise<{ embedder?: Embedder }> {
    const choice = base.info().embedding;
    return choice ? { embedder: await this.deps.embedder(choice) } : {};
  }

  private changed(): void {
    this.deps.broadcast({ type: 'knowledge-changed' });
  }
}
