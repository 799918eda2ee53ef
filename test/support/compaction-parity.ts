// Agents with context compactors run on @google/adk 2.0 and on Trellis side by side: each
// library's own LlmAgent, compactors, LlmSummarizer, FunctionTool and runner, the same scripted
// model logic for the agent and for the summariser. Both models record what they are sent, and
// what each session holds at the end is read into one plain shape (ADK's compacted event and
// Trellis's compaction event alike as `{ author, summary }`).

import * as adk from '@google/adk';
import { vi } from 'vitest';
import * as trellis from '../../src/index.ts';
import { ADK, TRELLIS, held, runOn, type Held, type Lib, type Request } from './callback-parity.ts';

/** A content as both libraries send it, in words: `user: hi`, `model: get_weather({...})`. */
export function contentLines(request: Request): string[] {
  return request.contents.map((content) => {
    const parts = (content.parts ?? []).map((part) => {
      if (part.functionCall)
        return `${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`;
      if (part.functionResponse)
        return `${part.functionResponse.name} → ${JSON.stringify(part.functionResponse.response)}`;
      return part.text ?? '';
    });
    return `${content.role}: ${parts.join(' | ')}`;
  });
}

/** What a test's agent is built with, by library. */
export interface CompactionLib extends Lib {
  TokenBasedContextCompactor: new (options: Record<string, unknown>) => unknown;
  TruncatingContextCompactor: new (options: Record<string, unknown>) => unknown;
  AgentControlledContextCompactor: new (options: Record<string, unknown>) => unknown;
  LlmSummarizer: new (options: Record<string, unknown>) => unknown;
  consolidateTool(): unknown;
}

/** The compaction classes both libraries have under the same names. */
const compactionOf = (lib: typeof adk | typeof trellis) => ({
  TokenBasedContextCompactor: lib.TokenBasedContextCompactor as never,
  TruncatingContextCompactor: lib.TruncatingContextCompactor as never,
  AgentControlledContextCompactor: lib.AgentControlledContextCompactor as never,
  LlmSummarizer: lib.LlmSummarizer as never,
  consolidateTool: () => new lib.ConsolidateContextTool(),
});

export const ADK_COMPACTION: CompactionLib = { ...ADK, ...compactionOf(adk) };
export const TRELLIS_COMPACTION: CompactionLib = { ...TRELLIS, ...compactionOf(trellis) };

interface AnyEvent {
  author?: string;
  content?: { parts?: { text?: string }[] };
  actions?: { stateDelta?: Record<string, unknown>; compaction?: trellis.EventCompaction };
  isCompacted?: boolean;
  compactedContent?: string;
}

/** One stored event in the terms compared; a compaction as its author and summary. */
export function heldEvent(event: AnyEvent): Held {
  if (event.isCompacted)
    return { author: event.author ?? '', summary: event.compactedContent ?? '' };
  if (event.actions?.compaction) {
    return {
      author: event.author ?? '',
      summary: trellis.compactionText(event.actions.compaction),
    };
  }
  return held(event as never);
}

export interface Outcome {
  events: Held[];
  state: Record<string, unknown>;
  /** The agent's requests and the summariser's, in words. */
  requests: string[][];
  summaries: string[][];
}

/**
 * Runs the agent `build` makes on each message in turn (with the library's own runner) and
 * reads the session. Timestamps are made distinct (a clock that moves 1 ms at each reading):
 * ADK TS tells the events after a compaction by `timestamp > endTime`, which hides an event
 * written in the same millisecond as the last one covered (a bug Trellis, by ids, has not).
 */
export async function runCompacting(
  lib: CompactionLib,
  build: (lib: CompactionLib, record: Recorders) => unknown,
  messages: readonly string[],
): Promise<Outcome> {
  let now = 1_700_000_000_000;
  const clock = vi.spyOn(Date, 'now').mockImplementation(() => ++now);
  try {
    const requests: string[][] = [];
    const summaries: string[][] = [];
    const agent = build(lib, { requests, summaries });
    const session = await runOn(lib, agent, messages, { read: heldEvent as never });
    return { ...session, requests, summaries };
  } finally {
    clock.mockRestore();
  }
}

/** Where a test's models write what they are sent. */
export interface Recorders {
  requests: string[][];
  summaries: string[][];
}
