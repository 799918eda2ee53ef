// The HTTP side of every provider: one request with retries, an idle watchdog and cancellation,
// and the body read as bytes, text or JSON. Only `fetch`, so it runs in the worker and in Node.

import { ModelError } from '../core/errors.ts';
import type { ModelWait } from '../core/model-wait.ts';
import {
  MODEL_ERROR_CODES,
  ModelUnreachableError,
  httpStatusError,
  isRetryableStatus,
  redact,
  type FailureContext,
} from './model-errors.ts';
import {
  DEFAULT_RETRY_POLICY,
  MAX_RETRY_DELAY_MS,
  abortErrorOf,
  askedDelayMs,
  retryDelayMs,
  sleep,
  type RetryPolicy,
} from './retry.ts';

/** Options every HTTP provider takes. */
export interface HttpModelOptions {
  /** Attempts after the first for rate limits, server errors and an unreachable server (3). */
  maxRetries?: number;
  /** The first wait between attempts, doubled each time (500 ms). */
  retryBaseMs?: number;
  /** The first wait after a rate limit that does not say how long, doubled each time (5 s). */
  rateLimitBaseMs?: number;
  /** Give up when the server sends nothing for this long, headers or body (60 000 ms). */
  idleTimeoutMs?: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface ModelHttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  context: FailureContext;
  signal?: AbortSignal;
  /** Told before each wait for another attempt (the chat counts down to it). */
  onWait?: ((wait: ModelWait) => void) | undefined;
}

/**
 * Sends `request`, retrying 429, 408 and 5xx answers (after what the server asked for, or a
 * backoff) and network failures, until it gets a 2xx response or runs out of attempts.
 *
 * - Each wait is told to `onWait` first. A server that asks for longer than MAX_RETRY_DELAY_MS
 *   is not retried: its error says how long it asked for.
 * - An abort rejects at once with the AbortError, whether waiting, connecting or reading.
 * - Each attempt has its own watchdog: no bytes for `idleTimeoutMs` ends it with MODEL_TIMEOUT.
 * - Messages never hold the key: it travels in a header, and provider messages are redacted.
 */
export async function sendModelRequest(
  request: ModelHttpRequest,
  options: HttpModelOptions,
): Promise<ModelHttpResponse> {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_RETRY_POLICY.retryBaseMs,
    rateLimitBaseMs: options.rateLimitBaseMs ?? DEFAULT_RETRY_POLICY.rateLimitBaseMs,
  };
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const { signal, context } = request;
  checkUrl(request.url, context);
  const wait = async (attempt: number, delayMs: number, how: Partial<ModelWait> = {}) => {
    request.onWait?.({
      provider: context.provider,
      reason: 'unreachable',
      ...how,
      attempt: attempt + 1,
      attempts: policy.maxRetries + 1,
      delayMs,
      until: Date.now() + delayMs,
      asked: how.asked ?? false,
      maxDelayMs: MAX_RETRY_DELAY_MS,
    });
    await sleep(delayMs, signal);
  };
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortErrorOf(signal);
    const watchdog = new Watchdog(idleMs, context, signal);
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: {
          ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...request.headers,
        },
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        signal: watchdog.signal,
      });
    } catch (error) {
      watchdog.stop();
      const known = watchdog.failure();
      if (known) throw known;
      if (attempt > policy.maxRetries) {
        throw new ModelUnreachableError(context.provider, request.url, attempt, {
          cause: error,
        });
      }
      await wait(attempt, retryDelayMs(attempt - 1, policy));
      continue;
    }
    const reply = new ModelHttpResponse(response, watchdog, context);
    if (response.ok) return reply;
    const body = await reply.text().catch((error: unknown) => {
      if ((error as Error | null)?.name === 'AbortError') throw error;
      return ''; // the status alone still says what went wrong
    });
    const { status } = response;
    const asked = askedDelayMs(response.headers.get('retry-after'), body);
    const tooLong = asked !== undefined && asked > MAX_RETRY_DELAY_MS;
    if (!isRetryableStatus(status) || attempt > policy.maxRetries || tooLong) {
      throw httpStatusError(status, body, context, attempt, tooLong ? asked : undefined);
    }
    await wait(attempt, retryDelayMs(attempt - 1, policy, { status, asked }), {
      reason: status === 429 ? 'rate-limited' : 'unavailable',
      status,
      asked: asked !== undefined,
    });
  }
}

