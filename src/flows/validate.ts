// Validation of a flow file: every problem at once, each on the node it concerns, so the editor
// can mark them all. The file is untrusted JSON: nothing here assumes a field has its type.
//
// This file checks the flow's and each node's own fields (templates included); validate-graph.ts
// checks the edges and the shape of the graph.

import { FlowValidationError } from '../core/errors.ts';
import { DEFINITION_FILE_LIMITS, jsonTreeProblem } from '../core/json-limits.ts';
import { FLOW_LIMITS, HISTORY_MODES, NODE_TYPES, type Flow, type FlowProblem } from './flow.ts';
import { templateRefs } from './templates.ts';
import { checkNotes, checkV2Fields, formFields, type TemplateText } from './validate-v2.ts';
import { checkKnowledge } from './validate-knowledge.ts';
import {
  checkModel,
  checkOutputFields,
  checkRules,
  checkToolNames,
  isRecord,
  isStringArray,
  shown,
} from './validate-fields.ts';
import {
  checkGraph,
  type FlowNodeData,
  type Report,
  type ValidateFlowOptions,
} from './validate-graph.ts';

export type { ValidateFlowOptions } from './validate-graph.ts';

const NODE_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const STATE_OPERATIONS: readonly unknown[] = ['replace', 'append'];
/** The nodes that call a model, and so may name one. */
const MODEL_NODE_TYPES: readonly string[] = ['start', 'agent', 'llm', 'conditionAgent'];

/** Every problem of the flow file; [] when it is valid. Never throws. */
export function validateFlow(input: unknown, options: ValidateFlowOptions = {}): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const report: Report = (message, nodeId) =>
    problems.push(nodeId === undefined ? { message } : { nodeId, message });

  if (!isRecord(input)) {
    report(`a flow must be a JSON object, not ${describe(input)}`);
    return problems;
  }
  // Too deep, a string too long, text that is not Unicode: nothing else is worth checking.
  const hostile = jsonTreeProblem(input, DEFINITION_FILE_LIMITS);
  if (hostile) {
    report(hostile);
    return problems;
  }
  const name = typeof input.name === 'string' ? input.name : undefined;
  if (!name) report('the flow needs a "name" (a non-empty string)');
  else if (name.length > FLOW_LIMITS.name)
    report(
      `the flow's name is ${name.length} characters long; a name has at most ${FLOW_LIMITS.name}`,
    );
  if (input.description !== undefined && typeof input.description !== 'string')
    report('the description must be a string');
  else if (
    typeof input.description === 'string' &&
    input.description.length > FLOW_LIMITS.description
  )
    report(`the description is longer than ${FLOW_LIMITS.description} characters`);
  if (!Array.isArray(input.nodes)) report('the flow needs "nodes" (an array)');
  else if (input.nodes.length > FLOW_LIMITS.nodes)
    report(`the flow has ${input.nodes.length} nodes; a flow has at most ${FLOW_LIMITS.nodes}`);
  if (!Array.isArray(input.edges)) report('the flow needs "edges" (an array)');
  else if (input.edges.length > FLOW_LIMITS.edges)
    report(`the flow has ${input.edges.length} edges; a flow has at most ${FLOW_LIMITS.edges}`);
  // Without these (and within bounds) nothing else can be checked meaningfully.
  if (problems.length > 0 || !Array.isArray(input.nodes) || !Array.isArray(input.edges)) {
    return problems;
  }

  if (input.maxSteps !== undefined && !isPositiveInteger(input.maxSteps)) {
    report(`maxSteps must be a positive integer; got ${shown(input.maxSteps)}`);
  }
  const stateKeys = checkState(input.state, report);
  const { nodes, ids } = checkNodeIds(input.nodes, name ?? '', report);
  const context: NodeContext = {
    stateKeys,
    nodeIds: ids,
    form: formFields(nodes),
    options,
    report,
  };
  for (const node of nodes) checkNode(node, context);
  checkGraph(nodes, ids, input.edges, report);
  checkNotes(input.notes, report);
  return problems;
}

/** The flow typed as a Flow; throws FlowValidationError listing every problem when it is not. */
export function assertValidFlow(input: unknown, options: ValidateFlowOptions = {}): Flow {
  const problems = validateFlow(input, options);
  if (problems.length > 0) throw new FlowValidationError(problems);
  return input as Flow;
}

interface NodeContext {
  /** The keys declared in the flow's `state`. */
  stateKeys: ReadonlySet<string>;
  /** The ids of the flow's nodes (`{{nodes.id}}` names one). */
  nodeIds: ReadonlySet<string>;
  /** The start form's field names (`{{form.x}}` names one); undefined without a form. */
  form: readonly string[] | undefined;
  options: ValidateFlowOptions;
  report: Report;
}

