// Embeddings from a local GGUF (a local-gguf provider's file, kept in OPFS), for knowledge bases:
// the file is loaded into a wllama of its own with embeddings on (engine.ts), apart from the
// chat's (local-models.ts), so embedding never unloads the model the user chats with.
//
// What must stay true:
// - loaded lazily, on the first texts to embed, once per provider; unloaded when unused for
//   `idleUnloadMs` (5 minutes unless told) or when asked (unload, the provider deleted), each
//   time after the call in progress;
// - calls run one at a time in the order they came, a text per wllama call; an abort rejects at
//   once with the AbortError (wllama cannot stop an embedding midway: that text's ends on its own
//   before the next call), and no further text of the call is embedded;
// - an answer is checked as the HTTP embedders' are (src/knowledge/embedders.ts): one vector per
//   text, in order, finite numbers, one dimension;
// - a text longer than the loaded context is cut (a chunk's start says most of what it is about)
//   rather than failing the document.

import { ModelError } from '../../src/core/errors.ts';
import { checkedVectors, inIndexOrder } from '../../src/knowledge/embedders.ts';
import type { Embedder } from '../../src/knowledge/types.ts';
import { abortable } from '../../src/models/local/local-gguf-model.ts';
import type { FailureContext } from '../../src/models/model-errors.ts';
import { badResponse } from '../../src/models/model-http.ts';
import type { ProviderSpec } from '../../src/models/provider-spec.ts';
import { abortErrorOf } from '../../src/models/retry.ts';
import type { LoadedLocalModel, LocalModelBackend } from './backend.ts';
import { loadFailure } from './local-models.ts';
import { opfsBackend } from './opfs.ts';

/** How long a loaded embedding model may go unused before it is unloaded. */
export const EMBEDDER_IDLE_UNLOAD_MS = 5 * 60_000;

/** Texts per wllama call: small, so that Stop waits for little. */
const LOCAL_BATCH = 16;

/**
 * Characters of a text per token of context, at most, before it is cut: English runs at about
 * four, so three leaves room; a text that is still too long is halved until it fits.
 */
const CHARS_PER_TOKEN = 3;
const HALVINGS = 4;

type LocalProvider = Pick<ProviderSpec, 'id' | 'name' | 'defaultModel' | 'localFile'>;

interface Entry {
  provider: LocalProvider;
  engine?: Promise<LoadedLocalModel>;
  /** The calls on its engine, one after the other (never rejects). */
  queue: Promise<unknown>;
  running: number;
  idleTimer?: ReturnType<typeof setTimeout>;
  dimensions?: number;
}

export class LocalEmbedders {
  private readonly entries = new Map<string, Entry>();
  private readonly idleUnloadMs: number;

  constructor(
    private readonly backend: LocalModelBackend = opfsBackend,
    { idleUnloadMs = EMBEDDER_IDLE_UNLOAD_MS }: { idleUnloadMs?: number } = {},
  ) {
    this.idleUnloadMs = idleUnloadMs;
  }

  /** The embedder of the local-gguf `provider`; `model` names its vectors (its file by default). */
  embedder(provider: LocalProvider, model = provider.defaultModel): Embedder {
    const entry = this.entry(provider);
    return {
      key: `${provider.id}/${model}`,
      batchSize: LOCAL_BATCH,
      embed: (texts, { signal } = {}) => this.embed(entry, texts, signal),
    };
  }

  /** Whether the provider's embedding model is in memory now. */
  isLoaded(id: string): boolean {
    return this.entries.get(id)?.engine !== undefined;
  }

  /** Frees the provider's embedding model (after its call in progress); the next texts load it. */
  async unload(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (entry) await this.unloadEntry(entry);
  }

