// What a node's `inputSchema` and `outputSchema` may be, and how a value is checked against one
// (ADK 2.0's rule): a Zod schema (anything with `parse`) parses the value, and its result is
// what the node gets or gives; a JSON Schema (or a genai `Schema`, upper-case types) checks it.
// A value that does not fit fails the node with a NodeSchemaValidationError. A `Content` is never
// checked: nodes turn it into what they need themselves.

import { NodeSchemaValidationError, messageOf } from '../core/errors.ts';
import type { JsonSchema } from '../models/llm.ts';
import { validateAgainstSchema } from '../tools/validate-args.ts';

/** A Zod schema, or anything else with a `parse` that throws on a value that does not fit. */
export interface ParsingSchema {
  parse(value: unknown): unknown;
}

export type NodeSchema = JsonSchema | ParsingSchema;

function isParsing(schema: NodeSchema): schema is ParsingSchema {
  return typeof (schema as Partial<ParsingSchema>).parse === 'function';
}

/** The value as the node takes or gives it, or a NodeSchemaValidationError. */
export function parseWithSchema(
  schema: NodeSchema | undefined,
  value: unknown,
  nodeName: string,
  direction: 'input' | 'output',
): unknown {
  if (!schema) return value;
  if (isParsing(schema)) {
    try {
      return schema.parse(value);
    } catch (error) {
      throw new NodeSchemaValidationError(nodeName, direction, messageOf(error));
    }
  }
  const problems = validateAgainstSchema(value, schema, direction);
  if (problems.length > 0)
    throw new NodeSchemaValidationError(nodeName, direction, problems.join('; '));
  return value;
}
