// The request behind a flow's HTTP node (Flowise V2's httpAgentflow): one fetch, bounded by a
// timeout and a size cap, stopped by the run's signal. Only fetch, AbortSignal and TextDecoder, so
// it runs in the runtime worker and in Node alike.

import { HttpNodeError } from '../core/errors.ts';
import { HTTP_METHODS, type HttpNode } from './flow.ts';

/** One request, its templates already filled: an HTTP node's request fields. */
export type HttpRequestSpec = Pick<
  HttpNode,
  'method' | 'url' | 'headers' | 'query' | 'bodyType' | 'body' | 'timeoutMs'
>;

export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
/** The most a response body may hold; past it the request fails and the connection is closed. */
export const MAX_HTTP_RESPONSE_BYTES = 5 * 1024 * 1024;
/** How much of an error status's body is read, and how much of it its message quotes. */
const ERROR_BODY_BYTES = 16 * 1024;
const ERROR_SNIPPET_CHARS = 300;
/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Headers fetch frames the request with itself: Node's fetch throws on them, browsers drop them. */
const FETCH_OWNED_HEADERS = new Set([
  'connection',
  'content-length',
  'expect',
  'host',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/** Headers whose values are no secret, so a quoted error body keeps them unmasked. */
const PLAIN_HEADERS = new Set(['accept', 'accept-language', 'content-type']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What fetch can put in a header value once its ends are trimmed: no CR, LF, NUL, nor past Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

interface PreparedRequest {
  url: URL;
  init: RequestInit & { headers: Headers };
  /** The URL as messages may show it: origin and path, no query or credentials. */
  where: string;
  timeoutMs: number;
  /** Values masked wherever a server's answer is quoted in a message. */
  secrets: string[];
}

/**
 * Sends `spec` and resolves with the response body: parsed JSON when the response's content type
 * is JSON (`application/json` or `…+json`), else its text. A JSON response that does not parse
 * resolves with its text, as Flowise's (axios's) silent parsing does.
 *
 * - An invalid spec (URL, method, header, body, timeout) sends nothing: HttpNodeError
 *   `invalid-request`.
 * - Stop (`signal`) rejects with an AbortError at any point, connecting or reading, and closes the
 *   connection; it is a cancellation, never an HttpNodeError.
 * - `timeoutMs` bounds the whole exchange, headers and body alike.
 * - The body is read as a stream and dropped once past MAX_HTTP_RESPONSE_BYTES.
 * - Every message names the URL by origin and path only, and a server's error body quoted in one
 *   has the request's header values, query values and credentials masked.
 */
export async function sendHttpRequest(
  spec: HttpRequestSpec,
  signal?: AbortSignal,
): Promise<unknown> {
  if (signal?.aborted) throw stopped(signal);
  const request = prepareRequest(spec);
  const { where, timeoutMs } = request;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop, { once: true });

  /** What a rejection of fetch (`reading` false) or of a body read means. */
  const failure = (error: unknown, reading: boolean): Error => {
    if (signal?.aborted) return stopped(signal);
    if (timedOut) {
      const what = reading ? 'the answer did not finish' : 'no answer';
      return new HttpNodeError('timeout', `${where}: ${what} within ${timeoutMs} ms`);
    }
    if (reading) {
      const message = `${where} closed the connection before its answer was complete`;
      return new HttpNodeError('cut-off', message, undefined, { cause: error });
    }
    // fetch rejects with a TypeError, and nothing more, when the network fails or CORS refuses:
    // a page is not told which, by design.
    if ((error as Error | null)?.name === 'TypeError') {
      const message = `could not reach ${where}: the network failed, or the server does not allow requests from this page (CORS)`;
      return new HttpNodeError('unreachable', message, undefined, { cause: error });
    }
    return error as Error;
  };

  try {
    let response: Response;
    try {
      response = await fetch(request.url, { ...request.init, signal: controller.signal });
    } catch (error) {
      throw failure(error, false);
    }
    if (response.status >= 400) {
      const quoted = await readText(response, ERROR_BODY_BYTES).then(
        ({ text }) => text,
        (error: unknown) => {
          const cause = failure(error, true);
          if (cause.name === 'AbortError') throw cause;
          return ''; // the status alone still says what went wrong
        },
      );
      throw statusError(response, quoted, request);
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_HTTP_RESPONSE_BYTES) {
      // Why ignore: the answer is refused either way; cancelling only closes the connection.
      response.body?.cancel().catch(() => {});
      throw tooLarge(where);
    }
    let body: { text: string; over: boolean };
    try {
      body = await readText(response, MAX_HTTP_RESPONSE_BYTES);
    } catch (error) {
      throw failure(error, true);
    }
    if (body.over) throw tooLarge(where);
    if (!isJsonType(response.headers.get('content-type'))) return body.text;
    try {
      return JSON.parse(body.text) as unknown;
    } catch {
      return body.text; // a server that mislabels its answer still answered: keep what it said
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

/** The request `spec` describes, checked through before anything is sent. */
function prepareRequest(spec: HttpRequestSpec): PreparedRequest {
  const url = parseUrl(spec.url);
  const where = `${url.origin}${url.pathname}`;
  const secrets: string[] = [];
  if (!(HTTP_METHODS as readonly string[]).includes(spec.method)) {
    throw invalid(`${JSON.stringify(String(spec.method).slice(0, 20))} is not an HTTP method`);
  }
  const timeoutMs = spec.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw invalid(`the timeout must be a positive number of milliseconds, not ${timeoutMs}`);
  }
  for (const value of url.searchParams.values()) secrets.push(value);
  for (const [key, value] of Object.entries(spec.query ?? {})) {
    if (key === '') continue; // an empty row of the node's form
    url.searchParams.append(key, value);
    secrets.push(value);
  }
  url.hash = '';

  const headers = new Headers({ accept: 'application/json, text/plain, */*' });
  for (const [rawName, rawValue] of Object.entries(spec.headers ?? {})) {
    const name = rawName.trim();
    if (name === '') continue; // an empty row of the node's form
    const shown = JSON.stringify(name.slice(0, 40));
    if (!TOKEN.test(name)) throw invalid(`${shown} is not a valid header name`);
    if (FETCH_OWNED_HEADERS.has(name.toLowerCase())) {
      throw invalid(`the header ${shown} is set by the browser itself and cannot be given`);
    }
    // fetch trims a value's ends itself; what it refuses inside is refused here first, with a
    // message that does not quote the value (it may be a key).
    const value = String(rawValue).replace(HTTP_WHITESPACE, '');
    if (!HEADER_VALUE.test(value)) {
      throw invalid(
        `the value of header ${shown} holds a line break or a character headers cannot carry`,
      );
    }
    headers.set(name, value);
    // The value, and what follows its scheme (`Bearer <token>`), as a server may echo either.
    if (!PLAIN_HEADERS.has(name.toLowerCase())) secrets.push(value, ...value.split(/\s+/).slice(1));
  }
  // fetch refuses a URL with credentials; send them as axios (and curl) do, as Basic auth.
  if (url.username !== '' || url.password !== '') {
    const user = decoded(url.username);
    const password = decoded(url.password);
    const basic = basicAuth(user, password);
    secrets.push(user, password, url.username, url.password, basic, basic.slice('Basic '.length));
    if (!headers.has('authorization')) headers.set('authorization', basic);
    url.username = '';
    url.password = '';
  }

  const init: PreparedRequest['init'] = { method: spec.method, headers };
  const payload = requestBody(spec);
  if (payload) {
    init.body = payload.body;
    if (!headers.has('content-type')) headers.set('content-type', payload.contentType);
  }
  return { url, init, where, timeoutMs: Math.min(timeoutMs, MAX_TIMEOUT_MS), secrets };
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    // The text is not quoted: it may hold a key in its query.
    throw invalid('the URL is not a valid absolute URL (http://… or https://…)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`only http: and https: URLs can be requested, not ${url.protocol.slice(0, 20)}`);
  }
  return url;
}

/**
 * The body to send and its default content type, or undefined for none. A GET never has one and a
 * blank body is not sent (Flowise skips both).
 */
function requestBody(spec: HttpRequestSpec): { body: string; contentType: string } | undefined {
  const text = spec.body ?? '';
  const type = spec.bodyType ?? 'none';
  if (spec.method === 'GET' || type === 'none' || text.trim() === '') return undefined;
  switch (type) {
    case 'json':
      parseJsonBody(text, 'The JSON body');
      return { body: text, contentType: 'application/json' };
    case 'form':
      return { body: formBody(text), contentType: 'application/x-www-form-urlencoded' };
    case 'text':
      return { body: text, contentType: 'text/plain; charset=utf-8' };
    default: {
      const unknown: never = type;
      throw invalid(`${JSON.stringify(String(unknown).slice(0, 20))} is not a body type`);
    }
  }
}

/** A form body: a JSON object, or `key=value` lines (blank lines skipped), URL-encoded. */
function formBody(text: string): string {
  const params = new URLSearchParams();
  if (text.trim().startsWith('{')) {
    const object = parseJsonBody(text, 'The form body');
    if (typeof object !== 'object' || object === null || Array.isArray(object)) {
      throw invalid('the form body must be a JSON object or key=value lines');
    }
    for (const [key, value] of Object.entries(object)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        params.append(key, formValue(item));
      }
    }
    return params.toString();
  }
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const equals = line.indexOf('=');
    // The line is not quoted: it may hold a key.
    if (equals < 1) throw invalid(`line ${index + 1} of the form body is not key=value`);
    params.append(line.slice(0, equals).trim(), line.slice(equals + 1).trim());
  });
  return params.toString();
}

function formValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** JSON.parse, its failure told by position only (V8 quotes the text, which may hold a key). */
function parseJsonBody(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const position = /at position \d+/.exec((error as Error).message)?.[0];
    throw invalid(`${what} is not valid JSON${position ? ` (${position})` : ''}`);
  }
}

