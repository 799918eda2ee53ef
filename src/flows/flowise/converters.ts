// One converter per Flowise Sequential Agents node type: a node's form (`data.inputs`) as the
// Trellis node it becomes, what it changed or left out said in the report.

import type {
  ConditionRule,
  FlowNode,
  HistoryMode,
  OutputField,
  OutputFieldType,
} from '../flow.ts';
import { DEFAULT_MAX_LOOPS } from '../flow.ts';
import { table, text, type FlowiseNode, type Importer } from './importer.ts';
import { KnowledgeRefs } from './knowledge.ts';

const OUTPUT_TYPES: Record<string, OutputFieldType> = {
  String: 'string',
  'String Array': 'stringArray',
  Number: 'number',
  Boolean: 'boolean',
  Enum: 'enum',
  'JSON Array': 'json',
};

type Converter = (
  node: FlowiseNode,
  inputs: Record<string, unknown>,
  im: Importer,
) => FlowNode | undefined;

/** One entry per Flowise Sequential Agents node type. */
export const NODE_CONVERTERS: Record<string, Converter> = {
  seqStart: (node, inputs, im) => {
    if (inputs.model)
      im.note(node.id, 'changed', 'its chat model becomes the provider you choose for the flow');
    if (text(inputs.inputModeration))
      im.note(node.id, 'dropped', 'its input moderation chain is not carried over');
    return { id: im.idOf(node.id), type: 'start', label: label(node) };
  },
  seqState: (node, inputs, im) => {
    if (inputs.stateMemory === 'stateMemoryCode' || text(inputs.stateMemoryCode))
      im.note(node.id, 'dropped', 'its state JavaScript code is not run in Trellis');
    for (const row of table(inputs.stateMemoryUI) as {
      key?: string;
      type?: string;
      defaultValue?: unknown;
    }[]) {
      if (!row.key) continue;
      const operation = row.type === 'Append' ? 'append' : 'replace';
      const raw = row.defaultValue;
      const fallback = operation === 'append' ? [] : null;
      im.state.push({
        key: row.key,
        operation,
        default: raw === '' || raw === undefined ? fallback : parseMaybeJson(raw),
      });
    }
    return undefined; // Flowise's State is not a step: its keys are the flow's state
  },
  seqAgent: (node, inputs, im) => ({
    ...modelNote(node, inputs, im),
    id: im.idOf(node.id),
    type: 'agent',
    label: text(inputs.agentName) || label(node),
    instruction: im.prompt(node.id, inputs),
    ...nonEmpty('tools', im.tools(node.id, inputs)),
    ...nonEmpty('knowledge', retrievers(node, inputs, im)),
    ...(truthy(inputs.interrupt) ? { requireApproval: true } : {}),
    ...(truthy(inputs.interrupt) && text(inputs.approvalPrompt)
      ? { approvalPrompt: text(inputs.approvalPrompt) }
      : {}),
    ...history(inputs),
    ...optional('updateState', im.updateState(node.id, inputs)),
  }),
  seqLLMNode: (node, inputs, im) => {
    const output = (table(inputs.llmStructuredOutput) as Record<string, unknown>[]).flatMap(
      (row): OutputField[] => {
        const type = OUTPUT_TYPES[String(row.type)];
        if (!row.key || !type) return [];
        return [
          {
            key: String(row.key),
            type,
            ...(type === 'enum'
              ? {
                  enum: String(row.enumValues ?? '')
                    .split(',')
                    .map((v) => v.trim())
                    .filter(Boolean),
                }
              : {}),
            ...(row.description ? { description: String(row.description) } : {}),
          },
        ];
      },
    );
    return {
      id: im.idOf(node.id),
      type: 'llm',
      label: text(inputs.llmNodeName) || label(node),
      instruction: im.prompt(node.id, inputs),
      ...nonEmpty('output', output),
      ...history(inputs),
      ...optional('updateState', im.updateState(node.id, inputs)),
    };
  },
  seqToolNode: (node, inputs, im) => ({
    id: im.idOf(node.id),
    type: 'tool',
    label: text(inputs.toolNodeName) || label(node),
    tools: im.tools(node.id, inputs),
    ...nonEmpty('knowledge', retrievers(node, inputs, im)),
    // Flowise routes the LLM Node before it here only when it asks for a tool; otherwise its
    // answer ends the branch.
    endWithoutCalls: true,
    ...(truthy(inputs.interrupt) ? { requireApproval: true } : {}),
    ...(truthy(inputs.interrupt) && text(inputs.approvalPrompt)
      ? { approvalPrompt: text(inputs.approvalPrompt) }
      : {}),
    ...optional('updateState', im.updateState(node.id, inputs)),
  }),
  seqCondition: (node, inputs, im) => ({
    id: im.idOf(node.id),
    type: 'condition',
    label: text(inputs.conditionName) || label(node),
    rules: im.rules(node.id, inputs),
  }),
  seqConditionAgent: (node, inputs, im) => {
    // Flowise asks the model for structured output, then applies rules to it; Trellis asks the
    // model to name a scenario: the rules' outputs become the scenarios, with "End" for the rest.
    const rules = im.rules(node.id, inputs);
    const scenarios = [...new Set([...rules.map((rule) => rule.output), 'End'])];
    const said = rules.map((rule) => `${rule.output} when ${describeRule(rule)}`).join('; ');
    im.note(
      node.id,
      'changed',
      'its structured output and rules become scenarios the model chooses from',
    );
    return {
      id: im.idOf(node.id),
      type: 'conditionAgent',
      label: text(inputs.conditionAgentName) || label(node),
      instruction: `${im.prompt(node.id, inputs)}\n\nAnswer with one scenario: ${said}; otherwise End.`,
      scenarios,
      ...history(inputs),
    };
  },
  seqLoop: (node, inputs, im) => {
    const target = im.named(text(inputs.loopToName));
    if (!target)
      im.note(
        node.id,
        'dropped',
        `it loops to "${text(inputs.loopToName)}", which is not in the flow`,
      );
    return {
      id: im.idOf(node.id),
      type: 'loop',
      label: label(node),
      to: target ?? '',
      maxLoops: DEFAULT_MAX_LOOPS,
    };
  },
  seqEnd: (node, _inputs, im) => ({ id: im.idOf(node.id), type: 'end', label: label(node) }),
};

