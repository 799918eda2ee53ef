// Any server that speaks OpenAI's chat completions: Ollama, LM Studio, llama.cpp server, vLLM,
// OpenRouter, OpenAI itself. fetch alone, so it runs in the app's worker as in Node.

import { trimEnd } from '../core/text.ts';
import { ModelError } from '../core/errors.ts';
import { MODEL_ERROR_CODES, streamedError, type FailureContext } from './model-errors.ts';
import {
  badResponse,
  parseStreamChunk,
  sendModelRequest,
  type HttpModelOptions,
  type ModelHttpResponse,
} from './model-http.ts';
import { BaseLlm, type GenerateOptions, type LlmRequest, type LlmResponse } from './llm.ts';
import { OpenAiAnswer, toOpenAiRequest, type OpenAiChunk } from './openai-wire.ts';
import { sseEvents } from './sse.ts';

export interface OpenAiCompatibleModelOptions extends HttpModelOptions {
  model: string;
  /** The API root that holds /chat/completions, e.g. 'http://localhost:11434/v1'. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; local servers usually need none. */
  apiKey?: string;
  /** How messages name the server ('Ollama', …); guessed from the base URL when absent. */
  providerName?: string;
}

export class OpenAiCompatibleModel extends BaseLlm {
  readonly providerName: string;
  private readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly http: HttpModelOptions;

  constructor(options: OpenAiCompatibleModelOptions) {
    super(options.model);
    this.baseUrl = trimEnd(options.baseUrl, '/');
    this.apiKey = options.apiKey || undefined;
    this.providerName = options.providerName ?? guessProviderName(this.baseUrl);
    this.http = options;
  }

  /**
   * Invariants:
   * - streaming yields one partial per chunk with text (only that chunk's text), then one final
   *   response with the whole text, every tool call (arguments parsed) and the usage;
   * - a stream that ends with neither a finish_reason nor `[DONE]` is MODEL_STREAM_TRUNCATED;
   * - an abort rejects with the AbortError itself, at any point.
   */
  override async *generateContentAsync(
    request: LlmRequest,
    stream = false,
    options: GenerateOptions = {},
  ): AsyncGenerator<LlmResponse, void> {
    const model = request.model ?? this.model;
    const context = this.context(model);
    const reply = await this.send(
      '/chat/completions',
      'POST',
      context,
      options,
      toOpenAiRequest(request, model, stream),
    );
    const answer = new OpenAiAnswer(context);
    if (!stream || reply.isJson) {
      const json = (await reply.json()) as OpenAiChunk;
      if (json.error) throw streamedError(json, context);
      answer.add(json);
      if (!answer.answered) throw badResponse(context, 'an answer without any choice');
      yield answer.final();
      return;
    }
    let done = false;
    for await (const event of sseEvents(reply.chunks())) {
      if (event.data.trim() === '[DONE]') {
        done = true;
        break;
      }
      const chunk = parseStreamChunk<OpenAiChunk>(event.data, context);
      if (chunk.error) throw streamedError(chunk, context);
      const fresh = answer.add(chunk);
      if (fresh.length > 0) yield { content: { role: 'model', parts: fresh }, partial: true };
    }
    if (!done && !answer.finished) {
      throw new ModelError(
        `The answer from ${this.providerName} stopped before it was complete (the stream ended without a finish). Try again.`,
        MODEL_ERROR_CODES.truncated,
      );
    }
    yield answer.final();
  }

  /** The ids of the models the server offers (GET /models). */
  async listModels(options: GenerateOptions = {}): Promise<string[]> {
    const context = this.context(undefined);
    const reply = await this.send('/models', 'GET', context, options);
    const json = (await reply.json()) as { data?: { id?: unknown }[] };
    if (!Array.isArray(json.data)) throw badResponse(context, 'a model list without data');
    return json.data.map((model) => model.id).filter((id): id is string => typeof id === 'string');
  }

  private context(model: string | undefined): FailureContext {
    return {
      provider: this.providerName,
      ...(model !== undefined ? { model } : {}),
      hasKey: this.apiKey !== undefined,
      secrets: this.apiKey ? [this.apiKey] : [],
    };
  }

  private send(
    path: string,
    method: 'GET' | 'POST',
    context: FailureContext,
    { signal, onWait }: GenerateOptions,
    body?: unknown,
  ): Promise<ModelHttpResponse> {
    return sendModelRequest(
      {
        url: this.baseUrl + path,
        method,
        headers: this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {},
        ...(body !== undefined ? { body } : {}),
        context,
        ...(signal ? { signal } : {}),
        onWait,
      },
      this.http,
    );
  }
}

/** A name for messages: the well-known hosts and local servers' default ports, else the host. */
export function guessProviderName(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'OpenAI-compatible server';
  }
  if (url.hostname === 'api.openai.com') return 'OpenAI';
  if (url.hostname.endsWith('openrouter.ai')) return 'OpenRouter';
  if (url.port === '11434') return 'Ollama';
  if (url.port === '1234') return 'LM Studio';
  return `OpenAI-compatible server at ${url.host}`;
}
