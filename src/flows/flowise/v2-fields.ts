// The fields of Agentflow V2 nodes as a Trellis flow's (agentflow-v2.ts converts the nodes):
// messages into an instruction, memory into a history mode, structured output, update state,
// built-in tools, conditions, and any text with its variables made templates (v2-text.ts). What
// has no counterpart is named in the report, by node.

import type {
  KnowledgeRef,
  ConditionOperation,
  ConditionRule,
  HistoryMode,
  OutputField,
  OutputFieldType,
  UpdateState,
} from '../flow.ts';
import { BUILTIN_TOOL_NAMES } from '../../tools/builtin-tools.ts';
import { TOOL_NAMES, isRecord, rows, text, type FlowiseNode, type Importer } from './importer.ts';

export { rows } from './importer.ts';
import { v2Text } from './v2-text.ts';
import { KnowledgeRefs } from './knowledge.ts';

export type Inputs = Record<string, unknown>;

export class V2Fields {
  constructor(
    protected readonly im: Importer,
    /** Flowise's ids of the nodes that become nodes here (a mention of another stays text). */
    protected readonly kept: ReadonlySet<string>,
  ) {}

  /** A model node's messages (and its user message) as its instruction. */
  protected messages(node: FlowiseNode, messages: unknown, userMessage: unknown): string {
    const parts: string[] = [];
    let others = false;
    for (const row of rows(messages)) {
      const content = this.text(node, row['content'], 'a message');
      if (!content) continue;
      const role = text(row['role']);
      if (role === 'system' || role === 'developer') parts.push(content);
      else {
        others = true;
        parts.push(`${role === 'assistant' ? 'Assistant' : 'User'}: ${content}`);
      }
    }
    const user = this.text(node, userMessage, 'its input message');
    if (user) {
      others = true;
      parts.push(user);
    }
    if (others)
      this.im.note(
        node.id,
        'changed',
        'its user and assistant messages are added to its instruction (a Trellis node speaks to its model through its instruction)',
      );
    return parts.join('\n\n');
  }

  protected memory(
    node: FlowiseNode,
    enabled: unknown,
    type: unknown,
    window?: unknown,
  ): { history?: HistoryMode; historyWindow?: number } {
    if (enabled === false) return { history: 'none' };
    if (type === 'windowSize') {
      const size = Number(window);
      return Number.isInteger(size) && size > 0 ? { historyWindow: size } : {};
    }
    if (type && type !== 'allMessages')
      this.im.note(
        node.id,
        'changed',
        `its memory "${String(type)}" (a model-written summary) becomes the whole conversation (Trellis's "all")`,
      );
    return {};
  }

  protected structuredOutput(node: FlowiseNode, value: unknown): OutputField[] {
    const fields: OutputField[] = [];
    for (const row of rows(value)) {
      const key = text(row['key']).trim();
      if (!key) continue;
      const type = OUTPUT_TYPES[text(row['type'])];
      if (!type) {
        this.im.note(
          node.id,
          'dropped',
          `structured output ${key}: type "${text(row['type'])}" has no Trellis counterpart`,
        );
        continue;
      }
      const description = text(row['description']).trim();
      const values = text(row['enumValues'])
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      if (type === 'json' && text(row['jsonSchema']).trim())
        this.im.note(
          node.id,
          'changed',
          `structured output ${key}: its JSON schema is described, not enforced`,
        );
      fields.push({
        key,
        type,
        ...(type === 'enum' ? { enum: values } : {}),
        ...(description ? { description } : {}),
      });
    }
    return fields;
  }

  protected updateState(node: FlowiseNode, value: unknown): { updateState?: UpdateState } {
    const update: UpdateState = {};
    for (const row of rows(value)) {
      const key = text(row['key']).trim();
      if (key) update[key] = this.text(node, row['value'], `state ${key}`);
    }
    return Object.keys(update).length > 0 ? { updateState: update } : {};
  }

