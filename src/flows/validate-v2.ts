// The checks of the node types and fields Flowise 3's Agentflow V2 brought (validate.ts calls
// them): a start form, Iteration, Custom Function (code), HTTP, Tool (toolCall), Execute Flow
// (subflow), the canvas's notes, and a node's place inside an Iteration (`parent`).

import {
  FLOW_LIMITS,
  FORM_FIELD_TYPES,
  HTTP_BODY_TYPES,
  HTTP_METHODS,
  type FlowProblem,
} from './flow.ts';
import { isRecord, isStringArray, shown } from './validate-fields.ts';
import type { FlowNodeData, Report, ValidateFlowOptions } from './validate-types.ts';

export type { TemplateText } from './validate-types.ts';

/** The most milliseconds a code node may run, and megabytes it may use. */
export const CODE_LIMITS = { timeoutMs: 60_000, memoryMb: 256 } as const;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface V2Context {
  options: ValidateFlowOptions;
  report: Report;
  /** Records a text of the node (its templates are checked after). */
  text: (where: string, value: unknown, required: boolean) => void;
}

/** Checks the fields of a V2 node (and a start node's form); its texts go to `text`. */
export function checkV2Fields(node: FlowNodeData, { options, report, text }: V2Context): void {
  const id = node.id;
  switch (node.type) {
    case 'start':
      if (node.form !== undefined) checkForm(node.form, id, report);
      return;
    case 'iteration':
      text('the list to iterate', node.input, true);
      checkSize(node.size, id, report);
      return;
    case 'code':
      text('the code', node.code, true);
      textMap(node.variables, 'variables', id, report, text, FIELD_NAME);
      limit(node.timeoutMs, 'timeoutMs', CODE_LIMITS.timeoutMs, id, report);
      limit(node.memoryMb, 'memoryMb', CODE_LIMITS.memoryMb, id, report, 16);
      return;
    case 'http':
      if (!(HTTP_METHODS as readonly unknown[]).includes(node.method))
        report(`method must be one of ${HTTP_METHODS.join(', ')}; got ${shown(node.method)}`, id);
      text('the URL', node.url, true);
      textMap(node.headers, 'headers', id, report, text, HEADER_NAME);
      textMap(node.query, 'query', id, report, text);
      if (
        node.bodyType !== undefined &&
        !(HTTP_BODY_TYPES as readonly unknown[]).includes(node.bodyType)
      )
        report(`bodyType must be one of ${HTTP_BODY_TYPES.join(', ')}`, id);
      text('the body', node.body, false);
      limit(node.timeoutMs, 'timeoutMs', 300_000, id, report);
      return;
    case 'toolCall':
      if (typeof node.tool !== 'string') report('a tool node needs "tool": a tool name', id);
      else if (node.tool && options.tools && !knownTool(node.tool, options))
        report(`unknown tool "${node.tool}" (known tools: ${options.tools.join(', ')})`, id);
      textMap(node.args, 'args', id, report, text);
      return;
    case 'subflow':
      if (typeof node.flow !== 'string' || node.flow === '')
        report('an Execute Flow node needs "flow": the name of the flow to run', id);
      else if (options.flows && !options.flows.includes(node.flow))
        report(
          `there is no flow named "${node.flow}" (flows: ${options.flows.join(', ') || 'none'})`,
          id,
        );
      text('the input', node.input, false);
      return;
    default:
      return;
  }
}

/** The names of the start form's fields, when it has a form (`{{form.x}}` names one). */
export function formFields(nodes: readonly FlowNodeData[]): string[] | undefined {
  const form = nodes.find((node) => node.type === 'start')?.form;
  if (!isRecord(form) || !Array.isArray(form.fields)) return undefined;
  return form.fields.flatMap((field: unknown) =>
    isRecord(field) && typeof field.name === 'string' ? [field.name] : [],
  );
}

function checkForm(form: unknown, id: string, report: Report): void {
  if (!isRecord(form) || !Array.isArray(form.fields)) {
    report('form needs "fields": an array of { name, label?, type, options? }', id);
    return;
  }
  for (const key of ['title', 'description'] as const)
    if (form[key] !== undefined && typeof form[key] !== 'string')
      report(`the form's ${key} must be a string`, id);
    else if (typeof form[key] === 'string' && form[key].length > FLOW_LIMITS.description)
      report(`the form's ${key} is longer than ${FLOW_LIMITS.description} characters`, id);
  if (form.fields.length === 0) report('the form has no fields', id);
  if (form.fields.length > 50) report('a form has at most 50 fields', id);
  const names = new Set<string>();
  form.fields.forEach((field: unknown, index) => {
    if (!isRecord(field) || typeof field.name !== 'string' || !FIELD_NAME.test(field.name)) {
      report(`form field #${index + 1} needs a "name": an identifier (letters, digits, _)`, id);
      return;
    }
    const name = `form field "${field.name}"`;
    if (names.has(field.name)) report(`${name} is declared more than once`, id);
    names.add(field.name);
    if (field.label !== undefined && typeof field.label !== 'string')
      report(`${name} has a label that is not a string`, id);
    if (!(FORM_FIELD_TYPES as readonly unknown[]).includes(field.type))
      report(
        `${name} has type ${shown(field.type)}; use one of ${FORM_FIELD_TYPES.join(', ')}`,
        id,
      );
    else if (
      field.type === 'options' &&
      (!isStringArray(field.options) || field.options.length === 0)
    )
      report(`${name} offers options and needs "options": a non-empty array of strings`, id);
  });
}

