// The checks of a node's fields that refer to things outside the flow (models, tools, tool
// servers) or that have a shape of their own (structured output, condition rules), for validate.ts.

import { ELSE, VALUELESS_OPERATIONS, parseOperation } from './conditions.ts';
import { CONDITION_OPERATIONS, OUTPUT_FIELD_TYPES } from './flow.ts';
import { patternProblem } from './patterns.ts';
import { templateRefs } from './templates.ts';
import type { TemplateText } from './validate-types.ts';
import type { FlowNodeData, Report, ValidateFlowOptions } from './validate-types.ts';

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

/** Reports the rules' problems; returns their template texts. */
export function checkRules(rules: unknown, id: string, report: Report): TemplateText[] {
  if (!Array.isArray(rules) || rules.length === 0) {
    report('a condition needs "rules": a non-empty array', id);
    return [];
  }
  return rules.flatMap((rule: unknown, index) => {
    const name = `rule ${index + 1}`;
    if (!isRecord(rule)) {
      report(`${name} must be an object { variable, operation, value?, output }`, id);
      return [];
    }
    const operation =
      typeof rule.operation === 'string' ? parseOperation(rule.operation) : undefined;
    if (operation === undefined) {
      report(
        `${name} has an unknown operation ${shown(rule.operation)} (known: ${CONDITION_OPERATIONS.join(', ')})`,
        id,
      );
    } else if (rule.value === undefined && !VALUELESS_OPERATIONS.includes(operation)) {
      report(`${name} (${operation}) needs a "value" to compare with`, id);
    } else if (operation === 'regex' && typeof rule.value === 'string') {
      checkRegex(rule.value, name, id, report);
    }
    if (!['string', 'number', 'boolean', 'undefined'].includes(typeof rule.value)) {
      report(`${name} has a value that is not a string, number or boolean`, id);
    }
    if (typeof rule.output !== 'string' || rule.output === '') {
      report(`${name} needs an "output": the "when" of the edge to follow`, id);
    } else if (rule.output === ELSE) {
      report(`${name} has output "${ELSE}", which is reserved for when no rule matches`, id);
    }
    if (typeof rule.variable !== 'string') {
      report(`${name} needs a "variable" (a template such as {{state.key}})`, id);
    }
    return [
      ...(typeof rule.variable === 'string'
        ? [{ where: `the variable of ${name}`, text: rule.variable }]
        : []),
      ...(typeof rule.value === 'string'
        ? [{ where: `the value of ${name}`, text: rule.value }]
        : []),
    ];
  });
}

function checkRegex(pattern: string, rule: string, id: string, report: Report): void {
  // A pattern from a template is only known at run time (a bad one then simply does not match).
  if (templateRefs(pattern).length > 0) return;
  const problem = patternProblem(pattern);
  if (problem) report(`${rule} has a regex RE2 cannot run, ${shown(pattern)}: ${problem}`, id);
}
