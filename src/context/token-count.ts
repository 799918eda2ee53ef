// How many tokens an agent's context holds, by ADK's rule (its TokenBasedContextCompactor's):
// the prompt token count of the latest event that has one among the events the model sees, else
// about four characters a token over the contents the model would be sent.

import type { ActiveEventsView } from '../core/active-events.ts';
import { contextEvents, modelEvents } from '../core/compaction.ts';
import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { buildContents } from '../agents/contents.ts';
import { cachedContents } from '../agents/contents-cache.ts';
import { contentsSource } from '../agents/compacted-contents.ts';

const CHARS_PER_TOKEN = 4;

/**
 * The tokens the model of agent `agentName` would be sent from the active events `active` (the
 * app's context meter): the latest `usageMetadata.promptTokenCount` after the latest compaction,
 * else the estimate of `estimateContentsTokens`.
 */
export function estimateContextTokens(
  active: readonly Event[],
  agentName: string,
  branch?: string,
): number {
  const counted = latestPromptTokenCount(contextEvents(active));
  if (counted !== undefined) return counted;
  return estimateContentsTokens(buildContents(modelEvents(active), agentName, branch));
}

/** The same, for a running agent: from the contents kept up to date for its requests. */
export function contextTokensOf(
  view: ActiveEventsView,
  context: readonly Event[],
  agentName: string,
  branch: string | undefined,
): number {
  const counted = latestPromptTokenCount(context);
  if (counted !== undefined) return counted;
  return estimateContentsTokens(cachedContents(contentsSource(view), agentName, branch));
}

/** The prompt token count of the latest event that has one. */
export function latestPromptTokenCount(events: readonly Event[]): number | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const count = events[i]!.usageMetadata?.promptTokenCount;
    if (count !== undefined) return count;
  }
  return undefined;
}

/**
 * ADK's estimate: the characters of the texts, function calls and responses (as JSON, without
 * the ids ADK makes for calls that had none, which it never sends), a token for each four.
 */
export function estimateContentsTokens(contents: readonly Content[]): number {
  let chars = 0;
  for (const content of contents) {
    for (const part of content.parts) {
      if (part.text) chars += part.text.length;
      if (part.functionCall) chars += JSON.stringify(withoutClientId(part.functionCall)).length;
      if (part.functionResponse)
        chars += JSON.stringify(withoutClientId(part.functionResponse)).length;
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function withoutClientId<T extends { id?: string }>(value: T): T {
  if (!value.id?.startsWith('adk-')) return value;
  const { id: _id, ...rest } = value;
  return rest as T;
}
