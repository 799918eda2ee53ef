// Voice as pure functions: the words Read aloud says for an answer's Markdown (no syntax read
// out as symbols), what dictation puts in the message box, and its errors in the user's words.

import { describe, expect, it } from 'vitest';
import { speechText } from '../../../src/ui/voice/speech-text.ts';
import { dictationError, heard, withDictated } from '../../../src/ui/voice/speech.ts';

describe('speechText', () => {
  it.each([
    [
      '# Title\n\nSome **bold** and *italic* and _under_ text.',
      'Title\n\nSome bold and italic and under text.',
    ],
    ['- one\n- two\n1. first\n* [x] done', 'one\ntwo\nfirst\ndone'],
    ['> quoted\n> > deeper', 'quoted\ndeeper'],
    ['See [the docs](https://example.com/x) and ![a cat](cat.png).', 'See the docs and a cat.'],
    ['Run `npm test` now', 'Run npm test now'],
    ['```ts\nconst a = 1;\n```\nafter', 'const a = 1;\nafter'],
    ['| a | b |\n|---|:-:|\n| 1 | 2 |', 'a, b\n1, 2'],
    ['above\n\n---\n\nbelow', 'above\n\nbelow'],
    ['~~gone~~ <b>html</b>', 'gone html'],
    ['snake_case_name and 2*3*4', 'snake_case_name and 2*3*4'],
  ])('%j reads as %j', (markdown, words) => {
    expect(speechText(markdown)).toBe(words);
  });
});

describe('dictation', () => {
  it('puts what was heard after the text, a space between', () => {
    expect(withDictated('', ' hello ')).toBe('hello');
    expect(withDictated('Note:', 'hello')).toBe('Note: hello');
    expect(withDictated('Note: ', 'hello')).toBe('Note: hello');
    expect(withDictated('Note:', '   ')).toBe('Note:');
  });
  it('joins finals and the latest guess', () => {
    const results = [
      { isFinal: true, 0: { transcript: 'hello' } },
      { isFinal: false, 0: { transcript: ' wor' } },
    ];
    expect(heard({ results })).toBe('hello wor');
  });
  it.each([
    ['not-allowed', /permission denied/],
    ['service-not-allowed', /permission denied/],
    ['no-speech', /No speech/],
    ['audio-capture', /No microphone/],
    ['network', /could not be reached/],
    ['something-new', /Dictation failed \(something-new\)/],
  ])('says %s in words', (code, words) => {
    expect(dictationError(code)).toMatch(words);
  });
  it('says nothing of a stop the user asked for', () => {
    expect(dictationError('aborted')).toBeUndefined();
  });
});
