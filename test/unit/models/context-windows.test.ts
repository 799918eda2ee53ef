// A model's context window as the app knows it: the user's value, a local model's loaded context,
// Ollama's own default, the table of well-known families; and what a typed window may be.

import { describe, expect, it } from 'vitest';
import {
  MAX_WINDOW_TOKENS,
  OLLAMA_DEFAULT_WINDOW,
  compactionThreshold,
  contextWindowOf,
  contextWindowProblem,
  knownContextWindow,
} from '../../../src/models/context-windows.ts';
import { providerProblems } from '../../../src/models/provider-spec.ts';

describe('the window of a well-known model', () => {
  it.each([
    ['gemini-2.5-flash', 1_048_576],
    ['models/gemini-1.5-pro-002', 2_097_152],
    ['gpt-4o-mini', 128_000],
    ['openai/gpt-4o-mini', 128_000],
    ['gpt-4.1-nano', 1_047_576],
    ['gpt-4', 8192],
    ['gpt-4-32k', 32_768],
    ['o1-mini', 128_000],
    ['o3', 200_000],
    ['anthropic/claude-sonnet-4', 200_000],
    ['qwen3:8b', 40_960],
    ['Qwen2.5-7B-Instruct', 32_768],
    ['llama3.1:8b', 131_072],
    ['llama3', 8192],
    ['gemma3:1b', 32_768],
    ['gemma-3-27b-it', 131_072],
  ])('knows %s: %i tokens', (model, tokens) => {
    expect(knownContextWindow(model)).toBe(tokens);
  });

  it.each(['', '   ', 'fixture-text', 'my-finetune', 'x/y/z:', 'o5-preview', 'gpt4'])(
    'makes up nothing for %j',
    (model) => {
      expect(knownContextWindow(model)).toBeUndefined();
    },
  );
});

describe('where a provider’s window comes from', () => {
  const openai = { kind: 'openai-compatible' as const, baseUrl: 'https://api.openai.com/v1' };

  it('takes the user’s value over the table', () => {
    expect(contextWindowOf({ ...openai, contextTokens: 4096 }, 'gpt-4o')).toEqual({
      tokens: 4096,
      source: 'set',
    });
    expect(contextWindowOf(openai, 'gpt-4o')).toEqual({ tokens: 128_000, source: 'known' });
  });

  it('takes Ollama’s own default on its port, whatever the model (the server cuts there)', () => {
    const ollama = { kind: 'openai-compatible' as const, baseUrl: 'http://localhost:11434/v1' };
    expect(contextWindowOf(ollama, 'qwen3:8b')).toEqual({
      tokens: OLLAMA_DEFAULT_WINDOW,
      source: 'ollama',
    });
    expect(contextWindowOf({ ...ollama, contextTokens: 32_768 }, 'qwen3:8b')?.tokens).toBe(32_768);
  });

  it('knows a local model’s window once it is loaded, or when the user set its context', () => {
    const local = { kind: 'local-gguf' as const, baseUrl: '' };
    expect(contextWindowOf(local, 'qwen3-0.6b.gguf')).toBeUndefined();
    // Its prompt may hold the context less its reply's room (a quarter, at most 1,024 tokens).
    expect(contextWindowOf({ ...local, contextTokens: 2048 }, 'x.gguf')).toEqual({
      tokens: 2048,
      source: 'set',
      promptTokens: 1536,
    });
    // llama.cpp caps a context set above the model's own: the loaded one is the truth.
    expect(contextWindowOf({ ...local, contextTokens: 8192 }, 'x.gguf', 4096)).toEqual({
      tokens: 4096,
      source: 'loaded',
      promptTokens: 3072,
    });
    expect(contextWindowOf(local, 'x.gguf', 32_768)!.promptTokens).toBe(31_744);
  });

  it('compacts past 75% of what a prompt may hold', () => {
    expect(compactionThreshold({ tokens: 4096, source: 'set' })).toBe(3072);
    expect(compactionThreshold({ tokens: 4096, source: 'loaded', promptTokens: 3072 })).toBe(2304);
  });

  it('is unknown for a model the table does not know, or a base URL that is no URL', () => {
    expect(contextWindowOf(openai, 'fixture-text')).toBeUndefined();
    expect(contextWindowOf({ ...openai, baseUrl: 'not a url' }, 'fixture-text')).toBeUndefined();
  });
});

describe('a window the user types', () => {
  const spec = {
    kind: 'openai-compatible' as const,
    name: 'Fixture',
    baseUrl: 'http://127.0.0.1:1/v1',
    defaultModel: 'fixture-text',
  };

  it.each([undefined, 512, 4096, 2_000_000, MAX_WINDOW_TOKENS])('accepts %j', (value) => {
    expect(contextWindowProblem('openai-compatible', value)).toBeUndefined();
    expect(providerProblems({ ...spec, contextTokens: value as number })).toEqual([]);
  });

  it.each([
    0,
    -4096,
    511,
    4096.5,
    MAX_WINDOW_TOKENS + 1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '4096',
    null,
    [4096],
    { valueOf: () => 4096 },
  ])('refuses %j, saying what it may be', (value) => {
    expect(contextWindowProblem('gemini', value)).toMatch(
      /^The context window must be a whole number of tokens from 512 to 10,000,000, or empty/,
    );
    expect(providerProblems({ ...spec, contextTokens: value as number }).join()).toMatch(
      /context window must be a whole number/,
    );
  });

  it('keeps a local model to the context range its memory allows', () => {
    expect(contextWindowProblem('local-gguf', 200_000)).toMatch(/context size must be/);
    expect(contextWindowProblem('local-gguf', 4096)).toBeUndefined();
  });
});
