// Local models (Settings → Providers → Add local model), in the worker: each GGUF file the user
// picked is copied once into the Origin Private File System (workers/local-models/opfs.ts), and
// loaded into wllama on an agent's first call (or Load in Settings). The loaded model is kept for
// the next calls (loading takes seconds), one per provider, until it is unloaded.
//
// What must stay true:
// - the file is written whole before the provider that points at it is saved (add, then save);
//   a copy that fails leaves no file behind;
// - one local model in memory at a time: loading one first unloads the others (each when its
//   reply in progress, if any, is done), as two models rarely fit in a tab's memory; a load that
//   fails for memory says so;
// - unloading waits for the model's reply in progress, then frees its memory; its next request
//   loads it again;
// - a model no request has used for `idleUnloadMs` (15 minutes unless told) is unloaded, so a
//   tab left open does not hold gigabytes for nothing; a request in progress keeps it, and each
//   one that ends starts the wait again;
// - wllama (and its 9 MB of WebAssembly) is imported only when a local model first runs, so
//   the worker's own chunk stays as small as before.

import { InvalidRequestError, ModelError, StorageFullError } from '../../src/core/errors.ts';
import { formatBytes } from '../../src/core/format.ts';
import { modelParts, partName, sizeProblem, splitPart } from '../../src/models/local/gguf-split.ts';
import { LocalGgufModel, type LocalChatEngine } from '../../src/models/local/local-gguf-model.ts';
import type { LoadedLocalModel, LocalModelBackend, LocalModelFile } from './backend.ts';
import { LocalDownloads, type DownloadProgress } from './download.ts';
import { modelsDirectory, opfsBackend } from './opfs.ts';
import type { LocalModelLoad, LocalModelStatus } from '../protocol.ts';
import type { ProviderRecord } from '../../src/store/app-store.ts';

export type { LoadedLocalModel, LocalModelBackend, LocalModelFile } from './backend.ts';

/** A GGUF file starts with these four bytes. */
const GGUF_MAGIC = 'GGUF';

interface Entry {
  record: ProviderRecord;
  model: LocalGgufModel;
  engine?: Promise<LoadedLocalModel>;
  status: LocalModelStatus;
  /** Requests running on its engine now. */
  running: number;
  /** Unloads it once it has been unused long enough. */
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** How long a loaded model may go unused before it is unloaded. */
export const IDLE_UNLOAD_MS = 15 * 60_000;

export interface LocalModelsOptions {
  /** Unused this long, a loaded model is unloaded; `Infinity`: never. */
  idleUnloadMs?: number;
}

export class LocalModels {
  private readonly entries = new Map<string, Entry>();
  /** The load in progress (or the last one): loads run one after the other. */
  private loading: Promise<unknown> = Promise.resolve();

  /** Add a local model by URL: downloads straight into OPFS (workers/local-models/download.ts). */
  readonly downloads = new LocalDownloads(modelsDirectory);

  private readonly idleUnloadMs: number;

  constructor(
    /** Also the knowledge bases' local embedders' (local-embedder.ts). */
    readonly backend: LocalModelBackend = opfsBackend,
    { idleUnloadMs = IDLE_UNLOAD_MS }: LocalModelsOptions = {},
  ) {
    this.idleUnloadMs = idleUnloadMs;
  }

  /**
   * Downloads `url` (or the rest of it) as the file of the provider `id`. The URL of the first
   * part of a split model (`…-00001-of-0000N.gguf`) downloads every part, one after the other.
   */
  async download(
    id: string,
    url: string,
    onProgress: (progress: DownloadProgress) => void,
  ): Promise<LocalModelFile> {
    const urls = partUrls(url);
    let done = 0;
    let tooLarge: number | undefined;
    for (const [i, partUrl] of urls.entries()) {
      const { size } = await this.downloads
        .download(
          id,
          partUrl,
          (progress) => {
            // Refused at once rather than after gigabytes: wllama could not load it.
            if (progress.total && sizeProblem({ name: partUrl, size: progress.total })) {
              tooLarge = progress.total;
              this.downloads.cancel(partUrl);
            }
            const single = urls.length === 1 && progress.total;
            onProgress({
              url,
              received: done + progress.received,
              ...(single ? { total: progress.total } : {}),
            });
          },
          urls.length === 1 ? `${id}.gguf` : partName(id, i + 1, urls.length),
        )
        .catch(async (error: unknown) => {
          if (tooLarge === undefined && i === 0) throw error;
          await this.backend.remove(id).catch(() => undefined);
          const problem =
            tooLarge !== undefined && sizeProblem({ name: lastSegment(partUrl), size: tooLarge });
          if (problem) throw new InvalidRequestError(problem);
          throw error;
        });
      done += size;
    }
    return { name: lastSegment(url), size: done };
  }

