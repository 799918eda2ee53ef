// A flow's start form in the chat, as pure data: the form read from the flow, the draft's checks
// and their messages, the typed values, and the turn's text — which the worker reads back when a
// form turn is edited (the two are pinned together here).

import { describe, expect, it } from 'vitest';
import type { Flow, StartForm } from '../../../src/flows/flow.ts';
import {
  checkDraft,
  emptyDraft,
  fieldLabel,
  formText,
  parseNumber,
  startFormOf,
  type FormDraft,
} from '../../../src/ui/chat/start-form-model.ts';
import { formDeltaOfText } from '../../../workers/runs/start-form-values.ts';

const FORM: StartForm = {
  title: 'Sign up',
  description: 'Tell us about you.',
  fields: [
    { name: 'name', label: 'Name', type: 'string' },
    { name: 'age', label: 'Age', type: 'number' },
    { name: 'vip', label: 'VIP', type: 'boolean' },
    { name: 'plan', label: 'Plan', type: 'options', options: ['Basic', 'Pro'] },
  ],
};

const flowWith = (form: unknown): Flow =>
  ({
    name: 'f',
    nodes: [{ id: 'start', type: 'start', form }],
    edges: [],
  }) as Flow;

const FILLED: FormDraft = { name: ' Ada ', age: '36', vip: true, plan: 'Pro' };

describe('startFormOf', () => {
  it('reads the start node’s form', () => {
    expect(startFormOf(flowWith(FORM))).toEqual(FORM);
  });

  it.each([
    ['a flow with no form', undefined],
    ['a form that is not an object', 'form'],
    ['fields that are not a list', { fields: {} }],
    ['no fields', { fields: [] }],
    ['no field it can show', { fields: [{ name: 'x', type: 'date' }, { type: 'string' }] }],
  ])('has none for %s', (_, form) => {
    expect(startFormOf(flowWith(form))).toBeUndefined();
  });

  it('has none for an agent that is not a flow', () => {
    expect(startFormOf(undefined)).toBeUndefined();
  });

  it('leaves out the fields it cannot show: options without choices, a name used twice', () => {
    const form = startFormOf(
      flowWith({
        title: '  ',
        fields: [
          { name: 'a', type: 'string' },
          { name: 'b', type: 'options', options: [] },
          { name: 'a', type: 'number' },
          { name: 'c', type: 'options', options: ['x', 1] },
          { name: 'd', type: 'boolean', label: 'D' },
        ],
      }),
    );
    expect(form).toEqual({
      fields: [
        { name: 'a', type: 'string' },
        { name: 'd', type: 'boolean', label: 'D' },
      ],
    });
  });
});

describe('a field’s label', () => {
  it.each([
    [{ name: 'age', label: 'Your age', type: 'number' as const }, 'Your age'],
    [{ name: 'age', type: 'number' as const }, 'age'],
    [{ name: 'age', label: '  ', type: 'number' as const }, 'age'],
    // On one line: the turn's text has one line per field.
    [{ name: 'age', label: 'Your\nage ', type: 'number' as const }, 'Your age'],
  ])('%j is shown as %j', (field, label) => {
    expect(fieldLabel(field)).toBe(label);
  });
});

describe('checkDraft', () => {
  it('starts empty, every box unchecked', () => {
    expect(emptyDraft(FORM)).toEqual({ name: '', age: '', vip: false, plan: '' });
  });

  it('types the values: a number, a boolean, the chosen string; texts trimmed', () => {
    expect(checkDraft(FORM, FILLED)).toEqual({
      ok: true,
      values: { name: 'Ada', age: 36, vip: true, plan: 'Pro' },
    });
  });

  it('takes an unchecked box as false: a boolean is never missing', () => {
    const check = checkDraft(FORM, { ...FILLED, vip: false });
    expect(check).toMatchObject({ ok: true, values: { vip: false } });
  });

  it('says what is missing beside each field, all at once', () => {
    expect(checkDraft(FORM, emptyDraft(FORM))).toEqual({
      ok: false,
      problems: {
        name: 'Name is required.',
        age: 'Age is required.',
        plan: 'Plan is required.',
      },
    });
  });

  it.each([
    ['name', '   ', 'Name is required.'],
    ['age', 'thirty', 'Age must be a number, such as 42 or 3.5.'],
    ['age', '0x10', 'Age must be a number, such as 42 or 3.5.'],
    ['age', 'Infinity', 'Age must be a number, such as 42 or 3.5.'],
    ['plan', 'Gold', 'Plan must be one of: Basic, Pro.'],
    ['name', 'x'.repeat(50_001), 'Name is 50,001 characters long; at most 50,000.'],
  ])('%s = %j: %s', (name, value, problem) => {
    expect(checkDraft(FORM, { ...FILLED, [name]: value })).toEqual({
      ok: false,
      problems: { [name]: problem },
    });
  });

  it.each([
    ['42', 42],
    [' -3.5 ', -3.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['0', 0],
    ['', undefined],
    ['1,5', undefined],
    ['1e999', undefined],
  ])('reads the number %j as %j', (text, number) => {
    expect(parseNumber(text)).toBe(number);
  });
});

describe('the turn’s text', () => {
  it('is one `Label: value` line per field, in the form’s order, booleans yes or no', () => {
    expect(formText(FORM, { name: 'Ada', age: 36, vip: true, plan: 'Pro' })).toBe(
      'Name: Ada\nAge: 36\nVIP: yes\nPlan: Pro',
    );
    expect(formText(FORM, { name: 'Ada', age: 3.5, vip: false, plan: 'Basic' })).toBe(
      'Name: Ada\nAge: 3.5\nVIP: no\nPlan: Basic',
    );
  });

  it.each([
    { name: 'Ada', age: 36, vip: true, plan: 'Pro' },
    { name: 'Ada: Lovelace', age: -0.25, vip: false, plan: 'Basic' },
    { name: 'yes', age: 1e21, vip: true, plan: 'Basic' },
  ])('reads back as the values it was written from, in the worker (%j)', (values) => {
    expect(formDeltaOfText(FORM, formText(FORM, values))).toEqual({ form: values });
  });

  it('reads back when one label begins another', () => {
    const form: StartForm = {
      fields: [
        { name: 'age', label: 'Age', type: 'number' },
        { name: 'group', label: 'Age group', type: 'string' },
      ],
    };
    const values = { age: 7, group: 'kids' };
    expect(formDeltaOfText(form, formText(form, values))).toEqual({ form: values });
  });
});