/**
 * The body as text, read as a stream and cut at `maxBytes` (`over` then true); the connection is
 * closed as soon as reading stops, finished or not.
 */
async function readText(
  response: Response,
  maxBytes: number,
): Promise<{ text: string; over: boolean }> {
  const decoder = textDecoderFor(response.headers.get('content-type'));
  if (!response.body) return { text: '', over: false };
  const reader = response.body.getReader();
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), over: false };
      const room = maxBytes - size;
      if (value.byteLength > room) {
        return { text: text + decoder.decode(value.subarray(0, room)), over: true };
      }
      size += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    // Why ignore: cancelling a finished or failed stream has nothing left to report.
    reader.cancel().catch(() => {});
  }
}

/** A decoder for the charset the content type names, UTF-8 when it names none or an unknown one. */
function textDecoderFor(contentType: string | null): TextDecoder {
  const charset = /;\s*charset="?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8'); // an unknown label: UTF-8 is the web's default
  }
}

function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function statusError(response: Response, body: string, request: PreparedRequest): HttpNodeError {
  const { status } = response;
  const { secrets } = request;
  // Masked before it is cut, so that no part of a secret is left at the cut.
  const flat = mask(body, secrets).replace(/\s+/g, ' ').trim();
  const snippet =
    flat.length > ERROR_SNIPPET_CHARS ? `${flat.slice(0, ERROR_SNIPPET_CHARS)}…` : flat;
  const statusText = mask(response.statusText, secrets);
  const said = `${status}${statusText ? ` ${statusText}` : ''}${snippet ? `: ${snippet}` : ''}`;
  return new HttpNodeError('status', `${request.where} answered ${said}`, status);
}

