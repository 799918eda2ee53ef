// How a provider's failures read to the user. One place for every provider, so that a 401 from
// Gemini and one from Ollama say the same kind of thing, and the API key never leaks into them.

import { ModelError } from '../core/errors.ts';
import { MAX_RETRY_DELAY_MS } from './retry.ts';

/** The codes a provider failure carries (on ModelError and ModelUnreachableError). */
export const MODEL_ERROR_CODES = {
  auth: 'MODEL_AUTH',
  badRequest: 'MODEL_BAD_REQUEST',
  rateLimited: 'MODEL_RATE_LIMITED',
  unavailable: 'MODEL_UNAVAILABLE',
  unreachable: 'MODEL_UNREACHABLE',
  badResponse: 'MODEL_BAD_RESPONSE',
  truncated: 'MODEL_STREAM_TRUNCATED',
  timeout: 'MODEL_TIMEOUT',
} as const;

/**
 * The provider could not be reached at all: offline, DNS, connection refused, or (in a browser,
 * where it looks the same) a server that does not allow this origin. Nothing was answered, so
 * the run can be resumed as it was once the connection is back.
 */
export class ModelUnreachableError extends Error {
  override name = 'ModelUnreachableError' as const;
  readonly code = MODEL_ERROR_CODES.unreachable;
  constructor(
    readonly provider: string,
    readonly url: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(unreachableMessage(provider, url, attempts, options?.cause), options);
  }
}

/** What the request was, for messages that name what to fix. */
export interface FailureContext {
  provider: string;
  /** The model asked for (absent for listing models). */
  model?: string;
  /** Whether the request carried an API key (a 401 without one asks for a key). */
  hasKey: boolean;
  /** Strings to blank out of anything shown (the API key). */
  secrets: readonly string[];
}

/**
 * The ModelError for an HTTP failure that is not retried (or no longer). `askedMs`: the server
 * asked to wait that long, more than the app waits on its own, so it was not retried.
 */
export function httpStatusError(
  status: number,
  body: string,
  context: FailureContext,
  attempts = 1,
  askedMs?: number,
): ModelError {
  // Without its final period, since our own sentence goes on after it.
  const said = providerMessageOf(body, context.secrets).replace(/[.\s]+$/, '');
  const detail = said ? `: ${said}` : '';
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const { provider } = context;
  const asked =
    askedMs === undefined
      ? ''
      : ` and asks to wait ${durationText(askedMs)} (until ${clockTime(Date.now() + askedMs)}), ` +
        `longer than the ${durationText(MAX_RETRY_DELAY_MS)} the app waits on its own`;
  if (status === 401 || status === 403 || isInvalidKey(body)) {
    const what = context.hasKey
      ? `${provider} rejected the API key (HTTP ${status})${detail}. Check the key in Settings → Providers`
      : `${provider} asks for an API key (HTTP ${status})${detail}. Add one in Settings → Providers`;
    return new ModelError(what, MODEL_ERROR_CODES.auth);
  }
  if (status === 429) {
    return new ModelError(
      asked
        ? `${provider} is limiting requests (HTTP 429)${asked}${detail}. ` +
            'Retry after that, or check the quota of your plan.'
        : `${provider} is limiting requests (HTTP 429) and still was${tries}${detail}. ` +
            'Wait a little and retry, or check the quota of your plan.',
      MODEL_ERROR_CODES.rateLimited,
    );
  }
  if (status >= 500 || status === 408) {
    return new ModelError(
      `${provider} is unavailable (HTTP ${status})${asked || tries}${detail}. Try again later.`,
      MODEL_ERROR_CODES.unavailable,
    );
  }
  if (status === 404) {
    const subject = context.model
      ? `${provider} does not know the model "${context.model}"`
      : `${provider} found nothing at this address`;
    return new ModelError(
      `${subject} (HTTP 404)${detail}. Check the model name and the base URL in Settings → Providers.`,
      MODEL_ERROR_CODES.badRequest,
    );
  }
  return new ModelError(
    `${provider} rejected the request (HTTP ${status})${detail}`,
    MODEL_ERROR_CODES.badRequest,
  );
}

