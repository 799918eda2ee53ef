// Which runs can be resumed: the records of runs in flight, read against the log (a rewind may
// have left a run behind, a full disk may have kept a record from saying how its run ended, a
// crash may have come between an answer and its run's record).

import { activeEvents } from '../core/active-events.ts';
import { functionResponsesOf } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { BaseSessionService, RunRecord } from '../store/session-service.ts';
import { asEnded } from './run-tracker.ts';
import type { InterruptedInvocation, ListInterruptedRequest } from './runner-types.ts';

/** Failures that leave nothing half done: the run is interrupted (resumable), not failed. */
export const RESUMABLE_FAILURES: ReadonlySet<string> = new Set([
  'ModelUnreachableError',
  'McpServerUnreachableError',
  'StorageError',
  'StorageFullError',
]);

/**
 * The invocations of a user (or of one session) that can be resumed: cut off (`isAlive` says
 * their runner is gone), interrupted, or paused waiting for a long-running tool or a human.
 * Invocations a rewind has since left are not listed. Most recently updated first.
 */
export async function listInterrupted(
  sessionService: BaseSessionService,
  request: ListInterruptedRequest & { appName: string },
  isAlive: (run: RunRecord) => Promise<boolean>,
): Promise<InterruptedInvocation[]> {
  const { appName } = request;
  const runs = await sessionService.listRuns({
    appName,
    userId: request.userId,
    ...(request.sessionId !== undefined ? { sessionId: request.sessionId } : {}),
  });
  const interrupted: InterruptedInvocation[] = [];
  const activeBySession = new Map<string, ActiveInvocations>();
  for (const stored of runs) {
    // A full disk may have refused the record's last write: the run as it ended, then.
    const run = asEnded(sessionService, stored);
    if (!run || run.status === 'failed') continue;
    if (run.status === 'running' && (await isAlive(run))) continue;
    let active = activeBySession.get(run.sessionId);
    if (!active) {
      const session = await sessionService.getSession({
        appName,
        userId: run.userId,
        sessionId: run.sessionId,
      });
      active = new ActiveInvocations(activeEvents(session?.events ?? []));
      activeBySession.set(run.sessionId, active);
    }
    if (!active.has(run.invocationId)) continue;
    // Paused, but every call it waited for is answered in the log (a crash came between the
    // answer and the record of its run, as it could before they were one write): it waits for
    // nothing, and only resuming it moves it on.
    const waits =
      run.status === 'paused' && !(run.pendingCallIds ?? []).every((id) => active.answered(id));
    interrupted.push({
      appName: run.appName,
      userId: run.userId,
      sessionId: run.sessionId,
      invocationId: run.invocationId,
      agentName: run.agentName,
      status: waits ? 'paused' : 'interrupted',
      startedAt: run.startedAt,
      updatedAt: Math.max(run.updatedAt, run.heartbeatAt),
      ...(run.pendingCallIds ? { pendingCallIds: run.pendingCallIds } : {}),
      ...(run.error ? { error: run.error } : {}),
    });
  }
  return interrupted.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** The invocations of a session's active events, and the calls the user has answered there. */
class ActiveInvocations {
  private readonly ids: Set<string>;
  private answers: Set<string> | undefined;

  constructor(private readonly events: readonly Event[]) {
    this.ids = new Set(events.map((event) => event.invocationId));
  }

  has(invocationId: string): boolean {
    return this.ids.has(invocationId);
  }

  answered(callId: string): boolean {
    const answers = (this.answers ??= new Set(
      this.events
        .filter((event) => event.author === 'user')
        .flatMap((event) => functionResponsesOf(event.content).flatMap(({ id }) => id ?? [])),
    ));
    return answers.has(callId);
  }
}
