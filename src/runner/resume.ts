// How a run resumes: the one place that says it, from finding what was cut off to the agent that
// carries on. The runner calls these in order; the agents' own part (each picks up after its
// latest checkpoint in its scope) is agents/agent-state.ts.
//
// 1. What was cut off. Every run keeps a record in `runs` (run-tracker.ts): written with the
//    message that starts or resumes it, refreshed by a heartbeat, removed when it finishes, else
//    left paused, interrupted or failed. `listInterrupted` reads the records against the active
//    log; a `running` record whose runner is gone (`isRunAlive`) was cut off by a crash or a
//    closed tab. `RESUMABLE_FAILURES` are the failures that leave a run interrupted, not failed.
// 2. Which invocation. `invocationToResume`: the one the request names, else, on a resumable
//    runner, the one that made the call the new message answers (`answeredCallEvent`). A plain
//    message while the latest invocation waits only on workflow questions (`adk_request_input`)
//    is the answer to each of them, as ADK routes it (`textAnswer`).
// 3. Where it starts again. `resumeStart`: from the invocation's first active event, at the agent
//    it started at (decided again from the conversation as it then stood), with the user's
//    answer (if any) on the branch of the call it answers; nothing if that agent finished.
// 4. The context. The runner stores the answer with the run's record, then `beginResume` fixes
//    the resume log: the invocation's active events as they stand, answer included. The start
//    agent's scope is all of it; a workflow agent hands each child the part after its own
//    latest checkpoint (`BaseAgent.childContext`).
// 5. Which agent continues. The start agent re-enters the tree: an agent whose last checkpoint
//    says it ended is skipped, a workflow agent goes on from its `agentState`, an LlmAgent runs
//    the calls it still owes (agents/pending-calls.ts), a workflow (a flow too) reads its node runs
//    back from the log (workflow/node-runs.ts).
// 6. How it stops again. Paused: the calls still awaited (`awaitedCallIds`) go in its record.
//
// Invariants:
// - everything reads the active events, never the raw log: a rewound invocation is refused, and
//   after a rewind to just after an event its invocation resumes from the checkpoints left;
// - an answer and the record of its run are one write, so a crash never leaves an answer that
//   nothing offers to resume (and a record whose awaited calls are all answered is interrupted);
// - a runner never runs one invocation twice at once (its `running` set, filled before the
//   record is written); across tabs the app's Web Lock per session does the same;
// - a finished invocation is never run again: resuming it only removes its stale record;
// - the resume log is fixed when the resume begins, so the events the resumed run appends are
//   never read back as its past.

import type { BaseAgent } from '../agents/base-agent.ts';
import { activeEvents } from '../core/active-events.ts';
import { functionResponsesOf, type Content } from '../core/content.ts';
import { InvalidRequestError, InvocationNotFoundError } from '../core/errors.ts';
import { findCallEvent, type Event } from '../core/event.ts';
import { ADK_REQUEST_INPUT as REQUEST_INPUT_FUNCTION } from '../tools/questions.ts';
import type { BaseSessionService, RunRecord, Session } from '../store/session-service.ts';
import { findAgentToRun } from './agent-to-run.ts';
import type { InvocationContext } from './invocation-context.ts';
import { asEnded } from './run-tracker.ts';
import { userEvent } from './runner-checks.ts';
import type {
  InterruptedInvocation,
  ListInterruptedRequest,
  RunAsyncRequest,
} from './runner-types.ts';

/**
 * Failures that leave nothing half done: the run is interrupted (resumable), not failed. A model
 * that failed (a provider's error, a rate limit, a stream cut off) stored nothing half done
 * either: the text it had streamed is stored whole, as an answer cut off (core/cut-answer.ts),
 * and resuming calls the model again from there (the chat's Retry).
 */
export const RESUMABLE_FAILURES: ReadonlySet<string> = new Set([
  'ModelError',
  'ModelUnreachableError',
  'McpServerUnreachableError',
  'StorageError',
  'StorageFullError',
]);

/** Missed heartbeats after which a run of another runner counts as cut off. */
const STALE_AFTER_BEATS = 3;

export interface RunLiveness {
  /** The runner asking. */
  instanceId: string;
  /** Invocations that runner is running now. */
  running: ReadonlySet<string>;
  /** How often a run refreshes its record. */
  heartbeatMs: number;
  clock: () => number;
  /** The app's answer for another runner's run (its Web Locks know at once), if any. */
  runLiveness?: ((run: RunRecord) => boolean | Promise<boolean>) | undefined;
}

/** Whether a run recorded as running is still running: its runner says, or its heartbeat. */
export async function isRunAlive(run: RunRecord, liveness: RunLiveness): Promise<boolean> {
  if (run.ownerId === liveness.instanceId) return liveness.running.has(run.invocationId);
  if (liveness.runLiveness) return liveness.runLiveness(run);
  return liveness.clock() - run.heartbeatAt < liveness.heartbeatMs * STALE_AFTER_BEATS;
}

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

/**
 * A plain message (no function response in it) sent while the latest invocation waits only on
 * workflow questions (`adk_request_input`): the answer to each of them, `{ result: <text> }` (ADK
 * routes a plain reply to every pending request). Undefined when it is no such answer.
 */
