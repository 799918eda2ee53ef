// What the page shows of a long text or value before Show all: its start, whether there is more,
// and whether the whole may be laid out; made without serialising or walking the whole value.

import { describe, expect, it } from 'vitest';
import { fitsMarkdown } from '../../../src/ui/markdown/load-markdown.ts';
import {
  MAX_DEPTH,
  SHOW_ALL_CHARS,
  UNBROKEN_CHARS,
  clip,
  previewOf,
  unbrokenCut,
  wholeText,
} from '../../../src/ui/common/preview.ts';

const MB = 1024 * 1024;

describe('previews of values short enough to show whole', () => {
  const values: [string, unknown][] = [
    ['null', null],
    ['a number', 42.5],
    ['a huge number', 1.5e300],
    ['NaN (JSON writes null)', NaN],
    ['a boolean', false],
    ['an empty array', []],
    ['an empty object', {}],
    ['an array of mixed values', [1, 'two', null, true, { three: 3 }]],
    ['nested objects', { a: 1, b: [1, 2, { c: 'x', d: [] }], e: {} }],
    ['members JSON leaves out', { u: undefined, f: () => 1, s: 'kept' }],
    ['array holes JSON writes as null', [undefined, () => 1]],
    ['strings to escape', { text: 'quotes "and" \\ back\nslash\ttab \u0001', 'k"ey': 1 }],
    ['non-Latin text', { 名前: '😀 emoji and ünïcödé' }],
    ['a date (its toJSON)', { at: new Date(0) }],
    ['integer-like keys (JSON orders them first)', { b: 1, 2: 'two', a: 3, 1: 'one' }],
    [
      'a shared, not cyclic, object',
      (() => {
        const o = { x: 1 };
        return { p: o, q: [o, o] };
      })(),
    ],
  ];

  it.each(
    values.flatMap(([name, value]) => [0, 2].map((indent) => [name, indent, value] as const)),
  )('%s (indent %i) is exactly its JSON', (_, indent, value) => {
    const json = JSON.stringify(value, null, indent);
    expect(previewOf(value, { indent })).toEqual({
      text: json,
      truncated: false,
      showable: true,
      length: json.length,
    });
    expect(wholeText(value, indent)).toBe(json);
  });

  it.each([
    ['a short string', 'red'],
    ['an empty string', ''],
    ['a string with new lines', 'one\ntwo'],
  ])('%s is itself, not quoted', (_, value) => {
    expect(previewOf(value)).toEqual({
      text: value,
      truncated: false,
      showable: true,
      length: value.length,
    });
    expect(wholeText(value)).toBe(value);
  });
});

