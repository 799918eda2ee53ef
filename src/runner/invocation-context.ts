// What an agent sees of the invocation it runs in.

import type { OpenSpan } from '../tracing/open-span.ts';
import type { InvocationTracer } from '../tracing/tracer.ts';
import { ActiveEventsView } from '../core/active-events.ts';
import { appendEvent, logOf, withLogEvents } from '../core/log-prefix.ts';
import type { Content } from '../core/content.ts';
import { createEvent, type Event, type EventInit } from '../core/event.ts';
import { applyDelta } from '../core/state.ts';
import type { BaseArtifactService } from '../store/artifact-service.ts';
import type { BaseMemoryService } from '../store/memory-service.ts';
import type { BaseSessionService, Session } from '../store/session-service.ts';

export interface RunConfig {
  /** `'sse'`: the model streams, and partial events carry the text so far. */
  streamingMode?: 'none' | 'sse';
  /** Most model calls one invocation may make (default 500): a guard against endless loops. */
  maxLlmCalls?: number;
  /** Cancels the run: the model request is aborted and no further event is written. */
  signal?: AbortSignal;
  /**
   * Called with the user's message (or answer) that starts or resumes the run once it is stored,
   * before the agent runs: the runner does not yield it, and a page showing it before then must
   * mark it as not saved yet (a kill then loses it).
   */
  onMessageStored?: (event: Event) => void;
  /**
   * ADK's `saveInputBlobsAsArtifacts`: each file (`inlineData` part) of the user's message is
   * also kept as a session artifact, named by its `displayName` (else
   * `artifact_<invocation>_<part>`), in the same atomic write as the message, which names the
   * versions in its `artifactDelta` (so they rewind and export with the session). Unlike ADK's,
   * the message keeps its files: the model sees them.
   */
  saveInputBlobsAsArtifacts?: boolean;
}

export const DEFAULT_MAX_LLM_CALLS = 500;

/**
 * The agent an invocation context is seen by, as the runner knows it: by its name (events are
 * authored by it). The agents (src/agents) import the context, so it knows them by this shape
 * rather than by `BaseAgent`, and the import runs one way.
 */
export interface InvocationAgent {
  readonly name: string;
}

/**
 * The invocation's working copy of the session: the runner appends each stored event to it and
 * applies the event's full state delta (`temp:` keys included, which live only here). Its events
 * share the session's log until someone reads them (see core/log-prefix.ts): the library itself
 * reads them through the active events, so a turn copies nothing of a long log.
 */
export interface LiveSession {
  readonly id: string;
  readonly appName: string;
  readonly userId: string;
  state: Record<string, unknown>;
  readonly events: Event[];
}

/**
 * The runner's plugins (src/plugins/plugin-manager.ts), carried for the agents to run. The
 * context knows them by this much only: plugins know the context (their callbacks take it), and
 * imports run one way; `pluginsOf(ctx)` gives the agents the PluginManager.
 */
export interface InvocationPlugins {
  readonly hasPlugins: boolean;
}

interface InvocationShared {
  endInvocation: boolean;
  llmCalls: number;
  readonly active: ActiveEventsView;
  /** When resuming: the invocation's active events as they were when the resume began. */
  resumeLog: readonly Event[] | undefined;
  /** Branches ('' for none) on which an agent paused during this run. */
  readonly pausedBranches: Set<string>;
  /** Records the run's spans (absent: not traced). */
  readonly tracer: InvocationTracer | undefined;
  readonly memoryService: BaseMemoryService | undefined;
  readonly pluginManager: InvocationPlugins | undefined;
}

export interface InvocationContextInit {
  invocationId: string;
  agent: InvocationAgent;
  session: Session;
  sessionService: BaseSessionService;
  artifactService?: BaseArtifactService | undefined;
  /** The user's memory across sessions (the runner's), for tools to search. */
  memoryService?: BaseMemoryService | undefined;
  /** The runner's plugins, whose callbacks run for every agent, model call and tool call. */
  pluginManager?: InvocationPlugins | undefined;
  userContent?: Content | undefined;
  runConfig?: RunConfig;
  resumable?: boolean;
  /**
   * The memo of the active events of `session.events`, if the caller has one (it carries on
   * from an earlier invocation); it then follows the context's working copy of the log.
   * `session`'s log is read with `logOf`, so a session whose events were never read is not
   * copied.
   */
  activeEvents?: ActiveEventsView | undefined;
  /** Records the run's spans (see src/tracing); absent, nothing is traced. */
  tracer?: InvocationTracer | undefined;
}

