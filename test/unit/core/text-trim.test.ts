// Trimming the ends of text a user or a model wrote, in linear time.

import { describe, expect, it } from 'vitest';
import { trimEnd, trimStart } from '../../../src/core/text.ts';
import { GeminiModel, OpenAiCompatibleModel } from '../../../src/index.ts';
import { matchScenario } from '../../../src/flows/scenarios.ts';
import { collect } from '../../support/helpers.ts';
import { startModelServer } from '../../support/model-server.ts';

describe('trimEnd and trimStart', () => {
  it.each([
    ['Resolved...', '.!?', 'Resolved'],
    ['...', '.', ''],
    ['', '.', ''],
    ['a.b.', '.', 'a.b'],
  ])('trimEnd(%j, %j) is %j', (text, set, expected) => {
    expect(trimEnd(text, set)).toBe(expected);
  });

  it('trims the start', () => {
    expect(trimStart('**"yes"', '*"')).toBe('yes"');
  });
});

describe('long runs that once took seconds', () => {
  const run = '.'.repeat(200_000);
  it('matches a scenario in an answer of 200,000 dots and a word', () => {
    expect(matchScenario(`${run}x resolved`, ['resolved', 'unresolved'])).toBe('resolved');
  });

  it('takes a base URL with a long run of slashes, and calls the server at the right path', async () => {
    const server = await startModelServer();
    try {
      const slashes = '/'.repeat(200_000);
      const ask = { contents: [{ role: 'user' as const, parts: [{ text: 'Hi' }] }] };
      await collect(
        new OpenAiCompatibleModel({
          model: 'fixture-text',
          baseUrl: `${server.url}/v1${slashes}`,
        }).generateContentAsync(ask),
      );
      expect(server.requests.at(-1)!.path).toBe('/v1/chat/completions');
      await collect(
        new GeminiModel({
          model: 'fixture-text',
          apiKey: 'k',
          baseUrl: `${server.url}/v1beta${slashes}`,
        }).generateContentAsync(ask),
      );
      expect(server.requests.at(-1)!.path).toBe('/v1beta/models/fixture-text:generateContent');
    } finally {
      await server.close();
    }
  });
});
