// The knowledge tool: an agent searches the knowledge bases it was given (src/knowledge) and gets
// the best chunks back as numbered sources, which its answer cites as [n] and the chat lists under
// the answer (any tool whose response is `{ sources: KnowledgeSource[] }`). Built by the agent
// builder (`search_knowledge`, bound to the bases the user ticked) and by imported Flowise
// retrievers (named as in Flowise, e.g. `search_apple`).
//
// What must stay true: a turn's sources are numbered once: a second search in the same invocation
// numbers on from the first's, and a passage found again keeps its number (read from the
// invocation's own events, so it holds after a resume too). What the tool returned is in the session's events: deleting a document later never changes
// a past answer, and rewind or resume need nothing of their own.

import { functionResponsesOf } from '../core/content.ts';
import { placeOf, sourcesOf, type KnowledgeHit, type KnowledgeSource } from '../knowledge/types.ts';
import { BaseTool, type ToolProcessLlmRequest } from './base-tool.ts';
import type { ToolContext } from './tool-context.ts';
import { appendInstructions } from './tool-requests.ts';

export type KnowledgeSearch = (
  query: string,
  options: { limit: number; signal?: AbortSignal },
) => Promise<KnowledgeHit[]>;

export interface KnowledgeToolOptions {
  /** The name the model calls it by (default `search_knowledge`). */
  name?: string;
  /** What the bases hold, for the model to know when to search. */
  description?: string;
  search: KnowledgeSearch;
  /** Chunks a search returns at most (default 5). */
  limit?: number;
}

export const KNOWLEDGE_TOOL_NAME = 'search_knowledge';
/** How every knowledge tool's description ends: what tells the model (and the demo) to cite. */
export const CITE_SOURCES = 'Each result is a numbered source: cite the sources you use as [n].';
const MAX_QUERY = 2000;

export class KnowledgeTool extends BaseTool {
  private readonly search: KnowledgeSearch;
  private readonly limit: number;

  constructor({ name, description, search, limit = 5 }: KnowledgeToolOptions) {
    super(
      name ?? KNOWLEDGE_TOOL_NAME,
      (description?.trim() ||
        "Searches the user's documents (their knowledge base) and returns the passages that best match the query.") +
        ` ${CITE_SOURCES}`,
      {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            description: 'What to look for: a question or keywords, in the words of the documents.',
          },
        },
        required: ['query'],
      },
    );
    this.search = search;
    this.limit = limit;
  }

  override async runAsync(
    args: Record<string, unknown>,
    toolContext: ToolContext,
  ): Promise<{ sources: KnowledgeSource[] } | { error: string }> {
    const query = typeof args['query'] === 'string' ? args['query'].trim() : '';
    // The model's slip, for it to mend: an answer, not a failed run.
    if (!query) return { error: `${this.name} needs a query: words to look for` };
    const signal = toolContext.invocationContext.runConfig.signal;
    const hits = await this.search(query.slice(0, MAX_QUERY), {
      limit: this.limit,
      ...(signal ? { signal } : {}),
    });
    // A passage found again keeps its number; a new one takes the next.
    const given = sourcesGivenSoFar(toolContext);
    let next = given.size + 1;
    return {
      sources: hits.map((hit) => sourceOf(hit, given.get(hit.chunk.id) ?? next++)),
    };
  }

  override async processLlmRequest(request: ToolProcessLlmRequest): Promise<void> {
    await super.processLlmRequest(request);
    appendInstructions(request.llmRequest, [
      `When a question may be answered by the user's documents, call ${this.name} first, answer from the sources it returns, and cite each source you use as [n]. If the sources do not hold the answer, say so.`,
    ]);
  }
}

/** A hit as the model and the chat see it. */
export function sourceOf(hit: KnowledgeHit, source: number): KnowledgeSource {
  const { chunk } = hit;
  return {
    source,
    document: hit.document,
    place: placeOf(chunk),
    text: chunk.text,
    ref: {
      baseId: chunk.baseId,
      documentId: chunk.documentId,
      chunkId: chunk.id,
      start: chunk.start,
      end: chunk.end,
    },
  };
}

/** The sources knowledge tools gave earlier in this invocation: each passage's number. */
function sourcesGivenSoFar(toolContext: ToolContext): Map<string, number> {
  const { invocationId } = toolContext.invocationContext;
  const events = toolContext.invocationContext.activeEvents();
  let first = events.length;
  while (first > 0 && events[first - 1]!.invocationId === invocationId) first--;
  const given = new Map<string, number>();
  for (const event of events.slice(first))
    for (const response of functionResponsesOf(event.content))
      for (const source of sourcesOf(response.response))
        if (!given.has(source.ref.chunkId)) given.set(source.ref.chunkId, source.source);
  return given;
}

/** Whether a tool the model is offered is a knowledge tool (by the end of its description). */
export function isKnowledgeTool(declaration: { description?: string }): boolean {
  return declaration.description?.endsWith(CITE_SOURCES) ?? false;
}
