// How many tokens a model's request may fill (its context window), as far as the app knows it:
// the user's own value on the provider first, then a local model's context as loaded, then a
// small table of well-known model families. Unknown is a real answer: the app then compacts
// nothing on its own and the chat's meter shows the count alone.
//
// What must stay true: a guess is never made up for a model the table does not know (a wrong,
// smaller window would summarise a conversation the model could still read whole); the table
// matches a family by the model's own name, whatever the provider calls it
// (`openai/gpt-4o-mini`, `qwen3:8b`, `models/gemini-2.5-flash`).

import { replyRoom } from './local/context-fit.ts';
import {
  DEFAULT_REPLY_TOKENS,
  MIN_CONTEXT_TOKENS,
  contextTokensProblem,
  isWholeIn,
} from './local/local-context.ts';

/** A provider's kind (provider-spec.ts's `ProviderKind`, which imports this module). */
type Kind = 'gemini' | 'openai-compatible' | 'local-gguf';

/** The largest window a user may set on a provider that is not local (a few models reach 2M). */
export const MAX_WINDOW_TOKENS = 10_000_000;

/**
 * Ollama serves every model with a context of its own setting (`OLLAMA_CONTEXT_LENGTH`, 4,096
 * tokens by default), not the model's, and silently drops what does not fit: on its usual
 * address the app takes that, unless the user sets the window.
 */
export const OLLAMA_DEFAULT_WINDOW = 4096;
const OLLAMA_PORT = '11434';

/**
 * Families by the model's name (lower case, without a provider's prefix or Ollama's `:` before a tag),
 * the first that matches wins: the more specific ones first. Windows from the providers' model
 * pages; a family whose sizes differ by model (gemma3:1b) says so with its own entry.
 */
const KNOWN_WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/^gemini-1\.5-pro/, 2_097_152],
  [/^gemini-/, 1_048_576],
  [/^gemma-?3n/, 32_768],
  [/^gemma-?3-?1b/, 32_768],
  [/^gemma-?3/, 131_072],
  [/^gemma-?2/, 8192],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o|^gpt-4-turbo|^chatgpt-4o/, 128_000],
  [/^gpt-4-32k/, 32_768],
  [/^gpt-4(-\d|$)/, 8192],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^o1-mini/, 128_000],
  [/^o[134](-|$)/, 200_000],
  [/^claude-/, 200_000],
  [/^llama-?3\.[123]/, 131_072],
  [/^llama-?3/, 8192],
  [/^qwen-?3/, 40_960],
  [/^qwen-?2\.5/, 32_768],
  [/^mistral-nemo/, 131_072],
  [/^mistral/, 32_768],
  [/^phi-?4/, 16_384],
  [/^deepseek-(r1|v3|chat|reasoner)/, 131_072],
];

/** The window of a well-known model family, by the model's name; undefined when unknown. */
export function knownContextWindow(model: string): number | undefined {
  const name = familyName(model);
  if (!name) return undefined;
  return KNOWN_WINDOWS.find(([pattern]) => pattern.test(name))?.[1];
}

/**
 * `openai/gpt-4o-mini` → `gpt-4o-mini`, `models/Gemini-2.5-Flash` → `gemini-2.5-flash`; an Ollama
 * tag is kept as a suffix (`gemma3:1b` → `gemma3-1b`): it may name a size of another window.
 */
function familyName(model: string): string {
  return (model.trim().toLowerCase().split('/').at(-1) ?? '').replace(':', '-');
}

/** Where a window came from: the user, the local model as loaded, Ollama's default, the table. */
export type ContextWindowSource = 'set' | 'loaded' | 'ollama' | 'known';

export interface ContextWindow {
  tokens: number;
  source: ContextWindowSource;
  /**
   * The most a request's prompt may hold, when less than the window: a local model keeps room
   * for its reply and leaves the oldest turns out past it (local/context-fit.ts), so the counts
   * it reports never pass it.
   */
  promptTokens?: number;
}

export interface WindowProvider {
  kind: Kind;
  baseUrl: string;
  /** The user's value (for a local model: the context it is loaded with). */
  contextTokens?: number | undefined;
}

/**
 * The window of `model` on `provider`: the user's value, else a local model's context as loaded
 * (`loadedTokens`; unknown before it loads), else Ollama's default on its usual port, else the
 * table; undefined when none of them knows.
 */
export function contextWindowOf(
  provider: WindowProvider,
  model: string,
  loadedTokens?: number,
): ContextWindow | undefined {
  if (provider.kind === 'local-gguf') {
    // A context the user set is capped at the model's own when it loads: the loaded one is truer.
    const tokens = loadedTokens ?? provider.contextTokens;
    if (!tokens) return undefined;
    const promptTokens = tokens - replyRoom(tokens, DEFAULT_REPLY_TOKENS);
    return { tokens, source: loadedTokens ? 'loaded' : 'set', promptTokens };
  }
  if (provider.contextTokens) return { tokens: provider.contextTokens, source: 'set' };
  if (isOllama(provider.baseUrl)) return { tokens: OLLAMA_DEFAULT_WINDOW, source: 'ollama' };
  const known = knownContextWindow(model);
  return known ? { tokens: known, source: 'known' } : undefined;
}

function isOllama(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).port === OLLAMA_PORT;
  } catch {
    return false; // not a URL: providerProblems says so where it matters
  }
}

/**
 * What is wrong with a window the user typed on a provider of `kind`; none: `undefined`. A local
 * model's is the context it is loaded with, which takes memory: its own, narrower, range.
 */
export function contextWindowProblem(kind: Kind, value: unknown): string | undefined {
  if (kind === 'local-gguf') return contextTokensProblem(value);
  if (value === undefined) return undefined;
  if (!isWholeIn(value, MIN_CONTEXT_TOKENS, MAX_WINDOW_TOKENS))
    return `The context window must be a whole number of tokens from ${MIN_CONTEXT_TOKENS.toLocaleString('en-US')} to ${MAX_WINDOW_TOKENS.toLocaleString('en-US')}, or empty for the model's known one`;
  return undefined;
}

/** The share of the window a conversation may fill before it is compacted: room for the answer. */
export const COMPACT_AT = 0.75;

/**
 * The count past which a conversation is compacted: COMPACT_AT of what a prompt may hold (a local
 * model's prompt room, else the window).
 */
export function compactionThreshold(window: ContextWindow): number {
  return Math.floor((window.promptTokens ?? window.tokens) * COMPACT_AT);
}

/** How a session's context stands against its model's window (the chat header's meter). */
export interface ContextUse {
  /** Tokens the next request would hold, about: the model's last count, else an estimate. */
  tokens: number;
  /** Whether `tokens` is the model's own count (else about 4 characters a token). */
  counted: boolean;
  /** The window, when known. */
  window?: ContextWindow;
  /** The count past which the agent compacts (absent: it does not on its own). */
  compactAt?: number;
}
