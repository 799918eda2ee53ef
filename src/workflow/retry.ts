// Retries of a failing workflow node, by ADK 2.0's rules: how many, which errors, how long to
// wait between attempts.

/** Retries of a node that fails (ADK's `RetryConfig`; delays in seconds). */
export interface RetryConfig {
  /** Attempts in all, the first included (default 5). */
  maxAttempts?: number;
  initialDelay?: number;
  maxDelay?: number;
  backoffFactor?: number;
  /** ± this share of the delay, at random (default 1). */
  jitter?: number;
  /** Retry only these errors (class names or classes); any error when absent. */
  exceptions?: readonly (string | (new (...args: never[]) => Error))[];
}

/** ADK's retry rule: up to maxAttempts (5), for the errors named (any when none are). */
export function shouldRetry(error: unknown, retry: RetryConfig, attempt: number): boolean {
  if (attempt >= (retry.maxAttempts ?? 5)) return false;
  if (!retry.exceptions) return true;
  const names = new Set<string>();
  if (error instanceof Error) {
    names.add(error.constructor.name);
    names.add(error.name);
  }
  return retry.exceptions.some((e) => names.has(typeof e === 'string' ? e : e.name));
}

/** ADK's backoff: initialDelay × backoffFactor^(attempt−1), capped, with ± jitter. */
export function retryDelaySeconds(retry: RetryConfig, attempt: number): number {
  const initial = retry.initialDelay ?? 1;
  const max = retry.maxDelay ?? 60;
  const jitter = retry.jitter ?? 1;
  let delay = initial * Math.pow(retry.backoffFactor ?? 2, Math.max(0, attempt - 1));
  if (jitter > 0) {
    delay = Math.min(delay, max / (1 + jitter));
    const spread = jitter * delay;
    delay = Math.max(0, delay - spread + Math.random() * 2 * spread);
  }
  return Math.min(delay, max);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
