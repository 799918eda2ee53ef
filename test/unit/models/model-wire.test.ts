// The pure pieces under the providers: the SSE parser, Retry-After, how provider errors read,
// and Gemini's schema subset.

import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from '../../../src/models/gemini-wire.ts';
import {
  httpStatusError,
  providerMessageOf,
  redact,
  type FailureContext,
} from '../../../src/models/model-errors.ts';
import {
  MAX_RETRY_DELAY_MS,
  askedDelayMs,
  parseRetryAfter,
  retryDelayMs,
} from '../../../src/models/retry.ts';
import { SseParser, type SseEvent } from '../../../src/models/sse.ts';

function parseInPieces(text: string, cut: number[]): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let start = 0;
  for (const end of [...cut, text.length]) {
    events.push(...parser.push(text.slice(start, end)));
    start = end;
  }
  return [...events, ...parser.end()];
}

describe('SseParser', () => {
  const transcript =
    ': keep-alive\r\n' +
    'data: {"a":1}\r\n\r\n' +
    'event: error\ndata: line one\ndata: line two\n\n' +
    'data:no-space\r\rdata: [DONE]\n\n';
  const expected = [
    { event: 'message', data: '{"a":1}' },
    { event: 'error', data: 'line one\nline two' },
    { event: 'message', data: 'no-space' },
    { event: 'message', data: '[DONE]' },
  ];

  it('reads CRLF, LF and CR line ends, comments, event names and multi-line data', () => {
    expect(parseInPieces(transcript, [])).toEqual(expected);
  });

  it('gives the same events however the bytes are cut (mid-line, inside a CRLF)', () => {
    for (let i = 1; i < transcript.length; i++) {
      expect(parseInPieces(transcript, [i])).toEqual(expected);
    }
  });

  it('delivers a last event that lacks its blank line, but drops a half line', () => {
    expect(parseInPieces('data: a\n\ndata: b\n', [])).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
    expect(parseInPieces('data: a\n\ndata: {"cut', [])).toEqual([{ event: 'message', data: 'a' }]);
  });
});

describe('Retry-After and backoff', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it.each([
    ['2', 2000],
    ['0', 0],
    ['1.5', 1500],
    ['Sun, 01 Jun 2025 12:00:30 GMT', 30_000],
    ['Sun, 01 Jun 2025 11:00:00 GMT', 0],
    ['soon', undefined],
  ])('reads %j as %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it('waits what the server asked, and otherwise doubles the base with some jitter', () => {
    const policy = { maxRetries: 3, retryBaseMs: 100, rateLimitBaseMs: 5000 };
    expect(retryDelayMs(0, policy, { status: 429, asked: 3000 })).toBe(3000);
    expect(retryDelayMs(0, policy, { status: 503, asked: 3_600_000 })).toBe(MAX_RETRY_DELAY_MS);
    const third = retryDelayMs(2, policy, { status: 503 });
    expect(third).toBeGreaterThan(300);
    expect(third).toBeLessThanOrEqual(400);
  });

  it('waits seconds, not half a second, after a rate limit that does not say how long', () => {
    const policy = { maxRetries: 3, retryBaseMs: 500, rateLimitBaseMs: 5000 };
    // Before: 500 ms, 1 s and 2 s: four attempts in 3.5 s against a server that asked for 20 s.
    const waits = [0, 1, 2].map((retry) => retryDelayMs(retry, policy, { status: 429 }));
    expect(waits[0]).toBeGreaterThan(3750);
    expect(waits[1]).toBeGreaterThan(7500);
    expect(waits[2]).toBeGreaterThan(15_000);
    expect(retryDelayMs(0, policy, { status: 500 })).toBeLessThanOrEqual(500);
  });

  it.each([
    ['the header, in seconds', '20', '', 20_000],
    ['the header, as a date', 'Sun, 01 Jun 2025 12:00:30 GMT', '', 30_000],
    ['the header before the body', '2', '"retryDelay": "31s"', 2000],
    [
      "Google's RetryInfo, when the header is hidden",
      null,
      '{"error":{"code":429,"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"31s"}]}}',
      31_000,
    ],
    ['RetryInfo in fractions', null, '{"retryDelay": "1.5s"}', 1500],
    ["OpenAI's words", null, '{"error":{"message":"… Please try again in 20s. Visit …"}}', 20_000],
    ["OpenAI's words, minutes", null, 'Please try again in 6m0s.', 360_000],
    ["OpenAI's words, milliseconds", null, 'Please try again in 250ms.', 250],
    ['nothing', null, '{"error":{"message":"slow down"}}', undefined],
    ['a header that is no delay, nor a body', 'soon', '', undefined],
  ])('reads how long the server asked to wait from %s', (_, header, body, ms) => {
    expect(askedDelayMs(header, body, now)).toBe(ms);
  });
});

