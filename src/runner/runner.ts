// The Runner: runs an agent tree over a session service, storing every event it yields. How a
// run resumes (what was cut off, where it starts again, which agent carries on) is resume.ts.

import type { BaseAgent } from '../agents/base-agent.ts';
import type { Content } from '../core/content.ts';
import {
  InvalidRequestError,
  InvocationNotFoundError,
  NotResumableError,
  SessionNotFoundError,
} from '../core/errors.ts';
import { isStoppedAnswer } from '../core/cut-answer.ts';
import { isRewindMarker, type Event } from '../core/event.ts';
import { newInvocationId } from '../core/ids.ts';
import type { BaseArtifactService } from '../store/artifact-service.ts';
import type { BaseMemoryService } from '../store/memory-service.ts';
import type { BaseSessionService, RunRecord, Session } from '../store/session-service.ts';
import {
  keepActiveEventsView,
  takeActiveEventsView,
  type ActiveEventsView,
} from '../core/active-events.ts';
import { logOf } from '../core/log-prefix.ts';
import { findAgentToRun } from './agent-to-run.ts';
import { editSessionState, type EditStateRequest } from './edit-state.ts';
import { InvocationContext, type RunConfig } from './invocation-context.ts';
import {
  RESUMABLE_FAILURES,
  answeredCallEvent,
  textAnswer,
  awaitedCallIds,
  beginResume,
  invocationToResume,
  isRunAlive,
  listInterrupted,
  resumeStart,
} from './resume.ts';
import { inputBlobs } from './input-blobs.ts';
import { RunTracker, type RunOutcome } from './run-tracker.ts';
import { forgetRewoundEvents } from './rewound-memories.ts';
import { checkAgentTree, checkMessage, invocationEvents, userEvent } from './runner-checks.ts';
import { traceRun } from '../tracing/run-trace.ts';
import { PluginManager } from '../plugins/plugin-manager.ts';
import { beforeRun, pluginEvent, userMessageOf } from './run-plugins.ts';
import type { BaseTraceService } from '../tracing/trace-service.ts';
import { InvocationTracer } from '../tracing/tracer.ts';
import type {
  EditMessageRequest,
  ForkSessionAsyncRequest,
  InterruptedInvocation,
  ListInterruptedRequest,
  ResumabilityConfig,
  RewindRequest,
  RunAsyncRequest,
  RunnerOptions,
} from './runner-types.ts';

const DEFAULT_HEARTBEAT_MS = 5_000;

export class Runner {
  readonly appName: string;
  readonly agent: BaseAgent;
  readonly sessionService: BaseSessionService;
  readonly artifactService: BaseArtifactService | undefined;
  readonly memoryService: BaseMemoryService | undefined;
  readonly resumabilityConfig: ResumabilityConfig;
  /** Where the spans of its runs are kept (absent: runs are not traced). See src/tracing. */
  readonly traces: BaseTraceService | undefined;
  /** Its plugins (ADK's): callbacks for every agent, model and tool call, node, run. */
  readonly pluginManager: PluginManager;
  /** Identifies this runner in the records of the runs it runs. */
  readonly instanceId = crypto.randomUUID();
  private readonly heartbeatMs: number;
  private readonly runLiveness: RunnerOptions['runLiveness'];
  private readonly clock: () => number;
  /** Invocations this runner is running now. */
  private readonly running = new Set<string>();

  constructor(options: RunnerOptions) {
    this.appName = options.appName;
    this.agent = options.agent;
    this.sessionService = options.sessionService;
    this.artifactService = options.artifactService;
    this.memoryService = options.memoryService;
    this.resumabilityConfig = options.resumabilityConfig ?? { isResumable: false };
    this.traces = options.traceService;
    this.pluginManager = new PluginManager(options.plugins);
    this.heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.runLiveness = options.runLiveness;
    this.clock = options.clock ?? Date.now;
    checkAgentTree(options.agent);
  }

