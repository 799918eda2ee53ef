// A GGUF model running in the browser (llama.cpp in WebAssembly, through wllama). The engine is
// injected, so this file knows nothing of where the model file comes from or which worker runs
// it: the app hands it a wllama with the user's file loaded, tests a fake or the tiny test model.
//
// Tools: a small model does not reliably follow a tool-calling format, so when the request has
// tools its reply is held by a grammar (gguf-grammar.ts) to either plain text or exactly
// `{"name": <a tool>, "arguments": <that tool's schema>}`, which becomes a functionCall part.
// Structured output (`responseSchema`) uses the same kind of grammar.

import type { Part } from '../../core/content.ts';
import type { UsageMetadata } from '../../core/event.ts';
import { ModelError } from '../../core/errors.ts';
import { newFunctionCallId } from '../../core/ids.ts';
import { BaseLlm, type GenerateOptions, type LlmRequest, type LlmResponse } from '../llm.ts';
import { MODEL_ERROR_CODES } from '../model-errors.ts';
import { toChatMessages, type LocalChatMessage } from './chat-messages.ts';
import {
  CAUTIOUS_CHARS_PER_TOKEN,
  contextOverflow,
  droppedTurnsNote,
  fitToContext,
  replyRoom,
  type ContextFit,
} from './context-fit.ts';
import { DEFAULT_REPLY_TOKENS } from './local-context.ts';
import { parseToolCall, schemaGrammar, toolGrammar } from './gguf-grammar.ts';

export { toChatMessages, type LocalChatMessage };

export interface LocalChatParams {
  messages: LocalChatMessage[];
  stream: true;
  abortSignal?: AbortSignal;
  grammar?: string;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  /** Called with each chunk as it comes. */
  onData: (chunk: LocalChatChunk) => void;
}

export interface LocalChatChunk {
  choices: { delta: { content?: string | null }; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  /** llama.cpp's counts, on the last chunk of a stream (wllama sends no `usage` when streaming). */
  timings?: { prompt_n: number; cache_n: number; predicted_n: number };
}

/**
 * What the model needs of wllama: a chat completion, streamed to `onData`, formatted with the
 * GGUF's chat template; the promise settles when it ends (rejects on abort). `Wllama` itself
 * has this shape. (Not wllama's async-iterator form: stopped early, it leaves the abort's
 * rejection unhandled.)
 */
export interface LocalChatEngine {
  createChatCompletion(params: LocalChatParams): Promise<void>;
  /**
   * The tokens a request (its prompt and its reply) may fill, when known: the context the model
   * was loaded with, or the one it was trained for if that is less (llama.cpp's limit).
   */
  readonly contextTokens?: number;
}

export interface LocalGgufModelOptions {
  /** The name events record as the model version (the file's name, say). */
  model: string;
  /** A loaded engine, or how to get one (the app loads the file on first use). */
  engine: LocalChatEngine | (() => Promise<LocalChatEngine>);
  /** Longest reply, in tokens. */
  maxTokens?: number;
  temperature?: number;
  /**
   * How many tools it may call in one turn (since the user's last message) before it must
   * answer in text. Small models tend to call the same tool again and again; this ends it.
   */
  maxToolCallsPerTurn?: number;
}

export class LocalGgufModel extends BaseLlm {
  private readonly options: LocalGgufModelOptions;
  private engine: Promise<LocalChatEngine> | undefined;
  /** The model's characters per token, from its own counts of the prompts it was sent. */
  private charsPerToken = CAUTIOUS_CHARS_PER_TOKEN;
  /** The end of the queue: one generation at a time, as the engine runs one context. */
  private queue: Promise<void> = Promise.resolve();

  constructor(options: LocalGgufModelOptions) {
    super(options.model);
    this.options = options;
  }

