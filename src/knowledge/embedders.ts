// Embedders over the user's providers (Settings → Providers): Gemini's batchEmbedContents and an
// OpenAI-compatible /embeddings (OpenAI, Ollama, LM Studio, llama.cpp server, vLLM…). A local
// GGUF's embedder runs in the worker, over wllama (workers/local-models/local-embedder.ts).
//
// What must stay true:
// - requests go through sendModelRequest, as the chat models' do: the same retries (429, 408,
//   5xx, an unreachable server), the same errors, the key only in a header and never in a
//   message (a key the server quotes back is redacted);
// - an answer is checked before it is used: one vector per text, in the texts' order, each of
//   finite numbers and all of one dimension (also across batches), else a MODEL_BAD_RESPONSE;
// - an abort rejects with the AbortError, between batches as during one.

import { InvalidRequestError } from '../core/errors.ts';
import { trimEnd } from '../core/text.ts';
import { modelPath } from '../models/gemini-model.ts';
import type { FailureContext } from '../models/model-errors.ts';
import { badResponse, sendModelRequest, type HttpModelOptions } from '../models/model-http.ts';
import type { ProviderKind, ProviderSpec } from '../models/provider-spec.ts';
import { abortErrorOf } from '../models/retry.ts';
import type { Embedder } from './types.ts';

/**
 * The embedding model a new base starts from, per kind of provider. Ollama and LM Studio users
 * type the one they pulled (nomic-embed-text, say); a local GGUF's model is its file.
 */
export const DEFAULT_EMBEDDING_MODELS: Readonly<Record<ProviderKind, string>> = {
  gemini: 'gemini-embedding-001',
  'openai-compatible': 'text-embedding-3-small',
  'local-gguf': '',
};

type Purpose = 'document' | 'query';

/** One request's worth: the texts in, their vectors out (in order, not yet checked). */
type EmbedBatch = (
  texts: string[],
  purpose: Purpose,
  context: FailureContext,
  signal: AbortSignal | undefined,
) => Promise<unknown[]>;

/** The embedder for `model` on `provider` (Gemini or OpenAI-compatible). */
export function embedderFor(
  provider: ProviderSpec,
  model: string,
  http: HttpModelOptions = {},
): Embedder {
  const name = model.trim();
  if (!name)
    throw new InvalidRequestError(`Choose an embedding model of ${provider.name} for this base`);
  const baseUrl = trimEnd(provider.baseUrl, '/');
  const apiKey = provider.apiKey || undefined;
  const context: FailureContext = {
    provider: provider.name,
    model: name,
    hasKey: apiKey !== undefined,
    secrets: apiKey ? [apiKey] : [],
  };
  const key = `${provider.id}/${name}`;
  switch (provider.kind) {
    case 'gemini': {
      if (!apiKey)
        throw new InvalidRequestError(
          `${provider.name} (Gemini) needs an API key: add one in Settings → Providers`,
        );
      const path = modelPath(name);
      const batch: EmbedBatch = async (texts, purpose, ctx, signal) => {
        const json = await postJson(
          `${baseUrl}/${path}:batchEmbedContents`,
          { 'x-goog-api-key': apiKey },
          {
            requests: texts.map((text) => ({
              model: path,
              content: { parts: [{ text }] },
              taskType: purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
            })),
          },
          ctx,
          signal,
          http,
        );
        const embeddings = (json as { embeddings?: unknown } | null)?.embeddings;
        if (!Array.isArray(embeddings)) throw badResponse(ctx, 'an answer without embeddings');
        return embeddings.map((item) => (item as { values?: unknown } | null)?.values);
      };
      return new HttpEmbedder(key, GEMINI_BATCH, context, batch);
    }
    case 'openai-compatible': {
      const batch: EmbedBatch = async (texts, _purpose, ctx, signal) => {
        const json = await postJson(
          `${baseUrl}/embeddings`,
          apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          { model: name, input: texts },
          ctx,
          signal,
          http,
        );
        const data = (json as { data?: unknown } | null)?.data;
        if (!Array.isArray(data)) throw badResponse(ctx, 'an answer without data');
        return inIndexOrder(data, texts.length, ctx);
      };
      return new HttpEmbedder(key, OPENAI_BATCH, context, batch);
    }
    case 'local-gguf':
      throw new InvalidRequestError(
        `${provider.name} is a local model: its embeddings are made in the app, from its file`,
      );
    default:
      throw new Error(`Unknown provider kind ${(provider as { kind: string }).kind}`);
  }
}

/** Gemini takes up to 100 requests in a batch. */
const GEMINI_BATCH = 100;
/** OpenAI takes more, but local servers embed a request at once: 64 keeps each one short. */
const OPENAI_BATCH = 64;

class HttpEmbedder implements Embedder {
  /** The dimension of the first answer: a model that changes it mid-base is not to be trusted. */
  private dimensions: number | undefined;

  constructor(
    readonly key: string,
    readonly batchSize: number,
    private readonly context: FailureContext,
    private readonly batch: EmbedBatch,
  ) {}

  async embed(
    texts: string[],
    { signal, purpose = 'document' }: { signal?: AbortSignal; purpose?: Purpose } = {},
  ): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      if (signal?.aborted) throw abortErrorOf(signal);
      const part = texts.slice(start, start + this.batchSize);
      const answer = await this.batch(part, purpose, this.context, signal);
      vectors.push(...checkedVectors(answer, part.length, this.context, this.dimensions));
      this.dimensions ??= vectors[0]?.length;
    }
    return vectors;
  }
}

/**
 * The vectors of an answer for `count` texts, once checked: one per text, each a list of finite
 * numbers, all of one dimension (`dimensions`, when earlier answers set it).
 */
export function checkedVectors(
  answer: unknown[],
  count: number,
  context: FailureContext,
  dimensions?: number,
): number[][] {
  if (answer.length !== count)
    throw badResponse(context, `${answer.length} vectors for ${count} texts`);
  let expected = dimensions;
  for (const vector of answer) {
    if (
      !Array.isArray(vector) ||
      vector.length === 0 ||
      !vector.every((value) => typeof value === 'number' && Number.isFinite(value))
    )
      throw badResponse(context, 'a vector that is not a list of numbers');
    expected ??= vector.length;
    if (vector.length !== expected)
      throw badResponse(
        context,
        `vectors of different dimensions (${expected} and ${vector.length})`,
      );
  }
  return answer as number[][];
}

/**
 * OpenAI's `data` by each item's `index` (OpenAI keeps the order, others need not). Items without
 * an index keep their order; indexes that are not each of 0…count-1 once are a bad answer.
 */
export function inIndexOrder(data: unknown[], count: number, context: FailureContext): unknown[] {
  const items = data as ({ index?: unknown; embedding?: unknown } | null)[];
  // A wrong count is reported as such by the caller (checkedVectors).
  if (items.length !== count || items.every((item) => item?.index === undefined))
    return items.map((item) => item?.embedding);
  const vectors: unknown[] = new Array<unknown>(count);
  for (const item of items) {
    const { index } = item ?? {};
    if (
      typeof index !== 'number' ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      index in vectors
    )
      throw badResponse(context, 'vectors whose indexes do not match the texts');
    vectors[index] = item!.embedding;
  }
  return vectors;
}

async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  context: FailureContext,
  signal: AbortSignal | undefined,
  http: HttpModelOptions,
): Promise<unknown> {
  const reply = await sendModelRequest(
    { url, method: 'POST', headers, body, context, ...(signal ? { signal } : {}) },
    http,
  );
  return reply.json();
}
