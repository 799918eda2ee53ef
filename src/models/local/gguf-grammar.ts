// GBNF grammars (llama.cpp's) that hold a local model to an answer we can read: a tool call whose
// name is one of the tools and whose arguments follow the tool's JSON Schema, or plain text; or,
// for structured output, JSON of the response schema. A small model cannot be trusted to write
// JSON by itself; under a grammar it cannot write anything else. Pure: no I/O.
//
// The JSON Schema subset: type (one or a list), enum, const, properties and required (required
// properties first, in the schema's order, then the optional ones, each may be left out), items,
// maxLength of strings, maxItems of arrays, nullable, anyOf / oneOf. Anything else (patterns,
// minimums, bounds of numbers, additionalProperties) is not enforced: such a value is any JSON of
// its type.

import type { FunctionDeclaration, JsonSchema } from '../llm.ts';

/** The JSON a call is written as: `{"name": "<tool>", "arguments": {…}}`. */
export interface ToolCallJson {
  name: string;
  arguments: Record<string, unknown>;
}

const JSON_RULES = String.raw`
value ::= object | array | string | number | boolean | "null"
object ::= "{" ws ( string ws ":" ws value ( ws "," ws string ws ":" ws value )* )? ws "}"
array ::= "[" ws ( value ( ws "," ws value )* )? ws "]"
string ::= "\"" char* "\""
char ::= [^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} )
number ::= integer ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?
integer ::= "-"? ( [0-9] | [1-9] [0-9]{1,15} )
boolean ::= "true" | "false"
ws ::= " "?
`;

/** Plain text: anything that does not start like a tool call. */
const TEXT_RULE = 'text ::= [^{] .*';

export interface ToolGrammarOptions {
  /** The tools the model may call; none means no call is possible. */
  tools: readonly FunctionDeclaration[];
  /** A plain-text answer is allowed (else the model must call a tool). */
  allowText: boolean;
  /** Instead of plain text, an answer must be JSON of this schema. */
  responseSchema?: JsonSchema;
}

/** A grammar for one reply: a call of one of `tools`, or an answer (text or the schema's JSON). */
export function toolGrammar({ tools, allowText, responseSchema }: ToolGrammarOptions): string {
  const rules = new Rules();
  const choices = tools.map((tool, i) => {
    const args = rules.add(`args-${i}`, schemaRule(tool.parameters ?? {}, `args-${i}`, rules));
    return rules.add(
      `call-${i}`,
      `"{" ws ${literal('"name"')} ws ":" ws ${literal(JSON.stringify(tool.name))} ws "," ws ` +
        `${literal('"arguments"')} ws ":" ws ${args} ws "}"`,
    );
  });
  if (responseSchema)
    choices.push(rules.add('answer', schemaRule(responseSchema, 'answer', rules)));
  else if (allowText) {
    rules.raw(TEXT_RULE);
    choices.push('text');
  }
  if (choices.length === 0) throw new Error('a grammar needs at least one kind of answer');
  return `root ::= ${choices.join(' | ')}\n${rules.text()}${JSON_RULES}`;
}

/** A grammar for JSON of `schema` alone (structured output, no tools). */
export function schemaGrammar(schema: JsonSchema): string {
  return toolGrammar({ tools: [], allowText: false, responseSchema: schema });
}

/** The call in a reply, when the reply is one; undefined for text (or anything else). */
export function parseToolCall(reply: string): ToolCallJson | undefined {
  const trimmed = reply.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const { name, arguments: args } = json as Record<string, unknown>;
  if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args))
    return undefined;
  return { name, arguments: args as Record<string, unknown> };
}

/** Named rules, in the order they were added, each name unique. */
class Rules {
  private readonly lines: string[] = [];
  private readonly names = new Set<string>();

  /** Adds `name ::= body` (the name made unique) and returns the name to refer to it by. */
  add(name: string, body: string): string {
    const base = name.replace(/[^a-zA-Z0-9-]+/g, '-').toLowerCase();
    let unique = base;
    for (let n = 2; this.names.has(unique); n++) unique = `${base}-${n}`;
    this.names.add(unique);
    this.lines.push(`${unique} ::= ${body}`);
    return unique;
  }

  raw(line: string): void {
    this.lines.push(line);
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** The GBNF expression for values of `schema`; nested objects and arrays get rules of their own. */
function schemaRule(schema: JsonSchema, name: string, rules: Rules): string {
  const alternatives = schemaAlternatives(schema, name, rules);
  if (schema.nullable) alternatives.push('"null"');
  return alternatives.length === 1 ? alternatives[0]! : `( ${alternatives.join(' | ')} )`;
}

function schemaAlternatives(schema: JsonSchema, name: string, rules: Rules): string[] {
  if ('const' in schema) return [literal(JSON.stringify(schema.const))];
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum.map((value) => literal(JSON.stringify(value)));
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union) && union.length > 0)
    return union.map((option, i) => schemaRule(option, `${name}-${i}`, rules));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return [schema.properties ? objectRule(schema, name, rules) : 'value'];
  return types.map((type) => {
    switch (type.toLowerCase()) {
      case 'string':
        return typeof schema.maxLength === 'number'
          ? `"\\"" char{0,${Math.max(0, Math.floor(schema.maxLength))}} "\\""`
          : 'string';
      case 'number':
        return 'number';
      case 'integer':
        return 'integer';
      case 'boolean':
        return 'boolean';
      case 'null':
        return '"null"';
      case 'array': {
        const item = schema.items
          ? rules.add(`${name}-item`, schemaRule(schema.items, `${name}-item`, rules))
          : 'value';
        const more =
          typeof schema.maxItems === 'number'
            ? `{0,${Math.max(0, Math.floor(schema.maxItems) - 1)}}`
            : '*';
        if (schema.maxItems === 0) return '"[" ws "]"';
        return `"[" ws ( ${item} ( ws "," ws ${item} )${more} )? ws "]"`;
      }
      case 'object':
        return schema.properties ? objectRule(schema, name, rules) : 'object';
      default:
        return 'value';
    }
  });
}

/** An object with the schema's properties: the required ones first, then each optional one. */
function objectRule(schema: JsonSchema, name: string, rules: Rules): string {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  const member = ([key, value]: [string, JsonSchema]) => {
    const rule = rules.add(`${name}-${key}`, schemaRule(value, `${name}-${key}`, rules));
    return `${literal(JSON.stringify(key))} ws ":" ws ${rule}`;
  };
  const must = entries.filter(([key]) => required.has(key)).map(member);
  const may = entries.filter(([key]) => !required.has(key)).map(member);
  const later = (from: number) =>
    may
      .slice(from)
      .map((m) => ` ( ws "," ws ${m} )?`)
      .join('');
  let body: string;
  if (must.length > 0) body = must.join(' ws "," ws ') + later(0);
  else if (may.length > 0)
    // Any optional property may come first; the ones after it may each be left out.
    body = `( ${may.map((m, i) => m + later(i + 1)).join(' | ')} )?`;
  else body = '';
  return `"{" ws ${body} ws "}"`;
}

/** A GBNF string literal that matches `text` exactly. */
function literal(text: string): string {
  return `"${text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')}"`;
}