  /** Stops the download of `url` (every part of a split model), keeping what came. */
  cancelDownload(url: string): void {
    for (const partUrl of partUrls(url)) this.downloads.cancel(partUrl);
  }

  /**
   * Copies `files` in for the provider `id`: one model file, or all the parts of a split model,
   * after checking that each is GGUF and that wllama can load them.
   */
  async add(id: string, files: File | File[]): Promise<LocalModelFile> {
    const picked = Array.isArray(files) ? files : [files];
    const check = modelParts(picked);
    if ('problem' in check) throw new InvalidRequestError(check.problem);
    for (const file of check.parts) {
      const magic = new TextDecoder().decode(await file.slice(0, 4).arrayBuffer());
      if (magic !== GGUF_MAGIC)
        throw new InvalidRequestError(
          `${file.name} is not a GGUF model file (it does not start with "GGUF")`,
        );
    }
    try {
      for (const [i, file] of check.parts.entries())
        await this.backend.save(
          id,
          file,
          check.parts.length > 1 ? { no: i + 1, count: check.parts.length } : undefined,
        );
    } catch (error) {
      // Best effort: a half-written copy would only take room.
      await this.backend.remove(id).catch(() => undefined);
      if ((error as Error).name === 'QuotaExceededError')
        throw new StorageFullError({ cause: error });
      throw error;
    }
    const first = check.parts[0]!;
    const size = check.parts.reduce((sum, file) => sum + file.size, 0);
    return { name: first.name, size };
  }

  /** Unloads the provider's model and deletes its file. */
  async remove(id: string): Promise<void> {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    if (entry) await this.unloadEntry(entry, 'Deleted.');
    await this.backend.remove(id);
  }

  /** The provider's model: one per provider, so its calls queue on one engine. */
  model(record: ProviderRecord): LocalGgufModel {
    return this.entry(record).model;
  }

  /** Where the provider's model is: not loaded, loading (how far), or loaded (with its memory). */
  status(id: string): LocalModelStatus {
    return this.entries.get(id)?.status ?? { state: 'unloaded' };
  }

  /** The models loading now (one at most, as loads run one after the other). */
  loads(): LocalModelLoad[] {
    const loads: LocalModelLoad[] = [];
    for (const { record, status } of this.entries.values())
      if (status.state === 'loading') {
        const { read, total, since } = status;
        loads.push({ providerId: record.id, name: record.name, read, total, since });
      }
    return loads;
  }

  /** Settings → Load: loads the model now, rather than on an agent's first message. */
  async load(record: ProviderRecord): Promise<LocalModelStatus> {
    const entry = this.entry(record);
    await entry.model.preload();
    return entry.status;
  }

  /** Settings → Unload: frees the model's memory (after its reply in progress). */
  async unload(id: string): Promise<LocalModelStatus> {
    const entry = this.entries.get(id);
    if (entry) await this.unloadEntry(entry, 'Unloaded.');
    return this.status(id);
  }

  private entry(record: ProviderRecord): Entry {
    const kept = this.entries.get(record.id);
    if (kept) {
      const resized = kept.record.contextTokens !== record.contextTokens;
      kept.record = record;
      // Its context is allocated at load: a new size takes a new load (at its next request).
      if (resized && kept.engine)
        void this.unloadEntry(
          kept,
          'Unloaded: its context size changed; it loads again with the new one.',
        );
      return kept;
    }
    const entry: Entry = {
      record,
      status: { state: 'unloaded' },
      running: 0,
      model: new LocalGgufModel({
        model: record.defaultModel,
        engine: () => {
          entry.engine = this.loadEntry(entry);
          return entry.engine;
        },
      }),
    };
    this.entries.set(record.id, entry);
    return entry;
  }

  /** Loads one model at a time, so that two never wait for each other to unload. */
  private loadEntry(entry: Entry): Promise<LoadedLocalModel> {
    const load = this.loading.then(() => this.loadNow(entry));
    this.loading = load.catch(() => undefined);
    return load;
  }

