// A model provider as the app stores it (Settings → Providers): what kind of API it speaks, where,
// with which key, and the model to use by default; the presets the Settings form starts from; and
// the masked form of a key, the only one the page ever sees. Data only (the page imports it):
// provider-models.ts turns a provider into a model.

import { GEMINI_BASE_URL } from './gemini-model.ts';
import { contextWindowProblem } from './context-windows.ts';

export const PROVIDER_KINDS = ['gemini', 'openai-compatible', 'local-gguf'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export interface ProviderSpec {
  id: string;
  kind: ProviderKind;
  /** How the user calls it ("Ollama on my laptop"); model errors name it. */
  name: string;
  /** The API root: Gemini's up to the version, an OpenAI-compatible one holding /chat/completions. */
  baseUrl: string;
  /** Never leaves the worker except masked. */
  apiKey?: string;
  /** The model an agent on this provider uses unless it names another. */
  defaultModel: string;
  /** A local model's file (kind `local-gguf`), kept in the browser's private file system. */
  localFile?: { name: string; size: number };
  /**
   * The model's context window, in tokens, as the user set it. A local model's is the context it
   * is loaded with (absent: the model's own, capped for memory: local/local-context.ts); another
   * provider's says when to compact a long chat (absent: the window the app knows of the model,
   * context-windows.ts).
   */
  contextTokens?: number;
}

/** A provider the Settings form can start from. */
export interface ProviderPreset {
  /** The name shown on the preset's button, and the provider's default name. */
  label: string;
  kind: ProviderKind;
  baseUrl: string;
  defaultModel: string;
  /** Whether the provider needs an API key. */
  needsKey: boolean;
  hint: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    label: 'Gemini',
    kind: 'gemini',
    baseUrl: GEMINI_BASE_URL,
    defaultModel: 'gemini-2.5-flash',
    needsKey: true,
    hint: 'A key from Google AI Studio (aistudio.google.com/apikey).',
  },
  {
    label: 'Ollama',
    kind: 'openai-compatible',
    baseUrl: 'http://localhost:11434/v1',
    defaultModel: 'qwen3:8b',
    needsKey: false,
    hint: 'No key. Ollama allows pages on localhost; set OLLAMA_ORIGINS for other origins.',
  },
  {
    label: 'LM Studio',
    kind: 'openai-compatible',
    baseUrl: 'http://localhost:1234/v1',
    defaultModel: '',
    needsKey: false,
    hint: 'No key. Turn on CORS in the Developer tab, or start it with lms server start --cors.',
  },
  {
    label: 'OpenAI',
    kind: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-4o-mini',
    needsKey: true,
    hint: 'A key from platform.openai.com.',
  },
  {
    label: 'OpenRouter',
    kind: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    defaultModel: 'openai/gpt-4o-mini',
    needsKey: true,
    hint: 'A key from openrouter.ai/keys.',
  },
];

/**
 * The key as the page may see it: its last four characters when it is long enough for them to
 * give nothing away (real keys are 30+ characters), else only that there is one.
 */
export function maskKey(apiKey: string | undefined): string | undefined {
  if (!apiKey) return undefined;
  return apiKey.length >= 16 ? `••••${apiKey.slice(-4)}` : '••••';
}

/** What is wrong with a provider's fields; [] when it can be saved. */
export function providerProblems(
  spec: Omit<ProviderSpec, 'id'>,
  /** False for a reference in an agent file, which names a local model but cannot carry it. */
  { needsLocalFile = true } = {},
): string[] {
  const problems: string[] = [];
  if (!PROVIDER_KINDS.includes(spec.kind))
    problems.push(`The kind must be one of ${PROVIDER_KINDS.join(', ')}`);
  if (!spec.name?.trim()) problems.push('Give the provider a name');
  else if (spec.name.length > 80) problems.push('The name is longer than 80 characters');
  if (spec.kind === 'local-gguf') {
    // Its model is the file, which only Settings → Providers → Add local model can bring in.
    if (needsLocalFile && !spec.localFile)
      problems.push('A local model is added from its .gguf file, in Settings → Providers');
    const context = contextWindowProblem(spec.kind, spec.contextTokens);
    if (context) problems.push(context);
    return problems;
  }
  const window = contextWindowProblem(spec.kind, spec.contextTokens);
  if (window) problems.push(window);
  problems.push(...baseUrlProblems(spec.baseUrl));
  if (typeof spec.defaultModel !== 'string' || spec.defaultModel.length > 200)
    problems.push('The default model must be a model name');
  if (spec.apiKey !== undefined && /\s/.test(spec.apiKey))
    problems.push('The API key has spaces or line breaks in it: paste the key alone');
  return problems;
}

function baseUrlProblems(baseUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [`The base URL "${baseUrl ?? ''}" is not a URL (e.g. http://localhost:11434/v1)`];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return ['The base URL must start with http:// or https://'];
  if (url.search || url.hash) return ['The base URL must not have a query (?…) or a fragment (#…)'];
  return [];
}