/** An object of name → template (headers, query, args, variables). */
function textMap(
  value: unknown,
  field: string,
  id: string,
  report: Report,
  text: V2Context['text'],
  names?: RegExp,
): void {
  if (value === undefined) return;
  if (!isRecord(value)) {
    report(`${field} must be an object of name → text`, id);
    return;
  }
  for (const [key, entry] of Object.entries(value)) {
    if (names && !names.test(key))
      report(`${field} has a name that cannot be used: ${shown(key)}`, id);
    text(`${field}.${key}`, entry, true);
  }
}

function limit(
  value: unknown,
  field: string,
  most: number,
  id: string,
  report: Report,
  least = 1,
): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least || value > most)
    report(`${field} must be a whole number from ${least} to ${most}; got ${shown(value)}`, id);
}

function checkSize(size: unknown, id: string, report: Report): void {
  if (size === undefined) return;
  const ok =
    isRecord(size) &&
    typeof size.width === 'number' &&
    typeof size.height === 'number' &&
    size.width > 0 &&
    size.height > 0 &&
    Number.isFinite(size.width) &&
    Number.isFinite(size.height);
  if (!ok) report('the size must be { "width": number, "height": number }, both positive', id);
}

function knownTool(tool: string, options: ValidateFlowOptions): boolean {
  if (options.tools?.includes(tool)) return true;
  const slash = tool.lastIndexOf('/');
  return slash > 0 && (options.toolServers ?? []).includes(tool.slice(0, slash));
}

/** The canvas's notes: `{ id, text, position?, size? }`. */
export function checkNotes(notes: unknown, report: Report): void {
  if (notes === undefined) return;
  if (!Array.isArray(notes)) {
    report('notes must be an array of { id, text, position?, size? }');
    return;
  }
  if (notes.length > FLOW_LIMITS.nodes) report(`a flow has at most ${FLOW_LIMITS.nodes} notes`);
  notes.forEach((note: unknown, index) => {
    if (!isRecord(note) || typeof note.id !== 'string' || typeof note.text !== 'string')
      report(`note #${index + 1} needs an "id" and a "text" (strings)`);
    else if (note.text.length > FLOW_LIMITS.text)
      report(`note #${index + 1} is longer than ${FLOW_LIMITS.text} characters`);
  });
}

/**
 * The Iterations and the nodes inside them: `parent` names an Iteration, an Iteration holds at
 * least one node and sits inside none, the start node is outside, and no edge (or loop) crosses
 * an Iteration's border. Returns the implicit links an Iteration adds (into its first nodes, and
 * back from its last), which paths take.
 */
export function checkIterations(
  nodes: readonly FlowNodeData[],
  links: readonly { from: string; to: string; jump?: boolean }[],
  report: Report,
): { from: string; to: string }[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map<string, string | undefined>();
  for (const node of nodes) {
    const parent = node.parent;
    if (parent === undefined) continue;
    if (typeof parent !== 'string' || byId.get(parent)?.type !== 'iteration') {
      report(`parent ${shown(parent)} is not an Iteration node of the flow`, node.id);
      continue;
    }
    if (node.type === 'start') report('the start node cannot be inside an Iteration', node.id);
    else if (node.type === 'iteration')
      report('an Iteration cannot be inside another Iteration', node.id);
    else parentOf.set(node.id, parent);
  }
  const implicit: { from: string; to: string }[] = [];
  for (const link of links) {
    if (parentOf.get(link.from) !== parentOf.get(link.to))
      report(
        `edge ${link.from} → ${link.to} crosses the border of an Iteration: the nodes inside one connect only to each other`,
        link.from,
      );
  }
  for (const node of nodes) {
    if (node.type !== 'iteration') continue;
    const inside = nodes.filter((child) => parentOf.get(child.id) === node.id).map((c) => c.id);
    if (inside.length === 0) {
      report('an Iteration needs nodes inside it (their "parent" is its id)', node.id);
      continue;
    }
    // A loop's jump back into a node does not stop it from starting an item.
    const edges = links.filter((link) => !link.jump);
    const { entries, exits } = iterationEnds(inside, edges);
    if (entries.length === 0)
      report('every node inside this Iteration has an edge into it: none starts an item', node.id);
    implicit.push(
      ...entries.map((to) => ({ from: node.id, to })),
      ...exits.map((from) => ({ from, to: node.id })),
    );
  }
  return implicit;
}

/**
 * The nodes inside an Iteration that start an item (no edge into them from inside) and that may
 * end one (no edge out of them).
 */
export function iterationEnds(
  inside: readonly string[],
  links: readonly { from: string; to: string }[],
): { entries: string[]; exits: string[] } {
  const members = new Set(inside);
  return {
    entries: inside.filter((id) => !links.some((l) => l.to === id && members.has(l.from))),
    exits: inside.filter((id) => !links.some((l) => l.from === id)),
  };
}

export type { FlowProblem };
