// The message box's saved prompts as pure functions: where `/` asks for a prompt, which prompts
// match and in what order, the variables of a text and the text filled in, and the insert.

import { describe, expect, it } from 'vitest';
import {
  fillPrompt,
  insertAt,
  matchPrompts,
  promptVariables,
  slashQuery,
} from '../../../src/ui/prompts/prompt-text.ts';
import type { PromptRecord } from '../../../workers/protocol.ts';

const at = (text: string) => slashQuery(text, text.length);

describe('slashQuery', () => {
  it.each([
    ['/', { start: 0, query: '' }],
    ['/summ', { start: 0, query: 'summ' }],
    ['please /code rev', { start: 7, query: 'code rev' }],
    ['first line\n/tr', { start: 11, query: 'tr' }],
    ['a\tb /x', { start: 4, query: 'x' }],
  ])('%j asks for a prompt', (text, expected) => {
    expect(at(text)).toEqual(expected);
  });

  it.each([
    ['and/or'],
    ['see https://example.com/x'],
    ['/usr\nnext line'],
    ['no slash'],
    ['/ then a space'],
    [`/${'x'.repeat(61)}`],
    [''],
  ])('%j does not', (text) => {
    expect(at(text)).toBeUndefined();
  });

  it('reads only up to the caret', () => {
    expect(slashQuery('/summ and more', 5)).toEqual({ start: 0, query: 'summ' });
    expect(slashQuery('text /x', 3)).toBeUndefined();
  });
});

const prompt = (name: string): PromptRecord => ({ id: name, name, text: '', updatedAt: 0 });
const names = (list: PromptRecord[]) => list.map((p) => p.name);

describe('matchPrompts', () => {
  const library = ['Summarize', 'Code review', 'résumé writer', 'Translate', 'resummarize'].map(
    prompt,
  );
  it('lists every prompt, by name, for an empty query', () => {
    expect(names(matchPrompts(library, ''))).toEqual([
      'Code review',
      'résumé writer',
      'resummarize',
      'Summarize',
      'Translate',
    ]);
  });
  it('ranks the start of the name, then of a word, then anywhere; case and accents aside', () => {
    expect(names(matchPrompts(library, 'SUM'))).toEqual([
      'Summarize',
      'résumé writer',
      'resummarize',
    ]);
    expect(names(matchPrompts(library, 'rev'))).toEqual(['Code review']);
    expect(names(matchPrompts(library, 'resume'))).toEqual(['résumé writer']);
    expect(matchPrompts(library, 'zzz')).toEqual([]);
  });
});

describe('variables', () => {
  it('finds each once, in order, spaces inside the braces aside', () => {
    expect(promptVariables('Sum up {{topic}} in {{ count }} points; {{topic}} again')).toEqual([
      'topic',
      'count',
    ]);
    expect(promptVariables('no {{ open, {{}}, {single}, {{two\nlines}}')).toEqual([]);
  });
  it('fills every place of a variable; one without a value stays as written', () => {
    expect(
      fillPrompt('{{topic}} in {{ count }} points, {{topic}}; {{other}}', {
        topic: 'tides',
        count: '3',
      }),
    ).toBe('tides in 3 points, tides; {{other}}');
  });
  it('takes values as text, never as replacement patterns', () => {
    expect(fillPrompt('{{a}}', { a: '$& $1 $$' })).toBe('$& $1 $$');
  });
  it('does not read inherited names as values', () => {
    expect(fillPrompt('{{constructor}}', {})).toBe('{{constructor}}');
  });
});

describe('insertAt', () => {
  it('puts the text in place of the /query, the caret after it', () => {
    const text = 'Hi /sum and more';
    const slash = slashQuery(text, 7)!;
    expect(insertAt(text, slash, 'Summary:')).toEqual({ text: 'Hi Summary: and more', caret: 11 });
  });
});
