// Flowise's conversation history options for a node that calls a model: which events its
// model's conversation is built from.

import type { Event } from '../core/event.ts';
import { REQUEST_CONFIRMATION_FUNCTION } from '../agents/confirmation.ts';
import type { HistorySelector } from '../agents/llm-call.ts';
import { runStartIndex } from './flow-events.ts';
import type { HistoryMode } from './flow.ts';

/**
 * - `all`: the whole conversation (the other nodes' words as context): no selector;
 * - `lastMessage`: the last message before the node ran, and the node's own run;
 * - `userQuestion`: the user's message of this turn, and the node's own run;
 * - `none`: only the node's own run (its tool calls and their answers).
 */
export function historySelector(
  mode: HistoryMode,
  flowName: string,
  /** With `all`: only the last this many messages before the node ran (Flowise's window). */
  window?: number,
): HistorySelector | undefined {
  // No selector: the agent keeps its contents up to date with every active event, and never
  // takes a stable copy of them (`ctx.activeEvents()`) that the next event appended would copy.
  if (mode === 'all' && window === undefined) return undefined;
  return (events, ctx) => {
    const start = runStartIndex(events, flowName, ctx.agent.name, ctx.branch);
    const own = events.slice(start + 1);
    const before = events.slice(0, Math.max(start, 0));
    switch (mode) {
      case 'all':
        return [...before.filter(isMessage).slice(-(window ?? 0)), ...own];
      case 'none':
        return own;
      case 'userQuestion': {
        const question = before.find(
          (event) => event.invocationId === ctx.invocationId && event.author === 'user',
        );
        return question ? [question, ...own] : own;
      }
      case 'lastMessage': {
        const last = before.findLast(isMessage);
        return last ? [last, ...own] : own;
      }
    }
  };
}

/** Words, a tool call or a tool result: not a checkpoint, a chunk or an approval exchange. */
function isMessage(event: Event): boolean {
  if (event.partial) return false;
  return (event.content?.parts ?? []).some(
    (part) =>
      (part.text !== undefined && part.text.trim() !== '' && !part.thought) ||
      (part.functionCall && part.functionCall.name !== REQUEST_CONFIRMATION_FUNCTION) ||
      (part.functionResponse && part.functionResponse.name !== REQUEST_CONFIRMATION_FUNCTION),
  );
}
