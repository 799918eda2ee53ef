// Local models (Settings → Providers → Add local model), in the worker: each GGUF file the user
// picked is copied once into the Origin Private File System, under models/<provider id>.gguf,
// and loaded into wllama on an agent's first call. The loaded model is kept for the next calls
// (loading takes seconds), one per provider, until the provider is deleted.
//
// What must stay true:
// - the file is written whole before the provider that points at it is saved (add, then save);
//   a copy that fails leaves no file behind;
// - wllama (and its 9 MB of WebAssembly) is imported only when a local model first runs, so
//   the worker's own chunk stays as small as before.

import { InvalidRequestError, StorageFullError } from '../src/core/errors.ts';
import { LocalGgufModel, type LocalChatEngine } from '../src/models/local/local-gguf-model.ts';
import { LocalDownloads, type DownloadProgress } from './local-download.ts';
import type { ProviderRecord } from '../src/store/app-store.ts';

const MODELS_DIRECTORY = 'models';

/** A GGUF file starts with these four bytes. */
const GGUF_MAGIC = 'GGUF';

export interface LocalModelFile {
  /** The name of the file the user picked, or the last part of the URL it came from. */
  name: string;
  size: number;
}

/** Where the files are kept, and how one is loaded: OPFS and wllama in the app. */
export interface LocalModelBackend {
  save(id: string, file: Blob): Promise<void>;
  remove(id: string): Promise<void>;
  load(id: string): Promise<LocalChatEngine & { exit(): Promise<void> }>;
}

export class LocalModels {
  private readonly models = new Map<
    string,
    { model: LocalGgufModel; engine?: Promise<{ exit(): Promise<void> }> }
  >();

  /** Add a local model by URL: downloads straight into OPFS (workers/local-download.ts). */
  readonly downloads = new LocalDownloads(modelsDirectory);

  constructor(private readonly backend: LocalModelBackend = opfsBackend) {}

  /** Downloads `url` (or the rest of it) as the file of the provider `id`. */
  download(
    id: string,
    url: string,
    onProgress: (progress: DownloadProgress) => void,
  ): Promise<LocalModelFile> {
    return this.downloads.download(id, url, onProgress);
  }

  /** Copies `file` in for the provider `id`, after checking that it is a GGUF file. */
  async add(id: string, file: File): Promise<LocalModelFile> {
    const magic = new TextDecoder().decode(await file.slice(0, 4).arrayBuffer());
    if (magic !== GGUF_MAGIC)
      throw new InvalidRequestError(
        `${file.name} is not a GGUF model file (it does not start with "GGUF")`,
      );
    try {
      await this.backend.save(id, file);
    } catch (error) {
      // Best effort: a half-written copy would only take room.
      await this.backend.remove(id).catch(() => undefined);
      if ((error as Error).name === 'QuotaExceededError')
        throw new StorageFullError({ cause: error });
      throw error;
    }
    return { name: file.name, size: file.size };
  }

  /** Unloads the provider's model and deletes its file. */
  async remove(id: string): Promise<void> {
    const kept = this.models.get(id);
    this.models.delete(id);
    // The engine is gone with the provider; a failing exit frees nothing more than dropping it.
    await (await kept?.engine?.catch(() => undefined))?.exit().catch(() => undefined);
    await this.backend.remove(id);
  }

  /** The provider's model: one per provider, so its calls queue on one engine. */
  model(record: ProviderRecord): LocalGgufModel {
    const kept = this.models.get(record.id);
    if (kept) return kept.model;
    const entry: { model: LocalGgufModel; engine?: Promise<{ exit(): Promise<void> }> } = {
      model: new LocalGgufModel({
        model: record.defaultModel,
        engine: () => {
          const engine = this.backend.load(record.id);
          entry.engine = engine;
          return engine;
        },
      }),
    };
    this.models.set(record.id, entry);
    return entry.model;
  }
}

async function modelsDirectory(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(MODELS_DIRECTORY, { create: true });
}

const opfsBackend: LocalModelBackend = {
  async save(id, file) {
    const handle = await (await modelsDirectory()).getFileHandle(`${id}.gguf`, { create: true });
    const writable = await handle.createWritable();
    await file.stream().pipeTo(writable);
  },
  async remove(id) {
    try {
      await (await modelsDirectory()).removeEntry(`${id}.gguf`);
    } catch (error) {
      // Already gone is what remove wants.
      if ((error as Error).name !== 'NotFoundError') throw error;
    }
  },
  async load(id) {
    let file: File;
    try {
      file = await (await (await modelsDirectory()).getFileHandle(`${id}.gguf`)).getFile();
    } catch {
      throw new InvalidRequestError(
        'This local model’s file is gone from the browser’s storage: delete the provider and add the file again',
      );
    }
    const { loadLocalEngine } = await import('./local-engine.ts');
    return loadLocalEngine(file);
  },
};
