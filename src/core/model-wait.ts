// A model that waits before it tries its provider again (a rate limit, a server error, no
// connection): the run says so as it waits, in a partial event (never stored) with no content and
// the wait under `customMetadata.trellis.wait`, so that the chat can count down to the next
// attempt, and Stop ends the wait at once.

import type { Event } from './event.ts';
import { ownValue } from './state.ts';

export interface ModelWait {
  /** The provider as messages name it ('Ollama', 'Gemini', …). */
  provider: string;
  /** Why: it limits requests (HTTP 429), is unavailable (5xx, 408), or could not be reached. */
  reason: 'rate-limited' | 'unavailable' | 'unreachable';
  /** The HTTP status, when the provider answered. */
  status?: number;
  /** The attempt the wait comes before (2 for the first retry), and the most there will be. */
  attempt: number;
  attempts: number;
  delayMs: number;
  /** When the next attempt goes, in ms since the epoch. */
  until: number;
  /** The provider said how long (Retry-After, or its error's own words), not the app's backoff. */
  asked: boolean;
  /** The longest the app waits between two attempts: a provider asking more is not retried. */
  maxDelayMs: number;
}

/** The partial event that tells a run's reader `base`'s model waits. */
export function modelWaitEvent(base: Event, wait: ModelWait): Event {
  return {
    ...base,
    timestamp: Date.now(),
    partial: true,
    customMetadata: { trellis: { wait } },
  };
}

/** The wait a partial event announces, or `undefined` for any other event. */
export function modelWaitOf(event: Event): ModelWait | undefined {
  if (!event.partial || event.content) return undefined;
  const trellis = ownValue(event.customMetadata, 'trellis');
  const wait =
    typeof trellis === 'object' && trellis !== null ? ownValue(trellis, 'wait') : undefined;
  return typeof (wait as ModelWait | undefined)?.until === 'number'
    ? (wait as ModelWait)
    : undefined;
}