/**
 * `text` with every secret of six characters or more replaced by `***`, longest first. Shorter
 * ones are left: masking `json` or `en` wherever they occur would garble the message, and keys
 * are long.
 */
function mask(text: string, secrets: readonly string[]): string {
  const masked = [...new Set(secrets)].filter((s) => s.length >= 6);
  masked.sort((a, b) => b.length - a.length);
  return masked.reduce((result, secret) => result.split(secret).join('***'), text);
}

function tooLarge(where: string): HttpNodeError {
  const mb = MAX_HTTP_RESPONSE_BYTES / (1024 * 1024);
  return new HttpNodeError(
    'too-large',
    `${where} sent more than ${mb} MB: an HTTP node reads at most ${mb} MB`,
  );
}

function invalid(problem: string): HttpNodeError {
  return new HttpNodeError('invalid-request', `Invalid HTTP request: ${problem}`);
}

/** The run's stop as an AbortError: the signal's reason when it is one, else a fresh one. */
function stopped(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if ((reason as Error | undefined)?.name === 'AbortError') return reason as Error;
  return new DOMException('The HTTP request was stopped', 'AbortError');
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a stray % is kept as written
  }
}

/** `Basic base64(user:password)` of the UTF-8 bytes (btoa alone takes Latin-1 only). */
function basicAuth(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}