  private async loadNow(entry: Entry): Promise<LoadedLocalModel> {
    // Loading from now on, while the others make room (each may first finish its reply).
    const since = Date.now();
    const total = entry.record.localFile?.size ?? 0;
    entry.status = { state: 'loading', read: 0, total, since };
    const others = [...this.entries.values()].filter((other) => other !== entry && other.engine);
    await Promise.all(
      others.map((other) =>
        this.unloadEntry(other, `Unloaded to make room for ${entry.record.name}.`),
      ),
    );
    const started = Date.now();
    try {
      const { contextTokens } = entry.record;
      const engine = await this.backend.load(
        entry.record.id,
        (read, size) => {
          if (entry.status.state === 'loading')
            entry.status = { ...entry.status, read: Math.min(read, size), total: size };
        },
        contextTokens !== undefined ? { contextTokens } : {},
      );
      entry.status = {
        state: 'loaded',
        since: Date.now(),
        loadSeconds: (Date.now() - started) / 1000,
        threads: engine.threads ?? 1,
        ...(engine.memory ? { memory: engine.memory } : {}),
        ...(engine.contextTokens
          ? {
              context: {
                tokens: engine.contextTokens,
                ...(engine.modelContextTokens ? { own: engine.modelContextTokens } : {}),
              },
            }
          : {}),
      };
      this.waitIdle(entry);
      return this.watched(entry, engine);
    } catch (error) {
      entry.engine = undefined;
      const failure = loadFailure(error, entry.record, others.length > 0);
      entry.status = { state: 'unloaded', note: failure.message };
      throw failure;
    }
  }

  /** The engine, counting its requests: none running starts the wait before an idle unload. */
  private watched(entry: Entry, engine: LoadedLocalModel): LoadedLocalModel {
    const createChatCompletion: LocalChatEngine['createChatCompletion'] = async (params) => {
      entry.running++;
      clearTimeout(entry.idleTimer);
      try {
        return await engine.createChatCompletion(params);
      } finally {
        if (--entry.running === 0) this.waitIdle(entry);
      }
    };
    return {
      createChatCompletion,
      exit: () => engine.exit(),
      ...(engine.memory ? { memory: engine.memory } : {}),
      ...(engine.threads ? { threads: engine.threads } : {}),
      ...(engine.contextTokens ? { contextTokens: engine.contextTokens } : {}),
    };
  }

  private waitIdle(entry: Entry): void {
    clearTimeout(entry.idleTimer);
    if (!Number.isFinite(this.idleUnloadMs)) return;
    const minutes = Math.round(this.idleUnloadMs / 60_000);
    const note =
      minutes >= 1
        ? `Unloaded after ${minutes} minute${minutes === 1 ? '' : 's'} unused.`
        : 'Unloaded while unused.';
    entry.idleTimer = setTimeout(() => void this.unloadEntry(entry, note), this.idleUnloadMs);
  }

  private async unloadEntry(entry: Entry, note: string): Promise<void> {
    clearTimeout(entry.idleTimer);
    const engine = await entry.model.unload();
    entry.engine = undefined;
    if (!engine) return;
    entry.status = { state: 'unloaded', note };
    // Dropping it frees the memory with its worker; a failing exit frees nothing more.
    await (engine as LoadedLocalModel).exit().catch(() => undefined);
  }
}

/**
 * A failed load in the user's words: out of memory says so (the usual cause for a large model
 * in a browser tab), naming the size; anything else keeps its message.
 */
export function loadFailure(
  error: unknown,
  record: Pick<ProviderRecord, 'name' | 'localFile'>,
  unloadedOthers: boolean,
): Error {
  const message = (error as Error | null)?.message ?? String(error);
  if ((error as Error | null)?.name === 'InvalidRequestError') return error as Error;
  if (/memory|alloc|out of bounds|RangeError/i.test(message))
    return new ModelError(
      `Not enough memory to load ${record.name} (${formatBytes(record.localFile?.size ?? 0)}, ` +
        `and its context on top)${unloadedOthers ? ', even with the other local models unloaded' : ''}. ` +
        `Close other tabs, or use a smaller model (a smaller quantisation or fewer parameters). (${message})`,
      'LOCAL_MODEL_MEMORY',
      { cause: error },
    );
  return new ModelError(`Could not load ${record.name}: ${message}`, 'LOCAL_MODEL_LOAD', {
    cause: error,
  });
}

/** The URLs of every part, when `url` is the first part of a split model; else just `url`. */
function partUrls(url: string): string[] {
  const path = url.split(/[?#]/)[0]!;
  const part = splitPart(path);
  if (!part || part.no !== 1 || part.count === 1) return [url];
  const rest = url.slice(path.length);
  return Array.from(
    { length: part.count },
    (_, i) => partName(part.base, i + 1, part.count) + rest,
  );
}

function lastSegment(url: string): string {
  const path = url.split(/[?#]/)[0]!;
  try {
    return decodeURIComponent(path.split('/').pop() ?? '').slice(0, 200) || 'model.gguf';
  } catch {
    return 'model.gguf';
  }
}
