// What must hold of a stored session whatever killed its browser, and when: a log without
// holes or repeats, every call answered at most once, and a state that is the replay of the log.

import { isDeepStrictEqual } from 'node:util';
import { CONFIRMATION_REQUIRED } from '../../src/agents/confirmation.ts';
import { activeEvents } from '../../src/core/active-events.ts';
import { functionResponsesOf } from '../../src/core/content.ts';
import { applyDelta, splitDelta } from '../../src/core/state.ts';
import type { Store, StoredSession } from './page-record.ts';

/** The broken invariants of a stored session (none: an empty list). */
export function logProblems({ record, events }: StoredSession): string[] {
  const problems: string[] = [];
  const log = [...events].sort((a, b) => a.seq - b.seq);
  if (log.length !== record.eventCount || log.some((row, i) => row.seq !== i))
    problems.push(
      `the log has ${log.length} events, seqs ${log.map((row) => row.seq)}, the record says ${record.eventCount}`,
    );
  const ids = log.map((row) => row.event.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) problems.push(`event ids stored twice: ${repeated.join(', ')}`);
  const answers = new Map<string, number>();
  for (const event of activeEvents(log.map((row) => row.event))) {
    if (event.author === 'user') continue;
    for (const { id, response } of functionResponsesOf(event.content)) {
      // A call waiting for approval is first answered "confirmation required".
      if (id && response['error'] !== CONFIRMATION_REQUIRED)
        answers.set(id, (answers.get(id) ?? 0) + 1);
    }
  }
  for (const [id, count] of answers)
    if (count > 1) problems.push(`call ${id} answered ${count} times`);
  let replayed: Record<string, unknown> = {};
  for (const { event } of log)
    replayed = applyDelta(replayed, splitDelta(event.actions.stateDelta).session);
  if (!isDeepStrictEqual(replayed, record.state))
    problems.push(
      `the state ${JSON.stringify(record.state)} is not the replay of the log ${JSON.stringify(replayed)}`,
    );
  return problems;
}

/**
 * Artifacts saved more often than the log says (a tool run again saving its file twice): each
 * file of a session has at most as many versions as events of its log name one.
 */
export function artifactProblems(store: Store): string[] {
  const problems: string[] = [];
  for (const { record, events } of store.sessions) {
    const named = new Map<string, number>();
    for (const { event } of events)
      for (const filename of Object.keys(event.actions.artifactDelta ?? {}))
        named.set(filename, (named.get(filename) ?? 0) + 1);
    const versions = new Map<string, number>();
    for (const artifact of store.artifacts.filter((a) => a.sessionId === record.id))
      versions.set(artifact.filename, (versions.get(artifact.filename) ?? 0) + 1);
    for (const [filename, count] of versions)
      if (count > (named.get(filename) ?? 0))
        problems.push(
          `${record.id}: ${filename} has ${count} versions, the log names ${named.get(filename) ?? 0}`,
        );
  }
  return problems;
}