describe('previews of long values', () => {
  const long: [string, unknown, number][] = [
    ['a 256 KB string', '0123456789abcdef'.repeat(16 * 1024), 500],
    ['a 20 MB string', 'y'.repeat(20 * MB), 500],
    ['an object holding a 20 MB string', { note: 'hi', big: 'y'.repeat(20 * MB) }, 100],
    ['a long array of numbers', Array.from({ length: 100_000 }, (_, i) => i), 300],
    [
      'an array of objects',
      Array.from({ length: 5000 }, (_, i) => ({ id: i, tags: ['a', 'b'] })),
      1000,
    ],
    ['nested objects with long strings', { a: { b: { c: 'z'.repeat(10_000), d: [1, 2] } } }, 64],
    ['escapes near the cut', { s: '"\n'.repeat(1000) }, 101],
  ];

  it.each(
    long.flatMap(([name, value, max]) =>
      [0, 2].map((indent) => [name, max, indent, value] as const),
    ),
  )(
    '%s (max %i, indent %i) shows the start of its whole text, and says it is cut',
    (_, max, indent, value) => {
      const preview = previewOf(value, { max, indent });
      const whole = wholeText(value, indent);
      expect(preview.truncated).toBe(true);
      expect(preview.text).toBe(whole.slice(0, max));
      expect(preview.showable).toBe(whole.length <= SHOW_ALL_CHARS);
    },
  );

  it('knows a string’s length, and that one over the Show all limit can only be downloaded', () => {
    expect(previewOf('x'.repeat(SHOW_ALL_CHARS), { max: 10 })).toMatchObject({
      text: 'x'.repeat(10),
      truncated: true,
      showable: true,
      length: SHOW_ALL_CHARS,
    });
    expect(previewOf('x'.repeat(SHOW_ALL_CHARS + 1), { max: 10 })).toMatchObject({
      truncated: true,
      showable: false,
      length: SHOW_ALL_CHARS + 1,
    });
  });

  it.each([
    ['just under', SHOW_ALL_CHARS - 100, true],
    ['well over', SHOW_ALL_CHARS + 100, false],
  ])('offers Show all for a value whose JSON is %s the limit', (_, size, showable) => {
    const value = { text: 'x'.repeat(size - 20) };
    expect(previewOf(value, { max: 50 })).toMatchObject({ truncated: true, showable });
  });

  it('never ends a preview in half of a surrogate pair', () => {
    expect(previewOf('😀😀😀', { max: 3 }).text).toBe('😀');
    expect(previewOf({ s: '😀😀😀' }, { max: 8 }).text).toBe('{"s":"😀');
    expect(previewOf({ s: '😀😀😀' }, { max: 7 }).text).toBe('{"s":"');
  });

  it('reads only the start of a huge array', () => {
    let reads = 0;
    const items = Array.from({ length: 1_000_000 }, (_, i) => i);
    const watched = new Proxy(items, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const preview = previewOf(watched, { max: 200 });
    expect(preview).toMatchObject({ truncated: true, showable: false });
    expect(preview.text).toBe(JSON.stringify(items).slice(0, 200));
    expect(reads).toBeLessThan(100);
  });
});

describe('previews of values JSON cannot write, or too deep to walk', () => {
  it('elides nesting deeper than MAX_DEPTH instead of overflowing the stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const preview = previewOf(deep, { max: 1000 });
    expect(preview.truncated).toBe(true);
    expect(preview.text).toBe(`${'['.repeat(MAX_DEPTH)}[…]${']'.repeat(MAX_DEPTH)}`);
  });

  it('shows a value just within MAX_DEPTH whole', () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH; i++) deep = { d: deep };
    expect(previewOf(deep, { max: 10_000 })).toMatchObject({
      text: JSON.stringify(deep),
      truncated: false,
    });
  });

  it('writes a cycle as "[Circular]", in the preview and in the whole text', () => {
    const node: Record<string, unknown> = { name: 'loop' };
    node.self = node;
    node.list = [node];
    const expected = '{"name":"loop","self":"[Circular]","list":["[Circular]"]}';
    expect(previewOf(node)).toMatchObject({ text: expected, truncated: true });
    expect(wholeText(node)).toBe(expected);
  });

  it('writes a BigInt as its digits, in the preview and in the whole text', () => {
    expect(previewOf({ n: 10n }).text).toBe('{"n":10}');
    expect(wholeText({ n: 10n })).toBe('{"n":10}');
  });

  it('writes undefined, at the top, as nothing', () => {
    expect(wholeText(undefined)).toBe('');
  });
});

describe('one-line labels', () => {
  it.each([
    ['a short title', 'Colors', 20, 'Colors'],
    ['a title of exactly the limit', 'abcde', 5, 'abcde'],
    ['a long title', 'abcdefgh', 5, 'abcd…'],
    ['a 20 MB title', 'y'.repeat(20 * MB), 8, 'yyyyyyy…'],
  ])('%s', (_, text, max, expected) => {
    expect(clip(text, max)).toBe(expected);
  });
});

describe('runs with no place to break a line', () => {
  const KB = 1024;
  it('are cut at UNBROKEN_CHARS: a 64 KB word previews as its first 4,096 characters', () => {
    const word = 'x'.repeat(64 * KB);
    const preview = previewOf(`set k to ${word}`, { max: 20_000 });
    expect(preview.text).toBe(`set k to ${'x'.repeat(UNBROKEN_CHARS)}`);
    expect(preview.truncated).toBe(true);
    expect(preview.showable).toBe(true);
    expect(preview.length).toBe(64 * KB + 9);
  });

  it.each([
    ['words', 'lorem ipsum '.repeat(3000)],
    ['a path, broken at its slashes', 'dir/'.repeat(4000)],
    ['a hyphenated run', 'a-'.repeat(6000)],
    ['CJK text, which breaks anywhere', '字'.repeat(10_000)],
    ['zero-width spaces', `${'x'.repeat(100)}\u200b`.repeat(200)],
  ])('leave %s whole up to max', (_, text) => {
    expect(unbrokenCut(text, 20_000)).toBe(Math.min(text.length, 20_000));
    expect(previewOf(text, { max: 20_000 }).text).toBe(text.slice(0, 20_000));
  });

  it('keeps the text before a long run, and reads no further than max', () => {
    const text = `${'word '.repeat(100)}${'z'.repeat(10_000)}`;
    expect(unbrokenCut(text, 20_000)).toBe(500 + UNBROKEN_CHARS);
    expect(unbrokenCut(text, 300)).toBe(300);
    expect(unbrokenCut('y'.repeat(5000), 5000, 10)).toBe(10);
  });

  it('a message holding one is not shown as Markdown, however short', () => {
    expect(fitsMarkdown(`# Title\n\n${'x'.repeat(UNBROKEN_CHARS)}`)).toBe(true);
    expect(fitsMarkdown(`# Title\n\n${'x'.repeat(UNBROKEN_CHARS + 1)}`)).toBe(false);
    expect(fitsMarkdown('word '.repeat(30_000))).toBe(true);
  });
});
