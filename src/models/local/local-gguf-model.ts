// A GGUF model running in the browser (llama.cpp in WebAssembly, through wllama). The engine is
// injected, so this file knows nothing of where the model file comes from or which worker runs
// it: the app hands it a wllama with the user's file loaded, tests a fake or the tiny test model.
//
// Tools: a small model does not reliably follow a tool-calling format, so when the request has
// tools its reply is held by a grammar (gguf-grammar.ts) to either plain text or exactly
// `{"name": <a tool>, "arguments": <that tool's schema>}`, which becomes a functionCall part.
// Structured output (`responseSchema`) uses the same kind of grammar.

import { type Content, type Part } from '../../core/content.ts';
import type { UsageMetadata } from '../../core/event.ts';
import { ModelError } from '../../core/errors.ts';
import { newFunctionCallId } from '../../core/ids.ts';
import { BaseLlm, type GenerateOptions, type LlmRequest, type LlmResponse } from '../llm.ts';
import { MODEL_ERROR_CODES } from '../model-errors.ts';
import { parseToolCall, schemaGrammar, toolGrammar } from './gguf-grammar.ts';

/** A chat message as the model's own chat template (in the GGUF) formats it. */
export interface LocalChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LocalChatParams {
  messages: LocalChatMessage[];
  stream: true;
  abortSignal?: AbortSignal;
  grammar?: string;
  max_tokens?: number;
  temperature?: number;
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
   * - an abort rejects with an AbortError at once, whatever the engine is doing.
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
      const chunks = streamed(
        (onData) =>
          engine.createChatCompletion({
            messages: toChatMessages(request),
            stream: true,
            max_tokens: this.options.maxTokens ?? 1024,
            temperature: this.options.temperature ?? 0.2,
            ...(grammar ? { grammar } : {}),
            ...(signal ? { abortSignal: signal } : {}),
            onData,
          }),
        signal,
      );
      let text = '';
      let usage: UsageMetadata | undefined;
      for await (const chunk of chunks) {
        const delta = chunk.choices[0]?.delta.content ?? '';
        usage = usageOf(chunk) ?? usage;
        if (!delta) continue;
        text += delta;
        // A reply that starts with "{" is a call (or schema JSON) being written: not shown in parts.
        if (stream && !(tools.length > 0 && text.trimStart().startsWith('{')) && text.trim())
          yield { content: { role: 'model', parts: [{ text: delta }] }, partial: true };
      }
      yield {
        content: { role: 'model', parts: [replyPart(text, tools.length > 0)] },
        turnComplete: true,
        modelVersion: this.model,
        ...(usage ? { usageMetadata: usage } : {}),
      };
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

/**
 * The conversation as the chat template's messages. Templates differ in what they accept
 * (Gemma's rejects a tool role, and two messages in a row from one side), so calls are written
 * as the assistant's JSON, results as the user's text, and messages in a row from one side are
 * joined. The tools are described in the system message.
 */
export function toChatMessages(request: LlmRequest): LocalChatMessage[] {
  const messages: LocalChatMessage[] = [];
  const push = (role: LocalChatMessage['role'], content: string) => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) last.content += `\n\n${content}`;
    else messages.push({ role, content });
  };
  const system = [request.systemInstruction, toolsPreamble(request)].filter(Boolean).join('\n\n');
  if (system) push('system', system);
  for (const content of request.contents) {
    const text = contentText(content);
    if (text) push(content.role === 'model' ? 'assistant' : 'user', text);
  }
  return messages;
}

function contentText(content: Content): string {
  const pieces: string[] = [];
  for (const part of content.parts) {
    if (part.thought) continue;
    if (part.functionCall) {
      const { name, args } = part.functionCall;
      pieces.push(JSON.stringify({ name, arguments: args ?? {} }));
    } else if (part.functionResponse) {
      const { name, response } = part.functionResponse;
      pieces.push(`Result of ${name}: ${JSON.stringify(response)}`);
    } else if (part.text !== undefined) pieces.push(part.text);
    else if (part.inlineData)
      pieces.push(`[${part.inlineData.mimeType} attachment: a local model cannot read it]`);
  }
  return pieces.join('\n');
}

function toolsPreamble(request: LlmRequest): string {
  const tools = request.tools ?? [];
  if (tools.length === 0) return '';
  const list = tools.map(
    (tool) =>
      `- ${tool.name}${tool.description ? `: ${tool.description}` : ''}\n  arguments: ${JSON.stringify(tool.parameters ?? {})}`,
  );
  return (
    'You can call tools. To call one, reply with only {"name": "<tool>", "arguments": {...}}; ' +
    "the tool's result comes back in the next message. Otherwise answer in plain text.\n" +
    `Tools:\n${list.join('\n')}`
  );
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === 'AbortError'
    ? reason
    : new DOMException('The request was aborted', 'AbortError');
}

/** The promise, or an AbortError as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
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
