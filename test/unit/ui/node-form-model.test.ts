// The Flows view's node form edits the flow's JSON: each field reads from and writes to the node
// in the text, tables (rules, structured output, update state) included, and the rest of the flow
// is left as it was.

import { describe, expect, it } from 'vitest';
import { nodeHeading } from '../../../src/ui/flows/NodeForm.tsx';
import { detailsOf, withDetail } from '../../../src/ui/flows/node-form-model.ts';
import { flowText } from '../../../src/ui/flows/flow-editor-model.ts';
import { NODE_FIELDS } from '../../../src/ui/flows/node-fields.ts';
import {
  nodeOf,
  rowsOf,
  stateOf,
  valueOf,
  withField,
  withState,
} from '../../../src/ui/flows/node-form-model.ts';
import { NODE_TYPES, type Flow } from '../../../src/index.ts';

const flow: Flow = {
  name: 'f',
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'route',
      type: 'condition',
      rules: [{ variable: '{{state.c}}', operation: 'is', value: 'billing', output: 'billing' }],
    },
    {
      id: 'classify',
      type: 'llm',
      output: [{ key: 'c', type: 'enum', enum: ['a', 'b'] }],
      updateState: { c: '{{output.c}}' },
    },
    { id: 'end', type: 'end' },
  ],
  edges: [{ from: 'start', to: 'end' }],
};
const text = flowText(flow);
const field = (type: keyof typeof NODE_FIELDS, key: string) =>
  NODE_FIELDS[type].find((spec) => spec.key === key)!;

