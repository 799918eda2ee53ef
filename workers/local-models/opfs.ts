// Where local models are kept in the app: the Origin Private File System, under
// models/<provider id>.gguf (a split model: one file per part, models/<id>-0000n-of-0000m.gguf),
// loaded into wllama (imported only then, with its WebAssembly) from there.

import { InvalidRequestError } from '../../src/core/errors.ts';
import { modelParts, partName, splitPart } from '../../src/models/local/gguf-split.ts';
import type { LocalModelBackend } from './backend.ts';

const MODELS_DIRECTORY = 'models';

export async function modelsDirectory(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(MODELS_DIRECTORY, { create: true });
}

/** The OPFS names of the model `id`'s files, in load order. */
async function fileNames(directory: FileSystemDirectoryHandle, id: string): Promise<string[]> {
  const names: string[] = [];
  for await (const name of (directory as unknown as { keys(): AsyncIterable<string> }).keys()) {
    if (name === `${id}.gguf` || (name.startsWith(`${id}-`) && splitPart(name))) names.push(name);
  }
  return names.sort();
}

export const opfsBackend: LocalModelBackend = {
  async save(id, file, part) {
    const name = part ? partName(id, part.no, part.count) : `${id}.gguf`;
    const handle = await (await modelsDirectory()).getFileHandle(name, { create: true });
    const writable = await handle.createWritable();
    await file.stream().pipeTo(writable);
  },
  async remove(id) {
    const directory = await modelsDirectory();
    for (const name of await fileNames(directory, id)) {
      try {
        await directory.removeEntry(name);
      } catch (error) {
        // Already gone is what remove wants.
        if ((error as Error).name !== 'NotFoundError') throw error;
      }
    }
  },
  async load(id, onRead, { contextTokens, embeddings } = {}) {
    const directory = await modelsDirectory();
    const names = await fileNames(directory, id);
    const files = await Promise.all(
      names.map(async (name) => (await directory.getFileHandle(name)).getFile()),
    );
    const check = modelParts(files);
    if (files.length === 0 || 'problem' in check)
      throw new InvalidRequestError(
        'This local model’s file is gone from the browser’s storage: delete the provider and add the file again',
      );
    const total = files.reduce((sum, file) => sum + file.size, 0);
    const { loadLocalEngine } = await import('./engine.ts');
    return loadLocalEngine(check.parts, (read) => onRead?.(read, total), contextTokens, {
      ...(embeddings ? { embeddings } : {}),
    });
  },
};
