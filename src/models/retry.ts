// When to try a provider again: exponential backoff with jitter, or the server's own Retry-After.

/**
 * The longest the app waits between two attempts. A provider that asks for longer (a quota
 * spent for the hour, say) is not retried: the run stops at once, saying until when, and the
 * chat offers Retry.
 */
export const MAX_RETRY_DELAY_MS = 60_000;

export interface RetryPolicy {
  /** Attempts after the first one (default 3). */
  maxRetries: number;
  /** The first wait; each next one doubles (default 500 ms). */
  retryBaseMs: number;
  /**
   * The first wait after a rate limit (HTTP 429) that does not say how long (default 5 s): half
   * a second, as for a server error, is too soon for a quota to come back.
   */
  rateLimitBaseMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  retryBaseMs: 500,
  rateLimitBaseMs: 5_000,
};

/**
 * The wait before retry number `retry` (0 for the first retry): what the server asked for
 * (`asked`, see askedDelayMs) when it said, else `base × 2^retry` with up to 25% jitter (so that
 * many tabs do not retry in step), where the base is longer for a rate limit. Capped at
 * MAX_RETRY_DELAY_MS (a caller does not retry a server asking for longer).
 */
export function retryDelayMs(
  retry: number,
  policy: RetryPolicy,
  { status, asked }: { status?: number; asked?: number | undefined } = {},
): number {
  const base = status === 429 ? policy.rateLimitBaseMs : policy.retryBaseMs;
  const backoff = base * 2 ** retry * (1 - Math.random() * 0.25);
  return Math.min(asked ?? backoff, MAX_RETRY_DELAY_MS);
}

/**
 * How long the server asked to wait, in milliseconds: its Retry-After header, else the wait its
 * error body names (Google's `RetryInfo.retryDelay`, "31s"; OpenAI's "Please try again in 20s").
 * The body matters in a browser: a provider on another origin that does not list Retry-After in
 * Access-Control-Expose-Headers hides the header from the app (`headers.get` says null).
 */
export function askedDelayMs(
  retryAfter: string | null,
  body = '',
  now = Date.now(),
): number | undefined {
  return parseRetryAfter(retryAfter, now) ?? delayInBody(body);
}

/** A Retry-After header in milliseconds: delay-seconds or an HTTP date; undefined if neither. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration as Go and Google write it ("31s", "1.5s", "6m0s", "250ms"), in milliseconds. */
function durationMs(text: string): number | undefined {
  const pieces = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (pieces.length === 0 || pieces.map((piece) => piece[0]).join('') !== text) return undefined;
  return pieces.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNIT_MS[unit!]!, 0);
}

function delayInBody(body: string): number | undefined {
  if (!body) return undefined;
  const google = /"retryDelay"\s*:\s*"([^"]+)"/.exec(body)?.[1];
  const openAi = /try again in ((?:\d+(?:\.\d+)?(?:ms|s|m|h))+)/i.exec(body)?.[1];
  const text = google ?? openAi;
  return text === undefined ? undefined : durationMs(text);
}

/** Waits `ms`, or rejects with the AbortError as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortErrorOf(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortErrorOf(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The error an aborted request rejects with: the signal's reason when it is an AbortError, else
 * a fresh one, because callers treat exactly `name === 'AbortError'` as cancellation.
 */
export function abortErrorOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if ((reason as Error | undefined)?.name === 'AbortError') return reason as Error;
  return new DOMException(
    typeof reason === 'string' ? reason : 'The model request was cancelled',
    'AbortError',
  );
}
