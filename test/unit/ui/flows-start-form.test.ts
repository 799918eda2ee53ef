// The start node's form input in the node form (a title, a description and a table of fields)
// and the `form` in the flow's JSON are two views of one text: what the form shows is written
// back as the flow stores it, and read again the same.

import { describe, expect, it } from 'vitest';
import { flowText } from '../../../src/ui/flows/flow-editor-model.ts';
import { nodeOf, valueAt, withField } from '../../../src/ui/flows/node-form-model.ts';
import { startFormOf, startFormValue } from '../../../src/ui/flows/start-form-model.ts';
import { validateFlow } from '../../../src/index.ts';

const text = flowText({
  name: 'intake',
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'reply', type: 'reply', message: 'Thanks, {{form.name}}' },
  ],
  edges: [{ from: 'start', to: 'reply' }],
});

describe('the start form in the node form', () => {
  it('shows no form for a start that takes a chat message', () => {
    expect(startFormOf(nodeOf(text, 'start')!)).toBeUndefined();
  });

  it('writes the fields table into the flow and reads it back the same', () => {
    const view = {
      title: 'Intake',
      description: 'Tell us about you',
      fields: [
        { name: 'name', label: 'Your name', type: 'string', options: '' },
        { name: 'plan', label: '', type: 'options', options: 'free, pro ,' },
        { name: 'age', label: '', type: '', options: '' },
        { name: '', label: '', type: '', options: '' },
      ],
    };
    const written = withField(text, 'start', 'form', startFormValue(view))!;
    expect(JSON.parse(written).nodes[0].form).toEqual({
      title: 'Intake',
      description: 'Tell us about you',
      fields: [
        { name: 'name', label: 'Your name', type: 'string' },
        { name: 'plan', type: 'options', options: ['free', 'pro'] },
        { name: 'age', type: 'string' },
      ],
    });
    expect(startFormOf(nodeOf(written, 'start')!)).toEqual({
      title: 'Intake',
      description: 'Tell us about you',
      fields: [
        { name: 'name', label: 'Your name', type: 'string', options: '' },
        { name: 'plan', label: '', type: 'options', options: 'free, pro' },
        { name: 'age', label: '', type: 'string', options: '' },
      ],
    });
    expect(validateFlow(JSON.parse(written))).toEqual([]);
  });

  it('starts an empty form, drops an empty title, keeps what else the form holds, and goes back to chat', () => {
    expect(startFormValue({ title: '', description: '', fields: [] })).toEqual({ fields: [] });
    const previous = { title: 'Old', submitLabel: 'Go', fields: [] };
    expect(startFormValue({ title: '', description: 'New', fields: [] }, previous)).toEqual({
      submitLabel: 'Go',
      description: 'New',
      fields: [],
    });
    const chat = withField(text, 'start', 'form', startFormValue(undefined))!;
    expect(nodeOf(chat, 'start')).toEqual({ id: 'start', type: 'start' });
  });
});

describe('fields of an object of the node', () => {
  it('sets moderation’s words and message, and removes moderation with the last', () => {
    const blocked = withField(text, 'start', 'moderation.blocked', ['spam'])!;
    const both = withField(blocked, 'start', 'moderation.message', 'No.')!;
    expect(nodeOf(both, 'start')!.moderation).toEqual({ blocked: ['spam'], message: 'No.' });
    expect(valueAt(nodeOf(both, 'start')!, 'moderation.message')).toBe('No.');
    const cleared = withField(
      withField(both, 'start', 'moderation.blocked', undefined)!,
      'start',
      'moderation.message',
      undefined,
    )!;
    expect(nodeOf(cleared, 'start')).toEqual({ id: 'start', type: 'start' });
  });
});
