// Embedders over Gemini and an OpenAI-compatible server, against the local model server over
// real HTTP: what they send (batches, task types, the key in a header only), vectors in the
// texts' order, and every way an answer can go wrong.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EMBEDDING_MODELS, embedderFor } from '../../../src/knowledge/embedders.ts';
import type { ProviderSpec } from '../../../src/models/provider-spec.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { fakeEmbedding, EMBEDDING_DIMENSIONS } from '../../support/model-embeddings.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

const KEY = 'sk-test-0123456789abcdefghijklmnop';

function provider(kind: 'gemini' | 'openai-compatible', apiKey: string | undefined = KEY) {
  const spec: ProviderSpec = {
    id: `p-${kind}`,
    kind,
    name: kind === 'gemini' ? 'My Gemini' : 'My Ollama',
    baseUrl: kind === 'gemini' ? `${server.url}/v1beta/` : `${server.url}/v1`,
    defaultModel: 'chat',
    ...(apiKey ? { apiKey } : {}),
  };
  return spec;
}

const embedder = (kind: 'gemini' | 'openai-compatible', model: string, apiKey?: string) =>
  embedderFor(provider(kind, apiKey), model, { retryBaseMs: 1, rateLimitBaseMs: 1 });

/** The embedding requests made for `model` (any tag), from now on. */
function requestsFor(model: string) {
  const from = server.requests.length;
  return () =>
    server.requests
      .slice(from)
      .filter((r) => r.path.includes(model) || r.body?.model === model)
      .filter((r) => r.method === 'POST');
}

const texts = (n: number) => Array.from({ length: n }, (_, i) => `text number ${i} about cars`);