function checkState(state: unknown, report: Report): Set<string> {
  const keys = new Set<string>();
  if (state === undefined) return keys;
  if (!Array.isArray(state)) {
    report('state must be an array of { key, operation, default? }');
    return keys;
  }
  state.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || typeof entry.key !== 'string' || entry.key === '') {
      report(`state entry #${index + 1} needs a "key" (a non-empty string)`);
      return;
    }
    if (entry.key.length > FLOW_LIMITS.stateKey) {
      report(`state entry #${index + 1} has a key longer than ${FLOW_LIMITS.stateKey} characters`);
      return;
    }
    if (keys.has(entry.key)) report(`state key "${entry.key}" is declared more than once`);
    keys.add(entry.key);
    if (!STATE_OPERATIONS.includes(entry.operation)) {
      report(
        `state key "${entry.key}" has operation ${shown(entry.operation)}; use replace or append`,
      );
    }
  });
  return keys;
}

/** All node ids, and the nodes with a unique id and a known type; reports the others and bad ids. */
function checkNodeIds(
  nodes: readonly unknown[],
  flowName: string,
  report: Report,
): { nodes: FlowNodeData[]; ids: Set<string> } {
  const seen = new Set<string>();
  const known: FlowNodeData[] = [];
  nodes.forEach((node, index) => {
    if (!isRecord(node) || typeof node.id !== 'string') {
      report(`node #${index + 1} needs an "id" (a string)`);
      return;
    }
    const id = node.id;
    if (id.length > FLOW_LIMITS.nodeId) {
      report(
        `node #${index + 1} has an id of ${id.length} characters; an id has at most ${FLOW_LIMITS.nodeId}`,
      );
      return;
    }
    if (!NODE_ID.test(id)) {
      report(
        `node id "${id}" must be an identifier: a letter or _, then letters, digits, _ or -`,
        id,
      );
    }
    // Events of a node are authored by its id: these would pass for the user or the flow itself.
    if (id === 'user') report(`node id "user" is reserved for the user's messages`, id);
    if (id === flowName) report(`node id "${id}" is also the flow's name`, id);
    if (seen.has(id)) {
      report(`node id "${id}" is used by more than one node`, id);
      return;
    }
    seen.add(id);
    if (!(NODE_TYPES as readonly unknown[]).includes(node.type)) {
      report(`unknown node type ${shown(node.type)} (known types: ${NODE_TYPES.join(', ')})`, id);
      return;
    }
    known.push(node as FlowNodeData);
  });
  const starts = known.filter((node) => node.type === 'start');
  if (starts.length === 0) report('the flow has no start node');
  for (const extra of starts.slice(1)) {
    report(`a flow has exactly one start node, and "${starts[0]!.id}" is one already`, extra.id);
  }
  return { nodes: known, ids: seen };
}

function checkNode(node: FlowNodeData, context: NodeContext): void {
  const { report } = context;
  const id = node.id;
  const texts: TemplateText[] = [];
  const text = (where: string, value: unknown, required: boolean) => {
    if (typeof value === 'string' && value.length > FLOW_LIMITS.text)
      report(`${where} is longer than ${FLOW_LIMITS.text} characters`, id);
    else if (typeof value === 'string') texts.push({ where, text: value });
    else if (value !== undefined) report(`${where} must be a string`, id);
    else if (required) report(`${where} is missing (a string is required)`, id);
  };
  if (node.label !== undefined && typeof node.label !== 'string')
    report('the label must be a string', id);
  else if (typeof node.label === 'string' && node.label.length > FLOW_LIMITS.label)
    report(`the label is longer than ${FLOW_LIMITS.label} characters`, id);
  const position = node.position as { x?: unknown; y?: unknown } | undefined;
  if (
    position !== undefined &&
    !(isRecord(position) && isFiniteNumber(position.x) && isFiniteNumber(position.y))
  )
    report('the position must be { "x": number, "y": number } (where the canvas draws it)', id);
  switch (node.type) {
    case 'start':
      if (node.moderation !== undefined) {
        if (!isRecord(node.moderation) || !isStringArray(node.moderation.blocked)) {
          report('moderation needs "blocked": an array of strings', id);
        } else text('the moderation message', node.moderation.message, false);
      }
      break;
    case 'agent':
      text('the instruction', node.instruction, true);
      checkToolNames(node, context, false);
      break;
    case 'llm':
      text('the instruction', node.instruction, false);
      checkToolNames(node, context, false);
      checkOutputFields(node.output, id, report);
      break;
    case 'conditionAgent':
      text('the instruction', node.instruction, true);
      if (!isStringArray(node.scenarios) || node.scenarios.length === 0) {
        report('a conditionAgent needs "scenarios": a non-empty array of strings', id);
      }
      break;
    case 'tool':
      checkToolNames(node, context, true);
      if (node.endWithoutCalls !== undefined && typeof node.endWithoutCalls !== 'boolean')
        report('endWithoutCalls must be true or false', id);
      break;
    case 'condition':
      texts.push(...checkRules(node.rules, id, report));
      break;
    case 'loop':
      if (typeof node.to !== 'string') report('a loop needs "to": the node to go back to', id);
      if (node.maxLoops !== undefined && !isPositiveInteger(node.maxLoops)) {
        report(`maxLoops must be a positive integer; got ${shown(node.maxLoops)}`, id);
      }
      text('the fallback', node.fallback, false);
      break;
    case 'end':
      break;
    case 'reply':
      text('the message', node.message, true);
      break;
    case 'humanInput':
      text('the description', node.description, true);
      break;
    default:
      break;
  }
  checkV2Fields(node, { options: context.options, report, text });
  checkKnowledge(node, { options: context.options, report, text });
  if (node.history !== undefined && !(HISTORY_MODES as readonly unknown[]).includes(node.history)) {
    report(`history must be one of ${HISTORY_MODES.join(', ')}; got ${shown(node.history)}`, id);
  }
  if (
    node.historyWindow !== undefined &&
    !(isPositiveInteger(node.historyWindow) && (node.history ?? 'all') === 'all')
  )
    report('historyWindow must be a positive whole number, with history "all"', id);
  if (node.requireApproval !== undefined && typeof node.requireApproval !== 'boolean') {
    report('requireApproval must be true or false', id);
  }
  if (node.approvalPrompt !== undefined) text('the approval prompt', node.approvalPrompt, false);
  if (MODEL_NODE_TYPES.includes(node.type)) checkModel(node, context);
  texts.push(...checkUpdateState(node, context));
  for (const { where, text } of texts) checkTemplates(text, where, node, context);
}