/** "45 s", "12 min", "2 h 5 min": a wait as the user reads it. */
export function durationText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** The hour and minute of `at` (ms since the epoch), in the user's own way of writing them. */
function clockTime(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** Whether a failed response is worth trying again (rate limits and server trouble). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * The provider's own words from an error body: Google's `{error: {message}}`, OpenAI's and
 * llama.cpp's (the same), Ollama's `{error: "…"}`, vLLM's `{message}`, a streamed `[{error}]`;
 * else a short plain-text body. Secrets are blanked out, since some providers echo the key.
 */
export function providerMessageOf(body: string, secrets: readonly string[] = []): string {
  let message = '';
  try {
    message = messageIn(JSON.parse(body));
  } catch {
    const text = body.trim();
    // An HTML error page (a proxy's, say) says nothing useful in one line.
    if (text && text.length <= 300 && !text.startsWith('<')) message = text;
  }
  return redact(message.trim(), secrets);
}

function messageIn(json: unknown): string {
  if (Array.isArray(json)) return json.length > 0 ? messageIn(json[0]) : '';
  if (typeof json !== 'object' || json === null) return typeof json === 'string' ? json : '';
  const { error, message, detail } = json as Record<string, unknown>;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) return messageIn(error);
  if (typeof message === 'string') return message;
  if (typeof detail === 'string') return detail;
  return '';
}

/** Google answers a wrong key with HTTP 400 and the reason API_KEY_INVALID, not with a 401. */
function isInvalidKey(body: string): boolean {
  return body.includes('API_KEY_INVALID');
}

/** The text with every secret replaced, so that no message, event or log shows a key. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('***');
  return out;
}

function unreachableMessage(
  provider: string,
  url: string,
  attempts: number,
  cause: unknown,
): string {
  let origin = url;
  let host = url;
  try {
    ({ origin, host } = new URL(url));
  } catch {
    // Why ignore: the caller checked the URL; the raw text still says where we tried.
  }
  // A provider named after its host ('… server at localhost:8080') need not say it twice.
  const where = provider.includes(host) ? '' : ` at ${origin}`;
  const tries = `${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}`;
  return (
    `Could not reach ${provider}${where} (${networkReason(cause)}${tries}). ` +
    'The run stopped; resume it once the connection is back. If the server is running, check ' +
    'its address in Settings → Providers and that it allows this app’s origin (CORS).'
  );
}

/** Node says why a connection failed (the cause's code); browsers say nothing, on purpose. */
function networkReason(error: unknown): string {
  const code = ((error as Error | undefined)?.cause as { code?: unknown } | undefined)?.code;
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'unknown host',
    EAI_AGAIN: 'no DNS answer',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
    ENETUNREACH: 'network unreachable',
  };
  const reason = typeof code === 'string' ? reasons[code] : undefined;
  return reason ? `${reason}, ` : '';
}

/**
 * An error the provider reported inside a 200 stream (`data: {"error": …}`): classified by its
 * HTTP-like code when it has one, else as the provider being unavailable. Never retried, since
 * part of the answer may already have been shown.
 */
export function streamedError(json: unknown, context: FailureContext): ModelError {
  const error = (json as { error?: { code?: unknown } } | null)?.error;
  const code = typeof error === 'object' && error !== null ? error.code : undefined;
  const body = JSON.stringify(json);
  if (typeof code === 'number' && code >= 400 && code < 600) {
    return httpStatusError(code, body, context);
  }
  const said = providerMessageOf(body, context.secrets);
  return new ModelError(
    `${context.provider} failed mid-answer${said ? `: ${said}` : ''}. Try again.`,
    MODEL_ERROR_CODES.unavailable,
  );
}
