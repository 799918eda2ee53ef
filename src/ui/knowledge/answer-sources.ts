// The sources under an answer: what knowledge tools handed the model in the answer's turn. Any
// tool whose response is `{ sources: KnowledgeSource[] }` counts (`search_knowledge`, a Flowise
// retriever's own name), so the chat never needs to know the tools by name. Pure: the unit tests
// pin it (test/unit/ui/knowledge-sources.test.ts).
//
// What must stay true: a turn's sources go under its answer (its last agent message), numbered as
// the tool numbered them (what the answer cites as [n]), each number once (a later call that gave
// the same number again does not replace the first), in order; a response that only looks like
// sources (a field missing or of another type) is left out, never shown half; a source whose
// passage is gone is told apart from any other failure to open it (isGone).

import { agentToolScope } from '../../agents/agent-tool-branches.ts';
import { functionResponsesOf } from '../../core/content.ts';
import type { Event } from '../../core/event.ts';
import { sourcesOf, type KnowledgeSource } from '../../../workers/protocol.ts';

export { sourcesOf };
import type { ChatItem } from '../chat/chat-model.ts';

/** By the id of each turn's answer (a chat item's id): the sources its turn was given. */
export function answerSources(
  active: readonly Event[],
  items: readonly ChatItem[] | undefined,
): ReadonlyMap<string, KnowledgeSource[]> {
  const byTurn = new Map<string, Map<number, KnowledgeSource>>();
  for (const event of active) {
    // An agent called as a tool cites its own sources in its own answer (a tool result here).
    if (agentToolScope(event.branch)) continue;
    for (const response of functionResponsesOf(event.content)) {
      const sources = sourcesOf(response.response);
      if (sources.length === 0) continue;
      let turn = byTurn.get(event.invocationId);
      if (!turn) byTurn.set(event.invocationId, (turn = new Map()));
      for (const source of sources) if (!turn.has(source.source)) turn.set(source.source, source);
    }
  }
  const answers = new Map<string, KnowledgeSource[]>();
  if (byTurn.size === 0) return answers;
  const lastAnswer = new Map<string, string>();
  for (const item of items ?? [])
    if (item.kind === 'message' && !item.fromUser) lastAnswer.set(item.invocationId, item.id);
  for (const [invocationId, turn] of byTurn) {
    const answerId = lastAnswer.get(invocationId);
    if (answerId)
      answers.set(
        answerId,
        [...turn.values()].sort((a, b) => a.source - b.source),
      );
  }
  return answers;
}

/** The well-formed sources of a tool's response (none when it is not a knowledge tool's). */
/** "[2] Handbook.pdf — page 3". */
export function sourceLabel(source: KnowledgeSource): string {
  return `[${source.source}] ${source.document} — ${source.place}`;
}

/**
 * Whether opening failed because the chunk is gone (its document or base removed): the worker
 * says so with a NotFoundError, or in words when the name did not cross Comlink.
 */
export function isGone(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: string; message?: string };
  return (
    name === 'NotFoundError' ||
    /\b(not found|no such|removed|deleted|no longer)\b/i.test(message ?? '')
  );
}
