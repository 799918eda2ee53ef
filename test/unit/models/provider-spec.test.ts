// Providers as Settings stores them: the masked key (all the page ever sees), what a valid
// provider is, the presets, and the models built from a provider (over real HTTP, against the
// fixture model server).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiModel, OpenAiCompatibleModel } from '../../../src/index.ts';
import { createProviderModel, providerClient } from '../../../src/models/provider-models.ts';
import {
  PROVIDER_PRESETS,
  maskKey,
  providerProblems,
  type ProviderSpec,
} from '../../../src/models/provider-spec.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-fixture-0123456789abcdefWXYZ';

function provider(overrides: Partial<ProviderSpec> = {}): ProviderSpec {
  return {
    id: 'p1',
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl: `${server.url}/v1`,
    defaultModel: 'fixture-text',
    ...overrides,
  };
}

describe('provider specs', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['short-key', '••••'],
    [KEY, '••••WXYZ'],
  ])('masks %s as %s', (key, masked) => {
    expect(maskKey(key)).toBe(masked);
  });

  it('has presets for Gemini, Ollama, LM Studio, OpenAI and OpenRouter, each valid', () => {
    expect(PROVIDER_PRESETS.map((preset) => [preset.label, preset.baseUrl])).toEqual([
      ['Gemini', 'https://generativelanguage.googleapis.com/v1beta'],
      ['Ollama', 'http://localhost:11434/v1'],
      ['LM Studio', 'http://localhost:1234/v1'],
      ['OpenAI', 'https://api.openai.com/v1'],
      ['OpenRouter', 'https://openrouter.ai/api/v1'],
    ]);
    for (const { label, kind, baseUrl, defaultModel } of PROVIDER_PRESETS)
      expect(providerProblems({ kind, name: label, baseUrl, defaultModel })).toEqual([]);
  });

  it.each([
    [{ name: ' ' }, 'Give the provider a name'],
    [{ baseUrl: 'localhost:11434' }, 'must start with http:// or https://'],
    [{ baseUrl: 'not a url' }, 'is not a URL'],
    [{ baseUrl: 'http://x/v1?key=1' }, 'must not have a query'],
    [{ kind: 'anthropic' }, 'The kind must be one of gemini, openai-compatible'],
    [{ apiKey: 'sk-abc def' }, 'spaces or line breaks'],
  ])('refuses %j', (overrides, problem) => {
    const problems = providerProblems(provider(overrides as Partial<ProviderSpec>));
    expect(problems.join('\n')).toContain(problem);
  });

  it('builds the model of each kind, with the provider’s name in its messages', () => {
    const openai = createProviderModel(provider(), 'fixture-tool-call');
    expect(openai).toBeInstanceOf(OpenAiCompatibleModel);
    expect(openai.model).toBe('fixture-tool-call');
    expect((openai as OpenAiCompatibleModel).providerName).toBe('Fixture');
    expect(createProviderModel(provider(), '').model).toBe('fixture-text');
    const gemini = createProviderModel(
      provider({ kind: 'gemini', baseUrl: `${server.url}/v1beta`, apiKey: KEY }),
    );
    expect(gemini).toBeInstanceOf(GeminiModel);
  });

  it('says what is missing: a model, or a Gemini key', () => {
    expect(() => createProviderModel(provider({ defaultModel: '' }), ' ')).toThrow(
      /No model chosen: pick one for the agent, or a default model for Fixture/,
    );
    expect(() => providerClient(provider({ kind: 'gemini' }))).toThrow(
      /Fixture \(Gemini\) needs an API key/,
    );
  });

  it('lists the models of both kinds over HTTP, sending the key only in a header', async () => {
    expect(await providerClient(provider({ apiKey: KEY })).listModels()).toContain(
      'fixture-tool-call',
    );
    const gemini = providerClient(
      provider({ kind: 'gemini', baseUrl: `${server.url}/v1beta`, apiKey: KEY }),
    );
    expect((await gemini.listModels()).length).toBeGreaterThan(0);
    const sent = server.requests.filter((r) => r.method === 'GET');
    expect(sent.map((r) => r.path).join(' ')).not.toContain(KEY);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent[1]!.headers['x-goog-api-key']).toBe(KEY);
  });
});
