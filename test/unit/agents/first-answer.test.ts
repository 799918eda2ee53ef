// A list of callbacks runs until one returns a value, whether they answer at once or later.

import { describe, expect, it } from 'vitest';
import { firstAnswer } from '../../../src/agents/callbacks.ts';

const at = (value: unknown) => () => value;
const later = (value: unknown) => async () => value;

describe('firstAnswer', () => {
  it('takes the first value, sync or async, and runs nothing after it', async () => {
    const ran: string[] = [];
    const track = (name: string, answer: () => unknown) => () => (ran.push(name), answer());
    const cases: [(() => unknown)[], unknown][] = [
      [[at(undefined), at(null), at('c')], 'c'],
      [[later(undefined), at('b'), at('c')], 'b'],
      [[at(undefined), later(null), later('c')], 'c'],
      [[later(undefined), later(undefined)], undefined],
      [[], undefined],
    ];
    for (const [callbacks, expected] of cases)
      expect(await firstAnswer(callbacks as never, {})).toBe(expected);
    await firstAnswer(
      [track('a', at(undefined)), track('b', later('b')), track('c', at('c'))] as never,
      {},
    );
    expect(ran).toEqual(['a', 'b']);
  });

  it('answers at once when every callback did', () => {
    expect(firstAnswer([at(undefined), at('now')] as never, {})).toBe('now');
    expect(firstAnswer([at(undefined)] as never, {})).toBeUndefined();
  });

  it('a callback that throws or rejects fails the list', async () => {
    const boom = () => {
      throw new Error('sync boom');
    };
    expect(() => firstAnswer([boom] as never, {})).toThrow('sync boom');
    await expect(
      firstAnswer(
        [later(undefined), async () => Promise.reject(new Error('late boom'))] as never,
        {},
      ),
    ).rejects.toThrow('late boom');
  });
});
