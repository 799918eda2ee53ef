// An answer the model did not finish, kept as a stored event: what it had said when the user
// stopped it, or when a failure (a dropped connection, a malformed stream, a provider's error)
// cut it off. ADK's shape: the agent's model event with the text so far, not `partial`, with
// ADK's `interrupted: true`; why, under `customMetadata.trellis`: `stopped: true`, or
// `cutOff: { errorCode }` (the error event that follows it says the rest, as for any failure).
//
// It is part of the conversation, as ChatGPT keeps a stopped answer: the model sees it on its
// next call (Continue or Retry, which resume the invocation, and the next turn), so it can carry
// the answer on; Regenerate rewinds it away with its turn (it stays in History as a branch).

import type { Event, ModelTiming } from './event.ts';
import { ownValue } from './state.ts';

/** Why an answer was cut short. */
export type CutReason = { kind: 'stopped' } | { kind: 'cut-off'; errorCode: string };

/** What `customMetadata.trellis` holds on a cut answer. */
interface CutMark {
  stopped?: boolean;
  cutOff?: { errorCode?: unknown };
}

/**
 * The stored event of an answer cut short: `base` (the streamed answer's event: its id, author,
 * branch) with the text it had said.
 */
export function cutAnswerEvent(
  base: Event,
  text: string,
  reason: CutReason,
  { modelVersion, timing }: { modelVersion: string; timing: ModelTiming },
): Event {
  const mark: CutMark =
    reason.kind === 'stopped' ? { stopped: true } : { cutOff: { errorCode: reason.errorCode } };
  return {
    ...base,
    timestamp: Date.now(),
    content: { role: 'model', parts: [{ text }] },
    interrupted: true,
    modelVersion,
    customMetadata: { ...base.customMetadata, trellis: { timing, ...mark } },
  };
}

/** Why `event` is an answer cut short, or `undefined` for any other event. */
export function cutAnswerOf(event: Event): CutReason | undefined {
  if (event.interrupted !== true || event.partial) return undefined;
  const own = ownValue(event.customMetadata, 'trellis');
  const mark = typeof own === 'object' && own !== null ? (own as CutMark) : undefined;
  if (mark?.stopped === true) return { kind: 'stopped' };
  const code = mark?.cutOff?.errorCode;
  // ADK's own `interrupted` (a live conversation the user talked over) reads as stopped.
  return typeof code === 'string' ? { kind: 'cut-off', errorCode: code } : { kind: 'stopped' };
}

/** Whether `event` is an answer the user stopped: stored even once the run is cancelled. */
export function isStoppedAnswer(event: Event): boolean {
  return cutAnswerOf(event)?.kind === 'stopped';
}