/** The Retriever Tools among a node's tools, as knowledge references. */
function retrievers(node: FlowiseNode, inputs: Record<string, unknown>, im: Importer) {
  return new KnowledgeRefs(im, node.id, im.knowledge).retrieverTools(inputs, im.byId).refs;
}

/** A node's own chat model: reported (the flow's provider, or the node's, is chosen here). */
function modelNote(node: FlowiseNode, inputs: Record<string, unknown>, im: Importer): object {
  if (inputs.model)
    im.note(node.id, 'changed', 'its own chat model becomes a provider you choose for the node');
  return {};
}

function describeRule(rule: ConditionRule): string {
  const variable = rule.variable.replace(/^\{\{output\.(.+)\}\}$/, '$1');
  return `${variable} ${rule.operation} ${rule.value ?? ''}`.trim();
}

function history(inputs: Record<string, unknown>): { history?: HistoryMode } {
  const map: Record<string, HistoryMode> = {
    all_messages: 'all',
    last_message: 'lastMessage',
    user_question: 'userQuestion',
    empty: 'none',
  };
  const mode = map[text(inputs.conversationHistorySelection)];
  return mode ? { history: mode } : {};
}

function label(node: FlowiseNode): string {
  return (node.data.label ?? node.data.name).slice(0, 100);
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function nonEmpty<K extends string, T>(key: K, list: T[]): Partial<Record<K, T[]>> {
  return list.length > 0 ? ({ [key]: list } as Record<K, T[]>) : {};
}

function optional<K extends string, T>(key: K, value: T | undefined): Partial<Record<K, T>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, T>);
}