describe('the node form', () => {
  it('has a form for every node type, each with its name', () => {
    for (const type of NODE_TYPES) expect(NODE_FIELDS[type][0]?.key).toBe('label');
  });

  it.each([
    ['code', 'code', 'code'],
    ['code', 'variables', 'rows'],
    ['code', 'timeoutMs', 'number'],
    ['code', 'memoryMb', 'number'],
    ['http', 'method', 'choice'],
    ['http', 'headers', 'rows'],
    ['http', 'query', 'rows'],
    ['http', 'bodyType', 'choice'],
    ['http', 'timeoutMs', 'number'],
    ['toolCall', 'args', 'rows'],
    ['iteration', 'input', 'text'],
    ['subflow', 'flow', 'text'],
    ['start', 'form', 'startForm'],
  ] as const)('asks %s nodes for %s as a %s field', (type, key, kind) => {
    expect(field(type, key).kind).toBe(kind);
  });

  it('writes key → value tables (arguments, headers) as objects', () => {
    const args = field('toolCall', 'args');
    expect(args.map).toBe(true);
    expect(
      valueOf(args, [
        { key: 'city', value: '{{form.city}}' },
        { key: '', value: '' },
      ]),
    ).toEqual({ city: '{{form.city}}' });
    expect(rowsOf({ headers: { Accept: 'text/plain' } }, field('http', 'headers'))).toEqual([
      { key: 'Accept', value: 'text/plain' },
    ]);
    expect(field('http', 'method').choices).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('sets and clears a field of one node, leaving the rest of the flow as it was', () => {
    const named = withField(text, 'route', 'label', 'Route it')!;
    expect(JSON.parse(named)).toEqual({
      ...flow,
      nodes: flow.nodes.map((n) => (n.id === 'route' ? { ...n, label: 'Route it' } : n)),
    });
    expect(JSON.parse(withField(named, 'route', 'label', undefined)!)).toEqual(flow);
    expect(withField('{ not json', 'route', 'label', 'x')).toBeUndefined();
    expect(withField(text, 'nobody', 'label', 'x')).toBeUndefined();
  });

  it('shows tables as rows and writes rows back as the flow stores them', () => {
    const rules = field('condition', 'rules');
    const route = nodeOf(text, 'route')!;
    expect(rowsOf(route, rules)).toEqual([
      { variable: '{{state.c}}', operation: 'is', value: 'billing', output: 'billing' },
    ]);
    const edited = valueOf(rules, [
      { variable: '{{state.c}}', operation: 'is', value: 'refund', output: 'refund' },
      { variable: '', operation: '', value: '', output: '' },
    ]);
    expect(edited).toEqual([
      { variable: '{{state.c}}', operation: 'is', value: 'refund', output: 'refund' },
    ]);

    const output = field('llm', 'output');
    const classify = nodeOf(text, 'classify')!;
    expect(rowsOf(classify, output)).toEqual([
      { key: 'c', type: 'enum', enum: 'a, b', description: '' },
    ]);
    expect(valueOf(output, [{ key: 'c', type: 'enum', enum: 'a, b, c', description: '' }])).toEqual(
      [{ key: 'c', type: 'enum', enum: ['a', 'b', 'c'] }],
    );

    const update = field('llm', 'updateState');
    expect(rowsOf(classify, update)).toEqual([{ key: 'c', value: '{{output.c}}' }]);
    expect(valueOf(update, [])).toBeUndefined();
  });

  it('reads lists, numbers and switches as the flow stores them', () => {
    expect(valueOf(field('agent', 'tools'), 'calculator\n save_artifact ,')).toEqual([
      'calculator',
      'save_artifact',
    ]);
    expect(valueOf(field('loop', 'maxLoops'), '3')).toBe(3);
    expect(valueOf(field('loop', 'maxLoops'), '')).toBeUndefined();
    expect(valueOf(field('agent', 'requireApproval'), false)).toBeUndefined();
    expect(valueOf(field('agent', 'requireApproval'), true)).toBe(true);
  });
});

describe('the State form (the flow’s state keys)', () => {
  const text = JSON.stringify({
    name: 'f',
    state: [
      { key: 'notes', operation: 'append', default: [] },
      { key: 'category', operation: 'replace' },
      { key: 'greeting', operation: 'replace', default: 'hello' },
    ],
    nodes: [],
    edges: [],
  });

  it('shows each key with its default as JSON, a text as it is', () => {
    expect(stateOf(text)!.state).toEqual([
      { key: 'notes', operation: 'append', default: '[]' },
      { key: 'category', operation: 'replace', default: '' },
      { key: 'greeting', operation: 'replace', default: 'hello' },
    ]);
    expect(stateOf('{"nodes": ')).toBeUndefined();
  });

  it('writes the rows back: JSON where it parses, text otherwise, Replace when unset, empty rows dropped', () => {
    const next = JSON.parse(
      withState(text, [
        { key: 'notes', operation: 'append', default: '[1, 2]' },
        { key: 'mood', operation: '', default: 'calm' },
        { key: '', operation: '', default: '' },
      ])!,
    );
    expect(next.state).toEqual([
      { key: 'notes', operation: 'append', default: [1, 2] },
      { key: 'mood', operation: 'replace', default: 'calm' },
    ]);
    expect(JSON.parse(withState(text, [])!)).not.toHaveProperty('state');
  });
});

describe("a node form's heading and the flow's details", () => {
  it('names a node once: its name, then its type and id where they say more', () => {
    expect(nodeHeading({ id: 'condition', type: 'condition', label: 'Condition' })).toBe(
      'Condition',
    );
    expect(nodeHeading({ id: 'billing', type: 'agent', label: 'Billing' })).toBe('Billing · Agent');
    expect(nodeHeading({ id: 'route', type: 'condition' })).toBe('route · Condition');
    expect(nodeHeading({ id: 'check', type: 'conditionAgent', label: 'Is it done?' })).toBe(
      'Is it done? · Condition Agent · check',
    );
  });

  it("edits the flow's name and description outside the JSON", () => {
    const text = '{"name": "a", "description": "old", "nodes": [], "edges": []}';
    expect(detailsOf(text)).toEqual({ name: 'a', description: 'old' });
    const renamed = withDetail(text, 'name', 'support desk')!;
    expect(JSON.parse(renamed)).toMatchObject({ name: 'support desk', description: 'old' });
    expect(JSON.parse(withDetail(renamed, 'description', '')!)).not.toHaveProperty('description');
    expect(detailsOf('{ not json')).toBeUndefined();
  });
});