export function textAnswer(
  active: readonly Event[],
  message: Content | undefined,
): Content | undefined {
  if (!message || functionResponsesOf(message).length > 0) return undefined;
  const texts = message.parts.filter((part) => typeof part.text === 'string' && !part.thought);
  if (texts.length === 0 || texts.length !== message.parts.length) return undefined;
  const last = active.findLast((event) => event.author !== 'user');
  if (!last) return undefined;
  const invocation = active.filter((event) => event.invocationId === last.invocationId);
  const awaited = awaitedCallIds(invocation);
  if (awaited.length === 0) return undefined;
  const asked = new Set(
    invocation.flatMap((event) =>
      (event.content?.parts ?? []).flatMap((part) =>
        part.functionCall?.name === REQUEST_INPUT_FUNCTION && part.functionCall.id
          ? [part.functionCall.id]
          : [],
      ),
    ),
  );
  if (!awaited.every((id) => asked.has(id))) return undefined;
  const text = texts.map((part) => part.text).join('');
  return {
    role: 'user',
    parts: awaited.map((id) => ({
      functionResponse: { id, name: REQUEST_INPUT_FUNCTION, response: { result: text } },
    })),
  };
}

/** The call event a message answers (through its first function response), if any. */
export function answeredCallEvent(
  active: readonly Event[],
  message: Content | undefined,
): Event | undefined {
  const id = functionResponsesOf(message).find((response) => response.id !== undefined)?.id;
  return id === undefined ? undefined : findCallEvent(active, id);
}

/**
 * The invocation a request continues: the one it names, else (on a resumable runner) the one
 * that made the call its message answers; `undefined` for a new turn.
 */
export function invocationToResume(
  request: RunAsyncRequest,
  answered: Event | undefined,
  resumable: boolean,
): string | undefined {
  return request.invocationId ?? (resumable ? answered?.invocationId : undefined);
}

/** Where a resumed invocation starts again. */
export interface ResumeStart {
  /** The agent it started at, which re-enters the tree. */
  agent: BaseAgent;
  /** The user message that started the invocation. */
  userContent: Content | undefined;
  /** The user's message that resumes it (an answer goes on the branch of its call). */
  message?: Event;
}

export interface ResumeStartInit {
  session: Session;
  /** The session's active events, before anything of this request is appended. */
  active: readonly Event[];
  invocationId: string;
  root: BaseAgent;
  request: RunAsyncRequest;
  /** Whether this runner is running the invocation now. */
  isRunning: (invocationId: string) => boolean;
  /** Removes the invocation's record of a run (it finished: nothing to resume). */
  deleteRun: () => Promise<void>;
}

/**
 * Where invocation `invocationId` starts again, or `undefined` if it had finished (its stale
 * record is then removed). Throws, with nothing written, if the invocation is not in the log
 * (InvocationNotFoundError), was rewound or is running already (InvalidRequestError).
 */
export async function resumeStart(init: ResumeStartInit): Promise<ResumeStart | undefined> {
  const { session, active, invocationId, request } = init;
  const first = active.findIndex((event) => event.invocationId === invocationId);
  if (first < 0) {
    if (session.events.some((event) => event.invocationId === invocationId)) {
      throw new InvalidRequestError(
        `Invocation ${invocationId} was rewound, so it cannot be resumed`,
      );
    }
    throw new InvocationNotFoundError(invocationId, session.id);
  }
  if (init.isRunning(invocationId)) {
    throw new InvalidRequestError(`Invocation ${invocationId} is running already`);
  }
  const agent = startAgentOf(active, first, init.root);
  const invocation = active.filter((event) => event.invocationId === invocationId);
  if (hasFinished(invocation, agent.name)) {
    // Every event of it is stored: a crash cut it off before its record was removed, and the
    // record would offer it for resuming forever.
    await init.deleteRun();
    return undefined;
  }
  const message = request.newMessage;
  const branch = message && answeredCallEvent(active, message)?.branch;
  return {
    agent,
    userContent: active[first]!.content,
    ...(message && {
      message: userEvent(
        invocationId,
        { role: 'user', parts: message.parts },
        request.stateDelta,
        branch,
      ),
    }),
  };
}

/** The agent an invocation started at: decided again from the conversation as it then stood. */
export function startAgentOf(
  active: readonly Event[],
  firstIndex: number,
  root: BaseAgent,
): BaseAgent {
  return findAgentToRun(active.slice(0, firstIndex + 1), root);
}

/** Whether `agentName`'s last checkpoint in the invocation says it finished. */
export function hasFinished(invocationEvents: readonly Event[], agentName: string): boolean {
  for (let i = invocationEvents.length - 1; i >= 0; i--) {
    const event = invocationEvents[i]!;
    if (event.author === agentName && (event.actions.endOfAgent || event.actions.agentState)) {
      return event.actions.endOfAgent === true;
    }
  }
  return false;
}

/**
 * The context of the start agent of a resumed run, once the message that resumes it is stored:
 * the resume log is the invocation's active events as they stand now, and the start agent's
 * scope is all of it.
 */
export function beginResume(ctx: InvocationContext): InvocationContext {
  return ctx.beginResume(
    ctx.activeView.peek().filter((event) => event.invocationId === ctx.invocationId),
  );
}

/** The ids a paused invocation waits for: long-running calls the user has not answered. */
export function awaitedCallIds(invocationEvents: readonly Event[]): string[] {
  const answered = new Set<string>();
  for (const event of invocationEvents) {
    if (event.author !== 'user') continue;
    for (const response of functionResponsesOf(event.content))
      if (response.id) answered.add(response.id);
  }
  // Once each: a workflow that waits on a node's call names it again on its own pause event.
  return [
    ...new Set(
      invocationEvents.flatMap((event) =>
        (event.longRunningToolIds ?? []).filter((id) => !answered.has(id)),
      ),
    ),
  ];
}