/** Reports Update State problems; returns its templates. */
function checkUpdateState(node: FlowNodeData, { stateKeys, report }: NodeContext): TemplateText[] {
  const updates = node.updateState;
  if (updates === undefined) return [];
  if (!isRecord(updates)) {
    report('updateState must be an object of state key → template', node.id);
    return [];
  }
  return Object.entries(updates).flatMap(([key, value]) => {
    if (!stateKeys.has(key)) {
      report(`updateState key "${key}" is not declared in the flow's state`, node.id);
    }
    if (typeof value === 'string') return [{ where: `updateState.${key}`, text: value }];
    report(`updateState.${key} must be a string (a template)`, node.id);
    return [];
  });
}

/** Templates must name declared state keys, known roots and (in Update State) output fields. */
function checkTemplates(text: string, where: string, node: FlowNodeData, context: NodeContext) {
  // An llm node with output fields writes its structured output: `output.x` must be a field.
  const fields =
    node.type === 'llm' && where.startsWith('updateState') && Array.isArray(node.output)
      ? node.output.flatMap((field: unknown) =>
          isRecord(field) && typeof field.key === 'string' ? [field.key] : [],
        )
      : [];
  for (const ref of templateRefs(text)) {
    const [root, first] = ref.split('.');
    let problem: string | undefined;
    if (root === 'state') {
      if (!first) problem = 'names no state key';
      else if (!context.stateKeys.has(first)) {
        problem = `names state key "${first}", which the flow's state does not declare`;
      }
    } else if (root === 'output') {
      if (fields.length > 0 && first !== undefined && !fields.includes(first)) {
        problem = `names output field "${first}", which is not one of the node's output fields (${fields.join(', ')})`;
      }
    } else if (root === 'question') {
      if (first !== undefined) problem = 'reads a field of the question, which is text';
    } else if (root === 'nodes') {
      if (!first) problem = 'names no node (write {{nodes.<node id>}})';
      else if (!context.nodeIds.has(first))
        problem = `names node "${first}", which is not in the flow`;
    } else if (root === 'form') {
      if (!context.form) problem = 'reads the start form, but the start node has no form';
      else if (first !== undefined && !context.form.includes(first))
        problem = `names form field "${first}", which the start form does not have (${context.form.join(', ')})`;
    } else if (root === 'current_date_time') {
      if (first !== undefined) problem = 'reads a field of the date, which is text';
    } else if (root === 'iteration') {
      if (typeof node.parent !== 'string')
        problem = 'reads the item of an Iteration, but the node is not inside one';
      else if (first !== 'item' && first !== 'index')
        problem = 'names neither iteration.item nor iteration.index';
    } else {
      problem = `has an unknown root "${root}" (use state, output, question, nodes, form, iteration or current_date_time)`;
    }
    if (problem) context.report(`{{${ref}}} in ${where} ${problem}`, node.id);
  }
}

function isPositiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