  /**
   * Runs one turn: appends the user's message (not yielded: `runConfig.onMessageStored` says when
   * it is stored, in the same write as the record of the run), then runs the agent that answers
   * it and yields its events, each stored before it is yielded (partial events are yielded only).
   * A model or tool failure yields a stored error event, then throws. Cancelling through
   * `runConfig.signal` ends the stream quietly, after storing what the answer under way had said
   * (core/cut-answer.ts); the invocation can be resumed.
   *
   * On a resumable runner, `invocationId` continues that invocation instead (with `newMessage`,
   * if given, appended to it), and a `newMessage` answering a paused call continues the
   * invocation that made the call.
   */
  async *runAsync(request: RunAsyncRequest): AsyncGenerator<Event, void> {
    const session = await this.loadSession(request.userId, request.sessionId);
    const resumable = this.resumabilityConfig.isResumable;
    if (request.invocationId !== undefined && !resumable) throw new NotResumableError();
    let message = request.newMessage === undefined ? undefined : checkMessage(request.newMessage);
    // Read before anything is appended: `peek` does not copy (see ActiveEventsView), nor does
    // `logOf` (see core/log-prefix.ts).
    const view = takeActiveEventsView(logOf(session));
    const active = view.peek();
    const typed = textAnswer(active, message);
    if (typed) {
      message = typed;
      request = { ...request, newMessage: typed };
    }
    const answered = answeredCallEvent(active, message);
    const resumeId = invocationToResume(request, answered, resumable);
    if (resumeId !== undefined) {
      yield* this.resume(session, view, resumeId, request);
      return;
    }
    if (!message)
      throw new InvalidRequestError('runAsync needs a newMessage (or an invocationId to resume)');
    const invocationId = newInvocationId();
    let userContent: Content = { role: 'user', parts: message.parts };
    let ctx = this.newContext(session, invocationId, userContent, request.runConfig, view);
    const asked = userMessageOf(this.pluginManager, ctx, userContent);
    const replaced = asked instanceof Promise ? await asked : asked;
    if (replaced) ctx = ctx.withUserContent((userContent = replaced));
    const first = userEvent(invocationId, userContent, request.stateDelta, answered?.branch);
    yield* this.runAgent(ctx, findAgentToRun(active, this.agent, first), { message: first });
  }

  /** Continues invocation `invocationId`: nothing if it finished, else from its checkpoints. */
  private async *resume(
    session: Session,
    view: ActiveEventsView,
    invocationId: string,
    request: RunAsyncRequest,
  ): AsyncGenerator<Event, void> {
    const start = await resumeStart({
      session,
      active: view.get(),
      invocationId,
      root: this.agent,
      request,
      isRunning: (id) => this.running.has(id),
      deleteRun: () =>
        this.sessionService.deleteRun({
          appName: this.appName,
          userId: session.userId,
          sessionId: session.id,
          invocationId,
        }),
    });
    if (!start) return;
    const ctx = this.newContext(session, invocationId, start.userContent, request.runConfig, view);
    yield* this.runAgent(ctx, start.agent, {
      resume: true,
      ...(start.message && { message: start.message }),
    });
  }

  /**
   * Puts the session back as it was just before invocation `rewindBeforeInvocationId`, or just
   * after event `rewindAfterEventId` (exactly one of them): appends and returns a marker event
   * whose state delta and artifact versions restore the session scope (`app:` / `user:` state
   * and `user:` artifacts are not touched), all in one atomic write. The log keeps every event;
   * the rewound span drops out of the active events, so the model forgets it. After a rewind to
   * just after an event, that event's invocation is unfinished in the active events, and
   * `runAsync({ invocationId })` resumes it from its latest remaining checkpoint.
   * Errors, with nothing written: unknown session → SessionNotFoundError; unknown invocation →
   * InvocationNotFoundError; unknown event → EventNotFoundError; neither or both targets, or an
   * event that is a marker, was rewound, or is the last active one → InvalidRequestError.
   * With a memory service, what the rewound events added to memory is removed after the rewind
   * is written (rewound-memories.ts).
   */
  async rewindAsync({ userId, sessionId, ...target }: RewindRequest): Promise<Event> {
    const key = { appName: this.appName, userId, sessionId };
    const marker = await this.sessionService.rewindSession({
      ...key,
      ...target,
      artifactService: this.artifactService,
    });
    if (this.memoryService) await forgetRewoundEvents(this.memoryService, this.sessionService, key);
    return marker;
  }

