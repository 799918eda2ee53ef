// Flowise-style templates: {{state.key}}, {{output.field}} and {{question}} in a flow's texts.

import { describe, expect, it } from 'vitest';
import {
  evaluateTemplate,
  renderTemplate,
  resolvePath,
  templateRefs,
  type TemplateScope,
} from '../../../src/flows/templates.ts';

const scope: TemplateScope = {
  state: {
    category: 'billing',
    'user:name': 'Ada',
    notes: ['first', 'second'],
    count: 3,
    profile: { city: 'Paris', tags: ['vip'] },
    empty: null,
  },
  output: { category: 'tech', score: 0.5, nested: { deep: true } },
  question: 'Where is my invoice?',
};

describe('templateRefs', () => {
  it('lists every referenced path in order, whitespace inside the braces ignored', () => {
    expect(
      templateRefs('Was {{state.category}}, now {{ output.category }}; asked: {{question}}'),
    ).toEqual(['state.category', 'output.category', 'question']);
  });

  it('finds nothing in plain text or single braces', () => {
    expect(templateRefs('no {templates} here')).toEqual([]);
  });
});

describe('resolvePath', () => {
  it.each([
    ['state.category', 'billing'],
    ['state.user:name', 'Ada'],
    ['state.profile.city', 'Paris'],
    ['state.profile.tags.0', 'vip'],
    ['state.missing', undefined],
    ['state.profile.missing.deeper', undefined],
    ['state', undefined],
    ['output.category', 'tech'],
    ['output.nested.deep', true],
    ['question', 'Where is my invoice?'],
    ['question.length', undefined],
    ['unknown.root', undefined],
    ['state.profile.constructor', undefined],
  ])('%s → %j', (path, expected) => {
    expect(resolvePath(path, scope)).toEqual(expected);
  });

  it('reads the whole output', () => {
    expect(resolvePath('output', { state: {}, output: 'plain text' })).toBe('plain text');
  });
});

describe('renderTemplate', () => {
  it.each([
    ['Category: {{state.category}}', 'Category: billing'],
    ['Hello {{ state.user:name }}!', 'Hello Ada!'],
    ['Notes: {{state.notes}}', 'Notes: ["first","second"]'],
    ['Count: {{state.count}}', 'Count: 3'],
    ['Missing: [{{state.missing}}] [{{state.empty}}]', 'Missing: [] []'],
    ['{{output.category}} / {{question}}', 'tech / Where is my invoice?'],
    ['Left alone: {{ vars.x }} and {{foo}}', 'Left alone: {{ vars.x }} and {{foo}}'],
    ['No templates', 'No templates'],
  ])('%s → %s', (text, expected) => {
    expect(renderTemplate(text, scope)).toBe(expected);
  });
});

describe('evaluateTemplate', () => {
  it.each([
    ['{{state.notes}}', ['first', 'second']],
    ['  {{ state.count }}  ', 3],
    ['{{output}}', scope.output],
    ['{{state.missing}}', undefined],
    ['{{state.empty}}', null],
    ['Count: {{state.count}}', 'Count: 3'],
    ['{{state.category}}{{state.count}}', 'billing3'],
    ['{{foo}}', '{{foo}}'],
    ['plain', 'plain'],
  ])('%j → %j', (text, expected) => {
    expect(evaluateTemplate(text, scope)).toEqual(expected);
  });
});