/** A 2xx (or error) response whose body is read under the request's watchdog. */
export class ModelHttpResponse {
  constructor(
    readonly response: Response,
    private readonly watchdog: Watchdog,
    private readonly context: FailureContext,
  ) {}

  /**
   * Whether a whole JSON answer came where a stream was asked for: some servers ignore `stream`
   * in some modes (with tools, say), and their answer is still an answer.
   */
  get isJson(): boolean {
    return (this.response.headers.get('content-type') ?? '').includes('application/json');
  }

  /**
   * The body's bytes as they arrive. Stopping early (break, return, a throw) closes the
   * connection, so an abandoned stream does not keep a socket open.
   */
  async *chunks(): AsyncGenerator<Uint8Array, void> {
    const body = this.response.body;
    if (!body) return this.watchdog.stop();
    const reader = body.getReader();
    this.watchdog.onFire(() => void reader.cancel().catch(ignore));
    try {
      for (;;) {
        this.watchdog.arm();
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          throw this.watchdog.failure() ?? this.cutOff(error);
        }
        const failure = this.watchdog.failure();
        if (failure) throw failure;
        if (result.done) return;
        yield result.value;
      }
    } finally {
      this.watchdog.stop();
      // Why ignore: cancelling a finished or already failed stream has nothing left to report.
      reader.cancel().catch(ignore);
    }
  }

  async text(): Promise<string> {
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of this.chunks()) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  }

  /** The body as JSON; anything else is a MODEL_BAD_RESPONSE. */
  async json(): Promise<unknown> {
    const text = await this.text();
    try {
      return JSON.parse(text);
    } catch (error) {
      throw badResponse(this.context, 'an answer that is not valid JSON', error);
    }
  }

  private cutOff(error: unknown): ModelError {
    return new ModelError(
      `${this.context.provider} closed the connection before the answer was complete. Try again.`,
      MODEL_ERROR_CODES.truncated,
      { cause: error },
    );
  }
}

/** A ModelError for an answer we cannot read. `what` says what was wrong (no secrets). */
export function badResponse(context: FailureContext, what: string, cause?: unknown): ModelError {
  return new ModelError(
    redact(
      `${context.provider} sent ${what}. Try again; if it persists, try another model.`,
      context.secrets,
    ),
    MODEL_ERROR_CODES.badResponse,
    cause === undefined ? undefined : { cause },
  );
}

/** One `data:` payload of a stream, which both providers fill with a JSON object. */
export function parseStreamChunk<T extends object>(data: string, context: FailureContext): T {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch (error) {
    throw badResponse(context, 'a malformed stream chunk (not JSON)', error);
  }
  if (typeof chunk !== 'object' || chunk === null || Array.isArray(chunk)) {
    throw badResponse(context, 'a malformed stream chunk (not a JSON object)');
  }
  return chunk as T;
}

/**
 * One attempt's cancellation: the caller's signal and the idle timer both abort the fetch.
 * `failure()` says which one did (the AbortError, or a MODEL_TIMEOUT), or nothing.
 */
class Watchdog {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private idle = false;
  private fire: (() => void) | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly context: FailureContext,
    private readonly outer: AbortSignal | undefined,
  ) {
    outer?.addEventListener('abort', this.onAbort, { once: true });
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Also run `fire` when the request is cut (to end a pending read at once). */
  onFire(fire: () => void): void {
    this.fire = fire;
  }

  /** (Re)starts the idle timer: called whenever bytes arrive. */
  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.idle = true;
      this.cut();
    }, this.idleMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onAbort);
  }

  failure(): Error | undefined {
    if (this.outer?.aborted) return abortErrorOf(this.outer);
    if (!this.idle) return undefined;
    const seconds = Math.round(this.idleMs / 100) / 10;
    return new ModelError(
      `${this.context.provider} sent nothing for ${seconds} s, so the request was dropped. ` +
        'The run stopped; resume it to try again.',
      MODEL_ERROR_CODES.timeout,
    );
  }

  private readonly onAbort = () => this.cut();

  private cut(): void {
    this.controller.abort();
    this.fire?.();
  }
}

function checkUrl(url: string, context: FailureContext): void {
  try {
    new URL(url);
  } catch {
    throw new ModelError(
      `The address of ${context.provider} is not a valid URL: ${redact(url, context.secrets)}. Check the base URL in Settings → Providers.`,
      MODEL_ERROR_CODES.badRequest,
    );
  }
}

function ignore(): void {}
