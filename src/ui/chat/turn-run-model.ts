// What became of the open session's last turn when its run did not finish: the chat says so at
// the turn's end, with the one action that carries it on. Continue (a stopped answer), Retry (a
// failure) and Resume (a reload, a crash or a closed tab cut it off, or a rewind to a checkpoint)
// are one path: each resumes the invocation (workers/runs/runs.ts `resume`), so finished steps
// are not run again, and a model called again reads what its answer had said so far.

import { cutAnswerOf } from '../../core/cut-answer.ts';
import { isRewindMarker, type Event } from '../../core/event.ts';
import type { InterruptedRun } from '../../../workers/protocol.ts';

export interface TurnRun {
  invocationId: string;
  action: 'Continue' | 'Retry' | 'Resume';
  /**
   * The answer stopped at the model's max output tokens: its turn is over, so Continue asks the
   * model to go on in a new turn (`CONTINUE_MESSAGE`) instead of resuming it.
   */
  lengthCut?: boolean;
  /** What the chat says of it; '' when the chat shows it already (an error line, a mark). */
  note: string;
  /** The runtime's record of the run, when it lists one. */
  run?: InterruptedRun;
}

/**
 * The last turn's unfinished run, from the active events the chat shows and the runs the runtime
 * lists as interrupted. Without a listed run (a record lost, or a run that failed for good, such
 * as a tool's own failure), a local session still offers Continue after a stopped answer and
 * Retry after an error: resuming works from the log alone.
 */
export function turnRunOf(
  active: readonly Event[],
  runs: readonly InterruptedRun[],
  { sessionId, remote }: { sessionId: string; remote: boolean },
): TurnRun | undefined {
  const last = active.findLast((event) => !isRewindMarker(event));
  if (!last || last.author === 'user') {
    // A run stopped (or cut off) before its agent said anything still has its record.
    return last && listedRun(last.invocationId);
  }
  return listedRun(last.invocationId) ?? (remote ? undefined : fromLog(last, active));

  function listedRun(invocationId: string): TurnRun | undefined {
    const run = runs.find(
      (candidate) =>
        candidate.sessionId === sessionId &&
        candidate.invocationId === invocationId &&
        candidate.status === 'interrupted',
    );
    if (!run) return undefined;
    const shown = last !== undefined && last.invocationId === invocationId ? last : undefined;
    switch (run.cause) {
      case 'stopped':
        return {
          invocationId,
          action: 'Continue',
          note: shown && cutAnswerOf(shown) ? '' : 'Stopped before it finished.',
          run,
        };
      case 'failed':
        return {
          invocationId,
          action: 'Retry',
          // The error event says why, unless it could not be stored (a full disk).
          note: shown && isError(shown) ? '' : `Failed: ${run.error?.message ?? 'unknown error'}`,
          run,
        };
      case 'rewound':
        return {
          invocationId,
          action: 'Resume',
          note: 'Rewound to a checkpoint: it goes on from there.',
          run,
        };
      case 'cut-off':
        return {
          invocationId,
          action: 'Resume',
          note: 'Cut off by a reload, a crash or a closed tab. Nothing saved is lost.',
          run,
        };
      case 'waiting':
        return undefined;
    }
  }
}

/** What Continue sends after an answer cut at the max output tokens (as ChatGPT users type). */
export const CONTINUE_MESSAGE = 'Continue.';

function fromLog(last: Event, active: readonly Event[]): TurnRun | undefined {
  if (isError(last)) return { invocationId: last.invocationId, action: 'Retry', note: '' };
  // The turn's last words (a resumable run ends its agent with a checkpoint event after them).
  const answer = active.findLast((event) => event.content !== undefined && !event.partial);
  if (answer?.invocationId === last.invocationId && isLengthCut(answer))
    return {
      invocationId: last.invocationId,
      action: 'Continue',
      // The chat says why below the answer already (its error line).
      note: '',
      lengthCut: true,
    };
  if (cutAnswerOf(last)?.kind === 'stopped')
    return { invocationId: last.invocationId, action: 'Continue', note: '' };
  return undefined;
}

/** An answer the model ended at its max output tokens (ADK's finish reason as errorCode). */
export function isLengthCut(event: Event): boolean {
  return event.errorCode === 'MAX_TOKENS' && event.content !== undefined && !event.partial;
}

/** An error event (no content): the chat shows it as a failure line. */
function isError(event: Event): boolean {
  return event.errorCode !== undefined && !event.content;
}

/**
 * The runs the banner lists: the open session's (a run of another session shows when that one is
 * opened), less the one its chat's last turn offers itself (`shown`) and those dismissed.
 */
export function bannerRuns(
  runs: readonly InterruptedRun[],
  sessionId: string | undefined,
  shown: TurnRun | undefined,
  dismissed: ReadonlySet<string>,
): InterruptedRun[] {
  return runs.filter(
    (run) =>
      run.sessionId === sessionId &&
      run.invocationId !== shown?.invocationId &&
      !dismissed.has(run.invocationId),
  );
}
