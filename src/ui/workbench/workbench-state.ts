// The workbench's state (what the page shows) and how the open session follows a run.

import type { Event } from '../../core/event.ts';
import type { ModelWait } from '../../core/model-wait.ts';
import { applyDelta, setOwn } from '../../core/state.ts';
import type { SessionUsage } from '../../core/usage.ts';
import type { ContextUse } from '../../models/context-windows.ts';
import type {
  AgentInfo,
  InterruptedRun,
  LogEntry,
  OpeningLimits,
  OutgoingAttachment,
  SessionOpening,
  SessionSummary,
  Settings,
} from '../../../workers/protocol.ts';
import { DEFAULT_SETTINGS, OPENING } from '../../../workers/protocol.ts';

export interface Streaming {
  eventId: string;
  author: string;
  text: string;
}

/** The event log's pages of the raw log read so far, while it is open. */
export interface LogPages {
  /** Position of the first entry in the raw log: the ones before it come with "Show earlier". */
  from: number;
  entries: LogEntry[];
  eventCount: number;
}

/** How much more of a session each "Show earlier" reads (OPENING: how much at first). */
export const MORE: Required<OpeningLimits> = { numActiveEvents: 100, numTurns: 50 };
/** Events per page of the event log. */
export const LOG_PAGE = 100;

export interface WorkbenchState {
  ready: boolean;
  agents: AgentInfo[];
  sessions: SessionSummary[];
  /** The open session, as far back as `limits` reads it. */
  current: SessionOpening | undefined;
  limits: Required<OpeningLimits>;
  /** What the open session's model calls cost (read after it opens, then followed). */
  usage: SessionUsage | undefined;
  /** The open session's context against its model's window (read after it opens and each run). */
  context: ContextUse | undefined;
  /** The event log's pages, while it is open. */
  log: LogPages | undefined;
  /** Another session is being opened (or made): the one shown is about to go. */
  opening: boolean;
  /** This tab is running the current session. */
  running: boolean;
  /** Another tab is running the current session. */
  busyElsewhere: boolean;
  streaming: Streaming | undefined;
  /** The run's model waits to try its provider again (the chat counts down to it). */
  waiting: ModelWait | undefined;
  interrupted: InterruptedRun[];
  /** Runs the user dismissed from the banner (in this page, until it reloads). */
  dismissedRuns: ReadonlySet<string>;
  settings: Settings;
  selectedTurnId: string | undefined;
  /**
   * The message being sent, until the worker says it is stored (it then comes as a stored event
   * of the run): shown marked as not saved yet, since a kill before then loses it.
   */
  sent: string | undefined;
  /** Confirmation requests answered in this run, hidden until the log has the answers. */
  answered: readonly string[];
  /** Ids of the events this tab's run has stored so far (they follow the message just sent). */
  runEventIds: ReadonlySet<string>;
  error: string | undefined;
  notice: string | undefined;
  /** A message that could not be sent, handed back to the composer. */
  returned: { text: string; attachments: OutgoingAttachment[] } | undefined;
  /**
   * What a run the user stopped had streamed, when the log does not have it (an ADK server's
   * run): shown marked as not saved. A local run stores it (core/cut-answer.ts).
   */
  stoppedText: Streaming | undefined;
  /** The event the event log was asked to show (a message's link to its event). */
  logFocus: string | undefined;
  /** The rewind (or branch switch) just made: what the chat says of it, and how to undo it. */
  rewind: { said: string; markerInvocationId: string } | undefined;
}

export type { RuntimeClient } from './runtime-client.ts';

export const INITIAL: WorkbenchState = {
  ready: false,
  agents: [],
  sessions: [],
  current: undefined,
  limits: OPENING,
  usage: undefined,
  context: undefined,
  log: undefined,
  running: false,
  opening: false,
  busyElsewhere: false,
  streaming: undefined,
  waiting: undefined,
  interrupted: [],
  dismissedRuns: new Set(),
  settings: DEFAULT_SETTINGS,
  selectedTurnId: undefined,
  sent: undefined,
  answered: [],
  runEventIds: new Set(),
  error: undefined,
  notice: undefined,
  rewind: undefined,
  stoppedText: undefined,
  logFocus: undefined,
  returned: undefined,
};

/**
 * The open session once this tab's run has stored `event`: the tail and the state extended.
 * Stored events carry no temp: keys, so the delta applies as it is. The user's message that
 * started the run comes first, once stored (the runtime's `onMessageStored`). An event that
 * changes no state keeps the state as it was (the same object: what is derived from it is not
 * derived again); a key it sets is no longer a long one (the event holds its value, whole).
 */
export function withStoredEvent(current: SessionOpening, event: Event): SessionOpening {
  const seq = current.eventCount;
  const delta = event.actions.stateDelta;
  const changes = delta !== undefined && Object.keys(delta).length > 0;
  return {
    ...current,
    activeTail: [...current.activeTail, { seq, event }],
    eventCount: seq + 1,
    ...(changes
      ? {
          state: applyDelta(current.state, delta),
          longState: current.longState && withoutKeys(current.longState, Object.keys(delta)),
        }
      : {}),
  };
}

function withoutKeys<V>(record: Readonly<Record<string, V>>, keys: readonly string[]) {
  const kept: Record<string, V> = {};
  for (const [key, value] of Object.entries(record))
    if (!keys.includes(key)) setOwn(kept, key, value);
  return kept;
}
