// The checks of a node's fields that refer to things outside the flow (models, tools, tool
// servers) or that have a shape of their own (structured output), for validate.ts.

import { OUTPUT_FIELD_TYPES } from './flow.ts';
import type { FlowNodeData, Report, ValidateFlowOptions } from './validate-graph.ts';

interface FieldContext {
  options: ValidateFlowOptions;
  report: Report;
}

export function checkModel(node: FlowNodeData, { options, report }: FieldContext): void {
  if (node.model === undefined) return;
  if (typeof node.model !== 'string') report('model must be a string', node.id);
  else if (options.models && !options.models.includes(node.model)) {
    report(`unknown model "${node.model}" (known models: ${options.models.join(', ')})`, node.id);
  }
}

export function checkToolNames(
  node: FlowNodeData,
  { options, report }: FieldContext,
  required: boolean,
) {
  const tools = node.tools;
  if (tools === undefined && !required) return;
  if (!isStringArray(tools)) {
    report(
      required
        ? 'a tool node needs "tools": an array of tool names'
        : 'tools must be an array of tool names',
      node.id,
    );
    return;
  }
  const known = options.tools;
  if (!known) return;
  for (const tool of tools.filter((name) => !known.includes(name))) {
    const slash = tool.lastIndexOf('/');
    if (slash < 0 || !options.toolServers) {
      report(`unknown tool "${tool}" (known tools: ${known.join(', ')})`, node.id);
      continue;
    }
    const server = tool.slice(0, slash);
    if (!tool.slice(slash + 1)) report(`"${tool}" names no tool after "${server}/"`, node.id);
    else if (!options.toolServers.includes(server)) {
      const servers = options.toolServers.length > 0 ? options.toolServers.join(', ') : 'none yet';
      report(
        `unknown tool server "${server}" in "${tool}" (Settings → Tool servers: ${servers})`,
        node.id,
      );
    }
  }
}

export function checkOutputFields(output: unknown, id: string, report: Report): void {
  if (output === undefined) return;
  if (!Array.isArray(output)) {
    report('output must be an array of fields { key, type, enum?, description? }', id);
    return;
  }
  const keys = new Set<string>();
  output.forEach((field: unknown, index) => {
    if (!isRecord(field) || typeof field.key !== 'string' || field.key === '') {
      report(`output field #${index + 1} needs a "key" (a non-empty string)`, id);
      return;
    }
    const name = `output field "${field.key}"`;
    if (keys.has(field.key)) report(`${name} is declared more than once`, id);
    keys.add(field.key);
    if (!(OUTPUT_FIELD_TYPES as readonly unknown[]).includes(field.type)) {
      report(
        `${name} has type ${shown(field.type)}; use one of ${OUTPUT_FIELD_TYPES.join(', ')}`,
        id,
      );
    } else if (field.type === 'enum' && (!isStringArray(field.enum) || field.enum.length === 0)) {
      report(`${name} is an enum and needs "enum": a non-empty array of strings`, id);
    }
    if (field.description !== undefined && typeof field.description !== 'string') {
      report(`${name} has a description that is not a string`, id);
    }
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** A value in a message: as JSON, cut short (a file's values can be long). */
export function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
