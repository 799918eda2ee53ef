// What a context compactor is (ADK 2.0's `BaseContextCompactor`), and a summariser's.
//
// ADK's compactors change `session.events` in place (push a compacted event, splice events
// out). Trellis's never touch the session: `compact` returns the compaction event, which the
// agent yields and the runner stores like any other, so the log keeps every event and a rewind
// brings them back (core/compaction.ts says what the model then sees).

import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

/** What set a compaction off (ADK's `ContextCompactionTrigger`). */
export const ContextCompactionTrigger = {
  Manual: 'Manual',
  Auto: 'Auto',
  AgentControlled: 'AgentControlled',
} as const;
export type ContextCompactionTrigger =
  (typeof ContextCompactionTrigger)[keyof typeof ContextCompactionTrigger];

/**
 * Compacts an agent's context before a model call: the first compactor of an agent's
 * `contextCompactors` whose `shouldCompact` says yes does, once per model call.
 */
export interface BaseContextCompactor {
  /** `Auto` unless said. */
  readonly trigger?: ContextCompactionTrigger;
  shouldCompact(ctx: InvocationContext): boolean | Promise<boolean>;
  /**
   * The compaction event (see `compactionEvent`), or nothing when there is nothing to compact
   * after all. It throws to say it failed, and then nothing is compacted.
   */
  compact(ctx: InvocationContext): Event | undefined | Promise<Event | undefined>;
}

/** Makes a summary of events (ADK's `BaseSummarizer`, returning the summary's content). */
export interface BaseSummarizer {
  /** Throws when it cannot (an empty list, its model failing); `signal` is the run's Stop. */
  summarize(events: readonly Event[], options?: { signal?: AbortSignal }): Promise<Content>;
}