  /**
   * Replaces the user message of a past turn and runs it again: rewinds before that turn, then
   * runs `newMessage` as a new turn, yielding what `runAsync` yields. The old turn stays in the
   * log, on its own branch.
   */
  async *editMessageAsync(request: EditMessageRequest): AsyncGenerator<Event, void> {
    const { userId, sessionId, invocationId } = request;
    const newMessage = checkMessage(request.newMessage);
    const session = await this.loadSession(userId, sessionId);
    const first = session.events.find((event) => event.invocationId === invocationId);
    if (!first) throw new InvocationNotFoundError(invocationId, sessionId);
    if (first.author !== 'user' || !first.content || isRewindMarker(first)) {
      throw new InvalidRequestError(`Invocation ${invocationId} did not start with a user message`);
    }
    await this.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: invocationId });
    yield* this.runAsync({
      userId,
      sessionId,
      newMessage,
      ...(request.runConfig ? { runConfig: request.runConfig } : {}),
    });
  }

  /** The user's edit of the session's state, as a turn of its own (see edit-state.ts). */
  editState(request: EditStateRequest): Promise<Event> {
    return editSessionState(this, request);
  }

  /**
   * A new session with the conversation as it stood right after a turn (on the active path or
   * not): its active events, session state and session artifacts. The source is not changed.
   */
  forkSessionAsync(request: ForkSessionAsyncRequest): Promise<Session> {
    return this.sessionService.forkSession({
      appName: this.appName,
      userId: request.userId,
      sessionId: request.sessionId,
      atInvocationId: request.atInvocationId,
      ...(request.newSessionId ? { newSessionId: request.newSessionId } : {}),
      artifactService: this.artifactService,
    });
  }

  protected async loadSession(userId: string, sessionId: string): Promise<Session> {
    const session = await this.sessionService.getSession({
      appName: this.appName,
      userId,
      sessionId,
    });
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }

  protected newContext(
    session: Session,
    invocationId: string,
    userContent: Content | undefined,
    runConfig: RunConfig | undefined,
    activeEvents?: ActiveEventsView,
  ): InvocationContext {
    return InvocationContext.create({
      activeEvents,
      invocationId,
      agent: this.agent,
      session,
      sessionService: this.sessionService,
      artifactService: this.artifactService,
      memoryService: this.memoryService,
      pluginManager: this.pluginManager,
      userContent,
      runConfig: runConfig ?? {},
      resumable: this.resumabilityConfig.isResumable,
      tracer:
        this.traces &&
        new InvocationTracer(this.traces, {
          appName: this.appName,
          userId: session.userId,
          sessionId: session.id,
          invocationId,
        }),
    });
  }

  /**
   * Runs `agent` in `ctx` (from the invocation's start when `resume`), storing each complete
   * event before yielding it, and keeps the record of the run in flight: written with the user's
   * `message` that starts or resumes the run (one atomic write, so a crash never leaves the
   * message without the record that offers to resume it), removed when the run finishes, else
   * left paused, interrupted (cancelled, the consumer stopped reading, the model could not be
   * reached or the storage failed) or failed. A run cut off by a crash stays `running` with a
   * heartbeat that goes stale.
   */
  protected async *runAgent(
    ctx: InvocationContext,
    agent: BaseAgent,
    { message, resume = false }: { message?: Event; resume?: boolean } = {},
  ): AsyncGenerator<Event, void> {
    const signal = ctx.runConfig.signal;
    // Running before its record exists: a listing meanwhile never takes it for cut off.
    this.running.add(ctx.invocationId);
    let run: RunTracker;
    let stored: Event | undefined;
    try {
      run = await RunTracker.start(
        {
          sessionService: this.sessionService,
          ownerId: this.instanceId,
          heartbeatMs: this.heartbeatMs,
          clock: this.clock,
        },
        {
          appName: this.appName,
          userId: ctx.userId,
          sessionId: ctx.session.id,
          invocationId: ctx.invocationId,
          agentName: agent.name,
        },
        message &&
          (async (record) => {
            stored = await this.append(ctx, message, record);
          }),
      );
    } catch (error) {
      this.running.delete(ctx.invocationId);
      throw error;
    }
    const trace = traceRun(ctx, agent.name, resume, stored);
    const runCtx = (resume ? beginResume(ctx) : ctx).withSpan(trace?.root);
    const plugins = this.pluginManager.hasPlugins ? this.pluginManager : undefined;
    let outcome: { outcome: RunOutcome; details?: Pick<RunRecord, 'pendingCallIds' | 'error'> } = {
      outcome: 'interrupted',
    };
    try {
      if (stored) ctx.runConfig.onMessageStored?.(stored);
      let early = plugins && beforeRun(plugins, runCtx);
      if (early instanceof Promise) early = await early;
      for await (let event of early ? [early] : agent.runAsync(runCtx)) {
        const seen = plugins?.watchesEvents ? pluginEvent(plugins, runCtx, event) : event;
        event = seen instanceof Promise ? await seen : seen;
        // Once stopped, nothing more is stored but what the answer cut short had said.
        if (!isStoppedAnswer(event)) signal?.throwIfAborted();
        yield event.partial ? event : await this.append(ctx, event);
      }
      const ran = plugins?.runAfterRunCallback({ invocationContext: runCtx });
      if (ran) await ran;
      if (ctx.isPausedBelow()) {
        const pendingCallIds = awaitedCallIds(invocationEvents(ctx));
        outcome = { outcome: 'paused', details: { pendingCallIds } };
      } else {
        outcome = { outcome: 'finished' };
      }
    } catch (error) {
      if (signal?.aborted && (error as Error | null)?.name === 'AbortError') return;
      const { name, message } = error as Error;
      // A model or tool server that could not be reached answered nothing, and a store that
      // failed saved nothing of the change it failed: the run can go on once they can.
      const failed = RESUMABLE_FAILURES.has(name) ? 'interrupted' : 'failed';
      outcome = { outcome: failed, details: { error: { name, message } } };
      throw error;
    } finally {
      this.running.delete(ctx.invocationId);
      // The next invocation on this session carries on from what this one knew of its log.
      keepActiveEventsView(ctx.activeView);
      await run.finish(outcome.outcome, outcome.details);
      await trace?.finish(() => invocationEvents(ctx), outcome.outcome, outcome.details);
    }
  }

  /**
   * The invocations of a user (or of one session) that can be resumed: cut off (their runner is
   * gone), interrupted, or paused waiting for a long-running tool or a human. Invocations a
   * rewind has since left are not listed.
   */
  listInterruptedInvocations(request: ListInterruptedRequest): Promise<InterruptedInvocation[]> {
    return listInterrupted(
      this.sessionService,
      { ...request, appName: request.appName ?? this.appName },
      (run) => this.isAlive(run),
    );
  }

  private isAlive(run: RunRecord): Promise<boolean> {
    return isRunAlive(run, {
      instanceId: this.instanceId,
      running: this.running,
      heartbeatMs: this.heartbeatMs,
      clock: this.clock,
      runLiveness: this.runLiveness,
    });
  }

  protected async append(ctx: InvocationContext, event: Event, run?: RunRecord): Promise<Event> {
    // The message that starts or resumes a run (it comes with the run's record) may carry files.
    const artifacts =
      run && ctx.runConfig.saveInputBlobsAsArtifacts
        ? inputBlobs(event, this.artifactService)
        : undefined;
    const stored = await this.sessionService.appendEvent({
      session: ctx.session,
      event,
      ...(run && { run }),
      ...(artifacts && { artifacts }),
    });
    ctx.recordAppended(event, stored);
    return stored;
  }
}
