// Before-model callbacks get copies of the contents they read: what they change reaches the
// model, never the session's events or the next call's contents.

import { describe, expect, it } from 'vitest';
import type { Content } from '../../../src/index.ts';
import { contentsOnRead } from '../../../src/agents/contents-on-read.ts';

const content = (text: string): Content => ({ role: 'user', parts: [{ text }] });

describe('contents a callback reads are copies', () => {
  it('a callback that reads nothing leaves the very same array', () => {
    const contents = [content('a'), content('b')];
    const on = contentsOnRead(contents);
    expect(on.view.length).toBe(2);
    expect(on.settle(on.view)).toBe(contents);
  });

  it('a change to a content read goes to the model, not to the shared content', () => {
    const shared = [content('a'), content('b')];
    const contents = shared.slice();
    const on = contentsOnRead(contents);
    on.view[1]!.parts[0]!.text = 'changed';
    expect(on.view[1]!.parts[0]!.text).toBe('changed'); // the same copy when read again
    const settled = on.settle(on.view);
    expect(settled.map((c) => c.parts[0]!.text)).toEqual(['a', 'changed']);
    expect(shared[1]!.parts[0]!.text).toBe('b');
    expect(settled[0]).toBe(shared[0]); // unread: not copied
  });

  it('array changes (push, splice, find) keep the copies and the callback’s own contents', () => {
    const shared = [content('a'), content('b'), content('c')];
    const on = contentsOnRead(shared.slice());
    on.view.splice(0, 1);
    on.view.push(content('d'));
    on.view.find((c) => c.parts[0]!.text === 'c')!.parts[0]!.text = 'C';
    const settled = on.settle(on.view);
    expect(settled.map((c) => c.parts[0]!.text)).toEqual(['b', 'C', 'd']);
    expect(shared.map((c) => c.parts[0]!.text)).toEqual(['a', 'b', 'c']);
  });

  it('a callback that replaces the array: its array is the request’s', () => {
    const on = contentsOnRead([content('a')]);
    const theirs = [content('z')];
    expect(on.settle(theirs)).toBe(theirs);
  });
});
