// Trimming the ends of text a user or a model wrote, in linear time.

import { describe, expect, it } from 'vitest';
import { trimEnd, trimStart } from '../../src/core/text.ts';
import { GeminiModel, OpenAiCompatibleModel } from '../../src/index.ts';
import { matchScenario } from '../../src/flows/scenarios.ts';

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

  it('takes a base URL with a long run of slashes', () => {
    const slashes = '/'.repeat(200_000);
    expect(
      new OpenAiCompatibleModel({ model: 'm', baseUrl: `http://h/v1${slashes}` }).baseUrl,
    ).toBe('http://h/v1');
    expect(
      new GeminiModel({ model: 'm', apiKey: 'k', baseUrl: `http://h/v1beta${slashes}` }).baseUrl,
    ).toBe('http://h/v1beta');
  });
});
