// Flowise's State node: replace and append, and the defaults set when a session starts.

import { describe, expect, it } from 'vitest';
import type { FlowStateKey } from '../../../src/flows/flow.ts';
import { defaultStateDelta, reduceValue, stateUpdates } from '../../../src/flows/reducers.ts';

describe('reduceValue', () => {
  it.each([
    ['replace', 'old', 'new', true, 'new'],
    ['replace', undefined, 0, true, 0],
    ['replace', 'old', '', true, ''],
    ['replace', 'old', null, false, 'old'],
    ['replace', 'old', undefined, false, 'old'],
    ['append', undefined, 'a', true, ['a']],
    ['append', null, 'a', true, ['a']],
    ['append', ['a'], 'b', true, ['a', 'b']],
    ['append', ['a'], ['b', 'c'], true, ['a', 'b', 'c']],
    ['append', 'a', 'b', true, ['a', 'b']],
    ['append', undefined, ['a'], true, ['a']],
    ['append', ['a'], null, false, ['a']],
    ['append', 'a', undefined, false, 'a'],
  ] as const)('%s %j with %j → changed %s, %j', (operation, old, value, changed, result) => {
    expect(reduceValue(operation, old, value)).toEqual({ changed, value: result });
  });

  it('appends into a new array, leaving the old one as it was', () => {
    const old = Object.freeze(['a']);
    const { value } = reduceValue('append', old, 'b');
    expect(value).not.toBe(old);
    expect(old).toEqual(['a']);
  });
});

const keys: FlowStateKey[] = [
  { key: 'category', operation: 'replace', default: null },
  { key: 'notes', operation: 'append', default: [] },
  { key: 'user:tier', operation: 'replace', default: 'free' },
  { key: 'profile', operation: 'replace', default: { tags: ['new'] } },
  { key: 'count', operation: 'replace', default: 0 },
  { key: 'unset', operation: 'replace' },
];

describe('stateUpdates', () => {
  it('holds the resulting value of each key that changed', () => {
    const state = { category: 'billing', notes: ['first'] };
    expect(stateUpdates(keys, state, { category: 'tech', notes: 'second' })).toEqual({
      category: 'tech',
      notes: ['first', 'second'],
    });
  });

  it('leaves out keys whose new value is null or missing', () => {
    const state = { category: 'billing', notes: ['first'] };
    expect(stateUpdates(keys, state, { category: null, notes: undefined })).toEqual({});
  });

  it('throws on a key the flow does not declare (validation rejects such flows)', () => {
    expect(() => stateUpdates(keys, {}, { undeclared: 1 })).toThrow(/undeclared/);
  });
});

describe('defaultStateDelta', () => {
  it('sets the defaults of keys without a value, skipping null and missing defaults', () => {
    expect(defaultStateDelta(keys, { 'user:tier': 'pro' })).toEqual({
      notes: [],
      profile: { tags: ['new'] },
      count: 0,
    });
  });

  it('copies defaults, so a session never shares them with the flow', () => {
    const delta = defaultStateDelta(keys, {});
    expect(delta.profile).toEqual(keys[3]!.default);
    expect(delta.profile).not.toBe(keys[3]!.default);
    expect(delta.notes).not.toBe(keys[1]!.default);
  });

  it('keeps values that are set, even falsy or null ones', () => {
    const state = { notes: [], count: 0, profile: '', 'user:tier': null };
    expect(defaultStateDelta(keys, state)).toEqual({});
  });
});
