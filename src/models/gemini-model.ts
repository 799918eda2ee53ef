// Gemini through the Google Generative Language REST API, with fetch alone (no SDK), so that it
// runs in the app's worker as in Node. The key travels in a header, never in the URL.

import { trimEnd } from '../core/text.ts';
import { MODEL_ERROR_CODES, streamedError, type FailureContext } from './model-errors.ts';
import {
  badResponse,
  parseStreamChunk,
  sendModelRequest,
  type HttpModelOptions,
  type ModelHttpResponse,
} from './model-http.ts';
import { GeminiAnswer, toGeminiRequest, type GeminiResponse } from './gemini-wire.ts';
import { BaseLlm, type GenerateOptions, type LlmRequest, type LlmResponse } from './llm.ts';
import { sseEvents } from './sse.ts';
import { ModelError } from '../core/errors.ts';

export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

export interface GeminiModelOptions extends HttpModelOptions {
  /** e.g. 'gemini-2.5-flash' (a 'models/' prefix is fine too). */
  model: string;
  apiKey: string;
  /** The API root, up to and including the version (default GEMINI_BASE_URL). */
  baseUrl?: string;
}

const PROVIDER = 'Gemini';

export class GeminiModel extends BaseLlm {
  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly http: HttpModelOptions;

  constructor(options: GeminiModelOptions) {
    super(options.model);
    this.apiKey = options.apiKey;
    this.baseUrl = trimEnd(options.baseUrl ?? GEMINI_BASE_URL, '/');
    this.http = options;
  }

  /**
   * Invariants:
   * - streaming yields one partial per chunk that has text (only that chunk's text), then one
   *   final response with everything; without streaming, only the final response;
   * - a stream that ends before Gemini's finishReason is MODEL_STREAM_TRUNCATED, never an answer;
   * - an abort rejects with the AbortError itself, at any point.
   */
  override async *generateContentAsync(
    request: LlmRequest,
    stream = false,
    options: GenerateOptions = {},
  ): AsyncGenerator<LlmResponse, void> {
    const model = request.model ?? this.model;
    const context = this.context(model);
    const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    const reply = await this.send(
      `${this.baseUrl}/${modelPath(model)}:${method}`,
      'POST',
      context,
      options,
      toGeminiRequest(request),
    );
    const answer = new GeminiAnswer();
    if (!stream || reply.isJson) {
      const json = (await reply.json()) as GeminiResponse;
      if (json.error) throw streamedError(json, context);
      answer.add(json);
      if (!answer.answered) throw badResponse(context, 'an answer without any candidate');
      yield answer.final();
      return;
    }
    for await (const event of sseEvents(reply.chunks())) {
      const chunk = parseStreamChunk<GeminiResponse>(event.data, context);
      if (chunk.error) throw streamedError(chunk, context);
      const fresh = answer.add(chunk);
      if (fresh.length > 0) yield { content: { role: 'model', parts: fresh }, partial: true };
    }
    if (!answer.finished) {
      throw new ModelError(
        'The answer from Gemini stopped before it was complete (the stream ended without a finish reason). Try again.',
        MODEL_ERROR_CODES.truncated,
      );
    }
    yield answer.final();
  }

  /** The models this key may call with generateContent, by name (e.g. 'gemini-2.5-flash'). */
  async listModels(options: GenerateOptions = {}): Promise<string[]> {
    const context = this.context(undefined);
    const names: string[] = [];
    let pageToken = '';
    // Bounded: a server that keeps returning a page token must not loop forever.
    for (let page = 0; page < 20; page++) {
      const query = `pageSize=1000${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
      const reply = await this.send(`${this.baseUrl}/models?${query}`, 'GET', context, options);
      const json = (await reply.json()) as ModelList;
      if (!Array.isArray(json.models)) throw badResponse(context, 'a model list without models');
      for (const model of json.models) {
        if (model.supportedGenerationMethods?.includes('generateContent') && model.name) {
          names.push(model.name.replace(/^models\//, ''));
        }
      }
      if (!json.nextPageToken) break;
      pageToken = json.nextPageToken;
    }
    return names;
  }

  private context(model: string | undefined): FailureContext {
    return {
      provider: PROVIDER,
      ...(model !== undefined ? { model } : {}),
      hasKey: this.apiKey !== '',
      secrets: [this.apiKey],
    };
  }

  private send(
    url: string,
    method: 'GET' | 'POST',
    context: FailureContext,
    { signal, onWait }: GenerateOptions,
    body?: unknown,
  ): Promise<ModelHttpResponse> {
    return sendModelRequest(
      {
        url,
        method,
        headers: { 'x-goog-api-key': this.apiKey },
        ...(body !== undefined ? { body } : {}),
        context,
        ...(signal ? { signal } : {}),
        onWait,
      },
      this.http,
    );
  }
}

interface ModelList {
  models?: { name?: string; supportedGenerationMethods?: string[] }[];
  nextPageToken?: string;
}

/** 'gemini-x' → 'models/gemini-x'; names that already say their collection stay as they are. */
export function modelPath(model: string): string {
  return /^(models|tunedModels)\//.test(model) ? model : `models/${model}`;
}