  /**
   * Invariants:
   * - requests run one at a time, in the order they came; one that is aborted while it waits
   *   leaves the queue without running;
   * - streaming yields text as it comes, except for a tool call, which is only yielded whole;
   * - the final response holds the whole text, or the call as a functionCall part;
   * - an abort rejects with an AbortError at once, whatever the engine is doing;
   * - a conversation longer than the context is sent without its oldest turns (context-fit.ts),
   *   and the answer carries a notice that says so; the request itself is left as it is.
   */
  override async *generateContentAsync(
    request: LlmRequest,
    stream = false,
    { signal }: GenerateOptions = {},
  ): AsyncGenerator<LlmResponse, void> {
    const release = await this.waitForTurn(signal);
    try {
      const engine = await abortable(this.loadEngine(), signal);
      // Tools it may still call this turn: none once it has made its calls.
      const tools = this.toolCallsLeft(request) > 0 ? (request.tools ?? []) : [];
      const grammar = requestGrammar(request, tools.length > 0);
      // The request's config (a chat's settings) over the model's own defaults.
      const { config } = request;
      const maxTokens = config?.maxOutputTokens ?? this.options.maxTokens ?? DEFAULT_REPLY_TOKENS;
      let context = engine.contextTokens;
      let fit = this.fit(request, context, maxTokens);
      for (let attempt = 1; ; attempt++) {
        const chunks = streamed(
          (onData) =>
            engine.createChatCompletion({
              messages: fit.messages,
              stream: true,
              max_tokens: maxTokens,
              temperature: config?.temperature ?? this.options.temperature ?? 0.2,
              ...(config?.topP !== undefined ? { top_p: config.topP } : {}),
              ...(grammar ? { grammar } : {}),
              ...(signal ? { abortSignal: signal } : {}),
              onData,
            }),
          signal,
        );
        let text = '';
        let usage: UsageMetadata | undefined;
        try {
          for await (const chunk of chunks) {
            const delta = chunk.choices[0]?.delta.content ?? '';
            usage = usageOf(chunk) ?? usage;
            if (!delta) continue;
            text += delta;
            // A reply that starts with "{" is a call (or schema JSON) being written: not shown.
            if (stream && !(tools.length > 0 && text.trimStart().startsWith('{')) && text.trim())
              yield { content: { role: 'model', parts: [{ text: delta }] }, partial: true };
          }
        } catch (error) {
          // Too long for the context after all: fitted again on the model's own count.
          const overflow = text === '' ? contextOverflow(error) : undefined;
          if (!overflow) throw error;
          this.learn(fit.chars, overflow.tokens);
          context = overflow.limit;
          const next = this.fit(request, context, maxTokens);
          if (next.droppedTurns <= fit.droppedTurns || attempt >= MAX_FITS)
            throw tooLongForContext(this.model, overflow);
          fit = next;
          continue;
        }
        if (usage?.promptTokenCount) this.learn(fit.chars, usage.promptTokenCount);
        yield {
          content: { role: 'model', parts: [replyPart(text, tools.length > 0)] },
          turnComplete: true,
          modelVersion: this.model,
          ...(usage ? { usageMetadata: usage } : {}),
          ...(fit.droppedTurns > 0 && context
            ? { notice: droppedTurnsNote(fit.droppedTurns, context) }
            : {}),
        };
        return;
      }
    } finally {
      release();
    }
  }

  /** Loads the engine now (Settings → Load) instead of on the first request, in turn with them. */
  async preload(): Promise<void> {
    const release = await this.waitForTurn(undefined);
    try {
      await this.loadEngine();
    } finally {
      release();
    }
  }

  /**
   * Lets go of the engine once the requests ahead of this call are done, and returns it (for the
   * caller to free: only it knows how); the next request loads one again.
   */
  async unload(): Promise<LocalChatEngine | undefined> {
    const release = await this.waitForTurn(undefined);
    try {
      const engine = this.engine;
      this.engine = undefined;
      // A failed load left nothing to free.
      return await engine?.catch(() => undefined);
    } finally {
      release();
    }
  }

  private loadEngine(): Promise<LocalChatEngine> {
    const { engine } = this.options;
    if (!this.engine) {
      this.engine = typeof engine === 'function' ? engine() : Promise.resolve(engine);
      // A failed load is tried again by the next request (the file may be back, memory freed).
      this.engine.catch(() => (this.engine = undefined));
    }
    return this.engine;
  }

  /** Waits until the requests ahead are done; the returned function lets the next one go. */
  private async waitForTurn(signal: AbortSignal | undefined): Promise<() => void> {
    const ahead = this.queue;
    let release!: () => void;
    this.queue = new Promise((resolve) => (release = resolve));
    try {
      await abortable(ahead, signal);
    } catch (error) {
      // Leaves the queue in order: the next one waits for those ahead of this one, not for it.
      void ahead.then(release);
      throw error;
    }
    return release;
  }

  /** The request's messages, fitted to `context` (all of them when it is not known). */
  private fit(request: LlmRequest, context: number | undefined, maxTokens: number): ContextFit {
    const promptTokens = context ? context - replyRoom(context, maxTokens) : Infinity;
    return fitToContext(request, { promptTokens, charsPerToken: this.charsPerToken });
  }

  /** Learns the model's rate from its count of a prompt (one of a few tokens says little). */
  private learn(chars: number, tokens: number): void {
    if (tokens >= MIN_TOKENS_TO_LEARN) this.charsPerToken = chars / tokens;
  }

