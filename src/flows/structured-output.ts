// An llm node's JSON Structured Output (Flowise): the model is asked for an object with the
// node's fields, both through the request's response schema and in the system prompt (models
// without schema support still follow the prompt), and its reply is read back leniently.

import type { JsonSchema } from '../models/llm.ts';
import type { OutputField, OutputFieldType } from './flow.ts';

export type StructuredOutputResult =
  { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** The response schema: an object with every field required. */
export function outputSchema(fields: readonly OutputField[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field.key, fieldSchema(field)])),
    required: fields.map((field) => field.key),
  };
}

/** Appended to the system prompt: reply with only this JSON object. */
export function outputInstruction(fields: readonly OutputField[]): string {
  const lines = fields.map((field) => {
    const description = field.description ? `: ${field.description}` : '';
    return `- "${field.key}" (${typeText(field)})${description}`;
  });
  return ['Reply with only a JSON object, no other text, with exactly these keys:', ...lines].join(
    '\n',
  );
}

/**
 * The fields read from a model's reply. The object may be in a ```json fence or surrounded by
 * prose; values are coerced where the intent is clear ("3" for a number, "Billing" for the enum
 * value "billing"). Keys that are not fields are dropped.
 */
export function parseStructuredOutput(
  text: string,
  fields: readonly OutputField[],
): StructuredOutputResult {
  const parsed = jsonInReply(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: `the reply is not a JSON object: ${excerpt(text)}` };
  }
  const reply = parsed as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const field of fields) {
    const result = Object.hasOwn(reply, field.key)
      ? coerce(field, reply[field.key])
      : { error: 'is missing' };
    if ('error' in result) errors.push(`field "${field.key}" ${result.error}`);
    else value[field.key] = result.value;
  }
  return errors.length === 0 ? { ok: true, value } : { ok: false, error: errors.join('; ') };
}

/**
 * The JSON in a model's reply, or undefined: the first ```json (or bare ```) fence if any, else
 * the outermost `{...}`, else the whole text.
 */
export function jsonInReply(text: string): unknown {
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text);
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  const candidate = fenced
    ? fenced[1]!
    : start !== -1 && end > start
      ? text.slice(start, end + 1)
      : text;
  try {
    return JSON.parse(candidate) as unknown;
  } catch {
    // Not JSON: the caller reports what it expected.
    return undefined;
  }
}

function fieldSchema(field: OutputField): JsonSchema {
  const description = field.description === undefined ? {} : { description: field.description };
  switch (field.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return { type: field.type, ...description };
    case 'enum':
      return { type: 'string', enum: [...(field.enum ?? [])], ...description };
    case 'stringArray':
      return { type: 'array', items: { type: 'string' }, ...description };
    case 'json':
      // No `type`: any JSON value is accepted.
      return { description: field.description ?? 'Any JSON value' };
    default:
      throw new Error(`Unknown output field type: ${String(field.type satisfies never)}`);
  }
}

const TYPE_TEXT: Readonly<Record<OutputFieldType, string>> = {
  string: 'string',
  number: 'number',
  boolean: 'true or false',
  enum: 'one of',
  stringArray: 'array of strings',
  json: 'any JSON value',
};

function typeText(field: OutputField): string {
  return field.type === 'enum'
    ? `one of ${(field.enum ?? []).map((option) => JSON.stringify(option)).join(', ')}`
    : TYPE_TEXT[field.type];
}

function coerce(field: OutputField, raw: unknown): { value: unknown } | { error: string } {
  switch (field.type) {
    case 'string':
      return typeof raw === 'string'
        ? { value: raw }
        : { error: `must be a string; got ${shown(raw)}` };
    case 'number': {
      const number =
        typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : NaN;
      return Number.isFinite(number)
        ? { value: number }
        : { error: `must be a number; got ${shown(raw)}` };
    }
    case 'boolean': {
      const word = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      if (typeof raw === 'boolean') return { value: raw };
      if (word === 'true' || word === 'false') return { value: word === 'true' };
      return { error: `must be true or false; got ${shown(raw)}` };
    }
    case 'enum': {
      const options = field.enum ?? [];
      const wanted = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      const match = options.find((option) => option.toLowerCase() === wanted);
      return match !== undefined
        ? { value: match }
        : { error: `must be one of ${options.join(', ')}; got ${shown(raw)}` };
    }
    case 'stringArray':
      if (typeof raw === 'string') return { value: [raw] };
      return Array.isArray(raw) && raw.every((item) => typeof item === 'string')
        ? { value: raw }
        : { error: `must be an array of strings; got ${shown(raw)}` };
    case 'json':
      return { value: raw };
    default:
      throw new Error(`Unknown output field type: ${String(field.type satisfies never)}`);
  }
}

function shown(value: unknown): string {
  return excerpt(JSON.stringify(value) ?? String(value));
}

function excerpt(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
