// An llm node's structured output: the schema and instruction the model gets, and how its reply
// is read back (leniently where the intent is clear, with an error naming the field otherwise).

import { describe, expect, it } from 'vitest';
import type { OutputField } from '../../../src/flows/flow.ts';
import {
  outputInstruction,
  outputSchema,
  parseStructuredOutput,
} from '../../../src/flows/structured-output.ts';

const fields: OutputField[] = [
  { key: 'category', type: 'enum', enum: ['billing', 'tech'], description: 'The department' },
  { key: 'summary', type: 'string' },
  { key: 'urgency', type: 'number' },
  { key: 'angry', type: 'boolean' },
  { key: 'topics', type: 'stringArray' },
  { key: 'extra', type: 'json', description: 'Anything else' },
];

const reply = {
  category: 'billing',
  summary: 'Invoice missing',
  urgency: 2,
  angry: false,
  topics: ['invoice'],
  extra: { orderId: 7 },
};

describe('outputSchema', () => {
  it('is an object schema with every field required', () => {
    expect(outputSchema(fields)).toEqual({
      type: 'object',
      properties: {
        category: { type: 'string', enum: ['billing', 'tech'], description: 'The department' },
        summary: { type: 'string' },
        urgency: { type: 'number' },
        angry: { type: 'boolean' },
        topics: { type: 'array', items: { type: 'string' } },
        extra: { description: 'Anything else' },
      },
      required: ['category', 'summary', 'urgency', 'angry', 'topics', 'extra'],
    });
  });

  it('describes a json field without a description as any JSON', () => {
    expect(outputSchema([{ key: 'data', type: 'json' }]).properties?.data).toEqual({
      description: 'Any JSON value',
    });
  });
});

describe('outputInstruction', () => {
  it('asks for only a JSON object and names each key, its type, enum values and description', () => {
    const text = outputInstruction(fields);
    expect(text).toMatch(/only a JSON object/);
    for (const fragment of [
      '"category" (one of "billing", "tech"): The department',
      '"summary" (string)',
      '"urgency" (number)',
      '"angry" (true or false)',
      '"topics" (array of strings)',
      '"extra" (any JSON value): Anything else',
    ]) {
      expect(text).toContain(fragment);
    }
  });
});

describe('parseStructuredOutput', () => {
  it.each([
    ['plain JSON', JSON.stringify(reply)],
    ['a ```json fence', `Here you go:\n\`\`\`json\n${JSON.stringify(reply, null, 2)}\n\`\`\`\nBye`],
    ['a bare ``` fence', `\`\`\`\n${JSON.stringify(reply)}\n\`\`\``],
    ['prose around the object', `Sure! ${JSON.stringify(reply)} Hope that helps.`],
  ])('reads %s', (_, text) => {
    expect(parseStructuredOutput(text, fields)).toEqual({ ok: true, value: reply });
  });

  it('coerces values whose intent is clear and drops extra keys', () => {
    const text = JSON.stringify({
      category: ' Billing ',
      summary: 'x',
      urgency: '3.5',
      angry: 'TRUE',
      topics: 'refund',
      extra: null,
      unasked: 'dropped',
    });
    expect(parseStructuredOutput(text, fields)).toEqual({
      ok: true,
      value: {
        category: 'billing',
        summary: 'x',
        urgency: 3.5,
        angry: true,
        topics: ['refund'],
        extra: null,
      },
    });
  });

  it.each([
    [{ ...reply, category: 'sales' }, 'field "category" must be one of billing, tech; got "sales"'],
    [{ ...reply, summary: 3 }, 'field "summary" must be a string; got 3'],
    [{ ...reply, urgency: 'high' }, 'field "urgency" must be a number; got "high"'],
    [{ ...reply, urgency: '' }, 'field "urgency" must be a number; got ""'],
    [{ ...reply, angry: 'yes' }, 'field "angry" must be true or false; got "yes"'],
    [{ ...reply, topics: ['a', 1] }, 'field "topics" must be an array of strings; got ["a",1]'],
    [{ ...reply, extra: undefined }, 'field "extra" is missing'],
  ])('rejects %j', (value, error) => {
    expect(parseStructuredOutput(JSON.stringify(value), fields)).toEqual({ ok: false, error });
  });

  it('names every bad field at once', () => {
    const result = parseStructuredOutput('{"category": "sales"}', fields);
    expect(result.ok).toBe(false);
    const error = result.ok ? '' : result.error;
    for (const key of ['category', 'summary', 'urgency', 'angry', 'topics', 'extra']) {
      expect(error).toContain(`field "${key}"`);
    }
  });

  it.each([
    ['not JSON', 'I think it is billing.'],
    ['broken JSON', '{"category": billing}'],
    ['an array', '["billing"]'],
  ])('rejects a reply that is %s', (_, text) => {
    expect(parseStructuredOutput(text, fields)).toEqual({
      ok: false,
      error: expect.stringContaining('not a JSON object'),
    });
  });
});
