// What a flow's knowledge does when it runs (compile-flow.ts builds it): an Agent's or Tool node's
// references become KnowledgeTools the model calls, and a Retriever node is a tool node that makes
// its own call — a search of its bases for its query — so that its search and the sources it got
// are in the log as a call and its answer (`{ sources }`: the chat shows them as references, a
// resumed run reads its output back from them), as every tool's are.
//
// What must stay true: a node with a reference that has no base picked (or a flow given no way to
// search) never runs: the run fails naming the node and the store, before its model is asked.

import { InvalidRequestError } from '../core/errors.ts';
import type { KnowledgeSource } from '../knowledge/types.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { KNOWLEDGE_TOOL_NAME, KnowledgeTool } from '../tools/knowledge-tool.ts';
import type { FlowNode, RetrieverNode } from './flow.ts';
import {
  RETRIEVER_LIMITS,
  unpickedMessage,
  type FlowKnowledge,
  type KnowledgeRef,
  type RetrieverFormat,
} from './flow-knowledge.ts';
import { ToolNodeAgent } from './node-agents.ts';
import { renderTemplate, type TemplateScope } from './templates.ts';

/** The knowledge a node searches: its own references (a Retriever's, an Agent's, a Tool node's). */
export function knowledgeOf(node: FlowNode | undefined): readonly KnowledgeRef[] {
  return node && 'knowledge' in node && Array.isArray(node.knowledge) ? node.knowledge : [];
}

/**
 * Why a node cannot run: a reference with no base picked, or no knowledge given to the flow.
 * `refs`: the node's own, and for an LLM node those of the Tool nodes it leads to (it offers
 * their tools).
 */
export function knowledgeProblem(
  nodeId: string,
  refs: readonly KnowledgeRef[],
  knowledge: FlowKnowledge | undefined,
): Error | undefined {
  if (refs.length === 0) return undefined;
  const unpicked = refs.find((ref) => !ref.baseId);
  if (unpicked) return new InvalidRequestError(unpickedMessage(unpicked, nodeId));
  if (!knowledge)
    return new InvalidRequestError(
      `Node ${nodeId} searches knowledge bases, which this app does not offer`,
    );
  return undefined;
}

/** An Agent's or Tool node's references as tools (each searches its own base). */
export function knowledgeTools(
  refs: readonly KnowledgeRef[],
  knowledge: FlowKnowledge | undefined,
): BaseTool[] {
  return refs.map(
    (ref) =>
      new KnowledgeTool({
        name: ref.name,
        ...(ref.description ? { description: ref.description } : {}),
        search: (query, options) => searcher(knowledge, [ref])(query, options),
      }),
  );
}

/** A Retriever: one search of all its bases for its query (the user's message when it has none). */
export function retrieverAgent(
  node: RetrieverNode,
  flowName: string,
  knowledge: FlowKnowledge | undefined,
  scopeOf: (ctx: InvocationContext) => TemplateScope,
): ToolNodeAgent {
  const search = searcher(knowledge, node.knowledge);
  const tool = new KnowledgeTool({
    name: KNOWLEDGE_TOOL_NAME,
    limit: node.limit ?? RETRIEVER_LIMITS.default,
    search,
  });
  return new ToolNodeAgent({
    name: node.id,
    flowName,
    tools: [tool],
    ownCall: (ctx) => {
      const query = renderTemplate(node.query?.trim() || '{{question}}', scopeOf(ctx)).trim();
      return { name: tool.name, args: { query } };
    },
  });
}

/** A Retriever's output: its sources as text, or each with its document and place. */
export function retrievedText(response: unknown, format: RetrieverFormat = 'text'): string {
  const sources = (response as { sources?: unknown } | undefined)?.sources;
  if (!Array.isArray(sources)) return '';
  return (sources as KnowledgeSource[])
    .map((source) =>
      format === 'text'
        ? source.text
        : `[${source.source}] ${source.document} (${source.place})\n${source.text}`,
    )
    .join('\n\n');
}

/** A search of the references' bases; it refuses (as the node's check does) an unpicked one. */
function searcher(knowledge: FlowKnowledge | undefined, refs: readonly KnowledgeRef[]) {
  return (query: string, options: { limit: number; signal?: AbortSignal }) => {
    const unpicked = refs.find((ref) => !ref.baseId);
    if (unpicked || !knowledge)
      throw new InvalidRequestError(
        unpicked ? unpickedMessage(unpicked, 'this flow') : 'This app offers no knowledge bases',
      );
    return knowledge.search(
      refs.map((ref) => ref.baseId!),
      query,
      options,
    );
  };
}