  async unloadAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => this.unloadEntry(entry)));
  }

  private entry(provider: LocalProvider): Entry {
    const kept = this.entries.get(provider.id);
    if (kept) {
      kept.provider = provider;
      return kept;
    }
    const entry: Entry = { provider, queue: Promise.resolve(), running: 0 };
    this.entries.set(provider.id, entry);
    return entry;
  }

  private async embed(
    entry: Entry,
    texts: string[],
    signal: AbortSignal | undefined,
  ): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += LOCAL_BATCH) {
      if (signal?.aborted) throw abortErrorOf(signal);
      const part = texts.slice(start, start + LOCAL_BATCH);
      const answer = await abortable(
        this.turn(entry, signal, (engine) => this.call(entry, engine, part, signal)),
        signal,
      );
      vectors.push(...checkedVectors(answer, part.length, contextOf(entry), entry.dimensions));
      entry.dimensions ??= vectors[0]?.length;
    }
    return vectors;
  }

  /** Runs `work` on the loaded engine when the calls before it are done. */
  private turn<T>(
    entry: Entry,
    signal: AbortSignal | undefined,
    work: (engine: LoadedLocalModel) => Promise<T>,
  ): Promise<T> {
    const run = entry.queue.then(async () => {
      if (signal?.aborted) throw abortErrorOf(signal);
      entry.running++;
      clearTimeout(entry.idleTimer);
      try {
        return await work(await this.engine(entry));
      } finally {
        if (--entry.running === 0) this.waitIdle(entry);
      }
    });
    // Why ignore: the caller gets `run`'s own failure; the queue only orders the calls.
    entry.queue = run.catch(() => undefined);
    return run;
  }

  private engine(entry: Entry): Promise<LoadedLocalModel> {
    entry.engine ??= this.backend
      .load(entry.provider.id, undefined, { embeddings: true })
      .catch((error: unknown) => {
        entry.engine = undefined;
        throw loadFailure(error, entry.provider, false);
      });
    return entry.engine;
  }

  /**
   * The vectors of `texts` (unchecked), one wllama call each: wllama 3.8 answers an array of
   * inputs with one vector only, and its worker then hangs on the next call. Stop is checked
   * between the texts.
   */
  private async call(
    entry: Entry,
    engine: LoadedLocalModel,
    texts: string[],
    signal: AbortSignal | undefined,
  ): Promise<unknown[]> {
    const vectors: unknown[] = [];
    for (const text of texts) {
      if (signal?.aborted) throw abortErrorOf(signal);
      vectors.push(await this.embedOne(entry, engine, text));
    }
    return vectors;
  }

  /** The vector of `text`, cut to fit the context. */
  private async embedOne(entry: Entry, engine: LoadedLocalModel, text: string): Promise<unknown> {
    const { name } = entry.provider;
    if (!engine.createEmbedding)
      throw new ModelError(`${name} cannot make embeddings here`, 'LOCAL_MODEL_EMBED');
    let input = text.slice(0, (engine.contextTokens ?? 512) * CHARS_PER_TOKEN);
    for (let halving = 0; ; halving++) {
      try {
        const answer = await engine.createEmbedding({ input });
        const [vector, ...more] = inIndexOrder(answer.data, 1, contextOf(entry));
        if (more.length > 0)
          throw badResponse(contextOf(entry), `${more.length + 1} vectors for a text`);
        return vector;
      } catch (error) {
        const message = (error as Error | null)?.message ?? String(error);
        if ((error as Error | null)?.name === 'ModelError') throw error;
        // llama.cpp: "input is too large to process" / "input is larger than the max context".
        if (halving < HALVINGS && /too large|larger than/i.test(message)) {
          input = input.slice(0, Math.ceil(input.length / 2));
          continue;
        }
        throw new ModelError(`${name} could not embed the texts: ${message}`, 'LOCAL_MODEL_EMBED', {
          cause: error,
        });
      }
    }
  }

  private waitIdle(entry: Entry): void {
    clearTimeout(entry.idleTimer);
    if (!Number.isFinite(this.idleUnloadMs)) return;
    entry.idleTimer = setTimeout(() => void this.unloadEntry(entry), this.idleUnloadMs);
  }

  private async unloadEntry(entry: Entry): Promise<void> {
    clearTimeout(entry.idleTimer);
    await entry.queue;
    const engine = entry.engine;
    entry.engine = undefined;
    entry.dimensions = undefined;
    // Why ignore: a model that failed to load, or fails to exit, has nothing more to free.
    const loaded = await engine?.catch(() => undefined);
    await loaded?.exit().catch(() => undefined);
  }
}

function contextOf(entry: Entry): FailureContext {
  return { provider: entry.provider.name, hasKey: false, secrets: [] };
}