interface ContextFields {
  readonly invocationId: string;
  readonly agent: InvocationAgent;
  readonly branch: string | undefined;
  readonly session: LiveSession;
  readonly sessionService: BaseSessionService;
  readonly artifactService: BaseArtifactService | undefined;
  readonly userContent: Content | undefined;
  readonly runConfig: RunConfig;
  readonly resumable: boolean;
  readonly resumeScope: number | undefined;
  readonly span: OpenSpan | undefined;
  readonly shared: InvocationShared;
}

export class InvocationContext {
  readonly invocationId: string;
  readonly agent: InvocationAgent;
  /** The ParallelAgent branch this agent runs on (`parent.child`), if any. */
  readonly branch: string | undefined;
  readonly session: LiveSession;
  readonly sessionService: BaseSessionService;
  readonly artifactService: BaseArtifactService | undefined;
  /** The user message that started the invocation. */
  readonly userContent: Content | undefined;
  readonly runConfig: RunConfig;
  readonly resumable: boolean;
  /**
   * When this agent continues an interrupted run: where, in `resumeLog`, its own part of the
   * invocation starts (its parent's latest checkpoint, or 0 for the agent that began it).
   * `undefined` for a fresh run.
   */
  readonly resumeScope: number | undefined;
  /** The span that new spans go under: the running agent's, or the invocation's. */
  readonly span: OpenSpan | undefined;
  private readonly shared: InvocationShared;

  private constructor(fields: ContextFields) {
    this.invocationId = fields.invocationId;
    this.agent = fields.agent;
    this.branch = fields.branch;
    this.session = fields.session;
    this.sessionService = fields.sessionService;
    this.artifactService = fields.artifactService;
    this.userContent = fields.userContent;
    this.runConfig = fields.runConfig;
    this.resumable = fields.resumable;
    this.resumeScope = fields.resumeScope;
    this.span = fields.span;
    this.shared = fields.shared;
  }

  /** The context of a new or resumed invocation, over a working copy of `init.session`. */
  static create(init: InvocationContextInit): InvocationContext {
    const log = logOf(init.session);
    const active = init.activeEvents ?? new ActiveEventsView(log);
    active.follow(log);
    const session = withLogEvents(
      {
        id: init.session.id,
        appName: init.session.appName,
        userId: init.session.userId,
        state: { ...init.session.state },
      },
      log,
    );
    return new InvocationContext({
      invocationId: init.invocationId,
      agent: init.agent,
      branch: undefined,
      session,
      sessionService: init.sessionService,
      artifactService: init.artifactService,
      userContent: init.userContent,
      runConfig: init.runConfig ?? {},
      resumable: init.resumable ?? false,
      resumeScope: undefined,
      span: undefined,
      shared: {
        endInvocation: false,
        llmCalls: 0,
        active,
        resumeLog: undefined,
        pausedBranches: new Set(),
        tracer: init.tracer,
        memoryService: init.memoryService,
        pluginManager: init.pluginManager,
      },
    });
  }

  /**
   * The same invocation, seen by another agent (and, for a parallel sub-agent, its branch; for
   * an agent that opened one, with new spans under its `span`).
   */
  forAgent(
    agent: InvocationAgent,
    branch: string | undefined = this.branch,
    span: OpenSpan | undefined = this.span,
  ): InvocationContext {
    return new InvocationContext({ ...this, shared: this.shared, agent, branch, span });
  }

  /**
   * Starts a resume (see runner/resume.ts): from now on `resumeLog` is `log`, and this context
   * (the agent that began the invocation) resumes from its start.
   */
  beginResume(log: readonly Event[]): InvocationContext {
    this.shared.resumeLog = log;
    return this.resuming(0);
  }

  /** What records this run's spans, if it is traced. */
  get tracer(): InvocationTracer | undefined {
    return this.shared.tracer;
  }

  /** The user's memory across sessions (the runner's), if it has one. */
  get memoryService(): BaseMemoryService | undefined {
    return this.shared.memoryService;
  }