describe.each(['gemini', 'openai-compatible'] as const)('%s embedder', (kind) => {
  it('answers one vector per text, in order, the same for the same text', async () => {
    const sent = requestsFor('embed@order');
    const vectors = await embedder(kind, 'embed@order').embed(['a car', 'a doctor', 'a car']);
    expect(vectors).toEqual(['a car', 'a doctor', 'a car'].map(fakeEmbedding));
    expect(vectors[0]).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(sent()).toHaveLength(1);
  });

  it('is keyed by provider and model, and sends batches of at most batchSize', async () => {
    const e = embedder(kind, 'embed@batches');
    expect(e.key).toBe(`p-${kind}/embed@batches`);
    expect(e.batchSize).toBe(kind === 'gemini' ? 100 : 64);
    const sent = requestsFor('embed@batches');
    const input = texts(e.batchSize * 2 + 3);
    const vectors = await e.embed(input);
    expect(vectors).toEqual(input.map(fakeEmbedding));
    const sizes = sent().map((r) => (kind === 'gemini' ? r.body.requests : r.body.input).length);
    expect(sizes).toEqual([e.batchSize, e.batchSize, 3]);
  });

  it('sends the key in a header only, never in the URL or the body', async () => {
    const sent = requestsFor('embed@key');
    await embedder(kind, 'embed@key').embed(['hello']);
    const [request] = sent();
    expect(request!.path).not.toContain(KEY);
    expect(JSON.stringify(request!.body)).not.toContain(KEY);
    if (kind === 'gemini') expect(request!.headers['x-goog-api-key']).toBe(KEY);
    else expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('sends nothing for no texts', async () => {
    const sent = requestsFor('embed@none');
    expect(await embedder(kind, 'embed@none').embed([])).toEqual([]);
    expect(sent()).toEqual([]);
  });

  it('retries a rate limit and a server error, then answers', async () => {
    for (const model of ['embed-429-then-ok', 'embed-500-then-ok']) {
      const sent = requestsFor(`${model}@${kind}`);
      expect(await embedder(kind, `${model}@${kind}`).embed(['one'])).toEqual([
        fakeEmbedding('one'),
      ]);
      expect(sent()).toHaveLength(2);
    }
  });

  it.each([
    ['embed-status-503', 'MODEL_UNAVAILABLE', /is unavailable \(HTTP 503\) after 4 attempts/],
    ['embed-status-400', 'MODEL_BAD_REQUEST', /rejected the request \(HTTP 400\)/],
    ['no-such-model', 'MODEL_BAD_REQUEST', /does not know the model "no-such-model"/],
    ['embed-short', 'MODEL_BAD_RESPONSE', /sent 1 vectors for 2 texts/],
    ['embed-not-numbers', 'MODEL_BAD_RESPONSE', /a vector that is not a list of numbers/],
    ['embed-dims', 'MODEL_BAD_RESPONSE', /vectors of different dimensions \(64 and 63\)/],
    ['embed-cut', 'MODEL_STREAM_TRUNCATED', /closed the connection before the answer/],
  ])('%s: a clear error naming the provider (%s)', async (model, code, message) => {
    const error = await rejectionOf(embedder(kind, `${model}`).embed(['one', 'two']));
    expect(error.name).toBe('ModelError');
    expect((error as Error & { code: string }).code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(kind === 'gemini' ? 'My Gemini' : 'My Ollama');
  });

  it('never shows a key the server quotes back', async () => {
    const error = await rejectionOf(embedder(kind, 'embed-401-echo').embed(['x']));
    expect((error as Error & { code: string }).code).toBe('MODEL_AUTH');
    expect(error.message).toContain('rejected the API key (HTTP 401)');
    expect(error.message).toContain('***');
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('stops on abort, during a request and before one', async () => {
    const stop = new AbortController();
    const pending = embedder(kind, 'embed-hang').embed(['x'], { signal: stop.signal });
    setTimeout(() => stop.abort(), 50);
    expect((await rejectionOf(pending)).name).toBe('AbortError');
    const sent = requestsFor('embed@aborted');
    const error = await rejectionOf(
      embedder(kind, 'embed@aborted').embed(['x'], { signal: AbortSignal.abort() }),
    );
    expect(error.name).toBe('AbortError');
    expect(sent()).toEqual([]);
  });
});

describe('Gemini embedder', () => {
  it('asks for document or query vectors, naming the model in each request', async () => {
    const sent = requestsFor('embed@task');
    const e = embedder('gemini', 'embed@task');
    await e.embed(['a document']);
    await e.embed(['a question?'], { purpose: 'query' });
    const [doc, query] = sent();
    expect(doc!.path).toBe('/v1beta/models/embed%40task:batchEmbedContents'.replace('%40', '@'));
    expect(doc!.body.requests).toEqual([
      {
        model: 'models/embed@task',
        content: { parts: [{ text: 'a document' }] },
        taskType: 'RETRIEVAL_DOCUMENT',
      },
    ]);
    expect(query!.body.requests[0].taskType).toBe('RETRIEVAL_QUERY');
  });

  it('needs a key', () => {
    expect(() => embedder('gemini', 'embed', '')).toThrow(/My Gemini \(Gemini\) needs an API key/);
  });
});

describe('OpenAI-compatible embedder', () => {
  it('puts vectors in the order of their indexes', async () => {
    const input = texts(5);
    expect(await embedder('openai-compatible', 'embed-shuffled').embed(input)).toEqual(
      input.map(fakeEmbedding),
    );
  });

  it('sends no authorization without a key', async () => {
    const sent = requestsFor('embed@nokey');
    await embedder('openai-compatible', 'embed@nokey', '').embed(['x']);
    expect(sent()[0]!.headers.authorization).toBeUndefined();
    expect(sent()[0]!.body).toEqual({ model: 'embed@nokey', input: ['x'] });
  });
});

describe('embedderFor', () => {
  it('wants a model name, and no local model', () => {
    expect(() => embedderFor(provider('gemini'), '  ')).toThrow(
      'Choose an embedding model of My Gemini for this base',
    );
    const local: ProviderSpec = { ...provider('gemini'), kind: 'local-gguf', name: 'Tiny' };
    expect(() => embedderFor(local, 'tiny.gguf')).toThrow(/Tiny is a local model/);
  });

  it('offers a default model per kind', () => {
    expect(DEFAULT_EMBEDDING_MODELS).toEqual({
      gemini: 'gemini-embedding-001',
      'openai-compatible': 'text-embedding-3-small',
      'local-gguf': '',
    });
  });

  it('the fake vectors match a paraphrase better than another subject', () => {
    const cos = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
    const car = fakeEmbedding('how to buy a car');
    expect(cos(car, fakeEmbedding('purchase an automobile'))).toBeGreaterThan(
      cos(car, fakeEmbedding('the physician is in')),
    );
  });
});
