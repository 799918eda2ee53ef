// A compaction event's `actions.compaction` in a session file: ADK Python's `EventCompaction`
// (timestamps in seconds, `compactedContent` a Content), with Trellis's own ids of the first and
// last event covered moved into `customMetadata.trellis.compaction` (ADK's actions have no
// field for them), and checked on import like every other action.

import type { Content } from './content.ts';
import type { EventCompaction } from './event.ts';

/** What export keeps of a compaction in `customMetadata.trellis`. */
export interface CompactionIds {
  startEventId?: string;
  endEventId?: string;
}

/** The compaction as a file holds it, and the ids that go to `customMetadata.trellis`. */
export function compactionToFile(compaction: EventCompaction): {
  compaction: EventCompaction;
  ids: CompactionIds | undefined;
} {
  const { startEventId, endEventId, ...rest } = compaction;
  const ids: CompactionIds = {
    ...(startEventId !== undefined ? { startEventId } : {}),
    ...(endEventId !== undefined ? { endEventId } : {}),
  };
  return {
    compaction: {
      ...rest,
      startTimestamp: compaction.startTimestamp / 1000,
      endTimestamp: compaction.endTimestamp / 1000,
    },
    ids: Object.keys(ids).length > 0 ? ids : undefined,
  };
}

/**
 * A file's compaction checked (problems pushed with where they are) and in milliseconds, with
 * the ids export moved out put back; `restoreContent` checks its content as any event's.
 */
export function restoreCompaction(
  raw: unknown,
  ids: unknown,
  at: string,
  problems: string[],
  seconds: boolean,
  restoreContent: (raw: unknown, at: string, problems: string[]) => Content | undefined,
): EventCompaction | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${at} must be an object`);
    return undefined;
  }
  const compaction = { ...(raw as Record<string, unknown>) };
  const before = problems.length;
  for (const field of ['startTimestamp', 'endTimestamp'] as const) {
    const value = compaction[field];
    if (typeof value !== 'number' || !Number.isFinite(value))
      problems.push(`${at}.${field} must be a number`);
    else if (seconds) compaction[field] = Math.round(value * 1000);
  }
  if (
    problems.length === before &&
    (compaction.startTimestamp as number) > (compaction.endTimestamp as number)
  ) {
    problems.push(`${at}.startTimestamp is after its endTimestamp`);
  }
  if (compaction.compactedContent === undefined) problems.push(`${at}.compactedContent is missing`);
  else {
    compaction.compactedContent = restoreContent(
      compaction.compactedContent,
      `${at}.compactedContent`,
      problems,
    );
  }
  const own = typeof ids === 'object' && ids !== null ? (ids as Record<string, unknown>) : {};
  for (const field of ['startEventId', 'endEventId'] as const) {
    const value = own[field] ?? compaction[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '')
      problems.push(`${at}.${field} must be a non-empty string`);
    else compaction[field] = value;
  }
  return problems.length === before ? (compaction as unknown as EventCompaction) : undefined;
}