  /** The runner's plugins, if it has any (see src/plugins). */
  get pluginManager(): InvocationPlugins | undefined {
    return this.shared.pluginManager;
  }

  /** This context, stopped by `signal` too (a workflow node's deadline, say). */
  withSignal(signal: AbortSignal): InvocationContext {
    const own = this.runConfig.signal;
    return new InvocationContext({
      ...this,
      shared: this.shared,
      runConfig: { ...this.runConfig, signal: own ? AbortSignal.any([own, signal]) : signal },
    });
  }

  /** This context, with another message as the one that started it (a flow run as a node). */
  withUserContent(userContent: Content): InvocationContext {
    return new InvocationContext({ ...this, shared: this.shared, userContent });
  }

  /** This context, with new spans going under `span` (an agent's). */
  withSpan(span: OpenSpan | undefined): InvocationContext {
    if (!span) return this;
    return new InvocationContext({ ...this, shared: this.shared, span });
  }

  /** This context, for a child to run fresh (`undefined`) or resume from `scope` in `resumeLog`. */
  resuming(scope: number | undefined): InvocationContext {
    return new InvocationContext({ ...this, shared: this.shared, resumeScope: scope });
  }

  get isResuming(): boolean {
    return this.resumeScope !== undefined;
  }

  /** When resuming: the invocation's events from this agent's scope on, each with its index. */
  resumeEvents(): { event: Event; index: number }[] {
    const log = this.shared.resumeLog;
    if (!log || this.resumeScope === undefined) return [];
    const events: { event: Event; index: number }[] = [];
    for (let index = this.resumeScope; index < log.length; index++)
      events.push({ event: log[index]!, index });
    return events;
  }

  /** Records that an agent on this context's branch paused (waiting for a tool or a human). */
  markPaused(): void {
    this.shared.pausedBranches.add(this.branch ?? '');
  }

  /** Whether an agent on this branch, or a branch below it, paused during this run. */
  isPausedBelow(): boolean {
    const branch = this.branch;
    if (!branch) return this.shared.pausedBranches.size > 0;
    for (const paused of this.shared.pausedBranches) {
      if (paused === branch || paused.startsWith(`${branch}.`)) return true;
    }
    return false;
  }

  get appName(): string {
    return this.session.appName;
  }

  get userId(): string {
    return this.session.userId;
  }

  /** Set to stop the whole invocation after the current event. */
  /**
   * Whether `error` is this run being cancelled (Stop, or its consumer stopped reading): an
   * AbortError while the run's signal is aborted. Any other AbortError (a tool's own request that
   * gave up, say) is a failure like any other.
   */
  isCancellation(error: unknown): boolean {
    return (
      (error as Error | null)?.name === 'AbortError' && this.runConfig.signal?.aborted === true
    );
  }

  get endInvocation(): boolean {
    return this.shared.endInvocation;
  }

  set endInvocation(value: boolean) {
    this.shared.endInvocation = value;
  }

  /** Counts a model call; false once the invocation has used up `maxLlmCalls`. */
  countLlmCall(): boolean {
    this.shared.llmCalls++;
    return this.shared.llmCalls <= (this.runConfig.maxLlmCalls ?? DEFAULT_MAX_LLM_CALLS);
  }

  /** The rewind-aware view of the log (see core/active-events); the array never changes. */
  activeEvents(): readonly Event[] {
    return this.shared.active.get();
  }

  /**
   * The memo behind `activeEvents()`, shared by the whole invocation: for readers that keep
   * what they derive from the active events up to date with it, or only glance at them.
   */
  get activeView(): ActiveEventsView {
    return this.shared.active;
  }

  /** A new event of this invocation, by this agent, on this branch. */
  createEvent(init: Omit<EventInit, 'invocationId' | 'author'> & { author?: string } = {}): Event {
    return createEvent({
      invocationId: this.invocationId,
      author: this.agent.name,
      ...(this.branch ? { branch: this.branch } : {}),
      ...init,
    });
  }

  /**
   * Records an event the runner has stored: `stored` joins the log, and `original`'s delta
   * (which still has its `temp:` keys) updates the working state.
   */
  recordAppended(original: Event, stored: Event): void {
    appendEvent(this.session, stored);
    this.shared.active.follow(logOf(this.session));
    this.session.state = applyDelta(this.session.state, original.actions.stateDelta);
  }
}
