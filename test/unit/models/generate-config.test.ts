// An agent's generateContentConfig (temperature, top-p, max output tokens): in each request as
// ADK 2.0 puts it (side by side with @google/adk), refused out of range, and sent by every
// provider as its API names it (OpenAI-compatible and Gemini over real HTTP, a local model's
// engine).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GeminiModel,
  InvalidRequestError,
  LlmAgent,
  LocalGgufModel,
  OpenAiCompatibleModel,
  createUserContent,
  generateContentConfigProblem,
  type GenerateContentConfig,
  type LlmRequest,
  type LocalChatEngine,
  type LocalChatParams,
} from '../../../src/index.ts';
import { collect } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';
import { ADK, TRELLIS, runOn, type Lib, type Request } from '../../support/callback-parity.ts';

let server: ModelServer;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

const CONFIG: GenerateContentConfig = { temperature: 0.3, topP: 0.9, maxOutputTokens: 256 };

function ask(config?: GenerateContentConfig): LlmRequest {
  return { contents: [createUserContent('Hello?')], ...(config ? { config } : {}) };
}

describe('generateContentConfig on an LlmAgent', () => {
  it('reaches each request as ADK 2.0 puts it there (side by side)', async () => {
    const seen: Record<string, unknown[]> = { adk: [], trellis: [] };
    const build = (lib: Lib) =>
      new lib.LlmAgent({
        name: 'writer',
        model: lib.model((request: Request & { config?: Record<string, unknown> }) => {
          const { temperature, topP, maxOutputTokens } = request.config ?? {};
          seen[lib.name]!.push({ temperature, topP, maxOutputTokens });
          return { content: { role: 'model', parts: [{ text: 'Hi.' }] } };
        }),
        instruction: 'Be brief.',
        generateContentConfig: { ...CONFIG },
      });
    await runOn(ADK, build(ADK), ['one', 'two']);
    await runOn(TRELLIS, build(TRELLIS), ['one', 'two']);
    expect(seen.trellis).toEqual(seen.adk);
    expect(seen.trellis).toEqual([CONFIG, CONFIG]);
  });

  it("gives each request a copy: a callback's change does not reach the next call", async () => {
    const configs: unknown[] = [];
    const agent = new LlmAgent({
      name: 'writer',
      model: TRELLIS.model((request: Request & { config?: GenerateContentConfig }) => {
        configs.push(request.config);
        return { content: { role: 'model', parts: [{ text: 'Hi.' }] } };
      }) as never,
      generateContentConfig: CONFIG,
      beforeModelCallback: ({ request }) => {
        request.config!.temperature = 1.5;
        return undefined;
      },
    });
    await runOn(TRELLIS, agent, ['one', 'two']);
    expect(configs).toEqual([
      { ...CONFIG, temperature: 1.5 },
      { ...CONFIG, temperature: 1.5 },
    ]);
    expect(agent.generateContentConfig).toEqual(CONFIG);
  });

  it('is absent from requests of an agent without one (providers keep their defaults)', async () => {
    const configs: unknown[] = [];
    const agent = new LlmAgent({
      name: 'writer',
      model: TRELLIS.model((request: Request & { config?: unknown }) => {
        configs.push(request.config);
        return { content: { role: 'model', parts: [{ text: 'Hi.' }] } };
      }) as never,
    });
    await runOn(TRELLIS, agent, ['one']);
    expect(configs).toEqual([undefined]);
  });

  it.each([
    [{ temperature: -0.1 }, 'Temperature must be a number from 0 to 2'],
    [{ temperature: 2.5 }, 'Temperature must be a number from 0 to 2'],
    [{ temperature: Number.NaN }, 'Temperature must be a number from 0 to 2'],
    [{ temperature: '0.5' }, 'Temperature must be a number from 0 to 2'],
    [{ topP: 0 }, 'Top-p must be a number above 0 and at most 1'],
    [{ topP: 1.2 }, 'Top-p must be a number above 0 and at most 1'],
    [{ maxOutputTokens: 0 }, 'Max output tokens must be a whole number from 1 to 1,000,000'],
    [{ maxOutputTokens: 12.5 }, 'Max output tokens must be a whole number from 1 to 1,000,000'],
  ])('refuses %j with a clear error', (config, message) => {
    expect(generateContentConfigProblem(config as GenerateContentConfig)).toBe(message);
    expect(() => new LlmAgent({ name: 'writer', generateContentConfig: config as never })).toThrow(
      new InvalidRequestError(`Agent writer: ${message}`),
    );
  });

  it('accepts the edges of each range', () => {
    for (const config of [
      { temperature: 0, topP: 1, maxOutputTokens: 1 },
      { temperature: 2, topP: 0.01, maxOutputTokens: 1_000_000 },
    ])
      expect(generateContentConfigProblem(config)).toBeUndefined();
  });
});

describe('providers send the config as their APIs name it', () => {
  it('OpenAI-compatible: temperature, top_p and max_tokens, only those given', async () => {
    const model = new OpenAiCompatibleModel({
      model: 'fixture-text',
      baseUrl: `${server.url}/v1/`,
      retryBaseMs: 1,
    });
    await collect(model.generateContentAsync(ask(CONFIG)));
    expect(server.requests.at(-1)!.body).toMatchObject({
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 256,
    });
    await collect(model.generateContentAsync(ask({ temperature: 0 })));
    const body = server.requests.at(-1)!.body as Record<string, unknown>;
    expect(body.temperature).toBe(0);
    expect(body).not.toHaveProperty('top_p');
    expect(body).not.toHaveProperty('max_tokens');
    await collect(model.generateContentAsync(ask()));
    expect(server.requests.at(-1)!.body).not.toHaveProperty('temperature');
  });

  it("Gemini: generationConfig's temperature, topP and maxOutputTokens, beside a schema", async () => {
    const model = new GeminiModel({
      model: 'fixture-text',
      apiKey: 'test-key',
      baseUrl: `${server.url}/v1beta`,
      retryBaseMs: 1,
    });
    await collect(model.generateContentAsync(ask(CONFIG)));
    expect((server.requests.at(-1)!.body as Record<string, unknown>).generationConfig).toEqual({
      temperature: 0.3,
      topP: 0.9,
      maxOutputTokens: 256,
    });
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    await collect(model.generateContentAsync({ ...ask({ topP: 0.5 }), responseSchema: schema }));
    const config = (server.requests.at(-1)!.body as Record<string, Record<string, unknown>>)
      .generationConfig!;
    expect(config.topP).toBe(0.5);
    expect(config.responseMimeType).toBe('application/json');
    await collect(model.generateContentAsync(ask()));
    expect(server.requests.at(-1)!.body).not.toHaveProperty('generationConfig');
  });

  it("a local model: the request's config over the model's own defaults", async () => {
    const sent: LocalChatParams[] = [];
    const engine: LocalChatEngine = {
      async createChatCompletion(params) {
        sent.push(params);
        params.onData({ choices: [{ delta: { content: 'Hi.' }, finish_reason: 'stop' }] });
      },
    };
    const model = new LocalGgufModel({
      model: 'tiny.gguf',
      engine,
      temperature: 0.7,
      maxTokens: 64,
    });
    await collect(model.generateContentAsync(ask(CONFIG), true));
    expect(sent[0]).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 256 });
    await collect(model.generateContentAsync(ask(), true));
    expect(sent[1]).toMatchObject({ temperature: 0.7, max_tokens: 64 });
    expect(sent[1]).not.toHaveProperty('top_p');
  });
});
