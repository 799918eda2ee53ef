// What a session's model calls cost: the calls, the tokens in and out (from the providers' usage
// data on each model event) and the time the models took. Counted over the raw log: a rewound
// answer was paid for too.

import { modelTimingOf, type Event } from './event.ts';

export interface SessionUsage {
  /** Model answers counted. */
  calls: number;
  /** Input (prompt) tokens, over the answers that reported them. */
  promptTokens: number;
  /** Output tokens, over the answers that reported them. */
  outputTokens: number;
  /** Time the models took, from each request to its whole answer (ms). */
  modelMs: number;
}

export const NO_USAGE: SessionUsage = { calls: 0, promptTokens: 0, outputTokens: 0, modelMs: 0 };

/** `usage` with `event` counted, if it is a model's answer (it has usage or timing). */
export function withEventUsage(usage: SessionUsage, event: Event): SessionUsage {
  const timing = modelTimingOf(event);
  const tokens = event.usageMetadata;
  if (!timing && !tokens) return usage;
  return {
    calls: usage.calls + 1,
    promptTokens: usage.promptTokens + (tokens?.promptTokenCount ?? 0),
    outputTokens: usage.outputTokens + (tokens?.candidatesTokenCount ?? 0),
    modelMs: usage.modelMs + (timing?.totalMs ?? 0),
  };
}
