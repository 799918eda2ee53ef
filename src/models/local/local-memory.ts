// What a loaded local model holds in memory, estimated from its GGUF metadata: its weights (the
// file, read whole into WebAssembly memory: wllama does not map it) and its context (KV) cache,
// which llama.cpp allocates for the whole context at load. Compute buffers (tens of MB for a
// small model) come on top and are not counted.
//
// Not `performance.measureUserAgentSpecificMemory()`: it answers only on an isolated page, after
// a garbage collection of its own choosing (seconds to minutes), and counts the whole page; this
// estimate is there at once, on every page, for the model alone.

export interface LocalModelMemory {
  /** The model file's bytes: its weights. */
  fileBytes: number;
  /** The context cache: keys and values of every layer for `contextTokens` tokens, in f16. */
  contextBytes: number;
  contextTokens: number;
}

/** The hyperparameters wllama reads from the GGUF (`getModelMetadata()`). */
export interface ModelShape {
  hparams: { nEmbd: number; nLayer: number };
  /** The GGUF's metadata, as strings: `<arch>.attention.head_count`, `…head_count_kv`… */
  meta: Record<string, string>;
}

const F16_BYTES = 2;

/**
 * Bytes of the context cache for `contextTokens`: per layer and token, a key and a value of
 * `n_embd × head_count_kv / head_count` (grouped-query attention shares keys between heads).
 * Without head counts in the metadata, every head has its own (the most it can be).
 */
export function contextCacheBytes(shape: ModelShape, contextTokens: number): number {
  const arch = shape.meta['general.architecture'] ?? '';
  const heads = Number(shape.meta[`${arch}.attention.head_count`]) || 1;
  const headsKv = Number(shape.meta[`${arch}.attention.head_count_kv`]) || heads;
  const keyValueWidth = Math.ceil((shape.hparams.nEmbd * headsKv) / heads);
  return contextTokens * shape.hparams.nLayer * 2 * keyValueWidth * F16_BYTES;
}

export function localModelMemory(
  shape: ModelShape,
  fileBytes: number,
  contextTokens: number,
): LocalModelMemory {
  return { fileBytes, contextBytes: contextCacheBytes(shape, contextTokens), contextTokens };
}
