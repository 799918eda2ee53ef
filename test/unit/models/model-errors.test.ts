// How both providers fail, over real HTTP: auth, unknown models, rate limits and outages (with
// retries), an unreachable server, broken, cut-off and stalled streams, and the Stop button.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GeminiModel,
  OpenAiCompatibleModel,
  createUserContent,
  type BaseLlm,
  type HttpModelOptions,
  type LlmRequest,
} from '../../../src/index.ts';
import type { ModelWait } from '../../../src/core/model-wait.ts';
import { MAX_RETRY_DELAY_MS } from '../../../src/models/retry.ts';
import { collect, rejectionOf } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

const apiKey = 'secret-key-4b1d';
let server: ModelServer;
beforeAll(async () => (server = await startModelServer()));
afterAll(() => server.close());

const request: LlmRequest = { contents: [createUserContent('Why is the sky blue?')] };

interface Provider {
  name: string;
  make(model: string, options?: HttpModelOptions, url?: string): BaseLlm;
}

const providers: Provider[] = [
  {
    name: 'Gemini',
    make: (model, options = {}, url = server.url) =>
      new GeminiModel({ model, apiKey, baseUrl: `${url}/v1beta`, retryBaseMs: 1, ...options }),
  },
  {
    name: 'LM Studio',
    make: (model, options = {}, url = server.url) =>
      new OpenAiCompatibleModel({
        model,
        apiKey,
        baseUrl: `${url}/v1`,
        providerName: 'LM Studio',
        retryBaseMs: 1,
        ...options,
      }),
  },
];

/** How many requests named this model reached the server. */
function requestsFor(model: string): number {
  return server.requests.filter(
    (r) => r.body?.model === model || r.path.includes(`/models/${model}:`),
  ).length;
}

async function failure(model: BaseLlm, stream = true, signal?: AbortSignal): Promise<Error> {
  return rejectionOf(
    collect(model.generateContentAsync(request, stream, signal ? { signal } : {})),
  );
}

/** Every text a failure could show: the message, and its causes. */
function shown(error: unknown): string {
  let text = '';
  for (let e = error as Error | undefined; e; e = e.cause as Error | undefined) {
    text += `${e.message}\n${e.stack ?? ''}\n`;
  }
  return text;
}

