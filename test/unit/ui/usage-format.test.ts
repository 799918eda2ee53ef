import { describe, expect, it } from 'vitest';
import { answerUsage } from '../../../src/ui/common/usage-format.ts';

describe('answerUsage', () => {
  it('adds the writing speed when the writing took a second or more', () => {
    // 41 tokens after the first one, in 2 s.
    expect(
      answerUsage(
        'tiny.gguf',
        { promptTokenCount: 104, candidatesTokenCount: 42 },
        { firstTokenMs: 500, totalMs: 2500 },
      ),
    ).toBe('tiny.gguf · 104 in · 42 out · first token 500 ms · 2.5 s · 21 tokens/s');
  });

  it('leaves it out for a quick answer, or one with no token count', () => {
    expect(
      answerUsage('m', { candidatesTokenCount: 4 }, { firstTokenMs: 420, totalMs: 1340 }),
    ).toBe('m · 4 out · first token 420 ms · 1.3 s');
    expect(answerUsage('m', undefined, { firstTokenMs: 100, totalMs: 5000 })).toBe(
      'm · first token 100 ms · 5.0 s',
    );
  });
});
