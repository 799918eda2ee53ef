// Settings → Providers, the pure parts: the form's draft (from a preset or a saved provider), what
// it sends to the worker, and what a connection test says.

import { knownContextWindow, OLLAMA_DEFAULT_WINDOW } from '../../models/context-windows.ts';
import { PROVIDER_PRESETS, type ProviderKind } from '../../models/provider-spec.ts';
import type { ConnectionTest, ProviderInfo, ProviderInput } from '../../../workers/protocol.ts';

export interface ProviderDraft {
  /** Absent for a provider not saved yet. */
  id?: string;
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  defaultModel: string;
  /** A new key typed in the form; '' keeps the stored one. Cleared once saved. */
  apiKey: string;
  /** The stored key, masked ("••••1234"). */
  keyHint?: string;
  removeKey: boolean;
  /** What the preset says about keys and CORS. */
  hint?: string;
  /** A local model's file. */
  localFile?: { name: string; size: number };
  /** The context window as typed (a local model's context size); '' for the model's own. */
  contextTokens?: string;
}

export const KIND_LABELS: Record<ProviderKind, string> = {
  gemini: 'Gemini API',
  'openai-compatible': 'OpenAI-compatible',
  'local-gguf': 'Local model (GGUF)',
};

/** A new provider from a preset; a name already taken gets a number. */
export function draftFromPreset(label: string, taken: readonly string[] = []): ProviderDraft {
  const preset = PROVIDER_PRESETS.find((candidate) => candidate.label === label);
  const base = preset ?? {
    label: 'Other server',
    kind: 'openai-compatible' as const,
    baseUrl: 'http://localhost:8080/v1',
    defaultModel: '',
    hint: 'Any server with OpenAI’s chat completions (llama.cpp, vLLM, …).',
  };
  let name = base.label;
  for (let n = 2; taken.includes(name); n++) name = `${base.label} ${n}`;
  return {
    kind: base.kind,
    name,
    baseUrl: base.baseUrl,
    defaultModel: base.defaultModel,
    apiKey: '',
    removeKey: false,
    hint: base.hint,
  };
}

export function draftFromProvider(provider: ProviderInfo): ProviderDraft {
  const { id, kind, name, baseUrl, defaultModel, keyHint, localFile, contextTokens } = provider;
  return {
    id,
    kind,
    name,
    baseUrl,
    defaultModel,
    apiKey: '',
    removeKey: false,
    ...(keyHint ? { keyHint } : {}),
    ...(localFile ? { localFile } : {}),
    contextTokens: contextTokens ? String(contextTokens) : '',
  };
}

/**
 * The draft with another kind: a base URL that was the other kind's preset follows the kind (a
 * Gemini URL makes no sense for an OpenAI-compatible server, and the reverse); one the user typed
 * stays.
 */
export function withKind(draft: ProviderDraft, kind: ProviderKind): ProviderDraft {
  const presets = PROVIDER_PRESETS.filter((preset) => preset.baseUrl === draft.baseUrl.trim());
  const fromPreset = draft.baseUrl.trim() === '' || presets.some((p) => p.kind !== kind);
  const next = PROVIDER_PRESETS.find((preset) => preset.kind === kind);
  return { ...draft, kind, ...(fromPreset && next ? { baseUrl: next.baseUrl } : {}) };
}

/** What the form sends: a key only when one was typed (the worker keeps the stored one). */
export function inputOf(draft: ProviderDraft): ProviderInput {
  const { id, kind, name, baseUrl, defaultModel, apiKey, removeKey } = draft;
  const key = apiKey.trim();
  const context = draft.contextTokens?.replace(/[\s,_]/g, '') ?? '';
  return {
    ...(id !== undefined ? { id } : {}),
    kind,
    name,
    baseUrl,
    defaultModel,
    ...(key && !removeKey ? { apiKey: key } : {}),
    ...(removeKey ? { removeKey: true } : {}),
    // Checked by the worker: a number that is not a whole one in range is refused there.
    ...(context ? { contextTokens: Number(context) } : {}),
  };
}

/** "Connected: 4 models (a, b, c, …)." or the provider's error. */
export function connectionText(test: ConnectionTest): string {
  if (!test.ok) return test.message;
  const { models } = test;
  if (models.length === 0) return 'Connected, but the server lists no models.';
  const shown = models.slice(0, 6).join(', ') + (models.length > 6 ? ', …' : '');
  return `Connected: ${models.length} ${models.length === 1 ? 'model' : 'models'} (${shown}).`;
}

/** What the key field says about the stored key. */
export function keyPlaceholder(draft: ProviderDraft): string {
  if (draft.keyHint) return `${draft.keyHint} stored; type a new key to replace it`;
  return draft.kind === 'gemini' ? 'Your Gemini API key' : 'None (local servers need none)';
}

const count = new Intl.NumberFormat('en-US');

/**
 * What the empty window field stands for: the window the app knows for the default model
 * (context-windows.ts), or that it knows none, so long chats are not compacted on their own.
 */
export function windowPlaceholder(draft: ProviderDraft): string {
  if (/:11434(\/|$)/.test(draft.baseUrl.trim()))
    return `Ollama’s default: ${count.format(OLLAMA_DEFAULT_WINDOW)}`;
  const known = knownContextWindow(draft.defaultModel);
  if (known) return `Known for ${draft.defaultModel.trim()}: ${count.format(known)}`;
  return 'Unknown: long chats are not compacted';
}