describe.each(providers)('$name failures', (provider) => {
  const tag = `@${provider.name.replace(' ', '')}`;

  it.each([
    ['fixture-401', 401],
    ['fixture-403', 403],
  ])(
    '%s: MODEL_AUTH, naming the provider and what to fix, without the key',
    async (name, status) => {
      const error = await failure(provider.make(name + tag));
      expect(error).toMatchObject({ name: 'ModelError', code: 'MODEL_AUTH' });
      expect(error.message).toContain(`${provider.name} rejected the API key (HTTP ${status})`);
      expect(error.message).toContain('Settings → Providers');
      expect(shown(error)).not.toContain(apiKey);
      expect(requestsFor(name + tag)).toBe(1); // not retried
    },
  );

  it('an unknown model: MODEL_BAD_REQUEST that names it, with the provider’s words', async () => {
    const error = await failure(provider.make('no-such-model'));
    expect(error).toMatchObject({ name: 'ModelError', code: 'MODEL_BAD_REQUEST' });
    expect(error.message).toContain(`does not know the model "no-such-model" (HTTP 404)`);
    expect(error.message).toMatch(/no-such-model"? (is )?not found/);
  });

  it.each(['fixture-429-then-ok', 'fixture-500-then-ok'])(
    '%s: retried, then answered',
    async (name) => {
      const responses = await collect(provider.make(name + tag).generateContentAsync(request));
      expect(responses.at(-1)!.content?.parts[0]?.text).toContain('The sky is blue');
      expect(requestsFor(name + tag)).toBe(2);
    },
  );

  it.each([
    [
      'fixture-429',
      'MODEL_RATE_LIMITED',
      `is limiting requests (HTTP 429) and still was after 3 attempts`,
    ],
    ['fixture-503', 'MODEL_UNAVAILABLE', 'is unavailable (HTTP 503) after 3 attempts'],
  ])('%s for good: %s after maxRetries', async (name, code, message) => {
    const error = await failure(provider.make(name + tag, { maxRetries: 2 }));
    expect(error).toMatchObject({ name: 'ModelError', code });
    expect(error.message).toContain(`${provider.name} ${message}`);
    expect(requestsFor(name + tag)).toBe(3);
  });

  it('waits what Retry-After asks before trying again, telling each wait first', async () => {
    const name = `fixture-429-wait-then-ok${tag}`;
    const waits: ModelWait[] = [];
    const responses = await collect(
      provider.make(name).generateContentAsync(request, true, { onWait: (w) => waits.push(w) }),
    );
    expect(responses.at(-1)!.content?.parts[0]?.text).toContain('The sky is blue');
    expect(waits).toEqual([
      {
        provider: provider.name,
        reason: 'rate-limited',
        status: 429,
        attempt: 2,
        attempts: 4,
        delayMs: 2000,
        until: expect.any(Number),
        asked: true,
        maxDelayMs: MAX_RETRY_DELAY_MS,
      },
    ]);
    const [first, second] = server.requests.filter(
      (r) => r.body?.model === name || r.path.includes(`/models/${name}:`),
    );
    // The second attempt went no sooner than asked (a lower bound the code promises, not a speed).
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1990);
  });

  it('does not retry a server asking for longer than the app waits: it says until when', async () => {
    const name = `fixture-429-hour-then-ok${tag}`;
    const waits: ModelWait[] = [];
    const error = await rejectionOf(
      collect(
        provider.make(name).generateContentAsync(request, true, { onWait: (w) => waits.push(w) }),
      ),
    );
    expect(error).toMatchObject({ name: 'ModelError', code: 'MODEL_RATE_LIMITED' });
    expect(error.message).toMatch(
      new RegExp(
        `^${provider.name} is limiting requests \\(HTTP 429\\) and asks to wait 60 min \\(until .+\\), longer than the 60 s the app waits on its own`,
      ),
    );
    expect(error.message).toContain('Retry after that');
    expect(waits).toEqual([]);
    expect(requestsFor(name)).toBe(1);
  });

  it('an unreachable server: ModelUnreachableError after maxRetries, saying the run can resume', async () => {
    const closed = await startModelServer();
    await closed.close(); // nothing listens on its port any more
    const error = await failure(provider.make('fixture-text', { maxRetries: 2 }, closed.url));
    expect(error).toMatchObject({
      name: 'ModelUnreachableError',
      code: 'MODEL_UNREACHABLE',
      attempts: 3,
    });
    expect(error.message).toContain(`Could not reach ${provider.name} at ${closed.url}`);
    expect(error.message).toContain('connection refused');
    expect(error.message).toContain('resume it once the connection is back');
    expect(shown(error)).not.toContain(apiKey);
  });

  it.each([
    ['fixture-malformed', true, 'MODEL_BAD_RESPONSE'],
    ['fixture-malformed', false, 'MODEL_BAD_RESPONSE'],
    ['fixture-truncated', true, 'MODEL_STREAM_TRUNCATED'],
    ['fixture-disconnect', true, 'MODEL_STREAM_TRUNCATED'],
    ['fixture-stream-error', true, 'MODEL_UNAVAILABLE'],
  ])('%s (streaming: %s): %s', async (name, stream, code) => {
    const error = await failure(provider.make(name), stream);
    expect(error).toMatchObject({ name: 'ModelError', code });
    expect(error.message).toContain(provider.name);
  });

  it.each(['fixture-stall', 'fixture-hang'])(
    '%s: MODEL_TIMEOUT once nothing came for idleTimeoutMs',
    async (name) => {
      const error = await failure(provider.make(name, { idleTimeoutMs: 150 }));
      expect(error).toMatchObject({ name: 'ModelError', code: 'MODEL_TIMEOUT' });
      expect(error.message).toContain(`${provider.name} sent nothing for 0.2 s`);
    },
  );

  it('Stop mid-stream: rejects with the AbortError itself', async () => {
    const controller = new AbortController();
    const stream = provider.make('fixture-stall').generateContentAsync(request, true, {
      signal: controller.signal,
    });
    const first = await stream.next();
    expect(first.value).toMatchObject({ partial: true, content: { parts: [{ text: 'The sky' }] } });
    const next = stream.next();
    controller.abort();
    const error = await rejectionOf(next);
    expect(error.name).toBe('AbortError');
    expect(error).toBe(controller.signal.reason);
  });

  it('Stop while waiting to retry: no further attempt', async () => {
    const name = `fixture-503${tag}-stop`;
    const controller = new AbortController();
    const pending = failure(provider.make(name, { retryBaseMs: 60_000 }), true, controller.signal);
    while (requestsFor(name) < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await pending).name).toBe('AbortError');
    expect(requestsFor(name)).toBe(1);
  });

  it('Stop before sending: nothing is sent', async () => {
    const error = await failure(
      provider.make(`fixture-text${tag}-never`),
      true,
      AbortSignal.abort(),
    );
    expect(error.name).toBe('AbortError');
    expect(requestsFor(`fixture-text${tag}-never`)).toBe(0);
  });
});

describe('Gemini-only failures', () => {
  it('a wrong key, which Google answers with HTTP 400 API_KEY_INVALID, is MODEL_AUTH', async () => {
    const error = await failure(providers[0]!.make('fixture-400-key'));
    expect(error).toMatchObject({ name: 'ModelError', code: 'MODEL_AUTH' });
    expect(error.message).toContain('API key not valid');
  });

  it('blanks out the key Google echoes in a 403', async () => {
    const error = await failure(providers[0]!.make('fixture-403@echo'));
    expect(error.message).toContain("Consumer 'api_key:***' has been suspended");
    expect(server.requests.at(-1)!.headers['x-goog-api-key']).toBe(apiKey);
  });
});

describe('OpenAI-compatible servers without a key', () => {
  it('asks for one on a 401', async () => {
    const model = new OpenAiCompatibleModel({ model: 'fixture-401', baseUrl: `${server.url}/v1` });
    const error = await failure(model);
    expect(error).toMatchObject({ code: 'MODEL_AUTH' });
    expect(error.message).toContain(
      `OpenAI-compatible server at ${server.url.slice(7)} asks for an API key (HTTP 401)`,
    );
  });
});
