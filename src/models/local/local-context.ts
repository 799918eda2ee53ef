// The context a local model is loaded with, in tokens. llama.cpp allocates its cache for the
// whole context at load (local-memory.ts), so a longer one costs memory from the start, and one
// longer than the model was trained for is cut to that by llama.cpp anyway. The user may set it
// (Settings → Providers); by default it is the model's own context length, capped so that a
// model trained for 128k tokens does not take gigabytes of cache in a browser tab.

import type { GgufFacts } from './gguf-metadata.ts';
import { contextCacheBytes } from './local-memory.ts';

/** The least and most a user may set. */
export const MIN_CONTEXT_TOKENS = 512;
export const MAX_CONTEXT_TOKENS = 131_072;
/** The longest default context. */
export const DEFAULT_CONTEXT_CAP = 8192;
/** The most memory a default context's cache may take. */
export const DEFAULT_CACHE_CAP_BYTES = 512 * 1024 * 1024;
/** The longest reply a local model writes, in tokens, unless told otherwise. */
export const DEFAULT_REPLY_TOKENS = 1024;
/** The context of a model whose file does not say its own. */
export const FALLBACK_CONTEXT_TOKENS = 4096;

/**
 * The context to load the model with: the user's `chosen` one if any (at most the model's own),
 * else the model's own capped at DEFAULT_CONTEXT_CAP, halved while its cache would take more
 * than DEFAULT_CACHE_CAP_BYTES (never below MIN_CONTEXT_TOKENS).
 */
export function contextToLoad(facts: GgufFacts | undefined, chosen: number | undefined): number {
  const own = facts?.contextLength;
  if (chosen !== undefined) return own ? Math.min(chosen, own) : chosen;
  let context = Math.min(own ?? FALLBACK_CONTEXT_TOKENS, DEFAULT_CONTEXT_CAP);
  if (facts && facts.hparams.nEmbd > 0 && facts.hparams.nLayer > 0)
    while (
      context / 2 >= MIN_CONTEXT_TOKENS &&
      contextCacheBytes(facts, context) > DEFAULT_CACHE_CAP_BYTES
    )
      context = Math.floor(context / 2);
  return context;
}

/** Whether `value` is a whole number from `min` to `max` (a count of tokens the user typed). */
export function isWholeIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** What is wrong with a context size the user typed; none: `undefined`. */
export function contextTokensProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isWholeIn(value, MIN_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS))
    return `The context size must be a whole number of tokens from ${MIN_CONTEXT_TOKENS.toLocaleString('en-US')} to ${MAX_CONTEXT_TOKENS.toLocaleString('en-US')}, or empty for the model's own`;
  return undefined;
}
