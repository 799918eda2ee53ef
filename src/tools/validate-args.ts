// Checks a model's function-call arguments against the tool's JSON Schema, so that a bad call
// gets a precise error response (which the model can correct) instead of running the tool.

import type { JsonSchema } from '../models/llm.ts';

/** The problems of `value` against `schema` (empty when it fits). */
export function validateAgainstSchema(value: unknown, schema: JsonSchema, path = 'args'): string[] {
  const problems: string[] = [];
  check(value, schema, path, problems);
  return problems;
}

function check(value: unknown, schema: JsonSchema, path: string, problems: string[]): void {
  if (value === null && schema.nullable) return;
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((type) => isOfType(value, type))) {
    problems.push(`${path} should be ${types.join(' or ')}, got ${describe(value)}`);
    return;
  }
  if (schema.enum && !schema.enum.some((allowed) => allowed === value)) {
    problems.push(
      `${path} should be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`,
    );
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum)
      problems.push(`${path} should be ≥ ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum)
      problems.push(`${path} should be ≤ ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      problems.push(`${path} should have at least ${schema.minLength} characters`);
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      problems.push(`${path} should have at most ${schema.maxLength} characters`);
    }
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) {
      problems.push(`${path} should have at least ${schema.minItems} items`);
    }
    if (schema.maxItems !== undefined && value.length > schema.maxItems) {
      problems.push(`${path} should have at most ${schema.maxItems} items`);
    }
    if (schema.items)
      value.forEach((item, i) => check(item, schema.items!, `${path}[${i}]`, problems));
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (record[key] === undefined) problems.push(`${path}.${key} is required`);
    }
    const properties = schema.properties ?? {};
    for (const [key, item] of Object.entries(record)) {
      const propertySchema = properties[key];
      if (propertySchema) {
        if (item !== undefined) check(item, propertySchema, `${path}.${key}`, problems);
      } else if (schema.additionalProperties === false) {
        problems.push(`${path}.${key} is not a known parameter`);
      } else if (typeof schema.additionalProperties === 'object') {
        check(item, schema.additionalProperties, `${path}.${key}`, problems);
      }
    }
  }
}

/** Schema types, lower-cased (Gemini's schemas spell them `STRING`, `OBJECT`, …). */
function typesOf(schema: JsonSchema): string[] {
  const { type } = schema;
  if (type === undefined) return [];
  return (Array.isArray(type) ? type : [type]).map((t) => t.toLowerCase());
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true; // A type this checker does not know: leave it to the tool.
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
