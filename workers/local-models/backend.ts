// What a local model is to the rest of the worker: its file, where files are kept and how one is
// loaded (OPFS and wllama in the app, opfs.ts and engine.ts; memory in the tests), and a loaded
// model. Types only, so that local-models.ts and the backends it uses import them one way.

import type { LocalChatEngine } from '../../src/models/local/local-gguf-model.ts';
import type { LocalModelMemory } from '../../src/models/local/local-memory.ts';

export interface LocalModelFile {
  /** The name of the file the user picked, or the last part of the URL it came from. */
  name: string;
  /** All parts together, for a split model. */
  size: number;
}

/** A model loaded into memory: an engine to chat with, and what it holds. */
export interface LoadedLocalModel extends LocalChatEngine {
  exit(): Promise<void>;
  /** Estimated from the GGUF (src/models/local/local-memory.ts). */
  memory?: LocalModelMemory;
  /** Threads it runs on. */
  threads?: number;
  /** The context it was trained for, in tokens (its GGUF's own). */
  modelContextTokens?: number;
  /** A text's vector, when it was loaded with `embeddings` (wllama's, OpenAI's shape). */
  createEmbedding?(params: {
    input: string;
  }): Promise<{ data: { index: number; embedding: number[] | string }[] }>;
}

/** Where the files are kept, and how one is loaded: OPFS and wllama in the app. */
export interface LocalModelBackend {
  /** Keeps `file` as the model of `id`, or as its part `part.no` of `part.count`. */
  save(id: string, file: Blob, part?: { no: number; count: number }): Promise<void>;
  /** Deletes the model's file, or all its parts. */
  remove(id: string): Promise<void>;
  /**
   * Loads the model; `onRead` is told the bytes read so far of `total`. `contextTokens` is the
   * user's context size (absent: the model's own, capped); `embeddings`: to embed, not to chat.
   */
  load(
    id: string,
    onRead?: (read: number, total: number) => void,
    options?: { contextTokens?: number; embeddings?: boolean },
  ): Promise<LoadedLocalModel>;
}