  /** Calls left this turn: the limit less the calls since the user's last message. */
  private toolCallsLeft(request: LlmRequest): number {
    let calls = 0;
    for (let i = request.contents.length - 1; i >= 0; i--) {
      const content = request.contents[i]!;
      if (content.role === 'user' && content.parts.some((p) => p.text !== undefined)) break;
      if (content.role === 'model') calls += content.parts.filter((p) => p.functionCall).length;
    }
    return (this.options.maxToolCallsPerTurn ?? 4) - calls;
  }
}

/** How many times a request is fitted again after the model said it was too long. */
const MAX_FITS = 4;
/** The fewest tokens a prompt has for its count to set the rate. */
const MIN_TOKENS_TO_LEARN = 32;

/** The error of a request whose last turn alone is longer than the model's context. */
function tooLongForContext(model: string, { tokens, limit }: { tokens: number; limit: number }) {
  return new ModelError(
    `This turn is too long for ${model}: its request is ${tokens.toLocaleString('en-US')} tokens, ` +
      `and the model's context is ${limit.toLocaleString('en-US')}, even with every older turn left out. ` +
      'Raise the context size in Settings → Providers (up to the model’s own), or start a new session with a shorter message.',
    'LOCAL_MODEL_CONTEXT',
  );
}

function usageOf({ usage, timings }: LocalChatChunk): UsageMetadata | undefined {
  if (usage)
    return {
      promptTokenCount: usage.prompt_tokens,
      candidatesTokenCount: usage.completion_tokens,
      totalTokenCount: usage.total_tokens,
    };
  if (!timings) return undefined;
  // The prompt's tokens are those computed now and those reused from the cache.
  const prompt = timings.prompt_n + timings.cache_n;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: timings.predicted_n,
    totalTokenCount: prompt + timings.predicted_n,
  };
}

/** The grammar for this request, or none when the reply is free text. */
function requestGrammar(request: LlmRequest, mayCall: boolean): string | undefined {
  const schema = request.responseSchema ? { responseSchema: request.responseSchema } : {};
  if (mayCall) return toolGrammar({ tools: request.tools ?? [], allowText: true, ...schema });
  // Out of calls: text that cannot pass for a call (or the schema's JSON).
  if (request.tools?.length) return toolGrammar({ tools: [], allowText: true, ...schema });
  return request.responseSchema ? schemaGrammar(request.responseSchema) : undefined;
}

/** The reply as a part: a call when it is one, else its text. */
function replyPart(text: string, hadTools: boolean): Part {
  const call = hadTools ? parseToolCall(text) : undefined;
  if (call)
    return { functionCall: { id: newFunctionCallId(), name: call.name, args: call.arguments } };
  if (hadTools && text.trimStart().startsWith('{') && !text.trim().endsWith('}')) {
    throw new ModelError(
      'The local model stopped in the middle of a tool call (it reached its longest reply). Try again, or raise the reply length.',
      MODEL_ERROR_CODES.truncated,
    );
  }
  return { text };
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === 'AbortError'
    ? reason
    : new DOMException('The request was aborted', 'AbortError');
}

/** The promise, or an AbortError as soon as `signal` aborts (the work itself goes on). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? abortError(signal) : error);
      },
    );
  });
}

/**
 * The chunks a completion sends to its callback, as they come; an AbortError as soon as
 * `signal` aborts (not at the next chunk). The completion's own end is always handled, so its
 * rejection after an abort is never left unhandled.
 */
async function* streamed(
  start: (onData: (chunk: LocalChatChunk) => void) => Promise<void>,
  signal: AbortSignal | undefined,
): AsyncGenerator<LocalChatChunk, void> {
  const queue: LocalChatChunk[] = [];
  let wake: (() => void) | undefined;
  let end: { failed: boolean; error?: unknown } | undefined;
  let completion: Promise<void>;
  try {
    completion = start((chunk) => {
      queue.push(chunk);
      wake?.();
    });
  } catch (error) {
    completion = Promise.reject(error);
  }
  completion.then(
    () => {
      end = { failed: false };
      wake?.();
    },
    (error: unknown) => {
      end = { failed: true, error };
      wake?.();
    },
  );
  for (;;) {
    const chunk = queue.shift();
    if (chunk) {
      yield chunk;
      continue;
    }
    if (end?.failed) throw signal?.aborted ? abortError(signal) : end.error;
    if (end) return;
    await abortable(new Promise<void>((resolve) => (wake = resolve)), signal);
    wake = undefined;
  }
}
