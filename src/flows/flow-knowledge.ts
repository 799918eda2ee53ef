// Knowledge in flows (issue 34): how a flow names the knowledge bases its nodes search, and what
// the app hands a flow to search them with. An Agent or Tool node's references become tools the
// model calls (src/tools/knowledge-tool.ts); a Retriever node searches them itself.
//
// What must stay true: a flow names a base only by its id, picked by the user (an import leaves it
// unset, with the name the store had in Flowise); a reference with no base never searches — the
// run fails naming the node and the store, and validateFlow says so before a run when it is told
// which bases exist.

import type { KnowledgeHit } from '../knowledge/types.ts';

/** A knowledge base a node searches: a Flowise document store, vector store or retriever. */
export interface KnowledgeRef {
  /** The tool name the model calls it by (`search_apple`); an identifier. */
  name: string;
  /** What it holds, for the model to know when to search it. */
  description?: string;
  /** The base the user picked (Knowledge); unset until one is picked. */
  baseId?: string;
  /** What Flowise called the store (`AI-Paper`), shown beside the picker. */
  source?: string;
}

/** A Retriever's output: the sources' text, or with each one's document and place. */
export const RETRIEVER_FORMATS = ['text', 'textWithMetadata'] as const;
export type RetrieverFormat = (typeof RETRIEVER_FORMATS)[number];

/** The most sources a Retriever asks for, and how many when it does not say. */
export const RETRIEVER_LIMITS = { max: 50, default: 5 } as const;

/**
 * What a flow searches knowledge with (`compileFlow`'s `knowledge`), from the app: the worker's
 * bases. `search` throws a clear error for a base that no longer exists.
 */
export interface FlowKnowledge {
  search(
    baseIds: readonly string[],
    query: string,
    options: { limit: number; signal?: AbortSignal },
  ): Promise<KnowledgeHit[]>;
}

/**
 * A reference's name in messages: the store's name in Flowise, else its tool name. A file's text:
 * on one line (no control or format characters), cut short.
 */
export function knowledgeLabel(ref: Pick<KnowledgeRef, 'name' | 'source'>): string {
  const source = (ref.source ?? '').replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ').trim();
  return (source.length > 80 ? `${source.slice(0, 79)}…` : source) || ref.name;
}

/** Why a reference cannot search: no base picked (said as the node editor's user reads it). */
export function unpickedMessage(ref: Pick<KnowledgeRef, 'name' | 'source'>, node: string): string {
  return `Pick a knowledge base for “${knowledgeLabel(ref)}” in node ${node}`;
}
