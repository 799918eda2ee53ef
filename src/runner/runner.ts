// The Runner: runs an agent tree over a session service, storing every event it yields.

import type { BaseAgent } from '../agents/base-agent.ts';
import type { Content } from '../core/content.ts';
import {
  InvalidRequestError,
  InvocationNotFoundError,
  NotResumableError,
  SessionNotFoundError,
} from '../core/errors.ts';
import { createEvent, isRewindMarker, type Event } from '../core/event.ts';
import { newInvocationId } from '../core/ids.ts';
import type { BaseArtifactService } from '../store/artifact-service.ts';
import { InMemoryArtifactService } from '../store/in-memory-artifact-service.ts';
import { InMemorySessionService } from '../store/in-memory-session-service.ts';
import type { BaseSessionService, Session } from '../store/session-service.ts';
import { findAgentToRun } from './agent-to-run.ts';
import { InvocationContext, type RunConfig } from './invocation-context.ts';

export interface ResumabilityConfig {
  /** Workflow agents write checkpoints, and `runAsync({ invocationId })` continues a run. */
  isResumable: boolean;
}

export interface RunnerOptions {
  appName: string;
  agent: BaseAgent;
  sessionService: BaseSessionService;
  artifactService?: BaseArtifactService;
  resumabilityConfig?: ResumabilityConfig;
}

export interface RunAsyncRequest {
  userId: string;
  sessionId: string;
  /** The user's message; starts a new invocation (or answers a paused one). */
  newMessage?: Content;
  /** Continue this invocation instead (resumable runners only). */
  invocationId?: string;
  /** State changes recorded with the user's message. */
  stateDelta?: Record<string, unknown>;
  runConfig?: RunConfig;
}

export interface RewindRequest {
  userId: string;
  sessionId: string;
  /** The invocation to go back to just before (a turn, or a marker to undo a rewind). */
  rewindBeforeInvocationId: string;
}

export interface EditMessageRequest {
  userId: string;
  sessionId: string;
  /** The turn whose user message is replaced. */
  invocationId: string;
  newMessage: Content;
  runConfig?: RunConfig;
}

export interface ForkSessionAsyncRequest {
  userId: string;
  sessionId: string;
  /** The new session holds the conversation up to and including this turn. */
  atInvocationId: string;
  newSessionId?: string;
}

export class Runner {
  readonly appName: string;
  readonly agent: BaseAgent;
  readonly sessionService: BaseSessionService;
  readonly artifactService: BaseArtifactService | undefined;
  readonly resumabilityConfig: ResumabilityConfig;

  constructor(options: RunnerOptions) {
    this.appName = options.appName;
    this.agent = options.agent;
    this.sessionService = options.sessionService;
    this.artifactService = options.artifactService;
    this.resumabilityConfig = options.resumabilityConfig ?? { isResumable: false };
    checkAgentTree(options.agent);
  }

  /**
   * Runs one turn: appends the user's message (not yielded), then runs the agent that answers it
   * and yields its events, each stored before it is yielded (partial events are yielded only).
   * A model or tool failure yields a stored error event, then throws. Cancelling through
   * `runConfig.signal` ends the stream quietly; the invocation can be resumed.
   */
  async *runAsync(request: RunAsyncRequest): AsyncGenerator<Event, void> {
    const session = await this.loadSession(request.userId, request.sessionId);
    if (request.invocationId !== undefined && !this.resumabilityConfig.isResumable) {
      throw new NotResumableError();
    }
    const message = checkMessage(request.newMessage);
    const invocationId = newInvocationId();
    const userContent: Content = { role: 'user', parts: message.parts };
    const ctx = this.newContext(session, invocationId, userContent, request.runConfig);
    await this.append(
      ctx,
      createEvent({
        invocationId,
        author: 'user',
        content: userContent,
        actions: { stateDelta: request.stateDelta ?? {} },
      }),
    );
    yield* this.runAgent(ctx, findAgentToRun(ctx.activeEvents(), this.agent));
  }

  /**
   * Puts the session back as it was just before invocation `rewindBeforeInvocationId`: appends
   * and returns a marker event whose state delta and artifact versions restore the session
   * scope (`app:` / `user:` state and `user:` artifacts are not touched), all in one atomic write.
   * The log keeps every event; the rewound span drops out of the active events, so the model
   * forgets it. Unknown session → SessionNotFoundError; unknown invocation →
   * InvocationNotFoundError; nothing is written then.
   */
  rewindAsync(request: RewindRequest): Promise<Event> {
    return this.sessionService.rewindSession({
      appName: this.appName,
      userId: request.userId,
      sessionId: request.sessionId,
      rewindBeforeInvocationId: request.rewindBeforeInvocationId,
      artifactService: this.artifactService,
    });
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
  ): InvocationContext {
    return InvocationContext.create({
      invocationId,
      agent: this.agent,
      session,
      sessionService: this.sessionService,
      artifactService: this.artifactService,
      userContent,
      runConfig: runConfig ?? {},
      resumable: this.resumabilityConfig.isResumable,
    });
  }

  /** Runs `agent` in `ctx`, storing each complete event before yielding it. */
  protected async *runAgent(ctx: InvocationContext, agent: BaseAgent): AsyncGenerator<Event, void> {
    const signal = ctx.runConfig.signal;
    try {
      for await (const event of agent.runAsync(ctx)) {
        signal?.throwIfAborted();
        yield event.partial ? event : await this.append(ctx, event);
      }
    } catch (error) {
      if (signal?.aborted && (error as Error | null)?.name === 'AbortError') return;
      throw error;
    }
  }

  protected async append(ctx: InvocationContext, event: Event): Promise<Event> {
    const stored = await this.sessionService.appendEvent({ session: ctx.session, event });
    ctx.recordAppended(event, stored);
    return stored;
  }
}

export interface InMemoryRunnerOptions {
  agent: BaseAgent;
  appName?: string;
  resumabilityConfig?: ResumabilityConfig;
}

/** A Runner over in-memory session and artifact services. */
export class InMemoryRunner extends Runner {
  constructor(options: InMemoryRunnerOptions) {
    super({
      appName: options.appName ?? 'InMemoryRunner',
      agent: options.agent,
      sessionService: new InMemorySessionService(),
      artifactService: new InMemoryArtifactService(),
      ...(options.resumabilityConfig ? { resumabilityConfig: options.resumabilityConfig } : {}),
    });
  }
}

function checkMessage(message: Content | undefined): Content {
  if (!message || !Array.isArray(message.parts) || message.parts.length === 0) {
    throw new InvalidRequestError('A new message needs at least one part');
  }
  return message;
}

/** Agent names must be unique in the tree: transfer and the log refer to agents by name. */
function checkAgentTree(root: BaseAgent): void {
  const seen = new Set<string>();
  for (const agent of root.walk()) {
    if (seen.has(agent.name)) {
      throw new InvalidRequestError(
        `Two agents are named ${agent.name}; names must be unique in the tree`,
      );
    }
    seen.add(agent.name);
  }
}