describe('provider errors', () => {
  const context: FailureContext = {
    provider: 'Ollama',
    model: 'llama3',
    hasKey: true,
    secrets: ['sk-secret'],
  };

  it.each([
    ['Google / OpenAI / llama.cpp', '{"error":{"code":400,"message":"bad thing"}}', 'bad thing'],
    ['Ollama', '{"error":"model \\"x\\" not found"}', 'model "x" not found'],
    ['vLLM', '{"object":"error","message":"engine down","code":503}', 'engine down'],
    ['a streamed array', '[{"error":{"message":"quota"}}]', 'quota'],
    ['plain text', 'Bad Gateway', 'Bad Gateway'],
    ['an HTML page', '<html><body>502</body></html>', ''],
  ])('finds the provider’s message in %s', (_, body, message) => {
    expect(providerMessageOf(body)).toBe(message);
  });

  it('never shows a secret, even when the provider echoes it', () => {
    const error = httpStatusError(
      403,
      '{"error":{"message":"key sk-secret is disabled"}}',
      context,
    );
    expect(error.message).not.toContain('sk-secret');
    expect(error.message).toContain('key *** is disabled');
    expect(redact('a sk-secret b sk-secret', ['sk-secret', ''])).toBe('a *** b ***');
  });

  it.each([
    [401, 'MODEL_AUTH', 'Ollama rejected the API key (HTTP 401)'],
    [403, 'MODEL_AUTH', 'Check the key in Settings → Providers'],
    [404, 'MODEL_BAD_REQUEST', 'Ollama does not know the model "llama3" (HTTP 404)'],
    [400, 'MODEL_BAD_REQUEST', 'Ollama rejected the request (HTTP 400)'],
    [429, 'MODEL_RATE_LIMITED', 'Ollama is limiting requests (HTTP 429)'],
    [503, 'MODEL_UNAVAILABLE', 'Ollama is unavailable (HTTP 503)'],
  ])('HTTP %i is %s', (status, code, message) => {
    const error = httpStatusError(status, '', context);
    expect(error).toMatchObject({ name: 'ModelError', code });
    expect(error.message).toContain(message);
  });

  it('asks for a key when none was sent', () => {
    expect(httpStatusError(401, '', { ...context, hasKey: false }).message).toContain(
      'Ollama asks for an API key (HTTP 401)',
    );
  });
});

describe('toGeminiSchema', () => {
  it('keeps Gemini’s subset and drops what it would reject', () => {
    expect(
      toGeminiSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: {
          city: { type: 'string', description: 'A city', minLength: 1, format: 'hostname' },
          unit: { enum: ['C', 'F'] },
          days: { type: ['integer', 'null'], minimum: 1 },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
          level: { type: 'integer', enum: [1, 2] },
          either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        },
        required: ['city', 'ghost'],
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: {
        city: { type: 'STRING', description: 'A city', minLength: 1 },
        unit: { type: 'STRING', enum: ['C', 'F'] },
        days: { type: 'INTEGER', nullable: true, minimum: 1 },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: 3 },
        level: { type: 'INTEGER', description: '(one of 1, 2)' },
        either: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      },
      required: ['city'],
    });
  });
});