  protected tools(
    node: FlowiseNode,
    value: unknown,
  ): { tools?: string[]; requireApproval?: boolean } {
    const tools: string[] = [];
    let approval = false;
    for (const row of rows(value)) {
      const flowiseName = text(row['agentSelectedTool']);
      const name = TOOL_NAMES[flowiseName];
      if (name && BUILTIN_TOOL_NAMES.includes(name)) {
        tools.push(name);
        if (row['agentSelectedToolRequiresHumanInput'] === true) approval = true;
      } else
        this.im.note(
          node.id,
          'dropped',
          `tool "${flowiseName}" has no Trellis counterpart: give the node one of yours (a tool server's, in Settings → Tool servers)`,
        );
    }
    return {
      ...(tools.length > 0 ? { tools } : {}),
      ...(approval ? { requireApproval: true } : {}),
    };
  }

  /** An Agent's knowledge (document stores, vector stores) as references it searches. */
  protected knowledge(node: FlowiseNode, inputs: Inputs): { knowledge?: KnowledgeRef[] } {
    const { refs } = new KnowledgeRefs(this.im, node.id, this.im.knowledge)
      .documentStores(inputs['agentKnowledgeDocumentStores'])
      .vectorStores(inputs['agentKnowledgeVSEmbeddings']);
    return refs.length > 0 ? { knowledge: refs } : {};
  }

  protected model(node: FlowiseNode, model: unknown, config: unknown): Record<string, never> {
    const modelName = isRecord(config) ? text(config['modelName']) : '';
    if (text(model))
      this.im.note(
        node.id,
        'changed',
        `its chat model (${text(model)}${modelName ? `, ${modelName}` : ''}) becomes the provider you choose for the flow`,
      );
    return {};
  }

  protected rules(node: FlowiseNode, value: unknown): ConditionRule[] {
    return rows(value).map((row, index) => {
      const type = text(row['type']) || 'string';
      const operation = OPERATIONS[`${type}:${text(row['operation'])}`];
      if (!operation)
        this.im.note(
          node.id,
          'changed',
          `condition ${index}: "${text(row['operation'])}" on a ${type} is read as "is"`,
        );
      const compared = this.text(node, row['value2'], `condition ${index}`);
      return {
        variable: this.text(node, row['value1'], `condition ${index}`),
        operation: operation ?? 'is',
        ...(operation === 'isEmpty' || operation === 'isNotEmpty'
          ? {}
          : {
              value:
                type === 'number' && compared !== '' && !Number.isNaN(Number(compared))
                  ? Number(compared)
                  : compared,
            }),
        output: `Condition ${index}`,
      };
    });
  }

  /** A field's text, its variables made templates; what has none is reported. */
  protected text(node: FlowiseNode, value: unknown, where: string): string {
    const made = v2Text(value, (flowiseId) =>
      this.kept.has(flowiseId) ? this.im.idOf(flowiseId) : undefined,
    );
    for (const unknown of made.unknown)
      this.im.note(
        node.id,
        'dropped',
        `${where}: "{{ ${unknown} }}" has no Trellis template; kept as text`,
      );
    return made.text;
  }
}

/** V2's structured output types as Trellis's. */
const OUTPUT_TYPES: Record<string, OutputFieldType> = {
  string: 'string',
  stringArray: 'stringArray',
  number: 'number',
  boolean: 'boolean',
  enum: 'enum',
  jsonArray: 'json',
};

/** V2's condition operations (by the type they compare) as Trellis's. */
const OPERATIONS: Record<string, ConditionOperation> = {
  'string:equal': 'is',
  'string:notEqual': 'isNot',
  'string:contains': 'contains',
  'string:notContains': 'notContains',
  'string:startsWith': 'startsWith',
  'string:endsWith': 'endsWith',
  'string:regex': 'regex',
  'string:isEmpty': 'isEmpty',
  'string:notEmpty': 'isNotEmpty',
  'number:equal': 'equalTo',
  'number:notEqual': 'notEqualTo',
  'number:larger': 'greaterThan',
  'number:largerEqual': 'greaterOrEqual',
  'number:smaller': 'lessThan',
  'number:smallerEqual': 'lessOrEqual',
  'number:isEmpty': 'isEmpty',
  'number:notEmpty': 'isNotEmpty',
  'boolean:equal': 'is',
  'boolean:notEqual': 'isNot',
};
