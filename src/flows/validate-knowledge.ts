// The checks of knowledge in a flow file (validate.ts calls them): an Agent's or Tool node's
// `knowledge` references and the Retriever node. A reference's base is checked against the bases
// that exist only when validateFlow is told them (`knowledgeBases`): an imported flow with no
// base picked yet is a good flow file, which the app runs only once each base is picked.

import { FLOW_LIMITS } from './flow.ts';
import {
  RETRIEVER_FORMATS,
  RETRIEVER_LIMITS,
  knowledgeLabel,
  unpickedMessage,
} from './flow-knowledge.ts';
import { isRecord, shown } from './validate-fields.ts';
import type { FlowNodeData, Report, ValidateFlowOptions } from './validate-types.ts';

/** A tool name, as providers take them. */
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
/** A store's name or a base's id. */
const SHORT_TEXT = 200;

interface KnowledgeContext {
  options: ValidateFlowOptions;
  report: Report;
  /** Records a text of the node (its templates are checked after). */
  text: (where: string, value: unknown, required: boolean) => void;
}

/** Checks a node's knowledge references, and a Retriever's own fields. */
export function checkKnowledge(node: FlowNodeData, context: KnowledgeContext): void {
  const { report, text } = context;
  const id = node.id;
  if (node.type === 'retriever') {
    if (!Array.isArray(node.knowledge) || node.knowledge.length === 0)
      report('a Retriever needs "knowledge": the knowledge bases it searches', id);
    text('the query', node.query, false);
    if (
      node.format !== undefined &&
      !(RETRIEVER_FORMATS as readonly unknown[]).includes(node.format)
    )
      report(
        `format must be one of ${RETRIEVER_FORMATS.join(', ')}; got ${shown(node.format)}`,
        id,
      );
    const limit = node.limit;
    const whole = typeof limit === 'number' && Number.isInteger(limit);
    if (limit !== undefined && !(whole && limit >= 1 && limit <= RETRIEVER_LIMITS.max))
      report(
        `limit must be a whole number from 1 to ${RETRIEVER_LIMITS.max}; got ${shown(limit)}`,
        id,
      );
  } else if (node.type !== 'agent' && node.type !== 'tool') return;
  if (node.knowledge === undefined) return;
  if (!Array.isArray(node.knowledge)) {
    report('knowledge must be an array of { name, description?, baseId?, source? }', id);
    return;
  }
  const names = new Set(Array.isArray(node.tools) ? node.tools : []);
  node.knowledge.forEach((ref: unknown, index) => checkRef(ref, index, names, node, context));
}

function checkRef(
  ref: unknown,
  index: number,
  names: Set<unknown>,
  node: FlowNodeData,
  { options, report }: KnowledgeContext,
): void {
  const id = node.id;
  const which = `knowledge #${index + 1}`;
  if (!isRecord(ref) || typeof ref.name !== 'string' || !TOOL_NAME.test(ref.name)) {
    report(
      `${which} needs a "name": a tool name (a letter or _, then letters, digits, _ or -; at most 64)`,
      id,
    );
    return;
  }
  // A Retriever calls no tool by the name: several may share one.
  if (node.type !== 'retriever' && names.has(ref.name))
    report(`${which}: another tool of the node is called "${ref.name}" too`, id);
  names.add(ref.name);
  if (ref.description !== undefined && typeof ref.description !== 'string')
    report(`${which}: the description must be a string`, id);
  else if (typeof ref.description === 'string' && ref.description.length > FLOW_LIMITS.text)
    report(`${which}: the description is longer than ${FLOW_LIMITS.text} characters`, id);
  for (const key of ['baseId', 'source'] as const) {
    const value = ref[key];
    if (value !== undefined && (typeof value !== 'string' || value.length > SHORT_TEXT))
      report(`${which}: ${key} must be a string of at most ${SHORT_TEXT} characters`, id);
  }
  const bases = options.knowledgeBases;
  if (!bases || (ref.baseId !== undefined && typeof ref.baseId !== 'string')) return;
  const named = { name: ref.name, source: typeof ref.source === 'string' ? ref.source : undefined };
  if (!ref.baseId) report(unpickedMessage(named, id), id);
  else if (!bases.includes(ref.baseId))
    report(
      `The knowledge base picked for “${knowledgeLabel(named)}” in node ${id} no longer exists: pick another`,
      id,
    );
}
