// Session titles as text (workers/sessions/title-prompt.ts): what a model's answer cleans to (or
// that it holds no title), the request a model is asked (the first message and answer, clipped,
// nothing else), the first message's own title, and the demo model's rule.

import { describe, expect, it } from 'vitest';
import {
  CLIPPED_CHARS,
  TITLE_CHARS,
  TITLE_TASK,
  cleanTitle,
  demoTitleAnswer,
  firstMessageTitle,
  titleRequest,
} from '../../../workers/sessions/title-prompt.ts';
import { textOf } from '../../../src/index.ts';

describe('a model’s answer as a title', () => {
  it.each([
    ['Why the Sky Is Blue', 'Why the Sky Is Blue'],
    ['"Why the sky is blue."', 'Why the sky is blue'],
    ['“Pourquoi le ciel est bleu ?”', 'Pourquoi le ciel est bleu'],
    ['«Warum der Himmel blau ist»', 'Warum der Himmel blau ist'],
    ['Title: Sky colour', 'Sky colour'],
    ['**Title:** "Sky colour."', 'Sky colour'],
    ['Chat title - Sky colour!', 'Sky colour'],
    ['Titre : Couleur du ciel', 'Couleur du ciel'],
    ['# Sky colour', 'Sky colour'],
    ['- *Sky colour*', 'Sky colour'],
    ['`Sky colour`', 'Sky colour'],
    ['\n\n  Sky   colour \n', 'Sky colour'],
    ['Title:\nSky colour\nBecause light scatters.', 'Sky colour'],
    ['<think>The user asks about the sky.\nShort.</think>\nSky colour', 'Sky colour'],
    ['空の色。', '空の色'],
    ['1984 novel summary', '1984 novel summary'],
  ])('%j cleans to %j', (answer, title) => {
    expect(cleanTitle(answer)).toBe(title);
  });

  it('is clipped to the longest title, one line', () => {
    const long = 'Supercalifragilistic expialidocious antidisestablishmentarianism words';
    const title = cleanTitle(long)!;
    expect(title).toHaveLength(TITLE_CHARS);
    expect(title.endsWith('…')).toBe(true);
    expect(long.startsWith(title.slice(0, -1))).toBe(true);
  });

  it.each([
    ['', 'empty'],
    ['   \n\n', 'blank'],
    ['"..."', 'punctuation alone'],
    ['Title:', 'a label alone'],
    ['<think>Let me think about what the title should be', 'thoughts cut before the title'],
    [
      'The sky looks blue because molecules in the air scatter short blue wavelengths of sunlight far more than the longer red ones, so blue reaches us from every direction.',
      'a paragraph',
    ],
  ])('%j holds no title (%s)', (answer) => {
    expect(cleanTitle(answer)).toBeUndefined();
  });
});

describe('the title request', () => {
  it('holds the first message and answer, clipped, with a low temperature and small room', () => {
    const request = titleRequest('Why is the sky blue?', 'Because air scatters blue light.');
    expect(request.systemInstruction).toContain(TITLE_TASK);
    expect(request.systemInstruction).toMatch(/at most 6 words/);
    expect(request.systemInstruction).toMatch(/language of the conversation/);
    expect(request.contents).toHaveLength(1);
    const asked = textOf(request.contents[0]);
    expect(asked).toContain('<message>\nWhy is the sky blue?\n</message>');
    expect(asked).toContain('<answer>\nBecause air scatters blue light.\n</answer>');
    expect(request.config!.temperature).toBeLessThanOrEqual(0.3);
    expect(request.config!.maxOutputTokens).toBeGreaterThanOrEqual(256);
    expect(request.config!.maxOutputTokens).toBeLessThanOrEqual(2048);
    expect(request.tools).toBeUndefined();
  });

  it('clips a long message and a long answer', () => {
    const request = titleRequest('q'.repeat(10_000), 'z'.repeat(10_000));
    const asked = textOf(request.contents[0]);
    expect(asked.match(/q/g)).toHaveLength(CLIPPED_CHARS);
    expect(asked.match(/z/g)).toHaveLength(CLIPPED_CHARS);
    expect(asked.length).toBeLessThan(2 * CLIPPED_CHARS + 200);
  });

  it('leaves the answer out when there is none', () => {
    expect(textOf(titleRequest('Hello', '  ').contents[0])).not.toContain('<answer>');
  });
});

describe('the first message’s title', () => {
  it('is its text on one line, clipped as before', () => {
    const text = (t: string) => ({ role: 'user' as const, parts: [{ text: t }] });
    expect(firstMessageTitle(text('Name: Ada\nTopic:  sky'))).toBe('Name: Ada Topic: sky');
    const long = 'x'.repeat(60);
    expect(firstMessageTitle(text(long))).toBe(`${'x'.repeat(47)}…`);
    expect(firstMessageTitle({ role: 'user', parts: [] })).toBe('');
  });
});

describe('the demo model’s title', () => {
  it('is the first sentence of the message, six words at most', () => {
    const request = titleRequest(
      'why is the sky blue on a sunny day in June? Tell me more.',
      '(demo rules) You said: why',
    );
    expect(demoTitleAnswer(request)).toBe('Why is the sky blue on');
    expect(demoTitleAnswer(titleRequest('set color to red', ''))).toBe('Set color to red');
  });
});
