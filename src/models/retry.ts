// When to try a provider again: exponential backoff with jitter, or the server's own Retry-After.

/** The longest we wait between two attempts, whatever the server asks for. */
export const MAX_RETRY_DELAY_MS = 60_000;

export interface RetryPolicy {
  /** Attempts after the first one (default 3). */
  maxRetries: number;
  /** The first wait; each next one doubles (default 500 ms). */
  retryBaseMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, retryBaseMs: 500 };

/**
 * The wait before retry number `retry` (0 for the first retry): the server's Retry-After when it
 * sent one, else `base × 2^retry` with up to 25% jitter (so that many tabs do not retry in step).
 * Capped at MAX_RETRY_DELAY_MS either way.
 */
export function retryDelayMs(
  retry: number,
  policy: RetryPolicy,
  retryAfter: string | null,
  now = Date.now(),
): number {
  const asked = parseRetryAfter(retryAfter, now);
  const backoff = policy.retryBaseMs * 2 ** retry * (1 - Math.random() * 0.25);
  return Math.min(asked ?? backoff, MAX_RETRY_DELAY_MS);
}

/** A Retry-After header in milliseconds: delay-seconds or an HTTP date; undefined if neither. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
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
